"""`paiju arena niujiu`: the Niujiu figures (enough rates, the head's accepted hands) in
text and JSON, computed from the hands played."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from paiju import games
from paiju.bots import arena
from paiju.bots.niujiu import arena as niujiu_arena
from paiju.bots.niujiu.automaton import six_must_suffice
from paiju.cli import main


def test_the_figures_follow_the_hands() -> None:
    report = arena.play("niujiu", ["automaton", "greedy", "greedy"], hands=12, seed=4)
    figs = niujiu_arena.stats(report)
    a, g = figs["automaton"], figs["greedy"]
    assert (a.hands, g.hands) == (36, 72)
    enough = sum(rec.detail["enough"][rec.robots.index("automaton")] for rec in report.records)
    assert a.enough == enough / 36
    assert a.difference["greedy"][0] == -g.difference["automaton"][0]
    assert a.head_hands == 12 and g.head_hands == 24  # the head of each deal, once per rotation
    accepted = sum(six_must_suffice(games.create("niujiu", 4, hand=d).concealed(d % 3)) is not None for d in range(12))
    assert a.head_accepted == accepted and g.head_accepted == 2 * accepted
    assert a.head_accepted_enough == a.head_accepted  # the automaton's sure six
    assert 0 < a.cpu_p50_ms <= a.cpu_p99_ms


def test_the_command_prints_them() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["arena", "niujiu", "--seats", "automaton,random,random", "--hands", "2", "--no-progress"]) == 0
    text = out.getvalue()
    assert "enough rate" in text and "vs random" in text
    out = io.StringIO()
    with redirect_stdout(out):
        main(["arena", "niujiu", "--seats", "automaton,random,random", "--hands", "2", "--no-progress", "--json"])
    data = json.loads(out.getvalue())
    assert set(data["niujiu"]) == {"automaton", "random"}
    assert {"enough", "enough_ci", "head_accepted", "head_accepted_enough"} <= set(data["niujiu"]["automaton"])
