"""The Chinese interface through a hand of each game, in headless Chromium against a real
``paiju serve``: a browser whose language is Chinese creates a room against fast robots, plays
the hand by clicks to its result, then opens its replay, the player's records and the match's
page. At the first prompt, in play, at the result, at the replay's start and end and on the
records' pages, neither the visible text nor a tooltip (``title``) nor a
placeholder holds a Latin-letter word (and the table's "the rules" opens the game's Chinese
rules page): only card ranks (A K Q J T, one letter), the compass
letters N E S W, the names of players, robots and rooms, the site's name (paiju), the
language menu's "English", a match's hex commitment and salt and the hash's name (SHA-256) may
use Latin letters. No traditional character may show (simplified
only: 东 万 发, never their traditional forms)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paiju.games import registry
from tests.browser.pages import click_option, open_page
from tests.browser.test_web_client import ARTIFACTS, CLOCK_S, NEXT, SIZES
from tests.browser.test_web_i18n import TRADITIONAL as TRADITIONAL_AT_TABLE
from tests.server.test_web_chinese import LATIN_WORD, TRADITIONAL

pytestmark = pytest.mark.browser

# the page's visible text and its tooltips and placeholders, the names of the seats' holders and
# of the leaderboard's players, the public rooms' ids and their players (players' and robots'
# names are names in any language: the server is shared with the other browser tests' rooms and
# players) and the room's id taken out
SEEN = """() => {
  const st = window.paiju.state;
  const room = st.room || {};
  const names = [room.room, ...(room.seats || []).filter(Boolean).map((n) => n.replace(/ \\(robot\\)$/, '')),
    ...(room.robots || []).filter(Boolean), ...Object.values(st.robots).flat(2).filter((x) => !/\\s/.test(x)),
    ...[...document.querySelectorAll('[data-player]')].map((e) => e.dataset.player),
    ...(st.rooms || []).flatMap((r) => [r.room, ...(r.seats || []).filter((n) => n && !/ \\(robot\\)$/.test(n))]),
    st.name, st.playerId, 'paiju', 'English'].filter(Boolean).map(String).sort((a, b) => b.length - a.length);
  let t = document.body.innerText + '\\n' + [...document.querySelectorAll('[title], [placeholder], [aria-label]')]
    .filter((e) => !e.closest('[hidden]'))
    .map((e) => [e.title, e.placeholder, e.getAttribute('aria-label')].filter(Boolean).join(' ')).join('\\n');
  for (const n of names) t = t.split(n).join(' ');
  // a match's commitment and salt are hex data, and SHA-256 the name of the hash that checks them
  return t.replace(/\\b[0-9a-f]{16,}\\b/g, ' ').split('SHA-256').join(' ');
}"""


def _foreign(text: str) -> list[str]:
    """The Latin-letter words and the traditional characters in ``text``."""
    return sorted(set(LATIN_WORD.findall(text)) | {c for c in text if c in TRADITIONAL + TRADITIONAL_AT_TABLE})


def _check(page: Any, where: str) -> str:
    text = str(page.evaluate(SEEN))
    bad = _foreign(text)
    assert bad == [], f"{where}: {bad} in {text[:1500]!r}"
    return text


@pytest.mark.parametrize("game", registry.names())
def test_a_hand_its_result_and_its_replay_in_chinese(base_url: str, browser: Any, game: str) -> None:
    context, page, problems = open_page(browser, base_url + "/", viewport=SIZES["desktop"], locale="zh-CN")
    try:
        assert page.evaluate("document.documentElement.lang") == "zh-Hans"
        _check(page, "the lobby")
        page.select_option("#create-game", game)
        for s in range(1, registry.create(game, 0).num_seats):
            page.select_option(f'#create-bots select[data-seat="{s}"]', "random")
        page.fill("#create-clock", str(CLOCK_S))
        _check(page, "the lobby's form")
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)
        page.wait_for_function(NEXT, arg="", timeout=30000)
        page.evaluate("document.querySelector('#prompt .option')?.dispatchEvent(new MouseEvent('mouseover'))")
        _check(page, "the table")
        # the badge of the seat that opens the hand: each game's own word (bridge's dealer 发牌 is
        # not its declarer 庄家; mahjong's dealer is 庄)
        badge = page.locator(".board .badge.dealer").first.inner_text()
        assert badge == {"bridge": "发", "mahjong": "庄", "niujiu": "头", "tricks": "先"}[game], badge
        # "the rules" at the table: the game's page for players, in Chinese
        assert page.locator("#table-rules").get_attribute("href") == f"/rules/{game}.zh.html"
        rules = page.request.get(base_url + f"/rules/{game}.zh.html")
        assert rules.status == 200 and '<html lang="zh-Hans">' in rules.text(), rules.status
        play_to_result(page, random.Random(f"zh:{game}"), lambda: _check(page, "the table in play"))
        page.screenshot(path=str(_shot(game)))
        result = _check(page, "the result")
        room = page.evaluate("window.paiju.state.room.room")
        hand = page.locator("#result").get_attribute("data-hand")
        replay = context.new_page()
        replay.goto(f"{base_url}/?replay={room}/{hand}")
        replay.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        replay.click("#replay-step")
        _check(replay, "the replay")
        replay.click("#replay-end")
        replay.wait_for_selector('body[data-replay="end"]', timeout=15000)
        _check(replay, "the replay's end")
        page.click("#show-mine")  # the player's records, then the match, in Chinese too
        page.wait_for_selector("#records-body a.open-replay", timeout=15000)
        _check(page, "the player's matches")
        page.click("#records-body a.open-replay")
        page.wait_for_selector("#records-body a.open-hand-replay", timeout=15000)
        _check(page, "the match's page")
        page.goto(f"{base_url}/leaderboard/{game}")
        page.wait_for_selector("#records-body table, #records-body .not-found, #records-body p", timeout=15000)
        _check(page, "the leaderboard")
        print(f"\n{game} in zh: the result reads {result[:100]!r}")
        assert problems == [], problems
    finally:
        context.close()


def play_to_result(page: Any, rng: random.Random, check: Callable[[], object]) -> None:
    """Answer every prompt with a random legal option, by clicks, until the final RESULT;
    ``check()`` at the third decision (a table in play)."""
    last, decisions = "", 0
    while (nxt := page.wait_for_function(NEXT, arg=last, timeout=60000, polling=50).json_value())["kind"] != "result":
        last = nxt["n"]
        decisions += 1
        if decisions == 3:
            check()
        click_option(page, last, rng.choice(nxt["options"]), rng, 3000)


def _shot(game: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"web-zh-{game}-result.png"
