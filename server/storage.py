"""Room logs in Redis, and the replay that rebuilds a room from its log.

A room is ``(seed, rules, [(seat, action)...])`` (DESIGN.md §3): with ``paiju serve --redis``
each room appends its log to the Redis list ``paiju:room:{id}:log`` as it plays, and the
hash ``paiju:rooms`` names the server process that owns each room in play. When that
process is killed and started again (same ``--server-id``), :meth:`RoomStore.load` reads
the logs of its rooms and :func:`replay` rebuilds each one: the game of the current hand
with every action applied in order, the seats and their players (so that resume tokens
work), the running totals, the event sequence number and the last events (so that a
client that resumes with its ``last_seq`` gets exactly what it missed).

The log entries (msgpack arrays; the first is always ``room``)::

    ["room", 1, game, ruleset, seed, hands, clock_ms, robot, private, quickplay, created, options]
    ["seats", [[kind, player_id|nil, name|nil, robot_played], ...]]   after each SEAT/ROBOT event
    ["hand", h]                                   hand h is dealt: create(game, seed, ruleset, hand=h)
    ["act", seat, code, cards, prompt_id]         an action applied (by a person, a robot or the clock)
    ["ev", seq, code, seat|nil, cards, arg, visible_to|nil, result|nil]   an event, as emitted

``options`` (a map, absent in older logs) holds the options of the room's rules that differ from
those of the named ruleset (:func:`rules_options`): a bridge room's deals loaded from PBN, so
that the room rebuilt after a restart plays the same boards.

The log holds every private card (covered cards, hands, draws): it is for the server only
and never goes to a client (clients get ``Event.seen_by(seat)`` of the ``ev`` entries).

Writes are asynchronous and in order: a writer task sends each room's new entries with
RPUSH in one MULTI/EXEC; a room waits (:meth:`Journal.sync`, bounded) for its entries to be
written before it sends the frames of a message to the clients, so no client ever sees an
event that a restart would forget. While Redis is unreachable rooms do not wait; the
entries stay in memory and are written when it comes back (the whole log again if Redis
lost its data, or if a length check shows a partial write).

>>> import games
>>> g = games.create("tricks", 5)
>>> s = g.to_act()[0]
>>> a = g.legal(s).options[0]
>>> log = [pack(["room", 1, "tricks", g.rules.name, 5, 1, 1000, "random", False, False, 0.0]),
...        pack(["hand", 0]), pack(["act", s, a.code, a.cards[: a.pick], 1])]
>>> r = replay("r1", log)
>>> (r.status, r.hand, r.actions, r.prompt_id), r.game.to_act() != [s] or r.game.legal(s) != g.legal(s)
(('playing', 0, 1, 1), True)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from dataclasses import dataclass, field
from typing import Any

import msgpack
import redis.exceptions

import games
from games import Action, Game, GameError, Rules
from games import Event as GameEvent
from protocol import Result, RoomEvent, decode, encode
from redisbus.link import ROOMS, TRANSIENT, Link, room_log

log = logging.getLogger("paiju.server")
VERSION = 1


def pack(entry: list[Any]) -> bytes:
    data: bytes = msgpack.packb(entry, use_bin_type=True)
    return data


def unpack(data: bytes) -> list[Any]:
    v = msgpack.unpackb(data, raw=False, strict_map_key=False)
    if not isinstance(v, list) or not v or not isinstance(v[0], str):
        raise LogError(f"not a log entry: {data[:40]!r}")
    return v


def event_entry(seq: int, ev: GameEvent, result: Result | None) -> list[Any]:
    vis = sorted(ev.visible_to) if ev.visible_to is not None else None
    return ["ev", seq, ev.code, ev.seat, bytes(ev.cards), ev.arg, vis, encode(result) if result is not None else None]


def rules_options(game: str, rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that its named ruleset does not already give (msgpack-ready:
    tuples become lists); :func:`rules_from` turns them back into the same rules.

    >>> from games.bridge.pbn import rules_from_pbn
    >>> r = rules_from_pbn('[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]')
    >>> opts = rules_options("bridge", r)
    >>> opts["deals"][0][:12], rules_from("bridge", r.name, opts) == r, rules_options("bridge", r.__class__())
    ('1 N None N:A', True, {})
    """
    base = games.get(game).ruleset(rules.name)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        v = getattr(rules, f.name)
        if f.name != "name" and v != getattr(base, f.name):
            out[f.name] = _plain(v)
    return out


def rules_from(game: str, ruleset: str, options: dict[str, Any] | None) -> Rules:
    """The rules a log's head describes: the named ruleset with ``options`` (lists as tuples)."""
    rules: Rules = games.get(game).ruleset(ruleset, **{k: _frozen(v) for k, v in (options or {}).items()})
    return rules


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, (tuple, list)) else v


