"""Which robots the Redis bus's workers serve now: each `paiju bots` process announces itself,
each server reads who is there before a match with robot seats starts.

A worker keeps ``paiju:worker:{consumer}`` (the ``game/robot`` names it serves, one space
between two) alive with a short expiry, renewed every second, and its name in the set
``paiju:workers``; it deletes both when it stops. A worker that died is gone from the roster
when its key expires (:data:`ANNOUNCE_TTL_MS`). A server reads the set and the keys every
:data:`POLL_S` and drops the names whose key has expired; a room whose robots no worker serves
yet waits for one (paiju/core/table/match.py) instead of playing its robot seats by the clock.

>>> serving_key("w1"), WORKERS
('paiju:worker:w1', 'paiju:workers')
>>> names({"tricks": ["basic", "random"], "bridge": ["hybrid"]})
'bridge/hybrid tricks/basic tricks/random'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence

import redis.exceptions

from paiju.bus.link import NOT_BACK, PREFIX, TRANSIENT, Link

WORKERS = f"{PREFIX}:workers"  # set of the worker (consumer) names that announced themselves
ANNOUNCE_TTL_MS = 5_000  # a worker's announcement outlives its last renewal by this much
RENEW_S = 1.0  # a worker renews its announcement this often
POLL_S = 0.5  # a server reads the roster this often

log = logging.getLogger("paiju.bus")


def serving_key(consumer: str) -> str:
    return f"{PREFIX}:worker:{consumer}"


def names(robots: Mapping[str, Sequence[str]]) -> str:
    """The announcement of a worker serving ``robots`` (game -> robot names)."""
    return " ".join(sorted(f"{g}/{r}" for g, rs in robots.items() for r in rs))


async def announce(link: Link, consumer: str, robots: Mapping[str, Sequence[str]], stop: asyncio.Event) -> None:
    """Keep ``consumer``'s announcement of ``robots`` alive until ``stop`` is set; then withdraw
    it. (Stopped, not cancelled: a Redis command cancelled in flight while the worker's own
    blocking reads were cancelled sometimes kept the process from exiting.)"""
    value = names(robots)
    key = serving_key(consumer)
    while not stop.is_set():
        try:
            async with link.redis.pipeline(transaction=True) as pipe:
                pipe.set(key, value, px=ANNOUNCE_TTL_MS)
                pipe.sadd(WORKERS, consumer)
                await pipe.execute()
        except TRANSIENT as e:
            await link.failed(e)
            continue
        except redis.exceptions.RedisError as e:
            log.error("announcing worker %s failed: %s", consumer, e)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(RENEW_S):
                await stop.wait()
    try:
        async with asyncio.timeout(1):
            async with link.redis.pipeline(transaction=True) as pipe:
                pipe.delete(key)
                pipe.srem(WORKERS, consumer)
                await pipe.execute()
    except NOT_BACK:
        pass  # the key expires on its own


class WorkerRoster:
    """A server's view of the robots served now (``serves``), read every :data:`POLL_S` by
    :meth:`run`; it keeps the last view while Redis is away."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.serving: frozenset[str] = frozenset()  # "game/robot"
        self._stop = asyncio.Event()

    def serves(self, game: str, robot: str) -> bool:
        return f"{game}/{robot}" in self.serving

    async def read(self) -> None:
        r = self.link.redis
        members = sorted(m.decode() if isinstance(m, bytes) else str(m) for m in await r.smembers(WORKERS))
        values = await r.mget([serving_key(m) for m in members]) if members else []
        gone = [m for m, v in zip(members, values, strict=True) if v is None]
        if gone:
            await r.srem(WORKERS, *gone)
        self.serving = frozenset(n for v in values if v for n in (v.decode() if isinstance(v, bytes) else v).split())

    async def run(self) -> None:
        """Read the roster every :data:`POLL_S` until :meth:`stop`. (Stopped, not cancelled: with
        it cancelled beside the bus's blocking XREAD, that XREAD's cancellation sometimes never
        ended, nor the server's exit with it.)"""
        while not self._stop.is_set():
            try:
                await self.read()
            except TRANSIENT as e:
                await self.link.failed(e)
                continue
            except redis.exceptions.RedisError as e:
                log.error("reading the workers' roster failed: %s", e)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL_S):
                    await self._stop.wait()

    def stop(self) -> None:
        self._stop.set()
