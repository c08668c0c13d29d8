"""Child processes of the benchmarks and the tests: `paiju serve`, `paiju bots`, the echo
server, a redis-server, each started one way.

A :class:`Child` merges the process's stdout and stderr into one pipe that a reader thread
drains line by line (a child that logs a lot never blocks on a full pipe, and its whole
output is there to check afterwards); it waits for the line that says the process is ready
(and takes the port from it), and stops with SIGTERM, then SIGKILL after a timeout.

>>> echo = Child([sys.executable, "-c", "print('ready on 127.0.0.1:4321/'); import time; time.sleep(60)"], r":(\\d+)/")
>>> echo.port
4321
>>> echo.stop().splitlines()
['ready on 127.0.0.1:4321/']
>>> echo.proc.returncode == -signal.SIGTERM
True
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# the line `paiju serve` prints once it listens (its HTTP address; the WebSocket is at /ws)
SERVING = r"paiju serving on http://127\.0\.0\.1:(\d+)/"


class Addresses:
    """The addresses of a server on loopback ``port``."""

    port: int

    @property
    def url(self) -> str:
        """The WebSocket address."""
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Child(Addresses):
    """A child process, its merged output and the port its ready line named (0 if none)."""

    def __init__(
        self,
        cmd: list[str],
        ready: str | None = None,
        *,
        cwd: Path = ROOT,
        env: dict[str, str] | None = None,
        inherit: bool = True,
        timeout: float = 60.0,
        new_session: bool = False,
        log: Path | None = None,
        wait: bool = True,
    ) -> None:
        """Start ``cmd`` in ``cwd`` (``python -m`` puts it first on sys.path: it picks the
        checkout) and, with ``ready``, wait up to ``timeout`` seconds for a line matching that
        pattern (:meth:`started`; without ``wait``, the caller calls it: children started side
        by side, :func:`all_started`). ``env`` is added to this process's environment (or,
        without ``inherit``, is the whole environment);
        ``new_session`` makes the child lead a process group of its own (as in a terminal,
        where a Ctrl-C reaches the whole group); ``log`` also writes the output to that file."""
        self.cmd = cmd
        self.log = log
        self.port = 0
        self.ready, self.timeout = ready, timeout
        self._lines: list[str] = []
        self._done = threading.Condition()
        self._eof = False
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=dict(os.environ if inherit else {}, PYTHONUNBUFFERED="1", **(env or {})),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            start_new_session=new_session,
        )
        self._reader = threading.Thread(target=self._read, args=(log,), daemon=True)
        self._reader.start()
        if ready is not None and wait:
            self.started(ready, timeout)

    def started(self, ready: str | None = None, timeout: float | None = None) -> Child:
        """Wait up to ``timeout`` seconds for the line matching ``ready`` (by default those it
        was made with, else :data:`SERVING` and 60 s); its first group, if any, is the port.
        RuntimeError, the process killed, if the line does not come."""
        ready = ready or self.ready or SERVING
        timeout = self.timeout if timeout is None else timeout
        try:
            m = self.wait_for(ready, timeout)
        except RuntimeError:
            self.stop(signal.SIGKILL)
            raise
        if m.groups():
            self.port = int(m.group(1))
        return self

    def _read(self, log: Path | None) -> None:
        assert self.proc.stdout is not None
        with open(log, "w", encoding="utf-8") if log else contextlib.nullcontext() as f:
            for line in self.proc.stdout:
                if f is not None:
                    f.write(line)
                    f.flush()
                with self._done:
                    self._lines.append(line)
                    self._done.notify_all()
        with self._done:
            self._eof = True
            self._done.notify_all()

    def output(self) -> str:
        """Everything the process has written so far."""
        with self._done:
            return "".join(self._lines)

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """The first match of ``pattern`` in the output, waiting up to ``timeout`` seconds for
        it (RuntimeError if it does not come, or the output ends first)."""
        deadline = time.monotonic() + timeout
        with self._done:
            while True:
                m = re.search(pattern, "".join(self._lines))
                if m:
                    return m
                left = deadline - time.monotonic()
                if self._eof or left <= 0:
                    break
                self._done.wait(min(left, 1.0))
        text = "".join(self._lines)[-4000:]
        raise RuntimeError(f"{' '.join(self.cmd[:4])}: no {pattern!r} in its output:\n{text}")

    def wait(self, timeout: float | None = None) -> str:
        """Wait for the process to end (subprocess.TimeoutExpired after ``timeout``); its
        whole output."""
        self.proc.wait(timeout)
        # a grandchild that inherited the pipe (a robot process) may hold it open a moment
        self._reader.join(5)
        return self.output()

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> str:
        """Send ``sig`` (if the process still runs), SIGKILL it if it has not ended after
        ``timeout`` seconds; its whole output."""
        end(self.proc, timeout, sig)
        return self.wait()

    def rss_kib(self) -> int:
        """Resident set size now (Linux /proc)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        """User + system CPU time used so far by the process and its live children (paiju
        serve's records writer: the server's work done on another core)."""
        return cpu_of(self.proc.pid, children=True)


