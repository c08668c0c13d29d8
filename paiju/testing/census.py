"""Which test files start subprocesses, and which of them a `paiju serve`: a pytest plugin.

``pytest -p paiju.testing.census`` (with or without ``-n``) records every
:class:`subprocess.Popen` a test starts (the processes of :mod:`multiprocessing` pools are not
``Popen``s: a server's own helpers are not counted) and ends its report with the counts:

    census: 128 test files; 19 start a `paiju serve`, 27 a paiju command, 41 any subprocess

``PAIJU_CENSUS=FILE`` also writes every test file with the commands it started, as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

DIR_ENV = "PAIJU_CENSUS_DIR"  # where each pytest process (xdist's workers) writes what it saw
_popen_init = subprocess.Popen.__init__


def _argv(args: Any) -> list[str]:
    return [str(args)] if isinstance(args, str | bytes | os.PathLike) else [str(a) for a in args]


def _kind(argv: list[str]) -> str:
    """``serve`` for a `paiju serve` (or `./dev.sh run`), ``paiju`` for another paiju command,
    else ``other``."""
    names = [Path(a).name for a in argv[:4]]
    if "paiju" in names or (len(argv) > 2 and argv[1:3] == ["-m", "paiju"]):
        after = argv[argv.index("paiju") + 1 :] if "paiju" in argv else argv[names.index("paiju") + 1 :]
        return "serve" if after[:1] == ["serve"] else "paiju"
    if "dev.sh" in names:
        return "serve" if "run" in argv else "paiju"
    return "other"


def _record(self: subprocess.Popen[Any], args: Any, *rest: Any, **kw: Any) -> None:
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[0]
    if test:
        argv = _argv(args)
        with open(Path(os.environ[DIR_ENV]) / f"{os.getpid()}.jsonl", "a") as f:
            f.write(json.dumps([test, _kind(argv), " ".join(argv[:4])]) + "\n")
    _popen_init(self, args, *rest, **kw)


def pytest_configure(config: pytest.Config) -> None:
    if DIR_ENV not in os.environ:  # the main process (xdist's workers inherit it)
        os.environ[DIR_ENV] = tempfile.mkdtemp(prefix="paiju-census-")
    subprocess.Popen.__init__ = _record  # type: ignore[assignment,method-assign]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    reports = [r for key in ("passed", "failed", "skipped", "error") for r in terminalreporter.stats.get(key, [])]
    files = {r.nodeid.split("::")[0] for r in reports if getattr(r, "nodeid", "")}
    started: dict[str, dict[str, set[str]]] = {}
    for log in Path(os.environ[DIR_ENV]).glob("*.jsonl"):
        for line in log.read_text().splitlines():
            test, kind, cmd = json.loads(line)
            started.setdefault(test, {}).setdefault(kind, set()).add(cmd)
    tests = {f for f in files if Path(f).name.startswith("test_")}
    serve = sorted(t for t, k in started.items() if "serve" in k)
    paiju = sorted(t for t, k in started.items() if k.keys() & {"serve", "paiju"})
    terminalreporter.write_line(
        f"census: {len(tests)} test files; {len(serve)} start a `paiju serve`, {len(paiju)} a paiju command,"
        f" {len(started)} any subprocess"
    )
    terminalreporter.write_line("census: `paiju serve` in " + ", ".join(serve))
    out = os.environ.get("PAIJU_CENSUS")
    if out:
        body = {t: {k: sorted(v) for k, v in kinds.items()} for t, kinds in sorted(started.items())}
        Path(out).write_text(json.dumps(body, indent=1))
