"""pytest, for the whole tree: the doctests of a module that runs compiled (paiju/build.py)
cannot be collected from its ``.py`` (pytest finds the extension imported in its place), so
they are left out here and run on the pure-Python build instead (tests/test_build.py); and
no test runs on extensions older than their sources (an edited tree, not rebuilt)."""

import pytest

from paiju import build

collect_ignore = ["/".join(name.split(".")) + ".py" for name in build.extensions()]


def pytest_configure(config: pytest.Config) -> None:
    old = build.stale()
    if old:
        raise pytest.UsageError(
            f"compiled modules older than their sources: {', '.join(old)}; rebuild them (pip install -e .,"
            " or ./dev.sh test), or remove their extensions (PAIJU_PURE_BUILD=1 pip install -e .)"
        )
