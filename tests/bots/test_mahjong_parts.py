"""The BDI parts one by one: perceptor, memory, rule base, goal byte, matcher, executor,
and a whole robot against the real engine (only the seat's view goes in)."""

from __future__ import annotations

import random

from paiju import games
from paiju.bots import registry
from paiju.bots.mahjong.executor import decision_frame, pack
from paiju.bots.mahjong.goals import SEVEN_PAIRS, describe, goal_byte, suits_of
from paiju.bots.mahjong.intentions import Intention
from paiju.bots.mahjong.matcher import match
from paiju.bots.mahjong.perceptor import memory_from_view, perceive
from paiju.bots.mahjong.rulebase import RuleBase
from paiju.games.mahjong import hu_distance
from paiju.games.mahjong.game import Mahjong
from paiju.protocol import DecisionRequest, Option, decode, encode
from paiju.protocol.cards import parse_tiles as t
from paiju.protocol.mahjong import ActCode, MeldKind, View


def request(g: games.Game, seat: int, robot: str = "bdi-hudist", prompt: int = 1) -> DecisionRequest:  # type: ignore[type-arg]
    legal = g.legal(seat)
    return DecisionRequest(
        room="test",
        game="mahjong",
        ruleset=g.rules.name,
        seat=seat,
        prompt_id=prompt,
        deadline_ms=0,
        robot=robot,
        mask=legal.mask,
        options=list(legal.options),
        view=g.view(seat),
    )


def test_perceptor_counts_unseen_tiles_from_the_seat_only() -> None:
    g = games.create("mahjong", 5, "championship")
    seat = g.to_act()[0]
    m = perceive(request(g, seat))
    assert m.hand == bytes(sorted(g.concealed(seat)))  # the drawn tile joins the hand
    assert m.drawn and m.drawn in m.hand
    for b in set(m.hand):
        assert m.unseen[b] == 4 - m.hand.count(b)
    assert m.total_unseen == 108 - 14
    assert m.unseen[0x31] == 0  # no honours in the championship set


def test_perceptor_in_a_claim_window_sees_the_offer_and_the_discards() -> None:
    view: View = {
        "ruleset": "classic",
        "dealer": 1,
        "phase": "claim",
        "turn": 2,
        "wall": 70,
        "hand": t("123m 456m 789m 13p 55s"),
        "drawn": b"",
        "counts": [13, 13, 13, 13],
        "melds": [
            [],
            [{"kind": MeldKind.KONG_CONCEALED, "tiles": bytes(4), "from": 1}],
            [{"kind": MeldKind.PONG, "tiles": t("EEE"), "from": 0}],
            [],
        ],
        "discards": [t("9p"), t("1s"), t("E 2p"), b""],
        "ready": [0, 1, 0, 0],
        "declared_at": [[], [1, 1, 0, 0], [], []],
        "discarder": 2,
    }
    m = memory_from_view(0, view)
    assert m.honours and m.offer == t("2p")[0] and m.offer_from == 2
    assert m.unseen[t("E")[0]] == 0  # three in a pong, one discarded
    assert m.unseen[t("2p")[0]] == 3
    assert m.ready == [False, True, False, False]
    assert m.passed[1] == frozenset(t("E"))  # the 2p on offer has not gone by seat 1 yet
    assert m.own_melds == 0 and len(m.melds[1]) == 1  # a face-down kong counts as a set, shows nothing


def test_rule_base_pair_split_agrees_with_the_engine() -> None:
    rb = RuleBase(seven_pairs=True, honours=True)
    tiles = sorted(t("123456789m 123456789p 123456789s ESWNCFP")) * 4
    rng = random.Random(8)
    for _ in range(300):
        rng.shuffle(tiles)
        melds = rng.randrange(5)
        hand = bytes(tiles[: 3 * (4 - melds) + 1 + rng.randrange(2)])
        assert min(rb.pair_distances(hand, melds)) == hu_distance(hand, melds)
    assert rb.pair_distances(t("11223344556677m"))[SEVEN_PAIRS] == 0


