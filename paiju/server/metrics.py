"""The server's Prometheus metrics, all defined here (``GET /metrics`` serves them).

The rooms, the lobby and the connections report through the small functions below, each
called from one line of theirs; what is a count of live things (connections, rooms by game
and state, players) is read from the servers at scrape time instead, so it can never drift.
The per-frame counts (frames and bytes in and out, socket writes) and the per-action ones
(actions applied, requests to robots, and the two latency histograms) are plain integers
added to on the hot path and read by the same collector at scrape time: a locked
prometheus_client Counter or Histogram there cost a few % of the server's time under load.
docs/operations.md lists every metric and what it means.
"""

from __future__ import annotations

import itertools
import time
import weakref
from bisect import bisect_left
from collections import Counter as Tally
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from paiju import games
from paiju.protocol import ErrorCode


class _Lobby(Protocol):
    """What the gauges read of a server (paiju.server.app.Server; not imported: no cycle)."""

    @property
    def connections(self) -> Mapping[Any, Any]: ...
    @property
    def rooms(self) -> Mapping[str, Any]: ...
    @property
    def players(self) -> Mapping[str, Any]: ...


# Latency buckets in seconds: sub-millisecond to a few seconds (a mahjong clock is 3 s).
_FAST = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
_ROBOT = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


class _Tally:
    """A counter by game: a plain dict added to on the hot path, exported at scrape time
    (a prometheus_client Counter takes a lock on every inc: a few % of a busy server)."""

    def __init__(self, name: str, doc: str) -> None:
        self.name, self.doc = name, doc
        self.counts: dict[str, int] = {}

    def add(self, game: str) -> None:
        counts = self.counts
        counts[game] = counts.get(game, 0) + 1

    def family(self) -> CounterMetricFamily:
        f = CounterMetricFamily(self.name, self.doc, labels=["game"])
        for game, n in sorted(self.counts.items()):
            f.add_metric([game], n)
        return f


class _Times:
    """A histogram of seconds by game, kept the same way: one bucket count and the sum."""

    def __init__(self, name: str, doc: str, bounds: tuple[float, ...]) -> None:
        self.name, self.doc, self.bounds = name, doc, bounds
        self.series: dict[str, tuple[list[int], list[float]]] = {}

    def observe(self, game: str, seconds: float) -> None:
        s = self.series.get(game)
        if s is None:
            s = self.series[game] = ([0] * (len(self.bounds) + 1), [0.0])
        s[0][bisect_left(self.bounds, seconds)] += 1  # the first bucket whose bound is >= seconds
        s[1][0] += seconds

    def family(self) -> HistogramMetricFamily:
        f = HistogramMetricFamily(self.name, self.doc, labels=["game"])
        for game, (counts, total) in sorted(self.series.items()):
            running = list(itertools.accumulate(counts))
            les = [*map(floatToGoString, self.bounds), "+Inf"]
            f.add_metric([game], list(zip(les, running, strict=True)), total[0])
        return f


ERRORS = Counter("paiju_errors", "ERROR frames sent to clients, by error code name", ["code"])
ACTIONS = _Tally("paiju_actions_applied", "Actions applied to games (people, robots and clocks), by game")
ACTION_LATENCY = _Times(
    "paiju_action_broadcast_seconds",
    "From a client's ACTION read off its socket to every frame it causes queued for sending, by game",
    _FAST,
)
BUS_REQUESTS = _Tally("paiju_bus_requests", "Decision requests published for robot seats, by game")
ROBOT_LATENCY = _Times(
    "paiju_robot_decision_seconds",
    "From a robot seat's prompt to its decision applied, seen by the room (bus and robot), by game",
    _ROBOT,
)
RECORD_WAITS = _Times(
    "paiju_result_record_wait_seconds",
    "From a hand's end to its record committed in the database: how long its RESULT waited, by game",
    _ROBOT,
)
CLOCK_DEFAULTS = Counter(
    "paiju_clock_default_actions",
    "Default actions played because a prompt's clock ran out, by game and who held the seat "
    "(player=robot: robot timeouts)",
    ["game", "player"],
)
RESUMES = Counter(
    "paiju_resumes", "HELLOs with a resume token of a player in a room, or in one that ended while it was away"
)

# frames in, bytes in, frames out, bytes out, socket writes (this process, since it started)
_WIRE = [0, 0, 0, 0, 0]


