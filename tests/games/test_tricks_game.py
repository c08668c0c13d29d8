from __future__ import annotations

from paiju.games import GameAction, GameError, create
from paiju.games.testing import check_game
from paiju.games.tricks import Tricks, tricks_numbers
from paiju.protocol import ErrorCode
from paiju.protocol.cards import tricks_card
from paiju.protocol.tricks import ActCode
from paiju.protocol.tricks import Error as TricksError


def test_conformance_both_rulesets() -> None:
    # the long form, 2,000 hands a ruleset: paiju bench conformance --game tricks --hands 2000
    assert check_game("tricks", "standard", seeds=range(80), sample_every=11).games == 80
    assert check_game("tricks", "pack", seeds=range(10)).games == 10


def test_higher_card_wins_and_leads_next() -> None:
    g = Tricks(5, Tricks.ruleset(n=3))
    a, b = tricks_numbers(g.concealed(0)), tricks_numbers(g.concealed(1))
    assert sorted(a + b) == [1, 2, 3, 4, 5, 6]
    lead, follow = max(a), min(b)
    g.apply(0, GameAction(ActCode.PLAY, bytes([tricks_card(lead)])))
    assert g.to_act() == (1,)
    g.apply(1, GameAction(ActCode.PLAY, bytes([tricks_card(follow)])))
    winner = 0 if lead > follow else 1
    assert g.to_act() == (winner,) and g.won[winner] == 1


def test_out_of_turn_and_foreign_cards_are_refused() -> None:
    g = create("tricks", 9)
    try:
        g.apply(1, GameAction(ActCode.PLAY, g.concealed(1)[:1]))
    except GameError as e:
        assert e.code == ErrorCode.NOT_YOUR_TURN
    else:
        raise AssertionError("out of turn accepted")
    try:
        g.apply(0, GameAction(ActCode.PLAY, g.concealed(1)[:1]))
    except GameError as e:
        assert e.code == TricksError.CARD_NOT_IN_HAND
    else:
        raise AssertionError("a card of the other hand accepted")
    try:
        g.apply(0, GameAction(ActCode.PLAY, g.concealed(0)[:2]))
    except GameError as e:
        assert e.code == ErrorCode.ILLEGAL_CARDS
    else:
        raise AssertionError("two cards accepted")
    assert g.log == []
