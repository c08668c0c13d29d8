"""The whole suite: every `paiju serve` a test starts keeps its records in a database of this
test process's own (never the user's): env PAIJU_DATABASE, a SQLite file in a temporary folder,
unless a test gives ``--database``."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

_folder = Path(tempfile.mkdtemp(prefix="paiju-tests-"))
os.environ["PAIJU_DATABASE"] = f"sqlite:///{_folder / 'paiju.sqlite3'}"
os.environ["XDG_DATA_HOME"] = str(_folder)
atexit.register(shutil.rmtree, _folder, True)


# Session fixtures that start servers, shared by the tests of several files (tests/cluster's two
# nodes, a Redis and a `paiju bots` worker: seconds to start); an xdist worker starts its own
SHARED_SERVERS = {"two_nodes"}
# The files whose tests use the shared Chromium (tests/browser/conftest.py's ``browser``)
BROWSER_FILES: set[Path] = set()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold a long test (marked ``slow``) run first, each file kept whole, and
    with them the files that use one of :data:`SHARED_SERVERS`. With ``-n N`` (``--dist
    worksteal`` in pyproject.toml) a worker takes its share of the files in order and steals
    from another's end once its own are done: a long test taken last would end the run
    alone, while short ones balance the workers at the end; and the files of a shared
    server, side by side at the start, are the first worker's, which starts it once."""
    first = {item.path for item in items if item.get_closest_marker("slow") or SHARED_SERVERS & set(item.fixturenames)}
    items.sort(key=lambda item: item.path not in first)  # stable: files stay whole, in order
    BROWSER_FILES.update(item.path for item in items if "browser" in item.fixturenames)


def _close_chromium() -> None:
    pages = sys.modules.get("tests.browser.pages")  # (not imported: no Chromium started)
    if pages is not None:
        pages.close_chromium()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The shared Chromium is closed before a test of a file that does not use it."""
    if item.path not in BROWSER_FILES:
        _close_chromium()


def pytest_sessionfinish() -> None:
    _close_chromium()
