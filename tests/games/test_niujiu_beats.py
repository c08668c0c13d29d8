"""The Niujiu eat relation (docs/rules/niujiu.md §2 and §4): beats() on every pair of pattern kinds.

Test names cite the rule they exercise (test_rule_4_6_... exercises R4.6).
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from paiju.games.niujiu import Kind, Pattern, beats, classify, pattern_beats, patterns
from paiju.protocol.cards import NIUJIU_CARDS, parse_cards


def c(text: str) -> bytes:
    return parse_cards(text, ace=1)


DECK = bytes(sorted(NIUJIU_CARDS))
ALL = [(p, classify(p)) for p in patterns(DECK)]
K, Q, NINE, FIVE = 13, 12, 9, 5


def label(p: Pattern) -> str:
    """The classes the rules tell apart: each kind, with 天 / 虎 / 牛 / 喜 where a rule names them."""
    if p.kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.LIANGZI):
        if p.rank == K:
            return f"tian{p.size}"
        if p.rank == Q:
            return f"tiger{p.size}"
        if p.rank == NINE and p.kind in (Kind.SINGLE, Kind.PAIR, Kind.LIANGZI):
            return f"nine{p.size}"  # a lone niu, a one-colour pair of 9s, four 9s
        if p.rank == FIVE and p.kind == Kind.PAIR:
            return "pair-of-5s"
        return p.kind.name.lower()
    if p.kind == Kind.XI_BAO_LIANG and p.rank == K:
        return "xi_bao_liang-K"
    if p.kind in (Kind.YU, Kind.BAI):
        return f"{p.kind.name.lower()}{p.size // 3}"
    return p.kind.name.lower()


# challenger class -> the classes of the same size it eats at least once (every other pair: never)
EATS: dict[str, set[str]] = {
    # singles (R4.2, R4.4, R4.5)
    "single": {"single", "nine1"},
    "nine1": {"single", "tiger1"},
    "tiger1": {"single", "nine1"},
    "tian1": {"single", "nine1", "tiger1"},
    # pairs (R4.2, R4.4–R4.10)
    "pair": {"pair", "pair-of-5s", "nine2"},
    "pair-of-5s": {"pair"},
    "nine2": {"pair", "pair-of-5s"},
    "tiger2": {"pair", "pair-of-5s", "nine2"},
    "tian2": {"pair", "pair-of-5s", "nine2", "tiger2"},
    "niu_pair": {"pair", "nine2", "tiger2"},
    "xi_pair": set(),
    # triples (R4.2, R4.4, R4.5, R4.7, R4.9, R4.11, R4.12)
    "triple": {"triple"},
    "tiger3": {"triple"},
    "tian3": {"triple", "tiger3"},
    "niu_triple": {"triple", "tiger3"},
    "xi_triple": set(),
    "yu1": set(),
    "bai1": {"yu1"},
    # fours (R4.16)
    "liangzi": {"liangzi", "nine4"},
    "nine4": {"liangzi", "tiger4"},
    "tiger4": {"liangzi", "nine4"},
    "tian4": {"liangzi", "nine4", "tiger4"},
    # sixes (R4.11–R4.15)
    "yu2": set(),
    "bai2": {"yu2"},
    "yu_liang": set(),
    "bai_liang": {"yu_liang"},
    "xi_bao_liang": {"xi_bao_liang"},
    "xi_bao_liang-K": {"xi_bao_liang"},
    # nines and twelves (R4.11, R4.12)
    "yu3": set(),
    "bai3": {"yu3"},
    "yu4": set(),
    "bai4": {"yu4"},
}


def by_class() -> dict[str, list[tuple[bytes, Pattern]]]:
    groups: dict[str, list[tuple[bytes, Pattern]]] = defaultdict(list)
    for cards, p in ALL:
        assert p is not None
        groups[label(p)].append((cards, p))
    return groups


def test_every_pair_of_pattern_classes_eats_exactly_as_the_rules_say() -> None:
    """R4.1–R4.17 as one table, checked over every pair of patterns the deck can form."""
    groups = by_class()
    assert set(groups) == set(EATS)
    for a, members_a in groups.items():
        size = members_a[0][1].size
        for b, members_b in groups.items():
            found = any(pattern_beats(pa, pb) for _, pa in members_a for _, pb in members_b)
            expected = b in EATS[a]
            assert found == expected, f"{a} eats {b}: {found}, rules say {expected}"
            if members_b[0][1].size != size:
                assert not found


def test_rule_4_1_only_the_same_number_of_cards_eats() -> None:
    rng = random.Random(1)
    for _ in range(5000):
        (x, px), (y, py) = rng.sample(ALL, 2)
        assert px is not None and py is not None
        if px.size != py.size:
            assert not beats(x, y) and not beats(y, x)
    assert not beats(c("HK SK"), c("H7")) and not beats(c("HK"), c("H7 S7"))
    assert not beats(c("CQ DQ HQ SQ"), c("H7 S7 D7"))


def test_rule_4_2_plain_order_within_single_pair_triple_liangzi() -> None:
    assert beats(c("H8"), c("S7")) and not beats(c("S7"), c("H8"))
    assert beats(c("H8 S8"), c("H7 S7")) and beats(c("HJ SJ"), c("H9 D9"))
    assert beats(c("H8 S8 D8"), c("H7 S7 C7")) and not beats(c("H2 S2 D2"), c("H3 S3 C3"))
    assert beats(c("C8 D8 H8 S8"), c("C7 D7 H7 S7")) and beats(c("C2 D2 H2 S2"), c("CA DA HA SA"))
    assert beats(c("H6"), c("S5")) and beats(c("H3"), c("S5")) and beats(c("H5"), c("S2"))  # R2.1


def test_rule_2_2_equal_numbers_never_eat_each_other() -> None:
    for x, y in (("H3", "S6"), ("HT", "SJ"), ("H7", "S7"), ("HK", "SK")):
        assert not beats(c(x), c(y)) and not beats(c(y), c(x))
    for x, y in (("H3 S3", "H6 S6"), ("HT ST", "HJ SJ"), ("H3 S3 D3", "H6 S6 D6"), ("HT ST DT", "HJ SJ DJ")):
        assert not beats(c(x), c(y)) and not beats(c(y), c(x))
    assert not beats(c("C3 D3 H3 S3"), c("C6 D6 H6 S6")) and not beats(c("CJ DJ HJ SJ"), c("CT DT HT ST"))


def test_rule_4_3_equal_patterns_never_eat() -> None:
    assert not beats(c("HA D2 S3"), c("SA C2 D3"))
    assert not beats(c("H8 DT SK"), c("S8 CT DK"))
    assert not beats(c("H9 S9"), c("D9 C9"))
    assert not beats(c("H5 S5"), c("D5 C5"))
    assert not beats(c("H5 S5 C3 D3 H3 S3"), c("D5 C5 C6 D6 H6 S6"))


def test_rule_4_4_tian_is_never_eaten() -> None:
    tian = [
        cards
        for cards, p in ALL
        if p is not None and p.kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.LIANGZI) and p.rank == K
    ]
    assert len(tian) == 4 + 6 + 4 + 1
    for best in tian:
        assert not any(beats(x, best) for x, _ in ALL)


def test_rule_4_5_tiger_is_eaten_by_tian_and_niu_of_the_same_count() -> None:
    assert beats(c("HK"), c("SQ")) and beats(c("C9"), c("SQ")) and beats(c("H9"), c("SQ"))
    assert not beats(c("CJ"), c("SQ")) and not beats(c("C9"), c("SJ")) and not beats(c("C9"), c("ST"))
    assert beats(c("HK SK"), c("HQ SQ")) and beats(c("H9 S9"), c("HQ SQ"))
    assert not beats(c("H9 D9"), c("HQ SQ"))  # a one-colour pair of 9s is no 牛 (R3.3)
    assert beats(c("HK SK DK"), c("HQ SQ DQ")) and beats(c("H9 S9 D9"), c("HQ SQ DQ"))
    assert beats(c("CK DK HK SK"), c("CQ DQ HQ SQ")) and beats(c("C9 D9 H9 S9"), c("CQ DQ HQ SQ"))
    assert not beats(c("CJ DJ HJ SJ"), c("CQ DQ HQ SQ"))


def test_rule_4_5_seed_5_3_all_9s_and_Ks_in_hand_make_tigers_and_yu_sure() -> None:
    """Seed §5.3: holding the four 9s and the four Ks, 虎 (1–3) and 鱼 win any trick they lead."""
    held = set(c("C9 D9 H9 S9 CK DK HK SK"))
    for lead in (c("HQ"), c("HQ SQ"), c("HQ SQ DQ"), c("HA D2 S3")):
        outside = [x for x, _ in ALL if not set(x) & (held | set(lead))]
        assert not any(beats(x, lead) for x in outside)
        anywhere = [x for x, _ in ALL if not set(x) & set(lead)]
        assert any(beats(x, lead) for x in anywhere)  # without them the lead could be eaten


def test_rule_4_6_niu_pair_eats_pairs_but_K_and_5() -> None:
    niu = c("H9 S9")
    for r in ("A", "2", "3", "6", "7", "8", "T", "J", "Q"):
        assert beats(niu, c(f"H{r} S{r}")), r
    assert beats(niu, c("C9 S9")) and beats(niu, c("H9 D9"))  # one-colour pairs of 9s too
    assert not beats(niu, c("HK SK"))
    assert not beats(niu, c("H5 S5")) and not beats(niu, c("H5 D5")) and not beats(niu, c("C5 S5"))


def test_rule_4_7_niu_triple_eats_triples_but_K_and_5() -> None:
    niu = c("H9 S9 D9")
    for r in ("A", "2", "3", "6", "7", "8", "T", "J", "Q"):
        assert beats(niu, c(f"H{r} S{r} D{r}")), r
    assert not beats(niu, c("HK SK DK")) and not beats(niu, c("H5 S5 D5"))


def test_rule_4_8_niu_pair_and_niu_triple_are_never_eaten() -> None:
    for best in (c("H9 S9"), c("D9 C9"), c("H9 S9 D9"), c("C9 D9 S9")):
        assert not any(beats(x, best) for x, _ in ALL)
    assert not beats(c("HK SK"), c("H9 S9")) and not beats(c("H9 S9"), c("HK SK"))
    assert not beats(c("HK SK DK"), c("H9 S9 D9")) and not beats(c("H9 S9 D9"), c("HK SK DK"))


def test_rule_4_9_xi_pair_and_xi_triple_neither_eat_nor_are_eaten() -> None:
    for xi in (c("H5 S5"), c("H5 S5 D5")):
        assert not any(beats(x, xi) for x, _ in ALL)
        assert not any(beats(xi, y) for y, _ in ALL)


def test_rule_4_10_one_colour_pair_of_5s_is_a_plain_pair() -> None:
    fives = c("H5 D5")
    assert beats(c("H7 S7"), fives) and beats(c("HK SK"), fives) and beats(c("H3 S3"), fives)
    assert not beats(c("H9 S9"), fives)
    assert beats(fives, c("HA SA")) and beats(fives, c("H2 S2")) and not beats(fives, c("H3 S3"))
    assert beats(c("H5"), c("S2")) and not beats(c("H5"), c("S6"))  # a lone 喜 is a plain 5
    assert beats(c("H9"), c("S8")) and not beats(c("H9"), c("ST"))  # a lone 牛 is a plain 9


def test_rule_4_11_yu_is_eaten_only_by_bai() -> None:
    yu = c("HA D2 S3")
    eaters = {classify(x).kind for x, _ in ALL if beats(x, yu)}  # type: ignore[union-attr]
    assert eaters == {Kind.BAI}
    assert beats(c("H8 DT SK"), yu) and not beats(c("HK SK DK"), yu) and not beats(c("H9 S9 D9"), yu)
    double = c("HA SA D2 C2 S3 H3")
    assert beats(c("H8 S8 DT CT SK HK"), double) and not beats(c("C8 D8 H8 S8 DT SK"), double)
    assert not beats(c("H8 DT SK"), double)


def test_rule_4_12_bai_is_never_eaten_and_eats_only_yu() -> None:
    for best in (c("H8 DT SK"), c("H8 S8 DT CT SK HK")):
        assert not any(beats(x, best) for x, _ in ALL)
        assert {classify(y).kind for y, _ in ALL if beats(best, y)} == {Kind.YU}  # type: ignore[union-attr]


def test_rule_4_13_yu_liang_is_eaten_only_by_bai_liang() -> None:
    for best in (c("CA DA HA SA H2 S3"), c("HA D2 C3 D3 H3 S3")):
        eaters = {classify(x).kind for x, _ in ALL if beats(x, best)}  # type: ignore[union-attr]
        assert eaters == {Kind.BAI_LIANG}
    assert beats(c("H8 DT CK DK HK SK"), c("CA DA HA SA H2 S3"))
    assert beats(c("C8 D8 H8 S8 DT SK"), c("HA C2 D2 H2 S2 S3"))


def test_rule_4_14_bai_liang_is_never_eaten() -> None:
    for best in (c("C8 D8 H8 S8 HT SK"), c("H8 CT DT HT ST SK"), c("H8 DT CK DK HK SK")):
        assert not any(beats(x, best) for x, _ in ALL)


def test_rule_4_15_xi_bao_liang_is_eaten_only_by_a_higher_xi_bao_liang() -> None:
    low = c("H5 S5 C7 D7 H7 S7")
    assert {classify(x).kind for x, _ in ALL if beats(x, low)} == {Kind.XI_BAO_LIANG}  # type: ignore[union-attr]
    assert beats(c("D5 C5 C8 D8 H8 S8"), low) and not beats(low, c("D5 C5 C8 D8 H8 S8"))
    assert not beats(c("D5 C5 CT DT HT ST"), c("H5 S5 CJ DJ HJ SJ"))  # 10 = J
    assert not any(beats(x, c("H5 S5 CK DK HK SK")) for x, _ in ALL)
    assert not beats(c("H8 DT CK DK HK SK"), low)


def test_rule_4_16_liangzi_eats_lower_liangzi_four_K_never_eaten_four_Q_by_four_9() -> None:
    assert beats(c("C8 D8 H8 S8"), c("C7 D7 H7 S7")) and not beats(c("C7 D7 H7 S7"), c("C8 D8 H8 S8"))
    assert beats(c("CQ DQ HQ SQ"), c("CJ DJ HJ SJ"))
    assert beats(c("C9 D9 H9 S9"), c("CQ DQ HQ SQ")) and beats(c("CK DK HK SK"), c("CQ DQ HQ SQ"))
    assert not beats(c("C9 D9 H9 S9"), c("CJ DJ HJ SJ"))
    assert not any(beats(x, c("CK DK HK SK")) for x, _ in ALL)
    assert beats(c("C7 D7 H7 S7"), c("C5 D5 H5 S5"))  # four 5s are a plain liangzi


def test_rule_4_17_no_other_kind_eats_another() -> None:
    assert not beats(c("HK SK DK"), c("HA D2 S3"))
    assert not beats(c("H9 S9 D9"), c("H8 DT SK"))
    assert not beats(c("H8 S8 DT CT SK HK"), c("CA DA HA SA H2 S3"))
    assert not beats(c("H5 S5 CK DK HK SK"), c("CA DA HA SA H2 S3"))
    assert not beats(c("H9"), c("SJ"))
    assert not beats(c("H5 S5 C7 D7 H7 S7"), c("C8 D8 H8 S8 HT SK"))
    assert not beats(c("H5 S5 CK DK HK SK"), c("HA SA D2 C2 S3 H3"))


@pytest.mark.parametrize(
    ("lead", "sure"),
    [
        ("HK", True),  # a = 天
        ("H9 S9", True),  # b = 二牛
        ("H5 S5", True),  # b = 二喜
        ("H9 S9 D9", True),  # c = 三牛
        ("H5 S5 D5", True),  # c = 三喜
        ("H8 DT SK", True),  # c = 摆
        ("CK DK HK SK", True),  # d, four Ks
        ("C8 D8 H8 S8 HT SK", True),  # e = 摆亮
        ("H5 S5 CK DK HK SK", True),  # e = 喜包亮 of Ks
        ("CQ DQ HQ SQ", False),  # d below Ks: eaten by four Ks or four 9s (R4.16)
        ("CA DA HA SA H2 S3", False),  # e = 鱼亮: eaten by 摆亮 (R4.13)
        ("H5 S5 C7 D7 H7 S7", False),  # e = 喜包亮 below Ks (R4.15)
    ],
)
def test_seed_5_1_alphabet_of_the_sure_six(lead: str, sure: bool) -> None:
    """docs §10: which letters of the seed's automaton win any trick they lead."""
    cards = c(lead)
    eaters = [x for x, _ in ALL if not set(x) & set(cards) and beats(x, cards)]
    assert (not eaters) == sure
