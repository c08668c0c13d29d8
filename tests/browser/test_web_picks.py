"""Playing by touching the hand, in headless Chromium against a real ``paiju serve``:

- a Niujiu hand played to its end by tapping cards in the hand and pressing Play only (on a
  desktop and on a phone): after each tap the lit cards are exactly those of the legal plays
  that contain the selection, and Play is enabled exactly when the selection is a legal play
  (or, with nothing to eat with, a legal cover); Hint cycles through the legal plays; the
  keyboard picks (arrows, Space) and clears (Escape); the prompt's list stays behind "All plays".
- a bridge hand where each card of the hand that is the only legal one is lit and played by one
  click, and, once "play a lone legal card by itself" is ticked, played with no click at all.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest

from tests.browser.pages import bid_7nt_to_the_play, bridge_pbn_table, open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, DOCS_IMG, SIZES
from tests.browser.test_web_words import RAW
from tests.server.test_pbn import PBN

pytestmark = pytest.mark.browser

# the open prompt as the page holds it (options with plain lists of bytes), or null
PROMPT = """() => {
  const p = window.paiju.state.prompt;
  if (!p || window.paiju.state.promptState !== 'open') return null;
  return { id: p.prompt_id, seat: p.seat,
           options: p.options.map((o) => ({ code: o.code, pick: o.pick, cards: [...o.cards] })) };
}"""
RESULT = """() => { const r = document.querySelector('#result');
  return !r.hidden && r.dataset.final === '1'; }"""
OUT = "() => window.paiju.trace.filter((t) => t[1] === 'out').length"
# the bytes of the cards matching a selector, in order
CARDS = "(sel) => [...document.querySelectorAll(sel)].map((e) => parseInt(e.dataset.card, 16)).sort((a, b) => a - b)"
LIT = ".seat.me .hand .candidate, .seat.me .hand .selected"
SELECTED = ".seat.me .hand .selected"
NIUJIU_PLAYS = (0, 1)  # LEAD, EAT (paiju.protocol.niujiu.ActCode); COVER is 2


def _next(page: Any, last: Any, deadline: float) -> dict[str, Any] | None:
    """The next open prompt (another id than ``last``), or None at the final result."""
    while time.monotonic() < deadline:
        if page.evaluate(RESULT):
            return None
        p = page.evaluate(PROMPT)
        if p and p["id"] != last:
            return p  # type: ignore[no-any-return]
        page.wait_for_timeout(40)
    raise AssertionError("no prompt nor result in time")


def _tap(page: Any, cards: list[int]) -> None:
    for b in cards:
        page.click(f'.seat.me .hand [data-card="{b:02x}"]')


def _lit_for(plays: list[list[int]], sel: list[int]) -> list[int]:
    return sorted({b for p in plays if set(sel) <= set(p) for b in p})


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_niujiu_by_tapping_cards(base_url: str, browser: Any, size: str) -> None:
    phone = size == "phone"
    extra = {"is_mobile": True, "has_touch": True} if phone else {}
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport=SIZES[size], **extra)
    rng = random.Random(f"picks:{size}")
    try:
        page.select_option("#create-game", "niujiu")
        for s in (1, 2):  # (the default robot thinks for seconds a play on a loaded machine)
            page.select_option(f'#create-bots select[data-seat="{s}"]', "random")
        page.fill("#create-clock", str(CLOCK_S))
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        last = None
        decisions = checked = covers = hints = 0
        deadline = time.monotonic() + 150
        while (p := _next(page, last, deadline)) is not None:
            last = p["id"]
            decisions += 1
            plays = [o["cards"] for o in p["options"] if o["code"] in NIUJIU_PLAYS]
            cover = next((o for o in p["options"] if o["code"] == 2), None)
            assert page.locator("#pick-bar").is_visible()
            # the list of every play: folded on a phone, open on a desktop, there on both
            assert page.locator("#prompt-options").is_visible() != phone
            assert page.locator('#prompt-options .option:not([data-code="2"]) button.choice').count() == len(plays)
            if decisions == 1 and not phone:
                # the keyboard: an arrow to the first card, Space picks it, Escape clears
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Space")
                assert len(page.evaluate(CARDS, SELECTED)) == 1
                page.keyboard.press("Escape")
                assert page.evaluate(CARDS, SELECTED) == []
            if decisions <= 3 and plays:
                # Hint shows the legal plays in turn, each selected whole, Play enabled for it
                for want in plays[:3]:
                    page.click("#pick-hint")
                    assert page.evaluate(CARDS, SELECTED) == sorted(want)
                    assert page.locator("#pick-play").is_enabled()
                    hints += 1
                page.click("#pick-clear")
                assert page.evaluate(CARDS, SELECTED) == []
                assert page.locator("#pick-play").is_disabled()
            if plays and (cover is None or rng.random() < 0.85):
                choice = rng.choice(plays)
            else:
                assert cover is not None
                choice = rng.sample(cover["cards"], cover["pick"])
                covers += 1
            # tap the cards one by one: after each, what is lit and whether Play is enabled
            for i in range(len(choice)):
                sel = choice[: i + 1]
                _tap(page, [choice[i]])
                got = page.evaluate(CARDS, LIT)
                assert got == sorted(set(_lit_for(plays, sel)) | set(sel)), (got, sel, plays, page.evaluate(PROMPT))
                covered = cover is not None and len(sel) == cover["pick"]
                legal = any(sorted(sel) == sorted(x) for x in plays) or covered
                assert page.locator("#pick-play").is_enabled() == legal, (sel, plays)
                checked += 1
            if decisions == 2:  # the cards picked, Play lit: the README's picture on a phone
                page.screenshot(path=str(ARTIFACTS / f"web-niujiu-picks-{size}.png"))
                if phone and os.environ.get("PAIJU_DOCS_IMG") == "1":
                    DOCS_IMG.mkdir(parents=True, exist_ok=True)
                    (DOCS_IMG / "web-niujiu-picks-phone.png").write_bytes(
                        (ARTIFACTS / "web-niujiu-picks-phone.png").read_bytes()
                    )
            sent = page.evaluate(OUT)
            page.click("#pick-play")
            page.wait_for_function("(n) => window.paiju.trace.filter((t) => t[1] === 'out').length > n", arg=sent)
            shown = page.evaluate("document.body.innerText")
            assert not RAW.search(shown), f"raw data on the page: {RAW.search(shown)}"  # no "null" after a step
        assert decisions > 0
        assert page.locator("#errors .error").count() == 0, page.locator("#errors").inner_text()
        assert page.locator("#result .summary").count() == 1
        assert problems == [], problems
        print(f"niujiu, {size}: {decisions} plays by taps and Play ({covers} covers), {checked} taps, {hints} hints")
    finally:
        context.close()


def test_bridge_single_legal_card_by_click(base_url: str, browser: Any) -> None:
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport=SIZES["desktop"])
    try:
        bridge_pbn_table(page, PBN, CLOCK_S)
        bid_7nt_to_the_play(page, '#prompt[data-state="open"] .option[data-code="0"]')
        last = None
        clicked = singles = auto = 0
        deadline = time.monotonic() + 120
        while (p := _next(page, last, deadline)) is not None:
            last = p["id"]
            legal = sorted({b for o in p["options"] if o["code"] == 4 for b in o["cards"]})  # PLAY
            if not legal:  # not a card to play (a claim to answer): the prompt's first button
                page.locator('#prompt[data-state="open"] button.choice').first.click()
                continue
            lit = page.evaluate(CARDS, f'.seat[data-seat="{p["seat"]}"] .playable')
            if len(legal) == 1 and singles >= 1:
                # "play a lone legal card by itself" is ticked: the page answers with no click
                gone = "(id) => !window.paiju.state.prompt || window.paiju.state.prompt.prompt_id !== id"
                page.wait_for_function(gone, arg=p["id"], timeout=5000)
                auto += 1
                continue
            assert lit == legal, (lit, legal)  # every legal card lit and clickable, a lone one too
            sent = page.evaluate(OUT)
            page.click(f'.seat[data-seat="{p["seat"]}"] .playable[data-card="{random.choice(legal):02x}"]')
            page.wait_for_function("(n) => window.paiju.trace.filter((t) => t[1] === 'out').length > n", arg=sent)
            clicked += 1
            if len(legal) == 1:
                singles += 1
                page.check("#auto-single")
        assert singles >= 1 and auto >= 1, (singles, auto)
        assert page.locator("#errors .error").count() == 0, page.locator("#errors").inner_text()
        assert problems == [], problems
        print(f"bridge: {clicked} cards clicked, {singles} the only legal card, {auto} lone cards played by themselves")
    finally:
        context.close()
