"""The processes that run CPU work off the event loop: the ``cpu_heavy`` robots' decisions
(:class:`DecisionPool`), and in a :class:`CallPool` what the records work out from a deal
(bridge's par, the trick game's solved value) and the records' writes.

A call goes to an idle process of the pool over a pipe (the function and its arguments,
pickled), the answer comes back on the same pipe, whose end the event loop watches: no
thread in between. ``concurrent.futures.ProcessPoolExecutor`` does the same job through a
queue-management thread and a queue-feeder thread, and the hops between them and the event
loop cost the serving process some 200 µs of CPU a call against some 60 µs here (``paiju
bench pool``, on the 2-core development machine; a decision of bdi-hudist costs some 700
µs), and on a busy server each thread that wakes contends for the GIL with the loop: the
difference between the processes relieving the server and adding to it.

Processes start when first needed (``workers`` at most; the CPUs by default), spawned,
not forked: a fork would hold a copy of every socket the server has open, and the
connections the server closes would stay open in the copies. Each ends with the process
that made it, even killed outright (Linux's parent-death signal), and ignores SIGINT: a
Ctrl-C in a terminal reaches the whole process group, and the parent, not the pool,
decides when to stop. A process that dies fails the call it held (a robot's room then plays
the default action when its clock runs out) and the next call starts another in its place.

``await pool.decide(RobotClass, protocol.encode(request))`` gives the action's code and cards:

>>> pool = DecisionPool(2)  # no process yet: the first decision starts one
>>> pool
<DecisionPool paiju-robot: 0 busy, 0 idle of 2, 0 waiting>
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from paiju.bots import metrics
from paiju.bots.base import Robot
from paiju.protocol import DecisionRequest, decode

T = TypeVar("T")


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT held back from this thread for the block (delivered after it, if it came).

    A child process inherits the mask of the thread that starts it, through the ``exec`` of
    a spawn too: a Ctrl-C that arrives while a spawned interpreter is still starting (before
    :func:`end_with_parent` runs in it) would otherwise stop it with a "Fatal Python error"
    in its imports."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def end_with_parent(parent: int) -> None:
    """In a pool's process: SIGKILL it when ``parent`` dies (Linux ``prctl(PR_SET_PDEATHSIG)``),
    and ignore SIGINT: a Ctrl-C in a terminal reaches the whole process group, and the
    parent, not its pool, decides when the pool stops (the records' writer has a batch to
    finish). The process started with SIGINT blocked (:func:`sigint_blocked`); ignored now,
    it is let through."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


class ProcessDied(RuntimeError):
    """The process running a call ended before it answered."""


class CallFailed(RuntimeError):
    """The call raised in its process; the message carries the exception's type and text."""


class RobotProcessDied(ProcessDied):
    """The process deciding for a robot ended before it answered."""


class RobotFailed(CallFailed):
    """The robot raised in its process; the message carries the exception's type and text."""


class _Process:
    __slots__ = ("conn", "future", "process")

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.future: asyncio.Future[Any] | None = None


def niceness() -> int:
    """How far below its parent's priority a pool's process runs: ``PAIJU_WORKER_NICE`` (0:
    the same priority; ``paiju bench loop`` compares the two), else 10, so that on a busy
    machine the robots and the analyses never take the CPU from the event loop that serves."""
    value = os.environ.get("PAIJU_WORKER_NICE", "10")
    return max(0, min(19, int(value))) if value.strip().lstrip("-").isdigit() else 10


