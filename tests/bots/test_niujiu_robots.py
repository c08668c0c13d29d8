"""The Niujiu robots: each sees only its seat's view, answers legally, the head's accepted
hands end enough, the evaluation function's rules, the greedy baseline, Monte Carlo sampling."""

from __future__ import annotations

import random

import pytest

from paiju import games
from paiju.bots import arena, registry
from paiju.bots.niujiu import evaluate, montecarlo
from paiju.bots.niujiu.automaton import six_must_suffice
from paiju.bots.niujiu.knowledge import Knowledge, from_view
from paiju.bots.niujiu.robots import MonteCarloRobot, greedy_choice
from paiju.games import GameAction
from paiju.games.niujiu import ENOUGH, Niujiu, classify
from paiju.protocol import DecisionRequest, parse_cards
from paiju.protocol.cards import NIUJIU_CARDS
from paiju.protocol.niujiu import ActCode


def cards(text: str) -> bytes:
    return bytes(sorted(parse_cards(text, ace=1)))


def numbers(choice: evaluate.Choice) -> tuple[ActCode, list[int]]:
    return choice.code, sorted(c & 0xF for c in choice.cards)


def request(game: Niujiu, seat: int, prompt: int = 1, robot: str = "automaton") -> DecisionRequest:
    legal = game.legal(seat)
    return DecisionRequest(
        "room", "niujiu", game.rules.name, seat, prompt, 0, robot, legal.mask, list(legal.options), game.view(seat)
    )


def redeal_hidden(game: Niujiu, seat: int, rng: random.Random) -> Niujiu:
    """A copy in which the other two seats' hidden cards (hands and covers) are dealt again."""
    twin = game.__deepcopy__({})
    others = [s for s in range(3) if s != seat]
    hidden = [c for s in others for c in twin.hands[s] + twin.covered[s]]
    rng.shuffle(hidden)
    for s in others:
        n, m = len(twin.hands[s]), len(twin.covered[s])
        twin.hands[s], hidden = sorted(hidden[:n]), hidden[n:]
        twin.covered[s], hidden = hidden[:m], hidden[m:]
    twin._legal.clear()
    return twin


@pytest.mark.parametrize("name", ["automaton", "greedy", "automaton-mc"])
def test_a_robot_decides_from_its_view_alone(name: str) -> None:
    """The same view with the hidden cards dealt otherwise gets the same decision."""
    robot = registry.get("niujiu", name)
    if name == "automaton-mc":
        robot.settings = montecarlo.Settings(samples=3, candidates=3, budget_ms=10_000)  # type: ignore[attr-defined]
    rng = random.Random(1)
    checked = 0
    for deal in range(3):
        game = Niujiu(seed=7, hand=deal)
        prompt = 0
        while not game.is_over:
            seat = game.turn
            prompt += 1
            req = request(game, seat, prompt, name)
            twin = redeal_hidden(game, seat, rng)
            assert twin.view(seat) == game.view(seat)
            if prompt % 3 == 0 or name != "automaton-mc":
                assert robot.decide(request(twin, seat, prompt, name)) == robot.decide(req)
                checked += 1
            game.apply(seat, robot.decide(req))
    assert checked > 10


def test_every_robot_answers_legally() -> None:
    mc = MonteCarloRobot(montecarlo.Settings(samples=4))  # fewer samples than the default, for speed
    robots = [mc, registry.get("niujiu", "automaton"), registry.get("niujiu", "greedy")]
    for deal in range(2):
        for r in range(3):
            seating = [robots[(seat + r) % 3] for seat in range(3)]
            game, bad = arena.play_hand("niujiu", None, 3, deal, seating, "room")
            assert bad == [0, 0, 0]
            assert 1 <= sum(game.outcome().detail["enough"]) <= 2


def test_the_heads_accepted_hands_end_enough() -> None:
    robots = [registry.get("niujiu", n) for n in ("automaton", "greedy", "greedy")]
    accepted = 0
    for deal in range(0, 120, 3):  # seat 0 is the head of hands 0, 3, 6, ...
        game = games.create("niujiu", 11, hand=deal)
        assert game.dealer == 0
        if six_must_suffice(game.concealed(0)) is None:
            continue
        accepted += 1
        played, bad = arena.play_hand("niujiu", None, 11, deal, robots, "room")
        assert bad == [0, 0, 0]
        assert played.outcome().detail["enough"][0], deal
    assert accepted >= 3


def knowledge(
    hand: str,
    *,
    seat: int = 0,
    leader: int = 0,
    trick: list[tuple[int, str]] | None = None,
    occupied: list[str] | None = None,
    seen: str = "",
) -> Knowledge:
    """A knowledge built from a view: ``trick`` = (seat, face-up cards or "" for a cover) in order."""
    h = cards(hand)
    plays = [[s, 2 if not t else (0 if i == 0 else 1), cards(t), 0 if t else 1] for i, (s, t) in enumerate(trick or [])]
    k = len(cards(trick[0][1])) if trick else 0
    for p in plays:
        if not p[2]:
            p[3] = k
    occ = [cards(o) for o in (occupied or ["", "", ""])]
    sizes = [len(h) - (1 if any(p[0] == s for p in plays) else 0) * k for s in range(3)]
    sizes[seat] = len(h)
    best = next((p[0] for p in reversed(plays) if p[2]), None)
    v = {
        "hand": h,
        "my_covered": b"",
        "leader": leader,
        "trick": plays,
        "best": best,
        "beaten": cards(seen),
        "occupied": occ,
        "hand_size": sizes,
        "covered_count": [0, 0, 0],
        "revealed": [b"", b"", b""],
    }
    return from_view(seat, v)


