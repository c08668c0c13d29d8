"""The web client's wire constants (paiju/server/web/wire.js), generated from the Python declarations.

Frame types, field names and defaults (paiju.protocol.frames), the error codes, the room events
and seat kinds, and every game's title, seats, rulesets and code tables (paiju/protocol/<game>.py).
``python -m paiju.server.webcodes --write`` rewrites the file; tests/server/test_webcodes.py fails
when it differs from what this module makes. codes.js and proto.js import from it.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import sys
from enum import IntEnum
from pathlib import Path
from typing import Any, cast

from paiju import games
from paiju.protocol import MAX_FRAME, VERSION, RoomEvent, SeatKind
from paiju.protocol.actions import ECHO
from paiju.protocol.errors import ErrorCode
from paiju.protocol.frames import FRAMES, Feature, RoomInfo, SessionInfo

WIRE_JS = Path(__file__).with_name("web") / "wire.js"


def _snake(name: str) -> str:
    return "".join("_" + c if c.isupper() and i else c for i, c in enumerate(name)).upper()


def _js(value: Any) -> str:
    """A default value as JavaScript."""
    if value is None:
        return "null"
    if isinstance(value, bytes):
        return "new Uint8Array(0)" if not value else f"new Uint8Array({list(value)})"
    return json.dumps(value, ensure_ascii=False)


def _table(enum: type[IntEnum], hexa: bool = False) -> str:
    items = ", ".join(f"{f'0x{int(e):02x}' if hexa else int(e)}: {json.dumps(e.name)}" for e in enum)
    return "{ " + items + " }"


def _defaults(cls: type) -> str:
    out = []
    for f in dataclasses.fields(cast(Any, cls)):
        if f.default is not dataclasses.MISSING:
            out.append(f"{f.name}: {_js(f.default)}")
        elif f.default_factory is not dataclasses.MISSING:
            out.append(f"{f.name}: {_js(f.default_factory())}")
    return "{ " + ", ".join(out) + " }" if out else "{}"


def render() -> str:
    """The text of paiju/server/web/wire.js."""
    lines = [
        "// Generated from the Python declarations by `python -m paiju.server.webcodes --write`: do not edit.",
        "// tests/server/test_webcodes.py fails when this file and the code differ (paiju/protocol/SPEC.md).",
        "",
        f"export const VERSION = {VERSION};",
        f"export const MAX_FRAME = {MAX_FRAME};",
        f"export const ECHO = 0x{ECHO:02x}; // event code ECHO + c: a seat took action c",
        "export const ACTION_CODES = 8; // a mask has 8 bits: action codes 0..7",
        f"export const FEATURES = {{ {', '.join(f'{e.name}: {int(e)}' for e in Feature)} }}; // HELLO's features bits",
        "",
        "// client -> server: frame types by name (SPEC §3.1)",
        "export const C = {",
    ]
    lines += [f"  {_snake(cls.__name__)}: 0x{t:02x}," for t, cls in FRAMES.items() if cls.SENDER == "client"]
    lines += ["};", "", "// server -> client: name, fields in wire order, defaults of the fields that may be left out"]
    lines += ["export const S = {"]
    for t, cls in FRAMES.items():
        if cls.SENDER == "server":
            fields = ", ".join(json.dumps(f.name) for f in dataclasses.fields(cast(Any, cls)))
            lines.append(f"  0x{t:02x}: [{json.dumps(_snake(cls.__name__))}, [{fields}], {_defaults(cls)}],")
    lines += ["};", ""]
    lines.append(f"export const ROOM_INFO = [{', '.join(json.dumps(f.name) for f in dataclasses.fields(RoomInfo))}];")
    lines.append(
        f"export const SESSION_INFO = [{', '.join(json.dumps(f.name) for f in dataclasses.fields(SessionInfo))}];"
    )
    lines.append(f"export const ERRORS = {_table(ErrorCode)};")
    lines.append(f"export const ROOM_EVENTS = {_table(RoomEvent, hexa=True)};")
    lines.append(f"export const SEAT_KINDS = {_table(SeatKind)};")
    lines += [
        "",
        "// each game: its title, seats, rulesets (the first is the default) and code tables",
        "export const GAMES = {",
    ]
    for name in games.names():
        game = games.get(name)
        wire = importlib.import_module(f"paiju.protocol.{name}")
        lines.append(f"  {name}: {{")
        lines.append(f"    title: {json.dumps(game.TITLE, ensure_ascii=False)},")
        lines.append(f"    seats: {games.create(name, 0).num_seats},")
        lines.append(f"    rulesets: {json.dumps(list(game.RULESETS))},")
        lines.append(f"    act: {_table(wire.ActCode)},")
        lines.append(f"    events: {_table(wire.EventCode, hexa=True)},")
        lines.append(f"    errors: {_table(wire.Error)},")
        for k, v in vars(wire).items():  # Kind as `kinds`, MeldKind as `meldKinds`
            own = isinstance(v, type) and issubclass(v, IntEnum) and v.__module__ == wire.__name__
            if own and k not in ("ActCode", "EventCode", "Error"):
                lines.append(f"    {k[0].lower() + k[1:]}s: {_table(v)},")
        lines.append("  },")
    lines += ["};", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.server.webcodes", description=__doc__)
    p.add_argument("--write", action="store_true", help="rewrite paiju/server/web/wire.js")
    args = p.parse_args(argv)
    text = render()
    if args.write:
        WIRE_JS.write_text(text, encoding="utf-8")
        return 0
    if WIRE_JS.read_text(encoding="utf-8") != text:
        print(
            "paiju/server/web/wire.js differs from the code: run python -m paiju.server.webcodes --write",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
