"""What the load generator measures: counts, latency samples and a per-second series.

Every figure is recorded by the one event loop that runs the clients, so there is no
locking. Latencies are kept whole (an ``array`` of float milliseconds: 8 bytes a sample)
so that percentiles are exact; the per-second series keeps only counts and the second's
own percentiles, for the plot.
"""

from __future__ import annotations

import math
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

LATENCIES = ("ack", "next_prompt", "ping")
"""action -> ACK, action -> the room's next prompt, PING -> PONG (milliseconds)."""


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation; NaN when empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    >>> percentile([5.0], 99)
    5.0
    """
    if not sorted_values:
        return math.nan
    k = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def summary(values: Sequence[float]) -> dict[str, float | int]:
    """``{"n", "p50", "p90", "p99", "max"}`` of some millisecond samples (None for an empty set)."""
    s = sorted(values)
    out: dict[str, float | int] = {"n": len(s)}
    for q in (50, 90, 99):
        out[f"p{q}"] = round(percentile(s, q), 3) if s else math.nan
    out["max"] = round(s[-1], 3) if s else math.nan
    return out


@dataclass
class Tick:
    """One second of the run (for the plot and the live display)."""

    t: float  # seconds since the measured window opened (negative during the ramp)
    connections: int
    actions: int
    hands: int
    frames: int
    errors: int
    next_p50: float
    next_p99: float
    ack_p99: float


@dataclass
class Stats:
    """The counters of one run; ``start()`` opens the measured window (after the ramp)."""

    actions: int = 0  # actions acknowledged by the server (ACK)
    sent_actions: int = 0
    hands: int = 0  # RESULT frames, counted once per table
    matches: int = 0
    frames_in: int = 0
    messages_in: int = 0  # WebSocket messages (a batch holds several frames)
    frames_out: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    round_trips: int = 0  # echo mode: messages echoed back
    connections: int = 0  # open now
    peak_connections: int = 0
    connects: int = 0  # over the whole run, ramp included
    connect_failures: int = 0  # (retried: a session connects again until the run stops)
    disconnects: int = 0  # closed by the other side or the network, not by us
    drops: int = 0  # connections we cut on purpose (--drops)
    resumes: int = 0  # sessions resumed with a token after a disconnect or a drop
    errors: Counter[str] = field(default_factory=Counter)  # ERROR frames by code name, and client-side failures
    timeouts: int = 0  # our prompts that the clock answered before our action arrived
    stale: int = 0  # an action that crossed the withdrawal of its prompt (a race every real client sees)
    robot: str | None = None  # the robot the server seated (as its seat names say)
    lat: dict[str, array[float]] = field(default_factory=lambda: {k: array("d") for k in LATENCIES})
    ticks: list[Tick] = field(default_factory=list)
    started: float = 0.0  # perf_counter when the measured window opened
    stopped: float = 0.0
    cpu_started: float = 0.0  # this process's CPU seconds (process_time) when the window opened
    cpu_stopped: float = 0.0
    _mark: dict[str, int] = field(default_factory=dict)

    def start(self) -> None:
        """Open the measured window: what happened during the ramp is forgotten."""
        keep = {
            "connections": self.connections,
            "peak_connections": self.connections,
            "robot": self.robot,
            "connects": self.connects,  # the ramp's connections count: they are the ones made
            "connect_failures": self.connect_failures,
        }
        fresh = Stats()
        for k, v in vars(fresh).items():
            if k not in ("ticks",):
                setattr(self, k, v)
        for k, v in keep.items():
            setattr(self, k, v)
        self.started = time.perf_counter()
        self.cpu_started = time.process_time()

    def stop(self) -> None:
        self.stopped = time.perf_counter()
        self.cpu_stopped = time.process_time()

    @property
    def cpu(self) -> float:
        """The CPU seconds the load generator (this process) used in the measured window."""
        end = self.cpu_stopped or time.process_time()
        return max(end - self.cpu_started, 0.0) if self.started else 0.0

    @property
    def elapsed(self) -> float:
        end = self.stopped or time.perf_counter()
        return max(end - self.started, 1e-9) if self.started else 0.0

    def latency(self, kind: str, ms: float) -> None:
        self.lat[kind].append(ms)

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def connected(self) -> None:
        self.connects += 1
        self.connections += 1
        self.peak_connections = max(self.peak_connections, self.connections)

    def tick(self, now: float, origin: float) -> Tick:
        """Close one second of the series (called once a second); ``origin``: when the
        measured window opens (the end of the ramp)."""
        m = self._mark
        cur = {
            "actions": self.actions + self.round_trips,
            "hands": self.hands,
            "frames": self.frames_in + self.frames_out,
            "errors": sum(self.errors.values()),
            "next": len(self.lat["next_prompt"]),
            "ack": len(self.lat["ack"]),
        }
        nxt = sorted(self.lat["next_prompt"][m.get("next", 0) :]) if cur["next"] >= m.get("next", 0) else []
        ack = sorted(self.lat["ack"][m.get("ack", 0) :]) if cur["ack"] >= m.get("ack", 0) else []
        t = Tick(
            t=round(now - origin, 3),
            connections=self.connections,
            actions=max(0, cur["actions"] - m.get("actions", 0)),
            hands=max(0, cur["hands"] - m.get("hands", 0)),
            frames=max(0, cur["frames"] - m.get("frames", 0)),
            errors=max(0, cur["errors"] - m.get("errors", 0)),
            next_p50=percentile(nxt, 50),
            next_p99=percentile(nxt, 99),
            ack_p99=percentile(ack, 99),
        )
        self._mark = cur
        self.ticks.append(t)
        return t
