"""Design.md §7.1: sure winners, computed from the seat's view only; the counting test
against the engine's eat relation; the special cases of four 9s with four Ks, and of none."""

from __future__ import annotations

import random

from paiju.bots.niujiu.automaton import Letter, recognize, six_must_suffice
from paiju.bots.niujiu.knowledge import from_view
from paiju.bots.niujiu.sure import Pool, beatable, eat_chance, hold_chance, is_sure
from paiju.games.niujiu import classify, pattern_beats, patterns
from paiju.protocol import parse_cards
from paiju.protocol.cards import NIUJIU_CARDS


def cards(text: str) -> bytes:
    return parse_cards(text, ace=1)


def pattern(text: str):  # type: ignore[no-untyped-def]
    p = classify(cards(text))
    assert p is not None
    return p


def pool_without(hand: bytes, *seen: bytes) -> Pool:
    return Pool.of(NIUJIU_CARDS - set(hand) - {c for s in seen for c in s})


def test_counting_agrees_with_the_engine_on_random_pools() -> None:
    rng = random.Random(5)
    deck = sorted(NIUJIU_CARDS)
    checked = 0
    for _ in range(300):
        rng.shuffle(deck)
        pool, hand = bytes(deck[: rng.randint(0, 32)]), bytes(sorted(deck[32:]))
        counted = Pool.of(pool)
        for p in patterns(hand):
            best = classify(p)
            assert best is not None
            engine = any(pattern_beats(classify(q), best) for q in patterns(pool, len(p)))  # type: ignore[arg-type]
            assert beatable(best, counted) == engine, (p.hex(), pool.hex())
            checked += 1
    assert checked > 5000


FOUR_NINES_FOUR_KS = "H9 D9 C9 S9 HK DK CK SK HQ DQ SQ HA D2 S3 C6 H7"
NONE = "HQ DQ SQ HA D2 S3 C6 H7 S7 D8 C8 HT DT CJ S2 HJ"  # no 9, no K, 8s and 10s two each


def test_four_nines_and_four_ks_make_tigers_and_yu_sure() -> None:
    hand = cards(FOUR_NINES_FOUR_KS)
    pool = pool_without(hand)
    for tigers in ("HQ", "HQ DQ", "HQ DQ SQ"):
        assert is_sure(pattern(tigers), pool), tigers
    assert is_sure(pattern("HA D2 S3"), pool)
    letters = {s.pattern.name: s.letter for s in recognize(hand, pool)}
    assert letters["tiger"] == Letter.A and letters["two tigers"] == Letter.B and letters["yu"] == Letter.C
    assert letters["three tigers"] == Letter.C


def test_with_none_of_them_they_are_not_sure() -> None:
    hand = cards(NONE)
    pool = pool_without(hand)
    for p in ("HQ", "HQ DQ", "HQ DQ SQ", "HA D2 S3"):
        assert not is_sure(pattern(p), pool), p
    assert six_must_suffice(hand) is None


def test_only_the_cards_that_eat_matter() -> None:
    hand = cards("H9 D9 C9 S9 HQ")  # all 9s but no K: a single K still eats Q
    assert not is_sure(pattern("HQ"), pool_without(hand))
    hand = cards("HK DK CK SK HQ")  # all Ks but no 9: a single 9 still eats Q
    assert not is_sure(pattern("HQ"), pool_without(hand))
    assert is_sure(pattern("HQ DQ"), pool_without(cards("HK DK CK H9 D9 HQ DQ")))  # no KK, no 二牛 left
    assert not is_sure(pattern("HQ DQ"), pool_without(cards("HK DK CK H9 HQ DQ")))  # 二牛 still possible


def view(hand: str, occupied: str = "", beaten: str = "") -> dict[str, object]:
    h, o, b = cards(hand), cards(occupied), cards(beaten)
    n = len(h)
    return {
        "hand": h,
        "my_covered": b"",
        "leader": 0,
        "k": 0,
        "trick": [],
        "best": None,
        "beaten": b,
        "occupied": [b"", o, b""],
        "hand_size": [n, n, n],
        "covered_count": [0, 0, 0],
        "revealed": [b"", b"", b""],
    }


def test_one_beating_card_unseen_is_not_sure_played_is_sure() -> None:
    hand = "H9 D9 C9 S9 HK DK CK HQ HA D2 S3 C6 H7 D7"
    unseen = from_view(0, view(hand))  # SK is somewhere else: it eats the Q
    assert not is_sure(pattern("HQ"), unseen.pool)
    assert "SK" not in hand and cards("SK")[0] in unseen.unseen
    played = from_view(0, view(hand, occupied="SK HT D8"))  # seat 1 occupied SK in a 摆
    assert is_sure(pattern("HQ"), played.pool)
    beaten = from_view(0, view(hand, beaten="SK"))  # or SK was beaten face up
    assert is_sure(pattern("HQ"), beaten.pool)
    assert cards("HQ") in [bytes([c]) for c in beaten.hand]


def test_eat_chance() -> None:
    hand = cards("HK DK CK H9 HQ DQ")
    pool = pool_without(hand)
    assert eat_chance(pattern("HK"), pool, [14, 14]) == 0.0  # 天
    q = eat_chance(pattern("HQ"), pool, [14, 14])
    assert 0.5 < q < 1.0  # SK and three 9s are out there
    assert eat_chance(pattern("HQ"), pool, [1, 1]) < q  # smaller hands hold less
    assert hold_chance((4, 4), 32, 16) < hold_chance((4, 1), 32, 16) <= 1.0
    assert hold_chance((0, 1), 32, 16) == 0.0
