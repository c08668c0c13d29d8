"""Contract bridge robots (design.md §7.2): ``hybrid`` (table bidding, experience rules, Monte Carlo
double dummy on DDS) and the baseline ``basic``; :mod:`bots.bridge.arena` scores them in IMPs.

>>> from bots import registry
>>> registry.names("bridge")
['basic', 'hybrid', 'hybrid-v1', 'random']
"""

from games.bridge.bidding import choose, read_auction, system
from games.bridge.evaluate import hcp, strength

from .robot import BasicRobot, HybridRobot, HybridV1Robot

__all__ = ["BasicRobot", "HybridRobot", "HybridV1Robot", "choose", "hcp", "read_auction", "strength", "system"]
