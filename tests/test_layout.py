"""The dependency rules of DESIGN.md §1, checked on the source: protocol <- games <- (server, bots)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"protocol", "games", "server", "bots", "redisbus", "paiju", "loadtest"}
# what each package may import besides the standard library and itself
ALLOWED = {
    "protocol": {"msgpack"},
    "games": {"protocol"},
    "bots": {"protocol", "games", "redisbus", "tqdm", "matplotlib", "numpy", "prometheus_client"},
    "server": {"protocol", "games", "redisbus", "websockets", "redis", "msgpack", "prometheus_client"},
    "redisbus": {"protocol", "redis"},
    # the load tester speaks only the protocol, to any paiju server (never imports the server)
    "loadtest": {"protocol", "websockets", "tqdm", "matplotlib", "prometheus_client", "uvloop"},
}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_the_layout_allows(package: str) -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        extra = imports(path) - stdlib - ALLOWED[package] - {package}
        if extra:
            bad[str(path.relative_to(ROOT))] = sorted(extra)
    assert not bad, f"imports that break DESIGN.md §1: {bad}"


def test_server_and_bots_never_import_each_other() -> None:
    assert "bots" not in ALLOWED["server"] and "server" not in ALLOWED["bots"]
    assert set(ALLOWED) <= FIRST_PARTY
