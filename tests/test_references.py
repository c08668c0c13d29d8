"""The repository stands alone: no file points at a document outside it.

The design (docs/design.md) and the digest of the research documents (its §7.1-§7.5) are in
the repository, so code and docs cite them there — never a design file, a shared folder, the
research documents by their own names or numbers, or the tracker's issues — and every
relative link in a Markdown file reaches a file of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".git", ".venv", "node_modules", "vendor", "build", "dist", "__pycache__"}
# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            r"\bDESIGN" + r"\.md\b",  # the design file kept outside the repository
            r"\.\./" + r"shared\b",
            r"/work/" + r"shared\b",
            r"\bseeds/",  # the research documents' folder
            r"\b00[0-4]_[0-9a-f]{16}" + r"\.txt\b",  # and their file names
            r"\b[Ss]eeds? 00" + r"[0-4]\b",  # the research documents by number: cite design.md §7.1-§7.5
            r"\b[Ii]ssues? #?" + r"[0-9]+\b",  # the tracker's issues: history goes in commit messages
        ]
    )
)
# Files allowed to cite outside the repository: none (the test fails on an entry that is clean).
KNOWN: set[str] = set()
LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_files(root: Path = ROOT) -> list[Path]:
    """Every text file of the repository (not the virtualenv, caches or vendored code)."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or SKIP_DIRS & set(rel.parts) or any(p.endswith("_cache") for p in rel.parts):
            continue
        if rel.parts[0].endswith(".egg-info") or rel.parts[0] == ".hypothesis":
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, tables.bin
        out.append(path)
    return out


def outside_references(files: list[Path], root: Path = ROOT) -> dict[str, list[str]]:
    """For each file, the lines that point outside the repository."""
    found: dict[str, list[str]] = {}
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                found.setdefault(path.relative_to(root).as_posix(), []).append(f"{n}: {line.strip()}")
    return found


def broken_links(files: list[Path], root: Path = ROOT) -> list[str]:
    """Relative Markdown links that leave the repository or reach no file."""
    bad = []
    for path in files:
        if path.suffix != ".md":
            continue
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL (http:, mailto:) or an anchor in the same page
            dest = (path.parent / target.split("#")[0]).resolve()
            if not dest.is_relative_to(root) or not dest.exists():
                bad.append(f"{path.relative_to(root).as_posix()}: {target}")
    return bad


def test_no_file_points_outside_the_repository() -> None:
    found = outside_references(repository_files())
    assert not set(found) - KNOWN, {k: v for k, v in found.items() if k not in KNOWN}
    assert not KNOWN - set(found), f"clean now, remove from KNOWN: {sorted(KNOWN - set(found))}"


def test_markdown_links_stay_inside_and_reach_a_file() -> None:
    assert not broken_links(repository_files())


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "a.py").write_text('"""The interface (DESIGN' + '.md §3)."""\n', encoding="utf-8")
    seed_file = "seed" + "s/003_2608545bf459ccf7" + ".txt"
    (tmp_path / "b.md").write_text(f"see {seed_file} and [x](docs/y.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "c.md").write_text("[up](../../outside.md) [ok](../b.md) [web](https://x.org)\n")
    (tmp_path / "d.py").write_text("# docs/design.md §3 and §7.4\n", encoding="utf-8")
    (tmp_path / "e.py").write_text("# the hu distance (seed" + " 003 §2)\n", encoding="utf-8")
    (tmp_path / "f.md").write_text("Fixed in is" + "sue 21.\n", encoding="utf-8")
    files = repository_files(tmp_path)
    assert sorted(outside_references(files, tmp_path)) == ["a.py", "b.md", "e.py", "f.md"]
    assert broken_links(files, tmp_path) == ["b.md: docs/y.md", "docs/c.md: ../../outside.md"]
