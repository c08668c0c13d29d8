"""The layout rules of docs/design.md §1, checked on the source.

One import package, ``paiju``, whose subpackages are its layers. Dependencies point one way:
``protocol <- games <- core <- server``, with ``bus`` (memory and Redis) and ``client`` on
``protocol`` only, ``records`` on ``games``, the robots (``bots``) on ``protocol``, ``games`` and
``bus``; and no subpackage has an import cycle among its own modules. Every import counts: at
the top, inside a function, under ``if TYPE_CHECKING``, and every module named by a string
(``importlib.import_module("paiju.x")``, ``resources.files("paiju.x")``, a registry's list of
module names, the constant head of an f-string): a lazy or a string-named import hides an
arrow from the interpreter, not from the design.

``paiju.cli`` is the command line only: the benchmarks live in ``paiju.bench``, which
paiju/cli/bench.py dispatches to (see :func:`benchmark_breaks` for what counts as a benchmark).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paiju"
# what each layer may import besides the standard library and itself; the command line, the
# benchmarks, the test launchers and the SPEC generator wire or measure everything: anything
LOW = {"paiju.build"}  # which modules are compiled: standard library only
ALLOWED: dict[str, set[str]] = {
    # names the modules mypyc compiles (strings: it imports none of them)
    "paiju.build": {"paiju.protocol", "paiju.games", "paiju.core", "paiju.server"},
    "paiju.protocol": {"msgpack"} | LOW,
    "paiju.games": {"paiju.protocol"} | LOW,
    "paiju.core": {"paiju.protocol", "paiju.games", "msgpack"} | LOW,
    "paiju.bus": {"paiju.protocol", "redis"} | LOW,
    "paiju.client": {"paiju.protocol", "websockets"} | LOW,
    "paiju.records": {"paiju.games", "sqlalchemy", "alembic", "argon2", "openskill", "platformdirs", "asyncpg"},
    "paiju.bots": {
        "paiju.protocol",
        "paiju.games",
        "paiju.bus",
        "tqdm",
        "matplotlib",
        "numpy",
        "endplay",
        "prometheus_client",
    }
    | LOW,
    "paiju.server": {
        "paiju.protocol",
        "paiju.games",
        "paiju.core",
        "paiju.bus",
        "paiju.records",
        "websockets",
        "redis",
        "msgpack",
        "prometheus_client",
        "fontTools",  # python -m paiju.server.webfont only (the webfont extra), never the running server
    }
    | LOW,
    # the load tester speaks only the protocol, to any paiju server (never imports the server),
    # its sessions kept by the client library's sans-I/O state
    "paiju.loadtest": {
        "paiju.protocol",
        "paiju.client",
        "websockets",
        "tqdm",
        "matplotlib",
        "prometheus_client",
        "uvloop",
    },
    "paiju.testing": {"paiju.protocol", "asyncpg", "paiju.cli", "paiju.server", "pytest"},  # inprocess, census
}
ANYTHING = {"paiju", "paiju.cli", "paiju.bench", "paiju.spec"}  # the package's __init__/__main__, the tools
# Import cycles accepted for now: none (the test fails on an entry whose cycle is gone).
KNOWN_CYCLES: set[frozenset[str]] = set()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def unit(name: str) -> str:
    """The layer a dotted module name belongs to: ``paiju.<sub>`` inside paiju, else the top."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "paiju" and len(parts) > 1 else parts[0]


def _string_module(node: ast.expr) -> str | None:
    """The module a string names, if it names one of paiju's: a constant, or an f-string's head."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        text = str(node.values[0].value).rstrip(".")
    else:
        return None
    if text.startswith("paiju.") and all(p.isidentifier() for p in text.split(".")):
        return text
    return None


def _named_modules(tree: ast.Module) -> list[ast.expr]:
    """The string nodes that may name a module: all but a logger's name (``getLogger("paiju.x")``)."""
    loggers = {
        id(a)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", "")) == "getLogger"
        for a in n.args
    }
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant | ast.JoinedStr) and id(n) not in loggers]


