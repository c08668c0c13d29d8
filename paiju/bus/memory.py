"""The bus between rooms and robots (docs/design.md §5): requests out, decisions back.

Two small interfaces and one implementation:

- :class:`RoomBus`, the room side: a server process publishes a
  :class:`~paiju.protocol.frames.DecisionRequest` for a robot seat (``reply_to`` = its own
  :attr:`RoomBus.server_id`) and receives the :class:`~paiju.protocol.frames.Decision` frames
  addressed to it, whatever room they belong to (the server routes them by ``room``).
- :class:`WorkerBus`, the worker side: take the next request of some games as a
  :class:`Delivery`, then :meth:`WorkerBus.reply` with a decision (routed back by the
  request's ``reply_to``) or :meth:`WorkerBus.drop` it (expired, or the robot failed).
- :class:`MemoryBus`, both sides in one process with asyncio queues: the embedded
  default of ``paiju serve`` and the tests.

Everything that crosses the bus is a protocol frame that can be encoded, so the in-memory
bus behaves like a networked one (a request that cannot be encoded fails at ``publish``). The shape is the
one of Redis streams with a consumer group: one request stream per game that any number
of workers share (``take`` = XREADGROUP, ``reply``/``drop`` = XADD to the reply stream of
``reply_to`` + XACK), and one decision stream per server process.

>>> import asyncio
>>> from paiju.protocol.frames import Option
>>> async def demo() -> tuple[int, int]:
...     bus = MemoryBus("srv1")
...     req = DecisionRequest("r1", "tricks", "standard", 0, 7, 0, "random", 1, [Option(0, b"\\x01", 1)], {})
...     await bus.publish(req)
...     d = await bus.take(["tricks"], "w1")
...     await bus.reply(d, Decision("r1", 0, d.request.prompt_id, 0, b"\\x01"))
...     got = await bus.receive()
...     return got.prompt_id, bus.pending()
>>> asyncio.run(demo())
(7, 0)
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass

from paiju.protocol.frames import Decision, DecisionRequest, encode


@dataclass(frozen=True)
class Delivery:
    """A request handed to one worker; ``ref`` identifies it on the bus (a stream entry id)."""

    request: DecisionRequest
    ref: str


class RoomBus(ABC):
    """What a server process needs: publish requests, receive the decisions addressed to it."""

    server_id: str

    @abstractmethod
    async def publish(self, request: DecisionRequest) -> None:
        """Queue ``request`` for the workers of ``request.game`` (an empty ``reply_to`` is
        filled with :attr:`server_id`)."""

    @abstractmethod
    async def receive(self) -> Decision:
        """The next decision addressed to :attr:`server_id` (waits for one)."""

    def serves(self, game: str, robot: str) -> bool:
        """Whether a worker serves ``robot`` of ``game`` now (a room waits for one before its
        match starts); a bus whose workers are always there (in memory) says yes."""
        return True

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release whatever the bus holds (connections, tasks)."""


class WorkerBus(ABC):
    """What a robot worker needs: take requests, answer them."""

    @abstractmethod
    async def take(self, games: Collection[str], consumer: str) -> Delivery:
        """The next request of one of ``games`` for worker ``consumer`` (waits for one)."""

    @abstractmethod
    async def reply(self, delivery: Delivery, decision: Decision) -> None:
        """Send ``decision`` to the server that asked, and mark the request done."""

    @abstractmethod
    async def drop(self, delivery: Delivery) -> None:
        """Mark the request done without an answer (the room's clock will decide)."""


class MemoryBus(RoomBus, WorkerBus):
    """Both sides of the bus in one process (one server process: ``server_id``).

    Every request and decision is encoded on its way in, so that what could not cross a
    network fails here too; the taker then gets the very (immutable) frame that was
    published rather than a decoded copy, since decoding what was just encoded here would
    only check it a second time.
    """

    def __init__(self, server_id: str = "local") -> None:
        self.server_id = server_id
        self._decisions: dict[str, asyncio.Queue[Decision]] = {}
        self._held: dict[str, str] = {}  # ref -> consumer: taken, not yet answered
        self._ids = itertools.count(1)
        # Requests of games no taker asked for wait here, per game, so that workers of
        # different games can share one bus without stealing each other's requests.
        self._parked: dict[str, list[tuple[str, DecisionRequest]]] = {}
        # Takers wait on one condition per set of games they serve (all sharing one lock):
        # a request wakes one taker of each set that serves its game, not every taker.
        self._lock = asyncio.Lock()
        self._waiting: dict[frozenset[str], asyncio.Condition] = {}

    def _inbox(self, server_id: str) -> asyncio.Queue[Decision]:
        if server_id not in self._decisions:
            self._decisions[server_id] = asyncio.Queue()
        return self._decisions[server_id]

    # room side
    async def publish(self, request: DecisionRequest) -> None:
        if not request.reply_to:
            request = dataclasses.replace(request, reply_to=self.server_id)
        encode(request)  # raises as a networked bus would for a request that cannot be sent
        async with self._lock:
            self._parked.setdefault(request.game, []).append((f"{next(self._ids)}-0", request))
            for games, cond in self._waiting.items():
                if request.game in games:
                    cond.notify(1)

    async def receive(self) -> Decision:
        return await self._inbox(self.server_id).get()

    # worker side
    async def take(self, games: Collection[str], consumer: str) -> Delivery:
        key = frozenset(games)
        cond = self._waiting.get(key)
        if cond is None:
            cond = self._waiting[key] = asyncio.Condition(self._lock)
        async with cond:
            while True:
                best: tuple[str, str] | None = None
                for g in games:
                    q = self._parked.get(g)
                    if q and (best is None or _order(q[0][0]) < _order(best[1])):
                        best = (g, q[0][0])
                if best is not None:
                    ref, req = self._parked[best[0]].pop(0)
                    self._held[ref] = consumer
                    return Delivery(req, ref)
                await cond.wait()

    async def reply(self, delivery: Delivery, decision: Decision) -> None:
        self._held.pop(delivery.ref, None)
        encode(decision)
        self._inbox(delivery.request.reply_to).put_nowait(decision)

    async def drop(self, delivery: Delivery) -> None:
        self._held.pop(delivery.ref, None)

    def pending(self) -> int:
        """Requests published and not yet answered or dropped (waiting or taken)."""
        return len(self._held) + sum(len(q) for q in self._parked.values())


def _order(ref: str) -> int:
    return int(ref.split("-", 1)[0])
