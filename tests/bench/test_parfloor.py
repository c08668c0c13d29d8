"""`paiju bench parfloor`: the side that sees its 26 cards, against par."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from paiju.bench.parfloor import layouts
from paiju.games.bridge.deal import parse_deal


def test_layouts_keep_the_sides_hands_and_deal_the_rest() -> None:
    hands = parse_deal("N:AKQJ.AKQJ.AKQ.AK T98.T98.T98.T987 765.765.765.Q654 432.432.J432.J32")
    for pbn in layouts(hands, 1, 5, random.Random(1)):
        dealt = parse_deal(pbn)
        assert (dealt[1], dealt[3]) == (hands[1], hands[3])
        assert sorted(dealt[0] + dealt[2]) == sorted(hands[0] + hands[2])


def test_the_command_reports_the_floor() -> None:
    command = ["bench", "parfloor", "--boards", "1", "--seed", "3", "--samples", "2", "--json"]
    out = subprocess.run(
        [sys.executable, "-m", "paiju", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(out.stdout)
    assert figures["boards"] == 1 and figures["samples"] == 2
    assert 0 <= figures["par_abs_imps"] <= 24
    assert abs(sum(figures["par_abs_imps_by_cause"].values()) - figures["par_abs_imps"]) < 0.01
