"""The mahjong rules engine: one hand, four seats, championship (108 tiles) or classic (136).

The rules as implemented, with every choice the seeds leave open, are in
docs/rules/mahjong.md. The shape: the dealer starts with 14 tiles; a seat in turn
discards (or declares ready with its discard, or makes a concealed/added kong, or wins
by self-draw); after every discard the seats that can claim it are asked together
(PASS, CHOW, PONG, KONG, HU), their answers are kept private until all are in and are
resolved by priority hu > kong > pong > chow; the hand ends at the first win or when a
draw finds the wall empty.

>>> g = Mahjong(seed=1)
>>> g.to_act(), len(g.concealed(g.dealer)), g.view(None)["wall"]
((0,), 14, 55)
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final, cast

from paiju.games.base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from paiju.games.mahjong.analysis import ALL_TILES, NUMBER_TILES, hu_distance, waits
from paiju.games.registry import register
from paiju.protocol import RoomEvent, echo
from paiju.protocol.frames import Option
from paiju.protocol.mahjong import ActCode, Detail, EventCode, MeldKind, MeldView, Phase, ResultView, View
from paiju.protocol.mahjong import Error as MjError

SEATS = 4


@dataclass(frozen=True)
class MahjongRules(Rules):
    """The options that tell the rulesets apart (docs/rules/mahjong.md)."""

    honours: bool = False  # winds and dragons in the wall (136 tiles instead of 108)
    seven_pairs: bool = True  # seven pairs is a winning form (a four of a kind is two pairs)
    ready: bool = True  # 报听 may be declared
    fan_basic: int = 1
    fan_all_pungs: int = 2
    fan_full_flush: int = 3
    fan_seven_pairs: int = 4
    ready_bonus: int = 1  # added to the points of a winner who had declared ready
    self_draw_bonus: int = 1  # added to the points of a self-drawn win


class Meld:
    """A set laid down: its kind (paiju.protocol.mahjong.MeldKind, also ``Meld.CHOW`` ...), tiles, source seat."""

    CHOW, PONG, KONG_EXPOSED, KONG_CONCEALED, KONG_ADDED = MeldKind

    __slots__ = ("kind", "source", "tiles")

    def __init__(self, kind: MeldKind, tiles: list[int], source: int) -> None:
        self.kind = kind
        self.tiles = tiles
        self.source = source

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and (self.kind, self.tiles, self.source) == (
            other.kind,
            other.tiles,
            other.source,
        )

    def __repr__(self) -> str:
        return f"Meld({self.kind}, {bytes(self.tiles).hex()}, {self.source})"


TURN: Final = "turn"
CLAIM: Final = "claim"
OVER: Final = "over"
PRIORITY = {ActCode.HU: 4, ActCode.KONG: 3, ActCode.PONG: 2, ActCode.CHOW: 1, ActCode.PASS: 0}


@dataclass
class _Window:
    """An open claim window: the discard, who may answer, and the answers so far (private)."""

    tile: int
    discarder: int
    options: dict[int, ActionSet]
    answers: dict[int, GameAction] = field(default_factory=dict)


@register
class Mahjong(Game[MahjongRules]):
    name = "mahjong"
    VIEW = View
    DETAIL = Detail
    TITLE = "Mahjong 麻将"
    RULESET_NOTES = {
        "championship": "108 tiles (no honours), seven pairs, 报听: the 2020 championship's rules",
        "classic": "136 tiles with winds and dragons, no seven pairs, 报听",
    }
    RULESETS = {
        "championship": MahjongRules("championship"),
        "classic": MahjongRules("classic", honours=True, seven_pairs=False),
    }

    @property
    def num_seats(self) -> int:
        return SEATS

    def __deepcopy__(self, memo: dict[int, Any]) -> Mahjong:
        """A cheap deep copy (the conformance kit copies a game for every option it tries)."""
        g = object.__new__(Mahjong)
        g.__dict__.update(self.__dict__)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.log = list(self.log)
        g.events = list(self.events)
        g.wall = list(self.wall)
        g.hands = [list(h) for h in self.hands]
        g.melds = [[Meld(m.kind, list(m.tiles), m.source) for m in ms] for ms in self.melds]
        g.rivers = [list(r) for r in self.rivers]
        g.ready = list(self.ready)
        g.declared_at = [list(x) for x in self.declared_at]
        g.result = copy.deepcopy(self.result)
        if self.window is not None:
            w = self.window
            g.window = _Window(w.tile, w.discarder, dict(w.options), dict(w.answers))
        return g

    # ------------------------------------------------------------------ the deal
    def _setup(self) -> list[GameEvent]:
        tiles = ALL_TILES if self.rules.honours else NUMBER_TILES
        self.wall: list[int] = [t for t in tiles for _ in range(4)]
        self.rng.shuffle(self.wall)
        self.hands: list[list[int]] = [[] for _ in range(SEATS)]
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.rivers: list[list[int]] = [[] for _ in range(SEATS)]
        self.ready: list[bool] = [False] * SEATS
        self.declared_at: list[list[int]] = [[] for _ in range(SEATS)]  # river lengths when each declared
        self.drawn: int | None = None  # the tile the seat in turn drew (None after a claim)
        self.turn = self.dealer
        self.phase: Phase = TURN
        self.window: _Window | None = None
        self.result: dict[str, Any] = {}
        self._turn_cache: ActionSet | None = None
        events = [GameEvent(RoomEvent.HAND_START, self.dealer, arg=self.hand)]
        for k in range(SEATS):
            seat = (self.dealer + k) % SEATS
            self.hands[seat] = sorted(self.wall[:13])
            del self.wall[:13]
            events.append(GameEvent(RoomEvent.DEAL, seat, bytes(self.hands[seat]), visible_to=frozenset({seat})))
        events += self._draw(self.dealer, EventCode.DRAW)
        return events

    # ------------------------------------------------------------------ who acts, what is legal
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> tuple[int, ...]:
        if self.phase == TURN:
            return (self.turn,)
        if self.phase == CLAIM and self.window:
            return tuple(sorted(s for s in self.window.options if s not in self.window.answers))
        return ()

    def legal(self, seat: int) -> ActionSet:
        if seat not in self.to_act():
            return ActionSet.empty()
        if self.phase == CLAIM and self.window:
            return self.window.options[seat]
        if self._turn_cache is None:  # cleared by every action; the options cost a few distances
            self._turn_cache = self._turn_options(seat)
        return self._turn_cache

    def _distance(self, tiles: list[int], seat: int) -> int:
        return hu_distance(bytes(tiles), len(self.melds[seat]), seven_pairs=self.rules.seven_pairs)

    def _waits(self, tiles: list[int], melds: int) -> bytes:
        return waits(bytes(sorted(tiles)), melds, seven_pairs=self.rules.seven_pairs, honours=self.rules.honours)

    def _kongs(self, seat: int) -> list[bytes]:
        """Concealed kongs (4 bytes) and added kongs (1 byte) the seat in turn may make."""
        if not self.wall or self.drawn is None:
            return []
        hand = Counter(self.hands[seat])
        out = [bytes([t] * 4) for t in sorted(hand) if hand[t] == 4]
        out += [bytes([m.tiles[0]]) for m in self.melds[seat] if m.kind == Meld.PONG and hand[m.tiles[0]]]
        if self.ready[seat]:  # locked: only with the drawn tile, and only if the wait stays
            before = list(self.hands[seat])
            before.remove(self.drawn)
            wait = self._waits(before, len(self.melds[seat]))
            kept = []
            for k in out:
                if k[0] != self.drawn:
                    continue
                after = list(self.hands[seat])
                for b in k:
                    after.remove(b)
                if len(k) == 1 or self._waits(after, len(self.melds[seat]) + 1) == wait:
                    kept.append(k)
            out = kept
        return out

    def _turn_options(self, seat: int) -> ActionSet:
        hand = self.hands[seat]
        opts: list[Option] = []
        if self.ready[seat]:
            assert self.drawn is not None
            opts.append(Option.exactly(ActCode.DISCARD, bytes([self.drawn])))
        else:
            distinct = bytes(sorted(set(hand)))
            opts.append(Option(ActCode.DISCARD, distinct, 1))
            # a discard leaves distance 1 only if the whole hand is at most 1 from a win
            if self.rules.ready and self._distance(hand, seat) <= 1:
                readies = bytes(t for t in distinct if self._distance(_without(hand, [t]), seat) == 1)
                if readies:
                    opts.append(Option(ActCode.READY, readies, 1))
        opts += [Option.exactly(ActCode.KONG, k) for k in self._kongs(seat)]
        if self.drawn is not None and self._distance(hand, seat) == 0:
            opts.append(Option.exactly(ActCode.HU))
        return ActionSet.of(opts)

    def _claim_options(self, seat: int, tile: int, discarder: int) -> ActionSet:
        hand = self.hands[seat]
        opts: list[Option] = []
        if self._distance([*hand, tile], seat) == 0:
            opts.append(Option.exactly(ActCode.HU))
        if not self.ready[seat]:
            have = hand.count(tile)
            if have == 3 and self.wall:
                opts.append(Option.exactly(ActCode.KONG, bytes([tile] * 3)))
            if have >= 2:
                opts.append(Option.exactly(ActCode.PONG, bytes([tile] * 2)))
            if seat == (discarder + 1) % SEATS and tile >> 4 < 3:
                rank = tile & 0xF
                for lo in (rank - 2, rank - 1, rank):
                    pair = [tile - rank + r for r in range(lo, lo + 3) if r != rank]
                    if lo >= 1 and lo + 2 <= 9 and all(p in hand for p in pair):
                        opts.append(Option.exactly(ActCode.CHOW, bytes(pair)))
        if not opts:
            return ActionSet.empty()
        opts.append(Option.exactly(ActCode.PASS))
        return ActionSet.of(opts)

    # ------------------------------------------------------------------ applying
    def apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        """As :meth:`Game.apply`; a claim from a seat that has no window open is WINDOW_CLOSED."""
        if not self.is_over and seat not in self.to_act():
            claim = action.code in (ActCode.PASS, ActCode.CHOW, ActCode.PONG) or (
                action.code in (ActCode.KONG, ActCode.HU) and self.phase == CLAIM
            )
            if claim:
                raise GameError(MjError.WINDOW_CLOSED, f"seat {seat} has no claim window open")
        return super().apply(seat, action)

    def refusal(self, seat: int, action: GameAction) -> GameError:
        code = action.code
        if self.phase == CLAIM and self.window:
            if code == ActCode.CHOW and seat != (self.window.discarder + 1) % SEATS:
                return GameError(MjError.CHOW_WRONG_SEAT, "only the next seat may chow, from its left neighbour")
            if code == ActCode.HU:
                return GameError(MjError.NOT_A_WIN, "the discard does not complete this hand")
            if code in (ActCode.CHOW, ActCode.PONG, ActCode.KONG) and Counter(action.cards) - Counter(self.hands[seat]):
                return GameError(MjError.TILE_NOT_IN_HAND, f"{action.cards.hex()} is not in the hand")
            return super().refusal(seat, action)
        if code in (ActCode.DISCARD, ActCode.READY, ActCode.KONG) and Counter(action.cards) - Counter(self.hands[seat]):
            return GameError(MjError.TILE_NOT_IN_HAND, f"{action.cards.hex()} is not in the hand")
        if self.ready[seat] and code in (ActCode.DISCARD, ActCode.KONG, ActCode.READY):
            return GameError(MjError.HAND_LOCKED, "after declaring ready only the drawn tile may go")
        if code == ActCode.READY and self.rules.ready and len(action.cards) == 1:
            return GameError(MjError.NOT_READY, "that discard does not leave the hand one tile from a win")
        if code == ActCode.HU:
            return GameError(MjError.NOT_A_WIN, "the hand is not a winning form")
        return super().refusal(seat, action)

    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        self._turn_cache = None
        if self.phase == CLAIM:
            return self._answer(seat, action)
        code = action.code
        if code in (ActCode.DISCARD, ActCode.READY):
            return self._discard(seat, action.cards[0], code == ActCode.READY)
        if code == ActCode.KONG:
            return self._own_kong(seat, action.cards)
        return self._win(seat, None)

    def _discard(self, seat: int, tile: int, ready: bool) -> list[GameEvent]:
        self.hands[seat].remove(tile)
        self.rivers[seat].append(tile)
        self.drawn = None
        if ready:
            self.ready[seat] = True
            self.declared_at[seat] = [len(r) for r in self.rivers]
        events = [GameEvent(echo(ActCode.READY if ready else ActCode.DISCARD), seat, bytes([tile]))]
        options = {}
        for k in range(1, SEATS):
            other = (seat + k) % SEATS
            s = self._claim_options(other, tile, seat)
            if s:
                options[other] = s
        if options:
            self.phase = CLAIM
            self.window = _Window(tile, seat, options)
            return events
        return events + self._next_draw(seat)

    def _next_draw(self, after: int) -> list[GameEvent]:
        return self._draw((after + 1) % SEATS, EventCode.DRAW)

    def _draw(self, seat: int, kind: int) -> list[GameEvent]:
        if not self.wall:
            return self._drawn_hand()
        tile = self.wall.pop() if kind == EventCode.REPLACEMENT else self.wall.pop(0)
        self.hands[seat].append(tile)
        self.hands[seat].sort()
        self.drawn = tile
        self.turn = seat
        self.phase = TURN
        self.window = None
        return [GameEvent(kind, seat, bytes([tile]), arg=len(self.wall), visible_to=frozenset({seat}))]

    def _own_kong(self, seat: int, cards: bytes) -> list[GameEvent]:
        tile = cards[0]
        if len(cards) == 4:
            self.hands[seat] = _without(self.hands[seat], [tile] * 4)
            self.melds[seat].append(Meld(Meld.KONG_CONCEALED, [tile] * 4, seat))
            event = GameEvent(echo(ActCode.KONG), seat, cards, arg=seat, visible_to=frozenset({seat}))
        else:
            self.hands[seat].remove(tile)
            meld = next(m for m in self.melds[seat] if m.kind == Meld.PONG and m.tiles[0] == tile)
            meld.kind = Meld.KONG_ADDED
            meld.tiles.append(tile)
            event = GameEvent(echo(ActCode.KONG), seat, cards, arg=meld.source)
        return [event, *self._draw(seat, EventCode.REPLACEMENT)]

    def _answer(self, seat: int, action: GameAction) -> list[GameEvent]:
        assert self.window is not None
        self.window.answers[seat] = action
        if self.to_act():
            return []  # answers stay private until the window resolves
        w = self.window
        claims = [(s, a) for s, a in w.answers.items() if a.code != ActCode.PASS]
        if not claims:
            return self._next_draw(w.discarder)
        # the highest priority; among several wins, the seat nearest in turn order
        top = max(PRIORITY[ActCode(a.code)] for _, a in claims)
        s, a = min(
            ((s, a) for s, a in claims if PRIORITY[ActCode(a.code)] == top), key=lambda x: (x[0] - w.discarder) % SEATS
        )
        if a.code == ActCode.HU:
            return self._win(s, w.discarder)
        self.rivers[w.discarder].pop()
        self.hands[s] = _without(self.hands[s], list(a.cards))
        tiles = sorted([*a.cards, w.tile])
        kind = {ActCode.CHOW: Meld.CHOW, ActCode.PONG: Meld.PONG, ActCode.KONG: Meld.KONG_EXPOSED}[ActCode(a.code)]
        self.melds[s].append(Meld(kind, tiles, w.discarder))
        events = [GameEvent(echo(a.code), s, bytes(tiles), arg=w.discarder)]
        self.window = None
        if a.code == ActCode.KONG:
            return events + self._draw(s, EventCode.REPLACEMENT)
        self.turn = s
        self.phase = TURN
        self.drawn = None
        return events

    # ------------------------------------------------------------------ the end
    def _drawn_hand(self) -> list[GameEvent]:
        self.phase = OVER
        self.window = None
        self.result = {"winner": -1, "scores": [0] * SEATS}
        return [GameEvent(EventCode.DRAWN_HAND), *self._reveal()]

    def _reveal(self) -> list[GameEvent]:
        return [GameEvent(EventCode.REVEAL, s, self._hidden(s)) for s in range(SEATS)]

    def _hidden(self, seat: int) -> bytes:
        """What the seat kept face down: its concealed tiles and concealed kongs."""
        kongs = [t for m in self.melds[seat] if m.kind == Meld.KONG_CONCEALED for t in m.tiles]
        return bytes(sorted(self.hands[seat]) + kongs)

    def _win(self, seat: int, discarder: int | None) -> list[GameEvent]:
        tile = self.drawn if discarder is None else self.window.tile if self.window else None
        assert tile is not None
        if discarder is not None:
            self.rivers[discarder].pop()
            self.hands[seat].append(tile)
            self.hands[seat].sort()
        kind, fan = self._fan(seat)
        points = fan + self.rules.ready_bonus * self.ready[seat] + self.rules.self_draw_bonus * (discarder is None)
        scores = [0] * SEATS
        payers = [discarder] if discarder is not None else [s for s in range(SEATS) if s != seat]
        for p in payers:
            scores[p] -= points
            scores[seat] += points
        self.result = {  # in the declared order (paiju.protocol.mahjong.Detail, SPEC.md §6.5)
            "winner": seat,
            "scores": scores,
            "from": seat if discarder is None else discarder,
            "tile": bytes([tile]),
            "form": kind,
            "fan": fan,
            "ready": int(self.ready[seat]),
            "self_draw": int(discarder is None),
            "points": points,
        }
        self.phase = OVER
        self.window = None
        self.drawn = None
        return [GameEvent(echo(ActCode.HU), seat, bytes([tile]), arg=self.result["from"]), *self._reveal()]

    def _fan(self, seat: int) -> tuple[str, int]:
        """The winning hand's type (the rarest that applies, design.md §7.4's order) and its fan."""
        r = self.rules
        hand = Counter(self.hands[seat])
        melds = self.melds[seat]
        every = list(self.hands[seat]) + [t for m in melds for t in m.tiles]
        found = [("basic", r.fan_basic)]
        if all(m.kind != Meld.CHOW for m in melds) and sorted(c for c in hand.values() if c != 3) == [2]:
            found.append(("all pungs", r.fan_all_pungs))
        if len({t >> 4 for t in every}) == 1 and every[0] >> 4 < 3:
            found.append(("full flush", r.fan_full_flush))
        if r.seven_pairs and not melds and all(c % 2 == 0 for c in hand.values()):
            found.append(("seven pairs", r.fan_seven_pairs))
        return max(found, key=lambda x: x[1])

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise HandNotOver()
        winner, scores, *rest = self.result.items()
        melds = ("melds", [self._melds_view(s, None, reveal=True) for s in range(SEATS)])
        detail = dict([winner, ("scores", list(scores[1])), melds, *rest])  # the declared order (Detail)
        return Outcome(tuple(self.result["scores"]), tuple(self._hidden(s) for s in range(SEATS)), detail)

    # ------------------------------------------------------------------ what each seat sees
    def default_action(self, seat: int) -> GameAction:
        """PASS in a claim window; in turn, discard the drawn tile (after a chow or pong,
        which draws nothing, the highest tile of the hand)."""
        if self.phase == CLAIM:
            return GameAction(ActCode.PASS)
        tile = self.drawn if self.drawn is not None else max(self.hands[seat])
        return GameAction(ActCode.DISCARD, bytes([tile]))

    def _melds_view(self, seat: int, viewer: int | None, reveal: bool = False) -> list[MeldView]:
        out: list[MeldView] = []
        for m in self.melds[seat]:
            hidden = m.kind == Meld.KONG_CONCEALED and viewer != seat and not reveal and not self.is_over
            out.append({"kind": m.kind, "tiles": bytes(4) if hidden else bytes(m.tiles), "from": m.source})
        return out

    def view(self, seat: int | None) -> View:
        own = seat is not None
        hand = list(self.hands[seat]) if seat is not None else []
        drawn = b""
        if own and self.phase == TURN and seat == self.turn and self.drawn is not None:
            hand.remove(self.drawn)
            drawn = bytes([self.drawn])
        v: View = {
            "ruleset": self.rules.name,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "wall": len(self.wall),
            "hand": bytes(sorted(hand)),
            "drawn": drawn,
            "counts": [len(h) for h in self.hands],
            "melds": [self._melds_view(s, seat) for s in range(SEATS)],
            "discards": [bytes(r) for r in self.rivers],
            "ready": [int(r) for r in self.ready],
            "declared_at": [list(x) for x in self.declared_at],
            "discarder": self.window.discarder if self.window else -1,
        }
        if self.is_over:
            v["hands"] = [bytes(sorted(h)) for h in self.hands]
            # the winning tile is already in "hands" (a view shows each tile once)
            v["result"] = cast(ResultView, {k: x for k, x in self.result.items() if k != "tile"})
        return v

    def concealed(self, seat: int) -> bytes:
        return self._hidden(seat)

    def public(self) -> bytes:
        out = [t for r in self.rivers for t in r]
        for s in range(SEATS):
            out += [t for m in self.melds[s] if m.kind != Meld.KONG_CONCEALED for t in m.tiles]
            if self.is_over:
                out += self._hidden(s)
        return bytes(out)


def _without(tiles: list[int], remove: list[int]) -> list[int]:
    out = list(tiles)
    for t in remove:
        out.remove(t)
    return out
