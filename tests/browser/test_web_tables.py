"""The web client's hand-kept tables (server/web/codes.js, proto.js) agree with the Python
ones: every registered game's action, event and error codes and its other code tables (Niujiu's
pattern kinds, mahjong's meld kinds), rulesets and seats, the room events, the error codes, and
each frame's type and field names. The pages (games.js, app.js) use codes only by name, through
codes.js, and read only the keys each game's view declares (protocol/<game>.py). No browser
needed."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from enum import IntEnum
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


def code_tables(module: Any) -> list[type[IntEnum]]:
    """Every code table a protocol/<game>.py declares besides Act, Event and Error."""
    return [
        v
        for k, v in vars(module).items()
        if isinstance(v, type) and issubclass(v, IntEnum) and v.__module__ == module.__name__
        if k not in {"Act", "Event", "Error"}
    ]


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
    tables = {"act", "events", "errors"}
    for enum in code_tables(wire):  # Kind as `kinds`, MeldKind as `meldKinds`, ...
        key = enum.__name__[0].lower() + enum.__name__[1:] + "s"
        assert js.get(key) == enum_table(enum), f"codes.js {game}.{key} differs from {enum.__qualname__}"
        tables.add(key)
    extra = {k for k, v in js.items() if isinstance(v, dict)} - tables
    assert not extra, f"codes.js {game} has tables the protocol does not declare: {extra}"
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


GAMES_JS = (WEB / "games.js").read_text()
# a code written as a number where games.js compares or builds codes: `code === 0x30`,
# `ECHO + 3`, `act === 4`, `kind: 3`, `c !== 2` (a seat, a count or a suit is not a code)
BARE_CODE = re.compile(
    r"\b(?:code|act|kind|c|f\.code|ev\.code)\s*[!=]==\s*(?:0x[0-9a-fA-F]+|\d+)\b|\bECHO\s*\+\s*\d|\bkind:\s*(?:0x[0-9a-fA-F]+|\d+)\b"
)


def bare_codes(source: str) -> list[str]:
    """The lines of ``source`` that write a game's code as a number instead of by name.

    >>> bare_codes('if (code === BRIDGE.events.TRICK) x;\\nif (ev.code === 0x30) y;\\nm.push({ kind: 3 });')
    ['if (ev.code === 0x30) y;', 'm.push({ kind: 3 });']
    """
    return [line.strip() for line in source.splitlines() if BARE_CODE.search(line.split("//")[0])]


@pytest.mark.parametrize("page", ["games.js", "app.js", "words.js", "results.js"])
def test_the_client_names_every_code(page: str) -> None:
    found = bare_codes((WEB / page).read_text())
    assert not found, f"{page} writes codes as numbers (use ROOM, codesOf() and byName() from codes.js): {found}"


def view_keys_read(source: str) -> dict[str, set[str]]:
    """For each game, the view keys its model's ``fromView(v)`` reads (``v.key``)."""
    models = dict(re.findall(r"(\w+): (\w+Model)\b", source[source.index("const MODELS") :].split("}")[0]))
    out = {}
    for game, cls in models.items():
        body = source[source.index(f"class {cls} ") :]
        start = body.index("fromView(v) {")
        depth, i = 0, start + len("fromView(v) ")
        while True:
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            if depth == 0:
                break
            i += 1
        out[game] = set(re.findall(r"\bv\.(\w+)", body[start:i]))
    return out


def test_the_tables_read_only_declared_view_keys() -> None:
    read = view_keys_read(GAMES_JS)
    assert set(read) == set(registry.names())
    for game, keys in read.items():
        declared = set(registry.get(game).VIEW.__annotations__)
        assert keys and keys <= declared, f"games.js reads {game} view keys {keys - declared} that it does not declare"


def test_imp_scale_matches_the_scoring() -> None:
    from games.bridge.scoring import IMP_STEPS

    results = (WEB / "results.js").read_text()
    assert js_object(results, "IMP_STEPS") == list(IMP_STEPS)
