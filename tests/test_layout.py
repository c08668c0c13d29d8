"""The layout rules of docs/design.md §1, checked on the source.

Dependencies point one way, ``protocol <- games <- (server, bots)``, with ``redisbus`` and
``client`` on ``protocol`` only; and no package has an import cycle among its own modules.
Every import counts: at the top, inside a function, under ``if TYPE_CHECKING`` — a lazy or
type-only import hides a cycle from the interpreter, not from the design.

``paiju`` is the command line only: the benchmarks live in the package ``bench``, which
paiju/bench.py dispatches to (see :func:`benchmark_breaks` for what counts as a benchmark).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"protocol", "games", "server", "bots", "redisbus", "client", "paiju", "records", "loadtest", "bench"}
# what each package may import besides the standard library and itself (paiju, the command
# line, wires everything together, and bench measures all of it: they may import anything)
ALLOWED = {
    "protocol": {"msgpack"},
    "games": {"protocol"},
    "bots": {"protocol", "games", "redisbus", "tqdm", "matplotlib", "numpy", "endplay", "prometheus_client"},
    "server": {"protocol", "games", "redisbus", "websockets", "redis", "msgpack", "records", "prometheus_client"},
    "redisbus": {"protocol", "redis"},
    "client": {"protocol", "websockets"},
    "records": {"games", "sqlalchemy", "alembic", "argon2", "openskill", "platformdirs", "asyncpg"},
    # the load tester speaks only the protocol, to any paiju server (never imports the server),
    # its sessions kept by the client library's sans-I/O state
    "loadtest": {"protocol", "client", "websockets", "tqdm", "matplotlib", "prometheus_client", "uvloop"},
}
# Import cycles accepted for now: none (the test fails on an entry whose cycle is gone).
KNOWN_CYCLES: set[frozenset[str]] = set()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imports(path: Path) -> set[str]:
    """The top-level names of the absolute imports of one file."""
    found: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def layout_breaks(root: Path, allowed: dict[str, set[str]]) -> dict[str, list[str]]:
    """For each file of each package under ``root``: the imports ``allowed`` does not permit."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for package, permitted in sorted(allowed.items()):
        for path in sorted((root / package).rglob("*.py")):
            extra = imports(path) - stdlib - permitted - {package}
            if extra:
                bad[path.relative_to(root).as_posix()] = sorted(extra)
    return bad


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a directory under ``root``) by dotted name."""
    out = {}
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def module_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Which of ``package``'s own modules each of its modules imports."""
    mods = modules(root, package)

    def target(name: str) -> str | None:  # the module ``name`` names, or its nearest package
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(_tree(path)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                # ``from pkg import name``: the submodule pkg.name if there is one, else pkg
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for name in names:
                if name.split(".")[0] == package:
                    t = target(name)
                    if t is not None and t != mod:
                        graph[mod].add(t)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_packages_import_only_what_the_layout_allows() -> None:
    bad = layout_breaks(ROOT, ALLOWED)
    assert not bad, f"imports that break docs/design.md §1: {bad}"


def test_server_and_bots_never_import_each_other() -> None:
    for a, b in (("server", "bots"), ("bots", "server")):
        found = {p.relative_to(ROOT).as_posix() for p in (ROOT / a).rglob("*.py") if b in imports(p)}
        assert not found, f"{a} imports {b} in {sorted(found)}"


def test_every_package_is_checked() -> None:
    on_disk = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert on_disk == FIRST_PARTY
    assert set(ALLOWED) == FIRST_PARTY - {"paiju", "bench"}


@pytest.mark.parametrize("package", sorted(FIRST_PARTY))
def test_no_import_cycle_inside_a_package(package: str) -> None:
    found = set(cycles(module_graph(ROOT, package)))
    known = {c for c in KNOWN_CYCLES if next(iter(c)).split(".")[0] == package}
    assert not found - known, f"import cycles in {package}: {[sorted(c) for c in found - known]}"
    assert not known - found, f"no longer a cycle, remove it from KNOWN_CYCLES: {[sorted(c) for c in known - found]}"


# what a benchmark measures with: CPU clocks (a command may time itself with perf_counter,
# as `paiju solve` reports its solve's seconds; what a process costs is a benchmark's figure)
CPU_CLOCKS = {
    ("time", "process_time"),
    ("time", "process_time_ns"),
    ("time", "thread_time"),
    ("time", "thread_time_ns"),
    ("resource", "getrusage"),
    ("os", "times"),
}


def benchmark_breaks(root: Path) -> dict[str, str]:
    """The modules of ``root/paiju`` that hold a benchmark, with why. A module holds one if it
    is named ``bench_*``, reads a CPU clock (:data:`CPU_CLOCKS`) or a ``/proc`` file, or
    imports the ``bench`` package — except paiju/bench.py, the dispatch of `paiju bench`,
    which may import it inside its functions only (when a target runs), and each of whose
    ``TARGETS`` must be a module ``bench/<target>.py`` with ``add_arguments`` and ``run``."""
    bad: dict[str, str] = {}
    for path in sorted((root / "paiju").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        tree = _tree(path)
        why = []
        if path.stem.startswith("bench_"):
            why.append("named bench_*")
        top = set(tree.body)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if (node.value.id, node.attr) in CPU_CLOCKS:
                    why.append(f"reads {node.value.id}.{node.attr}")
            elif isinstance(node, ast.ImportFrom) and node.module in {m for m, _ in CPU_CLOCKS}:
                why += [f"imports {node.module}.{a.name}" for a in node.names if (node.module, a.name) in CPU_CLOCKS]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "/proc/" in node.value:
                why.append("reads /proc")  # an f-string's literal parts are constants too
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(n.split(".")[0] == "bench" for n in names) and (path.stem != "bench" or node in top):
                    why.append("imports bench")
        if path.stem == "bench":
            for target in _targets(tree):
                module = root / "bench" / f"{target}.py"
                defined = (
                    {n.name for n in _tree(module).body if isinstance(n, ast.FunctionDef)} if module.exists() else set()
                )
                if not {"add_arguments", "run"} <= defined:
                    why.append(f"target {target!r}: no bench/{target}.py with add_arguments and run")
        if why:
            bad[name] = "; ".join(sorted(set(why)))
    return bad


def _targets(tree: ast.Module) -> list[str]:
    """The keys of the ``TARGETS`` dict literal of paiju/bench.py."""
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "TARGETS" for t in targets):
                return [k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return []


def test_the_command_line_holds_no_benchmark() -> None:
    bad = benchmark_breaks(ROOT)
    assert not bad, f"benchmarks belong in bench/, not paiju/: {bad}"
    assert _targets(_tree(ROOT / "paiju" / "bench.py")), "paiju/bench.py lists its TARGETS"


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_checks_fail_on_a_cycle_and_on_a_forbidden_import(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import A\n",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.b import B\nA = 1\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/b.py": "def f():\n    from pkg import c\n    import websockets\n",
            "pkg/c.py": "import pkg\nfrom . import a\n",
            "pkg/d.py": "from .a import A\n",  # depends on the cycle, is not in it
        },
    )
    graph = module_graph(root, "pkg")
    assert graph["pkg.sub.b"] == {"pkg.c"} and graph["pkg.c"] == {"pkg", "pkg.a"}
    assert cycles(graph) == [frozenset({"pkg", "pkg.a", "pkg.sub.b", "pkg.c"})]
    assert layout_breaks(root, {"pkg": {"protocol"}}) == {"pkg/sub/b.py": ["websockets"]}
    (root / "pkg/c.py").write_text("X = 2\n", encoding="utf-8")  # the back edges gone
    assert cycles(module_graph(root, "pkg")) == []


# The sans-I/O cores: the room's table, the lobby and its login throttle. Neither they nor
# any server module they import (transitively) may do I/O or count metrics (the shells
# observe them: server/metrics.py is passed in as an observer), and the cores read no clock.
PURE_CORES = ("server.table", "server.lobby", "server.throttle")
IO = {
    "asyncio",
    "websockets",
    "redis",
    "redisbus",
    "sqlalchemy",
    "asyncpg",
    "alembic",
    "records",
    "socket",
    "selectors",
    "ssl",
    "subprocess",
    "threading",
    "concurrent",
    "multiprocessing",
    "http",
    "urllib",
    "prometheus_client",
}
CLOCKS = {"time", "datetime"}


def impurities(root: Path, cores: tuple[str, ...], package: str = "server") -> dict[str, list[str]]:
    """For each module the ``cores`` reach (themselves included): its I/O imports, the metrics
    module if it reaches it, and for the cores themselves a clock."""
    graph = module_graph(root, package)
    paths = modules(root, package)
    reached: set[str] = set()
    todo = list(cores)
    while todo:
        m = todo.pop()
        if m not in reached:
            reached.add(m)
            todo.extend(graph[m])
    bad = {}
    for m in sorted(reached):
        found = (imports(paths[m]) & IO) | ({f"{package}.metrics"} & graph[m])
        if m in cores:
            found |= imports(paths[m]) & CLOCKS
        if found:
            bad[m] = sorted(found)
    return bad


def test_the_cores_do_no_io_count_no_metrics_and_read_no_clock() -> None:
    bad = impurities(ROOT, PURE_CORES)
    assert not bad, f"the sans-I/O cores (or what they import) do I/O, count metrics or read a clock: {bad}"


def test_the_purity_check_fails_on_io_metrics_and_clocks(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "server/__init__.py": "",
            "server/table.py": "from . import helper\nimport time\n",
            "server/helper.py": "from . import metrics\nimport asyncio\n",
            "server/metrics.py": "import prometheus_client\n",
            "server/lobby.py": "from websockets import serve\n",
            "server/throttle.py": "",
        },
    )
    assert impurities(root, PURE_CORES) == {
        "server.helper": ["asyncio", "server.metrics"],
        "server.lobby": ["websockets"],
        "server.metrics": ["prometheus_client"],
        "server.table": ["time"],
    }


