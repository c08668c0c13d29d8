"""Accounts and records in a real browser (headless Chromium, as test_web_client.py): register,
play a hand against a robot, find it on the player's page, open the stored hand in the web
client's replay viewer (the same as for a hand just played) and step through it to the table
the hand ended at, see the rating on the leaderboard; log out, log in again, and stay logged in across a
reload (the session token is kept in localStorage)."""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

import pytest

from tests.browser.test_web_client import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    PUBLIC,
    RAW,
    _play_hand,
    base_url,
    browser,
)

pytestmark = pytest.mark.browser


def test_register_play_history_replay_leaderboard(base_url: str, browser: Any) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"ann{secrets.token_hex(3)}"
    context = browser.new_context(viewport={"width": 1360, "height": 860})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    try:
        page.goto(base_url + "/")
        page.wait_for_selector('body[data-connected="1"]', timeout=15000)
        page.fill("#account-user", name)
        page.fill("#account-password", "correct horse")
        page.click("#register")
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)

        page.select_option("#create-game", "tricks")
        page.fill("#create-hands", "1")
        page.fill("#create-clock", "30")
        # the seat menus' defaults: this page plays seat 0, the game's default robot seat 1
        assert page.locator("#create-bots select").nth(0).input_value() == "@player"
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        shots = {k: ARTIFACTS / f"web-records-{k}.png" for k in ("play", "result")}
        _play_hand(page, "tricks", random.Random("web:records"), shots, False)
        live_table = page.evaluate(PUBLIC)
        live_scores = [t.replace(" (you)", "") for t in page.locator("#result .scores tr[data-seat]").all_inner_texts()]

        # the player's page lists the match (the recorder writes it a moment after its end)
        for _ in range(50):
            page.click("#show-mine")
            page.wait_for_selector('#records-body[data-view="player"] h2', timeout=10000)
            if page.locator("#matches tr[data-match]").count():
                break
            page.wait_for_timeout(200)
        row = page.locator("#matches tr[data-match]").first
        assert "Tricks" in row.inner_text() and name in row.inner_text()
        assert "→" in row.locator(".rating-change").inner_text(), "the rating change is shown"
        row.locator("button.open-replay").click()
        link = page.locator(".replay-hand a.open-hand-replay").first
        href = link.get_attribute("href", timeout=10000)
        assert re.fullmatch(r"\./\?match=\d+/0", href or ""), href
        page.screenshot(path=str(ARTIFACTS / "web-records-match.png"))
        # the stored hand opens in the same replay viewer as a hand just played: the table, step by step
        viewer = context.new_page()
        viewer.on("pageerror", lambda e: problems.append(f"viewer page error: {e}"))
        viewer.goto(f"{base_url}/{href[2:]}")
        viewer.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        total = int(viewer.locator("#replay-pos").inner_text().split()[-1])
        assert total >= 16  # 8 cards each, two seats
        for _ in range(3):
            viewer.click("#replay-step")
        assert viewer.locator("#replay-pos").inner_text() == f"event 3 of {total}"
        viewer.click("#replay-end")
        viewer.wait_for_selector('body[data-replay="end"]', timeout=15000)
        assert viewer.evaluate(PUBLIC) == live_table, "the stored hand replays to the table the hand ended at"
        shown = viewer.locator("#result").inner_text()
        for raw in RAW:
            assert raw not in shown, f"{raw!r} in the replay's result:\n{shown}"
        assert viewer.locator("#result .scores tr[data-seat]").all_inner_texts() == live_scores
        viewer.screenshot(path=str(ARTIFACTS / "web-records-replay.png"))
        viewer.close()

        page.click("#show-leaderboard")
        page.select_option("#leaderboard-game", "tricks")
        page.wait_for_selector(f'#leaderboard tr[data-player="{name}"]', timeout=10000)
        # a new player's rating is 0 (mu - 3 sigma = 25 - 3 x 25/3): one rated match moves it
        assert page.locator(f'#leaderboard tr[data-player="{name}"] td.rating').inner_text() not in ("", "0.00")
        assert (
            page.locator('#leaderboard tr[data-player="perfect@1"]').count() == 1
        )  # robots are rated too (tricks' default robot)
        page.screenshot(path=str(ARTIFACTS / "web-records-leaderboard.png"))

        page.click("#logout")
        page.wait_for_selector("#login", timeout=10000)
        page.fill("#account-user", name)
        page.fill("#account-password", "wrong horse")
        page.click("#login")
        page.wait_for_selector('#account-error:text("no account with this name and password")', timeout=10000)
        page.fill("#account-password", "correct horse")
        page.click("#login")
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=10000)
        page.reload()  # the session token in localStorage signs the page in again
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)
        problems = [p for p in problems if "212" not in p and "211" not in p]
        assert problems == [], problems
    finally:
        context.close()
