"""Several `paiju serve --redis` nodes as one service: the directory, the leases, the takeover
of a dead node's rooms, and the drain (docs/architecture.md, "On Redis: several processes, one service").

Redis is the directory (paiju/bus/link.py lists the keys):

- each node renews a lease ``paiju:node:{id}`` (its URL, its number of rooms, whether it
  drains) every ``lease / 5`` seconds; it expires ``lease`` seconds after the last renewal;
- ``paiju:rooms`` names each room's owner and ``paiju:epochs`` its lease epoch. A node
  appends to a room's log only in a Lua script that checks the epoch it holds against the
  stored one (:class:`ClusterStore`): a node that lost a room (its lease ran out while it
  was stalled, or it handed the room over) is fenced off the log and stops the room;
- ``paiju:lobby`` holds every public room as the lobby lists it, written by its owner;
- ``paiju:seat:{player}`` names the room a player was last seated in, so that a resume
  through any node finds the room.

A request for a room another live node owns is answered with REDIRECT to that node
(:class:`protocol.Moved`); the client follows it. When a node's lease has expired, the
other nodes claim its rooms (compare-and-set on owner and epoch: one node wins each room)
and rebuild them from their logs at the same event sequence number, as a restart does
(:meth:`paiju.server.host.RoomHost.rebuild`); the players resume with their tokens through any node.
Rooms are spread over the survivors by rendezvous hashing; a room its preferred node has
not claimed within half a lease is claimed by any. A resume or a JOIN for a dead node's
room claims it at once.

SIGTERM (:meth:`Cluster.drain`): the node stops taking rooms, hands each room over to the
least loaded live node (the room stops here, its log is complete in Redis, the owner and
epoch change in one step, the players' connections close with 1012 and resume on the new
owner) and exits; with no other node it exits at once, leaving its rooms to a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis.exceptions
from redis.asyncio.client import Pipeline

from paiju.bus.link import EPOCHS, LOBBY, NODES, ROOMS, TRANSIENT, Link, cancel_all, node_key, room_log, seat_key
from paiju.core.lifecycle import Phase
from paiju.core.roomlog import Entry, Seats
from paiju.protocol import ErrorCode, LobbyError, Moved, RoomInfo
from paiju.server.app import Server
from paiju.server.directory import Host
from paiju.server.room import RECORD_WAIT, Room
from paiju.server.storage import Journal, RoomStore

log = logging.getLogger("paiju.cluster")

# KEYS: the room's log, paiju:rooms, paiju:epochs. ARGV: room, epoch, owner, log TTL, flags,
# entries... Flags: c = the room is new here (or Redis lost it): set its epoch if absent;
# r = rewrite the whole log; x = the room ended; i = (re)write the owner. 0: fenced.
APPEND = """
local cur = redis.call('HGET', KEYS[3], ARGV[1])
local flags = ARGV[5]
if cur then
  if tonumber(cur) ~= tonumber(ARGV[2]) then return 0 end
elseif string.find(flags, 'c', 1, true) then
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
else
  return 0
end
if string.find(flags, 'r', 1, true) then redis.call('DEL', KEYS[1]) end
local i = 6
while i <= #ARGV do
  local j = math.min(i + 999, #ARGV)
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, j))
  i = j + 1
end
if string.find(flags, 'x', 1, true) then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
elseif string.find(flags, 'i', 1, true) then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
end
return 1
"""

# KEYS: paiju:rooms, paiju:epochs. ARGV: room, expected owner, expected epoch, new owner.
# The new epoch, or -1 when the room is no longer the expected owner's at that epoch.
CLAIM = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return -1 end
if tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') ~= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
"""

T = TypeVar("T")
UNREACHABLE: tuple[type[BaseException], ...] = (*TRANSIENT, redis.exceptions.RedisError)
LOBBY_EVERY = 0.25  # seconds between two writes of this node's rooms to the lobby


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


class ClusterJournal(Journal):
    """A room's log that also notes the players seated in it (for ``paiju:seat:{player}``)."""

    def __init__(self, store: RoomStore, room_id: str, entries: list[bytes] | None = None) -> None:
        super().__init__(store, room_id, entries)
        self.seated: set[str] = set()

    def append(self, entry: Entry) -> None:
        if self.fenced:
            return
        if isinstance(entry, Seats):
            self.seated.update(s.player for s in entry.seats if s.player is not None)
        super().append(entry)


