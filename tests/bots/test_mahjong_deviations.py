"""One-step deviations: each decision of the robot against an alternative, both played out on the same wall."""

from __future__ import annotations

import copy
import itertools

import pytest

from paiju import games
from paiju.bots import registry
from paiju.bots.arena import play_hand, play_out
from paiju.bots.mahjong.deviations import KINDS, deviations, main
from paiju.protocol.mahjong import ActCode


def test_a_copy_plays_out_as_the_original_would_and_leaves_it_alone() -> None:
    robots = [registry.get("mahjong", n) for n in ("bdi-hudist", "ukeire", "ukeire", "ukeire")]
    whole, _ = play_hand("mahjong", "classic", 4, 0, robots, "room")
    game = games.create("mahjong", 4, "classic", hand=0)
    ids = itertools.count(1)
    for _ in range(20):  # some way into the hand, as play_hand goes
        seat = game.to_act()[0]
        robot = robots[game.controller(seat)]
        request = games.decision_request(
            game, seat, room="room", prompt_id=next(ids), deadline_ms=0, robot=robot.name, legal=game.legal(seat)
        )
        game.apply(seat, robot.decide(request))
    waiting = game.to_act()
    twin = copy.deepcopy(game)
    assert play_out(twin, robots, "room", ids) == [0, 0, 0, 0]
    assert list(twin.outcome().scores) == list(whole.outcome().scores)  # the same decisions to the end
    assert game.to_act() == waiting  # the original is where it was


def test_every_deviation_is_a_legal_other_action_valued_on_both_sides() -> None:
    found = list(deviations("bdi-hudist", "ukeire", 3, 6, "classic"))
    assert {d.kind for d in found} <= set(KINDS) and len({d.kind for d in found}) >= 4
    for d in found:
        assert d.alternative != d.chosen
        assert -40 <= d.q_chosen <= 40 and -40 <= d.q_alternative <= 40
        if d.kind == "hold":  # taking the win scores its points at once: basic 1, +1 declared, ...
            # ... or 0 when a seat nearer the discarder wins on the same tile (截胡)
            assert d.chosen.code == ActCode.HU and d.alternative.code == ActCode.PASS and d.q_chosen in (0, 1, 2, 3, 4)
        if d.kind == "claim":
            assert d.chosen.code in (ActCode.CHOW, ActCode.PONG) and d.alternative.code == ActCode.PASS
        if d.kind == "pass":
            assert d.chosen.code == ActCode.PASS and d.alternative.code in (ActCode.CHOW, ActCode.PONG)
        if d.kind in ("calm", "threatened"):
            assert d.chosen.code in (ActCode.DISCARD, ActCode.READY) and d.chosen.cards != d.alternative.cards
            assert (d.declared > 0) == (d.kind == "threatened")
    assert found == list(deviations("bdi-hudist", "ukeire", 3, 6, "classic"))  # the same deals, the same values
    only = list(deviations("bdi-hudist", "ukeire", 3, 6, "classic", kinds=["hold"]))
    assert only == [d for d in found if d.kind == "hold"]


def test_the_command_reports_each_kind_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--hands", "2", "--seed", "6", "--ruleset", "classic", "--kinds", "claim,calm"])
    out = capsys.readouterr().out.splitlines()
    assert "2 deals x 4 rotations of seed 6" in out[0]
    assert out[1].startswith("claim") and "alternative - chosen" in out[1]
    assert any(line.startswith("calm") for line in out) and not any(line.startswith("hold") for line in out)
    with pytest.raises(SystemExit):
        main(["--kinds", "fold"])
