"""hu_distance against an independent brute force, edge cases, and the information set."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest

from paiju.games.mahjong import discard_options, hu_distance, information_set, is_win, unseen, useful_draws, waits
from paiju.games.mahjong.analysis import ALL_TILES, NUMBER_TILES
from paiju.protocol.cards import parse_tiles as t


# ------------------------------------------------------------------ the brute force
# A different algorithm from the tables: for each suit, enumerate every way to pick sets
# that touch the suit's tiles (plus the pair) and measure the overlap directly; then try
# every split of the sets between the suits. Sets that touch none of the hand's tiles
# keep nothing, so "fewer touching sets" stands for the rest (fresh sets always fit).
def _suit_sets(ranks: int, chows: bool, held: tuple[int, ...]) -> list[tuple[int, ...]]:
    sets = [(r, r, r) for r in range(ranks)]
    if chows:
        sets += [(r, r + 1, r + 2) for r in range(ranks - 2)]
    return [s for s in sets if any(held[r] for r in s)]


@functools.cache
def _best_overlap(held: tuple[int, ...], chows: bool, m: int, pair: bool) -> int:
    """Most tiles of ``held`` kept by at most ``m`` sets (+ a pair if ``pair``), <= 4 a rank."""
    ranks = len(held)
    sets = _suit_sets(ranks, chows, held)
    pair_choices: list[int | None] = [None] if not pair else [r for r in range(ranks) if held[r]] + [None]
    best = 0
    for k in range(m + 1):
        for combo in itertools.combinations_with_replacement(sets, k):
            w = [0] * ranks
            for s in combo:
                for r in s:
                    w[r] += 1
            for pr in pair_choices:
                if pr is not None:
                    w[pr] += 2
                if max(w, default=0) <= 4:
                    best = max(best, sum(map(min, w, held)))
                if pr is not None:
                    w[pr] -= 2
    return best


def brute_distance(tiles: bytes, melds: int = 0, seven_pairs: bool = True, distinct: bool = False) -> int:
    n = 4 - melds
    c = Counter(tiles)
    helds = [tuple(c[s << 4 | r] for r in range(1, 8 if s == 3 else 10)) for s in range(4)]
    best = 0
    for ms in itertools.product(range(n + 1), repeat=4):
        if sum(ms) > n:
            continue
        for ps in range(4):
            ov = sum(_best_overlap(helds[s], s != 3, ms[s], s == ps) for s in range(4))
            best = max(best, ov)
    d = 3 * n + 2 - best
    if seven_pairs and melds == 0:
        # seven pairs: a knapsack over the tiles held, each kept 0, 2 or 4 times (0 or 2 if
        # the pairs must differ); the pairs still missing are fresh tiles, keeping nothing
        cap = 2 if distinct else 4
        best7 = {0: 0}  # pairs used -> most tiles kept
        for _k, have in c.items():
            nxt: dict[int, int] = {}
            for used, kept in best7.items():
                for w in range(0, cap + 1, 2):
                    u = used + w // 2
                    if u <= 7:
                        nxt[u] = max(nxt.get(u, -1), kept + min(w, have))
            best7 = nxt
        d = min(d, 14 - max(best7.values()))
    return d


def random_hand(rng: random.Random, size: int, honours: bool = True) -> bytes:
    wall = [b for b in (ALL_TILES if honours else NUMBER_TILES) for _ in range(4)]
    return bytes(sorted(rng.sample(wall, size)))


# ------------------------------------------------------------------ agreement
@pytest.mark.parametrize("size", [13, 14])
def test_random_hands_agree_with_brute_force(size: int) -> None:
    # 30 hands a size against the brute force here (its 13 tiles take a tenth of a second a
    # hand); 100,000 against the mahjong package's shanten: paiju bench mahjong (--tiles 14)
    rng = random.Random(size)
    for i in range(30):
        hand = random_hand(rng, size, honours=i % 2 == 0)
        for sp in (True, False):
            assert hu_distance(hand, seven_pairs=sp) == brute_distance(hand, seven_pairs=sp), (hand.hex(), sp)


def test_random_hands_with_melds_and_one_suit() -> None:
    rng = random.Random(7)
    for _ in range(50):
        melds = rng.randrange(0, 5)
        size = 3 * (4 - melds) + rng.choice((1, 2))
        hand = random_hand(rng, size)
        assert hu_distance(hand, melds) == brute_distance(hand, melds), (hand.hex(), melds)
    suit = [b for b in NUMBER_TILES if b >> 4 == 1 for _ in range(4)]
    for _ in range(25):
        hand = bytes(sorted(rng.sample(suit, rng.choice((13, 14)))))
        assert hu_distance(hand) == brute_distance(hand), hand.hex()


def test_distinct_pairs_variant() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hand = random_hand(rng, 13)
        assert hu_distance(hand, distinct_pairs=True) == brute_distance(hand, distinct=True), hand.hex()


EDGE = [
    ("123m 456m 789m 123p 55s", 0, 0),
    ("123m 456m 789m 123p 5s", 0, 1),
    ("1111m 2222m 3333m 4m", 0, None),  # quads inside a hand
    ("1111m 2222m 3333m 44m", 0, None),
    ("1111m 9999p 5555s E", 0, None),
    ("1122m 3344p 55s 7777s", 0, 0),  # seven pairs with a quad (two pairs)
    ("1122m 3344p 55s 777s", 0, 1),
    ("EEEE SSSS WWWW N", 0, None),  # honours: quads of honours cannot form chows
    ("EEE SSS WWW NNN C", 0, 1),
    ("EE SS WW NN CC FF P", 0, 1),
    ("1111m", 3, None),
    ("11m 1p 1s", 3, 2),
    ("5m", 4, 1),
    ("55m", 4, 0),
    ("19m 19p 19s ESWNCFP", 0, None),  # thirteen orphans is not a form here
]


@pytest.mark.parametrize("text,melds,expected", EDGE)
def test_edge_cases(text: str, melds: int, expected: int | None) -> None:
    hand = t(text)
    d = hu_distance(hand, melds)
    assert d == brute_distance(hand, melds)
    if expected is not None:
        assert d == expected


def test_quad_cannot_be_completed_with_a_fifth_copy() -> None:
    # 1111m needs a fifth 1m to be a pong + pair: the distance counts the real cost
    assert hu_distance(t("1111m"), 3) == 2
    assert hu_distance(t("111m 2m"), 3) == 1


def test_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        hu_distance(t("11111m 23456789m"))
    with pytest.raises(ValueError):
        hu_distance(bytes([0x0A]) + t("123456789m123p"))
    with pytest.raises(ValueError):
        hu_distance(t("123m"))


# ------------------------------------------------------------------ draws and the information set
def test_waits_and_useful_draws() -> None:
    hand = t("123m 456m 789m 11p 23s")
    assert waits(hand) == t("1s 4s")
    assert useful_draws(hand) == {0x11: 4, 0x14: 4}
    assert useful_draws(hand, seen=t("1s 1s 4s")) == {0x11: 2, 0x14: 3}
    assert unseen(hand, t("1m"), honours=False)[0x01] == 2
    assert is_win(hand + t("1s")) and not is_win(hand + t("5s"))
    # after a draw: the union over the best discards
    opts = discard_options(hand + t("9p"))
    assert opts[0][0] == 0x29 and opts[0][1] == 1
    assert useful_draws(hand + t("9p")) == {0x11: 4, 0x14: 4}


def test_useful_draws_lower_the_distance() -> None:
    rng = random.Random(3)
    for _ in range(40):
        hand = random_hand(rng, 13)
        d = hu_distance(hand)
        useful = useful_draws(hand)
        for tile in ALL_TILES:
            if Counter(hand)[tile] < 4:
                assert (tile in useful) == (hu_distance(hand + bytes([tile])) < d)


def test_information_set_matches_the_seed_example() -> None:
    # design.md §7.4: 23345 条 (with three sets elsewhere) has five routes at d = 1
    s = information_set(t("123m 456m 789m 23345s"), seven_pairs=False)
    assert s.distance == 1 and s.complete
    routes = {(i.needed, i.discardable) for i in s.items}
    assert (t("3s"), t("5s")) in routes and (t("3s"), t("2s")) in routes
    assert len(routes) == 5


def test_information_set_items_are_at_the_distance() -> None:
    rng = random.Random(5)
    for _ in range(15):
        hand = random_hand(rng, 14)
        s = information_set(hand, limit=64)
        assert s.items
        for item in s.items:
            assert len(item.needed) == s.distance == len(item.discardable)
            target = (Counter(hand) - Counter(item.discardable)) + Counter(item.needed)
            assert is_win(bytes(sorted(target.elements())))


def test_the_shipped_combined_tables_are_those_the_suit_tables_give() -> None:
    """tables.bin holds the suits combined in advance (a server reads them on its first
    mahjong move instead of computing them in its event loop): they are what computing
    them from the shipped suit tables gives."""
    from paiju.games.mahjong.tables import combine, combined, tables

    assert combined() == combine(*tables())
