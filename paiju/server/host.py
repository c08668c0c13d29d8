"""The rooms this node hosts: opened for the lobby, rebuilt from their logs (after a restart,
or taken over from a node that died), closed and evicted, with the robots' decisions routed
to them from the bus. :class:`RoomHost` is what paiju/server/directory.py's ``Host`` names:
the other nodes (paiju/server/cluster.py) reach this node's rooms only through it.

A room's table is the lobby's to create (``Open``); each room is then run by its
:class:`~paiju.server.room.Room`, and what it says of its players (``Bound``, ``Unbound``,
``Rematched``) and its end (``RoomClosed``) go back to the lobby through ``tell``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from paiju import games
from paiju.bus.memory import RoomBus
from paiju.core import table
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.lobby import Evict, Lobby, LobbyIn, RoomClosed
from paiju.core.roomlog import LogError, Replayed, replay
from paiju.protocol import SeatKind
from paiju.records import Database, matches
from paiju.records.recorder import Recorder
from paiju.server import metrics, recording
from paiju.server.recording import Follower, RobotLabel
from paiju.server.replays import Replays
from paiju.server.room import RECORD_WAIT, Extras, Room
from paiju.server.runner import loop_time
from paiju.server.storage import Journal, RoomStore

log = logging.getLogger("paiju.server")


class RoomHost:
    """``RoomHost(lobby, tell, bus, limits)``: the rooms of ``lobby`` (its ``rooms``, which it
    adds them to), telling it through ``tell`` what they say; with a ``store`` (Redis) each
    room keeps its log there, with a ``recorder`` its hands and matches go to the records
    (``database``), ``extras`` works out what a RESULT's detail adds, ``replays`` keeps the
    finished hands."""

    def __init__(
        self,
        lobby: Lobby[Room],
        tell: Callable[[LobbyIn], None],
        bus: RoomBus,
        limits: Limits,
        *,
        replays: Replays,
        robot_label: RobotLabel,
        store: RoomStore | None = None,
        database: Database | None = None,
        recorder: Recorder | None = None,
        extras: Extras | None = None,
    ) -> None:
        self.lobby = lobby
        self.tell = tell
        self.bus = bus
        self.limits = limits
        self.replays = replays
        self.robot_label = robot_label
        self.store = store
        self.database = database
        self.recorder = recorder
        self.extras = extras
        self._ending: set[Room] = set()  # closed rooms whose last frames wait for their records

    def __repr__(self) -> str:
        return f"<RoomHost {len(self.lobby.rooms)} rooms>"

    # the directory's view of this node (paiju/server/directory.py's Host)
    def room(self, rid: str) -> Room | None:
        """Room ``rid`` when this node holds it."""
        return self.lobby.rooms.get(rid)

    def room_ids(self) -> list[str]:
        """The rooms this node holds."""
        return list(self.lobby.rooms)

    def evict(self, rid: str, why: str) -> None:
        """Room ``rid`` stops here (another node has it now): its players' connections close
        with ``why`` (they resume there)."""
        room = self.lobby.rooms.get(rid)
        if room is not None:
            room.stop()
        self.tell(Evict(rid, why))

    async def route_decisions(self) -> None:
        """Hand each robot's decision on the bus to its room (forever)."""
        while True:
            d = await self.bus.receive()
            room = self.lobby.rooms.get(d.room)
            if room is not None:
                room.feed(table.Decide(d.seat, d.prompt_id, games.GameAction(d.code, d.cards)))

    def stop(self) -> None:
        """Every room stops (the server closes)."""
        for room in list(self.lobby.rooms.values()):
            room.stop()

    async def sent(self) -> None:
        """Wait (at most :data:`RECORD_WAIT`) until the closed rooms' last frames, which wait
        for their hands' records, have gone out: their players hear the end."""
        ending = [r.sent(RECORD_WAIT) for r in self._ending if r.holding]
        if ending:
            await asyncio.gather(*ending)

    def open(self, t: table.Table) -> Room:
        """The room of new table ``t`` (the lobby's ``Open``), its log begun."""
        room = self._open(t, self.store.open(t.id) if self.store is not None else None)
        if room.journal is not None:
            room.journal.append(t.head())
        return room

    async def restore(self) -> list[Room]:
        """Rebuild the rooms in play that this server process owned, from their logs."""
        if self.store is None:
            return []
        rebuilt = []
        for rid, entries in await self.store.load():
            room = await self.rebuild(rid, entries)
            if room is not None:
                rebuilt.append(room)
        return rebuilt

    async def rebuild(self, rid: str, entries: list[bytes], *, waiting: bool = False) -> Room | None:
        """Room ``rid`` rebuilt from its log ``entries`` at the same event sequence number
        (after a restart, or taken over from a node that died); None when it is not rebuilt
        (then it is dropped from the index and its log expires). ``waiting``: a room whose
        match has not started is rebuilt too (taken over: its players are still waiting)."""
        assert self.store is not None
        try:
            r = replay(rid, entries)
        except LogError as e:
            log.error("room %s not rebuilt: %s", rid, e)
            await self.store.forget(rid)
            await self.abandon(rid)
            return None
        why = None if waiting and r.phase is Phase.WAITING else _not_rebuilt(r)
        if why is not None:
            log.info("room %s (%s) not rebuilt: %s", rid, r.game_name, why)
            await self.store.forget(rid)
            if r.phase is not Phase.WAITING:  # (over: its end may not be in the records)
                await self.abandon(rid)
            return None
        now = loop_time()
        t = table.Table.restore(
            r,
            limits=self.limits,
            reply_to=self.bus.server_id,
            now=now,
            epoch=time.time() - now,
            observer=metrics.TABLES,
            roster=self.bus,
        )
        follower = None
        if self.recorder is not None:
            follower = Follower.restored(self.recorder, r, self.lobby.players, self.robot_label)
            if self.database is not None:
                await recording.recover(follower, r, self.database, self.extras)
        room = self._open(t, self.store.open(rid, entries), follower)
        room.feed(table.Restored())
        log.info(
            "room %s (%s) rebuilt from its log at seq %d, hand %d, %d actions replayed",
            rid,
            r.game_name,
            r.seq,
            r.hand,
            r.actions,
        )
        return room

    async def abandon(self, rid: str | None) -> None:
        """Close as abandoned the matches left playing by room ``rid`` (None: every room),
        which will never go on, keeping their hands."""
        if self.database is None:
            return
        try:
            n = await matches.abandon_playing(self.database, rid)
        except Exception as e:  # the records are not the game: the server goes on
            log.error("matches left playing not closed: %s: %s", type(e).__name__, e)
            return
        if n:
            where = f"room {rid}" if rid else "a server that stopped"
            log.warning("%d match%s left playing by %s closed as abandoned", n, "es" * (n != 1), where)

    def _open(self, t: table.Table, journal: Journal | None, follower: Follower | None = None) -> Room:
        if follower is None and self.recorder is not None:
            follower = Follower(self.recorder, t.id, t.head(), self.lobby.players, self.robot_label)
        room = Room(
            t,
            bus=self.bus,
            tell=self.tell,
            on_close=self._closed,
            journal=journal,
            follower=follower,
            replays=self.replays,
            extras=self.extras,
            on_rematch=self._rematch,
        )
        self.lobby.add(room)
        return room

    def _rematch(self, room: Room, o: table.Rematched) -> None:
        """Every human at the room's table accepted a rematch: the lobby opens the new match."""
        self.tell(o)

    def _closed(self, room: Room) -> None:
        self._ending = {r for r in self._ending if r.holding}
        if room.holding:
            self._ending.add(room)
        if isinstance(room.follower, Follower):
            room.follower.closed()  # a match that did not reach its end is recorded as abandoned
        if self.lobby.rooms.get(room.id) is room:
            self.tell(RoomClosed(room.id))


def _not_rebuilt(r: Replayed) -> str | None:
    """Why the room of log ``r`` is not rebuilt after a restart (None: it is). A room whose
    match is over is rebuilt too: its log is sealed only once its last frames went out, so
    its players may not have heard the end (they hear it when they resume)."""
    if r.phase is Phase.WAITING:
        return "its match had not started"
    if not any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in r.seats) and not r.watchers:
        return "nobody holds a seat or watches"
    return None
