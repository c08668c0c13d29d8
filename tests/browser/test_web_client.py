"""The web client in a real browser: headless Chromium (Debian's, driven by Playwright)
opens the page served by a real ``paiju serve``, creates a room of each game against
robots, plays by clicking legal options until the hand's RESULT, and saves screenshots.
Early in each hand the page drops its connection: it must resume (HELLO with its token and
the last event it saw) and then see every event exactly once, in order. The bridge room is
created from a PBN file chosen in the form, and the result's "Download PBN" link must give
that file's deal back.

Needs /usr/bin/chromium (``apt-get install -y chromium fonts-wqy-microhei``) and the
vendored msgpack library (``python -m server.webvendor``, called here too). Run with::

    .venv/bin/pytest -m browser tests/browser

Screenshots go to test-artifacts/web-<game>-play.png (mid-hand) and -result.png; with
PAIJU_DOCS_IMG=1 the mid-hand one is also written to docs/img/web-<game>.png for the README.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.bridge.pbn import read_pbn
from server import webvendor
from tests.server.test_pbn import BOARDS, PBN

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DOCS_IMG = ROOT / "docs" / "img"
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
      multi: o.dataset.multi ? Number(o.dataset.multi) : 0,
      choices: [...o.querySelectorAll('button.choice')].map((b) => b.dataset.cards),
      picks: o.querySelectorAll('button.pick').length,
    }));
    return {kind: 'prompt', id: p.dataset.promptId, n: p.dataset.promptN, options};
  }
  return false;
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes] | None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"paiju serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"paiju serve did not answer {url}/healthz within {timeout:.0f} s")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    webvendor.ensure()
    external = os.environ.get("PAIJU_WEB_URL")  # a server already running (development)
    if external:
        _wait_healthy(external.rstrip("/"), None)
        yield external.rstrip("/")
        return
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            # --no-robot-on-drop: the dropped seat waits for the page (its clock runs) instead of
            # a robot finishing a short hand in the tenth of a second the page takes to come back
            [sys.executable, "-m", "paiju", "serve", "--port", str(port), "--no-robot-on-drop"],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            try:
                _wait_healthy(url, proc)
            except RuntimeError as e:
                raise RuntimeError(f"{e}\n{log.read_text(errors='replace')[-4000:]}") from None
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (or set PAIJU_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _play_hand(page: Any, game: str, rng: random.Random, shots: dict[str, Path]) -> dict[str, Any]:
    """Answer every prompt with a random legal option, by clicks, until the final RESULT."""
    last = ""
    decisions = 0
    shot = False
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
        if not shot and decisions >= PLAY_SHOT_FROM and page.evaluate(BUSY):
            page.screenshot(path=str(shots["play"]))
            shot = True
        # uniformly among the options, then among the option's choices (as the random robot does)
        opt = rng.choice(nxt["options"])
        scope = f'#prompt[data-prompt-n="{last}"] .option[data-option-index="{opt["index"]}"]'
        try:
            if opt["multi"]:
                for j in sorted(rng.sample(range(opt["picks"]), opt["multi"])):
                    page.click(f'{scope} button.pick[data-pick-index="{j}"]', timeout=3000)
                page.click(f"{scope} button.confirm", timeout=3000)
            else:
                cards = rng.choice(opt["choices"])
                page.click(f'{scope} button.choice[data-cards="{cards}"]', timeout=3000)
        except Exception as e:  # the prompt went away under the pointer (its window closed)
            if "Timeout" not in type(e).__name__:
                raise
            continue
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
    }


@pytest.mark.parametrize("game", registry.names())
def test_play_a_hand_against_robots(base_url: str, browser: Any, game: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {k: ARTIFACTS / f"web-{game}-{k}.png" for k in ("play", "result")}
    context = browser.new_context(viewport={"width": 1360, "height": 860})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    try:
        page.goto(base_url + "/")
        page.wait_for_selector('body[data-connected="1"]', timeout=15000)
        page.select_option("#create-game", game)
        if game == "bridge":  # the deal comes from a PBN file chosen in the form
            page.set_input_files("#create-pbn", {"name": "deals.pbn", "mimeType": "text/plain", "buffer": PBN.encode()})
        page.fill("#create-hands", "1")
        page.fill("#create-clock", str(CLOCK_S))
        page.fill("#create-seed", str(SEED))
        nseats = registry.create(game, 0).num_seats
        boxes = page.locator("#create-bots input[type=checkbox]")
        assert boxes.count() == nseats
        for s in range(nseats):  # the page plays seat 0, robots the others
            boxes.nth(s).set_checked(s != 0)
        page.click("#create-room")
        page.wait_for_selector('body[data-screen="table"]', timeout=15000)

        summary = _play_hand(page, game, random.Random(f"web:{game}"), shots)
        print(f"\n{game}: {summary}")
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
        if os.environ.get("PAIJU_DOCS_IMG") == "1":
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            (DOCS_IMG / f"web-{game}.png").write_bytes(shots["play"].read_bytes())
    finally:
        context.close()