class ClusterStore(RoomStore):
    """The room logs of one node, each append fenced by the room's lease epoch."""

    def __init__(self, link: Link, server_id: str, *, log_ttl: int = 3_600, seat_ttl: int = 24 * 3600) -> None:
        super().__init__(link, server_id, log_ttl=log_ttl)
        self.seat_ttl = seat_ttl
        self.epochs: dict[str, int] = {}  # room -> the lease epoch this node holds
        self.on_fenced: Callable[[str], None] = lambda room_id: None
        self._slots: dict[str, int] = {}

    def open(self, room_id: str, entries: list[bytes] | None = None) -> Journal:
        j = self.journals[room_id] = ClusterJournal(self, room_id, entries)
        self.epochs.setdefault(room_id, 1)
        return j

    async def load(self) -> list[tuple[str, list[bytes]]]:
        """The rooms this node id owned (a restart), each claimed again under a new epoch,
        so that a process of the same id that is somehow still alive is fenced off."""
        out = []
        for rid, _ in await super().load():
            epoch = await self.claim(rid, self.server_id, self.server_id)
            if epoch > 0:
                out.append((rid, await self.entries(rid)))
        return out

    async def entries(self, room_id: str) -> list[bytes]:
        got = await self.redis.lrange(room_log(room_id), 0, -1)
        return [e if isinstance(e, bytes) else e.encode() for e in got]

    async def claim(self, room_id: str, owner: str, to: str) -> int:
        """Make node ``to`` the owner of a room of ``owner`` under the next epoch (set here
        for its journal); -1 when another node changed its owner or epoch first."""
        epoch = int(await self.redis.hget(EPOCHS, room_id) or 0)
        got = int(await self.redis.eval(CLAIM, 2, ROOMS, EPOCHS, room_id, owner, epoch, to))
        if got > 0 and to == self.server_id:
            self.epochs[room_id] = got
        return got

    def drop(self, room_id: str) -> None:
        """This node no longer writes the room's log (handed over or fenced)."""
        j = self.journals.pop(room_id, None)
        if j is not None:
            j.fenced = True
        self._dirty.pop(room_id, None)
        self.epochs.pop(room_id, None)

    def _queue(self, pipe: Pipeline, j: Journal, n: int) -> None:
        rid = j.room_id
        start = 0 if j.rewrite else j.written
        new = not j.indexed or j.rewrite
        flags = ("c" if new else "") + ("r" if j.rewrite else "") + ("x" if j.closing else "i" if new else "")
        self._slots[rid] = len(pipe.command_stack)
        args: list[bytes | str | int] = [rid, self.epochs.get(rid, 1), self.server_id, self.log_ttl, flags]
        args += j.entries[start:n]
        pipe.eval(APPEND, 3, room_log(rid), ROOMS, EPOCHS, *args)
        if isinstance(j, ClusterJournal) and j.seated:
            for player in j.seated:
                pipe.set(seat_key(player), rid, ex=self.seat_ttl)
            j.seated.clear()

    def _accepted(self, plan: list[tuple[Journal, int]], replies: list[Any]) -> list[tuple[Journal, int]]:
        ok = []
        for j, n in plan:
            slot = self._slots.pop(j.room_id, None)
            if slot is not None and replies[slot] == 0:
                log.warning("room %s: this node's lease epoch is stale: its log is another node's now", j.room_id)
                if self.journals.get(j.room_id) is j:
                    self.drop(j.room_id)
                    self.on_fenced(j.room_id)
                continue
            ok.append((j, n))
        return ok


@dataclass(frozen=True)
class Node:
    """A live node, as its lease describes it."""

    id: str
    url: str
    rooms: int
    draining: bool


