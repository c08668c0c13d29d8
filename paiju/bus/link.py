"""What both sides of the Redis bus share: key names, limits, the client settings, and
:class:`Link`, one process's connection state (up or down) with reconnection by backoff.

The Redis layout (docs/design.md §5; docs/operations.md explains every key)::

    paiju:req:{game}          stream of DecisionRequests, consumer group "workers"
    paiju:dec:{server_id}     stream of Decisions for one server process
    paiju:dead                stream of requests given up after too many deliveries
    paiju:rooms               hash room id -> owning server id (rooms in play)
    paiju:room:{id}:log       list of one room's log entries (msgpack), server-only
    paiju:alive:{process}     a process's marker: gone after a restart that lost the data
    paiju:epochs              hash room id -> lease epoch of its owner (fencing of the log)
    paiju:node:{server_id}    a node's lease (expires unless renewed): its URL, rooms, draining
    paiju:nodes               set of the node ids that hold or held a lease
    paiju:lobby               hash room id -> the public room as the lobby lists it (JSON)
    paiju:seat:{player_id}    the room a player was last seated in (resume through any node)
    paiju:worker:{consumer}   the game/robot names a worker serves (expires unless renewed)
    paiju:workers             set of the worker names that announced themselves

The client is redis-py's asyncio API (``redis.asyncio``, with hiredis): asyncio-redis has
not been maintained since 2020 and has no streams.

>>> request_stream("mahjong"), decision_stream("srv-1"), room_log("r1a2b3c")
('paiju:req:mahjong', 'paiju:dec:srv-1', 'paiju:room:r1a2b3c:log')
>>> check_url("redis://127.0.0.1:6379/0")
'redis://127.0.0.1:6379/0'
>>> check_url("http://127.0.0.1:6379")
Traceback (most recent call last):
...
paiju.bus.link.BadRedisUrl: malformed Redis URL 'http://127.0.0.1:6379': the scheme must be redis://, rediss:// or unix://
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

PREFIX = "paiju"
GROUP = "workers"  # the consumer group every worker joins, on every request stream
FIELD = b"f"  # the one field of a stream entry: an encoded protocol frame
REQUEST_MAXLEN = 10_000  # approximate cap of a request stream (XADD MAXLEN ~)
DECISION_MAXLEN = 10_000  # approximate cap of a decision stream
DEAD_MAXLEN = 1_000  # approximate cap of the dead-letter stream
DECISION_TTL = 3_600  # seconds a server's decision stream outlives its last decision
DEAD_LETTERS = f"{PREFIX}:dead"
ROOMS = f"{PREFIX}:rooms"
EPOCHS = f"{PREFIX}:epochs"
NODES = f"{PREFIX}:nodes"
LOBBY = f"{PREFIX}:lobby"

# Errors after which the connection is retried (anything else is a bug or a refusal).
TRANSIENT: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
    asyncio.TimeoutError,
)

# While reconnecting, any refusal (LOADING, NOAUTH, ...) also means "not back yet".
NOT_BACK: tuple[type[BaseException], ...] = (*TRANSIENT, redis.exceptions.RedisError)


def request_stream(game: str) -> str:
    return f"{PREFIX}:req:{game}"


def decision_stream(server_id: str) -> str:
    return f"{PREFIX}:dec:{server_id}"


def room_log(room_id: str) -> str:
    return f"{PREFIX}:room:{room_id}:log"


def alive_key(process: str) -> str:
    return f"{PREFIX}:alive:{process}"


def node_key(server_id: str) -> str:
    return f"{PREFIX}:node:{server_id}"


def seat_key(player_id: str) -> str:
    return f"{PREFIX}:seat:{player_id}"


class BadRedisUrl(ValueError):
    """A Redis URL that cannot be used (the message says why)."""


def check_url(url: str) -> str:
    """``url`` if redis-py can use it, else BadRedisUrl with the reason."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a non-numeric or out-of-range port
    except ValueError as e:
        raise BadRedisUrl(f"malformed Redis URL {url!r}: {e}") from None
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise BadRedisUrl(f"malformed Redis URL {url!r}: the scheme must be redis://, rediss:// or unix://")
    if parts.scheme != "unix" and not parts.hostname:
        raise BadRedisUrl(f"malformed Redis URL {url!r}: no host")
    if parts.scheme == "unix" and not parts.path:
        raise BadRedisUrl(f"malformed Redis URL {url!r}: no socket path")
    db = parts.path.strip("/") if parts.scheme != "unix" else ""
    if db and not db.isdigit():
        raise BadRedisUrl(f"malformed Redis URL {url!r}: the database must be a number, not {db!r}")
    del port
    return url


def client(url: str, *, timeout: float = 5.0) -> Redis:
    """A redis.asyncio client that fails fast: no retries inside redis-py, because the
    callers reconnect with their own backoff and must notice an outage to act on it."""
    check_url(url)
    try:
        r: Redis = Redis.from_url(
            url,
            retry=Retry(NoBackoff(), 0),
            socket_connect_timeout=2.0,
            socket_timeout=timeout,
            health_check_interval=10,
        )
    except ValueError as e:
        raise BadRedisUrl(f"malformed Redis URL {url!r}: {e}") from None
    return r


def redacted(url: str) -> str:
    """``url`` without its password, for log lines.

    >>> redacted("redis://:hunter2@redis:6379/0")
    'redis://:***@redis:6379/0'
    """
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return parts._replace(netloc=netloc).geturl()
    return url


