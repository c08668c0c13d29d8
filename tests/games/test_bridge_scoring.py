"""Duplicate scoring and IMPs, checked against tables written from the Laws of Duplicate Bridge
(Law 77 scoring table, Law 78 IMP scale) — not derived from paiju.games.bridge's code.

Every level, strain, doubling and vulnerability is covered, for making contracts (exactly and
with every possible overtrick) and for every possible number of undertricks (1 to 13).
"""

from __future__ import annotations

import pytest

from paiju.games.bridge import imps, score

# Score for making the contract exactly: NV / V, undoubled | doubled | redoubled.
# (Trick points, part-score 50 or game 300/500, slam 500/750 and grand slam 1000/1500,
#  50 / 100 for making a doubled / redoubled contract.)
MADE_EXACTLY = """
C D  1   70   70 |  140  140 |  230  230
C D  2   90   90 |  180  180 |  560  760
C D  3  110  110 |  470  670 |  640  840
C D  4  130  130 |  510  710 |  720  920
C D  5  400  600 |  550  750 |  800 1000
C D  6  920 1370 | 1090 1540 | 1380 1830
C D  7 1440 2140 | 1630 2330 | 1960 2660
H S  1   80   80 |  160  160 |  520  720
H S  2  110  110 |  470  670 |  640  840
H S  3  140  140 |  530  730 |  760  960
H S  4  420  620 |  590  790 |  880 1080
H S  5  450  650 |  650  850 | 1000 1200
H S  6  980 1430 | 1210 1660 | 1620 2070
H S  7 1510 2210 | 1770 2470 | 2240 2940
NT   1   90   90 |  180  180 |  560  760
NT   2  120  120 |  490  690 |  680  880
NT   3  400  600 |  550  750 |  800 1000
NT   4  430  630 |  610  810 |  920 1120
NT   5  460  660 |  670  870 | 1040 1240
NT   6  990 1440 | 1230 1680 | 1660 2110
NT   7 1520 2220 | 1790 2490 | 2280 2980
"""

# Each overtrick: undoubled by strain, doubled and redoubled by vulnerability (NV, V).
OVERTRICK = {
    ("C", ""): (20, 20),
    ("D", ""): (20, 20),
    ("H", ""): (30, 30),
    ("S", ""): (30, 30),
    ("NT", ""): (30, 30),
    **{(s, "X"): (100, 200) for s in ("C", "D", "H", "S", "NT")},
    **{(s, "XX"): (200, 400) for s in ("C", "D", "H", "S", "NT")},
}

# Total penalty for 1..13 undertricks.
UNDERTRICKS = {
    ("", False): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    ("", True): [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300],
    ("X", False): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
    ("X", True): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    ("XX", False): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
    ("XX", True): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600],
}

# The WBF IMP scale: (lowest difference, highest difference, IMPs)
IMP_TABLE = """
0 10 0 | 20 40 1 | 50 80 2 | 90 120 3 | 130 160 4 | 170 210 5 | 220 260 6 | 270 310 7
320 360 8 | 370 420 9 | 430 490 10 | 500 590 11 | 600 740 12 | 750 890 13 | 900 1090 14
1100 1290 15 | 1300 1490 16 | 1500 1740 17 | 1750 1990 18 | 2000 2240 19 | 2250 2490 20
2500 2990 21 | 3000 3490 22 | 3500 3990 23 | 4000 9990 24
"""


def _made_table() -> dict[tuple[str, int, str, bool], int]:
    table = {}
    for row in MADE_EXACTLY.strip().splitlines():
        head, x, xx = row.split("|")
        words = head.split()
        strains, level, plain = words[:-3], int(words[-3]), words[-2:]
        for strain in strains:
            for dbl, pair in (("", plain), ("X", x.split()), ("XX", xx.split())):
                table[strain, level, dbl, False] = int(pair[0])
                table[strain, level, dbl, True] = int(pair[1])
    return table


MADE = _made_table()
CASES = [
    (strain, level, dbl, vul)
    for strain in ("C", "D", "H", "S", "NT")
    for level in range(1, 8)
    for dbl in ("", "X", "XX")
    for vul in (False, True)
]


def test_the_table_covers_every_contract() -> None:
    assert len(MADE) == 5 * 7 * 3 * 2 == len(CASES)


@pytest.mark.parametrize(("strain", "level", "dbl", "vul"), CASES)
def test_every_contract_making_and_going_down(strain: str, level: int, dbl: str, vul: bool) -> None:
    contract = f"{level}{strain}{dbl}"
    need = level + 6
    for over in range(0, 13 - need + 1):
        expected = MADE[strain, level, dbl, vul] + over * OVERTRICK[strain, dbl][vul]
        assert score(contract, vul, need + over) == expected, (contract, vul, need + over)
    for down in range(1, need + 1):
        expected = -UNDERTRICKS[dbl, vul][down - 1]
        assert score(contract, vul, need - down) == expected, (contract, vul, need - down)


def test_thirteen_undertricks_are_reached_only_by_seven_level_contracts() -> None:
    assert score("7NTXX", True, 0) == -7600
    assert score("7CX", False, 0) == -3500
    assert score("7S", True, 0) == -1300


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "points"),
    [  # well-known results, as printed on any duplicate score card
        ("3NT", False, 9, 400),
        ("3NT", True, 10, 630),
        ("4S", True, 10, 620),
        ("4H", False, 11, 450),
        ("2S", False, 8, 110),
        ("1NT", False, 8, 120),
        ("5C", True, 11, 600),
        ("6NT", False, 12, 990),
        ("7S", True, 13, 2210),
        ("2HX", False, 8, 470),
        ("1CXX", True, 8, 630),
        ("4SX", True, 9, -200),
        ("3NTX", False, 6, -500),
        ("Pass", True, 0, 0),
    ],
)
def test_familiar_scores(contract: str, vul: bool, tricks: int, points: int) -> None:
    assert score(contract, vul, tricks) == points


@pytest.mark.parametrize(("text", "tricks"), [("8S", 10), ("4Z", 10), ("4SXXX", 10), ("", 7), ("4S", 14), ("4S", -1)])
def test_bad_contract_or_tricks_raise(text: str, tricks: int) -> None:
    with pytest.raises(ValueError):
        score(text, False, tricks)


def test_imp_scale() -> None:
    rows = [tuple(int(x) for x in cell.split()) for cell in IMP_TABLE.replace("\n", "|").split("|") if cell.strip()]
    assert len(rows) == 25
    for lo, hi, n in rows:
        for diff in range(lo, hi + 1, 10):
            assert imps(diff) == n, diff
            assert imps(-diff) == -n, -diff
    assert imps(25_000) == 24
