"""The browser tests' fixtures: one ``paiju serve`` (the embedded server in this process,
paiju.testing.inprocess) and one headless Chromium for all the browser tests of a pytest
process (each xdist worker has its own). Starting them costs seconds under load; the tests
share them without meeting: each opens its own browser context (its own cookies and
localStorage, so its own player) and its own rooms."""

from __future__ import annotations

import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.testing import inprocess
from tests.browser.pages import CHROMIUM, DATABASES, chromium


def _wait_healthy(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"paiju serve did not answer {url}/healthz within {timeout:.0f} s")


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server of the browser tests (PAIJU_WEB_URL: one already running, in development)."""
    external = os.environ.get("PAIJU_WEB_URL")
    if external:
        _wait_healthy(external.rstrip("/"))
        yield external.rstrip("/")
        return
    folder = tmp_path_factory.mktemp("serve")
    db = folder / "records.sqlite3"
    # --no-robot-on-drop: the dropped seat waits for the page (its clock runs) instead of a robot
    # finishing a short hand in the tenth of a second the page takes to come back
    # --robot-pace 0: robots at full speed (tests/server/test_table_clocks.py checks the pace)
    # --quickplay-wait 2: quick play fills its seats with robots after 2 s, not 5
    server = inprocess.start(
        "--no-robot-on-drop", "--robot-pace", "0", "--quickplay-wait", "2", "--database", f"sqlite:///{db}"
    )
    try:
        DATABASES[server.http] = db
        yield server.http
    finally:
        (folder / "serve.log").write_text(server.stop(timeout=10))


@pytest.fixture(scope="module")
def browser() -> Any:
    """The Chromium of the browser test files (each test has a context of its own): one for the
    files that run one after another in a pytest process, not one a file (seconds of start-up
    each), nor one a session (tests/browser/pages.py: :func:`chromium`)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (or set PAIJU_CHROMIUM)")
    return chromium()
