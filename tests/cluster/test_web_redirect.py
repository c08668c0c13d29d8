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

from .conftest import TwoNodes

pytestmark = pytest.mark.browser


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
def test_the_page_follows_a_redirect_to_the_room(two_nodes: TwoNodes) -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (or set PAIJU_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    a, b = two_nodes.a, two_nodes.b
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
    finally:
        creator.done.set()
        creator.join(10)
    two_nodes.check()
