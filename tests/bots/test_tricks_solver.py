"""The seed-002 solver against plain minimax: every instance up to order 8, random ones of orders
9-12 (more, against plain alpha-beta: ``paiju bench tricks --deals 500 --ab-max 12``)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from paiju.bots.tricks import Cache, Solver, attack_values, key_of, optimal_attacks, optimal_defences, solve
from paiju.bots.tricks.graph import strategy_graph
from paiju.bots.tricks.minimax import alphabeta, minimax


def _all_deals(n: int) -> list[tuple[list[int], list[int]]]:
    cards = range(1, 2 * n + 1)
    return [(list(a), [c for c in cards if c not in a]) for a in itertools.combinations(cards, n)]


def _random_deal(rng: random.Random, n: int) -> tuple[list[int], list[int]]:
    cards = list(range(1, 2 * n + 1))
    rng.shuffle(cards)
    return cards[:n], cards[n:]


def test_every_instance_up_to_order_8_by_the_cache_and_by_the_search() -> None:
    search_only = Solver(Cache.build(3))  # below order 4 the cache answers; above, the trees search
    checked = 0
    for n in range(1, 9):
        for a, b in _all_deals(n):
            want = minimax(a, b)
            assert solve(a, b) == want, (a, b)  # the default cache holds every instance up to order 10
            assert search_only.value(key_of(a, b)) == want, (a, b)
            checked += 1
    assert checked == sum(math.comb(2 * n, n) for n in range(1, 9))


def test_random_instances_of_orders_9_to_12() -> None:
    rng = random.Random(2019)
    search_only = Solver(Cache.build(6))
    for n in (9, 10, 11, 12):
        for _ in range(20):  # plain minimax takes a tenth of a second or more at order 12
            a, b = _random_deal(rng, n)
            want = minimax(a, b)
            assert solve(a, b) == want, (a, b)
            assert search_only.value(key_of(a, b)) == want, (a, b)


def test_plain_alphabeta_agrees_with_plain_minimax() -> None:
    rng = random.Random(7)
    for n in range(1, 9):
        for _ in range(40):
            a, b = _random_deal(rng, n)
            assert alphabeta(a, b) == minimax(a, b)


def test_a_whole_pack_is_solved_and_the_value_has_the_right_parity() -> None:
    rng = random.Random(52)
    for _ in range(2):
        a, b = _random_deal(rng, 26)
        v = solve(a, b)
        assert -26 <= v <= 26 and v % 2 == 0
        assert solve(b, a) >= -26  # the same cards with the other seat on lead


def test_cards_are_any_distinct_numbers_only_their_order_matters() -> None:
    assert solve([10, 40, 50, 80], [20, 30, 60, 70]) == solve([1, 4, 5, 8], [2, 3, 6, 7])
    assert solve([3, 4], [1, 2]) == 2 and solve([1, 2], [3, 4]) == -2
    with pytest.raises(ValueError):
        solve([1, 2], [3])
    with pytest.raises(ValueError):
        solve([1, 2], [2, 3])


def _child(a: list[int], b: list[int], x: int, y: int) -> int:
    """td(x, y) by plain minimax: a leads x, b answers y."""
    ra, rb = [c for c in a if c != x], [c for c in b if c != y]
    return 1 + minimax(ra, rb) if x > y else -1 - minimax(rb, ra)


def test_optimal_attack_and_defence_sets_match_plain_minimax() -> None:
    rng = random.Random(3)
    for n in range(1, 9):
        for _ in range(30):
            a, b = _random_deal(rng, n)
            graph = strategy_graph(a, b)
            td = {cc: min(_child(a, b, cc[0], y) for y in b) for cc in graph.of("a")}
            best = max(td.values())
            assert best == solve(a, b)
            assert optimal_attacks(a, b) == [cc for cc in graph.of("a") if td[cc] == best]
            assert attack_values(a, b) == list(td.items())
            lead = rng.choice(a)
            rest = [c for c in a if c != lead]
            answers = {cc: _child(a, b, lead, cc[0]) for cc in strategy_graph(a, b).of("b")}
            low = min(answers.values())
            assert optimal_defences(rest, b, lead) == [cc for cc, v in answers.items() if v == low]


def test_cards_of_one_interval_are_equivalent() -> None:
    rng = random.Random(11)
    for _ in range(200):
        a, b = _random_deal(rng, rng.randint(2, 7))
        for cc in strategy_graph(a, b).of("a"):
            assert len({min(_child(a, b, x, y) for y in b) for x in cc}) == 1


def test_the_cache_is_saved_loaded_and_its_distribution_counts_every_instance(tmp_path: object) -> None:
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "tricks.bin"
    built = Cache.build(6)
    built.save(path)
    assert path.stat().st_size < 50_000
    loaded = Cache.load(path)
    assert loaded.order == 6 and loaded.table == built.table
    assert Cache.load_or_build(6, path).table == built.table
    dist = loaded.distribution()
    for m, counts in dist.items():
        assert sum(counts.values()) == math.comb(2 * m, m)
        assert all(v % 2 == m % 2 and -m <= v <= m for v in counts)
    # order 2, the leader's hand: {3,4} +2; {1,2} and {1,3} -2; {1,4}, {2,3}, {2,4} 0
    assert dict(dist[2]) == {-2: 2, 0: 3, 2: 1}
    with pytest.raises(ValueError):
        Cache(3, bytearray(10))
    with pytest.raises(ValueError):
        Cache.load(path.with_name("not-a-cache.bin").write_bytes(b"junk") and path.with_name("not-a-cache.bin"))