def test_the_benchmark_check_fails_on_each_kind(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "paiju/__init__.py": "",
            "paiju/bench.py": "import importlib\nTARGETS = {'a': 'x', 'b': 'y'}\n"
            "def run(t):\n    return importlib.import_module(f'bench.{t}')\n",
            "paiju/bench_x.py": "X = 1\n",
            "paiju/cpu.py": "import time\ndef f():\n    return time.process_time()\n",
            "paiju/rss.py": "def f(pid):\n    return open(f'/proc/{pid}/status').read()\n",
            "paiju/uses.py": "def f():\n    from bench.launch import Child\n",
            "paiju/solve.py": "import time\nstart = time.perf_counter()\n",  # a command timing itself
            "bench/__init__.py": "",
            "bench/a.py": "def add_arguments(p):\n    pass\ndef run(args):\n    return 0\n",
        },
    )
    assert benchmark_breaks(root) == {
        "paiju/bench.py": "target 'b': no bench/b.py with add_arguments and run",
        "paiju/bench_x.py": "named bench_*",
        "paiju/cpu.py": "reads time.process_time",
        "paiju/rss.py": "reads /proc",
        "paiju/uses.py": "imports bench",
    }
    (root / "bench/b.py").write_text("def add_arguments(p):\n    pass\ndef run(args):\n    return 0\n")
    (root / "paiju/bench.py").write_text("from bench import a\nTARGETS = {'a': 'x', 'b': 'y'}\n")
    assert benchmark_breaks(root)["paiju/bench.py"] == "imports bench"  # at the top: not lazily
