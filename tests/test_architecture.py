"""docs/architecture.md is drawn from the code: every path of the repository it names exists,
its lists of the cores' inputs and outputs are exactly the members of ``TableIn``,
``TableOut``, ``LobbyIn`` and ``LobbyOut``, and its list of the server's parts is the classes
of paiju/server/ that a ``Server`` is made of, each with its module."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from paiju.bus.memory import MemoryBus
from paiju.core.config import Config
from paiju.core.lobby import LobbyIn, LobbyOut
from paiju.core.table import TableIn, TableOut
from paiju.server.app import Server

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PATH = re.compile(r"(?<![\w/.])((?:paiju|tests|docs)/[\w./*-]*[\w/])")
NAME = re.compile(r"`([A-Z]\w*)`")


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
