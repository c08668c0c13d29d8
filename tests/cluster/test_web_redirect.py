"""The web client follows a REDIRECT: a page served by node b lists a room of node a (one
lobby), and its "watch" button brings it to node a, where it watches the room."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from paiju.client import Client
from tests.browser.test_web_client import CHROMIUM, CHROMIUM_ARGS
from tests.redis.conftest import RedisServer, start_bots

from .conftest import redis_server, start_node

pytestmark = pytest.mark.browser
__all__ = ["redis_server"]


class Creator(threading.Thread):
    """A person on node a who creates a room and sits there (its own event loop)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.room: str | None = None
        self.ready = threading.Event()
        self.done = threading.Event()

    def run(self) -> None:
        asyncio.run(self.sit())

    async def sit(self) -> None:
        async with await Client.connect(self.url, "ann") as c:
            st = await c.create("tricks", bots=[1], hands=3, clock_ms=60_000)
            self.room = st.room
            self.ready.set()
            while not self.done.is_set():
                await asyncio.sleep(0.1)


@pytest.mark.slow
def test_the_page_follows_a_redirect_to_the_room(redis_server: RedisServer, tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (or set PAIJU_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    a, b = start_node(redis_server, "a", tmp_path), start_node(redis_server, "b", tmp_path)
    bots = start_bots(redis_server.url, "w")
    creator = Creator(a.url)
    creator.start()
    try:
        assert creator.ready.wait(30) and creator.room is not None
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page: Any = browser.new_page()
            page.goto(b.http + "/")
            watch = page.locator(f'button.watch[data-room="{creator.room}"]')
            for _ in range(40):  # the lobby refreshes its list: wait for node a's room in it
                if watch.count():
                    break
                page.evaluate("() => document.querySelector('#refresh-rooms').click()")
                page.wait_for_timeout(250)
            watch.click()
            page.wait_for_function("() => document.body.dataset.screen === 'table'", timeout=15_000)
            assert page.evaluate("() => document.body.dataset.sessions") == "2", "a second session, on node a"
            names = page.evaluate("() => window.paiju.trace.filter((t) => t[1] === 'in').map((t) => t[2])")
            assert "REDIRECT" in names and names.index("REDIRECT") < names.index("ROOM_STATE")
            browser.close()
        out = a.output()
        assert "Traceback" not in out
    finally:
        creator.done.set()
        creator.join(10)
        bots.stop()
        for proc in (a, b):
            out = proc.stop()
            assert "Traceback" not in out, out[-3000:]
