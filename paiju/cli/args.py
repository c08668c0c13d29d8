"""Argument types and the parser of the command line: a mistake is one line and exit 2.

Every check a user's mistake can fail is made here, before a command starts its work: an
arena of an hour must not end in a traceback because its chart's folder does not exist.

>>> positive_int("3"), port("0"), nonnegative_float("0.5")
(3, 0, 0.5)
>>> positive_int("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '0' is not a whole number of at least 1
>>> port("99999")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '99999' is not a port (0..65535)
>>> out_file("/nonexistent/x.png")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: cannot write /nonexistent/x.png: the folder /nonexistent does not exist
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (no usage block), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _bounded_int(low: int, high: int | None, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


positive_int = _bounded_int(1, None, "a whole number of at least 1")
nonnegative_int = _bounded_int(0, None, "a whole number of at least 0")
port = _bounded_int(0, 65535, "a port (0..65535)")


def nonnegative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):  # NaN fails the comparison
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of at least 0")
    return value


def positive_float(text: str) -> float:
    value = nonnegative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
    return value


def out_file(text: str) -> str:
    """A file the command will write: its folder must exist and be writable, it must not be a folder."""
    path = Path(text).expanduser()
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} does not exist")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a folder")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return str(path)


def in_file(text: str) -> str:
    """A file the command will read: it must exist and be readable."""
    path = Path(text).expanduser()
    if not path.is_file():
        why = "it is a folder" if path.is_dir() else "no such file"
        raise argparse.ArgumentTypeError(f"cannot read {text}: {why}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read {text}: permission denied")
    return str(path)


def plot_file(text: str) -> str:
    """A chart to write (``--plot``): a writable PNG path, and matplotlib installed (the ``plot`` extra)."""
    path = out_file(text)
    if importlib.util.find_spec("matplotlib") is None:
        raise argparse.ArgumentTypeError(f"{text}: charts need matplotlib: pip install 'paiju[plot]'")
    return path


def log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a log level ({', '.join(LOG_LEVELS)})")
    return level


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"  # every command's log lines


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format=LOG_FORMAT)


def fail(command: str, message: str, code: int = 2) -> int:
    """Print ``paiju COMMAND: message`` on stderr; return ``code`` for the command to return."""
    print(f"paiju {command}: {message}", file=sys.stderr, flush=True)
    return code
