"""The one interface every game implements (docs/design.md §3): sans-I/O, deterministic from a seed.

A game is one hand (one deal, one board) created from ``(seed, rules, hand, dealer)``.
It says who may act (:meth:`Game.to_act`: several seats in a mahjong claim window), the
legal action set of a seat (:meth:`Game.legal`: one-byte mask + options), applies an
action (:meth:`Game.apply` -> events, or :class:`GameError` with a code and nothing
changed), shows a seat or a spectator exactly what it may know (:meth:`Game.view`), and
when it is over gives the :class:`Outcome`. Replaying ``log`` on a fresh game rebuilds it.

Views and events follow two rules that the conformance kit (paiju/games/testing.py) checks:
``bytes`` values hold card bytes and nothing else (calls and counts are ints), and a
view shows each physical card at most once.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, TypeVar

from paiju.protocol import HIDDEN, ErrorCode, Option, mask_of
from paiju.protocol.errors import GameError, HandNotOver
from paiju.protocol.frames import quick_init

__all__ = ["ActionSet", "Game", "GameAction", "GameError", "GameEvent", "HandNotOver", "Outcome", "Rules"]


@quick_init
@dataclass(frozen=True)
class GameAction:
    """What a seat does: an action code of its game and the bytes it names."""

    code: int
    cards: bytes = b""


@quick_init
@dataclass(frozen=True)
class ActionSet:
    """The legal action set of a seat: the one-byte mask and the concrete options.

    >>> s = ActionSet.of([Option.exactly(0, b"\\x01"), Option(2, b"\\x01\\x02\\x03", 2)])
    >>> s.mask, s.allows(GameAction(2, b"\\x03\\x01")), s.allows(GameAction(2, b"\\x01\\x01"))
    (5, True, False)
    """

    mask: int
    options: tuple[Option, ...]

    @classmethod
    def of(cls, options: Iterable[Option]) -> ActionSet:
        opts = tuple(options)
        return cls(mask_of({o.code for o in opts}), opts)

    @classmethod
    def empty(cls) -> ActionSet:
        return cls(0, ())

    def __bool__(self) -> bool:
        return bool(self.options)

    def allows(self, action: GameAction) -> bool:
        """True when ``action`` uses ``pick`` bytes of one option of its code (as a multiset)."""
        code, cards = action.code, action.cards
        if not (0 <= code < 8 and self.mask >> code & 1):
            return False
        if len(cards) == 1:  # one card, tile or call (most actions, every move): a membership test
            one = cards[0]
            for o in self.options:  # noqa: SIM110 - a generator in any() costs a move more
                if o.code == code and o.pick == 1 and one in o.cards:
                    return True
            return False
        want = Counter(cards)
        return any(o.code == code and o.pick == len(cards) and not want - Counter(o.cards) for o in self.options)


@quick_init
@dataclass(frozen=True)
class GameEvent:
    """Something that happened, with who may see its cards.

    ``visible_to`` None: everyone sees ``cards``; otherwise the other seats and the
    spectators get the same number of ``0x00`` bytes (a mahjong draw, a Niujiu cover).
    """

    code: int
    seat: int | None = None
    cards: bytes = b""
    arg: int = 0
    visible_to: frozenset[int] | None = None
    text: str = ""  # the event's meaning in words, public (a bridge call's explanation): EVENT's ``text``

    def seen_by(self, seat: int | None) -> GameEvent:
        """The event as ``seat`` (None: a spectator) receives it."""
        if self.visible_to is None:
            return self
        cards = self.cards if seat is not None and seat in self.visible_to else bytes([HIDDEN]) * len(self.cards)
        return GameEvent(self.code, self.seat, cards, self.arg, None, self.text)


@quick_init
@dataclass(frozen=True)
class Outcome:
    """The end of a hand: score per seat (they sum to 0 unless the game says otherwise),
    every seat's hand revealed, and a game-specific breakdown (msgpack-able)."""

    scores: tuple[int, ...]
    hands: tuple[bytes, ...]
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Rules:
    """Base of each game's rules: a named ruleset plus the options it sets."""

    name: str = "standard"


R = TypeVar("R", bound=Rules)


