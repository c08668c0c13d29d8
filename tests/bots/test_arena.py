"""The arena: duplicate deals, per-robot figures, illegal answers counted, every registered game."""

from __future__ import annotations

import io
import json
import pathlib
from contextlib import redirect_stdout

import pytest

from paiju import games
from paiju.bots import arena, registry
from paiju.bots.base import Robot
from paiju.cli import main
from paiju.games import GameAction
from paiju.protocol import DecisionRequest


def test_each_deal_is_played_once_per_rotation_with_the_same_cards() -> None:
    report = arena.play("tricks", ["perfect", "random"], hands=5, seed=3)
    assert report.games == 10
    for deal in range(5):
        recs = [r for r in report.records if r.deal == deal]
        assert [r.robots for r in recs] == [["perfect", "random"], ["random", "perfect"]]
        assert recs[0].hands == recs[1].hands  # the same deal in both rotations
    other = arena.play("tricks", ["random", "random"], hands=5, seed=4)
    assert [r.hands for r in other.records] != [r.hands for r in report.records]


def test_the_figures_of_each_robot() -> None:
    report = arena.play("tricks", ["perfect", "random"], hands=60, seed=1)
    p, r = report.robots["perfect"], report.robots["random"]
    assert p.hands == r.hands == 120
    assert p.win_share + r.win_share == pytest.approx(1.0)
    assert p.mean_score == pytest.approx(-r.mean_score)
    assert p.mean_score > 0 and p.win_share > 0.5
    assert p.mean_score_ci is not None and p.mean_score_ci[0] < p.mean_score < p.mean_score_ci[1]
    assert p.win_share_ci is not None and p.win_share_ci[0] < p.win_share < p.win_share_ci[1]
    assert p.illegal == r.illegal == 0
    assert p.decisions == r.decisions == 120 * 8
    assert 0 < p.p50_ms <= p.p99_ms


class _Stubborn(Robot):
    """Always answers a card it does not hold (a real robot, just a bad one)."""

    game = "tricks"
    name = "stubborn"

    def decide(self, request: DecisionRequest) -> GameAction:
        mine = set(request.view["hand"])
        return GameAction(0, bytes([next(b for b in (0x02, 0x03, 0x04, 0x05, 0x06) if b not in mine)]))


def test_illegal_answers_are_counted_and_replaced_by_the_default_action() -> None:
    robots = [_Stubborn(), registry.get("tricks", "random")]
    game, illegal = arena.play_hand("tricks", "standard", 1, 0, robots, "room")
    assert game.is_over and illegal == [8, 0]


def test_bad_seats_are_refused() -> None:
    with pytest.raises(ValueError):
        arena.play("tricks", ["random"], hands=1)
    with pytest.raises(KeyError):
        arena.play("tricks", ["random", "nobody"], hands=1)


def test_the_command_prints_one_json_object_and_draws_a_chart(tmp_path: pathlib.Path) -> None:
    out = io.StringIO()
    png = tmp_path / "arena.png"
    with redirect_stdout(out):
        code = main(
            [
                "arena",
                "tricks",
                "--seats",
                "perfect,random",
                "--hands",
                "20",
                "--seed",
                "2",
                "--json",
                "--plot",
                str(png),
                "--no-progress",
            ]
        )
    assert code == 0
    data = json.loads(out.getvalue())
    assert set(data["robots"]) == {"perfect", "random"}
    for figures in data["robots"].values():
        for k in ("win_share", "mean_score", "illegal", "p50_ms", "p99_ms", "win_share_ci", "mean_score_ci"):
            assert k in figures
        assert figures["illegal"] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("game", games.names())
def test_every_registered_game_runs_with_its_random_robot(game: str) -> None:
    n = games.get(game)(0).num_seats
    report = arena.play(game, ["random"] * n, hands=1, seed=5)
    assert report.games == n
    assert report.robots["random"].illegal == 0
    assert report.robots["random"].hands == n * n
