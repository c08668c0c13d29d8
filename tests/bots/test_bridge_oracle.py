"""The arena's diagnosis (paiju/bots/bridge/oracle.py): samplers that peek at the deal, to measure
what better sampling could save `hybrid`. They deal what they say, and only the arena uses them."""

from __future__ import annotations

import random

import pytest

from paiju.bots.bridge import montecarlo
from paiju.bots.bridge.arena import play
from paiju.bots.bridge.oracle import Oracle
from paiju.bots.bridge.robot import HybridRobot
from paiju.bots.bridge.table import Known
from paiju.games.bridge import Bridge
from paiju.games.bridge.evaluate import HONOURS, hcp, lengths

from .test_bridge_play import board_with_void


@pytest.mark.parametrize("level", ["shape", "lengths", "points", "honours"])
def test_the_oracle_deals_the_real_shape_and_points_or_honours(level: str) -> None:
    game = board_with_void()
    assert game.declarer is not None
    k = Known.of(game.view(game.declarer), game.declarer)
    oracle = Oracle(game.dealt, level)
    out = montecarlo.sample_deals(k, 32, random.Random(3), dealer=oracle)
    assert len(out.deals) == 32
    placements = set()
    for d in out.deals:
        assert sorted(c for cs in d.values() for c in cs) == k.unseen()
        for s, cards in d.items():
            real = game.hands[s]
            assert level == "points" or lengths(cards) == lengths(real)
            assert level == "lengths" or hcp(cards) == hcp(real)
            assert not any(c >> 4 in k.void[s] for c in cards)
            if level == "honours":
                assert sorted(c for c in cards if c & 0xF in HONOURS) == sorted(c for c in real if c & 0xF in HONOURS)
        placements.add(tuple(sorted(d[k.hidden_seats()[0]])))
    assert len(placements) > 1, "the oracle still deals at random within what it keeps"
    # the robot's own sampler keeps neither
    plain = montecarlo.sample_deals(k, 32, random.Random(3)).deals
    assert any(lengths(d[s]) != lengths(game.hands[s]) for d in plain for s in d)


def test_the_oracle_refuses_another_board_and_a_level_it_does_not_know() -> None:
    game = board_with_void()
    assert game.declarer is not None
    k = Known.of(game.view(game.declarer), game.declarer)
    other = Bridge(12, hand=0).dealt
    assert other != game.dealt
    with pytest.raises(ValueError, match="not the board being played"):
        Oracle(other, "shape")(k, k.hidden_seats(), k.unseen(), random.Random(1))
    with pytest.raises(ValueError, match="one of shape, lengths, points, honours"):
        Oracle(game.dealt, "everything")


def test_rooms_robots_sample_without_an_oracle_and_the_arena_says_when_it_peeks() -> None:
    assert HybridRobot().dealer is montecarlo.deal_hidden
    report = play(["hybrid", "basic", "hybrid", "basic"], 1, seed=1, samples=4, oracle="shape")
    assert report.oracle == "shape" and report.as_dict()["oracle"] == "shape"
    assert report.robots["hybrid"].illegal == 0
    with pytest.raises(ValueError, match="--oracle"):
        play(["hybrid", "basic", "hybrid", "basic"], 1, seed=1, oracle="all")
