"""The table on a phone (390x844, touch) in headless Chromium against a real ``paiju serve``:
at a bridge call, a bridge card to play and a mahjong discard, every card of the player's own
hand is inside the screen and not covered by the prompt pinned to its bottom (hit-testing the
centre of each card), every element a player may touch is at least 40x40 px, the header is
one line, and the bridge bidding box is a grid of levels by strains."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.pages import bid_7nt_to_the_play, open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, SIZES
from tests.server.test_pbn import PBN

pytestmark = pytest.mark.browser

MIN_TARGET = 40  # px, each side (platform guidelines: about 44)
# the own hand's cards that are off screen or covered, the touch targets smaller than MIN_TARGET
FITS = """(min) => {
  const W = window.innerWidth, H = window.innerHeight;
  const hidden = [];
  const cards = [...document.querySelectorAll('.board .seat.me [data-card]')];
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > W || r.bottom > H) {
      hidden.push(`${c.dataset.card} off screen`);
      continue;
    }
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!e || !(e === c || c.contains(e))) hidden.push(`${c.dataset.card} under ${e ? e.id || e.className : '-'}`);
  }
  const targets = [...document.querySelectorAll(
    '#prompt button:not(:disabled), #prompt input, .board .playable, .board .pickable, '
    + 'header button, header select, .table-head button')]
    .filter((e) => e.getClientRects().length > 0);
  const small = targets.map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.width < min - 0.5 || r.height < min - 0.5)
    .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  return { cards: cards.length, targets: targets.length, hidden, small,
           header: document.querySelector('header').getBoundingClientRect().height };
}"""


def _check(page: Any, what: str, cards: int) -> None:
    page.wait_for_timeout(250)  # the page scrolls the hand above the prompt once it is drawn
    got = page.evaluate(FITS, MIN_TARGET)
    page.screenshot(path=str(ARTIFACTS / f"web-phone-{what.replace(' ', '-')}.png"))
    print(f"phone, {what}: {got['cards']} own cards in view, {got['targets']} targets, header {got['header']:.0f} px")
    assert got["cards"] >= cards, got
    assert got["hidden"] == [], f"{what}: own cards off screen or under the prompt: {got['hidden']}"
    assert got["small"] == [], f"{what}: touch targets under {MIN_TARGET} px: {got['small']}"
    assert got["header"] <= 56, f"{what}: the header is {got['header']} px tall"


def _page(browser: Any, base_url: str) -> tuple[Any, Any]:
    context, page, _ = open_page(browser, base_url + "/", viewport=SIZES["phone"], is_mobile=True, has_touch=True)
    return context, page


def _create(page: Any, game: str, seats: int) -> None:
    page.click("#menu")  # the header's menu opens and closes
    assert page.locator("#show-mine").is_visible()
    page.click("#menu")
    assert not page.locator("#show-mine").is_visible()
    page.select_option("#create-game", game)
    for s in range(1, seats):
        # bridge: the natural bidder (a random one may bid 7NT before North's first call)
        page.select_option(f'#create-bots select[data-seat="{s}"]', "basic" if game == "bridge" else "random")
    page.fill("#create-clock", str(CLOCK_S))
    if game == "bridge":
        page.set_input_files("#create-pbn", {"name": "deals.pbn", "mimeType": "text/plain", "buffer": PBN.encode()})
    page.click("#create-room")
    page.wait_for_selector('body[data-screen="table"]', timeout=15000)


def test_phone_bridge_auction_and_play(base_url: str, browser: Any) -> None:
    context, page = _page(browser, base_url)
    try:
        _create(page, "bridge", 4)
        bid = '#prompt[data-state="open"] .option.bidding-box'
        page.wait_for_selector(bid, timeout=30000)
        # the bidding box: five strains a row, each row a level; Pass (and Double) beside it
        box = page.evaluate(
            """(sel) => { const b = document.querySelector(sel);
               return { columns: getComputedStyle(b).gridTemplateColumns.split(' ').length,
                        first: b.querySelector('button.choice').dataset.cards,
                        pass: !!document.querySelector('#prompt .option[data-code="1"] button.choice') }; }""",
            bid,
        )
        assert box == {"columns": 5, "first": box["first"], "pass": True}, box
        _check(page, "bridge auction", 13)
        bid_7nt_to_the_play(page, bid)
        _check(page, "bridge play", 12)
    finally:
        context.close()


def test_phone_mahjong_discard(base_url: str, browser: Any) -> None:
    context, page = _page(browser, base_url)
    try:
        _create(page, "mahjong", 4)
        page.wait_for_selector('#prompt[data-state="open"] .option[data-code="0"]', timeout=30000)
        _check(page, "mahjong discard", 13)
    finally:
        context.close()
