"""The worker that serves robots from the bus: take a request, ask the robot, reply.

Robots are stateless, so one worker serves any number of rooms and seats. A request
whose deadline has passed is dropped unanswered (the room has already played the default
action). A robot that raises, or answers with something that is not one of the request's
options, is logged and the request dropped: the room's clock then plays the default
action, so a failing robot never stalls a room. Robots marked ``cpu_heavy`` run in a
process pool, off the event loop; the others run inline (they are quick by contract).

The embedded ``paiju serve`` runs a :class:`Worker` in its own process, on the in-memory
bus; ``paiju bots`` runs the same class on Redis (paiju/bus/workers.py). ``run(stop)`` stops
gracefully when ``stop`` is set: no new request is taken, the ones in hand are finished.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection

from paiju import games
from paiju.bots import metrics, registry
from paiju.bots.base import Robot
from paiju.bots.pool import DecisionPool
from paiju.bus.link import cancel_all
from paiju.bus.memory import Delivery, WorkerBus
from paiju.games import ActionSet, GameAction
from paiju.protocol import Decision, DecisionRequest, encode

log = logging.getLogger("paiju.cli.bots")


def _chosen(req: DecisionRequest, action: GameAction) -> bool:
    """``action`` is one of the request's options: most robots hand back an option's very
    cards (one comparison each); a pick of some of an option's cards takes the full check."""
    for o in req.options:
        if o.code == action.code < 8 and o.cards == action.cards and o.pick == len(o.cards):
            return True
    return ActionSet.of(req.options).allows(action)


class Worker:
    """Serves the robots of ``games`` (default: every game) from ``bus``.

    ``concurrency`` requests are handled at once; ``pool`` runs cpu-heavy robots (a
    :class:`~paiju.bots.pool.DecisionPool` of ``os.cpu_count()`` processes is made on first
    need when None);
    ``robots(game, name)`` makes a robot (default: paiju.bots.registry.get).
    """

    def __init__(
        self,
        bus: WorkerBus,
        games_: Collection[str] | None = None,
        *,
        name: str = "worker",
        concurrency: int = 8,
        pool: DecisionPool | None = None,
        robots: Callable[[str, str], Robot] = registry.get,
    ) -> None:
        self.bus = bus
        self.games = list(games_) if games_ is not None else games.names()
        self.name = name
        self.concurrency = concurrency
        self._pool = pool
        self._own_pool = False
        self._lookup = robots
        self._robots: dict[tuple[str, str], Robot] = {}
        self.answered = 0
        self.dropped = 0
        self.failed = 0
        self.by_game: dict[str, int] = {}  # answered, per game
        self.in_hand = 0  # requests being handled now

    def robot(self, game: str, name: str) -> Robot:
        key = (game, name)
        if key not in self._robots:
            self._robots[key] = self._lookup(game, name)
        return self._robots[key]

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Serve until cancelled, or until ``stop`` is set: then take nothing more, finish
        the requests in hand and return."""
        tasks = [asyncio.create_task(self._loop(i, stop)) for i in range(self.concurrency)]
        try:
            await asyncio.gather(*tasks)
        finally:
            await cancel_all(tasks)  # (at most CANCEL_WAIT: a Redis read may never end its cancellation)
            if self._own_pool and self._pool is not None:
                self._pool.close()

    async def _loop(self, i: int, stop: asyncio.Event | None) -> None:
        while True:
            if stop is None:
                d = await self.bus.take(self.games, f"{self.name}-{i}")
            else:
                if stop.is_set():
                    return
                take = asyncio.ensure_future(self.bus.take(self.games, f"{self.name}-{i}"))
                stopped = asyncio.ensure_future(stop.wait())
                await asyncio.wait({take, stopped}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
                if not take.done():
                    # Whatever the bus had half-delivered stays unacknowledged: another
                    # worker claims it when the lease runs out.
                    # (a blocking Redis read cancelled in flight now and then never ends inside
                    # redis-py: `paiju bots` hung on SIGTERM; waited for at most CANCEL_WAIT)
                    await cancel_all([take])
                    return
                d = take.result()
            self.in_hand += 1
            try:
                await self.handle(d)
            finally:
                self.in_hand -= 1

    async def handle(self, d: Delivery) -> None:
        """Answer one delivery (or drop it); never raises for a robot's fault."""
        req = d.request
        if req.deadline_ms and time.time() * 1000 > req.deadline_ms:
            self.dropped += 1
            metrics.handled(req.game, "late")
            await self.bus.drop(d)
            return
        start = time.perf_counter()
        try:
            robot = self.robot(req.game, req.robot)
            if robot.cpu_heavy:
                action = GameAction(*await self._decisions().decide(type(robot), encode(req)))
            else:
                action = robot.decide(req)
            if not _chosen(req, action):
                raise ValueError(f"robot {req.robot!r} chose {action} outside the options")
        except Exception:
            log.exception(
                "robot %s/%s failed on %s seat %d prompt %d", req.game, req.robot, req.room, req.seat, req.prompt_id
            )
            self.failed += 1
            metrics.handled(req.game, "failed")
            await self.bus.drop(d)
            return
        self.answered += 1
        metrics.handled(req.game, "answered")
        metrics.thought(req.game, req.robot, time.perf_counter() - start)
        self.by_game[req.game] = self.by_game.get(req.game, 0) + 1
        await self.bus.reply(d, Decision(req.room, req.seat, req.prompt_id, action.code, action.cards))

    def _decisions(self) -> DecisionPool:
        if self._pool is None:
            self._pool = DecisionPool()
            self._own_pool = True
        return self._pool
