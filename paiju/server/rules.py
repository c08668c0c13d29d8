"""Each game's rules pages for players, in English and in simplified Chinese:
``docs/rules/players/GAME.md`` and ``GAME.zh.md`` rendered to ``paiju/server/web/rules/GAME.html``
and ``GAME.zh.html`` (package data, served at ``/rules/GAME.html`` like the rest of the client;
the lobby and the table link each game to the page in the player's language). The rules as the
engines implement them, with the source of each, are the developers' documents beside them
(``docs/rules/GAME.md``).

The renderer knows the Markdown the rules documents use: headings, paragraphs, lists (with
continuation lines), pipe tables, ``code``, **bold**, *italic* and links. Every character of
the source is escaped first, so nothing in a document becomes markup it did not spell. A link to
another document of the repository is shown as its text (those files are not served).

    python -m paiju.server.rules            # write paiju/server/web/rules/*.html from docs/rules/players/*.md
    python -m paiju.server.rules --check    # exit 1 if a committed page differs from its document

>>> print(render_markdown("# A & B\\n\\n- **one** `x<y`\\n  two\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |"))
<h1>A &amp; B</h1>
<ul>
<li><b>one</b> <code>x&lt;y</code> two</li>
</ul>
<table>
<tr><th>a</th><th>b</th></tr>
<tr><td>1</td><td>2</td></tr>
</table>
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "docs" / "rules" / "players"
PAGES = Path(__file__).parent / "web" / "rules"

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)")
_LIST = re.compile(r"^(\s*)(?:[-*]|\d+\.)\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def _inline(text: str) -> str:
    """Escape ``text``, then mark up its code, bold, italic and links."""
    out, at = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[at : m.start()], quote=False))
        code, bold, italic, label, url = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<b>{_inline(bold)}</b>")
        elif italic is not None:
            out.append(f"<i>{_inline(italic)}</i>")
        elif url.startswith(("http://", "https://")):
            out.append(f'<a href="{html.escape(url)}">{_inline(label)}</a>')
        else:
            out.append(_inline(label))  # another file of the repository: not served
        at = m.end()
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def render_markdown(text: str) -> str:
    """The HTML of a rules document (the subset of Markdown the documents use)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if m := _HEADING.match(line):
            n = len(m.group(1))
            out.append(f"<h{n}>{_inline(m.group(2).strip())}</h{n}>")
            i += 1
        elif line.lstrip().startswith("|"):
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            # a separator row (|---|---|) under the first makes the first the header
            header = len(rows) > 1 and all(re.fullmatch(r":?-+:?", c) for c in rows[1])
            table = ["<table>"]
            for k, r in enumerate(rows[:1] + rows[2:] if header else rows):
                tag = "th" if header and k == 0 else "td"
                table.append("<tr>" + "".join(f"<{tag}>{_inline(c)}</{tag}>" for c in r) + "</tr>")
            table.append("</table>")
            out.append("\n".join(table))
        elif _LIST.match(line):
            items: list[str] = []
            ordered = bool(re.match(r"^\s*\d+\.", line))
            while i < len(lines) and lines[i].strip():
                if m := _LIST.match(lines[i]):
                    items.append(m.group(2).strip())
                else:
                    items[-1] += " " + lines[i].strip()  # a continuation line
                i += 1
            tag = "ol" if ordered else "ul"
            out.append(f"<{tag}>\n" + "\n".join(f"<li>{_inline(t)}</li>" for t in items) + f"\n</{tag}>")
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not _HEADING.match(lines[i]) and not _LIST.match(lines[i]):
                if lines[i].lstrip().startswith("|"):
                    break
                para.append(lines[i].strip())
                i += 1
            out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "\n".join(out)


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · paiju</title>
<link rel="stylesheet" href="rules.css">
</head>
<body>
<nav><a href="/">{back}</a> <a href="{other}" hreflang="{other_lang}">{other_name}</a></nav>
{body}
</body>
</html>
"""
# each language's page: its lang attribute, its link back to the lobby, and its name in the
# link from the other language's page
LANGS = {"en": ("en", "← paiju: play", "English"), "zh": ("zh-Hans", "← 返回牌局", "中文")}


def page(name: str, text: str) -> str:
    """The rules page ``name`` (``niujiu`` or ``niujiu.zh``) from its document's text.

    >>> p = page("tricks.zh", "# 吃墩：规则")
    >>> '<html lang="zh-Hans">' in p, '<a href="tricks.html" hreflang="en">English</a>' in p
    (True, True)
    """
    game, _, lang = name.partition(".")
    lang = lang or "en"
    other = "zh" if lang == "en" else "en"
    first = next((line for line in text.splitlines() if line.startswith("# ")), f"# {game}")
    title = html.escape(re.sub(r"[`*]", "", first[2:]).strip(), quote=False)
    return PAGE.format(
        lang=LANGS[lang][0],
        title=title,
        back=LANGS[lang][1],
        other=f"{game}.html" if other == "en" else f"{game}.{other}.html",
        other_lang=LANGS[other][0],
        other_name=LANGS[other][2],
        body=render_markdown(text),
    )


def pages() -> dict[str, str]:
    """Every rules page, by file name (``mahjong.html``, ``mahjong.zh.html`` ...), from
    docs/rules/players."""
    return {
        f"{src.name.removesuffix('.md')}.html": page(src.name.removesuffix(".md"), src.read_text(encoding="utf-8"))
        for src in sorted(SOURCES.glob("*.md"))
    }


def stale() -> list[str]:
    """The pages that differ from their documents (or are missing)."""
    return [
        name
        for name, text in pages().items()
        if not (PAGES / name).is_file() or (PAGES / name).read_text(encoding="utf-8") != text
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.server.rules", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only check that the committed pages are current")
    args = p.parse_args(argv)
    if args.check:
        names = stale()
        for name in names:
            print(f"paiju/server/web/rules/{name} is out of date: run python -m paiju.server.rules", file=sys.stderr)
        return 1 if names else 0
    PAGES.mkdir(exist_ok=True)
    for name, text in pages().items():
        (PAGES / name).write_text(text, encoding="utf-8")
        print(f"wrote paiju/server/web/rules/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
