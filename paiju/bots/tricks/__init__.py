"""The simple trick-taking game's exact solver (design.md §7.3) and its robot ``perfect``.

>>> solve([1, 4, 5, 8], [2, 3, 6, 7])
0
"""

from paiju.bots.tricks.graph import Interval, StrategyGraph, key_of, strategy_graph
from paiju.bots.tricks.robot import PerfectRobot
from paiju.bots.tricks.solver import (
    Cache,
    Solver,
    attack_values,
    default_solver,
    optimal_attacks,
    optimal_defences,
    solve,
)

__all__ = [
    "Cache",
    "Interval",
    "PerfectRobot",
    "Solver",
    "StrategyGraph",
    "attack_values",
    "default_solver",
    "key_of",
    "optimal_attacks",
    "optimal_defences",
    "solve",
    "strategy_graph",
]
