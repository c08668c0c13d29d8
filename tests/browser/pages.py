"""What the browser tests share: the pages they open, the servers' databases, and the clicks
that answer a prompt."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("PAIJU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# the records' database of each server the browser tests started (its SQLite file), by its URL
DATABASES: dict[str, Path] = {}
# Playwright (its sync API, started) and its Chromium while the browser tests share them
_CHROMIUM: list[tuple[Any, Any]] = []
CONNECTED = 'body[data-connected="1"]'


def open_page(browser: Any, url: str | None, *, console: bool = False, **context: Any) -> tuple[Any, Any, list[str]]:
    """A new browser context (``context`` its options) and page, and the list the page's errors
    go to (with ``console``, its console's errors too); at ``url`` once the page is connected
    to the server, if ``url`` is given (the context closed if it never is)."""
    ctx = browser.new_context(**context)
    try:
        page = ctx.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        if console:
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        if url is not None:
            page.goto(url)
            page.wait_for_selector(CONNECTED, timeout=15000)
    except BaseException:
        ctx.close()
        raise
    return ctx, page, problems


def click_option(page: Any, n: str, opt: dict[str, Any], rng: random.Random, timeout: float) -> bool:
    """Answer prompt ``n`` with ``opt`` (a random legal choice of it, or random picks then
    confirm), by clicks in the prompt's list (opened first if folded); False if the prompt went
    away under the pointer (its window closed)."""
    scope = f'#prompt[data-prompt-n="{n}"] .option[data-option-index="{opt["index"]}"]'
    try:
        # a game played by picking cards in the hand keeps the list behind "All plays" on a phone
        folded = page.locator('#prompt #pick-list[aria-expanded="false"]')
        if folded.count():
            folded.click(timeout=timeout)
        if opt["multi"]:
            for j in sorted(rng.sample(range(opt["picks"]), opt["multi"])):
                page.click(f'{scope} button.pick[data-pick-index="{j}"]', timeout=timeout)
            page.click(f"{scope} button.confirm", timeout=timeout)
        else:
            cards = rng.choice(opt["choices"])
            page.click(f'{scope} button.choice[data-cards="{cards}"]', timeout=timeout)
    except Exception as e:
        if "Timeout" not in type(e).__name__:
            raise
        return False
    return True


def bridge_pbn_table(page: Any, pbn: str, clock_s: float) -> None:
    """From the lobby's form: a bridge room playing one board, the first deal of ``pbn`` (the
    form plays each deal of the file by default), the natural bidder (``basic``) in the other
    three seats (a random one may bid 7NT before North's first call), a clock of ``clock_s``;
    once the table shows."""
    page.select_option("#create-game", "bridge")
    page.set_input_files("#create-pbn", {"name": "deals.pbn", "mimeType": "text/plain", "buffer": pbn.encode()})
    page.fill("#create-hands", "1")
    for s in (1, 2, 3):
        page.select_option(f'#create-bots select[data-seat="{s}"]', "basic")
    page.fill("#create-clock", str(clock_s))
    page.click("#create-room")
    page.wait_for_selector('body[data-screen="table"]', timeout=15000)


def bid_7nt_to_the_play(page: Any, bid: str) -> None:
    """At North's first call (the open bidding box ``bid``): 7NT, the last bid (no one can bid
    over it, so North declares and is asked to play), then passes until a card is asked for."""
    page.locator(f"{bid} button.choice").last.click()
    while True:
        page.wait_for_function(
            """() => { const p = document.querySelector('#prompt');
              return p.dataset.state === 'open'
                && p.querySelector('.option[data-code="1"], .option[data-code="4"]'); }""",
            timeout=60000,
        )
        if page.locator('#prompt .option[data-code="4"]').count():
            break
        page.click('#prompt .option[data-code="1"] button.choice')


def chromium() -> Any:
    """The Chromium the browser tests of a pytest process share, started on the first call and
    kept until :func:`close_chromium` (tests/conftest.py calls it before a file that does not
    use it: while Playwright's sync API is started, its event loop counts as running in this
    thread, and an asyncio test would fail, "asyncio.run() cannot be called from a running
    event loop"). Each test opens a context of its own."""
    if not _CHROMIUM:
        from playwright.sync_api import sync_playwright

        p = sync_playwright().start()
        try:
            _CHROMIUM.append((p, p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)))
        except BaseException:
            p.stop()
            raise
    return _CHROMIUM[0][1]


def close_chromium() -> None:
    """Close the shared Chromium and stop Playwright, if :func:`chromium` started them."""
    while _CHROMIUM:
        p, b = _CHROMIUM.pop()
        try:
            b.close()
        finally:
            p.stop()
