"""Each pruning rule of design.md §7.3 tested on its own against plain minimax (every instance up to order 8).

The rules are claims of the patent, so each is checked directly: for every position and
every lead, the answer or the early stop a rule picks must reach the minimax optimum.
"""

from __future__ import annotations

import itertools
import random

from paiju.bots.tricks.graph import strategy_graph
from paiju.bots.tricks.minimax import minimax

ORDERS = range(1, 9)


def _deals() -> list[tuple[list[int], list[int]]]:
    out = []
    for n in ORDERS:
        cards = range(1, 2 * n + 1)
        out += [(list(a), [c for c in cards if c not in a]) for a in itertools.combinations(cards, n)]
    return out


def _td(a: list[int], b: list[int], x: int, y: int) -> int:
    ra, rb = [c for c in a if c != x], [c for c in b if c != y]
    return 1 + minimax(ra, rb) if x > y else -1 - minimax(rb, ra)


def _answers(a: list[int], b: list[int], x: int) -> dict[int, int]:
    return {y: _td(a, b, x, y) for y in b}


def test_just_beat_answers_every_non_top_attack() -> None:
    checked = 0
    for a, b in _deals():
        graph = strategy_graph(a, b)
        for cc in graph.of("a")[:-1]:
            answers = _answers(a, b, cc[0])
            just = graph.next_above(cc[0], "b")
            assert just is not None  # another interval of a is above, so one of b lies between
            assert answers[just[0]] == min(answers.values()), (a, b, cc)
            checked += 1
    assert checked > 10_000


def test_duck_with_the_lowest_card_against_the_top_attack() -> None:
    checked = 0
    for a, b in _deals():
        if min(b) != 1:
            continue
        answers = _answers(a, b, max(a))
        assert answers[1] == min(answers.values()), (a, b)
        checked += 1
    assert checked > 5_000


def test_otherwise_two_answers_are_enough_lowest_duck_or_cheapest_win() -> None:
    """The seed searches every answer here; the solver keeps two (docs/robots.md)."""
    for a, b in _deals():
        if min(b) == 1:
            continue
        x = max(a)
        answers = _answers(a, b, x)
        kept = [y for y in (min(b), min((y for y in b if y > x), default=None)) if y is not None]
        assert min(answers[y] for y in kept) == min(answers.values()), (a, b)


def _early_stop(values: list[int]) -> int:
    for v, w in itertools.pairwise(values):
        if v != w:
            return max(v, w)
    return values[0]


def test_the_attack_tree_early_stop_and_the_within_two_property() -> None:
    for a, b in _deals():
        values = [min(_answers(a, b, cc[0]).values()) for cc in strategy_graph(a, b).of("a")]
        best = max(values)
        assert best == minimax(a, b)
        assert _early_stop(values) == best, (a, b, values)
        assert all(best - v in (0, 2) for v in values), (a, b, values)


def test_the_rules_on_random_instances_of_orders_9_to_11() -> None:
    rng = random.Random(9)
    for n in (9, 10, 11):
        for _ in range(60):
            cards = list(range(1, 2 * n + 1))
            rng.shuffle(cards)
            a, b = sorted(cards[:n]), sorted(cards[n:])
            graph = strategy_graph(a, b)
            values = []
            for cc in graph.of("a"):
                answers = _answers(a, b, cc[0])
                values.append(min(answers.values()))
                if cc != graph.of("a")[-1]:
                    just = graph.next_above(cc[0], "b")
                    assert just is not None and answers[just[0]] == values[-1]
                elif min(b) == 1:
                    assert answers[1] == values[-1]
            assert _early_stop(values) == max(values) == minimax(a, b)
