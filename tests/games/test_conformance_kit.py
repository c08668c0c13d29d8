"""The conformance kit itself: it passes a correct game and catches each kind of broken one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.games import ActionSet, GameAction, GameError, GameEvent, HandNotOver, Outcome, create, get, names
from paiju.games.testing import ConformanceError, check_game
from paiju.games.tricks import Tricks
from paiju.protocol import RoomEvent
from paiju.protocol.frames import Option


def test_registry_knows_every_game_and_refuses_unknown_ones() -> None:
    for name in names():
        assert get(name).name == name
    with pytest.raises(KeyError, match="known"):
        get("chess")
    with pytest.raises(KeyError, match="ruleset"):
        create("tricks", 1, "no-such-rules")


@pytest.mark.parametrize("game", names())
def test_outcome_before_the_end_raises_the_same_error_in_every_game(game: str) -> None:
    g = create(game, 3)
    with pytest.raises(HandNotOver) as e:
        g.outcome()
    assert isinstance(e.value, GameError) and e.value.code == HandNotOver().code


def test_a_correct_game_passes() -> None:
    report = check_game("tricks", seeds=range(50))
    assert report.games == 50 and report.illegal_refused > 0 and report.options_tried > 0


class LeakyView(Tricks):
    def view(self, seat: int | None) -> dict[str, Any]:
        v = super().view(seat)
        if seat is not None:
            v["peek"] = self.concealed(1 - seat)[:1]
        return v


class OffItsDeclaration(Tricks):
    def view(self, seat: int | None) -> Any:
        v = dict(super().view(seat))
        v["counts"] = v["counts"][:1]  # the declaration says one entry per seat
        return v


class LeakyDeal(Tricks):
    def _setup(self) -> list[GameEvent]:
        events = super()._setup()
        return [GameEvent(e.code, e.seat, e.cards, e.arg) if e.code == RoomEvent.DEAL else e for e in events]


class Unseeded(Tricks):
    def _setup(self) -> list[GameEvent]:
        events = super()._setup()
        n = self.rules.n
        deck = list(range(1, 2 * n + 1))
        random.shuffle(deck)  # global randomness: a replay deals differently
        self.hands = [sorted(deck[:n]), sorted(deck[n:])]
        return [e for e in events if e.code != RoomEvent.DEAL]


class WrongMask(Tricks):
    def legal(self, seat: int) -> ActionSet:
        s = super().legal(seat)
        return ActionSet(s.mask | 0b10, s.options) if s else s


class RefusesItsOwnOption(Tricks):
    def legal(self, seat: int) -> ActionSet:
        s = super().legal(seat)
        if not s:
            return s
        return ActionSet.of([*s.options, Option.exactly(0, bytes([0x3E]))])

    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        if action.cards == bytes([0x3E]) and 52 not in self.hands[seat]:
            raise GameError(999, "not really legal")
        return super()._apply(seat, action)


class ChangesStateOnRefusal(Tricks):
    def refusal(self, seat: int, action: GameAction) -> GameError:
        self.won[0] += 1
        return super().refusal(seat, action)


class NeverEnds(Tricks):
    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        events = super()._apply(seat, action)
        self.hands[seat].append(1 if seat == 0 else 2)  # take a card back: the hand never empties
        return events


class EarlyOutcome(Tricks):
    def outcome(self) -> Outcome:
        return Outcome((0, 0), tuple(self.dealt))  # no HandNotOver before the end


class OutcomeRuntimeError(Tricks):
    def outcome(self) -> Outcome:
        if not self.is_over:
            raise RuntimeError("the hand is not over")
        return super().outcome()


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (LeakyView, "may not see"),
        (OffItsDeclaration, "the declaration says one per seat"),
        (LeakyDeal, "showing"),
        (Unseeded, "replaying"),
        (WrongMask, "mask"),
        (RefusesItsOwnOption, "was refused"),
        (ChangesStateOnRefusal, "changed the state"),
        (NeverEnds, "no end"),
        (EarlyOutcome, "gave an outcome"),
        (OutcomeRuntimeError, "raised RuntimeError, not HandNotOver"),
    ],
)
def test_a_broken_game_is_caught(broken: type[Tricks], message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(broken, seeds=range(30), max_steps=400)
