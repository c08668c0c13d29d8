"""The server: the asyncio shell of one process, composed of parts with one job each, and
its start and stop.

- the WebSocket endpoint ``/ws`` (paiju/server/gate.py's :class:`~paiju.server.gate.Gate`): a
  reader per connection that decodes, rate-limits and hands frames to the lobby; each
  connection's writer is its :class:`~paiju.server.connection.Connection`;
- the lobby (paiju/server/lobby.py's :class:`~paiju.server.lobby.LobbyShell`): runs the
  :class:`~paiju.core.lobby.Lobby` core, carries out its outputs and asks the database and the
  other nodes what it asks;
- the rooms (paiju/server/host.py's :class:`~paiju.server.host.RoomHost`): opened, rebuilt
  from their logs, closed, evicted, each run by its :class:`~paiju.server.room.Room`;
- the HTTP side (paiju/server/http.py's :class:`~paiju.server.http.Site`), with ``/healthz``
  and ``/api/games`` answered from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Response

from paiju import games
from paiju.bus.memory import RoomBus
from paiju.core.config import Config
from paiju.core.lobby import Lobby, Player
from paiju.records import Database
from paiju.records.recorder import Recorder
from paiju.server import analyses, discovery, metrics
from paiju.server.connection import Connection
from paiju.server.directory import Directory
from paiju.server.gate import Gate, Reader
from paiju.server.host import RoomHost
from paiju.server.http import WEB_DIR, Site, respond
from paiju.server.keepalive import Keepalive
from paiju.server.lobby import LobbyShell
from paiju.server.recording import RobotLabel, default_label
from paiju.server.replays import Replays
from paiju.server.room import Extras, Room
from paiju.server.runner import loop_time
from paiju.server.storage import RoomStore


class Server:
    """``Server(config, bus).start()``; ``robots(game)`` lists the robot names a room may ask
    for (the wiring in paiju/cli/serve.py passes paiju.bots.registry.names; None accepts any name), and
    ``describe(game)`` gives them with a one-line description each, for the lobby's menus
    (paiju.bots.registry.describe); ``extras(game)`` starts, off the event loop, what a RESULT's
    detail and the records add from a deal (paiju/server/room.py's Extras).

    Its parts: ``lobby`` (the core), ``shell`` (the lobby's shell), ``host`` (the rooms),
    ``gate`` (the connections' readers) and ``site`` (HTTP)."""

    def __init__(
        self,
        config: Config,
        bus: RoomBus,
        robots: Callable[[str], Sequence[str]] | None = None,
        web_dir: Path = WEB_DIR,
        store: RoomStore | None = None,
        database: Database | None = None,
        recorder: Recorder | None = None,
        robot_label: RobotLabel = default_label,
        describe: Callable[[str], Sequence[tuple[str, str]]] | None = None,
        extras: Extras | None = None,
    ) -> None:
        self.config = config
        self.extras = extras  # what the records want worked out from each deal, in processes
        self.describe = describe
        self.replays = Replays()  # finished hands, for /replay/ROOM/HAND
        self.limits = config.limits
        self.bus = bus
        self.store = store  # room logs in Redis (paiju serve --redis), else None
        self.database = database  # accounts, match history, ratings (paiju serve), else None
        self.recorder = recorder  # finished hands and matches go to the database through it
        self.robot_label = robot_label  # a robot's account name, NAME@VERSION
        self.lobby: Lobby[Room] = Lobby(
            config,
            secret=config.secret or secrets.token_bytes(32),
            robots=robots,
            accounts=database is not None,
            epoch=time.time() - loop_time(),
            reply_to=bus.server_id,
            logged=store is not None or recorder is not None,  # the log feeds the records too
            log_events=store is not None,  # the records alone read a hand's actions and end
            taken=lambda rid: store is not None and rid in store.journals,
            observer=metrics.TABLES,
            roster=bus,  # a full room waits for its robots' worker (paiju/bus/roster.py)
        )
        self.host = RoomHost(
            self.lobby,
            lambda msg: self.shell.feed(msg),
            bus,
            self.limits,
            replays=self.replays,
            robot_label=robot_label,
            store=store,
            database=database,
            recorder=recorder,
            extras=extras,
        )
        self.shell = LobbyShell(self.lobby, self.host.open, database)
        self.gate = Gate(self.shell, self.limits)
        self.site = Site(self.health, self.replays, database, web_dir)
        self.site.route("/api/games", self._games)  # discovery (paiju/server/discovery.py, SPEC.md §10.1)
        self.started = time.time()
        self.port = config.port
        self._ws: WsServer | None = None
        self._tasks: list[asyncio.Task[Any]] = []  # the bus's decisions, the keepalive, the analyses
        self.keepalive: Keepalive | None = None
        metrics.watch(self)

    def __repr__(self) -> str:
        return f"<Server port {self.port}: {len(self.lobby.conns)} connections, {len(self.lobby.rooms)} rooms>"

    # what the gauges (paiju/server/metrics.py) and /healthz count
    @property
    def rooms(self) -> dict[str, Room]:
        return self.lobby.rooms

    @property
    def players(self) -> dict[str, Player]:
        return self.lobby.players

    @property
    def connections(self) -> dict[object, Player | None]:
        return self.lobby.conns

    @property
    def cluster(self) -> Directory | None:
        """The other nodes (paiju/server/cluster.py), else None."""
        return self.shell.directory

    @cluster.setter
    def cluster(self, directory: Directory | None) -> None:
        self.shell.directory = directory
        self.lobby.directory = directory is not None

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self.lobby.epoch = time.time() - loop_time()
        if self.database is not None and self.store is None:
            # without room logs no room outlives its process: the matches a killed one left
            # playing are over (with logs, a room not rebuilt closes its own: RoomHost.rebuild)
            await self.host.abandon(None)
        if self.database is not None and self.recorder is not None and self.extras is not None:
            # the analyses a stopped server left pending, finished in the background
            self._tasks.append(asyncio.create_task(analyses.finish(self.database, self.recorder, self.extras)))
        self._ws = await serve(
            self.gate.handler,
            self.config.host,
            self.config.port,
            process_request=self.site,
            create_connection=Reader,
            compression=None,
            max_size=self.limits.max_message,
            max_queue=32,
            write_limit=16 * 1024,  # bytes buffered by websockets before send() waits
            close_timeout=2,
            ping_interval=None,  # one keepalive for all connections instead (paiju/server/keepalive.py)
        )
        sock = next(iter(self._ws.sockets))
        self.port = sock.getsockname()[1]
        self._tasks.append(asyncio.create_task(self.host.route_decisions(), name="decisions"))
        ws = self._ws
        self.keepalive = Keepalive(lambda: ws.connections, self.limits.ping_interval)
        self._tasks.append(asyncio.create_task(self.keepalive.run(), name="keepalive"))

    async def restore(self) -> list[Room]:
        """Rebuild the rooms in play that this server process owned, from their logs (before
        :meth:`start`)."""
        return await self.host.restore()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.shell.runner.stop()
        self.host.stop()
        await self.host.sent()
        for conn in list(self.lobby.conns):  # what lingers goes out before the closing frames
            if isinstance(conn, Connection):
                conn.flush()
        if self._ws is not None:
            self._ws.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.wait_closed(), 5)

    async def serve_forever(self) -> None:
        assert self._ws is not None
        await self._ws.serve_forever()

    # ------------------------------------------------------------------ HTTP
    def health(self) -> dict[str, object]:
        """The body of ``/healthz``."""
        return {
            "ok": True,
            "rooms": len(self.lobby.rooms),
            "connections": len(self.lobby.conns),
            "players": len(self.lobby.players),
            "uptime_s": round(time.time() - self.started, 1),
            "loop": loop_kind(),
            "redis": None if self.store is None else ("up" if self.store.link.up else "down"),
            "games": games.names(),
            "robots": self.robot_menus(),
            "robot_labels": self.robot_labels(),
        }

    def _games(self, connection: ServerConnection, path: str, query: str) -> Response:
        catalogue = discovery.catalogue(
            self.limits, robots=self.robot_menus(), clocks=self.config.clocks, banks=self.config.banks
        )
        return respond(
            connection, HTTPStatus.OK, json.dumps(catalogue, ensure_ascii=False).encode(), "application/json"
        )

    def robot_labels(self) -> dict[str, dict[str, str]]:
        """Each game's robots' names and versions, ``NAME@VERSION``, as the records name them."""
        out: dict[str, dict[str, str]] = {}
        for game, menu in self.robot_menus().items():
            labels = out[game] = {}
            for name, _ in menu:
                try:
                    labels[name] = self.robot_label(game, name)
                except KeyError:  # a robot another worker serves
                    labels[name] = default_label(game, name)
        return out

    def robot_menus(self) -> dict[str, list[tuple[str, str]]]:
        """Each game's robots with their descriptions, strongest (the default) first."""
        return {} if self.describe is None else discovery.menus(self.describe)


def loop_kind() -> str:
    """The running event loop's kind, from the package that defines it: ``uvloop`` or
    ``asyncio`` (paiju/cli/eventloop.py chooses it at start)."""
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]
