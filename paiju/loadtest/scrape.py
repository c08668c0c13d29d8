"""The server's own figures: ``GET /metrics`` read before and after the measured window,
parsed with prometheus_client's parser, and turned into rates and quantiles.

>>> text = '''# TYPE paiju_actions_applied counter
... paiju_actions_applied_total{game="tricks"} 10.0
... # TYPE paiju_connections gauge
... paiju_connections 3.0
... '''
>>> s = parse(text)
>>> s.value("paiju_actions_applied_total", game="tricks"), s.total("paiju_connections")
(10.0, 3.0)
>>> metrics_url("ws://127.0.0.1:8765/ws"), metrics_url("wss://example.org/game/ws")
('http://127.0.0.1:8765/metrics', 'https://example.org/metrics')
"""

from __future__ import annotations

import asyncio
import math
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from prometheus_client.parser import text_string_to_metric_families

Labels = tuple[tuple[str, str], ...]


@dataclass
class Scrape:
    """One reading of ``/metrics``: every sample by name and labels."""

    samples: dict[str, dict[Labels, float]] = field(default_factory=lambda: defaultdict(dict))

    def value(self, name: str, **labels: str) -> float:
        """The sample with exactly these labels (0 when absent)."""
        return self.samples.get(name, {}).get(tuple(sorted(labels.items())), 0.0)

    def total(self, name: str, **match: str) -> float:
        """The sum of the samples of ``name`` whose labels include ``match``."""
        return sum(v for k, v in self.samples.get(name, {}).items() if set(match.items()) <= set(k))

    def by(self, name: str, label: str) -> dict[str, float]:
        """The samples of ``name`` summed per value of ``label``."""
        out: dict[str, float] = defaultdict(float)
        for k, v in self.samples.get(name, {}).items():
            d = dict(k)
            if label in d:
                out[d[label]] += v
        return dict(out)


def parse(text: str) -> Scrape:
    s = Scrape()
    for fam in text_string_to_metric_families(text):
        for smp in fam.samples:
            s.samples[smp.name][tuple(sorted(smp.labels.items()))] = smp.value
    return s


def metrics_url(ws_url: str) -> str:
    """Where a paiju server at ``ws_url`` serves its metrics."""
    u = urlsplit(ws_url)
    scheme = {"ws": "http", "wss": "https"}.get(u.scheme, u.scheme)
    return urlunsplit((scheme, u.netloc, "/metrics", "", ""))


def _get(url: str, timeout: float) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        body: bytes = r.read()
    return body.decode("utf-8")


async def scrape(url: str, timeout: float = 5.0) -> Scrape | None:
    """Read ``url`` (None when the server has no metrics or cannot be reached)."""
    try:
        return parse(await asyncio.to_thread(_get, url, timeout))
    except Exception:
        return None


def quantile(before: Scrape, after: Scrape, name: str, q: float, **match: str) -> float:
    """The ``q`` quantile (0..1) of histogram ``name`` over the observations made between
    the two readings, interpolated inside its bucket as Prometheus' histogram_quantile does;
    NaN when nothing was observed."""
    buckets: dict[float, float] = defaultdict(float)
    for k, v in after.samples.get(f"{name}_bucket", {}).items():
        d = dict(k)
        if not set(match.items()) <= set(k):
            continue
        le = float(d["le"])
        buckets[le] += v - before.samples.get(f"{name}_bucket", {}).get(k, 0.0)
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return math.nan
    rank = q * buckets[bounds[-1]]
    lo, below = 0.0, 0.0
    for b in bounds:
        if buckets[b] >= rank:
            if math.isinf(b):
                return lo  # beyond the last finite bound: the bound is all that is known
            inside = buckets[b] - below
            return lo + (b - lo) * ((rank - below) / inside if inside > 0 else 1.0)
        lo, below = b, buckets[b]
    return math.nan


def server_figures(before: Scrape, after: Scrape, seconds: float) -> dict[str, Any]:
    """The server's side of the run: rates over the window, latency quantiles in
    milliseconds, and the live gauges at its end."""

    def rate(name: str, **match: str) -> float:
        return round((after.total(name, **match) - before.total(name, **match)) / seconds, 1)

    def per(name: str, label: str) -> dict[str, float]:
        b = before.by(name, label)
        return {k: v - b.get(k, 0.0) for k, v in sorted(after.by(name, label).items()) if v - b.get(k, 0.0)}

    def ms(name: str) -> dict[str, float]:
        return {f"p{round(q * 100)}": round(quantile(before, after, name, q) * 1000, 3) for q in (0.5, 0.99)}

    cpu = after.total("process_cpu_seconds_total") - before.total("process_cpu_seconds_total")
    rooms: dict[str, float] = defaultdict(float)
    for k, v in after.samples.get("paiju_rooms", {}).items():
        rooms[dict(k)["state"]] += v
    return {
        "actions_per_s": rate("paiju_actions_applied_total"),
        "actions_by_game": per("paiju_actions_applied_total", "game"),
        "frames_in_per_s": rate("paiju_frames_total", direction="in"),
        "frames_out_per_s": rate("paiju_frames_total", direction="out"),
        "bytes_out_per_s": rate("paiju_frame_bytes_total", direction="out"),
        "socket_writes_per_s": rate("paiju_socket_writes_total"),
        "errors": per("paiju_errors_total", "code"),
        "action_broadcast_ms": ms("paiju_action_broadcast_seconds"),
        "bus_requests_per_s": rate("paiju_bus_requests_total"),
        "robot_decision_ms": ms("paiju_robot_decision_seconds"),
        "clock_defaults": per("paiju_clock_default_actions_total", "player"),
        "resumes": after.total("paiju_resumes_total") - before.total("paiju_resumes_total"),
        "connections": after.total("paiju_connections"),
        "rooms": dict(rooms),
        "players": after.by("paiju_players", "where"),
        "rss_mib": round(after.total("process_resident_memory_bytes") / 2**20, 1),
        "cpu_percent": round(100 * cpu / seconds, 1),
    }