def test_goal_byte() -> None:
    assert goal_byte([0, 1]) == 0x03 and suits_of(0x03) == [0, 1]
    assert describe(1 << SEVEN_PAIRS | 1) == "万 | seven pairs"


def test_matcher_meets_intentions_with_the_action_set() -> None:
    opts = [Option(ActCode.DISCARD, t("159m"), 1), Option(ActCode.READY, t("9m"), 1)]
    mask = 1 << ActCode.DISCARD | 1 << ActCode.READY
    # the robot wants to declare ready with 5m, which is not offered: the next intention
    want = [Intention(ActCode.READY, t("5m")), Intention(ActCode.DISCARD, t("9m")), Intention(ActCode.DISCARD, t("1m"))]
    assert match(want, mask, opts) == (ActCode.DISCARD, t("9m"))
    # nothing offered: the fallback is a legal discard
    code, tiles = match([Intention(ActCode.HU)], mask, opts)
    assert code == ActCode.DISCARD and tiles in (t("1m"), t("5m"), t("9m"))


def test_executor_packs_the_protocol_encoding() -> None:
    a = pack(ActCode.CHOW, t("6s 4s"))
    assert a == games.GameAction(1, t("4s 6s"))
    frame = decision_frame("room", 3, 9, a)
    assert decode(encode(frame)) == frame


def test_robots_only_take_offered_actions_over_whole_hands() -> None:
    names = ["bdi-hudist", "bdi-rearrange", "greedy", "bdi-hudist"]
    for ruleset in ("championship", "classic"):
        for seed in range(6):
            g = games.create("mahjong", seed, ruleset, hand=seed)
            robots = [registry.get("mahjong", n) for n in names]
            prompt = 0
            while not g.is_over:
                seat = g.to_act()[0]
                prompt += 1
                action = robots[seat].decide(request(g, seat, names[seat], prompt))
                assert g.legal(seat).allows(action), (ruleset, seed, seat, action)
                g.apply(seat, action)
            assert len(g.outcome().scores) == 4


def test_the_tiles_passed_after_a_declaration_are_read_from_the_view_and_never_win() -> None:
    # the engine's view marks where each river stood when a seat declared ready; the tiles
    # thrown after it by anyone are none of that seat's (locked) winning tiles
    rb = RuleBase(seven_pairs=True, honours=False)
    checked = 0
    for seed in range(1, 9):
        g = Mahjong(seed, "championship")
        robots = [registry.get("mahjong", "ukeire") for _ in range(4)]
        prompt = 0
        while not g.is_over:
            seat = g.to_act()[0]
            view = g.view(seat)
            m = perceive(request(g, seat, "ukeire", prompt))
            for o in range(4):
                if not view["ready"][o]:
                    assert not view["declared_at"][o] and not m.passed[o]
                    continue
                marks = view["declared_at"][o]
                after = [x for r, n in zip(view["discards"], marks, strict=True) for x in r[n:]]
                who = view["discarder"]
                if view["phase"] == "claim" and len(view["discards"][who]) > marks[who]:  # not passed yet
                    after.remove(view["discards"][view["discarder"]][-1])
                assert m.passed[o] == frozenset(after)
                hand = list(g.hands[o])
                if view["phase"] == "turn" and o == seat and g.drawn is not None:
                    hand.remove(g.drawn)  # its wait is that of the hand before the draw
                if len(hand) % 3 != 1:  # after a kong, before the replacement draw
                    continue
                assert not set(rb.waits(bytes(sorted(hand)), len(g.melds[o]))) & m.passed[o]
                checked += bool(m.passed[o])
            prompt += 1
            g.apply(seat, robots[seat].decide(request(g, seat, "ukeire", prompt)))
    assert checked > 20
