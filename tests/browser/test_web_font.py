"""The site's own CJK font (paiju/server/web/fonts/paiju-cjk.woff, python -m paiju.server.webfont)
in headless Chromium against a real ``paiju serve``: a Chromium whose fontconfig knows no CJK
font at all (FONTCONFIG_FILE names a configuration of the DejaVu fonts only) opens the Chinese
lobby, a table and a rules page, and every character of Chinese text is drawn with the web
font (Chromium's own account of the fonts it drew each element's text with, over the DevTools
protocol: ``CSS.getPlatformFontsForNode``), none by a fallback that would show boxes. A
Chromium with the machine's fonts uses the web font for the Chinese too (it comes before them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju.server import webfont
from tests.browser.pages import CHROMIUM, CHROMIUM_ARGS, CONNECTED
from tests.browser.test_web_client import SIZES

pytestmark = pytest.mark.browser

# the elements whose own text holds a CJK character, each marked with data-cjk="K" (K from 0),
# and the CJK characters of each one's own text (the clock aside: its text changes ten times a
# second, too fast to be measured)
MARK = """() => {
  for (const e of document.querySelectorAll('[data-cjk]')) delete e.dataset.cjk;
  const out = [];
  const seen = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const e = t.parentElement;
    if (!e || seen.has(e) || !e.getClientRects().length) continue;
    if (e.closest('[hidden], option, script, style, #clock')) continue;
    const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
    const cjk = [...own].filter((c) => c.codePointAt(0) >= 0x2e80);
    if (!cjk.length) continue;
    seen.add(e);
    e.dataset.cjk = String(out.length);
    out.push(cjk.join(''));
  }
  return out;
}"""


# the page asked for the web font (its Chinese text needed it) and has it
LOADED = """() => [...document.fonts]
  .some((f) => f.family.replace(/"/g, '') === 'paiju-cjk' && f.status === 'loaded')"""


@pytest.fixture(scope="module")
def no_cjk_browser(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium whose fontconfig has the DejaVu fonts only: no CJK font on the machine."""
    folder = tmp_path_factory.mktemp("fonts")
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        "  <dir>/usr/share/fonts/truetype/dejavu</dir>\n"
        f"  <cachedir>{folder / 'cache'}</cachedir>\n</fontconfig>\n"
    )
    b = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={**os.environ, "FONTCONFIG_FILE": str(conf)}
    )
    try:
        yield b
    finally:
        b.close()


def _fonts_of_cjk_text(page: Any) -> dict[str, Any]:
    """For each element with Chinese text: its characters and the fonts Chromium drew it with
    ({family: glyphs}); and the families used for any Chinese text."""
    texts = page.evaluate(MARK)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    drawn = []
    for k, text in enumerate(texts):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-cjk="{k}"]'})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        drawn.append((text, {f["familyName"]: (f["glyphCount"], f["isCustomFont"]) for f in fonts}))
    cdp.detach()
    return {"drawn": drawn, "families": sorted({name for _, fonts in drawn for name in fonts})}


def _all_cjk_drawn_by_the_web_font(page: Any, where: str) -> int:
    got = _fonts_of_cjk_text(page)
    assert got["drawn"], f"{where}: no Chinese text found"
    for text, fonts in got["drawn"]:
        web = fonts.get(webfont.FAMILY)
        assert web is not None and web[1], f"{where}: {text!r} not drawn with {webfont.FAMILY}: {fonts}"
        assert web[0] >= len(text), f"{where}: {text!r}: {web[0]} glyphs from {webfont.FAMILY}: {fonts}"
        others = {name for name in fonts if name != webfont.FAMILY and not name.startswith("DejaVu")}
        assert others == set(), f"{where}: {text!r} drawn with {others} too"
    return len(got["drawn"])


def _chinese_lobby(browser: Any, base_url: str) -> tuple[Any, Any]:
    """A new context of ``browser`` in Chinese, and its page at the lobby, the web font loaded."""
    context = browser.new_context(viewport=SIZES["desktop"], locale="zh-CN")
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector(CONNECTED, timeout=15000)
    page.wait_for_function(LOADED, timeout=10000)
    return context, page


def test_chinese_drawn_with_the_sites_font_on_a_machine_without_cjk_fonts(base_url: str, no_cjk_browser: Any) -> None:
    context, page = _chinese_lobby(no_cjk_browser, base_url)
    try:
        lobby = _all_cjk_drawn_by_the_web_font(page, "the lobby")
        page.select_option("#create-game", "mahjong")
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"] .seat.me [data-card]', timeout=15000)
        page.evaluate("window.paiju.state.quiet = true")  # the table holds still while it is measured
        page.wait_for_function(LOADED, timeout=10000)
        table = _all_cjk_drawn_by_the_web_font(page, "the mahjong table")
        page.goto(base_url + "/rules/mahjong.zh.html")
        page.wait_for_function(LOADED, timeout=10000)
        rules = _all_cjk_drawn_by_the_web_font(page, "the rules page")
        drawn = f"{lobby} + {table} + {rules} elements of Chinese text drawn with {webfont.FAMILY}"
        print(f"\nno CJK font on the machine: {drawn}")
    finally:
        context.close()


def test_the_sites_font_comes_before_the_machines(base_url: str, browser: Any) -> None:
    context, page = _chinese_lobby(browser, base_url)
    try:
        _all_cjk_drawn_by_the_web_font(page, "the lobby, with the machine's fonts")
        size = Path(webfont.FONT).stat().st_size
        assert size < 400_000, f"{webfont.FONT.name} is {size} bytes"
    finally:
        context.close()
