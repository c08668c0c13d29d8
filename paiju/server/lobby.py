"""The lobby's shell: runs the :class:`~paiju.core.lobby.Lobby` (sans-I/O: the directory of
players, connections and rooms) on the event loop through a :class:`~paiju.server.runner.Runner`,
carries out its outputs (:meth:`LobbyShell.carry_out`: frames to connections, inputs to rooms,
rooms to open) and asks its questions of the database and the other nodes
(:meth:`LobbyShell.lookup`), whose answers go back to it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from paiju import games
from paiju.core import errors, table
from paiju.core.lobby import (
    Answer,
    CatchUp,
    Checked,
    CloseConn,
    Failed,
    Feed,
    Go,
    Listed,
    Lobby,
    LobbyIn,
    LobbyOut,
    Looked,
    Lookup,
    Open,
    Refuse,
    Send,
    Tick,
)
from paiju.protocol import Account, CreateRoom, Feature, Hello, Join, ListRooms, QuickPlay, Sessions, Welcome
from paiju.records import Database
from paiju.server import identity, metrics
from paiju.server.connection import Connection
from paiju.server.directory import Directory
from paiju.server.room import Room
from paiju.server.runner import Runner


class LobbyShell:
    """``LobbyShell(lobby, open_room, database)``: feeds ``lobby`` (``runner.feed``) and carries
    out its outputs; ``open_room(table)`` makes the room of an ``Open``; ``database`` (or
    None) answers the lookups of accounts and sessions, ``directory`` (the other nodes, set
    by paiju/server/cluster.py; else None) those of rooms."""

    def __init__(self, lobby: Lobby[Room], open_room: Callable[[table.Table], Room], database: Database | None) -> None:
        self.lobby = lobby
        self.open_room = open_room
        self.database = database
        self.directory: Directory | None = None
        # feeds the lobby, carries out its outputs and rings it at its next deadline
        self.runner: Runner[LobbyIn, LobbyOut, list[Lookup]] = Runner(lobby, Tick(), self.carry_out)

    def __repr__(self) -> str:
        return f"<LobbyShell {len(self.lobby.players)} players, {len(self.lobby.rooms)} rooms>"

    def feed(self, msg: LobbyIn) -> None:
        """Hand the lobby ``msg`` (a room's, which asks nothing of the database: no lookups)."""
        self.runner.feed(msg)

    def carry_out(self, _msg: LobbyIn, outs: list[LobbyOut]) -> list[Lookup]:
        """Carry out the lobby's outputs (for input ``_msg``), in order; the lookups it asks for
        are returned."""
        lookups = []
        rooms = self.lobby.rooms
        for o in outs:
            if isinstance(o, Feed):  # (the most frequent first: a move is one)
                room = rooms.get(o.room)
                if room is None:
                    continue
                msg = o.input
                room.feed(msg, ref=o.ref)
                if isinstance(msg, table.Reply) and isinstance(msg.conn, Connection):
                    metrics.action_latency(room.table.game_name, time.perf_counter() - msg.conn.received)
                elif isinstance(msg, table.Resume):
                    metrics.resumed()
            elif isinstance(o, Send):
                conn = o.conn
                assert isinstance(conn, Connection)
                if isinstance(o.frame, Welcome):  # what is flushed from now on
                    conn.batch = bool(o.frame.features & Feature.BATCH)
                conn.send(o.frame)
            elif isinstance(o, Refuse):
                conn = o.conn
                assert isinstance(conn, Connection)
                held = rooms.get(o.room) if o.room is not None else None
                if held is not None:
                    held.answer(conn, o.error)
                else:
                    conn.send(o.error)
            elif isinstance(o, Open):
                self.open_room(o.table)
            elif isinstance(o, CatchUp):
                conn = o.conn
                assert isinstance(o.room, Room) and isinstance(conn, Connection)
                metrics.resumed()
                o.room.catch_up(o.player, conn, o.last_seq)
            elif isinstance(o, CloseConn):
                conn = o.conn
                assert isinstance(conn, Connection)
                conn.close(o.code, o.reason)
            else:
                lookups.append(o)
        return lookups

    async def carry(self, msg: LobbyIn) -> None:
        """Feed the lobby ``msg`` and carry out its outputs, the lookups too (their answers go
        back to it)."""
        await self.resolve(self.runner.feed(msg))

    async def resolve(self, lookups: list[Lookup]) -> None:
        """Ask what the lobby asked and hand it the answers (and carry out what it says then)."""
        for lk in lookups:
            try:
                answer = await self.lookup(lk)
            except Exception as e:  # Moved among them: the lobby answers REDIRECT
                answer = Failed(errors.refusal(e, f"lookup for {type(lk.frame).__name__}"))
            await self.carry(Looked(lk.conn, lk.frame, answer))

    async def lookup(self, lk: Lookup) -> Answer:
        """The database's or the other nodes' answer to what the lobby asked."""
        f, d, db = lk.frame, self.directory, self.database
        if isinstance(f, Hello):
            if lk.player is not None and d is not None:
                await d.resume(lk.player)  # Moved: its room is another node's
            return Checked(await identity.check_hello(db, f, lk.account) if db else lk.account or "")
        if isinstance(f, Account):
            assert db is not None
            return await identity.account_op(db, f, lk.session, lk.rank)
        if isinstance(f, Sessions):
            assert db is not None and lk.session is not None
            return await identity.sessions_op(db, f, lk.session)
        assert d is not None
        if isinstance(f, ListRooms):
            return Listed(await d.lobby(f.game))
        if isinstance(f, CreateRoom):
            d.accepting()
        elif isinstance(f, Join):
            await d.locate(f.room)
        elif isinstance(f, QuickPlay):
            await d.quickplay(f.game, games.get(f.game).ruleset(f.ruleset).name)
        return Go()
