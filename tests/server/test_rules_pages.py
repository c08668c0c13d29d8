"""The rules pages the web client links (paiju/server/web/rules/GAME.html and GAME.zh.html) are
docs/rules/players/GAME.md and GAME.zh.md rendered as they are now; they are written for players
(no developer's words: no document, module, class or method names), each links the other
language's page, and a document's text never becomes markup it did not spell."""

from __future__ import annotations

import html
import re

from paiju.server import rules


def test_the_committed_pages_are_the_documents_rendered() -> None:
    assert rules.stale() == [], "run: python -m paiju.server.rules"
    games = ("bridge", "mahjong", "niujiu", "tricks")
    assert set(rules.pages()) == {f"{g}{lang}.html" for g in games for lang in ("", ".zh")}


# what a page for players must not hold: developers' documents, code, modules, methods, codes
DEVELOPER = re.compile(r"design\.md|SPEC|\.py\b|paiju/|<code>|dataclass|to_act|\(\)|\b[A-Z]+_[A-Z_]+\b|§")


def test_the_pages_are_for_players_in_their_language() -> None:
    for name, text in rules.pages().items():
        assert DEVELOPER.findall(text) == [], name
        game, _, lang = name.removesuffix(".html").partition(".")
        if lang == "zh":
            assert '<html lang="zh-Hans">' in text and f'href="{game}.html"' in text
            # the Chinese pages' prose is Chinese: Latin letters only in cards (KK, QQQ) and names
            body = html.unescape(re.sub(r"<[^>]+>", " ", text.split("</nav>", 1)[1]))
            words = {w for w in re.findall(r"[A-Za-z]{2,}", body) if not re.fullmatch(r"[AKQJ]+", w)}
            assert words <= {"perfect"}, name
        else:
            assert '<html lang="en">' in text and f'href="{game}.zh.html"' in text


def test_text_is_escaped_and_repository_links_are_text() -> None:
    out = rules.render_markdown('A <script>x</script> & [the design](../design.md) "q"\n\n- *a* <b>')
    assert "<script>" not in out and "&lt;script&gt;" in out and "&amp;" in out
    assert "<a " not in out and "the design" in out
    assert "<li><i>a</i> &lt;b&gt;</li>" in out
    assert '<a href="https://example.org">x</a>' in rules.render_markdown("[x](https://example.org)")
