"""The mahjong robots: design.md §7.5's BDI architecture with a replaceable strategy
library (``rearrange``: design.md §7.5's out/in pairs; ``hudist``: design.md §7.4's hu distance), and
the ``greedy`` baseline and the strong baseline ``ukeire`` (:mod:`.ukeire`).
docs/robots.md describes them and quotes the arena's figures.

Parts, each its own module: :mod:`.perceptor` (view -> :mod:`.memory`), :mod:`.rulebase`
(the engine's analysis), :mod:`.stateset` (per suit ``(Ar, p)`` and ``(Ar', p')``),
:mod:`.goals` (the goal byte and the filter's rule), :mod:`.strategies` (the library:
state, filter and decomposition methods), :mod:`.intentions`, :mod:`.matcher`,
:mod:`.executor`; :mod:`.robots` wires them.
"""

from paiju.bots.mahjong.robots import BDIHuDist, BDIRearrange, BDIRobot, GreedyRobot
from paiju.bots.mahjong.ukeire import UkeireRobot
from paiju.bots.registry import register

for _cls in (BDIHuDist, BDIRearrange, GreedyRobot, UkeireRobot):
    register(_cls)

__all__ = ["BDIHuDist", "BDIRearrange", "BDIRobot", "GreedyRobot", "UkeireRobot"]
