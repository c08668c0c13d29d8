"""Every bridge call explained, in headless Chromium against a real ``paiju serve``: a person
at North opens 1NT against robots (``hybrid`` in the three other seats); the auction grid
shows, on hover and on tap, the meaning of the person's own call and of each robot's, as the
bidding system reads them (paiju/games/bridge/explain.py, here the oracle: the page must show what
the server sent with each call, for the auction the page shows), one's own call as the partner
reads it; the grid's link opens the system card, one table row for each row of the system; the
lobby links the card beside bridge's rules, in English and in Chinese.
"""

from __future__ import annotations

from typing import Any

import pytest

from paiju.games.bridge.bidding import system
from paiju.games.bridge.explain import Reading
from tests.browser.pages import open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, SIZES

pytestmark = pytest.mark.browser

# North deals and holds a 1NT opening (15 points, balanced); the robots hold enough to bid
PBN = """[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AQ4.KJ3.Q985.K72 KJ9832.A5.T6.A84 75.Q9864.AK3.J93 T6.T72.J742.QT65"]
"""
PROMPT = '#prompt[data-state="open"] .option[data-code="{code}"]'
# the calls on the grid, as call bytes, in auction order
GRID_CALLS = """() => [...document.querySelectorAll('.board .center table.auction td[data-index]')]
  .sort((a, b) => a.dataset.index - b.dataset.index)
  .map((td) => parseInt(td.querySelector('.call').dataset.call, 16))"""


def _meaning(page: Any, index: int) -> tuple[str | None, str]:
    """The call whose meaning is shown under the grid, and the meaning, once it is call ``index``'s
    (a tap's events come after the tap returns); as they are after 5 s if it never is."""
    box = page.locator(".board .center .call-meaning").first
    try:
        page.wait_for_selector(f'.board .center .call-meaning[data-index="{index}"]', timeout=5000)
    except Exception as e:
        if "Timeout" not in type(e).__name__:
            raise
    return box.get_attribute("data-index"), box.locator(".meaning-text").inner_text()


def test_robot_and_own_calls_explained_in_the_auction_grid(base_url: str, browser: Any) -> None:
    context, page, problems = open_page(
        browser, base_url + "/", console=True, viewport=SIZES["desktop"], has_touch=True
    )
    try:
        page.select_option("#create-game", "bridge")
        page.set_input_files("#create-pbn", {"name": "one.pbn", "mimeType": "text/plain", "buffer": PBN.encode()})
        for s in (1, 2, 3):
            page.select_option(f'#create-bots select[data-seat="{s}"]', "hybrid")
        page.fill("#create-hands", "1")
        page.fill("#create-clock", str(CLOCK_S))
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)

        # North (the person) opens 1NT; then waits for its next call: East, South and West have called
        page.click(PROMPT.format(code=0) + ' button.choice[data-cards="14"]', timeout=30000)
        page.wait_for_function(
            "() => document.querySelectorAll('.board .center table.auction td[data-index]').length >= 4"
            " && document.querySelector('#prompt').dataset.state === 'open'",
            timeout=60000,
        )
        calls = page.evaluate(GRID_CALLS)
        assert calls[0] == 0x14, calls
        reading = Reading.start(dealer=0)
        for c in calls:
            reading = reading.add(c)
        expected = reading.explained
        cells = page.locator(".board .center table.auction td[data-index]")
        shown = [cells.nth(i).get_attribute("data-explain") for i in range(len(calls))]
        assert shown == list(expected), "the grid's explanations are not the system's"
        assert all(shown), f"a call without its meaning: {shown}"
        assert "13-15 points" in shown[0]

        # nothing chosen yet: the hint; hovering the person's own call shows its meaning
        assert page.locator(".board .center .call-meaning").get_attribute("data-index") is None
        cells.nth(0).hover()
        assert _meaning(page, 0) == ("0", expected[0])
        assert "as your partner reads it" in page.locator(".board .center .call-meaning b").inner_text()
        # a robot's call, the partner's (South): hover; then a tap on the right-hand robot's (East)
        cells.nth(2).hover()
        assert _meaning(page, 2) == ("2", expected[2])
        page.mouse.move(0, 0)  # a phone has no pointer resting on a cell (the board is drawn again at each tick)
        cells.nth(1).tap()
        assert _meaning(page, 1) == ("1", expected[1])
        assert page.locator(".board .center table.auction td.selected").get_attribute("data-index") == "1"
        # the meaning is text: the system's words never become markup
        assert page.locator(".board .center .call-meaning .meaning-text *").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-bridge-explained.png"))
        print(f"explained: {[f'{c:02x}: {t}' for c, t in zip(calls, expected, strict=True)]}")

        # the system card, from the grid's link: a row for each row of the system
        with context.expect_page() as opened:
            page.click(".board .center .system-card-link")
        card = opened.value
        card.wait_for_load_state()
        assert card.locator("h1").inner_text() == "Bridge: the bidding system"
        rows = card.locator("table tr:not(.section)").count() - card.locator("table").count()
        assert rows == len(system()), (rows, len(system()))
        card.close()
        assert problems == [], problems
    finally:
        context.close()


def test_the_system_card_linked_from_the_lobby_in_both_languages(base_url: str, browser: Any) -> None:
    languages = (("en-US", "the bidding system", ""), ("zh-CN", "叫牌体系", ".zh"))
    for locale, words, suffix in languages:
        context, page, problems = open_page(browser, base_url + "/", viewport=SIZES["desktop"], locale=locale)
        try:
            link = page.locator('.game-card[data-game="bridge"] .system-card-link')
            assert link.inner_text() == words
            assert link.get_attribute("href") == f"/rules/bridge-system{suffix}.html"
            assert page.locator('.game-card[data-game="mahjong"] .system-card-link').count() == 0
            assert problems == [], problems
        finally:
            context.close()
