"""The intention set (design.md §7.5 意图集): the one-step actions the robot means to take.

The decomposer turns the chosen goal into intentions, best first; each names an action
code of ``paiju.protocol.mahjong.ActCode`` and its tiles, with the value the strategy gave it (for
the record: the matcher only uses the order).

>>> from paiju.protocol.mahjong import ActCode
>>> i = Intentions.of([Intention(ActCode.DISCARD, b"\\x21", 0.5), Intention(ActCode.HU, b"", 9.0)])
>>> [x.code for x in i.ranked]
[4, 0]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Intention:
    """One action the robot would take: code, tiles, and how much it values it."""

    code: int
    tiles: bytes = b""
    value: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", int(self.code))  # plain ints on the wire, not enums


@dataclass(frozen=True)
class Intentions:
    """The intentions, best first, plus what the robot hopes to get (the ``in`` tiles)."""

    ranked: tuple[Intention, ...]
    wants: bytes = b""
    note: dict[str, object] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, items: Iterable[Intention], wants: bytes = b"", **note: object) -> Intentions:
        """Sorted by value, highest first (stable for equal values)."""
        return cls(tuple(sorted(items, key=lambda i: -i.value)), wants, dict(note))
