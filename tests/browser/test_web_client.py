"""The web client in a real browser: headless Chromium (Debian's, driven by Playwright)
opens the page served by a real ``paiju serve``, creates a room of each game against the
default robots (which must be the game's strongest registered ones; niujiu's and bridge's,
which think for seconds a card, replaced by the random robot in the form), plays
by clicking legal options until the hand's RESULT, and saves screenshots; on a desktop screen
and on a phone's (390 px wide: no horizontal scrolling, the open prompt on screen without
scrolling).
Early in each hand the page drops its connection: it must resume (HELLO with its token and
the last event it saw) and then see every event exactly once, in order. The bridge room is
created from a PBN file chosen in the form, and the result's "Download PBN" link must give
that file's deal back, and the board's par (solved by the server while the board is played,
kept with the stored hand) shows in the hand's replay from the records. The result panel
tells the game's result in words: nothing raw (``null``, ``[[``, ``kind:``, ``undefined``)
may show.

Needs /usr/bin/chromium (``apt-get install -y chromium fonts-wqy-microhei``). Run with::

    .venv/bin/pytest -m browser tests/browser

Screenshots go to test-artifacts/web-<game>-<size>-play.png (mid-hand) and -result.png; with
PAIJU_DOCS_IMG=1 they are also written to docs/img for the README: web-<game>.png (desktop,
mid-hand), web-<game>-result.png (desktop, the result) and web-<game>-phone.png (phone, mid-hand).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from paiju.bots import registry as robots
from paiju.bots.bridge.arena import dd_table
from paiju.core.config import PREFERRED_ROBOTS
from paiju.games import registry
from paiju.games.bridge import imps
from paiju.games.bridge.pbn import read_pbn
from tests.browser.pages import CHROMIUM, CHROMIUM_ARGS, click_option, open_page  # noqa: F401 (tests/cluster's)
from tests.server.test_pbn import BOARDS, PBN

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DOCS_IMG = ROOT / "docs" / "img"
MAX_DECISIONS = 400  # far more than any one hand asks of one seat
HAND_TIMEOUT_S = 150.0
SEED = 11  # the deal; the robots' choices and the page's clicks vary from run to run anyway
CLOCK_S = 30  # generous: a click round trip must never race the room's clock
DROP_AT = 2  # after answering this decision the page drops its connection and must resume
PLAY_SHOT_FROM = 3  # the mid-hand screenshot: the first decision from this one with a busy table
# a table worth a picture: a trick with every other seat's cards on it, or a dozen mahjong discards
BUSY = """() => document.querySelectorAll('.trick:not(.done) .played').length
    >= Math.min(2, document.querySelectorAll('.board .seat').length - 1)
  || document.querySelectorAll('.river .tile').length >= 12"""

# One JS expression: what the page waits for next (a RESULT, or a PROMPT frame not yet answered:
# after a resume the server sends the pending prompt again, with the same id, when the answer
# sent just before the drop was lost).
NEXT = """(last) => {
  const r = document.querySelector('#result');
  if (!r.hidden && r.dataset.final === '1') return {kind: 'result'};
  const p = document.querySelector('#prompt');
  if (p.dataset.state === 'open' && p.dataset.promptN !== last) {
    const options = [...p.querySelectorAll('.option')].map((o) => ({
      index: Number(o.dataset.optionIndex),
      code: Number(o.dataset.code),
      multi: o.dataset.multi ? Number(o.dataset.multi) : 0,
      choices: [...o.querySelectorAll('button.choice')].map((b) => b.dataset.cards),
      picks: o.querySelectorAll('button.pick').length,
    }));
    return {kind: 'prompt', id: p.dataset.promptId, n: p.dataset.promptN, options};
  }
  return false;
}"""


# The robot the page plays against, by game and screen, where not the game's strongest: niujiu's
# (automaton-mc) and bridge's (hybrid) think for seconds a card on a loaded machine. Against the
# random robot a board may end before the server has solved its par (in a process, from the
# deal): the live RESULT then goes without it, and the par is checked where it is kept, the
# stored hand (the records add it when the solve is done), replayed from the records.
OTHER_ROBOT = {(game, size): "random" for game in ("niujiu", "bridge") for size in ("desktop", "phone")}
SIZES = {"desktop": {"width": 1360, "height": 860}, "phone": {"width": 390, "height": 844}}
# what a result panel must never show: raw data
RAW = ("null", "[[", "kind:", "undefined", "NaN", "[object")
# the page is no wider than the screen (no horizontal scrolling; a phone's browser would zoom
# out a wider page, so the page's width is compared with the screen's, not the window's)
FITS = "(w) => document.documentElement.scrollWidth <= w && document.body.scrollWidth <= w"
# the open prompt is on screen, whole, without scrolling
PROMPT_ON_SCREEN = """() => {
  const r = document.querySelector('#prompt').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight + 1 && r.height > 0;
}"""


def _play_hand(
    page: Any, game: str, rng: random.Random, shots: dict[str, Path], phone: bool, codes: tuple[int, ...] = ()
) -> dict[str, Any]:
    """Answer every prompt with a random legal option, by clicks, until the final RESULT (with
    ``codes``, an option of one of those codes where the prompt has one: a test that only needs
    the hand over plays its cards rather than claims the rest, which the robots refuse)."""
    last = ""
    decisions = 0
    shot = False
    misfits = 0  # prompts seen with the page wider than the screen, or the prompt off screen
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while True:
        left_ms = max(1000, int((deadline - time.monotonic()) * 1000))
        nxt = page.wait_for_function(NEXT, arg=last, timeout=left_ms, polling=50).json_value()
        if nxt["kind"] == "result":
            break
        decisions += 1
        assert decisions <= MAX_DECISIONS, f"{game}: more than {MAX_DECISIONS} decisions in one hand"
        last = nxt["n"]
        if decisions == 1:
            # the seat's hand is shown before anything is asked of it
            assert page.locator(".seat.me [data-card]").count() > 0, "the seat's hand is not shown"
            if game == "bridge":  # the PBN file's first board: its own number, dealer, vulnerability
                header = page.locator(".bridge-center .vul").inner_text()
                assert (BOARDS[0].board, BOARDS[0].dealer, BOARDS[0].vulnerable) == (7, 2, "All")
                assert header == "Board 7 · dealer South · vulnerable: both sides", header
        if phone and not (page.evaluate(FITS, SIZES["phone"]["width"]) and page.evaluate(PROMPT_ON_SCREEN)):
            misfits += 1
        if not shot and decisions >= PLAY_SHOT_FROM and page.evaluate(BUSY):
            page.screenshot(path=str(shots["play"]))
            shot = True
        # uniformly among the options, then among the option's choices (as the random robot does)
        options = [o for o in nxt["options"] if o["code"] in codes] or nxt["options"]
        if not click_option(page, last, rng.choice(options), rng, 3000):
            continue  # the prompt went away under the pointer (its window closed)
        if decisions == DROP_AT:
            page.evaluate("window.paiju.drop()")
    if not shot:
        page.screenshot(path=str(shots["play"]))
    page.screenshot(path=str(shots["result"]))
    rows = page.locator("#result .scores tr[data-seat]")
    body = page.locator("body")
    return {
        "decisions": decisions,
        "sessions": body.get_attribute("data-sessions"),
        "gaps": body.get_attribute("data-gaps") or "0",
        "dups": body.get_attribute("data-dups") or "0",
        "seats": rows.count(),
        "events": page.locator("#log li[data-seq]").count(),
        "title": page.locator("#result h3").inner_text(),
        "result": page.locator("#result").inner_text(),
        "seat_names": page.evaluate("window.paiju.state.room.seats"),
        "misfits": misfits,
    }


# the public table at the end of a hand, as text: what every seat and spectator sees
# (discards, melds, occupied cards, tricks won, revealed hands, the contract), not what only
# the page's own seat (0) sees of itself (its hand, its covered cards, its concealed kongs)
PUBLIC = r"""() => {
  const parts = [];
  const text = (e) => [...e.querySelectorAll('[data-card]')].map((c) => c.dataset.card).join(',')
    + '/' + e.textContent.replace(/ \(you\)/g, '');
  for (const seat of document.querySelectorAll('.board .seat[data-seat]')) {
    const s = seat.dataset.seat;
    const sel = s === '0' ? '.river, .occupied' : '.river, .melds, .occupied, .stat:not(.covered), .revealed';
    for (const e of seat.querySelectorAll(sel)) parts.push(`${s}:${e.className}:${text(e)}`);
  }
  const center = document.querySelectorAll('.board .center .stat, .board .center .contract, .board .center .vul');
  for (const e of center) parts.push(`c:${text(e)}`);
  return parts.sort().join('|');
}"""


def _check_replay(context: Any, base_url: str, live: Any) -> int:
    """The finished hand replays, event by event, to the live table's final position and result."""
    room = live.evaluate("window.paiju.state.room.room")
    hand = int(live.locator("#result").get_attribute("data-hand"))
    assert live.locator("#result a#replay-link").get_attribute("href") == f"./?replay={room}/{hand}"
    page = context.new_page()
    try:
        page.goto(f"{base_url}/?replay={room}/{hand}")
        page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        first = page.locator("#replay-pos").inner_text()
        page.click("#replay-step")
        page.wait_for_function("(t) => document.querySelector('#replay-pos').textContent !== t", arg=first)
        page.click("#replay-end")
        page.wait_for_selector('body[data-replay="end"]', timeout=15000)
        steps = int(page.locator("#replay-pos").inner_text().split()[-1])
        assert page.evaluate(PUBLIC) == live.evaluate(PUBLIC)
        mine, theirs = (p.locator("#result .summary").inner_text().replace(" (you)", "") for p in (page, live))
        assert mine == theirs
        page.click("#replay-start")  # back to the deal, and forward again, to the same end
        page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        page.click("#replay-end")
        page.wait_for_selector('body[data-replay="end"]', timeout=15000)
        assert page.evaluate(PUBLIC) == live.evaluate(PUBLIC)
        return steps
    finally:
        page.close()


