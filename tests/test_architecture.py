"""docs/architecture.md is drawn from the code: every path of the repository it names exists,
every name it quotes (`Gate`, `protocol.decode`, `GameEvent.seen_by`) is defined in paiju/,
every wire word it writes in capitals (ROOM_STATE, TOO_LARGE, AWAY) is a frame, a code or a
state of the protocol or the cores, every default it quotes (the rate bucket, the grace, the
clocks and banks, the linger...) is `paiju serve`'s own, its lists of the cores' inputs and outputs are exactly the
members of ``TableIn``, ``TableOut``, ``LobbyIn`` and ``LobbyOut``, and its list of the
server's parts is the classes of paiju/server/ that a ``Server`` is made of, each with its
module."""

from __future__ import annotations

import ast
import enum
import importlib
import re
import typing
from pathlib import Path

import pytest

from paiju.bus.memory import MemoryBus
from paiju.cli import build_parser
from paiju.core.config import DEFAULT_BANK_MS, DEFAULT_CLOCK_MS, Config, Limits
from paiju.core.lifecycle import Phase
from paiju.core.lobby import LobbyIn, LobbyOut
from paiju.core.social import Chat
from paiju.core.table import TableIn, TableOut
from paiju.protocol import MAX_FRAME
from paiju.server.app import Server
from paiju.server.room import RECORD_WAIT

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PATH = re.compile(r"(?<![\w/.])((?:paiju|tests|docs)/[\w./*-]*[\w/])")
NAME = re.compile(r"`([A-Z]\w*)`")
QUOTED = re.compile(r"`((?:[A-Z]\w*[a-z]\w*|(?:paiju|protocol|games)\.\w+)(?:\.\w+)*)`")
CAPITALS = re.compile(r"(?<![\w`/{.-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)(?![\w`}])")
# capitals on the page that are no wire word: protocols, formats, a signal and placeholders
NOT_WIRE = {"HTTP", "URL", "SQL", "GET", "API", "SHA", "HMAC", "PBN", "SPEC", "SIGTERM"}
NOT_WIRE |= {"NAME", "VERSION", "GAME", "MS"}


def named_paths(text: str) -> set[str]:
    """The repository paths (paiju/..., tests/..., docs/...; a glob) that ``text`` names."""
    return {m.rstrip("/.") for m in PATH.findall(text)}


def paragraph(text: str, union: str) -> str:
    """The paragraph that opens with ``**Inputs** (`union`)``, ``**Outputs** (`union`)`` or
    ``**The parts** (`union```, the opening left out."""
    m = re.search(r"\*\*(?:Inputs|Outputs|The parts)\*\* \(`" + union + r"`[,:)]?(.*?)(?:\n\n|\Z)", text, re.S)
    assert m is not None, f"no list of {union} in docs/architecture.md"
    return m.group(1)


def listed(text: str, union: str) -> set[str]:
    """The names in backquotes of the paragraph of ``union`` (:func:`paragraph`), the union's
    own name left out."""
    return set(NAME.findall(paragraph(text, union))) - {union}


def members(union: object) -> set[str]:
    return {t.__name__ for t in typing.get_args(union)}


