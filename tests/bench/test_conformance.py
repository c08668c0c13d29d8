"""`paiju bench conformance`: the conformance kit's long form, over every ruleset of a game."""

from __future__ import annotations

import json

import pytest

from paiju.cli import main


def test_the_command_runs_the_kit_over_each_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "conformance", "--game", "tricks", "--hands", "3", "--first", "40", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["ruleset"], r["hands"]) for r in rows] == [("standard", 3), ("pack", 3)]
    for r in rows:
        assert r["steps"] >= 3 * 8 and r["illegal_refused"] > 0 and r["options_tried"] > 0
        assert sum(r["refusal_codes"].values()) == r["illegal_refused"]


def test_one_ruleset_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "conformance", "--game", "niujiu", "--ruleset", "play-out", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("niujiu/play-out: 2 hands conform (seeds 0..1, ") and out.count("\n") == 1, out
