"""The robot workers' Prometheus metrics, all defined here.

A :class:`~paiju.bots.worker.Worker` reports each request it handles; ``paiju bots
--metrics-port`` serves them over HTTP, and the embedded ``paiju serve`` (whose worker runs
in the server's process) shows them on the server's own ``/metrics``.
docs/operations.md lists every metric and what it means.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter(
    "paiju_worker_requests",
    "Decision requests a worker handled, by game and outcome "
    "(answered; late: past its deadline, dropped unanswered; failed: the robot raised or chose outside the options)",
    ["game", "outcome"],
)
THINK = Histogram(
    "paiju_worker_decision_seconds",
    "Time a robot took to decide (in the worker, pool hand-off included), by game and robot",
    ["game", "robot"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0),
)

POOL_PROCESSES = Gauge(
    "paiju_worker_pool_processes", "Processes of the robots' decision pool (the cpu_heavy robots) alive now"
)
POOL_WAITING = Gauge("paiju_worker_pool_waiting", "Decisions waiting for a free process of the robots' decision pool")
POOL_DEATHS = Counter(
    "paiju_worker_pool_deaths",
    "Processes of the robots' decision pool that ended unasked (killed, crashed); the next decision starts another",
)

# the labelled children, looked up once per label values (labels() locks on every call)
_REQUESTS = functools.cache(REQUESTS.labels)
_THINK = functools.cache(THINK.labels)


def handled(game: str, outcome: str) -> None:
    _REQUESTS(game, outcome).inc()


def thought(game: str, robot: str, seconds: float) -> None:
    _THINK(game, robot).observe(seconds)
