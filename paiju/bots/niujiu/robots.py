"""The Niujiu robots ``automaton`` (design.md §7.1) and the baseline ``greedy``.

Both read only the request's view (:func:`.knowledge.from_view`) and answer one of the
request's options.
"""

from __future__ import annotations

import random

from paiju import games
from paiju.bots.base import Robot
from paiju.bots.niujiu import evaluate, montecarlo
from paiju.bots.niujiu.cache import hand_patterns
from paiju.bots.niujiu.evaluate import Choice
from paiju.bots.niujiu.knowledge import Knowledge, from_view
from paiju.games import GameAction
from paiju.games.niujiu import LEVEL, rank
from paiju.protocol import DecisionRequest
from paiju.protocol.niujiu import ActCode


def knowledge(request: DecisionRequest) -> Knowledge:
    """The seat's knowledge from the request (its view, and the ruleset's public options)."""
    rules = games.get("niujiu").ruleset(request.ruleset or None)
    return from_view(request.seat, request.view, play_out=bool(getattr(rules, "play_out", False)))


def action(choice: Choice) -> GameAction:
    return GameAction(int(choice.code), bytes(sorted(choice.cards)))


class AutomatonRobot(Robot):
    """The robot of design.md §7.1: the "six must suffice" automaton, the sure-winner test, the evaluation function."""

    game = "niujiu"
    name = "automaton"
    description = 'the "six must suffice" automaton, the sure-winner test, the evaluation'

    def decide(self, request: DecisionRequest) -> GameAction:
        return action(evaluate.decide(knowledge(request)))


def _strength(cards: bytes) -> int:
    return sum(LEVEL[rank(c)] for c in cards)


def greedy_choice(kn: Knowledge) -> Choice:
    """Lead the largest pattern (most cards, then highest); eat with the cheapest pattern that
    eats whenever possible; otherwise cover the lowest cards."""
    if kn.position == 0:
        return Choice(ActCode.LEAD, max(hand_patterns(kn.hand), key=lambda p: (len(p), _strength(p), p)))
    options = evaluate.eats(kn)
    if options:
        return Choice(ActCode.EAT, min(options, key=lambda p: (_strength(p), p)))
    low = sorted(kn.hand, key=lambda c: (LEVEL[rank(c)], c))
    return Choice(ActCode.COVER, bytes(sorted(low[: kn.k])))


class GreedyRobot(Robot):
    """The baseline: no look at what others may hold."""

    game = "niujiu"
    name = "greedy"
    description = "leads its largest pattern, eats as cheaply as it can, never guesses hidden cards: the baseline"

    def decide(self, request: DecisionRequest) -> GameAction:
        return action(greedy_choice(knowledge(request)))


class MonteCarloRobot(Robot):
    """``automaton`` with Monte Carlo play-outs at the decisions it leaves open (:mod:`.montecarlo`).

    Its samples are seeded from the room, the seat and the prompt, so a replayed match
    makes the same choices.
    """

    game = "niujiu"
    name = "automaton-mc"
    description = "the automaton, with Monte Carlo play-outs at the decisions it leaves open"
    cpu_heavy = True

    def __init__(self, settings: montecarlo.Settings | None = None) -> None:
        self.settings = settings or montecarlo.Settings()

    def decide(self, request: DecisionRequest) -> GameAction:
        rules = games.get("niujiu").ruleset(request.ruleset or None)
        rng = random.Random(f"{request.room}:{request.seat}:{request.prompt_id}")
        return action(montecarlo.decide(knowledge(request), rules, rng, self.settings))
