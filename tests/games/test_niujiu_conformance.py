"""The conformance kit over 50 random Niujiu hands (30 of the play-out ruleset), with R5.5 and
R6.1 checked at the end of each.

Run with ``-s`` to see the figures. The kit's long form, 2,000 hands a ruleset:
``paiju bench conformance --game niujiu --hands 2000``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

from paiju.games.base import GameEvent
from paiju.games.niujiu import ENOUGH, Niujiu
from paiju.games.testing import check_game, play_random
from paiju.protocol import HIDDEN, RoomEvent

HANDS = 50


class Audited(Niujiu):
    """Niujiu that checks R5.5 and R6.1 whenever a hand ends, and notes each hand's final occupancy."""

    ends: ClassVar[dict[tuple[str, int], tuple[int, ...]]] = {}

    def _end_trick(self) -> list[GameEvent]:
        events = super()._end_trick()
        if self.over:
            counts = tuple(len(o) for o in self.occupied)
            assert sum(counts) <= 16, counts  # R5.5
            assert 1 <= sum(n >= ENOUGH for n in counts) <= 2, counts  # R6.1, R6.3
            # the kit's trial copies end hands too; the seed's own hand (and its replay) writes last
            Audited.ends[(self.rules.name, self.seed)] = counts
        return events


def _figures(ruleset: str) -> str:
    ends = [v for (r, _), v in Audited.ends.items() if r == ruleset]
    enough = Counter(sum(n >= ENOUGH for n in v) for v in ends)
    total = Counter(sum(v) for v in ends)
    return (
        f"{ruleset}: {len(ends)} hands; occupied total max {max(total)}, min {min(total)}; "
        f"seats enough: one {enough[1]}, two {enough[2]}, other {len(ends) - enough[1] - enough[2]}"
    )


def test_rule_5_5_and_rule_6_1_conformance() -> None:
    Audited.ends.clear()
    report = check_game(Audited, "standard", seeds=range(HANDS), sample_every=11, hidden_every=2)
    assert report.games == HANDS
    assert report.illegal_refused > 0 and report.options_tried > 0
    ends = {seed: v for (r, seed), v in Audited.ends.items() if r == "standard"}
    assert sorted(ends) == list(range(HANDS))
    assert all(sum(v) <= 16 and sum(n >= ENOUGH for n in v) <= 2 for v in ends.values())
    print(f"\n{report}\n{_figures('standard')}")


def test_rule_5_5_conformance_of_the_play_out_ruleset() -> None:
    Audited.ends.clear()
    report = check_game(Audited, "play-out", seeds=range(30), sample_every=11, hidden_every=2)
    assert report.games == 30
    ends = [v for (r, _), v in Audited.ends.items() if r == "play-out"]
    assert len(ends) == 30 and all(sum(v) == 16 for v in ends)
    print(f"\n{report}\n{_figures('play-out')}")


def test_rule_5_4_no_event_ever_shows_another_seats_covered_cards() -> None:
    """Every event of 150 hands, as each seat and a spectator receive it (the kit samples every other step)."""
    for seed in range(150):
        g = Niujiu(seed, hand=seed % 3)
        play_random(g, random.Random(seed))
        public = set(g.public())
        dealt = [set(e.cards) for e in g.events if e.code == RoomEvent.DEAL]
        for seat in (0, 1, 2, None):
            seen = {b for e in g.events for b in e.seen_by(seat).cards} - {HIDDEN}
            assert seen <= (public | dealt[seat] if seat is not None else public), (seed, seat)
            others = [x for s, x in enumerate(g.covered) if s != seat]
            assert not seen & {b for x in others for b in x}, (seed, seat)