def received(data: bytes | str) -> float:
    """A WebSocket message came in; returns the time (``time.perf_counter``) it did."""
    _WIRE[0] += 1
    _WIRE[1] += len(data)
    return time.perf_counter()


def sent(frames: list[bytes]) -> None:
    """These frames went out to a socket, in one write."""
    _WIRE[2] += len(frames)
    _WIRE[3] += sum(map(len, frames))
    _WIRE[4] += 1


def error(code: int) -> None:
    """An ERROR frame was sent."""
    try:
        name = ErrorCode(code).name
    except ValueError:
        name = str(code)
    ERRORS.labels(name).inc()


def record_wait(game: str, seconds: float) -> None:
    """A RESULT waited ``seconds`` for its hand's record (paiju/server/room.py)."""
    RECORD_WAITS.observe(game, seconds)


def action_latency(game: str, seconds: float) -> None:
    ACTION_LATENCY.observe(game, seconds)


class TableCounts:
    """The tables' observer (:class:`paiju.core.table.Observer`): what they count goes here."""

    def applied(self, game: str) -> None:
        ACTIONS.add(game)

    def requested(self, game: str) -> None:
        BUS_REQUESTS.add(game)

    def robot_latency(self, game: str, seconds: float) -> None:
        ROBOT_LATENCY.observe(game, seconds)

    def clock_default(self, game: str, robot: bool) -> None:
        CLOCK_DEFAULTS.labels(game, "robot" if robot else "human").inc()


TABLES = TableCounts()


def resumed() -> None:
    RESUMES.inc()


class _Live(Collector):
    """What is read at scrape time: the wire counts, and gauges of the live servers."""

    def __init__(self) -> None:
        self.servers: weakref.WeakSet[_Lobby] = weakref.WeakSet()

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily | HistogramMetricFamily]:
        frames = CounterMetricFamily(
            "paiju_frames", "WebSocket frames, by direction (in: from clients, out: to clients)", labels=["direction"]
        )
        size = CounterMetricFamily("paiju_frame_bytes", "Payload bytes of those frames", labels=["direction"])
        frames.add_metric(["in"], _WIRE[0])
        size.add_metric(["in"], _WIRE[1])
        frames.add_metric(["out"], _WIRE[2])
        size.add_metric(["out"], _WIRE[3])
        yield frames
        yield size
        for hot in (ACTIONS, ACTION_LATENCY, BUS_REQUESTS, ROBOT_LATENCY, RECORD_WAITS):
            yield hot.family()
        yield CounterMetricFamily(
            "paiju_socket_writes", "Writes handed to the sockets (each carries one or more frames out)", value=_WIRE[4]
        )
        servers = list(self.servers)
        yield GaugeMetricFamily(
            "paiju_connections", "Open WebSocket connections", value=sum(len(s.connections) for s in servers)
        )
        rooms = GaugeMetricFamily(
            "paiju_rooms", "Rooms held, by game and state (waiting, playing, over)", labels=["game", "state"]
        )
        by: Tally[tuple[str, str]] = Tally(
            (r.table.game_name, r.table.phase.value) for s in servers for r in s.rooms.values()
        )
        for game in games.names():  # every series always there (0 is not the same as absent)
            for state in ("waiting", "playing", "over"):
                rooms.add_metric([game, state], by[game, state])
        yield rooms
        players = GaugeMetricFamily(
            "paiju_players",
            "Players known to the server, by where they are (seated, watching, lobby: connected in no room)",
            labels=["where"],
        )
        where: Tally[str] = Tally()
        for s in servers:
            for p in s.players.values():
                if p.room is not None:
                    where["seated" if p.seat is not None else "watching"] += 1
                elif p.conn is not None:
                    where["lobby"] += 1
        for w in ("seated", "watching", "lobby"):
            players.add_metric([w], where[w])
        yield players


_LIVE = _Live()
REGISTRY.register(_LIVE)


def watch(server: _Lobby) -> None:
    """Count ``server``'s connections, rooms and players in the gauges (until it is gone)."""
    _LIVE.servers.add(server)


def exposition() -> tuple[bytes, str]:
    """The body and content type of ``GET /metrics``: every metric of this process (the
    process collector's CPU and memory included, and the robot workers' when they run here)."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