# the bidding-box table at the end of a board: its column heads, then each cell's call byte
# (hex, "" for an empty cell), row by row; and the contract's line under it
AUCTION = r"""() => {
  const t = document.querySelector('.board .center table.auction');
  return {
    heads: [...t.querySelectorAll('tr:first-child th')].map((th) => th.textContent),
    cells: [...t.querySelectorAll('tr:not(:first-child):not(.auction-contract) td')]
      .map((td) => { const c = td.querySelector('.call'); return c ? c.dataset.call : ''; }),
    contract: (t.querySelector('tr.auction-contract') || {}).textContent,
    shown: document.querySelector('.board .center .contract').textContent,
  };
}"""
STRAIN_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}


def _check_auction(page: Any, board: Any) -> None:
    """The bridge table shows the board's auction as a bidding box: columns N E S W (the dealer
    marked), the dealer's call first in its column, each call in turn, and the contract
    reached (from the board's own PBN record: its auction, contract and declarer)."""
    t = page.evaluate(AUCTION)
    assert [h.rstrip("•") for h in t["heads"]] == ["N", "E", "S", "W"], t["heads"]
    assert t["heads"][board.dealer].endswith("•") and sum(h.endswith("•") for h in t["heads"]) == 1
    calls = [f"{c:02x}" for c in board.auction]
    assert len(calls) >= 4 and t["cells"][: board.dealer + len(calls)] == [""] * board.dealer + calls, t
    assert all(c == "" for c in t["cells"][board.dealer + len(calls) :])  # the last row's rest is empty
    if board.contract == "Pass":
        want = "passed out"
    else:
        m = re.fullmatch(r"(\d)(C|D|H|S|NT)(X{0,2})", board.contract)
        assert m, board.contract
        dbl = f" {m.group(3)}" if m.group(3) else ""
        want = f"{m.group(1)}{STRAIN_SIGNS[m.group(2)]}{dbl} by {['North', 'East', 'South', 'West'][board.declarer]}"
    assert t["contract"] == want and t["shown"] == want, (t, board.contract)
    print(f"bridge: the bidding box shows {len(calls)} calls from {t['heads'][board.dealer]}, contract {want}")