def imported_names(path: Path) -> set[str]:
    """The dotted names one file imports: ``import``, ``from`` (absolute) and modules named by
    strings (what :mod:`importlib` or :mod:`importlib.resources` would load)."""
    found: set[str] = set()
    tree = _tree(path)
    strings = set(map(id, _named_modules(tree)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {f"{node.module}.{a.name}" if node.module == "paiju" else node.module for a in node.names}
        elif id(node) in strings and (name := _string_module(node)):
            found.add(name)
    return found


def imports(path: Path) -> set[str]:
    """The layers (``paiju.<sub>``) and the third-party top-level names one file imports."""
    return {unit(n) for n in imported_names(path)}


def layer_of(root: Path, path: Path) -> str:
    rel = path.relative_to(root).with_suffix("").parts
    return "paiju" if rel[1] in ("__init__", "__main__") else f"paiju.{rel[1]}"


def _exists(root: Path, name: str) -> bool:
    path = root.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def layout_breaks(root: Path, allowed: dict[str, set[str]]) -> dict[str, list[str]]:
    """For each file of ``root/paiju``: the imports ``allowed`` does not permit its layer."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for path in sorted((root / "paiju").rglob("*.py")):
        layer = layer_of(root, path)
        if layer in ANYTHING:
            continue
        found = {n for n in imports(path) if not n.startswith("paiju.") or _exists(root, n)}
        extra = found - stdlib - allowed.get(layer, set()) - {layer}
        if extra:
            bad[path.relative_to(root).as_posix()] = sorted(extra)
    return bad


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (a dotted name of a directory under ``root``) by dotted name."""
    out = {}
    for path in root.joinpath(*package.split(".")).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def module_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Which of ``package``'s own modules each of its modules imports."""
    mods = modules(root, package)

    def target(name: str) -> str | None:  # the module ``name`` names, or its nearest package
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name if name and (name + ".").startswith(package + ".") else None

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


LAYERS = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))


def test_layers_import_only_what_the_layout_allows() -> None:
    bad = layout_breaks(ROOT, ALLOWED)
    assert not bad, f"imports that break docs/design.md §1: {bad}"


def test_server_and_bots_never_import_each_other() -> None:
    for a, b in (("server", "bots"), ("bots", "server"), ("core", "server"), ("core", "bus")):
        found = {p.relative_to(ROOT).as_posix() for p in (PACKAGE / a).rglob("*.py") if f"paiju.{b}" in imports(p)}
        assert not found, f"paiju.{a} imports paiju.{b} in {sorted(found)}"


def test_every_layer_is_checked() -> None:
    on_disk = {f"paiju.{name}" for name in LAYERS} | {f"paiju.{p.stem}" for p in PACKAGE.glob("*.py")}
    assert on_disk - {"paiju.__init__", "paiju.__main__"} == (set(ALLOWED) | ANYTHING) - {"paiju"}
    assert (ROOT / "paiju" / "__init__.py").exists()
    tops = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert tops == {"paiju"}, f"one import package, paiju: also {sorted(tops - {'paiju'})}"


@pytest.mark.parametrize("layer", LAYERS)
def test_no_import_cycle_inside_a_layer(layer: str) -> None:
    package = f"paiju.{layer}"
    found = set(cycles(module_graph(ROOT, package)))
    known = {c for c in KNOWN_CYCLES if unit(next(iter(c))) == package}
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
    """The modules of ``root/paiju/cli`` that hold a benchmark, with why. A module holds one if
    it is named ``bench_*``, reads a CPU clock (:data:`CPU_CLOCKS`) or a ``/proc`` file, or
    imports ``paiju.bench`` — except paiju/cli/bench.py, the dispatch of `paiju bench`, which
    may name it inside its functions only (when a target runs), and each of whose ``TARGETS``
    must be a module ``paiju/bench/<target>.py`` with ``add_arguments`` and ``run``."""
    bad: dict[str, str] = {}
    for path in sorted((root / "paiju" / "cli").rglob("*.py")):
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
                if isinstance(node, ast.ImportFrom) and node.module == "paiju":
                    names = [f"paiju.{a.name}" for a in node.names]
                if any(unit(n) == "paiju.bench" for n in names) and (path.stem != "bench" or node in top):
                    why.append("imports paiju.bench")
        if path.stem == "bench":
            for target in _targets(tree):
                module = root / "paiju" / "bench" / f"{target}.py"
                defined = (
                    {n.name for n in _tree(module).body if isinstance(n, ast.FunctionDef)} if module.exists() else set()
                )
                if not {"add_arguments", "run"} <= defined:
                    why.append(f"target {target!r}: no paiju/bench/{target}.py with add_arguments and run")
        if why:
            bad[name] = "; ".join(sorted(set(why)))
    return bad


