"""The robot ``perfect`` never scores below the solver's value of the deal."""

from __future__ import annotations

from paiju.bots import arena, registry
from paiju.bots.tricks import solve
from paiju.games.tricks import Tricks, tricks_numbers


def _value_for(record: arena.HandRecord, seat: int) -> int:
    hands = [tricks_numbers(bytes.fromhex(h)) for h in record.hands]
    v = solve(hands[record.dealer], hands[1 - record.dealer])  # the dealer leads the first trick
    return v if seat == record.dealer else -v


def test_perfect_never_scores_below_the_value_against_random() -> None:
    report = arena.play("tricks", ["perfect", "random"], hands=600, seed=9)
    assert report.games == 1200
    strictly_better = 0
    for rec in report.records:
        seat = rec.robots.index("perfect")
        value = _value_for(rec, seat)
        assert rec.scores[seat] >= value, rec
        strictly_better += rec.scores[seat] > value
    assert strictly_better > 100  # random errs, and perfect takes what it is given
    assert report.robots["perfect"].illegal == report.robots["random"].illegal == 0


def test_perfect_against_perfect_scores_exactly_the_value() -> None:
    report = arena.play("tricks", ["perfect", "perfect"], hands=100, seed=4)
    for rec in report.records:
        assert rec.scores[rec.dealer] == _value_for(rec, rec.dealer)


def test_perfect_on_a_whole_pack() -> None:
    report = arena.play("tricks", ["perfect", "random"], hands=3, seed=26, ruleset="pack")
    for rec in report.records:
        seat = rec.robots.index("perfect")
        assert len(tricks_numbers(bytes.fromhex(rec.hands[0]))) == 26
        assert rec.scores[seat] >= _value_for(rec, seat)


def test_perfect_is_registered_and_answers_from_the_view_alone() -> None:
    assert "perfect" in registry.names("tricks")
    g = Tricks(5, Tricks.ruleset(n=6))
    robot = registry.get("tricks", "perfect")
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal(seat)
        from paiju.protocol import DecisionRequest

        req = DecisionRequest(
            "r", "tricks", "standard", seat, 1, 0, "perfect", legal.mask, list(legal.options), g.view(seat)
        )
        g.apply(seat, robot.decide(req))  # raises if the card is not legal
