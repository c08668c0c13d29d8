"""The whole suite: every `paiju serve` a test starts keeps its records in a database of this
test process's own (never the user's): env PAIJU_DATABASE, a SQLite file in a temporary folder,
unless a test gives ``--database``."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

_folder = Path(tempfile.mkdtemp(prefix="paiju-tests-"))
os.environ["PAIJU_DATABASE"] = f"sqlite:///{_folder / 'paiju.sqlite3'}"
os.environ["XDG_DATA_HOME"] = str(_folder)
atexit.register(shutil.rmtree, _folder, True)