class Cluster:
    """This node's part in the service (implements :class:`paiju.server.directory.Directory`)."""

    def __init__(self, server: Server, store: ClusterStore, *, url: str, lease: float = 5.0) -> None:
        self.host: Host = server.host  # this node's rooms, only through paiju/server/directory.py's Host
        self.store = store
        self.link = store.link
        self.redis = store.redis
        self.node = store.server_id
        self.url = url
        self.lease = lease
        self.draining = False
        self.nodes: dict[str, Node] = {}  # the live nodes at the last scan, this one included
        self.orphans: dict[str, float] = {}  # room -> when it was first seen without a live owner
        self.taken = 0  # rooms taken over from dead nodes
        self._published: dict[str, str] = {}
        self._lobby: tuple[float, dict[str, dict[str, Any]]] = (0.0, {})
        self._taking: dict[str, asyncio.Task[Room | None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._renewed = time.monotonic()
        store.on_fenced = self._fenced
        server.cluster = self

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        if await self.redis.exists(node_key(self.node)):
            log.warning(
                "node %s: a process of this id held a lease until just now; this one takes its place", self.node
            )
        await self._renew()
        await self.redis.sadd(NODES, self.node)
        await self.scan()
        self._tasks = [
            asyncio.create_task(self._every(self.lease / 5, self._beat), name="cluster-lease"),
            asyncio.create_task(self._every(LOBBY_EVERY, self.publish), name="cluster-lobby"),
        ]
        log.info("node %s at %s: lease %g s, %d live nodes", self.node, self.url, self.lease, len(self.nodes))

    async def close(self) -> None:
        """Leave the service: no more renewals; the lease and lobby entries are withdrawn."""
        await cancel_all(self._tasks)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.delete(node_key(self.node))
                    if self._published:
                        pipe.hdel(LOBBY, *self._published)
                    await pipe.execute()

    async def _every(self, seconds: float, job: Callable[[], Any]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except TRANSIENT as e:
                await self.link.failed(e)
            except redis.exceptions.RedisError as e:
                log.error("cluster: %s failed: %s", getattr(job, "__name__", job), e)

    async def _beat(self) -> None:
        late = time.monotonic() - self._renewed
        if late > self.lease:  # the others may have taken rooms meanwhile: their logs fence this node off
            log.warning("node %s: lease renewed %.1f s late (lease %g s)", self.node, late, self.lease)
        await self._renew()
        await self.scan()

    async def _renew(self) -> None:
        me = {"url": self.url, "rooms": len(self.host.room_ids()), "draining": self.draining}
        await self.redis.set(node_key(self.node), json.dumps(me), px=int(self.lease * 1000))
        self._renewed = time.monotonic()

    # ------------------------------------------------------------------ the directory
    async def live(self) -> dict[str, Node]:
        """The nodes whose lease runs, by id."""
        ids = sorted(_text(x) for x in await self.redis.smembers(NODES))
        values = await self.redis.mget([node_key(i) for i in ids]) if ids else []
        nodes = {}
        for i, v in zip(ids, values, strict=True):
            if v is not None:
                d = json.loads(v)
                nodes[i] = Node(i, d["url"], int(d["rooms"]), bool(d["draining"]))
        return nodes

    async def scan(self) -> None:
        """Look at every room's owner: claim the rooms of dead nodes (those this node is
        preferred for at once, the others after half a lease) and rebuild the rooms handed
        over to this node."""
        self.nodes = await self.live()
        owners = {_text(k): _text(v) for k, v in (await self.redis.hgetall(ROOMS)).items()}
        now = time.monotonic()
        for rid in [r for r in self.host.room_ids() if owners.get(r, self.node) != self.node]:
            # claimed by another node while this one did not renew its lease (stopped, cut off),
            # unless this node took it over itself since the owners were read
            now_owner = await self.redis.hget(ROOMS, rid)
            if now_owner is not None and _text(now_owner) != self.node and self.host.room(rid) is not None:
                log.warning("room %s: node %s owns it now: it stops here", rid, _text(now_owner))
                self.store.drop(rid)
                self._fenced(rid)
        for rid, owner in owners.items():
            if owner == self.node:
                if self.host.room(rid) is None and rid not in self.store.journals and not self.draining:
                    self._take(rid, owner)  # handed over to this node
                continue
            if owner in self.nodes:
                self.orphans.pop(rid, None)
                continue
            first = self.orphans.setdefault(rid, now)
            if not self.draining and (self._preferred(rid) == self.node or now - first > self.lease / 2):
                self._take(rid, owner)
        for rid in [r for r in self.orphans if r not in owners]:
            del self.orphans[rid]
        gone = {_text(x) for x in await self.redis.smembers(NODES)} - set(self.nodes) - set(owners.values())
        if gone:
            await self.redis.srem(NODES, *gone)

    def _preferred(self, rid: str) -> str | None:
        """The live node that should take room ``rid`` over (rendezvous hashing)."""
        able = [n for n in self.nodes.values() if not n.draining]
        if not able:
            return None
        return max(able, key=lambda n: hashlib.sha1(f"{rid}/{n.id}".encode()).digest()).id

    def _take(self, rid: str, owner: str) -> asyncio.Task[Room | None]:
        task = self._taking.get(rid)
        if task is None:
            task = self._taking[rid] = asyncio.create_task(self._take_over(rid, owner), name=f"take-{rid}")
            task.add_done_callback(lambda _: self._taking.pop(rid, None))
        return task

    async def _take_over(self, rid: str, owner: str) -> Room | None:
        t0 = time.monotonic()
        if owner == self.node:
            self.store.epochs[rid] = int(await self.redis.hget(EPOCHS, rid) or 0)
        elif await self.store.claim(rid, owner, self.node) < 0:
            return None  # another node was first
        room = self.host.room(rid)
        if room is not None:
            return room
        room = await self.host.rebuild(rid, await self.store.entries(rid), waiting=True)
        self.orphans.pop(rid, None)
        if room is None:
            self.store.epochs.pop(rid, None)
            return None
        how = "handed over to this node" if owner == self.node else f"taken over from node {owner}"
        self.taken += owner != self.node
        ms = (time.monotonic() - t0) * 1000
        log.info("room %s %s at seq %d in %.0f ms (epoch %d)", rid, how, room.table.seq, ms, self.store.epochs[rid])
        return room

    # ------------------------------------------------------------------ Directory
    async def lobby(self, game: str | None) -> list[RoomInfo]:
        return await self._or([], self._lobby_rooms(game))

    async def locate(self, room: str) -> Room | None:
        return await self._or(None, self._locate(room))

    async def quickplay(self, game: str, ruleset: str) -> None:
        self.accepting()
        await self._or(None, self._quickplay(game, ruleset))

    async def resume(self, player: str) -> None:
        await self._or(None, self._resume(player))

    async def _or(self, default: T, answer: Awaitable[T]) -> T:
        """The directory's answer; while Redis does not give one, this node's rooms only."""
        try:
            return await answer
        except UNREACHABLE as e:
            log.warning("cluster: no answer from the directory (%s: %s): this node's rooms only", type(e).__name__, e)
            return default

    async def _lobby_rooms(self, game: str | None) -> list[RoomInfo]:
        now = time.monotonic()
        stamp, entries = self._lobby
        if now - stamp > LOBBY_EVERY:
            raw = await self.redis.hgetall(LOBBY)
            entries = {_text(k): json.loads(v) for k, v in raw.items()}
            self._lobby = (now, entries)
        out = []
        for rid, e in entries.items():
            info = RoomInfo(*e["info"])
            mine = self.host.room(rid) is not None or e["owner"] == self.node
            if mine or e.get("private") or info.status == Phase.OVER.value:
                continue
            if game is None or info.game == game:
                out.append(info)
        return out

    def accepting(self) -> None:
        if not self.draining:
            return
        target = self._target()
        if target is None:
            raise LobbyError(ErrorCode.SHUTTING_DOWN, "this node is shutting down and no other node takes rooms")
        raise Moved(target.url)

    async def _locate(self, room: str) -> Room | None:
        here = self.host.room(room)
        if here is not None:
            return here
        owner = await self.redis.hget(ROOMS, room)
        if owner is None:
            return await self._ended(room)
        owner = _text(owner)
        if owner == self.node:
            return None if room in self.store.journals else await self._take(room, owner)
        lease = await self.redis.get(node_key(owner))
        if lease is not None:
            raise Moved(json.loads(lease)["url"], room)
        if self.draining:
            target = self._target()
            if target is None:
                return None
            raise Moved(target.url, room)
        taken = await self._take(room, owner)
        if taken is None:  # another node claimed it first: it is there
            now = await self.redis.hget(ROOMS, room)
            lease = await self.redis.get(node_key(_text(now))) if now is not None else None
            if lease is not None:
                raise Moved(json.loads(lease)["url"], room)
        return taken

    async def _ended(self, room: str) -> Room | None:
        """A room whose match is over (no longer in ``paiju:rooms``) waits on its node for the
        resumes of its dropped players (the missed events, the final RESULT, MATCH_END): Moved
        there while that node lives and the lobby still names it."""
        entry = await self.redis.hget(LOBBY, room)
        owner = json.loads(entry)["owner"] if entry is not None else None
        if owner is None or owner == self.node:
            return self.host.room(room)
        lease = await self.redis.get(node_key(owner))
        if lease is not None:
            raise Moved(json.loads(lease)["url"], room)
        return None

    async def _quickplay(self, game: str, ruleset: str) -> None:
        await self._lobby_rooms(game)
        for rid, e in self._lobby[1].items():
            info = RoomInfo(*e["info"])
            if (
                e.get("quickplay")
                and e["owner"] in self.nodes
                and e["owner"] != self.node
                and self.host.room(rid) is None
                and info.game == game
                and info.ruleset == ruleset
                and info.status == Phase.WAITING.value
                and None in info.seats
            ):
                raise Moved(self.nodes[e["owner"]].url, rid)

    async def _resume(self, player: str) -> None:
        room = await self.redis.get(seat_key(player))
        if room is not None:
            await self._locate(_text(room))

    def _target(self) -> Node | None:
        """The least loaded live node that takes rooms, other than this one."""
        able = [n for n in self.nodes.values() if n.id != self.node and not n.draining]
        return min(able, key=lambda n: (n.rooms, n.id)) if able else None

    # ------------------------------------------------------------------ the lobby
    async def publish(self) -> None:
        """Write this node's rooms to the lobby hash (only what changed; the lobby lists the
        public ones, a resume finds the others there too)."""
        now: dict[str, str] = {}
        for rid in self.host.room_ids():
            room = self.host.room(rid)
            if room is None or room.closed:
                continue
            t = room.table
            info = dataclasses.astuple(t.info())
            entry = {"owner": self.node, "info": info, "quickplay": t.quickplay, "private": t.private}
            now[rid] = json.dumps(entry, separators=(",", ":"))
        changed = {k: v for k, v in now.items() if self._published.get(k) != v}
        gone = [k for k in self._published if k not in now]
        if not changed and not gone:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            if changed:
                pipe.hset(LOBBY, mapping=changed)  # type: ignore[arg-type]
            if gone:
                pipe.hdel(LOBBY, *gone)
            await pipe.execute()
        self._published = now
        # entries of dead nodes whose rooms nobody rebuilt (a match not started, say)
        stale = [k for k, e in self._lobby[1].items() if e["owner"] not in self.nodes and k not in self.orphans]
        if stale and self.nodes:
            owners = await self.redis.hmget(ROOMS, stale)
            dead = [k for k, o in zip(stale, owners, strict=True) if o is None]
            if dead:
                await self.redis.hdel(LOBBY, *dead)

    # ------------------------------------------------------------------ losing rooms
    def _fenced(self, rid: str) -> None:
        """Another node owns room ``rid`` now: stop it here; its players resume there."""
        self.host.evict(rid, "the room moved to another node: resume")

    async def drain(self) -> int:
        """Stop taking rooms and hand every room over to another live node; the number
        handed over (0 with no other node: the rooms stay for a restart to rebuild)."""
        self.draining = True
        log.info("node %s drains: it takes no more rooms", self.node)
        await self._renew()
        self.nodes = await self.live()
        handed = 0
        for rid in self.host.room_ids():
            room = self.host.room(rid)
            if room is None:
                continue
            if room.table.phase is Phase.OVER and await room.sent(RECORD_WAIT):
                continue  # its match is over and its end has gone out: nothing to hand over
            target = self._target()
            if target is None:
                log.warning(
                    "node %s: no other node takes rooms: %d rooms stay for a restart",
                    self.node,
                    len(self.host.room_ids()),
                )
                break
            room.stop()  # its last frames are in the log: the new owner sends them on resume
            if room.journal is not None:
                await room.journal.sync(timeout=5.0)
            epoch = self.store.epochs.get(rid, 0)
            got = int(await self.redis.eval(CLAIM, 2, ROOMS, EPOCHS, rid, self.node, epoch, target.id))
            self.store.drop(rid)
            self.host.evict(rid, "the room moved to another node: resume")
            if got > 0:
                handed += 1
                self.nodes[target.id] = dataclasses.replace(target, rooms=target.rooms + 1)
                log.info("room %s handed over to node %s (epoch %d)", rid, target.id, got)
        await self.publish()
        return handed
