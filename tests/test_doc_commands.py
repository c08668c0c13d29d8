"""Every `paiju ...` command the docs quote exists in `paiju --help`: its subcommands, and its
options, parse. A command written with placeholders (`GAME`, `N`, `[--ruleset R]`) is a
synopsis: its subcommands and every option it names must exist. A concrete command is parsed
whole by paiju's own parser, without running it (a figure quoted with a command that no
longer parses is a figure nobody can reproduce)."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from paiju.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(?:[.,][A-Za-z0-9_,.\[\]]*)?$|\[|\.\.\.|^<")


def quoted_commands(text: str) -> list[tuple[str, bool]]:
    """The `paiju ...` commands of a Markdown text, each with whether it is a whole command (a
    line of a code block: in a block that shows output, the lines after `$ `) or an inline
    code span, which may name a command and an option in passing.

    >>> quoted_commands("see `paiju arena`;\\n```\\n$ paiju bench db \\\\\\n  --json  # SQLite\\nout\\n```\\n")
    [('paiju bench db --json', True), ('paiju arena', False)]
    """
    out = []
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        lines = [line.strip() for line in re.sub(r"\\\n\s*", " ", block).splitlines()]
        prompted = any(line.startswith("$ ") for line in lines)
        for line in lines:
            if prompted and not line.startswith("$ "):
                continue  # the output of a command
            line = line.removeprefix("$ ").strip()
            if line.startswith("paiju "):
                out.append((_clean(line), True))
    rest = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    out += [(_clean(span), False) for span in re.findall(r"`(paiju [^`]+)`", rest.replace("\n", " "))]
    return out


def _clean(line: str) -> str:
    """The command without a trailing comment or shell plumbing."""
    line = re.split(r"\s+#", line)[0]
    line = re.split(r"\s&&|\s\||;|\s>", line)[0]
    return " ".join(line.removesuffix("&").split())


def _subparser(parser: argparse.ArgumentParser, words: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The parser of the deepest subcommand ``words`` name, and the words after it."""
    while words:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or words[0] not in subs[0].choices:
            break
        parser, words = subs[0].choices[words[0]], words[1:]
    return parser, words


def check(command: str, whole: bool = True) -> str | None:
    """Why ``command`` does not parse (None: it does). A command with placeholders, or a code
    span that names an option in passing, needs only its subcommands and options to exist."""
    words = shlex.split(command)[1:]
    root = build_parser()
    if not words or words[0] in ("--help", "-h", "--version"):
        return None
    sub, rest = _subparser(root, words)
    if sub is root:
        return f"no subcommand {words[0]!r}"
    # a code span that ends with an option names that option in passing ("`paiju serve --redis`")
    passing = not whole and rest and rest[-1].startswith("--")
    if not passing and not any(PLACEHOLDER.search(w) for w in rest):
        try:
            root.parse_args(words)
        except SystemExit as e:
            return f"does not parse (exit {e.code})"
        return None
    known = {s for a in sub._actions for s in a.option_strings}
    unknown = [w for w in rest if w.startswith("--") and w.split("=")[0] not in known]
    unknown += [w for w in re.findall(r"\[(--[\w-]+)", command) if w not in known]
    return f"unknown options {sorted(set(unknown))}" if unknown else None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_quoted_command_parses(
    doc: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)  # paths in the commands are the repository's
    bad = {}
    for command, whole in quoted_commands(doc.read_text(encoding="utf-8")):
        why = check(command, whole)
        if why:
            bad[command] = f"{why}: {capsys.readouterr().err.strip()}"
    assert not bad, bad


def test_the_check_finds_a_command_that_does_not_parse() -> None:
    assert check("paiju arena tricks --seats perfect,random --hands 10 --seed 1") is None
    assert check("paiju arena GAME --seats A,B --hands N [--ruleset R]") is None
    assert check("paiju bench server --games mahjong --idle 0 --duration 20") is None
    assert check("paiju bench servr --idle 0")
    assert check("paiju arena tricks --hands 10 --speed 2")
    assert check("paiju arena GAME --hands N [--turbo]")
    assert check("paiju teleport")
    assert check("paiju serve --redis", whole=False) is None and check("paiju serve --redis")
    assert check("paiju serve --no-such-option", whole=False)
