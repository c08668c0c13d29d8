"""The package as a user gets it: a wheel of one top-level package, ``paiju``, and its data;
``pip install`` into an empty virtual environment, then ``paiju arena`` plays and ``paiju
serve`` serves a lobby that connects (its vendored msgpack library is package data, pinned
by integrity), quick play seats the strongest robot. paiju asks for matplotlib only in
its ``plot`` extra; endplay (the bridge robot's double-dummy solver) still brings it into a plain
install, since every endplay release requires it and cannot be imported without it; removed,
``--plot`` is refused in one line."""

from __future__ import annotations

import base64
import csv
import email
import hashlib
import importlib.metadata
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from paiju.server import webvendor
from paiju.testing.launch import SERVING, Child

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip"]
# What a checkout holds beside the sources (environments, caches, builds, extensions)
UNPACKAGED = (
    ".git",
    ".venv",
    "build",
    "node_modules",
    "test-artifacts",
    "*.egg-info",
    "*.so",
    "__pycache__",
    ".*_cache",
)


def copy_source(to: Path) -> Path:
    """The checkout's sources copied to ``to`` (not its environments, caches and builds): an
    install from it cannot touch the tree the suite runs from."""
    shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns(*UNPACKAGED))
    return to


def requirements_closure(requires: list[str]) -> list[importlib.metadata.Distribution]:
    """The distributions of this environment that ``requires`` (Requires-Dist lines, no extra
    asked) brings in, with their own requirements and the extras asked of them."""
    found: dict[str, importlib.metadata.Distribution] = {}
    asked: set[tuple[str, str]] = set()
    todo = [(Requirement(r), "") for r in requires]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        dist = importlib.metadata.distribution(requirement.name)
        for wanted in ("", *requirement.extras):
            if (key := (canonicalize_name(requirement.name), wanted)) not in asked:
                asked.add(key)
                found[key[0]] = dist
                todo += [(Requirement(r), wanted) for r in dist.requires or []]
    return list(found.values())


