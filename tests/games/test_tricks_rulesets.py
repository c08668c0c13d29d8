"""The option n of the simple trick-taking game, and `paiju solve` on it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from paiju.cli import main
from paiju.games.testing import check_game
from paiju.games.tricks import Tricks, tricks_numbers


@pytest.mark.parametrize("n", [1, 2, 3, 5, 13])
def test_conformance_for_each_order(n: int) -> None:
    rules = Tricks.ruleset(n=n)
    assert check_game("tricks", rules, seeds=range(60)).games == 60  # type: ignore[arg-type]
    g = Tricks(1, rules)
    assert sorted(tricks_numbers(g.concealed(0)) + tricks_numbers(g.concealed(1))) == list(range(1, 2 * n + 1))


def test_orders_outside_a_pack_are_refused() -> None:
    for n in (0, 27):
        with pytest.raises(ValueError):
            Tricks.ruleset(n=n)


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_solve_prints_the_value_and_the_optimal_first_plays() -> None:
    code, text = _run("solve", "tricks", "1 4 5 8", "2 3 6 7")
    assert code == 0 and "value: +0" in text and "optimal first plays: 1, 4 5, 8" in text
    code, text = _run("solve", "tricks", "3 5 6 8", "1 2 4 7", "--json")
    data = json.loads(text)
    assert code == 0 and data["value"] == 2 and data["optimal_attacks"] == [[5, 6]]  # not the 8, not the 3
    code, text = _run("solve", "tricks", "--distribution", "--json")
    assert code == 0 and json.loads(text)["2"] == {"-2": 2, "0": 3, "2": 1}
    assert _run("solve", "tricks", "1 2", "3")[0] == 2
