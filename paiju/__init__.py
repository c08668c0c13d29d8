"""The `paiju` command: one entry point for the server, the robots and the tools."""

from importlib.metadata import PackageNotFoundError, version


def _version() -> str:
    try:
        return version("paiju")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


__version__ = _version()
