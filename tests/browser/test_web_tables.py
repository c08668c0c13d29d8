"""The web client's hand-kept tables (server/web/codes.js, proto.js) agree with the Python
ones: every registered game's action, event and error codes, rulesets and seats, the room
events, the error codes, and each frame's type and field names. No browser needed."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from games import registry
from protocol import RoomEvent, SeatKind
from protocol.errors import ErrorCode
from protocol.frames import FRAMES

WEB = Path(__file__).resolve().parents[2] / "server" / "web"


def js_object(source: str, name: str) -> Any:
    """The object literal assigned to ``export const name`` in ``source``, as Python data.

    Enough JavaScript for these tables: identifier, decimal and hex keys, strings, numbers,
    arrays, nested objects, trailing commas and // comments.

    >>> js_object('export const T = { 0x30: "A", b: [1, 2,], // c\\n};', "T")
    {'48': 'A', 'b': [1, 2]}
    """
    m = re.search(rf"export const {name} = ", source)
    assert m, f"no `export const {name}`"
    i = start = m.end()
    depth = 0
    in_str = False
    while True:
        c = source[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                break
        i += 1
    text = source[start : i + 1]
    text = re.sub(r"//[^\n]*", "", text)

    def key(k: re.Match[str]) -> str:
        raw = k.group(2)
        value = str(int(raw, 16)) if raw.startswith("0x") else raw
        return f'{k.group(1)}"{value}":'

    text = re.sub(r"([{,]\s*)(0x[0-9a-fA-F]+|\d+|[A-Za-z_]\w*)\s*:", key, text)
    text = re.sub(r"0x([0-9a-fA-F]+)", lambda h: str(int(h.group(1), 16)), text)
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    return json.loads(text)


def enum_table(enum: Any) -> dict[str, str]:
    return {str(int(e)): e.name for e in enum}


CODES = (WEB / "codes.js").read_text()
PROTO = (WEB / "proto.js").read_text()
GAMES = js_object(CODES, "GAMES")


@pytest.mark.parametrize("game", registry.names())
def test_game_tables_match_the_protocol(game: str) -> None:
    assert game in GAMES, f"codes.js has no table for {game}"
    js = GAMES[game]
    wire = importlib.import_module(f"protocol.{game}")
    assert js["act"] == enum_table(wire.Act)
    assert js["events"] == enum_table(wire.Event)
    assert js["errors"] == enum_table(wire.Error)
    if hasattr(wire, "Kind"):
        assert js["kinds"] == enum_table(wire.Kind)
    cls = registry.get(game)
    assert js["rulesets"] == list(cls.RULESETS)
    assert js["seats"] == registry.create(game, 0).num_seats


def test_room_tables_match_the_protocol() -> None:
    assert js_object(CODES, "ROOM_EVENTS") == enum_table(RoomEvent)
    assert js_object(CODES, "SEAT_KINDS") == enum_table(SeatKind)
    assert js_object(PROTO, "ERRORS") == enum_table(ErrorCode)


def test_frame_tables_match_the_protocol() -> None:
    client = js_object(PROTO, "C")
    server = {}
    for m in re.finditer(r'(0x[0-9a-f]+): \["(\w+)", \[([^\]]*)\]', PROTO):
        server[int(m.group(1), 16)] = (m.group(2), re.findall(r'"(\w+)"', m.group(3)))
    for t, cls in FRAMES.items():
        fields = [f.name for f in dataclasses.fields(cls)]
        if cls.SENDER == "client":
            assert client[_snake(cls.__name__).upper()] == t
        elif cls.SENDER == "server":
            assert server[t] == (_snake(cls.__name__).upper(), fields)
    assert len(client) == sum(c.SENDER == "client" for c in FRAMES.values())
    assert len(server) == sum(c.SENDER == "server" for c in FRAMES.values())


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name)


def test_imp_scale_matches_the_scoring() -> None:
    from games.bridge.scoring import IMP_STEPS

    results = (WEB / "results.js").read_text()
    assert js_object(results, "IMP_STEPS") == list(IMP_STEPS)