def definitions() -> dict[str, set[str]]:
    """Every class, function and module-level name defined in paiju/, each with the names its
    class body defines (empty for a function or a variable)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "paiju").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                body = {n.name for n in node.body if isinstance(n, kinds)}
                body |= {t.id for n in node.body for t in _targets(n)}
                found.setdefault(node.name, set()).update(body)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(node.name, set())
        for node in tree.body:
            for t in _targets(node):
                found.setdefault(t.id, set())
    return found


def _targets(node: ast.stmt) -> list[ast.Name]:
    if isinstance(node, ast.Assign):
        return [t for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target]
    return []


def undefined(names: set[str], defined: dict[str, set[str]]) -> set[str]:
    """The quoted names that paiju does not define: ``Class`` or ``Class.member`` by its
    source, ``paiju.x.y``, ``protocol.x`` and ``games.x`` by importing them."""
    missing = set()
    for name in names:
        head, *rest = name.split(".")
        if head in ("paiju", "protocol", "games"):
            module, attrs = ("paiju" if head == "paiju" else f"paiju.{head}"), rest
            obj: object = importlib.import_module(module)
            for a in attrs:
                try:
                    obj = getattr(obj, a)
                except AttributeError:
                    try:
                        obj = importlib.import_module(f"{getattr(obj, '__name__', '')}.{a}")
                    except ImportError:
                        missing.add(name)
                        break
        elif head not in defined or (rest and rest[0] not in defined[head]):
            missing.add(name)
    return missing


def wire_words() -> set[str]:
    """The protocol's words in capitals: the frames (``RoomState``: ROOM_STATE), the members
    of its enumerations (codes, events, seats, features) and the cores' phases."""
    from paiju import protocol
    from paiju.protocol.frames import FRAMES

    words = {re.sub(r"(?<!^)(?=[A-Z])", "_", f.__name__).upper() for f in FRAMES.values()}
    for module in [m for m in vars(protocol).values() if type(m).__name__ == "module"] + [protocol]:
        for v in vars(module).values():
            if isinstance(v, type) and issubclass(v, enum.Enum):
                words |= {m.name for m in v}
    return words | {p.name for p in Phase}


def test_every_name_the_page_quotes_is_defined() -> None:
    names = set(QUOTED.findall(DOC.read_text(encoding="utf-8")))
    assert len(names) > 50
    missing = undefined(names, definitions())
    assert not missing, f"docs/architecture.md quotes names paiju does not define: {sorted(missing)}"


def test_every_wire_word_the_page_writes_is_the_protocols() -> None:
    text = re.sub(r"^```.*?^```", "", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)
    words = set(CAPITALS.findall(text)) - NOT_WIRE
    words = {w for w in words if len(w) > 2 and not w.startswith("PAIJU_")}
    assert len(words) > 20
    unknown = sorted(words - wire_words())
    assert not unknown, f"docs/architecture.md writes wire words the protocol does not have: {unknown}"


def defaults() -> dict[str, list[float]]:
    """What the page says of each default (a pattern of its text, its figures in order) and
    what the code has: `paiju serve`'s options as parsed with none given, the limits, the
    clocks and banks, the table talk's bucket, the wait of a RESULT for its record."""
    serve = build_parser().parse_args(["serve"])
    games = ("mahjong", "bridge", "niujiu", "tricks")
    return {
        r"a token bucket \((\d+) frames/s, bursts of (\d+): RATE_LIMITED beyond, closed after (\d+) refusals": [
            serve.rate,
            serve.burst,
            serve.rate_strikes,
        ],
        r"a bounded queue \((\d+) frames\)": [serve.send_queue],
        r"falls (\d+) frames behind": [serve.send_queue],
        r"unread for `--stall` \((\d+) s\)": [serve.stall],
        r"may linger `--linger-ms` \((\d+) ms\)": [serve.linger_ms],
        r"Messages over (\d+) KiB get TOO_LARGE, over (\d+) KiB close": [MAX_FRAME / 1024, Limits().max_message / 1024],
        r"the last ([\d,]+) events are kept": [Limits().replay_buffer],
        r"played `--robot-pace` \(([\d.]+) s\)": [serve.robot_pace],
        r"grace period, (\d+) s\)": [serve.grace],
        r"`--clock GAME=MS`: mahjong (\d+) s, bridge (\d+) s, Niujiu (\d+) s, tricks (\d+) s": [
            DEFAULT_CLOCK_MS[g] / 1000 for g in games
        ],
        r"`--bank GAME=MS`: (\d+), (\d+), (\d+), (\d+) s": [DEFAULT_BANK_MS[g] / 1000 for g in games],
        r"`--waiting-expiry` \((\d+) s\)": [serve.waiting_expiry],
        r"`--robot-wait` \((\d+) s\)": [serve.robot_wait],
        r"at once and one every (\d+) s": [Chat.REFILL_S],
        r"the last (\d+) lines for who joins": [Chat.KEEP],
        r"committed, bounded at (\d+) s": [RECORD_WAIT],
    }