# a word of the protocol rather than of players: a code name (SEAT_AWAY, HAND_START, or a bare
# SEAT, AWAY, ROBOT, ECHO, TIMEOUT) or a hex byte
CODE_WORDS = re.compile(r"\b[A-Z]+_[A-Z_]+\b|\b(?:SEAT|AWAY|ROBOT|ECHO|TIMEOUT|DEAL)\b|\b0x[0-9a-f]+")
# each mahjong pond: its grid's columns, and where its tiles sit (the 7th starts a second row)
PONDS = """() => [...document.querySelectorAll('.board .river')].map((r) => ({
  columns: getComputedStyle(r).gridTemplateColumns.split(' ').length,
  tops: [...r.children].map((t) => t.offsetTop),
}))"""


def _check_log(game: str, page: Any) -> None:
    """The event log reads as a player would say it (no code names, nothing raw); mahjong's
    names the seats by their winds and lays the discards in six-wide ponds."""
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) > 4 and all(line.strip() for line in lines)
    for line in lines:
        assert not CODE_WORDS.search(line), f"{game}: a code in the event log: {line!r}"
        assert not any(raw in line for raw in RAW), f"{game}: raw text in the event log: {line!r}"
    if game == "mahjong":
        assert sum(any(w in line for w in "东南西北") for line in lines) > len(lines) // 2, lines[:20]
        ponds = page.evaluate(PONDS)
        assert len(ponds) == 4 and all(p["columns"] == 6 for p in ponds), ponds
        for p in ponds:  # six a row: tiles 1-6 on the first, the 7th below them
            if len(p["tops"]) >= 7:
                assert len(set(p["tops"][:6])) == 1 and p["tops"][6] > p["tops"][0], p


