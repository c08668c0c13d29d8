"""`paiju bots` and `paiju serve --redis` refuse an unreachable or malformed Redis URL at
start-up with one clear line and a non-zero exit, never a traceback.

The unreachable URL is tried by the commands themselves (`python -m paiju`, a process that
connects and exits); the malformed ones, refused before any connection or other start-up
work, by the same entry point (:func:`paiju.cli.main`) in this process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paiju import cli
from paiju.testing.launch import ROOT, free_port

MALFORMED = {
    "malformed": "http://127.0.0.1:6379",
    "bad port": "redis://127.0.0.1:notaport/0",
    "bad db": "redis://127.0.0.1:6379/zero",
}
COMMANDS = [["bots"], ["serve", "--port", "0"]]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_redis_url_is_a_clear_error(
    command: list[str], case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = MALFORMED[case]
    code = cli.main([*command, "--redis", url])
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    assert f"paiju {command[0]}: malformed Redis URL" in err, err
    print(f"paiju {command[0]} --redis {url} -> exit {code}: {err.strip().splitlines()[-1]}")


@pytest.mark.parametrize("command", COMMANDS)
def test_unreachable_redis_is_a_clear_error(command: list[str]) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    p = subprocess.run(
        [sys.executable, "-m", "paiju", *command, "--redis", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stdout + p.stderr
    assert f"paiju {command[0]}: cannot reach Redis" in p.stderr, p.stderr
    print(f"paiju {command[0]} --redis {url} -> exit {p.returncode}: {p.stderr.strip().splitlines()[-1]}")
