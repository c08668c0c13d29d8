"""Two friends at one table, in headless Chromium against a real ``paiju serve`` (one browser
context on a desktop screen, the other on a phone's): the first opens the lobby's mahjong
table for friends (a private room), gives two of its seats to robots and shows its invite
link; the second opens the link and sits; they chat (the line ``<b>x</b>`` shows as typed,
never as markup); a third opens the link once the seats are taken and watches, and its chat
never reaches the players during the hand; they play the hand and both accept the rematch,
which seats them again at a new match."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest

from tests.browser.pages import click_option, open_page
from tests.browser.test_web_client import ARTIFACTS, DOCS_IMG, NEXT, SIZES

pytestmark = pytest.mark.browser

ROOM = "() => window.paiju.state.room && window.paiju.state.room.room"
CHAT = "() => [...document.querySelectorAll('#chat-log li')].map((li) => li.querySelector('.chat-text').textContent)"


def _page(browser: Any, size: str) -> tuple[Any, Any, list[str]]:
    phone = size == "phone"
    return open_page(browser, None, viewport=SIZES[size], is_mobile=phone, has_touch=phone)


def _play_together(pages: list[Any], rng: random.Random, timeout: float = 240.0) -> None:
    """Both players answer their prompts, by clicks, until each sees the final RESULT."""
    last = ["" for _ in pages]
    done = [False for _ in pages]
    deadline = time.monotonic() + timeout
    while not all(done):
        assert time.monotonic() < deadline, "the hand did not end"
        moved = False
        for i, page in enumerate(pages):
            if done[i]:
                continue
            nxt = page.evaluate(NEXT, last[i])
            if not nxt:
                continue
            if nxt["kind"] == "result":
                done[i] = True
                continue
            last[i] = nxt["n"]
            click_option(page, nxt["n"], rng.choice(nxt["options"]), rng, 2000)  # a random legal option
            moved = True
        if not moved:
            time.sleep(0.05)


def test_friends_invite_chat_play_and_rematch(base_url: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ctx_a, ann, problems_a = _page(browser, "desktop")
    ctx_b, bob, problems_b = _page(browser, "phone")
    ctx_c, eve, problems_c = _page(browser, "desktop")
    try:
        ann.goto(base_url + "/")
        ann.wait_for_selector('body[data-connected="1"]', timeout=15000)
        # the lobby's mahjong table for friends: a private room, every other seat a player's;
        # before the start its creator gives two of them to robots
        ann.click('.game-card[data-game="mahjong"] button.play-friends')
        ann.wait_for_selector('body[data-screen="table"]', timeout=15000)
        for s in (2, 3):
            ann.click(f'#invite button.swap-seat[data-seat="{s}"][data-to="robot"]', timeout=10000)
            ann.wait_for_selector(f'#invite button.swap-seat[data-seat="{s}"][data-to="player"]', timeout=10000)
        link = ann.locator("#invite-url").input_value(timeout=10000)
        room = ann.evaluate(ROOM)
        assert link == f"{base_url}/r/{room}" and len(room) == 11  # a private room's id (64 bits, URL-safe base64)
        listed = ann.evaluate("() => window.paiju.state.rooms.map((r) => r.room)")
        assert room not in listed, "a private room is listed"

        # the friend opens the link: the first free seat; the match starts (the robots sit already)
        bob.goto(link)
        bob.wait_for_selector('body[data-screen="table"]', timeout=15000)
        assert bob.evaluate(ROOM) == room and bob.evaluate("window.paiju.state.room.seat") == 1
        assert bob.evaluate("location.pathname") == "/"
        ann.wait_for_selector("#invite", state="hidden", timeout=10000)  # no free seat left

        # a third opens the link: no free seat, so it watches
        eve.goto(link)
        eve.wait_for_selector('body[data-screen="table"]', timeout=15000)
        assert eve.evaluate("window.paiju.state.room.seat") is None

        # chat: text as typed, never markup; the gallery's lines stay with the gallery
        ann.fill("#chat-text", "<b>x</b>")
        ann.press("#chat-text", "Enter")
        bob.wait_for_selector("#chat-log li .chat-text", timeout=10000)
        assert bob.evaluate(CHAT) == ["<b>x</b>"]
        assert bob.locator("#chat-log b.chat-name").count() == 1 and bob.locator("#chat-log .chat-text b").count() == 0
        eve.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1", timeout=10000)
        eve.fill("#chat-text", "from the gallery")
        eve.press("#chat-text", "Enter")
        eve.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2", timeout=10000)
        bob.fill("#chat-text", "good luck")
        bob.press("#chat-text", "Enter")
        ann.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2", timeout=10000)
        eve.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 3", timeout=10000)
        assert ann.evaluate(CHAT) == bob.evaluate(CHAT) == ["<b>x</b>", "good luck"]
        assert eve.evaluate(CHAT) == ["<b>x</b>", "from the gallery", "good luck"]
        ann.screenshot(path=str(ARTIFACTS / "web-friends-chat.png"))

        _play_together([ann, bob], random.Random("web:friends"))
        assert "from the gallery" not in ann.evaluate(CHAT) + bob.evaluate(CHAT)

        # the rematch: offered to both, accepted by both, a new match with the same two
        for page in (ann, bob):
            page.wait_for_selector('#rematch[data-state="offer"] #rematch-yes', timeout=10000)
        ann.click("#rematch-yes")
        bob.wait_for_function("() => document.querySelector('#rematch-note').textContent !== ''", timeout=10000)
        bob.click("#rematch-yes")
        for page in (ann, bob):
            page.wait_for_function(
                "(r) => window.paiju.state.room && window.paiju.state.room.room !== r", arg=room, timeout=15000
            )
        new = ann.evaluate(ROOM)
        assert bob.evaluate(ROOM) == new != room
        # mahjong's seats rotate: each player one seat on
        assert (ann.evaluate("window.paiju.state.room.seat"), bob.evaluate("window.paiju.state.room.seat")) == (1, 2)
        ann.wait_for_function(NEXT, arg="", timeout=30000)  # the new match is on: a first prompt or result
        if os.environ.get("PAIJU_DOCS_IMG") == "1":  # the README's picture of a private room with chat
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            (DOCS_IMG / "web-friends-chat.png").write_bytes((ARTIFACTS / "web-friends-chat.png").read_bytes())
        for problems in (problems_a, problems_b, problems_c):
            assert problems == [], problems
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            ctx.close()


def test_names_and_the_rematch_when_a_friend_leaves(base_url: str, browser: Any) -> None:
    """The creator sees the friend who sat after it by name; when the friend's page closes during
    the rematch offer, the creator is told at once who left and plays on with a robot instead."""
    ctx_a, ann, problems = _page(browser, "desktop")
    ctx_b, bob, _ = _page(browser, "phone")
    try:
        ann.goto(base_url + "/")
        ann.wait_for_selector('body[data-connected="1"]', timeout=15000)
        ann.click('.game-card[data-game="niujiu"] button.play-friends')
        ann.wait_for_selector('body[data-screen="table"]', timeout=15000)
        ann.click('#invite button.swap-seat[data-seat="2"][data-to="robot"]', timeout=10000)
        link = ann.locator("#invite-url").input_value(timeout=10000)
        room = ann.evaluate(ROOM)
        bob.goto(link)
        bob.wait_for_selector('body[data-screen="table"]', timeout=15000)
        name = bob.evaluate("window.paiju.state.name")
        seen = "(n) => document.querySelector('.board .seat[data-seat=\"1\"] .seat-name').textContent.includes(n)"
        ann.wait_for_function(seen, arg=name, timeout=10000)
        shown = ann.locator('.board .seat[data-seat="1"] .seat-name').inner_text()
        print(f"the creator sees the friend as {shown!r}")
        _play_together([ann, bob], random.Random("web:left"))
        for page in (ann, bob):
            page.wait_for_selector('#rematch[data-state="offer"] #rematch-yes', timeout=10000)
        closed = time.monotonic()
        ctx_b.close()  # the friend's page closes during the offer
        ann.wait_for_selector("#rematch[data-left]", timeout=5000)
        told = time.monotonic() - closed
        note = ann.locator("#rematch-note").inner_text()
        assert f"{name} left" in note, note
        assert ann.locator("#rematch-yes").inner_text() == "Play on with a robot"
        assert ann.locator("#rematch-no").inner_text() == "Back to the lobby"
        print(f"rematch: {note!r} {told:.2f} s after the friend's page closed")
        ann.click("#rematch-yes")  # a robot in the friend's place
        ann.wait_for_function("(r) => window.paiju.state.room && window.paiju.state.room.room !== r", arg=room)
        robots = ann.evaluate("Object.values(window.paiju.state.seatKinds).filter((k) => k === 'BOT').length")
        assert robots == 2, robots
        assert problems == [], problems
    finally:
        ctx_a.close()
        ctx_b.close()
