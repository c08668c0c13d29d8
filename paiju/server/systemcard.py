"""Bridge's system card for the web client: every row of the bidding system the robots bid and
read (``paiju/games/bridge/tables/*.txt``), the rows each call's explanation at the table comes from,
rendered as a page. It is made from the tables themselves when the server first serves it
(``GET /rules/bridge-system.html``, beside the rules pages), so it never lags a table's edit.

Every character of the tables is escaped: nothing in a row becomes markup.

    python -m paiju.server.systemcard > card.html    # the page, as the server serves it

>>> html = page()
>>> "<h2>Openings</h2>" in html and "balanced, no five-card major" in html
True
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from functools import cache
from importlib import resources

from paiju.games.bridge.bidding import CURRENT, TABLES, system
from paiju.server import systemcard_zh as zh

PATH = "/rules/bridge-system.html"
"""Where the server serves the page (paiju/server/http.py; the web client links it: words.js)."""
PATH_ZH = "/rules/bridge-system.zh.html"
"""The page in simplified Chinese."""

TITLES = {
    "openings": "Openings",
    "responses": "Responses",
    "rebids": "Rebids",
    "competition": "Competition",
    "controls": "Control bids",
    "slam": "Slam bidding",
    "placement": "Placement (any auction)",
}

LEGEND = (
    (
        "auction",
        "the calls since the opening bid, as the bidder sees them: `-` nobody has bid yet; "
        "`1x P` partner opened one of a suit and the next hand passed; `...` any auction; "
        "`... 4NT P` an auction that ends so. A small letter in a bid (`1x`, `2y`) stands for a suit.",
    ),
    ("call", "`P` pass, `X` double, `XX` redouble, a bid (`2NT`, `3x`), or `+x`: the cheapest bid in x."),
    (
        "points",
        "high-card points with the seed's adjustments for short honours and long suits: "
        "`12-15`, `16+`, `-10` (at most 10); empty: any.",
    ),
    (
        "hand",
        "conditions that must all hold: suit lengths (`S5+` five or more spades, `H-4` at most "
        "four hearts, `x4`); `hC3` three of the top four club honours; `bal` balanced; `rest3+` three or "
        "more in every other suit; `x=M` / `x=m` a major / minor; `tp25+` our points with partner's "
        "promised ones; `fitx` eight cards between us in x; `kc1/4` key cards (the four aces and the "
        "trump king); `tq` / `notq` with / without the trump queen; `t` our agreed suit; `cuey` y is "
        "the cheapest side suit with a control (ace, king, singleton or void) below game; `ctlok` every "
        "side suit controlled here or by partner's control bids; `stopx` a stopper in x (A, Kx, Qxx, "
        "Jxxx); `stops` every suit stopped here or four promised by partner.",
    ),
    ("meaning", "what the call says in words; `forcing`: partner may not pass."),
)

_STRAIN = re.compile(r"(?<=[1-7+])([CDHS])\b")
_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_CODE = re.compile(r"`([^`]+)`")

TITLE = "Bridge: the bidding system"
HEAD = """<p>The system card of the robots' bidding: they choose each call by the first row below
(in order) whose auction, points and hand fit, and they read every call, a person's as a
robot's, by the rows that could have produced it. The meaning shown beside each call at the
table is made from those rows: their words, then what they promise together (points, suit
lengths), then <i>forcing</i> when partner may not pass.</p>"""

PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · paiju</title>
<link rel="stylesheet" href="rules.css">
</head>
<body>
<p><a href="/">paiju</a> · <a href="{back_href}">{back}</a></p>
<h1>{title}</h1>
{head}
{legend}
{body}
</body>
</html>
"""


def _text(s: str) -> str:
    """Escaped, with `code` marked up."""
    out, at = [], 0
    for m in _CODE.finditer(s):
        out.append(html.escape(s[at : m.start()], quote=False))
        out.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        at = m.end()
    out.append(html.escape(s[at:], quote=False))
    return "".join(out)


def _calls(s: str) -> str:
    """A column of calls, escaped, each bid's suit letter as its symbol (``1C`` -> ``1♣``)."""
    return _STRAIN.sub(lambda m: _SYMBOLS[m.group(1)], html.escape(s, quote=False))


