"""pytest, for the whole tree: the doctests of a module that runs compiled (paiju/build.py)
cannot be collected from its ``.py`` (pytest finds the extension imported in its place), so
they are left out here and run on the pure-Python build instead (tests/test_build.py)."""

from paiju import build

collect_ignore = ["/".join(name.split(".")) + ".py" for name in build.running()]
