"""paiju/server/web/wire.js is what paiju/server/webcodes.py makes from the Python declarations: a code,
frame field or ruleset added or renamed in Python and not regenerated fails here."""

from __future__ import annotations

from paiju.server import webcodes


def test_wire_js_is_generated_from_the_code() -> None:
    assert webcodes.WIRE_JS.read_text(encoding="utf-8") == webcodes.render(), (
        "paiju/server/web/wire.js differs from the code: run python -m paiju.server.webcodes --write"
    )


def test_the_generator_writes_what_the_declarations_say() -> None:
    text = webcodes.render()
    fields = '["room", "hand", "scores", "totals", "hands", "final", "detail", "seed", "salt"]'
    assert f'  0x46: ["RESULT", {fields}, {{ detail: {{}}, seed: null, salt: "" }}],' in text
    assert '380: "CARD_NOT_IN_HAND"' in text and "ACCOUNT: 0x09," in text
    assert 'title: "Mahjong 麻将"' in text


def test_the_results_page_reads_only_declared_detail_keys() -> None:
    """results.js shows each game's RESULT detail: every key it reads (``d.key``, ``d`` being a
    RESULT's detail) is declared by some game's Detail (paiju/protocol/<game>.py)."""
    import re

    from paiju import games

    source = (webcodes.WIRE_JS.parent / "results.js").read_text(encoding="utf-8")
    assert "const d = f.detail" in source
    read = set(re.findall(r"\bd\.(\w+)", source))
    declared = {k for name in games.names() for k in games.get(name).DETAIL.__annotations__}
    assert read and read <= declared, f"results.js reads detail keys no game declares: {read - declared}"
