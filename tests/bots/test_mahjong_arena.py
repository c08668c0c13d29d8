"""The mahjong robots in the arena: short duplicate matches against the ``greedy`` baseline
in both rulesets, with the real engine and only the seat's view going in. The win share is
a benchmark figure (``paiju arena``, docs/robots.md), not asserted here; what must hold on
every run is that no robot ever answers outside its options."""

from __future__ import annotations

import pytest

from paiju.bots import arena


@pytest.mark.parametrize("ruleset", ["championship", "classic"])
@pytest.mark.parametrize("robot", ["bdi-hudist", "bdi-rearrange", "ukeire"])
def test_short_match_against_greedy_has_no_illegal_action(robot: str, ruleset: str) -> None:
    report = arena.play("mahjong", [robot, "greedy", "greedy", "greedy"], hands=5, seed=11, ruleset=ruleset)
    assert report.ruleset == ruleset and report.games == 20  # 5 deals x 4 rotations
    assert set(report.robots) == {robot, "greedy"}
    assert report.robots[robot].hands == 20 and report.robots["greedy"].hands == 60
    assert report.robots[robot].illegal == 0 and report.robots["greedy"].illegal == 0
    assert report.robots[robot].decisions > 20  # it was asked, many times a hand
    shares = report.robots[robot].win_share * 20 + report.robots["greedy"].win_share * 60
    assert shares == pytest.approx(20)  # every hand's win is shared out once
