"""Keeps paiju/protocol/SPEC.md in step with the code.

SPEC.md's tables of frames, records, codes and views (paiju.protocol.views) sit between ``<!-- generated: KEY -->`` and
``<!-- end -->`` markers. ``python -m paiju.spec --write`` rewrites them from the code;
the test suite fails when they differ (``python -m paiju.spec --check``), and it checks
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

from paiju.protocol import views
from paiju.protocol.frames import FRAMES, Option, RoomInfo, SessionInfo, describe

SPEC = Path(__file__).parent / "protocol" / "SPEC.md"
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
            doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
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


def _codes(rows: tuple[tuple[int, str], ...], names: dict[int, str]) -> list[str]:
    return [f"| {int(c)} | {names[int(c)]} | {why} |" for c, why in rows]


def _requests() -> str:
    """§7.1: every request frame's answer and the errors it may get (paiju.protocol.answers)."""
    answers = importlib.import_module("paiju.protocol.answers")
    errors = importlib.import_module("paiju.protocol.errors")
    names = {int(e): e.name for e in errors.ErrorCode}
    for g in GAMES:
        names |= {int(e): e.name for e in importlib.import_module(f"paiju.protocol.{g}").Error}
    head = ["| code | name | when |", "|---|---|---|"]
    parts = ["#### Any frame", "", *head, *_codes(answers.ANY_FRAME, names), ""]
    for a in answers.REQUESTS:
        parts += [f"#### {a.frame}", "", f"Answer: {a.answer}.", "", *head, *_codes(a.errors, names), ""]
        if a.frame == "ACTION":
            for g in GAMES:
                parts += [f"ACTION in `{g}`, refused by the game:", "", *head]
                parts += [*_codes(answers.refusals(g), names), ""]
    parts += ["#### No request", "", *head, *_codes(answers.UNSOLICITED, names)]
    parts += [*_codes(answers.NEVER_SENT, names), ""]
    return "\n".join(parts)


def _bytes() -> str:
    """§4.4: every valid byte, by game and by field type (paiju.protocol.cards)."""
    cards = importlib.import_module("paiju.protocol.cards")
    what = {
        "tricks": "cards: number k of 1..2n is the k-th byte here (`standard`, n = 8: 0x02-0x0e, 0x12-0x14)",
        "mahjong": "tiles: `classic`'s 34 kinds; `championship` deals the 27 suited ones (0x01-0x29)",
        "niujiu": "cards: 48, no 4s",
        "bridge": "cards: 52",
    }
    sets = [(f"`{g}`", what[g], cards.DECKS[g]) for g in GAMES]
    sets += [
        ("bids", "a bridge BID's byte (`level << 4 \\| strain`)", cards.BIDS),
        ("`cards`", "a `cards` field: `0x00` (hidden) and every game's cards and tiles", cards.CARD_DOMAIN),
        ("`actbytes`", "an `actbytes` field: `0x00`, every game's cards and tiles, and the bids", cards.ACTION_DOMAIN),
    ]
    rows = ["| set | what | count | bytes |", "|---|---|---|---|"]
    rows += [f"| {k} | {what} | {len(v)} | {cards.byte_runs(v)} |" for k, what, v in sets]
    return "\n".join(rows) + "\n"


def _omitted() -> str:
    """§2.1: the trailing fields the encoder leaves out while they hold their defaults (Frame.LATER)."""
    rows = ["| frame | fields left out while at their default |", "|---|---|"]
    for cls in FRAMES.values():
        if cls.LATER:
            later = describe(cls)[-cls.LATER :]
            rows.append(f"| {wire_name(cls)} | {', '.join(f'`{n}` ({d})' for n, _, d in later)} |")
    return "\n".join(rows) + "\n"


def _discovery() -> str:
    """§10: the fields of GET /api/games, and the games, rulesets and robots of this code."""
    discovery = importlib.import_module("paiju.server.discovery")
    bots = importlib.import_module("paiju.bots.registry")
    config = importlib.import_module("paiju.core.config")
    rows = ["| field | meaning |", "|---|---|", *(f"| `{k}` | {v} |" for k, v in discovery.FIELDS)]
    answer = discovery.catalogue(config.Limits(), robots=discovery.menus(bots.describe))
    rows += ["", "With the default settings and every robot of this code installed:", ""]
    rows += ["| game | seats | rulesets (the first is the default) | robots (the first is the default) |"]
    rows += ["|---|---|---|---|"]
    for g in answer["games"]:
        rs = "; ".join(f"`{r['name']}`: {r['description']}" for r in g["rulesets"])
        robots = ", ".join(f"`{r['name']}`" for r in g["robots"])
        rows.append(f"| `{g['name']}` | {g['seats']} | {rs} | {robots} |")
    serve = importlib.import_module("paiju.cli.serve")
    p = argparse.ArgumentParser()
    serve.add_arguments(p)
    defaults = p.parse_args([])
    defaults.pbn_text = None
    served = discovery.catalogue(serve.config_from(defaults).limits, robots={})
    rows += ["", "`limits`, `timings` and `chat` with `paiju serve`'s defaults:", ""]
    rows += ["| field | default |", "|---|---|"]
    rows += [f"| `{part}.{k}` | {v:,} |" for part in ("limits", "timings", "chat") for k, v in served[part].items()]
    return "\n".join(rows) + "\n"


def blocks() -> dict[str, str]:
    """Every generated block of SPEC.md, by key."""
    out = {
        "frames-client": _frames("client"),
        "frames-server": _frames("server"),
        "frames-bus": _frames("bus"),
        "records": "\n".join(f"#### {c.__name__}\n\n{_field_table(c)}" for c in (Option, RoomInfo, SessionInfo)),
    }
    actions = importlib.import_module("paiju.protocol.actions")
    errors = importlib.import_module("paiju.protocol.errors")
    out["room-events"] = _enum(actions.RoomEvent, True) + "\n" + _enum(actions.SeatKind, False)
    out["errors"] = _enum(errors.ErrorCode, False)
    out["requests"] = _requests()
    out["omitted"] = _omitted()
    out["bytes"] = _bytes()
    out["discovery"] = _discovery()
    out["features"] = _enum(importlib.import_module("paiju.protocol.frames").Feature, False)
    for g in GAMES:
        m = importlib.import_module(f"paiju.protocol.{g}")
        tables = [
            v for v in vars(m).values() if isinstance(v, type) and issubclass(v, IntEnum) and v.__module__ == m.__name__
        ]
        out[f"{g}-codes"] = "\n".join(_enum(t, t.__name__ == "EventCode") for t in tables)
        out[f"{g}-view"] = "\n".join(views.table(t) for t in views.nested(m.View))
        detail = [t for t in views.nested(m.Detail) if t is m.Detail or t not in views.nested(m.View)]
        out[f"{g}-result"] = f"RESULT's `hands`: {m.RESULT_HANDS}.\n\n" + "\n".join(views.table(t) for t in detail)
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
    p = argparse.ArgumentParser(prog="python -m paiju.spec", description=__doc__)
    p.add_argument("--write", action="store_true", help="rewrite SPEC.md's generated blocks")
    args = p.parse_args(argv)
    text = SPEC.read_text(encoding="utf-8")
    new = render(text)
    if args.write:
        SPEC.write_text(new, encoding="utf-8")
        return 0
    if new != text:
        print("SPEC.md's generated tables differ from the code: run python -m paiju.spec --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
