"""pytest, for the whole tree: the doctests of a module that runs compiled (protocol/build.py)
cannot be collected from its ``.py`` (pytest finds the extension imported in its place), so
they are left out here and run on the pure-Python build instead (tests/test_build.py). The
tests marked ``slow`` run first, and xdist hands its workers two tests at a time
(``--maxschedchunk=2`` in pyproject.toml), so the long ones are spread over the workers."""

import pytest

from protocol import build

collect_ignore = ["/".join(name.split(".")) + ".py" for name in build.running()]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first (a stable sort, the same on every xdist worker): started
    last, two of them on one worker would keep it busy long after the other is done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