def _targets(tree: ast.Module) -> list[str]:
    """The keys of the ``TARGETS`` dict literal of paiju/cli/bench.py."""
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "TARGETS" for t in targets):
                return [k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return []


def test_the_command_line_holds_no_benchmark() -> None:
    bad = benchmark_breaks(ROOT)
    assert not bad, f"benchmarks belong in paiju/bench/, not paiju/cli/: {bad}"
    assert _targets(_tree(ROOT / "paiju" / "cli" / "bench.py")), "paiju/cli/bench.py lists its TARGETS"


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_checks_fail_on_a_cycle_and_on_a_forbidden_import(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "paiju/__init__.py": "",
            "paiju/pkg/__init__.py": "from .a import A\n",
            "paiju/pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.b import B\nA = 1\n",
            "paiju/pkg/sub/__init__.py": "",
            "paiju/pkg/sub/b.py": "def f():\n    from paiju.pkg import c\n    import websockets\n",
            "paiju/pkg/c.py": "import paiju.pkg\nfrom . import a\n",
            "paiju/pkg/d.py": "from .a import A\n",  # depends on the cycle, is not in it
            "paiju/pkg/e.py": "import importlib\ndef f(g):\n    return importlib.import_module(f'paiju.up.{g}')\n",
            "paiju/up/__init__.py": "",
        },
    )
    graph = module_graph(root, "paiju.pkg")
    assert graph["paiju.pkg.sub.b"] == {"paiju.pkg.c"} and graph["paiju.pkg.c"] == {"paiju.pkg", "paiju.pkg.a"}
    assert cycles(graph) == [frozenset({"paiju.pkg", "paiju.pkg.a", "paiju.pkg.sub.b", "paiju.pkg.c"})]
    assert layout_breaks(root, {"paiju.pkg": {"paiju.protocol"}, "paiju.up": set()}) == {
        "paiju/pkg/e.py": ["paiju.up"],  # named by a string only
        "paiju/pkg/sub/b.py": ["websockets"],
    }
    (root / "paiju/pkg/c.py").write_text("X = 2\n", encoding="utf-8")  # the back edges gone
    assert cycles(module_graph(root, "paiju.pkg")) == []


# The sans-I/O cores: every module of paiju/core. Neither they nor anything they import
# may do I/O or count metrics (the shells observe them: paiju/server/metrics.py is passed in
# as an observer), and they read no clock.
IO = {
    "asyncio",
    "websockets",
    "redis",
    "paiju.bus",
    "paiju.server",
    "sqlalchemy",
    "asyncpg",
    "alembic",
    "paiju.records",
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
    "logging.handlers",
}
CLOCKS = {"time", "datetime"}


def impurities(root: Path, package: str = "paiju.core") -> dict[str, list[str]]:
    """For each module of the cores' folder: its I/O, metrics and clock imports."""
    bad = {}
    for m, path in sorted(modules(root, package).items()):
        names = imported_names(path)
        found = {n for n in names if unit(n) in IO or n in IO} | (imports(path) & (IO | CLOCKS))
        found |= {n for n in names if n.endswith(".metrics")}
        if found:
            bad[m] = sorted({unit(n) if n.startswith("paiju.") and not n.endswith(".metrics") else n for n in found})
    return bad


def test_the_cores_do_no_io_count_no_metrics_and_read_no_clock() -> None:
    bad = impurities(ROOT)
    assert not bad, f"the sans-I/O cores do I/O, count metrics or read a clock: {bad}"


