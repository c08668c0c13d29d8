"""Duplicate scoring (Laws of Duplicate Bridge 2017, Law 77) and the IMP scale.

>>> score("4S", False, 10), score("3NT", True, 9), score("3NT", False, 10)
(420, 600, 430)
>>> score("1NTXX", False, 7), score("6HX", True, 12), score("7NTXX", True, 0)
(560, 1660, -7600)
>>> score("4H", True, 8), score("2CX", False, 5)
(-200, -500)
>>> imps(430 - 400), imps(-620), imps(4000)
(1, -12, 24)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paiju.protocol.cards import STRAINS

_CONTRACT = re.compile(r"([1-7])(C|D|H|S|NT|N)(X{0,2})")
# lower bounds of 1, 2, ... 24 IMPs (WBF scale)
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
             750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


@dataclass(frozen=True)
class Contract:
    """A contract: level 1..7, strain 0..4 (C D H S NT), doubled 0 / 1 (X) / 2 (XX)."""

    level: int
    strain: int
    doubled: int = 0

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``"4S"``, ``"3NT"``, ``"6HX"``, ``"7NTXX"`` (``N`` for NT is accepted)."""
        m = _CONTRACT.fullmatch(text.strip().upper())
        if not m:
            raise ValueError(f"cannot read a contract from {text!r} (like 4S, 3NT, 6HX, 7NTXX)")
        strain = "NT" if m.group(2) == "N" else m.group(2)
        return cls(int(m.group(1)), STRAINS.index(strain), len(m.group(3)))

    @property
    def call(self) -> int:
        """The bid's call byte (level << 4 | strain)."""
        return self.level << 4 | self.strain

    def __str__(self) -> str:
        return f"{self.level}{STRAINS[self.strain]}{'X' * self.doubled}"


def contract_score(c: Contract, vulnerable: bool, tricks: int) -> int:
    """The declaring side's score for contract ``c`` when it took ``tricks`` tricks."""
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks are 0..13, not {tricks}")
    need = c.level + 6
    mult = (1, 2, 4)[c.doubled]
    if tricks < need:
        down = need - tricks
        if c.doubled == 0:
            return -down * (100 if vulnerable else 50)
        if vulnerable:
            penalty = 200 + 300 * (down - 1)
        else:  # 100 for the first, 200 for the second and third, 300 for each after
            penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -penalty * c.doubled
    per_trick = 20 if c.strain < 2 else 30
    trick_points = (per_trick * c.level + (10 if c.strain == 4 else 0)) * mult
    total = trick_points
    total += (500 if vulnerable else 300) if trick_points >= 100 else 50
    if c.level == 6:
        total += 750 if vulnerable else 500
    elif c.level == 7:
        total += 1500 if vulnerable else 1000
    total += 50 * c.doubled  # "for the insult"
    over = tricks - need
    if c.doubled == 0:
        total += over * per_trick
    else:
        total += over * (200 if vulnerable else 100) * c.doubled
    return total


def score(contract: str, vulnerable: bool, tricks: int) -> int:
    """The declaring side's duplicate score: ``contract`` like ``"4S"``, ``"3NT"``, ``"6HX"``,
    ``"7NTXX"`` (``"Pass"`` scores 0), ``tricks`` = the tricks declarer's side took."""
    if contract.strip().upper() in ("P", "PASS"):
        return 0
    return contract_score(Contract.parse(contract), vulnerable, tricks)


def imps(diff: int) -> int:
    """International Match Points for a difference in points (negative for a loss).

    A difference between two steps of the WBF table counts as the lower step (15 -> 0).
    """
    n = sum(1 for step in IMP_STEPS if abs(diff) >= step)
    return n if diff >= 0 else -n
