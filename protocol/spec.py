"""Keeps protocol/SPEC.md in step with the code.

SPEC.md's tables of frames, records, codes and views (protocol.views) sit between ``<!-- generated: KEY -->`` and
``<!-- end -->`` markers. ``python -m protocol.spec --write`` rewrites them from the code;
the test suite fails when they differ (``python -m protocol.spec --check``), and it checks
every hex vector in the document against the codec.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from enum import IntEnum
from pathlib import Path

from . import views
from .frames import FRAMES, Option, RoomInfo, describe

SPEC = Path(__file__).with_name("SPEC.md")
GAMES = ("mahjong", "bridge", "niujiu", "tricks")
_BLOCK = re.compile(r"(<!-- generated: (\S+) -->\n)(.*?)(<!-- end -->)", re.S)


def _field_table(cls: type) -> str:
    rows = ["| # | field | type | default |", "|---|---|---|---|"]
    rows += [f"| {i} | `{n}` | {t} | {d} |" for i, (n, t, d) in enumerate(describe(cls), 1)]
    return "\n".join(rows) + "\n"


def wire_name(cls: type) -> str:
    """``RoomState`` -> ``ROOM_STATE``: the name SPEC.md gives a frame."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).upper()


def _frames(sender: str) -> str:
    parts = []
    for code, cls in FRAMES.items():
        if sender == cls.SENDER:
            doc = (cls.__doc__ or "").strip().splitlines()[0]
            if doc.startswith(cls.__name__ + "("):  # the dataclass's own, not a docstring
                doc = ""
            parts.append(f"#### {wire_name(cls)} = 0x{code:02x}\n\n" + (f"{doc}\n\n" if doc else ""))
            parts[-1] += _field_table(cls)
    return "\n".join(parts)


def _enum(cls: type[IntEnum], hexa: bool) -> str:
    comments: dict[str, str] = {}
    for line in inspect.getsource(cls).splitlines():
        m = re.match(r"\s+([A-Z_0-9]+)\s*=\s*[^#]+#\s*(.*)", line)
        if m:
            comments[m.group(1)] = m.group(2).strip().replace("|", "\\|")
    rows = [f"`{cls.__module__}.{cls.__qualname__}`", ""]
    doc = inspect.getdoc(cls)
    if doc and doc != inspect.getdoc(IntEnum):
        rows += [" ".join(doc.split()), ""]
    rows += ["| value | name | meaning |", "|---|---|---|"]
    for e in cls:
        rows.append(f"| {f'0x{int(e):02x}' if hexa else int(e)} | {e.name} | {comments.get(e.name, '')} |")
    return "\n".join(rows) + "\n"


def blocks() -> dict[str, str]:
    """Every generated block of SPEC.md, by key."""
    out = {
        "frames-client": _frames("client"),
        "frames-server": _frames("server"),
        "frames-bus": _frames("bus"),
        "records": "\n".join(f"#### {c.__name__}\n\n{_field_table(c)}" for c in (Option, RoomInfo)),
    }
    actions = importlib.import_module("protocol.actions")
    errors = importlib.import_module("protocol.errors")
    out["room-events"] = _enum(actions.RoomEvent, True) + "\n" + _enum(actions.SeatKind, False)
    out["errors"] = _enum(errors.ErrorCode, False)
    out["features"] = _enum(importlib.import_module("protocol.frames").Feature, False)
    for g in GAMES:
        m = importlib.import_module(f"protocol.{g}")
        tables = [
            v for v in vars(m).values() if isinstance(v, type) and issubclass(v, IntEnum) and v.__module__ == m.__name__
        ]
        out[f"{g}-codes"] = "\n".join(_enum(t, t.__name__ == "Event") for t in tables)
        out[f"{g}-view"] = "\n".join(views.table(t) for t in views.nested(m.View))
    return out


def render(text: str) -> str:
    """SPEC.md's text with every generated block refreshed."""
    fresh = blocks()

    def sub(m: re.Match[str]) -> str:
        if m.group(2) not in fresh:
            raise KeyError(f"SPEC.md names an unknown generated block {m.group(2)!r}")
        return m.group(1) + fresh[m.group(2)] + m.group(4)

    return _BLOCK.sub(sub, text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m protocol.spec", description=__doc__)
    p.add_argument("--write", action="store_true", help="rewrite SPEC.md's generated blocks")
    args = p.parse_args(argv)
    text = SPEC.read_text(encoding="utf-8")
    new = render(text)
    if args.write:
        SPEC.write_text(new, encoding="utf-8")
        return 0
    if new != text:
        print("SPEC.md's generated tables differ from the code: run python -m protocol.spec --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
