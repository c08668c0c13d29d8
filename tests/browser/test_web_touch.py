"""Touch on a phone (390x844), in headless Chromium against a real ``paiju serve``: on the lobby,
a table (bridge, in its auction: the auction's cells are tapped to read the calls' meanings),
the records' pages (a player's matches, a match, a leaderboard), a replay and a rules page, in
English and in Chinese, every element a player may touch (links, buttons, inputs, selects,
checkboxes, the auction's cells) is at least 40x40 px and no page scrolls sideways."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from paiju.client import Client
from tests.browser.pages import open_page
from tests.browser.test_web_client import SIZES

pytestmark = pytest.mark.browser

MIN = 40
# the actionable elements on screen smaller than MIN px, and the page's width against the screen's
TOUCH = """(min) => {
  const sel = 'a[href], button, input:not([type=hidden]), select, [role=button], td[data-index], summary';
  const small = [...document.querySelectorAll(sel)]
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter((e) => !e.closest('[hidden]'))
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && (r.width < min - 0.5 || r.height < min - 0.5))
    .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} "${(e.textContent || '').trim().slice(0, 20)}" `
      + `${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  return { small, wide: document.documentElement.scrollWidth, body: document.body.scrollWidth };
}"""


def _check(page: Any, what: str) -> int:
    page.wait_for_timeout(200)
    got = page.evaluate(TOUCH, MIN)
    w = SIZES["phone"]["width"]
    assert got["wide"] <= w and got["body"] <= w, f"{what}: the page is {got['wide']} px wide on a {w} px screen"
    assert got["small"] == [], f"{what}: touch targets under {MIN} px: {got['small']}"
    return int(page.evaluate("document.querySelectorAll('a[href], button, input, select').length"))


async def _finished_match(ws_url: str) -> str:
    async with await Client.connect(ws_url, "tess") as c:
        st = await c.create("niujiu", bots=[1, 2], robot="random", clock_ms=30_000, hands=1)
        await c.play(random.Random(3), timeout=120)
        return st.room


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_touch_targets_and_width_on_a_phone(base_url: str, browser: Any, lang: str) -> None:
    ws_url = base_url.replace("http", "ws", 1) + "/ws"
    with ThreadPoolExecutor(1) as pool:  # a finished match for the records and the replay
        room = pool.submit(asyncio.run, _finished_match(ws_url)).result(timeout=180)
    context, page, problems = open_page(
        browser,
        base_url + "/",
        viewport=SIZES["phone"],
        is_mobile=True,
        has_touch=True,
        locale="zh-CN" if lang == "zh" else "en-US",
    )
    try:
        checked = {"lobby": _check(page, "lobby")}
        page.click("#menu")  # the header's menu, open
        checked["lobby, menu open"] = _check(page, "lobby, menu open")
        page.click("#menu")
        page.click('.play-robots[data-game="bridge"]')
        page.wait_for_selector('#prompt[data-state="open"]', timeout=30000)
        checked["bridge table"] = _check(page, "bridge table")
        page.click("#leave")  # (else the page, loaded again, resumes its seat at the table)
        page.wait_for_selector('body[data-screen="lobby"]')
        page.goto(base_url + "/players/tess")
        page.wait_for_selector("#records-body #matches tr[data-match]", timeout=15000)
        checked["player's matches"] = _check(page, "player's matches")
        match = page.locator("#records-body tr[data-match]").first.get_attribute("data-match")
        page.goto(f"{base_url}/matches/{match}")
        page.wait_for_selector("#records-body .replay-hand", timeout=15000)
        checked["a match"] = _check(page, "a match")
        page.goto(base_url + "/leaderboard/niujiu")
        page.wait_for_selector("#records-body table", timeout=15000)
        checked["leaderboard"] = _check(page, "leaderboard")
        page.goto(f"{base_url}/?replay={room}/0")
        page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        checked["replay"] = _check(page, "replay")
        page.goto(f"{base_url}/rules/bridge{'.zh' if lang == 'zh' else ''}.html")  # the longest rules page
        checked["rules"] = _check(page, "rules")
        assert problems == [], problems
        print(f"phone ({lang}): every actionable element >= {MIN} px, no sideways scroll: {checked}")
    finally:
        context.close()
