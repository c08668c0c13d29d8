"""The web client's Chinese (paiju/server/web): the bidding system's words have a Chinese
rendering for every row of the tables the server explains calls with (web/meanings.js); no
file of the client (scripts, pages, the rules pages) holds a traditional character: one character
set per language, simplified (东 万 发 条, never their traditional forms); and the site's CJK font
(web/fonts/paiju-cjk.woff) has a glyph for every CJK character the client uses, with its licence
beside it (tests/browser/test_web_font.py checks that Chromium draws the Chinese with it)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from paiju.games.bridge import bidding, explain
from paiju.server import systemcard, webfont

WEB = Path(__file__).resolve().parents[2] / "paiju" / "server" / "web"
TABLES = Path(bidding.__file__).with_name("tables")
# common traditional forms of characters a card or mahjong table uses (and their neighbours)
TRADITIONAL = (
    "發東風萬條莊聽對張門雙數將龍餅紅綠無漢點槓碼贏錢頭夠擺滿場雜喫補選號牆間葉遊戲戶輸們開體裡這書說話請讀達結"
)
# a Latin-letter word (two letters or more): a card's rank (A K Q J) is one letter
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def meanings_zh() -> dict[str, str]:
    """web/meanings.js's table, English -> 中文 (the object literal between its markers)."""
    text = (WEB / "meanings.js").read_text(encoding="utf-8")
    m = re.search(r"/\*JSON\*/(.*?)/\*END\*/", text, re.S)
    assert m, "meanings.js lost its /*JSON*/ ... /*END*/ markers"
    table: dict[str, str] = json.loads(m.group(1))
    return table


def table_meanings() -> set[str]:
    """Every meaning written in the system's tables (the ones calls are explained with)."""
    out = set()
    for f in TABLES.glob("*.txt"):
        for line in f.read_text(encoding="utf-8").splitlines():
            cols = line.split("|")
            if not line.startswith("#") and len(cols) >= 5 and cols[4].strip():
                out.add(cols[4].strip())
    return out


def test_every_meaning_of_the_system_has_its_chinese() -> None:
    zh = meanings_zh()
    wanted = table_meanings() | {explain.NOTHING, "outside the system: no promise"}  # bidding.explain's own
    assert len(wanted) > 200
    missing = sorted(wanted - set(zh))
    assert missing == [], f"meanings without Chinese in web/meanings.js: {missing}"
    english = {k: v for k, v in zh.items() if LATIN_WORD.search(v)}
    assert english == {}, english
    assert not [v for v in zh.values() if set(v) & set(TRADITIONAL)]


def test_no_traditional_character_in_the_client() -> None:
    files = [f for f in WEB.rglob("*") if f.suffix in (".js", ".html", ".css") and "vendor" not in f.parts]
    assert len(files) > 15
    found = {
        f.relative_to(WEB).as_posix(): sorted({c for c in f.read_text(encoding="utf-8") if c in TRADITIONAL})
        for f in files
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_the_sites_font_has_every_character_it_uses() -> None:
    used = webfont.site_characters()
    assert len(used) > 300 and {"牌", "局", "东", "万", "发", "听"} <= used
    missing = sorted(used - webfont.font_characters())
    assert missing == [], f"run python -m paiju.server.webfont: {''.join(missing)}"
    assert webfont.main(["--check"]) == 0
    assert 10_000 < webfont.FONT.stat().st_size < 400_000
    text = webfont.LICENCE.read_text(encoding="utf-8")
    assert "WenQuanYi" in text and "Apache License" in text


def test_the_system_card_in_chinese() -> None:
    """Bridge's system card in simplified Chinese (/rules/bridge-system.zh.html): every title,
    section, opening comment and row in Chinese; the only Latin words left are the card's
    notation (NT of a bid, Kx Qxx Jxxx holdings, the hand column's codes) and the site's name."""
    page = systemcard.page(lang="zh")
    assert '<html lang="zh-CN">' in page and "叫牌体系" in page and "bridge.zh.html" in page
    # the notation columns (auction, call, points, hand) and code spans aside
    prose = re.sub(r"<code>.*?</code>", "", page, flags=re.S)
    prose = re.sub(r"<tr><td>.*?</td><td><b>.*?</b></td><td>.*?</td><td>.*?</td>", "<tr>", prose, flags=re.S)
    words = set(LATIN_WORD.findall(html.unescape(re.sub(r"<[^>]+>", " ", prose))))
    assert words <= {"NT", "Kx", "Qxx", "Jxxx", "paiju"}, sorted(words)
    assert not {c for c in page if c in TRADITIONAL}
    english = systemcard.page()
    assert english.count("<tr>") == page.count("<tr>") and "the rules of bridge" in english
    assert set(webfont.cjk_characters(page)) <= webfont.font_characters()
    routes = [f.read_text(encoding="utf-8") for f in (WEB / "words.js", WEB.parent / "http.py")]
    assert systemcard.PATH_ZH in routes[0] and "PATH_ZH" in routes[1]
