"""Niujiu (牛九) as a paiju game: three seats, tricks of k cards, occupancy and "enough".

The rules, with their sources, are docs/rules/niujiu.md; the comments cite its rule
numbers (R5.2 ...).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, cast

from paiju.games.base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from paiju.games.niujiu.patterns import LEVEL, K, Pattern, classify, pattern_beats, patterns, rank
from paiju.games.registry import register
from paiju.protocol import ErrorCode, RoomEvent, echo
from paiju.protocol.cards import NIUJIU_CARDS
from paiju.protocol.frames import Option
from paiju.protocol.niujiu import ActCode, Detail, Error, EventCode, TrickPlay, View

SEATS = 3
HAND_SIZE = 16
ENOUGH = 6  # R6.1: 够牌


@dataclass(frozen=True)
class NiujiuRules(Rules):
    stake: int = 1  # R7.1: what each seat that is not enough pays each seat that is
    liangzi_bonus: int = 1  # R7.2: what each other seat pays for every liangzi a seat occupied
    play_out: bool = False  # R6.2: True plays every card even when the enough seats are settled

    def __post_init__(self) -> None:
        if self.stake < 0 or self.liangzi_bonus < 0:
            raise ValueError("stake and liangzi_bonus must not be negative")


@dataclass(frozen=True)
class Play:
    """One seat's part of a trick: a face-up lead or eat, or ``k`` cards covered."""

    seat: int
    code: ActCode
    cards: bytes  # the seat's cards (covered ones too: the engine knows them)


def _sorted(cards: list[int] | bytes) -> bytes:
    return bytes(sorted(cards))


def _low_key(card: int) -> tuple[int, int]:
    return LEVEL[rank(card)], card