@cache
def meanings_zh() -> dict[str, str]:
    """Each row's meaning in Chinese: the web client's table (web/meanings.js, between its
    ``/*JSON*/`` and ``/*END*/`` markers), so that the card says what the table shows."""
    text = (resources.files("paiju.server") / "web" / "meanings.js").read_text(encoding="utf-8")
    m = re.search(r"/\*JSON\*/(.*?)/\*END\*/", text, re.S)
    if m is None:
        raise ValueError("web/meanings.js lost its /*JSON*/ ... /*END*/ markers")
    table: dict[str, str] = json.loads(m.group(1))
    return table


def _table(name: str, text: str, lines: set[int], lang: str = "en") -> str:
    """One table file as a heading, its opening comment and its rows (``lines``: those the
    engine reads, checked against the file), in ``lang`` ("en" or "zh": a KeyError names
    a row or a comment with no Chinese)."""
    chinese = lang == "zh"
    intro: list[str] = []
    rows: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line, _, comment = raw.partition("#")
        if not line.strip():
            comment = comment.strip()
            if comment.startswith("---"):
                section = comment.lstrip("- ")
                section = zh.SECTIONS[section] if chinese else section
                rows.append(f'<tr class="section"><td colspan="5">{_text(section)}</td></tr>')
            elif comment and not rows:
                intro.append(comment)
            continue
        if n not in lines:
            raise ValueError(f"{name}.txt:{n}: a row the engine does not read")
        auction, call, points, hand, meaning = (p.strip() for p in line.split("|"))
        if chinese and meaning:
            meaning = meanings_zh()[meaning]
        anything = zh.ANY if chinese else "any"
        rows.append(
            "<tr>"
            f"<td>{_calls(auction)}</td><td><b>{_calls(call)}</b></td><td>{html.escape(points) or anything}</td>"
            f"<td>{f'<code>{html.escape(hand)}</code>' if hand else ''}</td><td>{html.escape(meaning)}</td>"
            "</tr>"
        )
    columns = zh.COLUMNS if chinese else ("auction", "call", "points", "hand", "meaning")
    head = "<tr>" + "".join(f"<th>{c}</th>" for c in columns) + "</tr>"
    parts = [f"<h2>{html.escape((zh.TITLES if chinese else TITLES).get(name, name))}</h2>"]
    if intro:
        parts.append(f"<p>{_text(zh.INTROS[name] if chinese else ' '.join(intro))}</p>")
    parts.append("<table>\n" + head + "\n" + "\n".join(rows) + "\n</table>")
    return "\n".join(parts)


@cache
def page(tables: str = CURRENT, lang: str = "en") -> str:
    """The system card of the bidding system in ``tables`` (of paiju/games/bridge) as an HTML
    page, in ``lang``: "en" or "zh" (simplified Chinese)."""
    chinese = lang == "zh"
    folder = resources.files("paiju.games.bridge")
    for part in tables.split("/"):
        folder = folder / part
    read = system(tables)
    body = []
    for name in TABLES:
        f = folder / f"{name}.txt"
        if f.is_file():
            rows = {r.line for r in read if r.table == name}
            body.append(_table(name, f.read_text(encoding="utf-8"), rows, lang))
    legend = "<dl>\n" + "\n".join(f"<dt>{k}</dt><dd>{_text(v)}</dd>" for k, v in (zh.LEGEND if chinese else LEGEND))
    words = (
        dict(lang="zh-CN", title=zh.TITLE, back=zh.BACK, back_href="bridge.zh.html", head=zh.HEAD)
        if chinese
        else dict(
            lang="en",
            title="Bridge: the bidding system",
            back="the rules of bridge",
            back_href="bridge.html",
            head=HEAD,
        )
    )
    return PAGE.format(legend=legend + "\n</dl>", body="\n".join(body), **words)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.server.systemcard", description=__doc__.split("\n\n")[0])
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="the page's language (default en)")
    args = p.parse_args(argv)
    sys.stdout.write(page(lang=args.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
