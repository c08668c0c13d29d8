"""Niujiu patterns (docs/rules/niujiu.md §1–§3): classify on every kind and on near misses.

Test names cite the rule they exercise (test_rule_3_6_... exercises R3.6).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from paiju.games.niujiu import LEVEL, Kind, classify, is_red, niu_code, patterns, rank
from paiju.protocol.cards import NIUJIU_CARDS, parse_cards


def c(text: str) -> bytes:
    """Cards in notation, ace = 1 (Niujiu's low ace)."""
    return parse_cards(text, ace=1)


def kind(text: str) -> Kind | None:
    p = classify(c(text))
    return None if p is None else p.kind


DECK = bytes(sorted(NIUJIU_CARDS))
ALL_PATTERNS = patterns(DECK)


def test_rule_1_1_deck_has_48_cards_without_4s_or_jokers() -> None:
    assert len(NIUJIU_CARDS) == 48
    ranks = Counter(rank(b) for b in NIUJIU_CARDS)
    assert sorted(ranks) == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert set(ranks.values()) == {4}
    assert classify(bytes([0x24])) is None  # no 4s: a 4 is no card


def test_rule_1_2_red_is_hearts_and_diamonds_colour_matters_for_9_and_5_only() -> None:
    assert [is_red(b) for b in c("C9 D9 H9 S9")] == [False, True, True, False]
    assert kind("H9 S9") == Kind.NIU_PAIR and kind("H9 D9") == Kind.PAIR
    assert kind("D5 C5") == Kind.XI_PAIR and kind("C5 S5") == Kind.PAIR
    for r in ("A", "2", "3", "6", "7", "8", "T", "J", "Q", "K"):  # no other number cares about colour
        assert kind(f"H{r} S{r}") == kind(f"H{r} D{r}") == kind(f"C{r} S{r}") == Kind.PAIR


def test_rule_2_1_rank_order_K_Q_J10_9_8_7_6and3_5_2_A() -> None:
    order = [c(x)[0] & 0xF for x in ["SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S3", "S5", "S2", "SA"]]
    levels = [LEVEL[r] for r in order]
    assert levels == sorted(levels, reverse=True)
    assert LEVEL[11] == LEVEL[10] and LEVEL[6] == LEVEL[3]
    assert len(set(levels)) == 10
    assert LEVEL[3] > LEVEL[5] > LEVEL[2]  # 3 joins 6 above 5 (the decision of R2.1)


def test_rule_2_3_pairs_are_of_one_number_3_6_and_10_J_are_no_pair() -> None:
    assert classify(c("H3 S6")) is None
    assert classify(c("HT SJ")) is None
    assert classify(c("H3 S3 D6")) is None
    assert classify(c("HT ST CJ DJ")) is None
    assert kind("H3 S3") == Kind.PAIR and kind("HT ST CT DT") == Kind.LIANGZI


def test_rule_3_1_any_card_is_a_single_named_tian_tiger_niu_xi() -> None:
    for b in NIUJIU_CARDS:
        p = classify(bytes([b]))
        assert p is not None and p.kind == Kind.SINGLE and p.size == 1 and p.rank == rank(b)
    assert [classify(c(x)).name for x in ("HK", "SQ", "C9", "D5", "H7")] == ["tian", "tiger", "niu", "xi", "single"]  # type: ignore[union-attr]


def test_rule_3_2_pair_niu_pair_xi_pair() -> None:
    assert kind("H7 C7") == Kind.PAIR
    assert kind("HK SK") == Kind.PAIR and classify(c("HK SK")).name == "two tian"  # type: ignore[union-attr]
    assert classify(c("HQ SQ")).name == "two tigers"  # type: ignore[union-attr]
    for red in ("H9", "D9"):
        for black in ("C9", "S9"):
            assert kind(f"{red} {black}") == Kind.NIU_PAIR
            assert kind(f"{red.replace('9', '5')} {black.replace('9', '5')}") == Kind.XI_PAIR


def test_rule_3_3_two_9s_or_5s_of_one_colour_are_a_plain_pair() -> None:
    for pair in ("H9 D9", "C9 S9", "H5 D5", "C5 S5"):
        p = classify(c(pair))
        assert p is not None and p.kind == Kind.PAIR and p.name == "pair"


def test_rule_3_4_triples_three_9s_are_niu_triple_three_5s_xi_triple() -> None:
    assert kind("H7 C7 S7") == Kind.TRIPLE
    assert classify(c("HK CK SK")).name == "three tian"  # type: ignore[union-attr]
    for three in combinations(c("C9 D9 H9 S9"), 3):
        assert classify(bytes(three)).kind == Kind.NIU_TRIPLE  # type: ignore[union-attr]
    for three in combinations(c("C5 D5 H5 S5"), 3):
        assert classify(bytes(three)).kind == Kind.XI_TRIPLE  # type: ignore[union-attr]
    assert classify(c("H7 C7 S8")) is None  # near miss: one card of another number


def test_rule_3_5_four_of_a_number_is_a_liangzi_four_K_and_four_Q_too() -> None:
    for r in (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13):
        p = classify(bytes(s << 4 | r for s in range(4)))
        assert p is not None and p.kind == Kind.LIANGZI and p.size == 4 and p.rank == r
    assert classify(c("CK DK HK SK")).name == "four tian"  # type: ignore[union-attr]
    assert classify(c("CQ DQ HQ SQ")).name == "four tigers"  # type: ignore[union-attr]
    assert classify(c("C7 D7 H7 S8")) is None


def test_rule_3_6_yu_is_A23_and_its_multiples() -> None:
    assert classify(c("HA D2 S3")).name == "yu"  # type: ignore[union-attr]
    assert classify(c("HA SA D2 C2 S3 H3")).name == "double yu"  # type: ignore[union-attr]
    assert classify(c("HA SA DA D2 C2 H2 S3 H3 D3")).name == "triple yu"  # type: ignore[union-attr]
    p = classify(c("CA DA HA SA C2 D2 H2 S2 C3 D3 H3 S3"))
    assert p is not None and p.kind == Kind.YU and p.size == 12 and p.name == "quadruple yu"
    # near misses: one card of the wrong number, unequal multiples
    assert classify(c("HA D2 S5")) is None
    assert classify(c("HA D2 S2")) is None
    assert classify(c("HA SA D2 C2 S3")) is None
    assert classify(c("HA SA D2 C2 S3 H3 D3")) is None


def test_rule_3_7_bai_is_8_10_K_and_its_multiples() -> None:
    assert kind("H8 DT SK") == Kind.BAI
    p = classify(c("H8 S8 DT CT SK HK"))
    assert p is not None and p.kind == Kind.BAI and p.size == 6 and p.name == "double bai"
    assert classify(c("C8 D8 H8 CT DT HT CK DK HK")).name == "triple bai"  # type: ignore[union-attr]
    assert classify(c("C8 D8 H8 S8 CT DT HT ST CK DK HK SK")).name == "quadruple bai"  # type: ignore[union-attr]
    assert classify(c("H8 D9 SK")) is None and classify(c("H8 DT SQ")) is None


def test_rule_3_8_no_stand_ins_J_is_no_10_in_bai_6_no_3_in_yu() -> None:
    assert classify(c("H8 DJ SK")) is None
    assert classify(c("HA D2 S6")) is None
    assert classify(c("C8 D8 H8 S8 DJ SK")) is None
    assert classify(c("HA D2 C6 D6 H6 S6")) is None


def test_rule_3_9_yu_liang_is_A23_with_one_number_four_times() -> None:
    for text, four in (("CA DA HA SA H2 S3", 1), ("HA C2 D2 H2 S2 S3", 2), ("HA D2 C3 D3 H3 S3", 3)):
        p = classify(c(text))
        assert p is not None and p.kind == Kind.YU_LIANG and p.size == 6 and p.rank == four
    assert classify(c("CA DA HA H2 S3")) is None  # three aces: no liang
    assert classify(c("CA DA HA SA H2")) is None  # the 3 is missing
    assert classify(c("CA DA HA SA H2 S2 S3")) is None


def test_rule_3_10_bai_liang_is_8_10_K_with_one_number_four_times() -> None:
    for text, four in (("C8 D8 H8 S8 HT SK", 8), ("H8 CT DT HT ST SK", 10), ("H8 DT CK DK HK SK", 13)):
        p = classify(c(text))
        assert p is not None and p.kind == Kind.BAI_LIANG and p.rank == four
    assert classify(c("C8 D8 H8 S8 HJ SK")) is None  # a J is no 10 (R3.8)


def test_rule_3_11_xi_bao_liang_is_xi_pair_and_a_liangzi() -> None:
    for r in ("A", "2", "3", "6", "7", "8", "9", "T", "J", "Q", "K"):
        p = classify(c(f"H5 S5 C{r} D{r} H{r} S{r}"))
        assert p is not None and p.kind == Kind.XI_BAO_LIANG and p.size == 6 and p.rank == c(f"C{r}")[0] & 0xF
    assert classify(c("H5 D5 C7 D7 H7 S7")) is None  # two red 5s are no 二喜
    assert classify(c("C5 S5 C7 D7 H7 S7")) is None  # two black 5s neither
    assert classify(c("H5 S5 C7 D7 H7")) is None  # no liangzi
    assert classify(c("H5 S5 D5 C7 D7 H7 S7")) is None  # 三喜 + liangzi is not a pattern


def test_rule_3_12_nothing_else_is_a_pattern() -> None:
    for text in ("H7 S7 H8 S8", "H5 H6 H7", "H3 S6", "HT SJ", "H9 S9 H5 S5", "C7 D7 H7 S7 C8 D8"):
        assert classify(c(text)) is None, text
    assert classify(b"") is None
    assert classify(bytes([0x29, 0x29])) is None  # one card twice
    assert classify(bytes([0x2E])) is None  # a bridge ace is no Niujiu card
    assert classify(bytes([0x00])) is None
    # exhaustively on random sets: a set is a pattern iff patterns() of a hand finds it
    rng = random.Random(5)
    for _ in range(3):
        hand = bytes(sorted(rng.sample(DECK, 12)))
        found = set(patterns(hand))
        for n in range(1, 13):
            for combo in combinations(hand, n):
                assert (classify(bytes(combo)) is not None) == (bytes(combo) in found)


def test_rule_3_13_pattern_sizes_are_1_2_3_4_6_9_12() -> None:
    assert {len(p) for p in ALL_PATTERNS} == {1, 2, 3, 4, 6, 9, 12}
    sizes = Counter((classify(p).kind, len(p)) for p in ALL_PATTERNS)  # type: ignore[union-attr]
    assert sizes[(Kind.SINGLE, 1)] == 48
    assert sizes[(Kind.PAIR, 2)] == 10 * 6 + 2 * 2  # + one-colour 9s and 5s
    assert sizes[(Kind.NIU_PAIR, 2)] == sizes[(Kind.XI_PAIR, 2)] == 4
    assert sizes[(Kind.TRIPLE, 3)] == 10 * 4 and sizes[(Kind.NIU_TRIPLE, 3)] == 4
    assert sizes[(Kind.LIANGZI, 4)] == 12
    assert sizes[(Kind.YU, 3)] == 64 and sizes[(Kind.YU, 6)] == 216 and sizes[(Kind.YU, 12)] == 1
    assert sizes[(Kind.YU_LIANG, 6)] == sizes[(Kind.BAI_LIANG, 6)] == 3 * 16
    assert sizes[(Kind.XI_BAO_LIANG, 6)] == 4 * 11


def test_patterns_of_a_hand_are_distinct_sorted_and_of_the_hand() -> None:
    rng = random.Random(9)
    for _ in range(50):
        hand = bytes(sorted(rng.sample(DECK, 16)))
        ps = patterns(hand)
        assert len(ps) == len(set(ps))
        for p in ps:
            assert p == bytes(sorted(p)) and not Counter(p) - Counter(hand)
        for size in (1, 2, 3, 4, 6, 9, 12):
            assert patterns(hand, size) == [p for p in ps if len(p) == size]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("C9", 9),
        ("C9 S9", 8),
        ("H9", 7),
        ("H9 D9", 4),
        ("H9 S9", 6),
        ("H9 D9 S9", 3),
        ("H9 C9 S9", 5),
        ("C9 D9 H9 S9", 2),
    ],
)
def test_seed_5_2_colour_code_of_9s(cards: str, code: int) -> None:
    """Seed §5.2's additive code (red 7, black 9, mod 10): the values the seed prints."""
    assert niu_code(c(cards)) == code


def test_seed_5_2_colour_code_tells_every_mix_apart() -> None:
    nines = c("C9 D9 H9 S9")
    mixes: dict[int, set[tuple[int, int]]] = {}
    for n in range(1, 5):
        for combo in combinations(nines, n):
            mixes.setdefault(niu_code(bytes(combo)), set()).add((sum(map(is_red, combo)), n))
    assert all(len(v) == 1 for v in mixes.values()) and len(mixes) == 8
