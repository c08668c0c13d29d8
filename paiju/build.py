"""Which build of paiju runs: the hot path compiled to C extension modules, or pure Python.

``pip install .`` (and ``pip install -e .``) compiles the modules of :data:`COMPILED` with
mypyc when a C compiler is there (``PAIJU_PURE_BUILD=1`` builds pure Python); each
extension sits beside its ``.py``, which stays the reference and the fallback. Set
``PAIJU_PURE=1`` to run the ``.py`` modules even where the extensions are present: a finder
put first on ``sys.meta_path`` by :func:`install` (which ``paiju/protocol/__init__.py`` calls
before anything else of paiju is imported) loads these modules from their sources. The same
happens, with a warning, when an extension is older than its source (an edited tree not
rebuilt): the compiled modules call each other directly, so they run all or none.

This module imports nothing but the standard library: setup.py reads :data:`COMPILED` here.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PURE_ENV = "PAIJU_PURE"
"""Set to 1 to run the pure-Python modules even where the compiled ones are installed."""

COMPILED = (
    # the codec's card tables (paiju.protocol.frames stays Python: its checks are built from the
    # frames' Annotated type hints, which mypyc does not keep in a compiled class)
    "paiju.protocol.cards",
    # the games' analysis (the Game classes stay Python: games and tests subclass them, and
    # a compiled class refuses a Python subclass's instance as self)
    "paiju.games.niujiu.patterns",
    "paiju.games.mahjong.analysis",
    "paiju.games.mahjong.tables",
    "paiju.games.bridge.deal",
    "paiju.games.bridge.scoring",
    "paiju.games.bridge.pbn",
    # the table core
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
    # the lobby core
    "paiju.core.lobby.messages",
    "paiju.core.lobby.common",
    "paiju.core.lobby.people",
    "paiju.core.lobby.login",
    "paiju.core.lobby.hosting",
    "paiju.core.lobby.lobby",
    # the room's and the connection's shells (every move passes through them)
    "paiju.server.room",
    "paiju.server.connection",
)
"""The modules compiled to C extensions (their packages' ``__init__`` modules stay Python).
Left out besides: the modules that define IntEnums (paiju.protocol.errors, paiju.protocol.actions,
protocol.<game>), which mypyc compiles wrongly when another compiled module reads their
members, and what is not on the move path."""

_ROOT = Path(__file__).resolve().parent.parent
_TOPS = frozenset(m.partition(".")[0] for m in COMPILED)
BUILT_BY = "build.txt"
"""The file beside this module that the build writes: the compiler and its version."""


def _source(name: str) -> Path:
    return _ROOT.joinpath(*name.split(".")).with_suffix(".py")


def extensions() -> dict[str, Path]:
    """The extension file of each module of :data:`COMPILED` that has one."""
    out = {}
    for name in COMPILED:
        src = _source(name)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            so = src.with_suffix(suffix)
            if so.is_file():
                out[name] = so
                break
    return out


def stale() -> list[str]:
    """The compiled modules whose source changed after they were built, in a source tree
    (``pip install -e .``; an installed wheel's files all bear the time of the install)."""
    if not (_ROOT / "pyproject.toml").is_file():
        return []
    return [name for name, so in extensions().items() if _source(name).stat().st_mtime > so.stat().st_mtime]


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds paiju's modules by their ``.py`` files only (an extension beside one is ignored)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or fullname.partition(".")[0] not in _TOPS:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for d in path:
            f = os.path.join(d, leaf)
            if os.path.isfile(f):
                return importlib.util.spec_from_file_location(fullname, f)
        return None


def install() -> None:
    """Put :class:`SourceFinder` first when ``PAIJU_PURE=1`` or an extension is stale (done
    when this module is imported)."""
    if any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return
    pure = os.environ.get(PURE_ENV, "") not in ("", "0")
    if not pure:
        old = stale()
        if old:
            print(
                f"paiju: compiled modules older than their sources ({', '.join(old)}): running the"
                " pure-Python modules (rebuild them: pip install -e .)",
                file=sys.stderr,
            )
            pure = True
    if pure:
        sys.meta_path.insert(0, SourceFinder())


def running() -> list[str]:
    """The modules of :data:`COMPILED` that run compiled in this process (imports them)."""
    out = []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin is not None and spec.origin.endswith(suffixes):
            out.append(name)
    return out


def describe() -> str:
    """Which build runs: ``compiled: mypyc 1.x, 18 modules`` or ``pure Python`` (with why)."""
    n = len(running())
    if n:
        by = Path(__file__).with_name(BUILT_BY)
        compiler = by.read_text().strip() if by.is_file() else "mypyc"
        return f"compiled: {compiler}, {n} modules"
    if extensions():
        if os.environ.get(PURE_ENV, "") not in ("", "0"):
            return f"pure Python: {PURE_ENV}={os.environ[PURE_ENV]}"
        return "pure Python: the compiled modules are older than their sources"
    return "pure Python"


install()
