"""`paiju`: the command line. Each subcommand lives in its own module with
``add_arguments(parser)`` and ``run(args) -> int``; this table is the only list of them."""

from __future__ import annotations

import argparse
import importlib
import sys

from paiju import __version__
from paiju.cli.args import Parser

# name -> (module, one-line help); modules are imported only when their command runs
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("paiju.cli.serve", "run the game server (embedded default: no Redis, in-process robots)"),
    "bots": ("paiju.cli.bots", "a robot worker on the Redis bus (serves the robots of the chosen games)"),
    "bench": ("paiju.cli.bench", "benchmarks (timing targets live here, never in unit tests)"),
    "solve": ("paiju.cli.solve", "solve a game position exactly (the simple trick-taking game)"),
    "arena": ("paiju.cli.arena", "play robots against each other headless, duplicate style, and report"),
    "verify": ("paiju.cli.verify", "check a finished match: its seed is the one committed to, and deals every hand"),
    "db": ("paiju.cli.db", "the records database: accounts, match history, ratings (upgrade, current)"),
    "loadtest": ("paiju.cli.loadtest", "drive real protocol clients against a paiju server and report (load test)"),
}


class _Version(argparse.Action):
    """``--version``: paiju's version, which build runs (compiled or pure Python) and the event loop."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        text = (
            "show paiju's version, which build runs (the compiled hot path or pure Python) and the event "
            "loop `paiju serve` runs on by default (uvloop where installed), and exit"
        )
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=text)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from paiju import build
        from paiju.cli import eventloop

        print(f"paiju {__version__} ({build.describe()}; {eventloop.describe()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="paiju",
        description="paiju (牌局): a WebSocket game server for Niujiu, contract bridge and mahjong, "
        "with robot players behind a message bus.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, text) in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        p.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    try:
        code: int = importlib.import_module(args._module).run(args)
    except KeyboardInterrupt:
        print(f"paiju {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as e:  # a file or socket the checks could not foresee (a disk full, a folder removed)
        print(f"paiju {args.command}: {e.strerror or e}{f': {e.filename}' if e.filename else ''}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
