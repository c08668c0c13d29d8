"""What a player meets in the first minutes, in headless Chromium against a real ``paiju serve``:
during a bridge auction no card of the hand answers the prompt (the 3 of spades has the byte
of a 3♠ bid: clicking it must not bid), while in the play a click on a card plays it; leaving a
finished match shows no error; the replay of a finished bridge and mahjong hand shows every
hand face up from its first step, plays itself at a chosen speed, and every symbol on it is
drawn by a font this machine has (Debian's DejaVu and WenQuanYi Micro Hei), none as an empty box.
"""

from __future__ import annotations

import asyncio
import os
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from paiju.client import Client
from paiju.protocol.bridge import ActCode
from tests.browser.pages import bid_7nt_to_the_play, bridge_pbn_table, open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, DOCS_IMG, SIZES, _play_hand
from tests.server.test_pbn import PBN

pytestmark = pytest.mark.browser

# The characters of the page's text that no font draws: each is drawn on a canvas with the
# page's fonts and compared with a character no font has (an unassigned code point, drawn as
# the missing glyph's box). Chromium picks fallback fonts for a canvas as for the page.
MISSING_GLYPHS = r"""() => {
  const c = document.createElement("canvas");
  c.width = c.height = 40;
  const g = c.getContext("2d", { willReadFrequently: true });
  const font = getComputedStyle(document.body).fontFamily;
  const draw = (ch) => {
    g.clearRect(0, 0, 40, 40);
    g.font = `28px ${font}`;
    g.fillText(ch, 4, 32);
    return g.getImageData(0, 0, 40, 40).data.join(",");
  };
  const box = draw("\u0378");
  const text = document.body.innerText + [...document.querySelectorAll("[title]")].map((e) => e.title).join("");
  const chars = [...new Set([...text].filter((ch) => ch.codePointAt(0) > 0x7f && !/\s/.test(ch)))];
  return { checked: chars.length, missing: chars.filter((ch) => draw(ch) === box) };
}"""

OUT_ACTIONS = "() => window.paiju.trace.filter((t) => t[1] === 'out').length"


def _glyphs(page: Any) -> int:
    found = page.evaluate(MISSING_GLYPHS)
    assert found["missing"] == [], f"drawn as empty boxes (no font has them): {found['missing']}"
    return int(found["checked"])


