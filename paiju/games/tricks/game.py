"""The simple trick-taking game as a paiju game (two seats; cards travel as pack bytes)."""

from __future__ import annotations

from dataclasses import dataclass

from paiju.games.base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from paiju.games.registry import register
from paiju.protocol import RoomEvent, echo
from paiju.protocol.cards import tricks_card, tricks_number
from paiju.protocol.frames import Option
from paiju.protocol.tricks import ActCode, Detail, Error, EventCode, View


@dataclass(frozen=True)
class TricksRules(Rules):
    n: int = 8  # cards per seat; the order of the instance (1..26)

    def __post_init__(self) -> None:
        if not 1 <= self.n <= 26:
            raise ValueError(f"n must be 1..26 (2n cards in a 52-card pack), not {self.n}")


def tricks_numbers(cards: bytes) -> list[int]:
    """The card numbers 1..2n of some card bytes, in the order given."""
    return [tricks_number(b) for b in cards]


@register
class Tricks(Game[TricksRules]):
    name = "tricks"
    VIEW = View
    DETAIL = Detail
    TITLE = "Tricks"
    RULESET_NOTES = {
        "standard": "8 cards each, the numbers 1..16",
        "pack": "26 cards each: a whole 52-card pack between two",
    }
    RULESETS = {"standard": TricksRules("standard", 8), "pack": TricksRules("pack", 26)}

    @property
    def num_seats(self) -> int:
        return 2

    def _setup(self) -> list[GameEvent]:
        n = self.rules.n
        deck = list(range(1, 2 * n + 1))
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[:n]), sorted(deck[n:])]
        self.dealt = [_bytes(h) for h in self.hands]
        self.leader = self.dealer
        self.trick: list[int] = []  # card numbers of the trick in progress, leader's first
        self.played: list[int] = []  # completed tricks, two cards each, leader's first
        self.won = [0, 0]
        self._legal: tuple[int, int, ActionSet] | None = None  # the last legal set: (seat, actions applied, set)
        events = [GameEvent(RoomEvent.HAND_START, self.leader, arg=self.hand)]
        for s in (0, 1):
            events.append(GameEvent(RoomEvent.DEAL, s, _bytes(self.hands[s]), visible_to=frozenset({s})))
        return events

    @property
    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def to_act(self) -> tuple[int, ...]:
        hands = self.hands
        if not hands[0] and not hands[1]:
            return ()
        return (self.leader if not self.trick else 1 - self.leader,)

    def legal(self, seat: int) -> ActionSet:
        # asked twice a move (the prompt, then the check of the answer): kept until the next
        # action is applied (the log grows with each; a seat's set is kept only when it had
        # one to act, and whether it has depends on the actions applied alone)
        kept = self._legal
        if kept is not None and kept[0] == seat and kept[1] == len(self.log):
            return kept[2]
        if seat not in self.to_act():
            return ActionSet.empty()
        legal = ActionSet(_PLAY_MASK, (Option(_PLAY, _bytes(self.hands[seat]), 1),))
        self._legal = (seat, len(self.log), legal)
        return legal

    def refusal(self, seat: int, action: GameAction) -> GameError:
        """A PLAY of one card that is not in the hand is CARD_NOT_IN_HAND; anything else as the base class."""
        if action.code == ActCode.PLAY and len(action.cards) == 1 and self.legal(seat).mask:
            return GameError(Error.CARD_NOT_IN_HAND, f"{action.cards.hex()} is not a card of seat {seat}'s hand")
        return super().refusal(seat, action)

    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        card = tricks_number(action.cards[0])
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append(card)
        events = [GameEvent(_PLAYED, seat, action.cards)]
        if len(trick) == 2:
            leader = self.leader
            winner = leader if trick[0] > trick[1] else 1 - leader
            self.won[winner] += 1
            self.played += trick
            self.trick = []
            self.leader = winner
            events.append(GameEvent(_TRICK, winner, arg=self.won[winner]))
        return events

    def default_action(self, seat: int) -> GameAction:
        """On a timeout the lowest card is played."""
        return GameAction(ActCode.PLAY, _bytes([min(self.hands[seat])]))

    def view(self, seat: int | None) -> View:
        return {
            "hand": _bytes(self.hands[seat]) if seat is not None else b"",
            "counts": [len(h) for h in self.hands],
            "leader": self.leader,
            "trick": _bytes(self.trick),
            "played": _bytes(self.played),
            "won": list(self.won),
            "n": self.rules.n,
        }

    def concealed(self, seat: int) -> bytes:
        return _bytes(self.hands[seat])

    def public(self) -> bytes:
        return _bytes(self.played + self.trick)

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise HandNotOver()
        d = self.won[0] - self.won[1]
        return Outcome((d, -d), tuple(self.dealt), dict(Detail(tricks=list(self.won))))


# read on every move (an IntEnum member read costs more than a global's)
_PLAY = ActCode.PLAY
_PLAY_MASK = 1 << _PLAY  # ActionSet.of's mask of PLAY options
_PLAYED = echo(ActCode.PLAY)
_TRICK = EventCode.TRICK
_CARD_BYTES = bytes([0, *(tricks_card(k) for k in range(1, 53)), *bytes(256 - 53)])  # number -> card byte


def _bytes(numbers: list[int]) -> bytes:
    return bytes(numbers).translate(_CARD_BYTES)
