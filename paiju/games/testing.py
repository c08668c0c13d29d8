"""The conformance kit: plays any registered game with random legal moves and checks the
invariants every game must keep. Game test modules call :func:`check_game`::

    def test_conformance():
        report = check_game("mahjong", "classic", seeds=range(2000))
        assert report.games == 2000

Checked at every step: who acts and the legal sets agree (mask = the options' codes,
seats not to act have nothing); the chosen legal action is accepted; the views and
the events each seat receives hold no card byte beyond what that seat may see
(its concealed cards plus the public ones, as a multiset), for spectators too, every
view matches the game's declaration (``Game.VIEW``, paiju.protocol.views.check), its keys
in the declared order, and they encode as protocol frames. At sampled steps: every legal
option is accepted (on a copy) and a sample of illegal actions (out of turn, a code not
in the mask, cards not offered) is refused with a code and changes nothing. At the end: the game
terminated within ``max_steps``, ``outcome()`` raised HandNotOver until then (the same in
every game), the outcome is whole, its detail matches the game's declaration
(``Game.DETAIL``, as RESULT's ``detail``, in its order), and replaying the log from
the seed gives the same events, views and outcome.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paiju.games.base import Game, GameAction, GameError, HandNotOver
from paiju.games.registry import get
from paiju.protocol import ErrorCode, Event, Prompt, RoomState, decode, encode, views
from paiju.protocol.cards import ACTION_DOMAIN, CARD_DOMAIN, HIDDEN
from paiju.protocol.views import ViewError


class ConformanceError(AssertionError):
    pass


@dataclass
class Report:
    games: int = 0
    steps: int = 0
    options_tried: int = 0
    illegal_refused: int = 0
    refusal_codes: Counter[int] = field(default_factory=Counter)
    max_steps_seen: int = 0


def random_action(game: Game[Any], seat: int, rng: random.Random) -> GameAction:
    """A uniformly chosen option of ``seat``, with a random choice of ``pick`` bytes."""
    opt = rng.choice(game.legal(seat).options)
    return GameAction(opt.code, bytes(rng.sample(list(opt.cards), opt.pick)))


def play_random(game: Game[Any], rng: random.Random, max_steps: int = 100_000) -> Game[Any]:
    """Play ``game`` to its end with random legal actions (no checks)."""
    for _ in range(max_steps):
        seats = game.to_act()
        if not seats:
            return game
        seat = rng.choice(seats)
        game.apply(seat, random_action(game, seat, rng))
    raise ConformanceError(f"{game!r} did not end within {max_steps} actions")


def card_bytes(value: Any) -> Counter[int]:
    """Every non-hidden byte in the ``bytes`` values of a view (nested lists and maps)."""
    found: Counter[int] = Counter()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, bytes):
            found.update(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    found.pop(HIDDEN, None)
    return found


def _fingerprint(game: Game[Any]) -> Any:
    seats = range(game.num_seats)
    return (
        len(game.log),
        len(game.events),
        game.to_act(),
        [game.view(s) for s in seats],
        game.view(None),
        [game.legal(s) for s in seats],
    )


def _check_hidden(game: Game[Any], events: list[Any], where: str) -> None:
    public = Counter(game.public())
    for seat in [*range(game.num_seats), None]:
        entitled = public + Counter(game.concealed(seat)) if seat is not None else public
        who = "spectator" if seat is None else f"seat {seat}"
        view = game.view(seat)
        extra = card_bytes(view) - entitled
        if extra:
            raise ConformanceError(f"{where}: the view of {who} shows {bytes(extra.elements()).hex()} it may not see")
        try:
            views.check(type(game).VIEW, view, seats=game.num_seats, where=f"the view of {who}", ordered=True)
        except ViewError as e:
            raise ConformanceError(f"{where}: {e} (its declaration: {type(game).VIEW.__module__})") from None
        frame = RoomState("r", game.name, game.rules.name, seat, 0, 0, [], [], view)
        if decode(encode(frame)) != frame:
            raise ConformanceError(f"{where}: the view of {who} does not survive the codec")
        for ev in events:
            seen = ev.seen_by(seat)
            extra = Counter(b for b in seen.cards if b != HIDDEN) - entitled
            if extra:
                raise ConformanceError(f"{where}: {who} receives event {ev} showing {bytes(extra.elements()).hex()}")
            encode(Event("r", 0, seen.code, seen.seat, seen.cards, seen.arg))


def _check_legal_sets(game: Game[Any], where: str) -> None:
    acting = set(game.to_act())
    for seat in range(game.num_seats):
        s = game.legal(seat)
        if seat not in acting:
            if s.mask or s.options:
                raise ConformanceError(f"{where}: seat {seat} is not to act yet has options {s}")
            continue
        if not s.options:
            raise ConformanceError(f"{where}: seat {seat} is to act but has no option")
        if s.mask != sum(1 << c for c in {o.code for o in s.options}):
            raise ConformanceError(f"{where}: mask {s.mask:08b} disagrees with the options' codes")
        for o in s.options:
            if not 0 <= o.pick <= len(o.cards) or any(b not in ACTION_DOMAIN for b in o.cards):
                raise ConformanceError(f"{where}: bad option {o}")
        if len(encode(Prompt("r", 0, seat, 0, s.mask, list(s.options)))) > 60_000:
            raise ConformanceError(f"{where}: the prompt of seat {seat} would not fit in one frame")


def _expect_refused(game: Game[Any], seat: int, action: GameAction, where: str, report: Report) -> None:
    before = _fingerprint(game)
    try:
        game.apply(seat, action)
    except GameError as e:
        if not e.code or not e.reason:
            raise ConformanceError(f"{where}: refusal of {action} has no code or reason") from None
        report.illegal_refused += 1
        report.refusal_codes[e.code] += 1
    else:
        raise ConformanceError(f"{where}: illegal {action} by seat {seat} was accepted")
    if _fingerprint(game) != before:
        raise ConformanceError(f"{where}: refused {action} changed the state")


def _try_illegal(game: Game[Any], rng: random.Random, where: str, report: Report) -> None:
    acting = game.to_act()
    idle = [s for s in range(game.num_seats) if s not in acting]
    if idle:  # out of turn, with an action some other seat may take
        other = rng.choice(acting)
        _expect_refused(game, rng.choice(idle), random_action(game, other, rng), where, report)
    seat = rng.choice(acting)
    legal = game.legal(seat)
    absent = [c for c in range(8) if not legal.mask >> c & 1]
    if absent:  # a code not in the mask
        _expect_refused(game, seat, GameAction(rng.choice(absent), b""), where, report)
    _expect_refused(game, seat, GameAction(8 + rng.randrange(248), b""), where, report)
    opt = rng.choice(legal.options)
    offered = set(opt.cards)
    others = [b for b in sorted(CARD_DOMAIN) if b not in offered]
    if opt.pick and others:  # the right code, a byte that was not offered
        cards = bytearray(rng.sample(list(opt.cards), opt.pick))
        cards[rng.randrange(len(cards))] = rng.choice(others)
        candidate = GameAction(opt.code, bytes(cards))
        if not legal.allows(candidate):
            _expect_refused(game, seat, candidate, where, report)
    if opt.pick < 8:  # the right code, one byte too many
        candidate = GameAction(
            opt.code, bytes(rng.sample(list(opt.cards), opt.pick)) + bytes([rng.choice(sorted(CARD_DOMAIN))])
        )
        if not legal.allows(candidate):
            _expect_refused(game, seat, candidate, where, report)


def _copy(game: Game[Any]) -> Game[Any]:
    """A deep copy without the history (copying the growing event list would dominate the run)."""
    history = game.events, game.log
    game.events, game.log = [], []
    try:
        return copy.deepcopy(game)
    finally:
        game.events, game.log = history


def _try_every_option(game: Game[Any], rng: random.Random, where: str, report: Report) -> None:
    """Every option is accepted; for a "pick" option, every single byte (pick 1) or a few random choices."""
    for seat in game.to_act():
        for opt in game.legal(seat).options:
            if opt.pick == len(opt.cards):
                choices = [opt.cards]
            elif opt.pick == 1:
                choices = [bytes([b]) for b in sorted(set(opt.cards))]
            else:
                choices = [bytes(rng.sample(list(opt.cards), opt.pick)) for _ in range(4)]
            for cards in choices:
                trial = _copy(game)
                try:
                    trial.apply(seat, GameAction(opt.code, cards))
                except GameError as e:
                    raise ConformanceError(
                        f"{where}: legal {opt.code}/{cards.hex()} of seat {seat} was refused: {e}"
                    ) from None
                report.options_tried += 1


def _check_no_outcome_yet(game: Game[Any], where: str) -> None:
    """Before the end of the hand ``outcome()`` raises HandNotOver, the same in every game."""
    try:
        game.outcome()
    except HandNotOver:
        return
    except Exception as e:
        why = f"raised {type(e).__name__}, not HandNotOver"
        raise ConformanceError(f"{where}: outcome() before the end {why}") from None
    raise ConformanceError(f"{where}: outcome() before the end of the hand gave an outcome")


def check_game(
    name: str | type[Game[Any]],
    ruleset: str | None = None,
    seeds: Iterable[int] = range(200),
    *,
    max_steps: int = 20_000,
    sample_every: int = 7,
    hidden_every: int = 1,
    report: Report | None = None,
) -> Report:
    """Play one random game per seed and check every invariant (raises ConformanceError).

    ``name`` is a registered game's name or a Game class.
    """
    cls = get(name) if isinstance(name, str) else name
    name = cls.name
    report = report or Report()
    for seed in seeds:
        rng = random.Random(seed)
        hand = seed % 4
        game = cls(seed, ruleset, hand=hand)
        where = f"{name}/{game.rules.name} seed {seed}"
        _check_hidden(game, game.events, f"{where} deal")
        step = 0
        while game.to_act():
            if step >= max_steps:
                raise ConformanceError(f"{where}: no end after {max_steps} actions")
            at = f"{where} step {step}"
            _check_legal_sets(game, at)
            if step % sample_every == 0:
                _try_illegal(game, rng, at, report)
                _try_every_option(game, rng, at, report)
                _check_no_outcome_yet(game, at)
            seat = rng.choice(game.to_act())
            action = random_action(game, seat, rng)
            try:
                events = game.apply(seat, action)
            except GameError as e:
                raise ConformanceError(f"{at}: legal {action} of seat {seat} was refused: {e}") from None
            if step % hidden_every == 0:
                _check_hidden(game, events, at)
            step += 1
        if not game.is_over:
            raise ConformanceError(f"{where}: nobody is to act but the game is not over")
        _check_legal_sets(game, f"{where} end")
        try:
            game.apply(0, GameAction(0, b""))
        except GameError as e:
            if e.code != ErrorCode.GAME_OVER:
                raise ConformanceError(f"{where}: an action after the end got {e.code}, not GAME_OVER") from None
        else:
            raise ConformanceError(f"{where}: an action after the end was accepted")
        out = game.outcome()
        if len(out.scores) != game.num_seats or len(out.hands) != game.num_seats:
            raise ConformanceError(f"{where}: outcome {out} is not one entry per seat")
        try:
            views.check(cls.DETAIL, dict(out.detail), seats=game.num_seats, where="the outcome's detail", ordered=True)
        except ViewError as e:
            raise ConformanceError(f"{where}: {e} (its declaration: {cls.DETAIL.__module__}.Detail)") from None
        try:
            again = cls.replay(seed, ruleset, game.log, hand=hand)
        except GameError as e:
            raise ConformanceError(f"{where}: replaying the log refuses an action that was accepted: {e}") from None
        if again.events != game.events or again.outcome() != out or _fingerprint(again) != _fingerprint(game):
            raise ConformanceError(f"{where}: replaying the log does not rebuild the same game")
        report.games += 1
        report.steps += step
        report.max_steps_seen = max(report.max_steps_seen, step)
    return report