class Game(ABC, Generic[R]):
    """One hand of a game. Subclasses define the class attributes and the abstract methods."""

    name: ClassVar[str]
    RULESETS: ClassVar[dict[str, Any]]  # ruleset name -> Rules instance; the first is the default
    VIEW: ClassVar[Any]  # the TypedDict of what view() returns, declared in paiju/protocol/<game>.py
    TITLE: ClassVar[str]  # the game's name for people ("Mahjong 麻将")
    RULESET_NOTES: ClassVar[dict[str, str]]  # ruleset name -> a one-line description (GET /api/games)
    DETAIL: ClassVar[Any]  # the TypedDict of the outcome's detail (RESULT's), declared beside VIEW
    rules: R

    def __init__(self, seed: int, rules: R | str | None = None, *, hand: int = 0, dealer: int | None = None):
        self.seed = seed
        self.rules = self.ruleset(rules)
        self.hand = hand
        self.dealer = self.default_dealer(hand) if dealer is None else dealer
        self.rng = random.Random(f"paiju:{self.name}:{seed}:{hand}")
        self.log: list[tuple[int, GameAction]] = []
        self.events: list[GameEvent] = self._setup()

    @classmethod
    def ruleset(cls, rules: R | str | None = None, **overrides: Any) -> R:
        """The Rules for a ruleset name (None: the default), with options overridden."""
        if rules is None:
            rules = next(iter(cls.RULESETS))
        if isinstance(rules, str):
            if rules not in cls.RULESETS:
                raise KeyError(f"{cls.name} has no ruleset {rules!r}; known: {', '.join(cls.RULESETS)}")
            rules = cls.RULESETS[rules]
        return replace(rules, **overrides) if overrides else rules  # type: ignore[type-var, return-value]

    # ---------------------------------------------------------- what each game defines
    @property
    @abstractmethod
    def num_seats(self) -> int: ...

    def default_dealer(self, hand: int) -> int:
        """The seat that deals (leads, is head) in hand number ``hand`` of a match."""
        return hand % self.num_seats

    @abstractmethod
    def _setup(self) -> list[GameEvent]:
        """Deal from ``self.rng``; return the events of the deal."""

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats with a decision pending (empty when the hand is over)."""

    @abstractmethod
    def legal(self, seat: int) -> ActionSet:
        """The legal action set of ``seat`` now (empty when it has nothing to decide)."""

    @abstractmethod
    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        """Apply an action that :meth:`legal` allows; return what happened."""

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """Everything ``seat`` (None: a spectator) may know, and nothing more: a :attr:`VIEW`."""

    @abstractmethod
    def concealed(self, seat: int) -> bytes:
        """The cards only ``seat`` may see now (its hand; for the conformance kit)."""

    @abstractmethod
    def public(self) -> bytes:
        """Every card face up on the table now (for the conformance kit)."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome:
        """Scores and revealed hands; only when :attr:`is_over` (else :class:`HandNotOver`)."""

    def default_action(self, seat: int) -> GameAction:
        """What the room plays for ``seat`` when its clock runs out (documented per game)."""
        opt = self.legal(seat).options[0]
        return GameAction(opt.code, opt.cards[: opt.pick])

    def controller(self, seat: int) -> int:
        """The seat whose player decides for ``seat`` (bridge: the declarer for dummy)."""
        return seat

    def refusal(self, seat: int, action: GameAction) -> GameError:
        """Why ``action`` is not legal for ``seat`` (games override for sharper codes)."""
        legal = self.legal(seat)
        if not 0 <= action.code < 8 or not legal.mask >> action.code & 1:
            return GameError(
                ErrorCode.ILLEGAL_ACTION, f"action {action.code} is not allowed now (mask {legal.mask:08b})"
            )
        return GameError(ErrorCode.ILLEGAL_CARDS, f"{action.cards.hex()} matches no option of action {action.code}")

    # ---------------------------------------------------------- the shared machinery
    def apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        """Apply ``action`` for ``seat`` and return the events, or raise GameError unchanged."""
        if self.is_over:
            raise GameError(ErrorCode.GAME_OVER, "the hand is over")
        if seat not in self.to_act():
            raise GameError(ErrorCode.NOT_YOUR_TURN, f"seat {seat} has no decision pending")
        if not self.legal(seat).allows(action):
            raise self.refusal(seat, action)
        events = self._apply(seat, action)
        self.log.append((seat, action))
        self.events.extend(events)
        return events

    @classmethod
    def replay(
        cls,
        seed: int,
        rules: R | str | None,
        log: Sequence[tuple[int, GameAction]],
        *,
        hand: int = 0,
        dealer: int | None = None,
    ) -> Game[R]:
        """Rebuild a game from its seed, rules and action log (persistence, recovery, replays)."""
        g = cls(seed, rules, hand=hand, dealer=dealer)
        for seat, action in log:
            g.apply(seat, action)
        return g

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"to act {list(self.to_act())}"
        name = type(self).__name__
        return f"<{name} {self.rules.name} seed={self.seed} hand={self.hand} {state}, {len(self.log)} actions>"
