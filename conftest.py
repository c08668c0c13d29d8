"""pytest, for the whole tree: the doctests of a module that runs compiled (protocol/build.py)
cannot be collected from its ``.py`` (pytest finds the extension imported in its place), so
they are left out here and run on the pure-Python build instead (tests/test_build.py). The
tests marked ``slow`` run first: xdist (``--dist=worksteal`` in pyproject.toml) gives each
worker a run of consecutive tests (a module's fixtures made once) and lets a worker that is
done take the tests another has not started, so no long test is left to start last."""

import pytest

from protocol import build

collect_ignore = ["/".join(name.split(".")) + ".py" for name in build.running()]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first (a stable sort, the same on every xdist worker): started
    last, two of them on one worker would keep it busy long after the other is done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
