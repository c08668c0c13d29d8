"""Words instead of codes, in headless Chromium against a real ``paiju serve``: a dead invite
link says "This table has ended" in the lobby (no code, no room id); the pages for an unknown
match, player, game and path say what is missing with a link to the lobby; every ERROR code of
the wire (the room's and each game's) has a sentence in both languages (sorry.js); a refusal at
the table shows a sentence, not its code; and no page shows "null", "undefined" or "NaN":
the DOM is scanned after each step of a player's evening (the lobby, a table for friends and
its invite box, quick play, the table, the result, the player's records, a match, its replay),
in English and in Chinese."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from paiju import games
from paiju.protocol import ErrorCode, answers
from tests.browser.pages import open_page
from tests.browser.test_web_client import SIZES
from tests.browser.test_web_zh import play_to_result

pytestmark = pytest.mark.browser

RAW = re.compile(r"\b(null|undefined|NaN)\b|\[object ")
# what the page shows as text (titles and placeholders too)
SHOWN = """() => document.body.innerText + ' ' + [...document.querySelectorAll('[title], [placeholder], input[value]')]
  .filter((e) => e.getClientRects().length)
  .map((e) => `${e.title || ''} ${e.placeholder || ''} ${e.value || ''}`).join(' ')"""
CODE = re.compile(r"\b[1-5]\d\d\b|[A-Z]{3,}_[A-Z_]+|not_found")


def _clean(page: Any, step: str) -> str:
    text = str(page.evaluate(SHOWN))
    assert not RAW.search(text), f"{step}: raw data on the page: {RAW.search(text)}"
    return text


def test_every_error_code_has_words(base_url: str, browser: Any) -> None:
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport=SIZES["desktop"])
    try:
        codes = {int(c) for c in ErrorCode} | {int(c) for g in games.names() for c, _ in answers.refusals(g)}
        said = page.evaluate("""async () => { const m = await import('/sorry.js'); return m.SORRY_CODES; }""")
        missing = sorted(codes - set(said))
        assert missing == [], f"ERROR codes with no sentence in sorry.js: {missing}"
        print(f"{len(codes)} error codes, each with a sentence")
        assert problems == [], problems
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dead_invite_and_unknown_pages(base_url: str, browser: Any, lang: str) -> None:
    # (console errors aside: the browser logs each 404 answer, which these pages are)
    # (the browser's console logs each 404 answer, which these pages are: page errors only)
    context, page, problems = open_page(
        browser, None, viewport=SIZES["phone"], locale="zh-CN" if lang == "zh" else "en-US"
    )
    try:
        page.goto(base_url + "/")
        page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
        page.goto(base_url + "/r/0123456789abcdef")  # an invite to a table that is no more
        page.wait_for_selector('#notice[data-kind="dead-invite"]:not([hidden])', timeout=15000)
        notice = page.locator("#notice").inner_text()
        assert ("This table has ended." if lang == "en" else "这张牌桌已经结束了。") in notice, notice
        assert not CODE.search(notice) and "0123456789abcdef" not in notice, notice
        assert page.evaluate("location.pathname") == "/"
        assert page.locator("#errors .error").count() == 0, page.locator("#errors").inner_text()
        _clean(page, "dead invite")
        for path, words in [
            ("/matches/99999", ("There is no match 99999.", "没有第 99999 号对局。")),
            ("/players/nobody-here", ("nobody-here has no match here yet.", "nobody-here 在这里还没有对局。")),
            ("/leaderboard/chess", ("There is no game chess.", "没有游戏 chess。")),
            ("/no/such/page", ("There is no page at /no/such/page.", "没有地址为 /no/such/page 的页面。")),
        ]:
            page.goto(base_url + path)
            page.wait_for_selector("#records-body .not-found", timeout=15000, state="attached")
            shown = page.locator("#records-body").inner_text()
            assert words[lang == "zh"] in shown, (path, shown)
            assert not CODE.search(shown), (path, shown)
            assert page.locator("#records-body .not-found a.to-lobby").get_attribute("href") == "/"
            _clean(page, path)
        assert problems == [], problems
        print(f"{lang}: a dead invite and four unknown addresses said in words")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_raw_data_through_an_evening(base_url: str, browser: Any, lang: str) -> None:
    context, page, problems = open_page(
        browser, base_url + "/", viewport=SIZES["desktop"], locale="zh-CN" if lang == "zh" else "en-US"
    )
    try:
        page.on("dialog", lambda d: d.accept())  # leaving a table may ask first
        _clean(page, "the lobby")
        page.click('.play-friends[data-game="tricks"]')  # a table for friends: its invite box
        page.wait_for_selector("#invite:not([hidden]) #invite-copy", timeout=15000)
        assert page.locator("#invite-url").input_value().startswith(base_url + "/r/")
        _clean(page, "the invite box")
        page.click("#leave")
        page.wait_for_selector('body[data-screen="lobby"]', timeout=15000)
        _clean(page, "the lobby again")
        page.select_option("#create-game", "tricks")
        page.click("#quick-play")  # waits for players a few seconds, then robots fill the seats
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        _clean(page, "quick play, waiting")
        play_to_result(page, random.Random(f"null:{lang}"), lambda: _clean(page, "the table in play"))
        _clean(page, "the result")
        page.click("#show-mine")  # the player's records: the match just played, once it is written
        page.wait_for_selector("#records-body a.open-replay", timeout=15000)
        _clean(page, "the player's matches")
        page.click("#records-body a.open-replay")
        page.wait_for_selector("#records-body a.open-hand-replay", timeout=15000)
        _clean(page, "the match")
        href = page.locator("#records-body a.open-hand-replay").first.get_attribute("href") or ""
        page.goto(base_url + "/" + href.lstrip("./"))
        page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        _clean(page, "the replay")
        page.click("#replay-end")
        page.wait_for_selector('body[data-replay="end"]', timeout=15000)
        _clean(page, "the replay's end")
        assert problems == [], problems
    finally:
        context.close()
