"""Which event loop `paiju serve` runs on: uvloop (libuv's loop) where it is installed, which
``pip install paiju`` does on Linux and macOS, else asyncio's own; chosen once at start.

``--loop auto`` (the default, or env ``PAIJU_LOOP``) takes uvloop when it imports and the
standard loop otherwise; ``--loop uvloop`` insists (an error when it is missing), ``--loop
asyncio`` takes the standard loop. ``paiju --version`` says what ``auto`` picks here and
``/healthz``'s ``loop`` what the server runs on (docs/performance.md).

>>> choose("asyncio")
'asyncio'
>>> choose("auto") == ("uvloop" if uvloop_version() else "asyncio")
True
>>> run(asyncio.sleep(0, "done"), "asyncio")
'done'
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import os
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

LOOP_ENV = "PAIJU_LOOP"
"""The default of ``paiju serve --loop``: auto, uvloop or asyncio."""
CHOICES = ("auto", "uvloop", "asyncio")


class NoUvloop(RuntimeError):
    """``--loop uvloop`` where uvloop does not import."""


def uvloop_version() -> str | None:
    """uvloop's version when it imports here, else None."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return None
    try:
        return importlib.metadata.version("uvloop")
    except importlib.metadata.PackageNotFoundError:
        return "?"


def default() -> str:
    """``--loop``'s default: env PAIJU_LOOP when it names a choice, else ``auto``."""
    want = os.environ.get(LOOP_ENV, "").strip().lower()
    return want if want in CHOICES else "auto"


def choose(want: str) -> str:
    """``auto`` / ``uvloop`` / ``asyncio`` -> the loop to run: ``uvloop`` or ``asyncio``."""
    if want == "asyncio":
        return "asyncio"
    if uvloop_version() is not None:
        return "uvloop"
    if want == "uvloop":
        raise NoUvloop("uvloop is not installed here (pip install uvloop; Linux and macOS only)")
    return "asyncio"


def run(coro: Coroutine[Any, Any, T], loop: str) -> T:
    """Run ``coro`` to its end on a new loop of kind ``loop`` (``uvloop`` or ``asyncio``)."""
    if loop == "uvloop":
        import uvloop

        result: T = uvloop.run(coro)
        return result
    return asyncio.run(coro)


def describe() -> str:
    """What ``paiju serve`` runs on by default here, for ``paiju --version``."""
    version = uvloop_version()
    picked = choose(default())
    if picked == "uvloop":
        return f"event loop uvloop {version}"
    why = f"{LOOP_ENV}=asyncio" if default() == "asyncio" else "uvloop not installed"
    return f"event loop asyncio ({why})"