class Link:
    """One process's connection to Redis: ``up`` or not, and the way back.

    A component whose Redis command failed with a TRANSIENT error awaits
    :meth:`failed`; the first one starts the reconnection (exponential backoff with
    jitter, ``min_backoff`` to ``max_backoff`` seconds, a PING per attempt), the others
    wait for the same one. Back up, the link compares its marker key: if it is gone, the
    Redis server lost its data (restarted without persistence), and every hook is called
    with ``lost=True`` so that what lived in Redis is written again. Each state change is
    one log line.
    """

    def __init__(
        self,
        redis_: Redis,
        url: str,
        process: str,
        log: logging.Logger,
        *,
        min_backoff: float = 0.05,
        max_backoff: float = 2.0,
    ) -> None:
        self.redis = redis_
        self.url = redacted(url)
        self.process = process
        self.log = log
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.up = False
        self.outages = 0
        self.hooks: list[Callable[[bool], None]] = []
        self._token = secrets.token_hex(8)
        self._recovering: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, url: str, process: str, log: logging.Logger) -> Link:
        """A link to Redis at ``url`` for ``process``, connected (:meth:`start`); when Redis
        cannot be reached, ConnectionError saying so (the password left out of the address)."""
        r = client(url)
        link = cls(r, url, process, log)
        try:
            await link.start()
        except Exception as e:  # refused, timed out, wrong password, ...
            await r.aclose()
            raise ConnectionError(f"cannot reach Redis at {redacted(url)}: {type(e).__name__}: {e}") from e
        return link

    async def start(self, timeout: float = 5.0) -> None:
        """Connect for the first time (raises on failure: the caller reports it and exits)."""
        async with asyncio.timeout(timeout):
            await self.redis.ping()
            await self.redis.set(alive_key(self.process), self._token)
        self.up = True
        self.log.info("redis: connected to %s as %s", self.url, self.process)

    def mark_down(self, exc: BaseException) -> None:
        """Note that Redis failed (one log line per outage)."""
        if self.up:
            self.up = False
            self.outages += 1
            self.log.warning("redis: connection lost (%s: %s); reconnecting with backoff", type(exc).__name__, exc)

    async def failed(self, exc: BaseException) -> None:
        """A command failed with ``exc`` (TRANSIENT): return when Redis answers again."""
        if self._recovering is None or self._recovering.done():
            self.mark_down(exc)
            self._recovering = asyncio.create_task(self._recover(), name="redis-reconnect")
        await asyncio.shield(self._recovering)

    async def _recover(self) -> None:
        t0 = time.monotonic()
        delay = self.min_backoff
        attempts = 0
        next_note = t0 + 10.0
        while True:
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            attempts += 1
            try:
                async with asyncio.timeout(3.0):
                    await self.redis.ping()
                    lost = await self.redis.get(alive_key(self.process)) != self._token.encode()
                    if lost:
                        await self.redis.set(alive_key(self.process), self._token)
                break
            except NOT_BACK as e:
                delay = min(delay * 2, self.max_backoff)
                if time.monotonic() >= next_note:
                    next_note = time.monotonic() + 10.0
                    self.log.warning(
                        "redis: still unreachable after %.0f s and %d attempts (%s)", time.monotonic() - t0, attempts, e
                    )
        for hook in self.hooks:
            hook(lost)
        self.up = True
        self.log.info(
            "redis: reconnected to %s after %.1f s (%d attempts)%s",
            self.url,
            time.monotonic() - t0,
            attempts,
            "; its data was lost (restarted without persistence): writing ours again" if lost else "",
        )

    async def close(self) -> None:
        if self._recovering is not None:
            self._recovering.cancel()
        with contextlib.suppress(TimeoutError):  # a connection stuck as cancel_all says
            async with asyncio.timeout(CANCEL_WAIT):
                await self.redis.aclose()


StreamReply = list[tuple[Any, list[tuple[Any, Any]]]]
"""An XREAD / XREADGROUP reply: ``[(stream, [(entry id, field map), ...]), ...]``."""


def stream_entries(reply: Any) -> StreamReply:
    """A stream read's reply (redis-py gives it no type; nil when the read timed out) as a list."""
    return list(reply or [])


def entry_data(fields: Any) -> bytes | None:
    """The frame bytes of a stream entry's field map (None when it has none)."""
    if not isinstance(fields, dict):
        return None
    v = fields.get(FIELD)
    return v if isinstance(v, bytes) else None


CANCEL_WAIT = 2.0  # seconds a bus waits for its cancelled tasks, or a client for its close


async def cancel_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel a bus's background tasks and wait until they have stopped, at most
    :data:`CANCEL_WAIT` seconds; empties ``tasks``. (A blocking XREAD cancelled in flight now and
    then never ended inside redis-py: `paiju serve` did not exit on SIGTERM, 1 time in 4.)"""
    for t in tasks:
        t.cancel()
    if tasks:
        _, stuck = await asyncio.wait(tasks, timeout=CANCEL_WAIT)
        for t in stuck:
            logging.getLogger("paiju.bus").warning(
                "task %s did not end within %g s of its cancellation", t.get_name(), CANCEL_WAIT
            )
    for t in tasks:
        if t.done() and not t.cancelled():
            t.exception()  # retrieved: its failure does not outlive the bus
    tasks.clear()
