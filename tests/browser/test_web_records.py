"""Accounts and records in a real browser (headless Chromium, as test_web_client.py): register,
play a hand against a robot, find it on the player's page, open the stored hand in the web
client's replay viewer (the same as for a hand just played) and step through it to the table
the hand ended at, see the rating on the leaderboard; log out, log in again, and stay logged in across a
reload (the session token is kept in localStorage)."""

from __future__ import annotations

import random
import re
import secrets
import sqlite3
from typing import Any

import pytest

from tests.browser.pages import DATABASES, open_page
from tests.browser.test_web_client import ARTIFACTS, PUBLIC, RAW, _play_hand

pytestmark = pytest.mark.browser

BIG_SEED = 2**63 - 1  # the largest seed of the wire, above 2**53: a JavaScript number would round it


def _db_seed(url: str, match_id: int) -> int | None:
    """The seed the server's database holds for the match (None: a server not started here)."""
    db = DATABASES.get(url)
    if db is None:
        return None
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT seed FROM matches WHERE id = ?", (match_id,)).fetchone()[0])


def _my_matches(page: Any) -> None:
    """Open the player's page until it lists a match (the recorder writes it a moment after its end)."""
    for _ in range(50):
        page.click("#show-mine")
        page.wait_for_selector('#records-body[data-view="player"] h2', timeout=10000)
        if page.locator("#matches tr[data-match]").count():
            break
        page.wait_for_timeout(200)


def test_register_play_history_replay_leaderboard(base_url: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"ann{secrets.token_hex(3)}"
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport={"width": 1360, "height": 860})
    try:
        page.fill("#account-user", name)
        page.fill("#account-password", "correct horse")
        page.click("#register")
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)

        page.select_option("#create-game", "tricks")
        page.fill("#create-hands", "1")
        page.fill("#create-clock", "30")
        page.fill("#create-seed", str(BIG_SEED))
        # the seat menus' defaults: this page plays seat 0, the game's default robot seat 1
        assert page.locator("#create-bots select").nth(0).input_value() == "@player"
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        shots = {k: ARTIFACTS / f"web-records-{k}.png" for k in ("play", "result")}
        _play_hand(page, "tricks", random.Random("web:records"), shots, False)
        live_table = page.evaluate(PUBLIC)
        live_scores = [t.replace(" (you)", "") for t in page.locator("#result .scores tr[data-seat]").all_inner_texts()]

        _my_matches(page)  # the player's page lists the match
        row = page.locator("#matches tr[data-match]").first
        assert "Tricks" in row.inner_text() and name in row.inner_text()
        assert "→" in row.locator(".rating-change").inner_text(), "the rating change is shown"
        match_id = int(row.get_attribute("data-match") or 0)
        row.locator("a.open-replay").click()
        page.wait_for_url(f"**/matches/{match_id}", timeout=5000)
        seed = page.locator("#match-seed").inner_text(timeout=10000)
        assert seed == str(BIG_SEED) and _db_seed(base_url, match_id) in (BIG_SEED, None), seed
        # the page checks the commitment (in the browser) and every deal from the seed (the server's check)
        page.wait_for_selector('#match-commitment-check[data-ok="true"]', timeout=10000)
        page.wait_for_selector('#match-deals-check[data-ok="true"]', timeout=10000)
        assert len(page.locator("#match-commitment").inner_text()) == 64
        link = page.locator(".replay-hand a.open-hand-replay").first
        href = link.get_attribute("href", timeout=10000)
        assert re.fullmatch(r"\./\?match=\d+/0", href or ""), href
        page.screenshot(path=str(ARTIFACTS / "web-records-match.png"))
        # the stored hand opens in the same replay viewer as a hand just played: the table, step by step
        viewer = context.new_page()
        viewer.on("pageerror", lambda e: problems.append(f"viewer page error: {e}"))
        viewer.goto(f"{base_url}/{href[2:]}")
        viewer.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        at, total = (int(w) for w in viewer.locator("#replay-pos").inner_text().split()[1::2])
        assert total >= 16  # 8 cards each, two seats
        # it opens at the deal with both hands face up (a finished hand's replay hides nothing)
        assert viewer.locator(".board .seat .card:not(.back)").count() == 16
        assert viewer.locator(".board .seat .card.back").count() == 0
        for _ in range(3):
            viewer.click("#replay-step")
        assert viewer.locator("#replay-pos").inner_text() == f"event {at + 3} of {total}"
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
        # a new player's ordinal is 0 (mu - 3 sigma = 25 - 3 x 25/3), shown as 1500: one rated
        # match moves it, and one loss does not make it negative
        shown = page.locator(f'#leaderboard tr[data-player="{name}"] td.rating').inner_text()
        assert shown.isdigit() and shown != "1500", shown
        assert (
            page.locator('#leaderboard tr[data-player="perfect@1"]').count() == 1
        )  # robots are rated too (tricks' default robot)
        page.screenshot(path=str(ARTIFACTS / "web-records-leaderboard.png"))

        page.click("#logout")
        page.wait_for_selector("#login", timeout=10000)
        page.fill("#account-user", name)
        page.fill("#account-password", "wrong horse")
        page.click("#login")
        page.wait_for_selector('#account-error:text("Wrong name or password.")', timeout=10000)
        page.fill("#account-password", "correct horse")
        page.click("#login")
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=10000)
        page.reload()  # the session token in localStorage signs the page in again
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)
        problems = [p for p in problems if "212" not in p and "211" not in p]
        assert problems == [], problems
    finally:
        context.close()


