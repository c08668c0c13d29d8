"""The bidding's judgement by simulation (paiju/bots/bridge/judge.py) and its trick estimate."""

from __future__ import annotations

import random

from paiju.bots.bridge import judge as J
from paiju.bots.bridge.robot import HybridRobot
from paiju.bots.bridge.tricks import estimate, trick_odds
from paiju.games.bridge.bidding import choose, explain, read_auction
from paiju.games.bridge.deal import parse_deal, parse_hand
from paiju.protocol.cards import DOUBLE, PASS, parse_call

SAMPLES = 8  # a few deals keep the tests fast; the answers below are clear at any count


def _calls(text: str) -> list[int]:
    return [parse_call(c) for c in text.split()]


def _judge(hand: str, auction: str, vulnerable: str, seed: int = 1, **kw: float) -> J.Judgement:
    return J.judge(list(parse_hand(hand)), _calls(auction), 0, vulnerable, random.Random(seed), samples=SAMPLES, **kw)  # type: ignore[arg-type]


def test_a_penalty_double_of_a_contract_going_down() -> None:
    # North opened 1D, East overcalled 1S, South passed, West jumped to game; North holds
    # KQJT of spades: 4S goes down three or more. The rows pass (the partnership's points are
    # short of a penalty double's); simulation doubles, and the double keeps its row's meaning.
    hand, auction = "KQJT.A2.KQJ32.32", "1D 1S P 4S"
    assert choose(list(parse_hand(hand)), _calls(auction), 0)[0] == PASS
    j = _judge(hand, auction, "EW")
    assert j.call == DOUBLE and j.changed and j.samples == SAMPLES and not j.degraded
    assert j.values[DOUBLE] >= 5  # IMPs a board over passing
    assert j.row is not None and "penalty" in j.row.meaning
    assert "penalty" in explain(read_auction((*_calls(auction), DOUBLE))[-1])


def test_a_slam_with_every_key_card_and_33_points() -> None:
    # partner opened 1S (11-15, five spades); this hand has four spades, the four aces and
    # the trump king: 33 together. Every slam road (the key-card ask, six at once) beats game.
    j = _judge("AK32.AJ2.A32.A32", "1S P", "None")
    six, game, ask = parse_call("6S"), parse_call("4S"), parse_call("4NT")
    assert j.call in (six, ask) and j.samples == SAMPLES
    assert min(j.values[six], j.values[ask]) >= j.values[game] + 4


def test_a_sacrifice_at_favourable_vulnerability_and_not_at_unfavourable() -> None:
    # North opened 1H with seven hearts, five diamonds and no defence; East overcalled 1S and
    # West bid game (12+, three spades). The rows pass (no eight-card fit is known). Not
    # vulnerable against vulnerable opponents 5H costs less than their game: simulation bids
    # on, by the row that reads it; vulnerable against not, it passes.
    hand, auction, five = "2.KQJT987.J7654.", "1H 1S P 4S", parse_call("5H")
    assert choose(list(parse_hand(hand)), _calls(auction), 0)[0] == PASS
    j = _judge(hand, auction, "EW")
    assert j.call == five and j.samples == SAMPLES and j.values[five] >= 1
    assert j.row is not None and "sacrifice" in j.row.meaning
    j = _judge(hand, auction, "NS")
    assert j.call == PASS and j.values[five] < 0


def test_the_judgement_is_the_same_for_a_seed() -> None:
    a = _judge("KQJT.A2.KQJ32.32", "1D 1S P 4S", "EW", seed=7)
    b = _judge("KQJT.A2.KQJ32.32", "1D 1S P 4S", "EW", seed=7)
    assert (a.call, a.values, a.samples) == (b.call, b.values, b.samples)


def test_the_rows_alone_when_the_budget_runs_out() -> None:
    # no CPU to spend: not one deal is scored, and the table's call stands
    j = _judge("KQJT.A2.KQJ32.32", "1D 1S P 4S", "EW", budget_ms=0.0)
    assert j.degraded and j.samples < J.MIN_SAMPLES and j.call == j.table_call == PASS and not j.changed


def test_calls_the_rows_settle_alone_are_not_simulated() -> None:
    j = _judge("AKQ2.KQ2.AQ2.K32", "", "None")  # an opening bid
    assert j.samples == 0 and j.call == j.table_call and not j.values
    j = _judge("5432.5432.432.32", "1NT P", "None")  # nothing to judge: no game in view
    assert j.samples == 0


def test_the_robot_bids_the_judged_call_and_records_it() -> None:
    robot = HybridRobot()
    robot.bid_samples = SAMPLES
    call = robot.bid(list(parse_hand("KQJT.A2.KQJ32.32")), _calls("1D 1S P 4S"), 0, "EW", random.Random(1))
    assert call == DOUBLE and robot.last_judgement is not None and robot.last_judgement.samples == SAMPLES
    robot.bid_samples = 0  # the rows alone
    assert robot.bid(list(parse_hand("KQJT.A2.KQJ32.32")), _calls("1D 1S P 4S"), 0, "EW") == PASS


def test_finish_and_the_final_contract() -> None:
    hands = [list(h) for h in parse_deal("N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654")]
    calls = J.finish(hands, [], 0)
    assert J.auction_over(calls) and not J.auction_over(calls[:-1])
    reached = J.final_contract(calls, 0)
    assert reached is not None and reached[1] % 2 == 0  # North-South declare
    assert J.final_contract(_calls("P P P P"), 0) is None
    contract, declarer = J.final_contract(_calls("1H 1S 2H X P P P"), 0)  # type: ignore[misc]
    assert (str(contract), declarer) == ("2HX", 0)


def test_the_trick_estimate_agrees_with_double_dummy() -> None:
    """On random deals the estimate is within a trick and a half of DDS's count on average,
    and its odds put most weight near the count (the model was fitted on other deals)."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom

    from paiju.bots.bridge.arena import tricks_of
    from paiju.games.bridge.deal import format_deal

    rng = random.Random(2024)
    deck = [s << 4 | r for s in range(4) for r in range(2, 15)]
    deals = []
    for _ in range(3):
        rng.shuffle(deck)
        deals.append([sorted(deck[13 * k : 13 * k + 13]) for k in range(4)])
    # hearts and notrump: DDS's table of the other strains would cost seconds
    strains = (2, 4)
    skip = [Denom.clubs, Denom.diamonds, Denom.spades]
    tables = calc_all_tables([Deal(format_deal([bytes(h) for h in d])) for d in deals], exclude=skip)
    errors, near = [], 0.0
    for hands, table in zip(deals, tables, strict=True):
        tricks = tricks_of(table)
        for strain in strains:
            for seat in range(4):
                mu, sigma = estimate(hands, strain, seat)
                errors.append(abs(mu - tricks[strain][seat]))
                odds = trick_odds(mu, sigma)
                near += sum(odds[t] for t in range(13 + 1) if abs(t - tricks[strain][seat]) <= 1)
    assert sum(errors) / len(errors) <= 1.5
    assert near / len(errors) >= 0.6