def stale_defaults(text: str, expected: dict[str, list[float]]) -> dict[str, object]:
    """The defaults ``text`` misquotes (or no longer quotes): pattern -> what it says."""
    flat = " ".join(text.split())
    bad: dict[str, object] = {}
    for pattern, want in expected.items():
        said = [[float(g.replace(",", "")) for g in m.groups()] for m in re.finditer(pattern, flat)]
        if not said or any(s != [float(w) for w in want] for s in said):
            bad[pattern] = said or "not found"
    return bad


def test_every_default_the_page_quotes_is_the_servers() -> None:
    bad = stale_defaults(DOC.read_text(encoding="utf-8"), defaults())
    assert not bad, f"docs/architecture.md quotes defaults the server does not have: {bad}"


def test_every_path_the_page_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    paths = named_paths(text)
    assert len(paths) > 20
    missing = sorted(p for p in paths if not any(ROOT.glob(p)))
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


@pytest.mark.parametrize(
    ("name", "union"), [("TableIn", TableIn), ("TableOut", TableOut), ("LobbyIn", LobbyIn), ("LobbyOut", LobbyOut)]
)
def test_the_lists_of_inputs_and_outputs_are_the_cores_own(name: str, union: object) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert listed(text, name) == members(union)


def test_the_servers_parts_are_the_pages() -> None:
    """The classes of paiju/server/ a Server holds once made (``Server.__init__``), each named
    in the page's list of them with its module's path."""
    server = Server(Config(port=0), MemoryBus("doc"))
    parts = {type(v) for v in vars(server).values() if type(v).__module__.startswith("paiju.server.")}
    text = paragraph(DOC.read_text(encoding="utf-8"), "Server")
    assert listed(DOC.read_text(encoding="utf-8"), "Server") - {"Host"} == {c.__name__ for c in parts}
    for c in parts:
        assert c.__module__.replace(".", "/") + ".py" in text, f"{c.__name__}'s module is not named"


def test_the_checks_find_what_they_look_for() -> None:
    text = "See paiju/core/table/, tests/t*.py and tests/x.py.\n\n"
    text += "**Inputs** (`TableIn`): `Enter` (JOIN), `Tick`.\n\nmore `Exit`"
    assert named_paths(text) == {"paiju/core/table", "tests/t*.py", "tests/x.py"}
    assert listed(text, "TableIn") == {"Enter", "Tick"}
    parts = "**The parts** (`Server`, x.py): `Gate` (paiju/server/gate.py), `Site`.\n\n`Room`"
    assert listed(parts, "Server") == {"Gate", "Site"}
    assert members(TableIn) >= {"Enter", "Tick", "Exit"}
    quoted = set(QUOTED.findall("`Gate`, `Gate.handler`, `Bind`, `protocol.decode`, `protocol.Nope`, `OVER`, `h`"))
    assert quoted == {"Gate", "Gate.handler", "Bind", "protocol.decode", "protocol.Nope"}
    assert undefined(quoted, definitions()) == {"Bind", "protocol.Nope"}
    found = CAPITALS.findall("ROOM_STATE, then `TOO_LARGE` and RATE_LIMITED; paiju:req:{GAME}")
    assert found == ["ROOM_STATE", "RATE_LIMITED"]
    assert {"ROOM_STATE", "TOO_LARGE", "AWAY", "BATCH", "HAND_END", "WAITING"} <= wire_words()
    assert "BOUND" not in wire_words()
    page = "the last 4,096 events are kept for resume; played `--robot-pace`\n(0.6 s) after"
    assert stale_defaults(page, {r"the last ([\d,]+) events are kept": [4096]}) == {}
    assert stale_defaults(page, {r"played `--robot-pace` \(([\d.]+) s\)": [0.5]}) != {}
    assert stale_defaults(page, {r"`--robot-wait` \((\d+) s\)": [30]}) == {r"`--robot-wait` \((\d+) s\)": "not found"}
