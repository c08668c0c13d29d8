"""The goal set (design.md §7.5 目标集) as one byte, and the filter (篩选器) over it.

Bit ``i`` (0..3) set: the robot keeps to winning with the pair in suit ``i`` (0 万, 1 条,
2 筒, 3 honours), as in the seed (``0x03``: the pair in 万 or 条). paiju adds bit 4 for the
seven-pairs form, which the seed's 136-tile rules do not have; bits 5-7 are unused.

>>> suits_of(0x03), goal_byte([1, 2]), describe(0x12)
([0, 1], 6, '条 | seven pairs')
"""

from __future__ import annotations

from collections.abc import Iterable

SEVEN_PAIRS = 4  # bit number of the seven-pairs goal
NAMES = ("万", "条", "筒", "honours", "seven pairs")


def goal_byte(bits: Iterable[int]) -> int:
    """The byte with the given bit numbers set."""
    b = 0
    for i in bits:
        b |= 1 << i
    return b


def suits_of(goals: int) -> list[int]:
    """The bit numbers set in a goal byte."""
    return [i for i in range(8) if goals >> i & 1]


def describe(goals: int) -> str:
    return " | ".join(NAMES[i] for i in suits_of(goals)) or "none"


def lowest(goals: int, cost: Iterable[tuple[int, tuple[int, ...]]]) -> int:
    """The filter's common rule: of the goals in the byte, keep the one(s) of least cost.

    ``cost`` gives (bit, cost key) pairs; the result is a byte with the cheapest bits.

    >>> lowest(0b0111, [(0, (3, 5)), (1, (2, 6)), (2, (2, 6)), (3, (0, 0))])
    6
    """
    entries = [(bit, key) for bit, key in cost if goals >> bit & 1]
    if not entries:
        return 0
    best = min(key for _, key in entries)
    return goal_byte(bit for bit, key in entries if key == best)