def test_a_guests_matches_and_the_pages_addresses(base_url: str, browser: Any) -> None:
    """A guest's "My matches" lists the match just played; the player, match and leaderboard
    pages are addresses that reload as themselves, and Back returns to the page before."""
    name = f"guest-{secrets.token_hex(3)}"
    context, page, problems = open_page(browser, base_url + "/", console=True, viewport={"width": 1280, "height": 800})
    try:
        page.fill("#player-name", name)
        page.press("#player-name", "Enter")
        page.wait_for_selector(f'#status:text("connected as {name}")', timeout=15000)
        page.select_option("#create-game", "tricks")
        page.fill("#create-clock", "30")
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        shots = {k: ARTIFACTS / f"web-guest-{k}.png" for k in ("play", "result")}
        _play_hand(page, "tricks", random.Random("web:guest"), shots, False)
        page.click("#back-to-lobby")

        _my_matches(page)
        assert page.url == f"{base_url}/players/{name}"
        assert page.locator("#matches tr[data-match]").count() == 1
        match_id = page.locator("#matches tr[data-match]").first.get_attribute("data-match")
        page.reload()
        page.wait_for_selector(f'#records-body[data-view="player"] #matches tr[data-match="{match_id}"]', timeout=15000)

        page.locator("#matches a.open-replay").first.click()
        page.wait_for_url(f"{base_url}/matches/{match_id}", timeout=5000)
        page.wait_for_selector("#match-seed", timeout=10000)
        seed = page.locator("#match-seed").inner_text()
        page.reload()
        page.wait_for_selector("#match-seed", timeout=15000)
        assert page.locator("#match-seed").inner_text() == seed
        assert _db_seed(base_url, int(match_id or 0)) in (int(seed), None)

        page.click("#show-leaderboard")
        page.wait_for_url(f"{base_url}/leaderboard/*", timeout=5000)
        page.wait_for_selector("#leaderboard tr[data-player]", timeout=10000)
        board_url = page.url
        page.reload()
        page.wait_for_selector("#leaderboard tr[data-player]", timeout=15000)
        assert page.url == board_url
        page.go_back()  # the match page again, then the player's
        page.wait_for_selector("#match-seed", timeout=10000)
        assert page.url == f"{base_url}/matches/{match_id}"
        page.go_back()
        page.wait_for_selector(f'#matches tr[data-match="{match_id}"]', timeout=10000)
        page.click("#records-back")
        page.wait_for_selector('body[data-screen="lobby"]', timeout=5000)
        assert page.url == f"{base_url}/"
        # (the player's page of a name with no match yet is a 404, while the recorder writes it)
        problems = [p for p in problems if "status of 404" not in p]
        assert problems == [], problems
    finally:
        context.close()


def test_the_sessions_line_lists_and_ends_sessions(base_url: str, browser: Any) -> None:
    """Two browsers log in to one account; the first lists its sessions (two, its own marked)
    and ends the other, which is logged out at once."""
    name = f"sam{secrets.token_hex(3)}"
    context, page, problems = open_page(browser, base_url + "/", console=True)
    other, page2, problems2 = open_page(browser, base_url + "/", console=True)
    try:
        page.fill("#account-user", name)
        page.fill("#account-password", "correct horse")
        page.click("#register")
        page.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)
        page2.fill("#account-user", name)
        page2.fill("#account-password", "correct horse")
        page2.click("#login")
        page2.wait_for_selector(f'#account-name:text("signed in as {name}")', timeout=15000)
        page.click("#sessions")
        page.wait_for_selector("#sessions-line .session >> nth=1", timeout=10000)
        assert page.locator('#sessions-line .session[data-current="1"]').count() == 1
        assert "2 sessions" in page.inner_text("#sessions-line")
        page.click("#sessions-line .end-session")
        page2.wait_for_selector("#login", timeout=10000)  # the other browser is a guest now
        page.wait_for_function("document.querySelectorAll('#sessions-line .session').length === 1", timeout=10000)
        assert not problems and not problems2, problems + problems2
    finally:
        context.close()
        other.close()
