"""The Niujiu robots: design.md §7.1's ``automaton``, ``automaton-mc`` (Monte Carlo
beyond the seed) and the ``greedy`` baseline. docs/robots.md describes them and quotes the
arena's figures.

Parts, one concept each: :mod:`.knowledge` (the seat's view -> what it knows and the pool
of cards it cannot see), :mod:`.sure` (seed §5.3's sure winners), :mod:`.automaton`
(seed §5.1's Moore automaton and §5.2's recognizer), :mod:`.evaluate` (the evaluation
function), :mod:`.montecarlo` (sampling and play-outs), :mod:`.robots` (the robots),
:mod:`.arena` (the arena's Niujiu figures).
"""

from paiju.bots.niujiu.robots import AutomatonRobot, GreedyRobot, MonteCarloRobot
from paiju.bots.registry import register

for _cls in (AutomatonRobot, GreedyRobot, MonteCarloRobot):
    register(_cls)

__all__ = ["AutomatonRobot", "GreedyRobot", "MonteCarloRobot"]
