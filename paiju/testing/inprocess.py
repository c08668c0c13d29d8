"""The whole embedded server (lobby, rooms, HTTP, robots, records on SQLite) in this process,
on a real loopback socket: what the tests use where no process boundary is under test
(paiju.testing.launch starts `paiju serve` as a child for signals, crashes, clusters and
the command line). With ``--redis URL`` it is a node on Redis (its robots in `paiju bots`
workers), as ``paiju serve --redis`` runs it.

It takes ``paiju serve``'s options and has the surface of a launched server (``.port``,
``.url``, ``.http``, ``.output()``, ``.stop()``): its output is what the server logged.
:func:`serving` runs it in the running event loop (an async test's own);
:func:`start` runs it in a thread of its own, for synchronous tests and for a server shared
by the tests of a module or a session (each test has its own event loop). The records are
written in the server's event loop (``paiju serve`` writes them in a process of its own).

>>> s = start("--robot-pace", "0")
>>> import urllib.request
>>> urllib.request.urlopen(s.http + "/healthz").status
200
>>> "Traceback" in s.stop()
False
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from paiju.cli import eventloop
from paiju.cli import serve as cli
from paiju.cli.args import LOG_FORMAT
from paiju.server.app import Server
from paiju.testing.launch import Addresses

FORMAT = logging.Formatter(LOG_FORMAT)


def options(*args: str) -> argparse.Namespace:
    """``paiju serve --port 0 ARGS`` parsed (argparse's error on a bad option)."""
    p = argparse.ArgumentParser(prog="paiju serve")
    cli.add_arguments(p)
    a = p.parse_args(["--port", "0", *args])
    a.pbn_text = Path(a.pbn).read_text(encoding="utf-8", errors="replace") if a.pbn else None
    return a


class Log(logging.Handler):
    """What the loggers say in one thread (the server's), formatted as `paiju serve` prints it."""

    def __init__(self, level: str) -> None:
        super().__init__(level)
        self.setFormatter(FORMAT)
        self.thread = threading.get_ident()
        self.lines: list[str] = []
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            with self.changed:
                self.lines.append(self.format(record) + "\n")
                self.changed.notify_all()


class InProcess(Addresses):
    """A running embedded server: its port, addresses and log."""

    def __init__(self, server: Server, log: Log) -> None:
        self.server = server
        self.port = server.port
        self._log = log
        self._stop: Callable[[], object] | None = None
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<InProcess paiju serve on {self.http}>"

    def output(self) -> str:
        """Everything the server has logged so far."""
        with self._log.changed:
            return "".join(self._log.lines)

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """The first match of ``pattern`` in the log, waiting up to ``timeout`` s for it."""
        deadline = time.monotonic() + timeout
        with self._log.changed:
            while not (m := re.search(pattern, "".join(self._log.lines))):
                if not self._log.changed.wait(deadline - time.monotonic()):
                    raise TimeoutError(f"{pattern!r} not logged within {timeout} s:\n{self.output()[-3000:]}")
            return m

    def stop(self, timeout: float = 20.0) -> str:
        """Stop a server :func:`start` runs (its thread joined); its whole log. Once stopped,
        a second call only returns the log."""
        if self._stop is not None and self._thread is not None and self._thread.is_alive():
            self._stop()
            self._thread.join(timeout)
        return self.output()


@contextlib.asynccontextmanager
async def serving(*args: str) -> AsyncIterator[InProcess]:
    """``paiju serve --port 0 ARGS`` in the running event loop, listening, until the block ends."""
    a = options(*args)
    log = Log(a.log_level)
    paiju_log = logging.getLogger("paiju")
    before = paiju_log.level
    paiju_log.setLevel(min(logging.getLevelName(a.log_level), before or logging.WARNING))
    logging.getLogger().addHandler(log)
    try:
        records = await cli.open_records(a.database, writer=False)
        if records is None:
            raise RuntimeError(f"paiju.testing.inprocess: the records database {a.database} cannot be opened")
        db, rec = records
        try:
            if a.redis:
                async with cli.linked_node(a, db, rec) as server:
                    yield InProcess(server, log)
            else:
                async with cli.embedded(cli.config_from(a), db, rec, a.workers, a.robot_processes) as server:
                    yield InProcess(server, log)
        finally:
            await cli.close_records(db, rec)
    finally:
        logging.getLogger().removeHandler(log)
        paiju_log.setLevel(before)


def start(*args: str, timeout: float = 60.0) -> InProcess:
    """``paiju serve --port 0 ARGS`` in a thread of its own (its own event loop: asyncio's,
    unless ``--loop`` names one), once it listens; :meth:`InProcess.stop` ends it."""
    loop = options(*args).loop
    kind = eventloop.choose(loop) if loop != "auto" else "asyncio"
    ready: list[InProcess | BaseException] = []
    started = threading.Event()

    async def run() -> None:
        stop = asyncio.Event()
        try:
            async with serving(*args) as s:
                loop = asyncio.get_running_loop()
                s._stop = lambda: loop.call_soon_threadsafe(stop.set)
                ready.append(s)
                started.set()
                await stop.wait()
        except BaseException as e:
            ready.append(e)
            started.set()
            raise

    thread = threading.Thread(target=eventloop.run, args=(run(), kind), name="paiju-inprocess", daemon=True)
    thread.start()
    if not started.wait(timeout):
        raise RuntimeError(f"paiju.testing.inprocess: the server did not listen within {timeout} s")
    (got,) = ready
    if isinstance(got, BaseException):
        thread.join()
        raise RuntimeError("paiju.testing.inprocess: the server did not start") from got
    got._thread = thread
    return got
