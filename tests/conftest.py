"""The whole suite: every `paiju serve` a test starts keeps its records in a database of this
test process's own (never the user's): env PAIJU_DATABASE, a SQLite file in a temporary folder,
unless a test gives ``--database``."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_folder = Path(tempfile.mkdtemp(prefix="paiju-tests-"))
os.environ["PAIJU_DATABASE"] = f"sqlite:///{_folder / 'paiju.sqlite3'}"
os.environ["XDG_DATA_HOME"] = str(_folder)
atexit.register(shutil.rmtree, _folder, True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold a long test (marked ``slow``) run first, each file kept whole. With
    ``-n 2`` (``--dist worksteal`` in pyproject.toml) a worker takes one half of the files in
    order and steals from the other's end once its own are done: a long test taken last would
    end the run alone, while short ones balance the two workers at the end."""
    long_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in long_files)  # stable: files stay whole, in order