def repack(dist: importlib.metadata.Distribution, to: Path) -> Path:
    """A wheel of an installed distribution, made from the files its RECORD lists inside
    site-packages (the scripts pip writes from its entry points come again at install), tagged
    as the wheel it was installed from. A wheelhouse of these lets ``pip install --no-index``
    resolve paiju's dependencies as an install from the index would, without the network."""
    info = Path(str(dist.locate_file(""))) / next(
        f.parts[0] for f in dist.files or [] if f.parts[0].endswith(".dist-info")
    )
    tags = [
        line.split(":", 1)[1].strip().split("-")
        for line in (info / "WHEEL").read_text().splitlines()
        if line.startswith("Tag:")
    ]
    tag = "-".join(".".join(sorted({t[i] for t in tags})) for i in range(3))
    wheel = to / f"{re.sub(r'[-_.]+', '_', dist.metadata['Name']).lower()}-{dist.version}-{tag}.whl"
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(wheel, "w") as z:  # stored, not deflated: the wheel is unpacked once, here
        for f in dist.files or []:
            outside = f.parts[0] == ".." or "__pycache__" in f.parts  # scripts, cached bytecode
            if outside or (
                f.parts[0] == info.name and f.name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")
            ):
                continue
            data = Path(str(dist.locate_file(f))).read_bytes()
            z.writestr(f.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.writerow([f.as_posix(), f"sha256={digest}", len(data)])
        rows.writerow([f"{info.name}/RECORD", "", ""])
        z.writestr(f"{info.name}/RECORD", record.getvalue())
    return wheel


def test_vendored_library_is_committed_and_pinned() -> None:
    assert webvendor.check() == []
    html = (ROOT / "paiju" / "server" / "web" / "index.html").read_text()
    tag = re.search(r'<script src="vendor/msgpack\.min\.js" integrity="([^"]+)"></script>', html)
    assert tag, "index.html loads the vendored library with its integrity"
    assert tag.group(1) == webvendor.FILE_INTEGRITY["msgpack.min.js"]
    tracked = subprocess.run(["git", "ls-files", "paiju/server/web/vendor"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:  # a git checkout (not an unpacked sdist): the files are committed
        assert set(tracked.stdout.split()) >= {f"paiju/server/web/vendor/{n}" for n in webvendor.FILE_INTEGRITY}


# The client a fresh install runs with its own packages: HELLO, then quick play of the
# trick-taking game; prints the WELCOME and, once the match starts, the room's seats.
CLIENT = """
import asyncio, sys
from websockets.asyncio.client import connect
from paiju.protocol import VERSION, Hello, ListRooms, Prompt, QuickPlay, RoomList, Welcome, decode, encode

async def main(url):
    async with connect(url) as ws:
        await ws.send(encode(Hello(VERSION, "fresh")))
        w = decode(await ws.recv())
        assert isinstance(w, Welcome), w
        print("WELCOME", w.player_id)
        await ws.send(encode(QuickPlay("tricks")))
        while not isinstance(decode(await asyncio.wait_for(ws.recv(), 20)), Prompt):
            pass  # the robots are seated when the match starts
        await ws.send(encode(ListRooms("tricks")))
        while not isinstance(f := decode(await asyncio.wait_for(ws.recv(), 20)), RoomList):
            pass
        print("SEATS", f.rooms[0].seats)

asyncio.run(main(sys.argv[1]))
"""


# The requirements an installed distribution declares, one a line.
REQUIRES = "import importlib.metadata as m, sys; print(*m.distribution(sys.argv[1]).requires or [], sep=chr(10))"
# The installed distributions that require a package unconditionally (no extra marker).
WHO_REQUIRES = """
import importlib.metadata as m, re, sys
print(*sorted({d.metadata["Name"] for d in m.distributions() for r in d.requires or []
               if re.match(re.escape(sys.argv[1]) + r"\\b", r) and "extra ==" not in r}))
"""


@pytest.mark.slow
@pytest.mark.timeout(900)  # a wheel built and installed with its dependencies: minutes on a busy machine
def test_pip_install_into_an_empty_venv_then_serve(tmp_path: Path) -> None:
    start = time.monotonic()
    # what `pip install .` does: pip builds the wheel with the project's build backend, then
    # installs it and its dependencies into the new environment
    wheels = tmp_path / "wheels"
    # the pure-Python wheel (PAIJU_PURE_BUILD, setup.py), built from a copy of the sources (a pure
    # build removes the extensions of its tree): the compiled build is the one the suite itself
    # runs on (./dev.sh test installs it with the same backend, in an isolated environment);
    # this test is about what a wheel carries and what an empty environment needs, and building
    # mypyc's extensions again here costs some 90 s of CPU against 5. The backend runs in this
    # environment (setuptools is in the test extra): an isolated build installs the build
    # requirements (mypy, SQLAlchemy...) again first, 106 s against 8 at a load of 7
    source = copy_source(tmp_path / "source")
    build_env = {**os.environ, "PAIJU_PURE_BUILD": "1"}
    subprocess.run(
        [*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        env=build_env,
    )
    (wheel,) = wheels.glob("paiju-*.whl")
    # one top-level package, paiju, and its data: every file the checkout tracks under paiju/
    names = set(zipfile.ZipFile(wheel).namelist())
    dist_info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
    assert {n.split("/")[0] for n in names} == {"paiju", dist_info}
    data = {
        "paiju/py.typed",
        "paiju/protocol/SPEC.md",
        "paiju/server/web/index.html",
        "paiju/server/web/vendor/msgpack.min.js",
        "paiju/games/mahjong/tables.bin",
        "paiju/games/bridge/tables/openings.txt",
        "paiju/records/migrations/env.py",
        "paiju/records/migrations/script.py.mako",
        "paiju/bots/mahjong/learned-classic.json",
    }
    assert data <= names, data - names
    assert not any(n.endswith(".so") for n in names)  # the pure wheel
    tracked = subprocess.run(["git", "ls-files", "paiju"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:  # a git checkout
        assert set(tracked.stdout.split()) <= names, set(tracked.stdout.split()) - names
    # the wheelhouse: paiju's dependencies as this environment has them (the test extra holds
    # every one), repacked as wheels; pip resolves the wheel's requirements against it alone, so
    # a dependency the wheel does not declare is missing from the new environment as it would be
    # from an install from the index (which spent a minute on the network at load 12)
    requires = email.message_from_bytes(zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA")).get_all("Requires-Dist")
    house = tmp_path / "wheelhouse"
    house.mkdir()
    for dist in requirements_closure(requires or []):
        repack(dist, house)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    # --no-compile: no bytecode written for the dependencies (numpy, matplotlib, SQLAlchemy...) at
    # install; what runs compiles what it imports
    subprocess.run(
        [
            *PIP,
            "--python",
            str(py),
            "install",
            "-q",
            "--no-compile",
            "--no-index",
            "--find-links",
            str(house),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    paiju = venv / "bin" / "paiju"
    work = tmp_path / "elsewhere"  # not the source tree: only the installed package is importable
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAIJU_", "PYTHON"))}

    def run_paiju(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([paiju, *args], cwd=work, env=env, capture_output=True, text=True)

    version = run_paiju("--version")
    assert version.returncode == 0, version.stderr
    # a pure wheel runs the Python modules, and says so
    assert re.fullmatch(r"paiju \d+\.\d+\.\d+\S* \(pure Python; event loop [^)]*\)\n", version.stdout), version.stdout

    # paiju itself asks for matplotlib only in its `plot` extra ...
    wanted = subprocess.run([py, "-c", REQUIRES, "paiju"], capture_output=True, text=True, check=True)
    assert [r for r in wanted.stdout.splitlines() if r.startswith("matplotlib")] == ['matplotlib>=3.7; extra == "plot"']
    # ... but endplay (the bridge robot's double-dummy solver, every release of it) requires
    # matplotlib and numpy and imports them when any of its modules is imported (endplay.dealer's
    # HTML and LaTeX output), so a plain install has them, brought by endplay alone
    who = subprocess.run([py, "-c", WHO_REQUIRES, "matplotlib"], capture_output=True, text=True, check=True)
    assert who.stdout.split() == ["endplay"], who.stdout

    # the installed command, in a folder without the source tree (its env has no PYTHONPATH),
    # started while `paiju arena --plot` runs (each compiles the bytecode of what it imports)
    serve = Child(
        [str(paiju), "serve", "--port", "0", "--quickplay-wait", "0"],
        SERVING,
        cwd=work,
        env=env,
        inherit=False,
        # its first start compiles the bytecode of what it imports (installed with --no-compile):
        # over 30 s at a load of 18
        timeout=180,
        wait=False,
    )
    try:
        plot = run_paiju("arena", "tricks", "--seats", "perfect,random", "--hands", "1", "--plot", str(work / "a.png"))
        assert plot.returncode == 0 and (work / "a.png").stat().st_size > 0, plot.stderr
        serve.started()
        assert "missing" not in serve.output(), serve.output()  # the warning of a broken install
        port = serve.port
        base = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(base, timeout=10) as r:
            assert 'src="vendor/msgpack.min.js"' in r.read().decode()
        with urllib.request.urlopen(base + "vendor/msgpack.min.js", timeout=10) as r:
            assert r.status == 200
            assert webvendor.sri(r.read()) == webvendor.FILE_INTEGRITY["msgpack.min.js"]
        client = subprocess.run(
            [py, "-c", CLIENT, f"ws://127.0.0.1:{port}/ws"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert client.returncode == 0, client.stderr
        assert "WELCOME" in client.stdout
        assert "'perfect (robot)'" in client.stdout, client.stdout  # the strongest robot by default
    finally:
        serve.stop(timeout=10)

    # without matplotlib, endplay cannot be imported (so it cannot be kept out of a plain
    # install while the bridge robot needs endplay), and `--plot` is refused in one line
    subprocess.run([*PIP, "--python", str(py), "uninstall", "-q", "-y", "matplotlib"], check=True, capture_output=True)
    bare = subprocess.run([py, "-c", "import endplay.dds"], cwd=work, env=env, capture_output=True, text=True)
    assert bare.returncode == 1 and "No module named 'matplotlib'" in bare.stderr, bare.stderr
    plot = run_paiju("arena", "tricks", "--seats", "perfect,random", "--hands", "1", "--plot", str(work / "b.png"))
    assert plot.returncode == 2 and "Traceback" not in plot.stderr
    assert plot.stderr.strip().endswith("charts need matplotlib: pip install 'paiju[plot]' (see paiju arena --help)")
    assert not (work / "b.png").exists()
    print(f"built, installed into an empty venv, served and connected in {time.monotonic() - start:.1f} s")


@pytest.mark.slow
def test_dev_sh_run_a_second_time_starts_without_installing(tmp_path: Path) -> None:
    """``./dev.sh run`` installs paiju, then starts the server; run again with nothing
    changed, it skips the install (the stamp of its packaging and compiled sources matches)
    and serves at once. How long the second start takes is timed by .ci/run (at most 10 s),
    on a machine of its own: here it is printed."""
    source = copy_source(tmp_path / "source")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    # the new environment sees this one's packages (pip, paiju's dependencies) through a path
    # line: the first run's pip installs paiju alone
    purelib = subprocess.run(
        [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "reuse.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {"PAIJU_VENV": str(venv), "PAIJU_PURE_BUILD": "1", "PAIJU_DATABASE": f"sqlite:///{tmp_path / 'r.db'}"}
    # the first install builds with this environment's setuptools, not in an isolated build
    # environment that installs the build requirements first (pip's spelling: 0 turns it off)
    env["PIP_NO_BUILD_ISOLATION"] = "0"

    def run() -> tuple[float, str]:
        start = time.monotonic()
        serve = Child([str(source / "dev.sh"), "run", "--port", "0"], SERVING, cwd=source, env=env, timeout=600)
        try:
            with urllib.request.urlopen(serve.http + "/healthz", timeout=10) as r:
                assert r.status == 200
            return time.monotonic() - start, serve.output()
        finally:
            serve.stop(timeout=10)

    _, first = run()
    assert "installing paiju" in first and "(pure Python" in first, first
    took, second = run()
    assert "installing paiju" not in second and "up to date" in second, second
    print(f"./dev.sh run a second time: /healthz in {took:.1f} s (load average {os.getloadavg()[0]:.1f})")
