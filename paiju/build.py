"""Which build of paiju runs: some modules compiled to C extensions, or pure Python.

``pip install .`` (and ``pip install -e .``) compiles the modules of :data:`COMPILED` with
mypyc when a C compiler is there (``PAIJU_PURE_BUILD=1`` builds pure Python). Each extension
sits beside its ``.py`` under the same name, and Python's import system loads an extension
module before a source module of the same name in the same folder: where the extension is,
it runs; where it is not (a pure build, a machine without a compiler), the ``.py`` runs. No
import hook chooses between them. The pure build of a compiled tree is the same tree
without its extensions (``python -m paiju.bench.compiled`` and tests/test_build.py run one
from a copy of the sources).

An extension older than its source (a compiled checkout edited and not rebuilt) still runs:
:func:`stale` names those, ``paiju --version`` says so, and the test suite refuses to run
on them (conftest.py); ``pip install -e .`` (``./dev.sh``) rebuilds them.

This module imports nothing but the standard library: setup.py and dev.sh read
:data:`COMPILED` here.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

COMPILED = (
    # what `python -m paiju.bench.compiled` shows faster compiled (docs/performance.md): the
    # table and lobby cores, the room's and the connection's shells (every move passes through
    # them), and niujiu's patterns (every niujiu prompt and robot lists them); the card texts,
    # mahjong's analysis and tables and bridge's deals, scores and PBN ran as fast or faster
    # as Python, and stay Python
    "paiju.games.niujiu.patterns",
    "paiju.core.messages",
    "paiju.core.table.common",
    "paiju.core.table.messages",
    "paiju.core.table.stream",
    "paiju.core.table.prompts",
    "paiju.core.table.standins",
    "paiju.core.table.talk",
    "paiju.core.table.match",
    "paiju.core.table.seating",
    "paiju.core.table.clocks",
    "paiju.core.table.table",
    "paiju.core.lifecycle",
    "paiju.core.roomlog",
    "paiju.core.lobby.messages",
    "paiju.core.lobby.common",
    "paiju.core.lobby.people",
    "paiju.core.lobby.login",
    "paiju.core.lobby.hosting",
    "paiju.core.lobby.lobby",
    "paiju.server.room",
    "paiju.server.connection",
    # the runner of the cores, the lobby's shell and the metrics (every message passes through
    # them): the serving process's CPU an action in `paiju bench peers --servers paiju
    # --baseline DIR` (DIR the build without them) went down by a median 7-10 % over three
    # interleaved runs on a busy machine (each pair's spread -24 % to +43 %); compiling the
    # connection's reader (paiju.server.gate, a coroutine) and the replays with them gained
    # nothing (a median +1 %), and they stay Python
    "paiju.server.runner",
    "paiju.server.lobby",
    "paiju.server.metrics",
)
"""The modules compiled to C extensions (their packages' ``__init__`` modules stay Python).
Never compiled: paiju.protocol.frames (its checks are built from the frames' Annotated type
hints, which mypyc does not keep in a compiled class), the Game classes (games and tests
subclass them, and a compiled class refuses a Python subclass's instance as self) and the
modules that define IntEnums (paiju.protocol.errors, paiju.protocol.actions,
protocol.<game>), which mypyc compiles wrongly when another compiled module reads their
members."""

PACKAGE = Path(__file__).resolve().parent
BUILT_BY = "build.txt"
"""The file beside this module that the build writes: the compiler and its version."""


def source(name: str) -> Path:
    """The ``.py`` file of module ``name`` of :data:`COMPILED` in this package."""
    return PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")


def extensions() -> dict[str, Path]:
    """The extension file beside each module of :data:`COMPILED` that has one: the modules
    that run compiled (the import system prefers them to the ``.py``)."""
    out = {}
    for name in COMPILED:
        src = source(name)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            so = src.with_suffix(suffix)
            if so.is_file():
                out[name] = so
                break
    return out


def stale() -> list[str]:
    """The compiled modules whose source changed after they were built, in a source tree
    (``pip install -e .``; an installed wheel's files all bear the time of the install)."""
    if not (PACKAGE.parent / "pyproject.toml").is_file():
        return []
    return [name for name, so in extensions().items() if source(name).stat().st_mtime > so.stat().st_mtime]


def describe() -> str:
    """Which build runs: ``compiled: mypyc 1.x, 13 modules`` or ``pure Python``.

    >>> describe().startswith(("pure Python", "compiled: "))
    True
    """
    n = len(extensions())
    if not n:
        return "pure Python"
    by = PACKAGE / BUILT_BY
    compiler = by.read_text().strip() if by.is_file() else "mypyc"
    old = stale()
    if old:
        return f"compiled: {compiler}, {n} modules, {len(old)} older than their sources (rebuild: pip install -e .)"
    return f"compiled: {compiler}, {n} modules"