def _check_par(page: Any, text: str) -> bool:
    """The bridge board's line in the result panel: its par, and North-South's IMPs against it,
    when the RESULT came with the par (the server solves it from the deal, in a process: a board
    that ends first has its RESULT without it, and a match with no par yet has no IMP column);
    whether it did."""
    summary = page.locator("#result .summary")
    [board] = page.evaluate("window.paiju.state.boards")
    assert board["board"] == BOARDS[0].board, board
    if board["par"] is None:
        assert summary.locator("table.match td.imps").count() == 0
        assert "no IMPs" in text, text
        return False
    # the match's IMPs are North-South's score against the deal's par, solved here by DDS
    par = dd_table(BOARDS[0].hands, BOARDS[0].vulnerable, BOARDS[0].dealer)[0]
    assert board["par"] == par, board
    want = imps(board["ns"] - par)
    shown = f"+{want}" if want > 0 else f"−{-want}" if want < 0 else "0"
    assert summary.locator("table.match td.imps").all_inner_texts() == [shown, shown]  # the board, the match
    assert "IMPs: North-South's score against the deal's par" in text
    print(f"bridge: NS {board['ns']}, par {par}: {shown} IMPs")
    return True


def _stored_match(base_url: str, name: str, room: str) -> dict[str, Any]:
    """The records' match of ``room`` (played by ``name``), once its hands' analysis is added
    (the recorder writes the match a moment after its end, the par when its solve is done)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base_url}/api/players/{quote(name)}/matches?limit=100", timeout=10) as r:
                listed = [m for m in json.load(r)["matches"] if m["room"] == room]
            if listed:
                with urllib.request.urlopen(f"{base_url}/api/matches/{listed[0]['id']}", timeout=10) as r:
                    match: dict[str, Any] = json.load(r)
                if match["hands"] and not any(h["analysis_pending"] for h in match["hands"]):
                    return match
        except urllib.error.HTTPError as e:  # 404: the player has no match recorded yet
            if e.code != 404:
                raise
        assert time.monotonic() < deadline, f"room {room}: no match with its analysis in the records"
        time.sleep(0.2)


def _check_stored_par(context: Any, base_url: str, live: Any) -> None:
    """The par of the bridge board just played, where it is kept whether or not the live RESULT
    had it: the stored hand's detail, and its replay from the records, whose result panel shows
    North-South's IMPs against it."""
    name, room = live.evaluate("[window.paiju.state.name, window.paiju.state.room.room]")
    match = _stored_match(base_url, name, room)
    par = dd_table(BOARDS[0].hands, BOARDS[0].vulnerable, BOARDS[0].dealer)[0]
    assert match["hands"][0]["detail"]["par"] == par, match["hands"][0]["detail"]
    page = context.new_page()
    try:
        page.goto(f"{base_url}/?match={match['id']}/0")
        page.wait_for_selector('body[data-replay="stepping"]', timeout=15000)
        page.click("#replay-end")
        page.wait_for_selector('body[data-replay="end"]', timeout=15000)
        assert _check_par(page, page.locator("#result").inner_text()), "the stored hand has its par"
    finally:
        page.close()


