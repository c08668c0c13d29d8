"""The clocks in a real browser (headless Chromium, as test_web_client.py): a room that keeps
the game's clock shows the move's time and the seat's time bank; a move past its time runs
on the bank and the seat stays the player's; once the bank is spent a robot plays the seat,
and answering the next prompt takes it back. The server's clock is short here (1.5 s a move,
a 3 s bank) so that the test takes seconds."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from paiju.testing import inprocess
from tests.browser.pages import open_page

pytestmark = pytest.mark.browser

MOVE_MS, BANK_MS = 1500, 3000
LOG = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"
LOGGED = "(t) => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(t))"
OPEN = '#prompt[data-state="open"]'
OPENED = "(n) => ((p) => p.dataset.state === 'open' && p.dataset.promptN !== n)(document.querySelector('#prompt'))"
CLOCK = ("--clock", f"tricks={MOVE_MS}", "--bank", f"tricks={BANK_MS}", "--no-robot-on-drop")


@pytest.fixture(scope="module")
def clock_url() -> Iterator[str]:
    server = inprocess.start("--robot-pace", "0", *CLOCK)
    try:
        yield server.http
    finally:
        server.stop(timeout=10)


def _answer(page: Any) -> None:
    """Click the first choice of the open prompt."""
    page.click(f"{OPEN} button.choice", timeout=3000)


def _next_prompt(page: Any, after: str | None) -> str:
    """Wait for a prompt other than ``after`` to open; its data-prompt-n."""
    page.wait_for_function(OPENED, arg=after or "", timeout=20000)
    n: str = page.locator("#prompt").get_attribute("data-prompt-n")
    return n


def test_the_clock_shows_the_bank_and_the_seat_is_kept_then_taken_back(clock_url: str, browser: Any) -> None:
    context, page, problems = open_page(browser, clock_url + "/", viewport={"width": 1360, "height": 860})
    try:
        page.select_option("#create-game", "tricks")
        page.fill("#create-hands", "1")  # the clock left empty: the room keeps the game's clock and bank
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)

        first = _next_prompt(page, None)
        text = page.locator("#clock-text").inner_text()
        assert re.fullmatch(r"1\.\d s \+ bank 3 s", text), text
        # past the move's own time the clock runs on the bank, and the seat is still the player's
        page.wait_for_selector("#clock.bank", timeout=5000)
        page.wait_for_function("() => +document.querySelector('#clock').dataset.bankMs < 2400", timeout=5000)
        assert page.locator("#clock-text").inner_text().startswith("time bank: ")
        _answer(page)
        second = _next_prompt(page, first)
        left = int(page.locator("#clock").get_attribute("data-bank-ms"))
        assert left < 2500, left  # the bank the first move spent is gone from the next prompt
        assert not any("robot plays for" in line for line in page.evaluate(LOG))

        # no answer: the bank runs out, the clock plays, and a robot takes the seat at once
        page.wait_for_function(LOGGED, arg="A robot plays for", timeout=MOVE_MS + BANK_MS + 5000)
        lines = page.evaluate(LOG)
        assert any("ran out of time" in line for line in lines), lines
        assert page.locator(".seat.me .badge.bot").count() == 1, "the seat shows its robot"
        # the player still gets the prompts: answering the next one takes the seat back
        _next_prompt(page, second)
        _answer(page)
        page.wait_for_function(LOGGED, arg="is back at the controls", timeout=5000)
        assert page.locator(".seat.me .badge.bot").count() == 0
        print(f"clock: move {MOVE_MS} ms + bank {BANK_MS} ms; {left} ms of bank left after a slow move; taken back")
        assert problems == [], problems
    finally:
        context.close()