MAX_CLASS_LINES = 400
"""The longest a class of the cores may be: a part with one job, read at once."""
# Classes of the cores still over it (the test fails on an entry that has come under it).
KNOWN_LARGE: set[str] = set()


def class_sizes(root: Path, package: str = "paiju.core") -> dict[str, int]:
    """The length in lines of each class of ``package``, by dotted name (decorators left out)."""
    out = {}
    for m, path in sorted(modules(root, package).items()):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef):
                out[f"{m}.{node.name}"] = (node.end_lineno or node.lineno) - node.lineno + 1
    return out


@pytest.mark.parametrize("package", ["paiju.core", "paiju.server"])
def test_no_class_of_the_cores_or_the_shell_is_over_400_lines(package: str) -> None:
    sizes = class_sizes(ROOT, package)
    large = {name for name, n in sizes.items() if n > MAX_CLASS_LINES}
    assert not large - KNOWN_LARGE, f"classes over {MAX_CLASS_LINES} lines: { {k: sizes[k] for k in large} }"
    assert not KNOWN_LARGE - large, f"no longer over the limit, remove from KNOWN_LARGE: {KNOWN_LARGE - large}"


def test_the_class_size_check_counts_each_class_lines(tmp_path: Path) -> None:
    body = "class A:\n" + "    x = 1\n" * 400 + "\n\n@dataclass\nclass B:\n    class C:\n        pass\n"
    root = _package(tmp_path, {"paiju/__init__.py": "", "paiju/core/__init__.py": "", "paiju/core/a.py": body})
    assert class_sizes(root) == {"paiju.core.a.A": 401, "paiju.core.a.B": 3, "paiju.core.a.C": 2}


def test_the_purity_check_fails_on_io_metrics_and_clocks(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "paiju/__init__.py": "",
            "paiju/core/__init__.py": "",
            "paiju/core/table.py": "from . import helper\nimport time\n",
            "paiju/core/helper.py": "from paiju.server import metrics\nimport asyncio\n",
            "paiju/core/lobby.py": "from websockets import serve\n",
            "paiju/core/throttle.py": "",
        },
    )
    assert impurities(root) == {
        "paiju.core.helper": ["asyncio", "paiju.server"],
        "paiju.core.lobby": ["websockets"],
        "paiju.core.table": ["time"],
    }


def test_the_benchmark_check_fails_on_each_kind(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "paiju/cli/__init__.py": "",
            "paiju/cli/bench.py": "import importlib\nTARGETS = {'a': 'x', 'b': 'y'}\n"
            "def run(t):\n    return importlib.import_module(f'paiju.bench.{t}')\n",
            "paiju/cli/bench_x.py": "X = 1\n",
            "paiju/cli/cpu.py": "import time\ndef f():\n    return time.process_time()\n",
            "paiju/cli/rss.py": "def f(pid):\n    return open(f'/proc/{pid}/status').read()\n",
            "paiju/cli/uses.py": "def f():\n    from paiju.bench.launch import Child\n",
            "paiju/cli/solve.py": "import time\nstart = time.perf_counter()\n",  # a command timing itself
            "paiju/bench/__init__.py": "",
            "paiju/bench/a.py": "def add_arguments(p):\n    pass\ndef run(args):\n    return 0\n",
        },
    )
    assert benchmark_breaks(root) == {
        "paiju/cli/bench.py": "target 'b': no paiju/bench/b.py with add_arguments and run",
        "paiju/cli/bench_x.py": "named bench_*",
        "paiju/cli/cpu.py": "reads time.process_time",
        "paiju/cli/rss.py": "reads /proc",
        "paiju/cli/uses.py": "imports paiju.bench",
    }
    (root / "paiju/bench/b.py").write_text("def add_arguments(p):\n    pass\ndef run(args):\n    return 0\n")
    (root / "paiju/cli/bench.py").write_text("from paiju.bench import a\nTARGETS = {'a': 'x', 'b': 'y'}\n")
    assert benchmark_breaks(root)["paiju/cli/bench.py"] == "imports paiju.bench"  # at the top: not lazily