def end(proc: subprocess.Popen[str], timeout: float = 10.0, sig: int = signal.SIGTERM) -> None:
    """Stop ``proc``: ``sig`` (if it still runs), then SIGKILL if it is still there after
    ``timeout`` seconds; reaped."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


def cpu_of(pid: int, children: bool = False) -> float:
    """User + system CPU seconds a live process has used so far (Linux /proc); with
    ``children``, those of its live child processes too, recursively."""
    return sum(user + system for user, system, _ in cpu_by_process(pid, children).values())


def cpu_by_process(pid: int, children: bool = True) -> dict[int, tuple[float, float, int]]:
    """User and system CPU seconds and the nice value of a live process and (``children``) of
    each of its live descendants, by pid (Linux /proc; none of those that ended).

    >>> import os
    >>> user, system, nice = cpu_by_process(os.getpid())[os.getpid()]
    >>> user >= 0 and system >= 0 and nice == os.getpriority(os.PRIO_PROCESS, 0)
    True
    """
    out: dict[int, tuple[float, float, int]] = {}
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # ended meanwhile
        return out
    tick = os.sysconf("SC_CLK_TCK")
    out[pid] = (int(fields[11]) / tick, int(fields[12]) / tick, int(fields[16]))
    if children:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                for kid in (task / "children").read_text().split():
                    out |= cpu_by_process(int(kid))
    return out


def paiju(*args: str, ready: str | None = None, python: str | None = None, **kw: Any) -> Child:
    """``python -m paiju ARGS`` as a :class:`Child` (keywords as there), run by this
    interpreter or by ``python`` (e.g. that of a venv where another checkout is installed)."""
    return Child([python or sys.executable, "-m", "paiju", *args], ready, **kw)


def all_started(*children: Child) -> None:
    """Wait until each of ``children``, made with ``wait=False`` and so starting side by side,
    is ready (:meth:`Child.started`); if one is not, every one of them is killed."""
    try:
        for child in children:
            child.started()
    except BaseException:
        for child in children:
            child.stop(signal.SIGKILL)
        raise


def serve(*args: str, **kw: Any) -> Child:
    """``paiju serve --port 0 ARGS`` on loopback, once it listens (its port in ``.port``)."""
    return paiju("serve", "--port", "0", *args, ready=SERVING, **kw)


def bots(redis: str, name: str, *args: str, **kw: Any) -> Child:
    """A ``paiju bots`` worker of one process on ``redis`` as ``name``, once it serves."""
    ready = rf"serving .* as {re.escape(name)}"
    return paiju("bots", "--redis", redis, "--name", name, "--processes", "1", *args, ready=ready, **kw)


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def redis(port: int = 0, unix: Path | None = None, log: Path | None = None) -> tuple[Child, str]:
    """A redis-server of its own, without persistence, once it accepts connections: on
    ``unix`` (a socket path) if given, else on the loopback ``port`` (0: a free one); the
    child and its URL."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (on PATH)")
    cmd = [exe, "--save", "", "--appendonly", "no"]
    if unix is not None:
        cmd += ["--port", "0", "--unixsocket", str(unix)]
        url = f"unix://{unix}"
    else:
        port = port or free_port()
        cmd += ["--port", str(port), "--bind", "127.0.0.1"]
        url = f"redis://127.0.0.1:{port}/0"
    return Child(cmd, r"(?i)ready to accept connections", timeout=20, log=log), url
