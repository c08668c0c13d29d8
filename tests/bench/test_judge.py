"""`paiju bench judge`: the bidding's simulation against the rows alone, on the same deals."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_command_compares_the_judgement_with_the_rows() -> None:
    command = ["bench", "judge", "--boards", "2", "--seed", "12", "--samples", "6", "--json"]
    out = subprocess.run([sys.executable, "-m", "paiju", *command], capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout)
    assert figures["boards"] == 2 and figures["samples"] == 6 and figures["scorer"] == "estimate"
    assert 0 <= figures["changed"] <= 2 and figures["decisions"] >= 1
    assert figures["ci"][0] <= figures["gain"] <= figures["ci"][1]
    assert 0 < figures["cpu_p50_ms"] <= figures["cpu_p99_ms"]
