"""A robot that thinks for a while: the failover tests kill a worker while it holds a
request. Loaded with ``--robots-module tests.redis.slowbot`` by the server (so that rooms may
ask for it) and the workers (so that they serve it)."""

from __future__ import annotations

import os
import time
from typing import ClassVar

from paiju.bots.base import RandomRobot
from paiju.bots.registry import register
from paiju.games import GameAction
from paiju.protocol import DecisionRequest


@register
class SlowTricks(RandomRobot):
    """The random robot of the tricks game, after ``PAIJU_SLOW_MS`` (default 300) ms."""

    game = "tricks"
    name = "slow"
    cpu_heavy: ClassVar[bool] = True  # in the pool: the worker's loop keeps renewing its lease

    def decide(self, request: DecisionRequest) -> GameAction:
        time.sleep(int(os.environ.get("PAIJU_SLOW_MS", "300")) / 1000)
        return super().decide(request)
