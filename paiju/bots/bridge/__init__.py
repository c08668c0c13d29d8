"""Contract bridge robots (design.md §7.2): ``hybrid`` (table bidding, experience rules, Monte Carlo
double dummy on DDS) and the baseline ``basic``; :mod:`paiju.bots.bridge.arena` scores them in IMPs.

>>> from paiju.bots import registry
>>> registry.names("bridge")
['basic', 'hybrid', 'hybrid-v1', 'random']
"""

from paiju.bots.bridge.robot import BasicRobot, HybridRobot, HybridV1Robot
from paiju.games.bridge.bidding import choose, read_auction, system
from paiju.games.bridge.evaluate import hcp, strength

__all__ = ["BasicRobot", "HybridRobot", "HybridV1Robot", "choose", "hcp", "read_auction", "strength", "system"]
