"""A real `redis-server` on a free loopback port (no persistence), `paiju serve --redis`
and `paiju bots` subprocesses around it, and helpers to read their logs."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.server.conftest import Served

ROOT = Path(__file__).resolve().parents[2]
# Importing the slow robot registers it: only the subprocesses that ask for it do.
collect_ignore = ["slowbot.py"]
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
# Fast settings: no pause between hands, a quick grace; a rate a test client stays under.
SERVE_OPTIONS = ("--hand-pause", "0", "--grace", "20", "--rate", "300", "--burst", "300", "--robot-pace", "0")
SLOW = "tests.redis.slowbot"  # the "slow" robot of the failover tests


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class RedisServer:
    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    r = RedisServer(free_port())
    r.start()
    try:
        yield r
    finally:
        r.stop()


@dataclass
class Proc:
    """A subprocess whose merged output is collected by ``poll()`` (never blocks)."""

    proc: subprocess.Popen[str]
    out: list[str] = field(default_factory=list)

    def poll(self) -> str:
        assert self.proc.stdout is not None
        while True:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0)
            if not ready:
                break
            chunk = self.proc.stdout.read()
            if not chunk:
                break
            self.out.append(chunk)
        return "".join(self.out)

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.poll())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"no {pattern!r} in the output:\n{self.poll()[-4000:]}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        time.sleep(0.05)
        return self.poll()


def spawn(*args: str, env: dict[str, str] | None = None) -> Proc:
    e = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
    p = subprocess.Popen(
        [sys.executable, "-m", "paiju", *args],
        cwd=ROOT,
        env=e,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert p.stdout is not None
    os.set_blocking(p.stdout.fileno(), False)
    return Proc(p)


def start_bots(url: str, name: str, *extra: str) -> Proc:
    p = spawn("bots", "--redis", url, "--name", name, "--processes", "1", *extra)
    p.wait_for(r"serving .* as " + re.escape(name))
    return p


def start_serve(url: str, *extra: str) -> tuple[Served, Proc]:
    """`paiju serve --redis URL` on a free port; its whole output is kept (rebuild lines)."""
    p = spawn("serve", "--port", "0", "--redis", url, *SERVE_OPTIONS, *extra)
    m = p.wait_for(r"paiju serving on http://127\.0\.0\.1:(\d+)/")
    return Served(p.proc, int(m.group(1))), p


def answered(log: str) -> dict[str, int]:
    """A worker's answers per game, from its last line."""
    m = re.search(r"stopped: answered (\d+) \(([^)]*)\)", log)
    assert m, log[-3000:]
    return {k: int(v) for k, v in (x.split("=") for x in m.group(2).split() if "=" in x)}
