"""The learned correction to hudist's discard: features from the view only, the fit, the data, the switch."""

from __future__ import annotations

import copy
import itertools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paiju import games
from paiju.bots import registry
from paiju.bots.arena import play_out
from paiju.bots.mahjong.defence import Danger
from paiju.bots.mahjong.learn import Data, collect, fit, hand, main, picks_gain, ridge
from paiju.bots.mahjong.learned import FEATURES, Model, features, load
from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.perceptor import perceive
from paiju.bots.mahjong.robots import BDIHuDist, rules_of
from paiju.bots.mahjong.strategies import HuDist
from paiju.protocol import DecisionRequest, Option
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode

SEATS = ("bdi-hudist", "ukeire", "ukeire", "ukeire")


def _request(game: games.Game[Any], seat: int, prompt: int) -> DecisionRequest:
    return games.decision_request(
        game, seat, room="r", prompt_id=prompt, deadline_ms=0, robot="x", legal=game.legal(seat)
    )


def _candidate_features(request: DecisionRequest) -> list[list[float]] | None:
    strategy = HuDist()
    memory = perceive(request)
    if memory.offer or memory.ready[memory.seat] or game_over(memory):
        return None
    rules = strategy.planning_rules(rules_of(request.ruleset))
    danger = Danger.of(memory)
    opts = strategy.options(memory, rules, memory.hand, memory.own_melds, danger)
    cands = strategy.candidates(memory, opts, 4, danger)
    return features(memory, cands) if cands else None


def game_over(memory: Memory) -> bool:
    return not memory.hand


def test_features_are_the_same_whatever_the_hidden_tiles() -> None:
    """Deal the other seats' concealed tiles and the wall again: the robot's features do not move."""
    robots = [registry.get("mahjong", n) for n in SEATS]
    checked = 0
    for deal in range(3):
        game = games.create("mahjong", 11, "classic", hand=deal)
        ids = itertools.count(1)
        while game.to_act() and checked < 12:
            seat = game.to_act()[0]
            request = _request(game, seat, next(ids))
            action = robots[game.controller(seat)].decide(request)
            rows = _candidate_features(request) if game.controller(seat) == 0 else None
            if rows is not None:
                twin = copy.deepcopy(game)
                others = [o for o in range(4) if o != seat]
                pool = [x for o in others for x in twin.hands[o]] + list(twin.wall)  # type: ignore[attr-defined]
                random.Random(deal).shuffle(pool)
                for o in others:
                    n = len(twin.hands[o])  # type: ignore[attr-defined]
                    twin.hands[o], pool = sorted(pool[:n]), pool[n:]  # type: ignore[attr-defined]
                twin.wall = pool  # type: ignore[attr-defined]
                assert [twin.hands[o] for o in others] != [game.hands[o] for o in others]  # type: ignore[attr-defined]
                assert _candidate_features(_request(twin, seat, 1)) == rows
                checked += 1
            game.apply(seat, action)
    assert checked >= 6


def test_ridge_recovers_a_linear_relation_and_the_gain_counts_the_picks() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 3)) * [1.0, 10.0, 0.1]
    w = np.array([0.5, -0.02, 3.0])
    y = x @ w + rng.normal(scale=0.1, size=4000)
    assert np.allclose(ridge(x, y, 1e-6), w, atol=0.02)
    assert np.abs(ridge(x, y, 100.0)).max() < 0.05  # a heavy ridge shrinks everything
    # two decisions in one deal of one seed: the model takes the alternative it predicts above the margin
    data = Data(
        x=np.array([[1.0], [2.0], [-1.0]]),
        y=np.array([4.0, -8.0, 2.0]),
        group=np.array([0, 0, 1]),
        deal=np.array([0, 0]),
        seed=np.array([10, 10]),
        deals={10: 1},
    )
    mean, _, _, share = picks_gain(data, np.ones(1), 0.0, np.ones(3, dtype=bool))
    assert mean == -8.0 / 4 and share == 0.5  # group 0: the alternative predicted 2 (worth -8); group 1 stays
    mean, *_ = picks_gain(data, -np.ones(1), 0.0, np.ones(3, dtype=bool))
    assert mean == 2.0 / 4


