"""The rules pages the web client links (paiju/server/web/rules/GAME.html) are docs/rules/GAME.md
rendered as they are now, and a document's text never becomes markup it did not spell."""

from __future__ import annotations

from paiju.server import rules


def test_the_committed_pages_are_the_documents_rendered() -> None:
    assert rules.stale() == [], "run: python -m paiju.server.rules"
    assert set(rules.pages()) == {"bridge.html", "mahjong.html", "niujiu.html", "tricks.html"}


def test_text_is_escaped_and_repository_links_are_text() -> None:
    out = rules.render_markdown('A <script>x</script> & [the design](../design.md) "q"\n\n- *a* <b>')
    assert "<script>" not in out and "&lt;script&gt;" in out and "&amp;" in out
    assert "<a " not in out and "the design" in out
    assert "<li><i>a</i> &lt;b&gt;</li>" in out
    assert '<a href="https://example.org">x</a>' in rules.render_markdown("[x](https://example.org)")
