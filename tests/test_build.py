"""The two builds (paiju/build.py): the compiled modules and the pure-Python ones send the same
frames for the same seeded matches of every game; ``paiju --version`` says which build runs;
the extensions beside their ``.py`` files are what runs, and the same tree without them (a
copy: :func:`paiju.bench.compiled.pure_tree`) is the pure build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paiju import __version__, build
from paiju.bench.compiled import pure_tree

ROOT = Path(__file__).resolve().parent.parent
# seeded matches of the four games (two hands of tricks and niujiu: the dealer rotates)
MATCHES = ["tricks:1:2", "tricks:2", "niujiu:1:2", "niujiu:5", "bridge:1", "bridge:4", "mahjong:1", "mahjong:3"]
compiled_only = pytest.mark.skipif(
    not build.extensions(), reason="no compiled build in this tree (PAIJU_PURE_BUILD=1, or no C compiler)"
)


@pytest.fixture(scope="module")
def pure(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pure build of this tree (its ``python -m`` runs there)."""
    return pure_tree(tmp_path_factory.mktemp("pure"))


def _run(cwd: Path, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr
    return p


def _transcripts(cwd: Path) -> tuple[str, list[str]]:
    described, *lines = _run(cwd, "-m", "paiju.bench.compiled", "transcript", *MATCHES).stdout.splitlines()
    return described, lines


@compiled_only
def test_compiled_and_pure_builds_send_the_same_frames(pure: Path) -> None:
    compiled, of_compiled = _transcripts(ROOT)
    described, of_pure = _transcripts(pure)
    assert compiled.startswith("compiled: mypyc") and compiled.endswith(f", {len(build.COMPILED)} modules")
    assert described == "pure Python"
    assert len(of_compiled) == len(MATCHES)
    for match, frames in zip(MATCHES, of_compiled, strict=True):
        assert frames.startswith(match + " ") and int(frames.split()[-1]) > 50  # a whole match was played
    assert of_compiled == of_pure


def test_version_says_which_build_runs(pure: Path) -> None:
    out = _run(ROOT, "-m", "paiju", "--version").stdout
    if build.extensions():
        assert re.fullmatch(rf"paiju {__version__} \(compiled: mypyc .*, {len(build.COMPILED)} modules(; .*)?\)\n", out)
    else:
        assert re.fullmatch(rf"paiju {__version__} \(pure Python(; .*)?\)\n", out), out
    out = _run(pure, "-m", "paiju", "--version").stdout
    assert re.fullmatch(rf"paiju {__version__} \(pure Python(; .*)?\)\n", out), out


@compiled_only
def test_doctests_of_the_compiled_modules_pass_on_the_pure_build(pure: Path) -> None:
    """conftest.py leaves these out of a compiled run: they run here, on the pure modules."""
    files = [str(Path(*m.split(".")).with_suffix(".py")) for m in build.COMPILED]
    p = _run(pure, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules", *files)
    assert " passed" in p.stdout.splitlines()[-1]


WHICH = (  # (the package paiju.games.niujiu has a function named patterns: the module is in sys.modules)
    "import sys, paiju.games.niujiu.patterns, paiju.core.lifecycle; "
    "print(sys.modules['paiju.games.niujiu.patterns'].__file__); print(paiju.core.lifecycle.__file__)"
)


def test_the_extension_beside_a_module_is_what_runs(pure: Path) -> None:
    of_pure = _run(pure, "-c", WHICH).stdout.split()
    assert [Path(f).name for f in of_pure] == ["patterns.py", "lifecycle.py"]
    assert all(Path(f).is_relative_to(pure) for f in of_pure)
    of_tree = _run(ROOT, "-c", WHICH).stdout.split()
    if build.extensions():
        assert [Path(f).suffix for f in of_tree] == [".so", ".so"], of_tree
    else:
        assert [Path(f).suffix for f in of_tree] == [".py", ".py"], of_tree


def test_a_stale_extension_is_named(tmp_path: Path) -> None:
    """In a source tree, an extension older than its ``.py`` (edited, not rebuilt) is named by
    ``build.stale()`` and ``paiju --version``'s description (conftest.py refuses to test it)."""
    name = build.COMPILED[0]
    (tmp_path / "pyproject.toml").write_text("")
    src = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
    src.parent.mkdir(parents=True)
    shutil.copy(ROOT / "paiju" / "build.py", tmp_path / "paiju" / "build.py")
    so = src.with_suffix(build.importlib.machinery.EXTENSION_SUFFIXES[0])
    so.write_bytes(b"")
    src.write_text("")
    os.utime(so, (1_000_000, 1_000_000))
    os.utime(src, (2_000_000, 2_000_000))
    script = "from paiju import build; print(build.stale()); print(build.describe())"
    p = _run(tmp_path, "-c", script)
    assert p.stdout == (
        f"['{name}']\ncompiled: mypyc, 1 modules, 1 older than their sources (rebuild: pip install -e .)\n"
    )
    os.utime(so, (3_000_000, 3_000_000))
    assert _run(tmp_path, "-c", script).stdout == "[]\ncompiled: mypyc, 1 modules\n"