def test_fit_keeps_a_margin_and_weights_from_data_with_a_known_answer() -> None:
    rng = np.random.default_rng(1)
    n = 3000
    x = rng.normal(size=(n, len(FEATURES)))
    y = 2.0 * x[:, FEATURES.index("p_d")] + rng.normal(scale=0.5, size=n)
    data = Data(x, y, np.arange(n), np.arange(n), np.full(n, 10), {10: n})
    lam, margin, w = fit(data, [0.001, 10.0], [0.0, 0.5], report=lambda _: None)
    assert lam == 0.001 and margin in (0.0, 0.5)
    assert int(np.argmax(np.abs(w))) == FEATURES.index("p_d") and abs(w[FEATURES.index("p_d")] - 2.0) < 0.1


def test_each_candidate_is_valued_by_playing_on_and_e_s_choice_by_the_game_itself() -> None:
    found = hand(SEATS, 0, 12, "classic", 0, 0, 3)
    assert found and all(2 <= len(d.rows) <= 3 and len(d.rows) == len(d.scores) for d in found)
    assert all(len(row) == len(FEATURES) for d in found for row in d.rows)
    assert len({d.scores[0] for d in found}) == 1  # E's choice: the one game's end, at every decision
    # ... which is what a copy taking E's choice plays out to: the robots decide alike in every copy
    robots = [registry.get("mahjong", n) for n in SEATS]
    game = games.create("mahjong", 12, "classic", hand=0)
    ids = itertools.count(1)
    while game.to_act():
        seat = game.to_act()[0]
        request = _request(game, seat, next(ids))
        action = robots[game.controller(seat)].decide(request)
        if game.controller(seat) == 0 and _candidate_features(request) is not None:
            twin = copy.deepcopy(game)
            twin.apply(seat, action)
            play_out(twin, robots, "r", itertools.count(1 << 20))
            assert twin.outcome().scores[seat] == found[0].scores[0]
            break
        game.apply(seat, action)
    with pytest.raises(ValueError, match="reserved"):
        collect(1, 1, "classic")


def test_the_robot_leaves_e_s_choice_only_for_a_candidate_the_model_scores_above_the_margin(tmp_path: Path) -> None:
    # two from a win with two honours and a terminal to throw, all at the least distance
    m = Memory(seat=0, hand=t("123m 456m 789p 35s 9s 1z 2z"), honours=True)
    rb = rules_of("classic")
    opts = HuDist().options(m, rb, m.hand, 0)
    thrown = {o.tile for o in HuDist().candidates(m, opts, 4)}
    assert {t("9s")[0], t("1z")[0], t("2z")[0]} <= thrown
    plain = BDIHuDist().think_memory(m, rb, 1 << ActCode.DISCARD, [_discards(m.hand)]).action
    zero = tmp_path / "zero.json"
    Model(tuple(0.0 for _ in FEATURES)).save(zero)
    same = BDIHuDist(HuDist(learned=str(zero))).think_memory(m, rb, 1 << ActCode.DISCARD, [_discards(m.hand)])
    assert same.action == plain  # nothing predicted above 0: E's choice
    for name in ("honour", "terminal"):
        w = [0.0] * len(FEATURES)
        w[FEATURES.index(name)] = 5.0
        path = tmp_path / f"{name}.json"
        Model(tuple(w)).save(path)
        action = (
            BDIHuDist(HuDist(learned=str(path))).think_memory(m, rb, 1 << ActCode.DISCARD, [_discards(m.hand)]).action
        )
        tile = action.cards[0]
        assert (tile >> 4 == 3) if name == "honour" else (tile & 0xF in (1, 9) and tile >> 4 < 3)
        # a margin above any difference the model can predict keeps E's choice
        high = BDIHuDist(HuDist(learned=str(path), learned_margin=99.0))
        assert high.think_memory(m, rb, 1 << ActCode.DISCARD, [_discards(m.hand)]).action == plain
    # a model fitted on the 108 tiles (no honours) is not used on the 136
    w = [0.0] * len(FEATURES)
    w[FEATURES.index("honour")] = 5.0
    other = tmp_path / "other.json"
    Model(tuple(w), honours=False).save(other)
    kept = BDIHuDist(HuDist(learned=str(other))).think_memory(m, rb, 1 << ActCode.DISCARD, [_discards(m.hand)])
    assert kept.action == plain
    data = json.loads(zero.read_text())
    assert data["names"] == list(FEATURES) and load(str(zero)).weights == (0.0,) * len(FEATURES)


def _discards(hand: bytes) -> Option:
    return Option(ActCode.DISCARD, bytes(sorted(set(hand))), 1)


def test_the_command_refuses_the_evaluation_seeds() -> None:
    with pytest.raises(SystemExit):
        main(["--seeds", "2-4"])