def _check_result(game: str, page: Any, text: str) -> None:
    """The result panel of ``game`` tells its result in words (a bridge board's IMPs against
    the deal's par when the RESULT came with it: :func:`_check_par`)."""
    for raw in RAW:
        assert raw not in text, f"{game}: {raw!r} in the result panel:\n{text}"
    summary = page.locator("#result .summary")
    assert summary.count() == 1
    if game == "mahjong":
        headline = summary.locator(".result-headline").inner_text()
        if "wins" in headline:  # the winning hand, its melds, the fan items, the payment
            assert summary.locator(".winning-hand .winning-tile").count() == 1
            assert "fan" in text and "point" in text and "pay" in text
        else:
            assert "Drawn hand" in headline
        assert any(w in text for w in ("东", "南", "西", "北"))
    elif game == "bridge":
        assert "contract" in text and "NS " in text and "EW " in text
        assert "tricks" in text or "passed out" in text
        assert summary.locator("table.match tr").count() >= 3  # header, the board, the match
        _check_par(page, text)
    elif game == "niujiu":
        assert summary.locator(".niujiu-result [data-seat]").count() == 3
        assert "occupied" in text and "enough" in text
    elif game == "tricks":  # the tricks taken, and the solver's value of the deal
        assert "took" in text and "trick" in text
        assert "the deal's value with perfect play" in text


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", registry.names())
@pytest.mark.slow
def test_play_a_hand_against_robots(base_url: str, browser: Any, game: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    phone = size == "phone"
    shots = {k: ARTIFACTS / f"web-{game}-{size}-{k}.png" for k in ("play", "result")}
    context, page, problems = open_page(
        browser, base_url + "/", console=True, viewport=SIZES[size], is_mobile=phone, has_touch=phone
    )
    try:
        if phone:
            assert page.evaluate(FITS, SIZES["phone"]["width"]), "the lobby is wider than a phone's screen"
        page.select_option("#create-game", game)
        if phone:  # the seat menus of the game's robots, with their descriptions, fit too
            assert page.evaluate(FITS, SIZES["phone"]["width"]), "the lobby's form is wider than a phone's screen"
        if game == "bridge":  # the deal comes from a PBN file chosen in the form
            page.set_input_files("#create-pbn", {"name": "deals.pbn", "mimeType": "text/plain", "buffer": PBN.encode()})
        page.fill("#create-hands", "1")
        page.fill("#create-clock", str(CLOCK_S))
        page.fill("#create-seed", str(SEED))
        nseats = registry.create(game, 0).num_seats
        menus = page.locator("#create-bots select")
        assert menus.count() == nseats
        # by default the page plays seat 0 and the room's default robot, the game's strongest,
        # the others
        strongest = next(r for r in PREFERRED_ROBOTS if r in robots.names(game))
        assert [menus.nth(s).input_value() for s in range(nseats)] == ["@player"] + [strongest] * (nseats - 1)
        # the page plays against them, or against OTHER_ROBOT's, chosen in the form (the README's
        # pictures: the strongest)
        docs = os.environ.get("PAIJU_DOCS_IMG") == "1"
        robot = strongest if docs else OTHER_ROBOT.get((game, size), strongest)
        for s in range(1, nseats):
            page.select_option(f'#create-bots select[data-seat="{s}"]', robot)
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)

        summary = _play_hand(page, game, random.Random(f"web:{game}"), shots, phone)
        print(f"\n{game} ({size}): { {k: v for k, v in summary.items() if k != 'result'} }")
        assert summary["seat_names"][1:] == [f"{robot} (robot)"] * (nseats - 1), summary["seat_names"]
        _check_result(game, page, summary["result"])
        if game == "bridge" and not phone:
            _check_stored_par(context, base_url, page)
        _check_log(game, page)
        steps = _check_replay(context, base_url, page)
        print(f"{game} ({size}): the replay of {steps} events ends at the same table and result")
        if phone:
            assert summary["misfits"] == 0, f"{game}: the table did not fit the phone's screen"
            assert page.evaluate(FITS, SIZES["phone"]["width"]), "the result is wider than a phone's screen"
        assert summary["decisions"] > 0, f"{game}: the page was never asked to decide"
        assert summary["seats"] == nseats
        assert summary["events"] > 0
        if summary["decisions"] >= DROP_AT:  # dropped mid-hand, resumed, every event exactly once
            assert summary["sessions"] == "2", summary
        assert (summary["gaps"], summary["dups"]) == ("0", "0"), summary
        assert problems == [], problems
        assert shots["play"].stat().st_size > 0 and shots["result"].stat().st_size > 0
        if game == "bridge":  # the board played, offered as a PBN file, is the file's first deal
            link = page.locator("#result a#download-pbn")
            assert link.get_attribute("download", timeout=3000).endswith(".pbn")
            text = page.evaluate("(a) => fetch(a.href).then((r) => r.text())", link.element_handle())
            [board] = read_pbn(text)
            assert (board.board, board.hands) == (BOARDS[0].board, BOARDS[0].hands)
            _check_auction(page, board)
        if os.environ.get("PAIJU_DOCS_IMG") == "1":
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            if phone:
                (DOCS_IMG / f"web-{game}-phone.png").write_bytes(shots["play"].read_bytes())
            else:
                (DOCS_IMG / f"web-{game}.png").write_bytes(shots["play"].read_bytes())
                (DOCS_IMG / f"web-{game}-result.png").write_bytes(shots["result"].read_bytes())
    finally:
        context.close()
