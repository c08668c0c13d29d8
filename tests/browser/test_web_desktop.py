"""A desktop screen of 1280x800, in headless Chromium against a real ``paiju serve``: no button
of the header wraps its words ("Log / in"), in English or Chinese; the seed box keeps a
20-digit seed exactly as typed (and a seed above the wire's largest, 2^63 - 1, is refused in
words before anything is sent); and at the end of a bridge board the result's Rematch and Back
to the lobby are on screen without scrolling."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser.pages import open_page
from tests.browser.test_web_client import ARTIFACTS
from tests.browser.test_web_zh import play_to_result

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
# the header's texts (button labels, links, names) that run over more than one line
WRAPPED = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.querySelector('header'), NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (!t.textContent.trim() || !t.parentElement.getClientRects().length) continue;
    const r = document.createRange();
    r.selectNodeContents(t);
    const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
    if (lines.size > 1) out.push(t.textContent.trim());
  }
  return out;
}"""
# an element wholly inside the window, as it is (no scrolling)
ON_SCREEN = """(sel) => { const e = document.querySelector(sel); if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight
    && r.left >= 0 && r.right <= window.innerWidth; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_header_and_the_seed_box(base_url: str, browser: Any, lang: str) -> None:
    context, page, problems = open_page(
        browser, base_url + "/", viewport=DESKTOP, locale="zh-CN" if lang == "zh" else "en-US"
    )
    try:
        assert page.evaluate(WRAPPED) == []
        assert page.locator("header").bounding_box()["height"] < 64
        assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
        top = "18446744073709551615"  # 2^64 - 1: twenty digits
        page.fill("#create-seed", top)
        assert page.locator("#create-seed").input_value() == top
        page.select_option("#create-game", "tricks")
        page.click("#create-room")
        said = page.locator("#errors .error").last.inner_text(timeout=5000)
        assert "9223372036854775807" in said and ("seed" in said if lang == "en" else "种子" in said), said
        assert page.evaluate("document.body.dataset.screen") == "lobby"
        assert problems == [], problems
    finally:
        context.close()


def test_the_bridge_result_fits_the_screen(base_url: str, browser: Any) -> None:
    context, page, problems = open_page(browser, base_url + "/", viewport=DESKTOP)
    try:
        page.select_option("#create-game", "bridge")
        for s in (1, 2, 3):
            page.select_option(f'#create-bots select[data-seat="{s}"]', "random")
        page.fill("#create-hands", "1")
        page.fill("#create-clock", "30")
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        play_to_result(page, random.Random("desktop"), lambda: None)
        page.wait_for_selector("#rematch-yes", timeout=5000)
        page.evaluate("window.scrollTo(0, 0)")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-bridge-result-1280x800.png"))
        for sel in ("#rematch-yes", "#rematch-no", "#back-to-lobby"):
            box = page.locator(sel).bounding_box()
            assert page.evaluate(ON_SCREEN, sel), f"{sel} is not on screen at 1280x800: {box}"
        assert problems == [], problems
    finally:
        context.close()