def _frozen(v: Any) -> Any:
    return tuple(_frozen(x) for x in v) if isinstance(v, list) else v


class LogError(Exception):
    """A log that cannot be replayed (malformed, or an action the rules refuse)."""


@dataclass
class Replayed:
    """A room as its log leaves it."""

    room_id: str
    game_name: str
    ruleset: str
    seed: int
    hands: int
    clock_ms: int
    robot: str
    private: bool
    quickplay: bool
    created: float
    game: Game[Any]
    rules: Rules
    seats: list[tuple[int, str | None, str | None, bool]] = field(default_factory=list)
    status: str = "waiting"  # waiting | playing | over
    hand: int = 0  # the hand in play, or the next one after a HAND_END
    seq: int = 0
    totals: list[int] = field(default_factory=list)
    events: list[tuple[int, GameEvent, Result | None]] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    prompt_id: int = 0  # the highest prompt id in the log
    actions: int = 0

    @property
    def between_hands(self) -> bool:
        """The last hand ended and the next one is not dealt yet."""
        return self.status == "playing" and self.game.is_over and bool(self.results) and not self.results[-1].final


def replay(room_id: str, entries: list[bytes]) -> Replayed:
    """Rebuild the state of room ``room_id`` from its log (LogError if it cannot be)."""
    if not entries:
        raise LogError(f"room {room_id}: empty log")
    head = unpack(entries[0])
    if head[0] != "room" or len(head) < 11 or head[1] != VERSION:
        raise LogError(f"room {room_id}: the log does not start with a room entry of version {VERSION}")
    _, _, game_name, ruleset, seed, hands, clock_ms, robot, private, quickplay, created = head[:11]
    options = head[11] if len(head) > 11 else None
    try:
        rules = rules_from(game_name, ruleset, options)
        g = games.create(game_name, seed, rules, hand=0)
    except (KeyError, ValueError, TypeError) as err:
        raise LogError(f"room {room_id}: {err}") from None
    r = Replayed(room_id, game_name, ruleset, seed, hands, clock_ms, robot, private, quickplay, created, g, rules)
    r.totals = [0] * g.num_seats
    for i, data in enumerate(entries[1:], 1):
        e = unpack(data)
        kind = e[0]
        try:
            if kind == "seats":
                r.seats = [(int(k), pid, name, bool(rb)) for k, pid, name, rb in e[1]]
            elif kind == "hand":
                r.hand = int(e[1])
                r.game = games.create(game_name, seed, rules, hand=r.hand)
                r.status = "playing"
            elif kind == "act":
                _, seat, code, cards, pid = e
                r.game.apply(seat, Action(code, bytes(cards)))
                r.actions += 1
                r.prompt_id = max(r.prompt_id, int(pid))
            elif kind == "ev":
                _, seq, code, seat, cards, arg, vis, res = e
                ev = GameEvent(code, seat, bytes(cards), arg, frozenset(vis) if vis is not None else None)
                result = decode(res) if res is not None else None
                if result is not None and not isinstance(result, Result):
                    raise LogError(f"room {room_id}: entry {i} carries a {type(result).__name__}, not a RESULT")
                if seq != r.seq + 1:
                    raise LogError(f"room {room_id}: entry {i} has seq {seq} after {r.seq}")
                r.seq = seq
                r.events.append((seq, ev, result))
                if code == RoomEvent.TIMEOUT:
                    r.prompt_id = max(r.prompt_id, int(arg))
                elif code == RoomEvent.HAND_END and result is not None:
                    r.results.append(result)
                    r.totals = list(result.totals)
                    r.hand = int(arg) + 1
                elif code == RoomEvent.MATCH_END:
                    r.status = "over"
            else:
                raise LogError(f"room {room_id}: entry {i} is of unknown kind {kind!r}")
        except GameError as err:
            raise LogError(f"room {room_id}: entry {i} is refused by the rules: {err}") from None
        except (ValueError, TypeError) as err:
            raise LogError(f"room {room_id}: entry {i} is malformed: {err}") from None
    return r


class Journal:
    """One room's log: every entry is kept in memory (so that it can be written again if
    Redis loses it) until the room ends and its last entries are written."""

    def __init__(self, store: RoomStore, room_id: str, entries: list[bytes] | None = None) -> None:
        self.store = store
        self.room_id = room_id
        self.entries: list[bytes] = list(entries or [])
        self.written = len(self.entries)  # confirmed in Redis
        self.indexed = entries is not None
        self.rewrite = False
        self.closing = False

    def append(self, entry: list[Any]) -> None:
        if not self.closing:
            self.entries.append(pack(entry))
            self.store._mark(self)

    async def sync(self, timeout: float = 1.0) -> None:
        """Wait until every entry appended so far is in Redis (not while Redis is away,
        and not longer than ``timeout``: the rooms never stall on storage)."""
        await self.store._wait(self, len(self.entries), timeout)

    def close(self) -> None:
        """The room ended: drop it from the index; its log expires after the store's TTL."""
        self.closing = True
        self.store._mark(self)


