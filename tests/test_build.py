"""The two builds (paiju/build.py): the compiled hot path and the pure-Python modules send
the same frames for the same seeded matches of every game; ``paiju --version`` says which build
runs; ``PAIJU_PURE=1`` and a stale extension run the ``.py`` modules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paiju import __version__, build

ROOT = Path(__file__).resolve().parent.parent
# seeded matches of the four games (two hands of tricks and niujiu: the dealer rotates)
MATCHES = ["tricks:1:2", "tricks:2", "niujiu:1:2", "niujiu:5", "bridge:1", "bridge:4", "mahjong:1", "mahjong:3"]


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    if pure:
        env[build.PURE_ENV] = "1"
    return env


def _transcripts(pure: bool) -> tuple[str, list[str]]:
    p = subprocess.run(
        [sys.executable, "-m", "paiju.bench.compiled", "transcript", *MATCHES],
        cwd=ROOT,
        env=_env(pure),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert p.returncode == 0, p.stderr
    described, *lines = p.stdout.splitlines()
    return described, lines


def test_compiled_and_pure_builds_send_the_same_frames() -> None:
    if not build.extensions():
        pytest.skip("no compiled build in this tree (PAIJU_PURE_BUILD=1, or no C compiler)")
    compiled, of_compiled = _transcripts(pure=False)
    pure, of_pure = _transcripts(pure=True)
    assert compiled.startswith("compiled: mypyc") and compiled.endswith(f", {len(build.COMPILED)} modules")
    assert pure == "pure Python: PAIJU_PURE=1"
    assert len(of_compiled) == len(MATCHES)
    for match, frames in zip(MATCHES, of_compiled, strict=True):
        assert frames.startswith(match + " ") and int(frames.split()[-1]) > 50  # a whole match was played
    assert of_compiled == of_pure


@pytest.mark.parametrize("pure", [False, True])
def test_version_says_which_build_runs(pure: bool) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "paiju", "--version"], cwd=ROOT, env=_env(pure), capture_output=True, text=True
    )
    assert p.returncode == 0, p.stderr
    if not build.extensions():
        assert p.stdout == f"paiju {__version__} (pure Python)\n"
    elif pure:
        assert p.stdout == f"paiju {__version__} (pure Python: PAIJU_PURE=1)\n"
    else:
        assert p.stdout.startswith(f"paiju {__version__} (compiled: mypyc ")
        assert p.stdout.endswith(f", {len(build.COMPILED)} modules)\n")


def test_doctests_of_the_compiled_modules_pass_on_the_pure_build() -> None:
    """conftest.py leaves these out of a compiled run: they run here, on the pure modules."""
    files = [str(Path(*m.split(".")).with_suffix(".py")) for m in build.COMPILED]
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
        cwd=ROOT,
        env=_env(True),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert p.returncode == 0, p.stdout[-3000:]
    assert " passed" in p.stdout.splitlines()[-1]


WHICH = (
    "import paiju.games.bridge.deal, paiju.core.table.table; "
    "print(paiju.games.bridge.deal.__file__); print(paiju.core.table.table.__file__)"
)


def test_pure_switch_loads_the_sources() -> None:
    p = subprocess.run([sys.executable, "-c", WHICH], cwd=ROOT, env=_env(True), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert [Path(f).name for f in p.stdout.split()] == ["deal.py", "table.py"]
    if build.extensions():
        p = subprocess.run([sys.executable, "-c", WHICH], cwd=ROOT, env=_env(False), capture_output=True, text=True)
        assert [Path(f).suffix for f in p.stdout.split()] == [".so", ".so"], p.stdout


def test_a_stale_extension_runs_the_sources(tmp_path: Path) -> None:
    """In a source tree, an extension older than its ``.py`` (edited, not rebuilt) is not run."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "paiju" / "protocol").mkdir(parents=True)
    (tmp_path / "paiju" / "__init__.py").write_text("")
    shutil.copy(ROOT / "paiju" / "build.py", tmp_path / "paiju" / "build.py")
    so = tmp_path / "paiju" / "protocol" / f"cards{build.importlib.machinery.EXTENSION_SUFFIXES[0]}"
    src = tmp_path / "paiju" / "protocol" / "cards.py"
    so.write_bytes(b"")
    src.write_text("")
    os.utime(so, (1_000_000, 1_000_000))
    os.utime(src, (2_000_000, 2_000_000))
    script = "import sys; sys.path.insert(0, sys.argv[1]); from paiju import build; print(build.stale())"
    p = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=_env(False), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "['paiju.protocol.cards']\n"
    assert "compiled modules older than their sources (paiju.protocol.cards): running the pure-Python" in p.stderr
    os.utime(so, (3_000_000, 3_000_000))
    p = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=_env(False), capture_output=True, text=True)
    assert (p.stdout, p.stderr) == ("[]\n", "")
