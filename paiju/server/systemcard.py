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
import re
import sys
from functools import cache
from importlib import resources

from paiju.games.bridge.bidding import CURRENT, TABLES, system

PATH = "/rules/bridge-system.html"
"""Where the server serves the page (paiju/server/http.py; the web client links it: words.js)."""

TITLES = {
    "openings": "Openings",
    "responses": "Responses",
    "rebids": "Rebids",
    "competition": "Competition",
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

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bridge: the bidding system · paiju</title>
<link rel="stylesheet" href="rules.css">
</head>
<body>
<p><a href="/">paiju</a> · <a href="bridge.html">the rules of bridge</a></p>
<h1>Bridge: the bidding system</h1>
<p>The system card of the robots' bidding: they choose each call by the first row below
(in order) whose auction, points and hand fit, and they read every call, a person's as a
robot's, by the rows that could have produced it. The meaning shown beside each call at the
table is made from those rows: their words, then what they promise together (points, suit
lengths), then <i>forcing</i> when partner may not pass.</p>
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


def _table(name: str, text: str, lines: set[int]) -> str:
    """One table file as a heading, its opening comment and its rows (``lines``: those the
    engine reads, checked against the file)."""
    intro: list[str] = []
    rows: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line, _, comment = raw.partition("#")
        if not line.strip():
            comment = comment.strip()
            if comment.startswith("---"):
                rows.append(f'<tr class="section"><td colspan="5">{_text(comment.lstrip("- "))}</td></tr>')
            elif comment and not rows:
                intro.append(comment)
            continue
        if n not in lines:
            raise ValueError(f"{name}.txt:{n}: a row the engine does not read")
        auction, call, points, hand, meaning = (p.strip() for p in line.split("|"))
        rows.append(
            "<tr>"
            f"<td>{_calls(auction)}</td><td><b>{_calls(call)}</b></td><td>{html.escape(points) or 'any'}</td>"
            f"<td>{f'<code>{html.escape(hand)}</code>' if hand else ''}</td><td>{html.escape(meaning)}</td>"
            "</tr>"
        )
    head = "<tr><th>auction</th><th>call</th><th>points</th><th>hand</th><th>meaning</th></tr>"
    parts = [f"<h2>{html.escape(TITLES.get(name, name))}</h2>"]
    if intro:
        parts.append(f"<p>{_text(' '.join(intro))}</p>")
    parts.append("<table>\n" + head + "\n" + "\n".join(rows) + "\n</table>")
    return "\n".join(parts)


@cache
def page(tables: str = CURRENT) -> str:
    """The system card of the bidding system in ``tables`` (of paiju/games/bridge) as an HTML page."""
    folder = resources.files("paiju.games.bridge")
    for part in tables.split("/"):
        folder = folder / part
    read = system(tables)
    body = []
    for name in TABLES:
        f = folder / f"{name}.txt"
        if f.is_file():
            body.append(_table(name, f.read_text(encoding="utf-8"), {r.line for r in read if r.table == name}))
    legend = "<dl>\n" + "\n".join(f"<dt>{k}</dt><dd>{_text(v)}</dd>" for k, v in LEGEND) + "\n</dl>"
    return PAGE.format(legend=legend, body="\n".join(body))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.server.systemcard", description=__doc__.split("\n\n")[0])
    p.parse_args(argv)
    sys.stdout.write(page())
    return 0


if __name__ == "__main__":
    sys.exit(main())
