"""docs/rules/niujiu.md: every rule it states is exercised by a test whose name cites it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "niujiu.md"


def rules_in_doc() -> list[str]:
    return re.findall(r"^- \*\*R(\d+\.\d+)\*\*", DOC.read_text(encoding="utf-8"), flags=re.M)


def niujiu_test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests" / "games").glob("test_niujiu_*.py"):
        names.update(re.findall(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def test_every_rule_has_a_test_named_after_it() -> None:
    rules = rules_in_doc()
    assert len(rules) == len(set(rules)) >= 50, "rule numbers are unique and all found"
    names = niujiu_test_names()
    missing = [r for r in rules if not any(re.search(rf"rule_{r.replace('.', '_')}(_|$)", n) for n in names)]
    assert not missing, f"rules without a test: {missing}"


def test_every_rule_states_its_source() -> None:
    text = DOC.read_text(encoding="utf-8")
    for number in rules_in_doc():
        start = text.index(f"- **R{number}**")
        end = text.find("\n- ", start + 1)
        body = text[start : end if end > 0 else None]
        assert re.search(r"\*\((seed\s+§|decision|follows from)", body), f"R{number} gives no source"
