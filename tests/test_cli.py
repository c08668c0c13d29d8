"""Every mistake on the command line ends with one clear line on stderr and a non-zero exit,
never a traceback: bad paths, ports, counts, names. Most cases run the command line in
this process (``paiju.cli.main``); a port already in use and ``--version`` run the real
``paiju`` program."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from paiju import __version__, build
from paiju.cli import eventloop, main

ROOT = Path(__file__).resolve().parent.parent

# argv -> (exit code, the start of the one line on stderr, a word it must hold)
MISTAKES = {
    "plot folder missing": (
        "arena tricks --seats perfect,random --hands 2 --plot /nonexistent/x.png",
        2,
        "paiju arena: argument --plot: cannot write /nonexistent/x.png",
        "does not exist",
    ),
    "records folder missing": (
        "arena tricks --seats perfect,random --hands 2 --records /nonexistent/r.jsonl",
        2,
        "paiju arena: argument --records: cannot write",
        "does not exist",
    ),
    "records is a folder": (
        "arena tricks --seats perfect,random --hands 2 --records /tmp",
        2,
        "paiju arena: argument --records: cannot write /tmp",
        "folder",
    ),
    "no hands": ("arena tricks --seats perfect,random --hands 0", 2, "paiju arena: argument --hands:", "at least 1"),
    "hands not a number": (
        "arena tricks --seats perfect,random --hands ten",
        2,
        "paiju arena: argument --hands",
        "ten",
    ),
    "unknown robot": ("arena tricks --seats perfect,nobody --hands 2", 2, "paiju arena: no robot 'nobody'", "known"),
    "too few robots": ("arena tricks --seats perfect --hands 2", 2, "paiju arena: tricks has 2 seats", "1"),
    "unknown game": ("arena chess --seats a,b", 2, "paiju arena: no game 'chess'", "known"),
    "unknown ruleset": (
        "arena tricks --seats perfect,random --ruleset zzz",
        2,
        "paiju arena: tricks has no ruleset",
        "zzz",
    ),
    "port too high": ("serve --port 99999", 2, "paiju serve: argument --port:", "0..65535"),
    "port not a number": ("serve --port http", 2, "paiju serve: argument --port:", "http"),
    "clock malformed": ("serve --clock mahjong=soon", 2, "paiju serve: argument --clock:", "GAME=MS"),
    "clock of no game": ("serve --clock chess=5000", 2, "paiju serve: argument --clock: no game 'chess'", "known"),
    "no workers": ("serve --workers 0", 2, "paiju serve: argument --workers:", "at least 1"),
    "negative grace": ("serve --grace -1", 2, "paiju serve: argument --grace:", "at least 0"),
    "log level": ("serve --log-level loud", 2, "paiju serve: argument --log-level:", "DEBUG"),
    "pbn file missing": (
        "serve --pbn /nonexistent/deals.pbn",
        2,
        "paiju serve: argument --pbn: cannot read",
        "no such file",
    ),
    "robots module": ("serve --robots-module no.such.module", 2, "paiju serve: cannot import robots module", "no"),
    "solve chart folder": (
        "solve tricks --distribution --plot /nonexistent/d.png",
        2,
        "paiju solve: argument --plot: cannot write",
        "does not exist",
    ),
    "solve bad card": ("solve tricks 1,2,x 3,4,5", 2, "paiju solve:", "x"),
    "bench no hands": ("bench mahjong --hands 0", 2, "paiju bench mahjong: argument --hands:", "at least 1"),
    "bench no deals": ("bench tricks --deals 0", 2, "paiju bench tricks: argument --deals:", "at least 1"),
    "conformance ruleset": (
        "bench conformance --game tricks --ruleset chess",
        2,
        "paiju bench conformance: tricks has no ruleset 'chess'",
        "known: standard",
    ),
    "bots health file": (
        "bots --redis redis://127.0.0.1:1/0 --health-file /nonexistent/h",
        2,
        "paiju bots: argument --health-file: cannot write",
        "does not exist",
    ),
    "bots no redis": ("bots", 2, "paiju bots: --redis URL", "required"),
    "unknown command": ("deal", 2, "paiju: argument COMMAND: invalid choice: 'deal'", "serve"),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_a_mistake_is_one_line_and_a_nonzero_exit(
    case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv, code, start, word = MISTAKES[case]
    monkeypatch.delenv("PAIJU_REDIS", raising=False)
    try:
        got = main(argv.split())
    except SystemExit as e:  # argparse's errors exit
        got = e.code
    out, err = capsys.readouterr()
    assert got == code, (got, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(start), lines[0]
    assert word in lines[0]
    assert "Traceback" not in out + err
    print(f"paiju {argv} -> exit {got}: {lines[0]}")


def test_a_malformed_pbn_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ"]\n')
    assert main(["serve", "--pbn", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"paiju serve: --pbn {bad}: pbn: line 2: Deal: a deal has four hands, not 1\n"


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    # a database of its own: the test process's shared one may hold a match that a server an
    # earlier test killed left playing, which this server would close with a warning first
    db = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = subprocess.run(
            [sys.executable, "-m", "paiju", "serve", "--port", str(port), "--database", db],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert p.stderr.strip() == f"paiju serve: cannot listen on 127.0.0.1:{port}: port {port} is already in use"
    assert "Traceback" not in p.stdout + p.stderr


def test_version() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "paiju", "--version"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    # tests/test_build.py: both builds
    assert p.stdout.strip() == f"paiju {__version__} ({build.describe()}; {eventloop.describe()})"
    assert __version__[0].isdigit()
    loop = "uvloop" if eventloop.uvloop_version() else "asyncio"
    assert f"; event loop {loop}" in p.stdout


def test_version_says_the_standard_loop_when_asked() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "paiju", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, eventloop.LOOP_ENV: "asyncio"},
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith(f"; event loop asyncio ({eventloop.LOOP_ENV}=asyncio))")