def test_the_head_leads_its_automaton_run() -> None:
    kn = knowledge("SK HK D9 C9 H5 S5 C2 D3 H6 S7 C8 DT HJ SQ CA D6")
    assert numbers(evaluate.decide(kn)) == (ActCode.LEAD, [8, 10, 13])  # 摆, then 二牛, then K


def test_enough_it_leads_sure_winners_largest_first() -> None:
    kn = knowledge("HK D9 C9 C2 D3 H6 S7", occupied=["S8 HT DK H5 C5 S2", "", ""])
    assert kn.need == 0
    assert evaluate.decide(kn) == evaluate.Choice(ActCode.LEAD, cards("D9 C9"))  # 二牛 takes two cards out of play


def test_the_last_seat_eats_with_its_cheapest_eat() -> None:
    kn = knowledge("HJ SQ D2 C3 HA", seat=2, leader=0, trick=[(0, "S7"), (1, "")])
    assert kn.position == 2
    assert evaluate.decide(kn) == evaluate.Choice(ActCode.EAT, cards("HJ"))


def test_the_first_follower_eats_when_the_leader_would_become_enough() -> None:
    hand = "H7 D7 C2 C3 HA D5"
    kn = knowledge(hand, seat=1, leader=0, trick=[(0, "S6 H6")], occupied=["SA DA CA S2", "", ""])
    assert evaluate.decide(kn) == evaluate.Choice(ActCode.EAT, cards("H7 D7"))  # 6+... denies the leader's six


def test_covers_keep_the_strong_cards() -> None:
    kn = knowledge("HK C8 HT H9 S9 C2 HA D6", seat=1, leader=0, trick=[(0, "SK DK")])
    choice = evaluate.decide(kn)
    assert choice.code == ActCode.COVER and set(choice.cards) == set(cards("C2 HA"))
    assert set(greedy_choice(kn).cards) == set(cards("C2 HA"))


def test_greedy() -> None:
    kn = knowledge("HK C8 HJ S7 D7 H7 HA D2")
    assert greedy_choice(kn) == evaluate.Choice(ActCode.LEAD, cards("S7 D7 H7"))  # the largest pattern, then highest
    kn = knowledge("HK HQ C8 HA", seat=1, leader=0, trick=[(0, "S7")])
    assert greedy_choice(kn) == evaluate.Choice(ActCode.EAT, cards("C8"))  # the cheapest eat


def test_sampling_keeps_every_count_of_the_view() -> None:
    game = Niujiu(seed=4, hand=1)
    robot = registry.get("niujiu", "greedy")
    for _ in range(7):  # a few decisions in, with covers on the table
        seat = game.turn
        game.apply(seat, robot.decide(request(game, seat)))
    seat = game.turn
    kn = from_view(seat, game.view(seat))
    rng = random.Random(2)
    for _ in range(20):
        s = montecarlo.sample(kn, rng)
        assert s is not None
        for o in range(3):
            assert len(s.hands[o]) == len(game.hands[o]) and len(s.covered[o]) == len(game.covered[o])
        dealt = [c for o in range(3) if o != seat for c in s.hands[o] + s.covered[o]]
        assert sorted(dealt) == sorted(kn.unseen)
        assert s.hands[seat] == kn.hand
        s.finish()
        assert s.over and sum(s.occupied) <= 16 and any(o >= ENOUGH for o in s.occupied)


def test_monte_carlo_keeps_the_automatons_move_on_a_sure_six() -> None:
    kn = knowledge("SK HK D9 C9 H5 S5 C2 D3 H6 S7 C8 DT HJ SQ CA D6")
    rules = Niujiu.ruleset()
    assert montecarlo.decide(kn, rules, random.Random(1)) == evaluate.decide(kn)


def test_monte_carlo_choices_are_legal_candidates() -> None:
    kn = knowledge("HQ DQ C8 HT S7 D7 HA D2 C3", seat=1, leader=0, trick=[(0, "S6 H6")])
    moves = montecarlo.candidates(kn, evaluate.decide(kn), 5)
    assert moves[0] == evaluate.decide(kn) and len(moves) == len(set(moves))
    for m in moves:
        assert m.code == ActCode.COVER or classify(m.cards) is not None
    choice = montecarlo.decide(kn, Niujiu.ruleset(), random.Random(3), montecarlo.Settings(samples=4))
    assert choice in moves
    assert GameAction(int(choice.code), choice.cards).code in (ActCode.EAT, ActCode.COVER)
    assert set(choice.cards) <= set(kn.hand) and len(choice.cards) == 2
    assert set(NIUJIU_CARDS) >= set(kn.unseen)
