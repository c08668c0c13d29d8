"""The load generator behind ``paiju loadtest`` and ``paiju bench server``.

Real protocol clients against any paiju server: tables of simulated players create and
join rooms and play real hands with legal moves (robots in the seats asked for), idle
connections hold on with pings, cut connections resume with their tokens. It speaks only
the protocol (it never imports the server), so it measures a remote server the same way.

::

    report = asyncio.run(run(Options("ws://127.0.0.1:8765/ws", game="tricks", rooms=20)))
    print(report.as_dict()["actions_per_s"])
"""

from __future__ import annotations

from paiju.loadtest.run import LoadError, Options, Report, run

__all__ = ["LoadError", "Options", "Report", "run"]