class RoomStore:
    """The room logs of the server process ``server_id`` in Redis."""

    def __init__(self, link: Link, server_id: str, *, log_ttl: int = 3_600) -> None:
        self.link = link
        self.redis = link.redis
        self.server_id = server_id
        self.log_ttl = log_ttl
        self.journals: dict[str, Journal] = {}
        self._dirty: dict[str, Journal] = {}
        self._wake = asyncio.Event()
        self._flushed = asyncio.Condition()
        self._verify = False
        self._task: asyncio.Task[None] | None = None
        self.writes = 0
        link.hooks.append(self._reconnected)

    def open(self, room_id: str, entries: list[bytes] | None = None) -> Journal:
        j = self.journals[room_id] = Journal(self, room_id, entries)
        return j

    def start(self) -> None:
        self._task = asyncio.create_task(self._write_loop(), name="room-logs")

    async def close(self, timeout: float = 3.0) -> None:
        """Write what is pending (bounded by ``timeout``), then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._dirty and self.link.up:
                    async with self._flushed:
                        await self._flushed.wait()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    async def load(self) -> list[tuple[str, list[bytes]]]:
        """The logs of the rooms this server owns, read from Redis."""
        owners = await self.redis.hgetall(ROOMS)
        out = []
        for rid, owner in sorted(owners.items()):
            if owner.decode() == self.server_id:
                entries = await self.redis.lrange(room_log(rid.decode()), 0, -1)
                out.append((rid.decode(), list(entries)))
        return out

    async def forget(self, room_id: str) -> None:
        """Drop a room that will not be rebuilt from the index (its log expires)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hdel(ROOMS, room_id)
            pipe.expire(room_log(room_id), self.log_ttl)
            await pipe.execute()

    # ------------------------------------------------------------------ internals
    def _mark(self, j: Journal) -> None:
        self._dirty[j.room_id] = j
        self._wake.set()

    async def _wait(self, j: Journal, target: int, timeout: float) -> None:
        if j.written >= target or not self.link.up:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout), self._flushed:
                await self._flushed.wait_for(lambda: j.written >= target or not self.link.up)

    def _reconnected(self, lost: bool) -> None:
        for j in self.journals.values():
            if lost:
                j.rewrite = True
            self._dirty[j.room_id] = j
        self._verify = not lost
        self._wake.set()

    async def _check_lengths(self) -> None:
        js = list(self.journals.values())
        async with self.redis.pipeline(transaction=False) as pipe:
            for j in js:
                pipe.llen(room_log(j.room_id))
            lengths = await pipe.execute()
        for j, n in zip(js, lengths, strict=True):
            if n != j.written:
                log.warning(
                    "room %s: its log has %d entries in Redis, %d expected: writing it again", j.room_id, n, j.written
                )
                j.rewrite = True
                self._dirty[j.room_id] = j

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch = list(self._dirty.values())
            self._dirty.clear()
            try:
                if self._verify:
                    await self._check_lengths()
                    self._verify = False
                    batch = list({j.room_id: j for j in [*batch, *self._dirty.values()]}.values())
                    self._dirty.clear()
                if not batch:
                    continue
                plan = []
                async with self.redis.pipeline(transaction=True) as pipe:
                    for j in batch:
                        key = room_log(j.room_id)
                        n = len(j.entries)
                        start = 0 if j.rewrite else j.written
                        if j.rewrite:
                            pipe.delete(key)
                        if n > start:
                            pipe.rpush(key, *j.entries[start:n])
                        if j.closing:
                            pipe.hdel(ROOMS, j.room_id)
                            pipe.expire(key, self.log_ttl)
                        elif not j.indexed or j.rewrite:
                            pipe.hset(ROOMS, j.room_id, self.server_id)
                        plan.append((j, n))
                    await pipe.execute()
                self.writes += 1
                for j, n in plan:
                    j.written, j.rewrite, j.indexed = n, False, True
                    if j.closing and self.journals.get(j.room_id) is j:
                        del self.journals[j.room_id]
                async with self._flushed:
                    self._flushed.notify_all()
            except TRANSIENT as e:
                for j in batch:
                    self._dirty.setdefault(j.room_id, j)
                self.link.mark_down(e)
                async with self._flushed:
                    self._flushed.notify_all()  # waiting rooms see the link down and go on
                await self.link.failed(e)
                self._wake.set()
            except redis.exceptions.RedisError as e:  # refused (out of memory, ...): try again soon
                for j in batch:
                    self._dirty.setdefault(j.room_id, j)
                log.error("room logs not written (%s); retrying in 1 s", e)
                async with self._flushed:
                    self._flushed.notify_all()
                await asyncio.sleep(1)
                self._wake.set()
