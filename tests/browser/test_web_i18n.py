"""The Chinese interface in headless Chromium against a real ``paiju serve``: a browser whose
language is Chinese opens in it; an English one switches in the header, and the choice is kept
across a reload; a mahjong table against robots then shows no English word on the table or in
the prompt (the names of players and robots and the room's id aside), and no traditional
character anywhere on the page (simplified only: 东 万 发, never 東 萬 發). The hand's result,
its replay and the records in Chinese: test_web_zh.py."""

from __future__ import annotations

import itertools
import os
import random
import re
from typing import Any

import pytest

from tests.browser.pages import open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, DOCS_IMG, NEXT, SIZES

pytestmark = pytest.mark.browser

# the traditional forms of the characters this page uses (and of their neighbours at a mahjong
# or card table), none of which may show in the simplified interface
TRADITIONAL = "東萬發風聽將對門龍條餅紅綠無漢莊點槓碼贏錢麼頭夠魚擺滿雙場雜張喫補選號"
ENGLISH = re.compile(r"[A-Za-z]{2,}")
# the text of the table, the prompt and the result, without the names of the seats' holders
# (players' and robots' names are names in any language) and the room's id
TEXTS = """() => {
  const st = window.paiju.state;
  const names = [st.room.room, ...st.room.seats.filter(Boolean).map((n) => n.replace(/ \\(robot\\)$/, ''))];
  const part = (sel) => {
    const e = document.querySelector(sel);
    let t = e && !e.hidden ? e.innerText : '';
    for (const n of names) t = t.split(n).join(' ');
    return t;
  };
  return { board: part('#board'), prompt: part('#prompt'), result: part('#result'), head: part('#table-title') };
}"""
PAGE_TEXT = """() => document.body.innerText + [...document.querySelectorAll('[title], [placeholder]')]
  .map((e) => (e.title || '') + (e.placeholder || '')).join(' ')"""


def _english(texts: dict[str, str]) -> dict[str, list[str]]:
    return {k: ENGLISH.findall(v) for k, v in texts.items() if ENGLISH.search(v)}


def _traditional(text: str) -> list[str]:
    return sorted({c for c in text if c in TRADITIONAL})


def test_the_browsers_language_is_the_default(base_url: str, browser: Any) -> None:
    context, page, _ = open_page(browser, base_url + "/", viewport=SIZES["desktop"], locale="zh-CN")
    try:
        assert page.evaluate("document.documentElement.lang") == "zh-Hans"
        assert page.locator("#lang").input_value() == "zh"
        assert page.locator(".game-card").first.get_attribute("data-game") == "mahjong"  # the games lead
        assert _traditional(page.evaluate(PAGE_TEXT)) == []
    finally:
        context.close()


def test_a_mahjong_table_in_chinese(base_url: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    context, page, problems = open_page(browser, base_url + "/", viewport=SIZES["desktop"], locale="en-US")
    try:
        assert page.evaluate("document.documentElement.lang") == "en"
        assert _traditional(page.evaluate(PAGE_TEXT)) == []  # the English page's Chinese words too
        with page.expect_navigation():
            page.select_option("#lang", "zh")
        page.wait_for_selector('body[data-connected="1"]', timeout=15000)
        page.reload()  # the choice is kept
        page.wait_for_selector('body[data-connected="1"]', timeout=15000)
        assert page.evaluate("document.documentElement.lang") == "zh-Hans"
        assert page.locator("#show-mine").inner_text() == "我的对局"

        page.select_option("#create-game", "mahjong")
        for s in (1, 2, 3):
            page.select_option(f'#create-bots select[data-seat="{s}"]', "random")
        page.fill("#create-clock", str(CLOCK_S))
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        page.wait_for_function(NEXT, arg="", timeout=30000)  # the first prompt: the table and the prompt
        seen = page.evaluate(TEXTS)
        assert _english(seen) == {}, seen
        assert "打牌" in seen["prompt"] and "东" in seen["board"], seen
        page.screenshot(path=str(ARTIFACTS / "web-zh-mahjong-play.png"))
        if os.environ.get("PAIJU_DOCS_IMG") == "1":  # the README's picture of the zh table
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            (DOCS_IMG / "web-zh-mahjong.png").write_bytes((ARTIFACTS / "web-zh-mahjong-play.png").read_bytes())
        # (the hand's result, replay and records in Chinese: test_web_zh.py plays a hand of each game)
        assert _traditional(page.evaluate(PAGE_TEXT)) == []
        print(f"zh: the prompt reads {seen['prompt'][:120]!r}")
        assert problems == [], problems
    finally:
        context.close()


def _meaning_texts() -> list[str]:
    """Call meanings as the server sends them (paiju/games/bridge/bidding.py's ``explain``): the
    auctions of 40 random deals bid by the system in every seat, read call by call, and each
    row's own words alone, with a summary and as a choice of two."""
    from paiju.bots.bridge.judge import finish
    from paiju.games.bridge.deal import parse_deal
    from paiju.games.bridge.explain import Reading
    from tests.server.test_web_chinese import table_meanings

    deck = [c for h in parse_deal("N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654") for c in h]
    rng = random.Random(2026)
    texts: set[str] = set()
    for d in range(40):
        rng.shuffle(deck)
        hands = [sorted(deck[13 * k : 13 * k + 13]) for k in range(4)]
        reading = Reading.start(d % 4)
        for call in finish(hands, [], d % 4):
            reading = reading.add(call)
        texts.update(reading.explained)
    rows = sorted(table_meanings())
    texts.update(rows)
    texts.update(f"{m}; 12-15 points, 5+ hearts; forcing" for m in rows)
    texts.update(f"{a} / {b}" for a, b in itertools.pairwise(rows))
    return sorted(texts)


def test_every_call_meaning_in_chinese(base_url: str, browser: Any) -> None:
    """What the page shows of each call's meaning (web/meanings.js's ``meaningText``, run in the
    page) holds no English word: the rows' words, the summaries, several meanings joined, and
    a row's words that hold "; " in brackets."""
    texts = _meaning_texts()
    assert any("(the longer; spades with 5-5)" in t for t in texts)
    context, page, _ = open_page(browser, base_url + "/", viewport=SIZES["desktop"], locale="zh-CN")
    try:
        shown = page.evaluate(
            """async (texts) => {
              const m = await import(new URL('meanings.js', document.baseURI).href);
              return texts.map(m.meaningText);
            }""",
            texts,
        )
        english = {t: s for t, s in zip(texts, shown, strict=True) if ENGLISH.search(s)}
        assert english == {}, f"{len(english)} of {len(texts)}: {list(english.items())[:5]}"
        assert _traditional("".join(shown)) == []
    finally:
        context.close()