@register
class Niujiu(Game[NiujiuRules]):
    """One hand of Niujiu.

    >>> g = Niujiu(seed=1)
    >>> g.to_act(), len(g.concealed(0)), g.legal(1).mask
    ((0,), 16, 0)
    >>> g.apply(0, g.default_action(0))[0].code == 0x20  # the head leads its lowest single
    True
    """

    name = "niujiu"
    VIEW = View
    DETAIL = Detail
    TITLE = "Niujiu 牛九"
    RULESET_NOTES = {
        "standard": "the hand ends once the seats that are enough are settled (R6.2)",
        "play-out": "every card is played, even once the enough seats are settled",
    }
    RULESETS = {
        "standard": NiujiuRules("standard"),
        "play-out": NiujiuRules("play-out", play_out=True),
    }

    @property
    def num_seats(self) -> int:
        return SEATS

    # ------------------------------------------------------------------ the deal
    def _setup(self) -> list[GameEvent]:
        deck = sorted(NIUJIU_CARDS)
        self.rng.shuffle(deck)
        self.hands: list[list[int]] = [sorted(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(SEATS)]
        self.head = self.dealer  # R1.4, R1.5
        self.leader = self.head
        self.trick: list[Play] = []
        self.best: tuple[int, Pattern] | None = None  # index in trick, pattern
        self.occupied: list[list[int]] = [[] for _ in range(SEATS)]
        self.occupied_patterns: list[list[bytes]] = [[] for _ in range(SEATS)]
        self.beaten: list[int] = []  # face-up cards of patterns that lost their trick (public)
        self.covered: list[list[int]] = [[] for _ in range(SEATS)]  # known to the seat alone
        self.revealed: list[bytes] = [b""] * SEATS
        self.over = False
        self._legal: dict[int, ActionSet] = {}
        events = [GameEvent(RoomEvent.HAND_START, self.head, arg=self.hand)]
        for s in range(SEATS):
            events.append(GameEvent(RoomEvent.DEAL, s, _sorted(self.hands[s]), visible_to=frozenset({s})))
        return events

    def __deepcopy__(self, memo: dict[int, Any]) -> Niujiu:
        """A copy that shares the immutable parts (events, plays, patterns, option sets).

        copy.deepcopy of the option cache alone costs more than a whole hand of play.
        """
        twin = copy.copy(self)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())  # deepcopy walks the 625-word state one int at a time
        twin.log = list(self.log)
        twin.events = list(self.events)
        twin.hands = [list(h) for h in self.hands]
        twin.trick = list(self.trick)
        twin.occupied = [list(o) for o in self.occupied]
        twin.occupied_patterns = [list(o) for o in self.occupied_patterns]
        twin.beaten = list(self.beaten)
        twin.covered = [list(c) for c in self.covered]
        twin.revealed = list(self.revealed)
        twin._legal = dict(self._legal)
        return twin

    # ------------------------------------------------------------------ whose turn, what is legal
    @property
    def k(self) -> int:
        """The number of cards of the trick in progress (0 before its lead)."""
        return len(self.trick[0].cards) if self.trick else 0

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % SEATS  # R1.6

    @property
    def best_play(self) -> Play | None:
        return self.trick[self.best[0]] if self.best else None

    @property
    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def legal(self, seat: int) -> ActionSet:
        if seat not in self.to_act():
            return ActionSet.empty()
        if seat not in self._legal:  # cached until the next action: options are costly to enumerate
            hand = _sorted(self.hands[seat])
            if not self.trick:  # R5.1
                options = [Option.exactly(ActCode.LEAD, p) for p in patterns(hand)]
            else:  # R5.2
                assert self.best is not None
                best = self.best[1]
                options = []
                for p in patterns(hand, self.k):
                    pattern = classify(p)
                    if pattern is not None and pattern_beats(pattern, best):
                        options.append(Option.exactly(ActCode.EAT, p))
                options.append(Option(ActCode.COVER, hand, self.k))
            self._legal[seat] = ActionSet.of(options)
        return self._legal[seat]

    def refusal(self, seat: int, action: GameAction) -> GameError:
        """Sharper codes than the base class: why exactly the cards are refused."""
        if not 0 <= action.code < 8 or not self.legal(seat).mask >> action.code & 1:
            return super().refusal(seat, action)
        cards = action.cards
        if Counter(cards) - Counter(self.hands[seat]):
            return GameError(Error.CARD_NOT_IN_HAND, f"{cards.hex()}: not all of these are cards in seat {seat}'s hand")
        if action.code == ActCode.LEAD:
            if classify(cards) is None:
                return GameError(Error.NOT_A_PATTERN, f"{cards.hex()} is no pattern and cannot be led")
        elif len(cards) != self.k:
            return GameError(Error.WRONG_COUNT, f"{len(cards)} cards given; this trick is of {self.k}")
        elif action.code == ActCode.EAT:
            if classify(cards) is None:
                return GameError(Error.NOT_A_PATTERN, f"{cards.hex()} is no pattern and cannot eat")
            best = self.best_play
            assert best is not None
            return GameError(Error.DOES_NOT_BEAT, f"{cards.hex()} does not beat {best.cards.hex()}")
        return super().refusal(seat, action)

    def default_action(self, seat: int) -> GameAction:
        """On a timeout: the leader leads its lowest single; an answering seat covers its k lowest cards.

        "Lowest" is by the rank order (R2.1), then by byte.
        """
        if seat not in self.to_act():
            raise GameError(ErrorCode.NOT_YOUR_TURN, f"seat {seat} has no decision pending")
        low = sorted(self.hands[seat], key=_low_key)
        if not self.trick:
            return GameAction(ActCode.LEAD, bytes(low[:1]))
        return GameAction(ActCode.COVER, _sorted(low[: self.k]))

    # ------------------------------------------------------------------ applying an action
    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        self._legal.clear()
        cards = _sorted(action.cards)
        for c in cards:
            self.hands[seat].remove(c)
        code = ActCode(action.code)
        self.trick.append(Play(seat, code, cards))
        events: list[GameEvent] = []
        if code == ActCode.COVER:  # R5.4: face down, for the seat alone
            self.covered[seat].extend(cards)
            events.append(GameEvent(EventCode.COVERED, seat, cards, visible_to=frozenset({seat})))
        else:
            pattern = classify(cards)
            assert pattern is not None
            self.best = (len(self.trick) - 1, pattern)
            events.append(GameEvent(echo(code), seat, cards, arg=int(pattern.kind)))
        if len(self.trick) == SEATS:
            events += self._end_trick()
        return events

    def _end_trick(self) -> list[GameEvent]:
        assert self.best is not None
        winner = self.trick[self.best[0]]
        for i, play in enumerate(self.trick):
            if play.code != ActCode.COVER and i != self.best[0]:
                self.beaten.extend(play.cards)
        before = len(self.occupied[winner.seat])
        self.occupied[winner.seat].extend(winner.cards)  # R5.3
        self.occupied_patterns[winner.seat].append(winner.cards)
        total = len(self.occupied[winner.seat])
        events = [GameEvent(EventCode.OCCUPY, winner.seat, winner.cards, arg=total)]
        if before < ENOUGH <= total:
            events.append(GameEvent(EventCode.ENOUGH, winner.seat, arg=total))
        self.leader = winner.seat
        self.trick = []
        self.best = None
        if not self.hands[0] or (not self.rules.play_out and self.settled()):  # R6.2
            self.over = True
            for s in range(SEATS):
                self.revealed[s] = _sorted(self.hands[s])  # R6.3
                self.hands[s] = []
                events.append(GameEvent(EventCode.REVEAL, s, self.revealed[s]))
        return events

    def settled(self) -> bool:
        """True when no seat can become enough any more (R6.2): the enough seats are final.

        The cards still to be occupied are as many as one hand holds (k of every 3k played).
        """
        left = len(self.hands[0])
        return all(len(o) >= ENOUGH or len(o) + left < ENOUGH for o in self.occupied)

    # ------------------------------------------------------------------ what each seat may know
    def view(self, seat: int | None) -> View:
        # arrays on the wire, lists in Python (a view equals its decoded copy); TrickPlay names the positions
        trick = [
            [
                p.seat,
                int(p.code),
                b"" if p.code == ActCode.COVER else p.cards,
                len(p.cards) if p.code == ActCode.COVER else 0,
            ]
            for p in self.trick
        ]
        return {
            "hand": _sorted(self.hands[seat]) if seat is not None else b"",
            "my_covered": _sorted(self.covered[seat]) if seat is not None else b"",
            "head": self.head,
            "leader": self.leader,
            "turn": None if self.over else self.turn,
            "k": self.k,
            "trick": cast(list[TrickPlay], trick),
            "best": self.best_play.seat if self.best_play else None,
            "beaten": _sorted(self.beaten),
            "occupied": [_sorted(o) for o in self.occupied],
            "occupied_count": [len(o) for o in self.occupied],
            "enough": [len(o) >= ENOUGH for o in self.occupied],
            "covered_count": [len(c) for c in self.covered],
            "hand_size": [len(h) for h in self.hands],
            "revealed": list(self.revealed),
            "over": self.over,
            "scores": list(self.scores()) if self.over else [],
        }

    def concealed(self, seat: int) -> bytes:
        return _sorted(self.hands[seat] + self.covered[seat])

    def public(self) -> bytes:
        face_up = [c for p in self.trick if p.code != ActCode.COVER for c in p.cards]
        return _sorted(face_up + self.beaten + [c for o in self.occupied for c in o] + list(b"".join(self.revealed)))

    # ------------------------------------------------------------------ the end
    def liangzi(self, seat: int) -> int:
        """The liangzi ``seat`` has occupied (R7.2, R7.3): every number held four times in one
        occupied pattern, but four Ks once they are all occupied, together or not."""
        n = sum(
            1
            for cards in self.occupied_patterns[seat]
            for r, c in Counter(map(rank, cards)).items()
            if c == 4 and r != K
        )
        return n + (sum(1 for c in self.occupied[seat] if rank(c) == K) == 4)

    def scores(self) -> tuple[int, ...]:
        """R7.1–R7.4: stakes from the seats that are not enough to those that are, plus liangzi."""
        enough = [len(o) >= ENOUGH for o in self.occupied]
        out = [0] * SEATS
        for s in range(SEATS):
            for t in range(SEATS):
                if s != t:
                    if enough[s] and not enough[t]:
                        out[s] += self.rules.stake
                        out[t] -= self.rules.stake
                    bonus = self.liangzi(s) * self.rules.liangzi_bonus
                    out[s] += bonus
                    out[t] -= bonus
        return tuple(out)

    def outcome(self) -> Outcome:
        if not self.over:
            raise HandNotOver()
        return Outcome(
            self.scores(),
            tuple(self.revealed),  # covered cards are never shown (R5.4): only what was left in hand
            dict(
                Detail(
                    head=self.head,
                    occupied=[_sorted(o) for o in self.occupied],
                    occupied_count=[len(o) for o in self.occupied],
                    enough=[len(o) >= ENOUGH for o in self.occupied],
                    liangzi=[self.liangzi(s) for s in range(SEATS)],
                    covered_count=[len(c) for c in self.covered],
                )
            ),
        )
