"""docs/architecture.md is drawn from the code: every path of the repository it names exists, and
its lists of the cores' inputs and outputs are exactly the members of ``TableIn``,
``TableOut``, ``LobbyIn`` and ``LobbyOut``."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from paiju.core.lobby import LobbyIn, LobbyOut
from paiju.core.table import TableIn, TableOut

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PATH = re.compile(r"(?<![\w/.])((?:paiju|tests|docs)/[\w./*-]*[\w/])")
NAME = re.compile(r"`([A-Z]\w*)`")


def named_paths(text: str) -> set[str]:
    """The repository paths (paiju/..., tests/..., docs/...; a glob) that ``text`` names."""
    return {m.rstrip("/.") for m in PATH.findall(text)}


def listed(text: str, union: str) -> set[str]:
    """The names in backquotes of the paragraph that opens with ``**Inputs** (`union`)`` or
    ``**Outputs** (`union`)``, the union's own name left out."""
    m = re.search(r"\*\*(?:Inputs|Outputs)\*\* \(`" + union + r"`\):(.*?)(?:\n\n|\Z)", text, re.S)
    assert m is not None, f"no list of {union} in docs/architecture.md"
    return set(NAME.findall(m.group(1)))


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


def test_the_checks_find_what_they_look_for() -> None:
    text = "See paiju/core/table/, tests/t*.py and tests/x.py.\n\n"
    text += "**Inputs** (`TableIn`): `Enter` (JOIN), `Tick`.\n\nmore `Exit`"
    assert named_paths(text) == {"paiju/core/table", "tests/t*.py", "tests/x.py"}
    assert listed(text, "TableIn") == {"Enter", "Tick"}
    assert members(TableIn) >= {"Enter", "Tick", "Exit"}
