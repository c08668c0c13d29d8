"""Defence: the chance that a discard hands an opponent the win, and what it costs.

Design.md §7.4's ``P_D`` is "the chance that throwing the tile gives no opponent a win"; its
formula is missing from the source. paiju estimates it per opponent ``o`` and per tile
``x``, from what a human in the robot's seat sees (the view) and nothing else:

- ``T_o``, the chance that ``o`` is one tile from a win: 1 once it has declared ready
  (报听 is public); otherwise it grows with the sets ``o`` has laid down and the tiles it
  has thrown (a hand gets nearer as the hand goes on), capped well below 1;
- ``W_o(x)``, the chance that a hand one tile from a win waits on ``x``: every shape that
  waits on ``x`` -- two-sided (``x+1 x+2``, ``x-2 x-1``), edge, closed (``x-1 x+1``), a
  single tile (``x``) and a pair (``xx``, waiting with another pair) -- weighted by how
  many of the tiles it needs are unseen from this seat (the robot holding or seeing the
  copies makes the shape impossible, the mahjong "wall" reading), normalised so that a
  hand waits on ``WAITS`` kinds of tile on average; a tile ``o`` has thrown itself counts
  ``PASSED`` of that (paiju has no rule against winning on a tile one threw, but a ready
  hand seldom waits on what it let go);
- the deal-in chance of ``x`` is ``1 - prod_o (1 - T_o W_o(x))``, and ``P_D`` its complement;
- ``L_o``, what dealing in to ``o`` costs: the basic fan, the 报听 bonus if ``o`` declared,
  and more when its melds point to a full flush (all in one suit) or all pungs (no chow).

After a seat declares, its hand is locked (it may only throw the tile it draws), so its
wait cannot change: every tile thrown after the declaration -- by anyone -- on which it
did not win is not its wait (the view's ``declared_at`` tells which tiles came after), nor
is a tile that a two-sided shape would wait on together with such a tile (the suji
reading: a passed 4 rules out the 23 and 56 shapes waiting on 1 and 7). The ``W`` of the
other tiles is normalised again, so they carry the danger the safe tiles shed. This reads
a declared seat as one that always wins when it can, as every paiju robot does.

>>> from paiju.protocol.cards import parse_tiles as t
>>> m = Memory(seat=0, hand=t("123m 456m 789m 1234s"), honours=False)
>>> m.ready = [False, True, False, False]
>>> d = Danger.of(m)
>>> before = d.deal_in(t("5p")[0])
>>> before > d.deal_in(t("1p")[0]) > 0  # a middle tile is the likelier wait
True
>>> m.discards[1] = t("5p"); Danger.of(m).deal_in(t("5p")[0]) < before  # seat 1 threw a 5p itself
True
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.rulebase import RuleBase

WAITS = 2.0  # kinds of tile a ready hand waits on, on average
PASSED = 0.25  # how much of a tile's weight is left for a seat that threw it itself
SINGLE = 0.35  # a single-tile (tanki) wait's weight against a two-tile shape's


def tenpai_chance(memory: Memory, seat: int) -> float:
    """``T_o``: 1 after a declaration, else a guess from the sets down and the tiles thrown."""
    if memory.ready[seat]:
        return 1.0
    return min(0.5, 0.1 * len(memory.melds[seat]) + 0.015 * len(memory.discards[seat]))


def _raw(a: list[float], x: int, safe: frozenset[int] = frozenset()) -> float:
    """How many ready shapes wait on ``x``, weighted by the share ``a`` of each tile's copies
    unseen; a shape that also waits on a tile of ``safe`` (one the seat let pass after it
    declared) is not its wait, and no shape waits on a safe tile (the suji reading)."""
    if x in safe:
        return 0.0
    w = SINGLE * a[x] + a[x] * max(0.0, a[x] - 0.25)  # single wait; a pair of x (with another pair)
    if x >> 4 < 3:
        r = x & 0xF
        # two-sided x+1 x+2 also waits on x+3, x-2 x-1 on x-3 (unless the edge stops it); closed x-1 x+1
        for lo, hi, other in ((r + 1, r + 2, r + 3), (r - 2, r - 1, r - 3), (r - 1, r + 1, 0)):
            if lo >= 1 and hi <= 9 and not (1 <= other <= 9 and x - r + other in safe):
                w += a[x - r + lo] * a[x - r + hi]
    return w


def _waits(a: list[float], tiles: tuple[int, ...], safe: frozenset[int]) -> dict[int, float]:
    """``W(x)`` for every tile: the shapes on ``x`` normalised to ``WAITS`` kinds of tile a hand."""
    raw = {x: _raw(a, x, safe) for x in tiles}
    total = sum(raw.values()) or 1.0
    return {x: min(0.9, WAITS * w / total) for x, w in raw.items()}


@dataclass(frozen=True)
class Danger:
    """The deal-in chances of every tile from one seat's view, computed once per decision."""

    memory: Memory
    wait: tuple[dict[int, float], ...]  # W_o(x) by seat, before the discount of a tile o threw
    threat: tuple[float, ...]  # T_o by seat (0 for the robot's own seat)

    @classmethod
    def of(cls, memory: Memory, read_passed: bool = True) -> Danger:
        """From ``memory``; ``read_passed=False`` ignores which tiles went by after a declaration."""
        a = [v / 4 for v in memory.unseen]
        tiles = memory.tiles()
        common = _waits(a, tiles, frozenset())
        passed = memory.passed if read_passed else [frozenset()] * 4
        wait = tuple(_waits(a, tiles, passed[o]) if passed[o] else common for o in range(4))
        threat = tuple(0.0 if o == memory.seat else tenpai_chance(memory, o) for o in range(4))
        return cls(memory, wait, threat)

    def chance(self, seat: int, tile: int) -> float:
        """The chance that ``tile`` wins for ``seat``."""
        w = self.wait[seat].get(tile, 0.0)
        if tile in self.memory.discards[seat]:
            w *= PASSED
        return self.threat[seat] * w

    def deal_in(self, tile: int) -> float:
        """The chance that throwing ``tile`` hands some opponent the win (``1 - P_D``)."""
        safe = 1.0
        for o in range(4):
            if self.threat[o]:
                safe *= 1.0 - self.chance(o, tile)
        return 1.0 - safe

    def cost(self, tile: int, rules: RuleBase) -> float:
        """The expected points lost by throwing ``tile``: ``sum_o chance * L_o``."""
        return sum(self.chance(o, tile) * loss(self.memory, o, rules) for o in range(4) if self.threat[o])

    @property
    def threatened(self) -> bool:
        """Whether an opponent has declared ready."""
        return declared_against(self.memory)


def declared_against(memory: Memory) -> bool:
    """Whether an opponent of ``memory``'s seat has declared ready."""
    return any(memory.ready[o] for o in range(4) if o != memory.seat)


def loss(memory: Memory, seat: int, rules: RuleBase) -> float:
    """``L_o``: the points a deal-in to ``seat`` costs, from its declaration and melds."""
    melds = memory.melds[seat]
    points = float(rules.fan_basic + rules.ready_bonus * memory.ready[seat])
    suits = {b >> 4 for m in melds for b in m.tiles if b}
    if melds and len(suits) == 1 and suits <= {0, 1, 2}:
        points += 0.5 * (rules.fan_full_flush - rules.fan_basic) * min(1.0, len(melds) / 2)
    elif len(melds) >= 2 and all(m.kind != "chow" for m in melds):
        points += 0.5 * (rules.fan_all_pungs - rules.fan_basic)
    return points