def _open_replay(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
    return page


# Step button clicks from the replay's position to its end, each one event on ("event K of N"),
# in the page: every position of the hand is drawn (a step that throws leaves the count behind)
STEP_TO_END = """() => {
  const pos = () => document.querySelector('#replay-pos').textContent.split(' ').map(Number);
  let [, k, , n] = pos();
  const start = k;
  while (k < n) {
    document.querySelector('#replay-step').click();
    const [, at] = pos();
    if (at !== k + 1) return `a step from event ${k} went to ${at}`;
    k = at;
  }
  return k - start;
}"""
PLAYED_BY_ITSELF = 4  # the last events, played by the page itself at the chosen speed


def _autoplay(page: Any) -> None:
    """Step through the replay to its end, every position drawn; then from a few events before
    the end, play it by itself at 4x to its end, where it stops."""
    steps = page.evaluate(STEP_TO_END)
    assert isinstance(steps, int) and steps > PLAYED_BY_ITSELF, steps
    assert page.locator("body").get_attribute("data-replay") == "end"
    for _ in range(PLAYED_BY_ITSELF):
        page.click("#replay-back")
    page.select_option("#replay-speed", "200")
    page.click("#replay-play")
    assert page.locator("#replay-play").get_attribute("data-playing") == "1"
    page.wait_for_selector('body[data-replay="end"]', timeout=30000)
    assert page.locator("#replay-play").get_attribute("data-playing") == "0"


@pytest.mark.slow
def test_bridge_cards_during_the_auction_leave_and_replay(base_url: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport=SIZES["desktop"])
    try:
        bridge_pbn_table(page, PBN, CLOCK_S)

        # North's first call: every card of the hand is clicked, and none of them calls
        bid = '#prompt[data-state="open"] .option[data-code="0"]'
        page.wait_for_selector(bid, timeout=30000)
        prompt_id = page.locator("#prompt").get_attribute("data-prompt-id")
        cards = page.locator(".seat.me [data-card]")
        assert cards.count() == 13
        assert page.locator(".seat .playable").count() == 0, "a card is offered as an answer to the auction"
        for i in range(13):
            cards.nth(i).click()
        page.wait_for_timeout(300)
        assert page.evaluate(OUT_ACTIONS) == 0, "a card click sent an action during the auction"
        assert page.locator("#prompt").get_attribute("data-state") == "open"
        assert page.locator("#prompt").get_attribute("data-prompt-id") == prompt_id
        print(f"bridge: 13 cards clicked during the auction, {page.evaluate(OUT_ACTIONS)} actions sent")

        bid_7nt_to_the_play(page, bid)  # in the play a click on a card is the answer
        playable = page.locator(".seat .playable")
        assert playable.count() > 0, "no card of the hand is clickable in the play"
        sent = page.evaluate(OUT_ACTIONS)
        playable.first.click()
        page.wait_for_function("(n) => window.paiju.trace.filter((t) => t[1] === 'out').length > n", arg=sent)

        shots = {k: ARTIFACTS / f"web-defects-bridge-{k}.png" for k in ("play", "result")}
        _play_hand(page, "bridge", random.Random("web:defects"), shots, False, codes=(ActCode.PLAY,))
        room = page.evaluate("window.paiju.state.room.room")
        # leaving the finished match: the lobby, and no error (none shown, none received)
        refusals = "() => window.paiju.trace.filter((t) => t[1] === 'in' && t[2] === 'ERROR').length"
        before = page.evaluate(refusals)
        page.click("#back-to-lobby")
        page.wait_for_selector('body[data-screen="lobby"]', timeout=5000)
        page.wait_for_timeout(1000)
        assert page.locator("#errors .error").count() == 0, page.locator("#errors").inner_text()
        assert page.evaluate(refusals) == before, "the server refused something on leaving"

        # the replay: all four hands face up from the first step, with the auction
        viewer = _open_replay(context, f"{base_url}/?replay={room}/0")
        assert viewer.locator(".board .seat .card:not(.back)").count() == 52
        assert viewer.locator(".board .seat .card.back").count() == 0
        assert viewer.locator(".board table.auction").count() == 1
        viewer.screenshot(path=str(ARTIFACTS / "web-replay-bridge-start.png"))
        if os.environ.get("PAIJU_DOCS_IMG") == "1":  # the README's picture of a replay
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            (DOCS_IMG / "web-replay.png").write_bytes((ARTIFACTS / "web-replay-bridge-start.png").read_bytes())
        _autoplay(viewer)
        assert viewer.locator("#result .summary").count() == 1
        print(f"bridge replay: {_glyphs(viewer)} symbols drawn by the machine's fonts")
        viewer.close()
        assert problems == [], problems
    finally:
        context.close()


async def _mahjong_hand(ws_url: str) -> str:
    async with await Client.connect(ws_url, "mei") as c:
        st = await c.create("mahjong", bots=[1, 2, 3], robot="random", clock_ms=30_000, hands=1)
        await c.play(random.Random(5), timeout=120)
        return st.room


def test_mahjong_replay_face_up(base_url: str, browser: Any) -> None:
    ws_url = base_url.replace("http", "ws", 1) + "/ws"
    with ThreadPoolExecutor(1) as pool:  # the client's own event loop, beside Playwright's
        room = pool.submit(asyncio.run, _mahjong_hand(ws_url)).result(timeout=180)
    context = browser.new_context(viewport=SIZES["desktop"])
    try:
        viewer = _open_replay(context, f"{base_url}/?replay={room}/0")
        # the deal: 13 tiles a seat, the dealer's draw besides, every one face up
        tiles = viewer.locator(".board .seat .hand .tile:not(.back)").count()
        assert tiles == 53, tiles
        assert viewer.locator(".board .seat .tile.back").count() == 0
        viewer.screenshot(path=str(ARTIFACTS / "web-replay-mahjong-start.png"))
        viewer.click("#replay-step")
        viewer.click("#replay-back")
        assert viewer.locator(".board .seat .hand .tile:not(.back)").count() == 53
        _autoplay(viewer)
        print(f"mahjong replay: {_glyphs(viewer)} symbols drawn by the machine's fonts")
    finally:
        context.close()
