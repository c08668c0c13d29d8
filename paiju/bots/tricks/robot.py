"""``perfect``: the robot that plays an optimal card of the simple trick-taking game.

The game hides nothing that matters: every card is in the seat's hand, on the table,
already played, or therefore in the other hand, so the view alone gives the exact
position and the solver an optimal card.
"""

from __future__ import annotations

from paiju.bots.base import Robot
from paiju.bots.registry import register
from paiju.bots.tricks.graph import key_of
from paiju.bots.tricks.solver import default_solver
from paiju.games import GameAction
from paiju.protocol import DecisionRequest, views
from paiju.protocol.cards import tricks_card, tricks_number
from paiju.protocol.tricks import ActCode, View


@register
class PerfectRobot(Robot):
    game = "tricks"
    name = "perfect"
    description = "plays perfectly: an exact solver picks an optimal card every trick"

    def decide(self, request: DecisionRequest) -> GameAction:
        view = views.read(View, request.view, seats=2)
        mine = sorted(tricks_number(b) for b in view["hand"])
        trick = [tricks_number(b) for b in view["trick"]]
        gone = {tricks_number(b) for b in view["played"]} | set(trick) | set(mine)
        theirs = [k for k in range(1, 2 * view["n"] + 1) if k not in gone]
        solver = default_solver()
        if not trick:  # we lead
            cards = sorted(mine + theirs)
            card = cards[solver.best_lead(key_of(mine, theirs))]
        else:  # we answer the led card
            lead = trick[0]
            cards = sorted([*theirs, lead, *mine])
            card = cards[solver.best_answer(key_of([*theirs, lead], mine), cards.index(lead))]
        return GameAction(ActCode.PLAY, bytes([tricks_card(card)]))