class CallPool:
    """At most ``workers`` spawned processes running calls for one event loop: :meth:`submit`
    gives an :class:`asyncio.Future` of ``fn(*args)`` run in one of them (``fn`` and ``args``
    pickled: a module-level function). The answer comes back on the process's pipe, whose end
    the loop watches: no thread, no wake-up of another one. The processes run ``nice`` steps
    below the parent's priority (:func:`niceness` by default).

    >>> pool = CallPool(1, name="paiju-extras")
    >>> pool
    <CallPool paiju-extras: 0 busy, 0 idle of 1, 0 waiting>
    >>> pool.close()
    """

    Died: type[ProcessDied] = ProcessDied
    Failed: type[CallFailed] = CallFailed

    def __init__(self, workers: int = 0, *, name: str = "paiju-pool", nice: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1  # 0: one per core
        self.name = name
        self.nice = niceness() if nice is None else nice
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Process] = []
        self._busy: list[_Process] = []
        self._queue: collections.deque[tuple[bytes, asyncio.Future[Any]]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.started = 0  # processes started, replacements included

    def __repr__(self) -> str:
        busy, idle, waiting = len(self._busy), len(self._idle), len(self._queue)
        return f"<{type(self).__name__} {self.name}: {busy} busy, {idle} idle of {self.workers}, {waiting} waiting>"

    def pids(self) -> list[int]:
        """The pool's processes now."""
        return [p.process.pid for p in self._idle + self._busy if p.process.pid is not None]

    def submit(self, fn: Callable[..., T], /, *args: Any) -> asyncio.Future[T]:
        """The future of ``fn(*args)`` run in one of the pool's processes (from the running loop).

        It fails with :attr:`Failed` when the call raised, with :attr:`Died` when its process
        ended first; cancelled, the call is not made if it has not started."""
        if self._closed:
            raise RuntimeError(f"the pool {self.name} is closed")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif self._loop is not loop:
            raise RuntimeError(f"the pool {self.name} serves one event loop")
        future: asyncio.Future[T] = loop.create_future()
        message = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        if not self._idle and len(self._busy) < self.workers:
            self._idle.append(self._start())
        if self._idle:
            self._send(self._idle.pop(), message, future)
        else:
            self._queue.append((message, future))
            self._waiting(1)
        return future

    def close(self) -> None:
        """Stop taking calls: those waiting or in hand are cancelled, the processes running
        one are killed and the idle ones end (they read the end of their pipe)."""
        self._closed = True
        for _, future in self._queue:
            future.cancel()
        self._waiting(-len(self._queue))
        self._queue.clear()
        procs, self._idle, self._busy = self._idle + self._busy, [], []
        for p in procs:
            self._forget(p)
            if p.future is not None:  # running: the answer would go nowhere, so no need to wait for it
                p.future.cancel()
                p.process.kill()
        for p in procs:
            p.process.join(1)
            if p.process.is_alive():
                p.process.kill()
                p.process.join(1)

    # what a subclass may count (the robots' pool: its metrics)
    def _started(self) -> None:
        """A process started."""

    def _waiting(self, change: int) -> None:
        """Calls waiting for a free process: ``change`` more (or fewer)."""

    def _died(self) -> None:
        """A process ended unasked (killed, crashed)."""

    def _start(self) -> _Process:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_serve, args=(theirs, os.getpid(), self.nice), daemon=True, name=self.name
        )
        with sigint_blocked():
            process.start()
        theirs.close()
        self.started += 1
        self._started()
        p = _Process(process, ours)
        assert self._loop is not None
        self._loop.add_reader(ours.fileno(), self._answered, p)
        return p

    def _send(self, p: _Process, message: bytes, future: asyncio.Future[Any]) -> None:
        p.future = future
        self._busy.append(p)
        with contextlib.suppress(OSError):  # the process is gone: the end of its pipe, read next, fails the call
            p.conn.send_bytes(message)

    def _answered(self, p: _Process) -> None:
        future, p.future = p.future, None
        try:
            ok, result = pickle.loads(p.conn.recv_bytes())
        except (EOFError, OSError):
            (self._busy if p in self._busy else self._idle).remove(p)
            self._forget(p)
            p.process.join(1)
            self._died()
            if future is not None and not future.done():
                future.set_exception(self.Died(f"the {self.name} process ended (exit code {p.process.exitcode})"))
            self._next()
            return
        if future is not None and not future.done():
            if ok:
                future.set_result(result)
            else:
                future.set_exception(self.Failed(result))
        self._busy.remove(p)
        self._idle.append(p)
        self._next()

    def _next(self) -> None:
        """Hand the first waiting call whose caller still waits to an idle process
        (a new one in place of one that died)."""
        while self._queue and self._queue[0][1].done():
            self._queue.popleft()
            self._waiting(-1)
        if not self._queue:
            return
        if not self._idle:
            if len(self._busy) >= self.workers:
                return
            self._idle.append(self._start())
        message, future = self._queue.popleft()
        self._waiting(-1)
        self._send(self._idle.pop(), message, future)

    def _forget(self, p: _Process) -> None:
        if self._loop is not None:
            with contextlib.suppress(Exception):  # the loop may be closed already
                self._loop.remove_reader(p.conn.fileno())
        p.conn.close()


class DecisionPool(CallPool):
    """At most ``workers`` processes deciding for robots; :meth:`decide` from one event loop
    (the pool's processes are counted in paiju/bots/metrics.py)."""

    Died = RobotProcessDied
    Failed = RobotFailed

    def __init__(self, workers: int = 0) -> None:
        super().__init__(workers, name="paiju-robot")

    async def decide(self, cls: type[Robot], request: bytes) -> tuple[int, bytes]:
        """``cls``'s decision on the encoded request: the action's code and cards.

        Raises :class:`RobotFailed` when the robot raised, :class:`RobotProcessDied` when
        its process ended first."""
        return await self.submit(_decide, cls, request)

    def _started(self) -> None:
        metrics.POOL_PROCESSES.inc()

    def _waiting(self, change: int) -> None:
        metrics.POOL_WAITING.inc(change)

    def _died(self) -> None:
        metrics.POOL_DEATHS.inc()

    def _forget(self, p: _Process) -> None:
        metrics.POOL_PROCESSES.dec()
        super()._forget(p)


_ROBOTS: dict[type[Robot], Robot] = {}  # in a pool's process: one robot of each class (robots are stateless)


def _decide(cls: type[Robot], data: bytes) -> tuple[int, bytes]:
    """In a pool's process: ``cls``'s decision on the encoded request."""
    robot = _ROBOTS.get(cls) or _ROBOTS.setdefault(cls, cls())
    req = decode(data)
    assert isinstance(req, DecisionRequest)
    action = robot.decide(req)
    return action.code, action.cards


def _serve(conn: Connection, parent: int, nice: int = 0) -> None:
    """A pool process: run calls until the pipe ends, ``nice`` steps below its parent."""
    end_with_parent(parent)
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
    while True:
        try:
            fn, args = pickle.loads(conn.recv_bytes())
        except EOFError:
            return
        try:
            answer: tuple[bool, object] = (True, fn(*args))
        except Exception as e:  # the call's fault: the parent's future fails with it
            answer = (False, f"{type(e).__name__}: {e}")
        try:
            conn.send_bytes(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:  # the pool was closed meanwhile
            return
