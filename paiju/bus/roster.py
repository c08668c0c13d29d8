"""Which robots the Redis bus's workers serve now: each `paiju bots` process announces itself,
each server reads who is there before a match with robot seats starts.

A worker keeps ``paiju:worker:{consumer}`` (the ``game/robot`` names it serves, one space
between two) alive with a short expiry, renewed every second by its lease loop
(:class:`~paiju.bus.workers.RedisWorkerBus`), and its name in the set ``paiju:workers``; it
deletes both when it stops. A worker that died is gone from the roster when its key expires
(:data:`ANNOUNCE_TTL_MS`). A server's bus reads the set and the keys between two reads of its
decisions (:class:`~paiju.bus.rooms.RedisRoomBus`, at most every :data:`POLL_S`, at least every
second) and drops the names whose key has expired; a room whose robots no worker serves yet
waits for one (paiju/core/table/match.py) instead of playing its robot seats by the clock.
Both run in a loop the bus already has: no task of their own whose cancellation could land
beside another's Redis command.

>>> serving_key("w1"), WORKERS
('paiju:worker:w1', 'paiju:workers')
>>> names({"tricks": ["basic", "random"], "bridge": ["hybrid"]})
'bridge/hybrid tricks/basic tricks/random'
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from redis.asyncio import Redis

from paiju.bus.link import PREFIX

WORKERS = f"{PREFIX}:workers"  # set of the worker (consumer) names that announced themselves
ANNOUNCE_TTL_MS = 5_000  # a worker's announcement outlives its last renewal by this much
RENEW_S = 1.0  # a worker renews its announcement this often
POLL_S = 0.5  # a server reads the roster at most this often


def serving_key(consumer: str) -> str:
    return f"{PREFIX}:worker:{consumer}"


def names(robots: Mapping[str, Sequence[str]]) -> str:
    """The announcement of a worker serving ``robots`` (game -> robot names)."""
    return " ".join(sorted(f"{g}/{r}" for g, rs in robots.items() for r in rs))


async def announce(redis: Redis, consumer: str, value: str) -> None:
    """``consumer`` serves the robots of ``value`` (:func:`names`) for the next
    :data:`ANNOUNCE_TTL_MS`."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.set(serving_key(consumer), value, px=ANNOUNCE_TTL_MS)
        pipe.sadd(WORKERS, consumer)
        await pipe.execute()


async def withdraw(redis: Redis, consumer: str) -> None:
    """``consumer`` serves nothing any more."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.delete(serving_key(consumer))
        pipe.srem(WORKERS, consumer)
        await pipe.execute()


class WorkerRoster:
    """A server's view of the robots served now (``serves``), refreshed by :meth:`read`; it
    keeps the last view while Redis is away."""

    def __init__(self) -> None:
        self.serving: frozenset[str] = frozenset()  # "game/robot"
        self.read_at = 0.0  # time.monotonic() of the last read

    def serves(self, game: str, robot: str) -> bool:
        return f"{game}/{robot}" in self.serving

    def due(self) -> bool:
        return time.monotonic() - self.read_at >= POLL_S

    async def read(self, redis: Redis) -> None:
        self.read_at = time.monotonic()
        members = sorted(m.decode() if isinstance(m, bytes) else str(m) for m in await redis.smembers(WORKERS))
        values = await redis.mget([serving_key(m) for m in members]) if members else []
        gone = [m for m, v in zip(members, values, strict=True) if v is None]
        if gone:
            await redis.srem(WORKERS, *gone)
        self.serving = frozenset(n for v in values if v for n in (v.decode() if isinstance(v, bytes) else v).split())
