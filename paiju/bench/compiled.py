"""The compiled build against the pure-Python one: the codec and the move path, interleaved.

``python -m paiju.bench.compiled`` times, in fresh processes that alternate between the builds
(rounds x builds, each build once a round, medians printed), in CPU time of the thread that
does the work (wall time moves with the machine's load more):

- ``codec``: encode + decode of the frames of one tricks move (ACTION, ACK, two EVENTs, a
  PROMPT with an option), µs a move;
- ``table``: seeded tricks matches played at a :class:`paiju.core.table.Table` by two seats that
  answer every PROMPT with a random legal option, every frame sent encoded: the sans-I/O part
  of the server's CPU an action, µs an action;
- ``modules``: the work the games, robots and records ask of each module that a build may
  compile besides the table (card and tile texts, niujiu patterns, mahjong analysis, bridge
  deals, scores and PBN), µs a call: whether compiling it pays.

The builds: ``pure`` (a copy of this tree's package without its extensions, made by
:func:`pure_tree`), ``compiled`` (this tree as installed) and any ``--tree NAME=DIR`` (a
directory put first on sys.path, e.g. one holding a copy of the package whose frames.py Cython
compiled). ``python -m paiju.bench.compiled transcript GAME:SEED[:HANDS]...``
prints the build, then the sha256 of every frame each seeded match sends (the conformance
test, tests/test_build.py, compares the builds on it).
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import importlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[2]
TREE_ENV = "PAIJU_BENCH_TREE"  # a tree build: the directory its child runs in (first on sys.path)


def play(game: str, seed: int, hands: int = 1) -> list[tuple[int, bytes]]:
    """One seeded match of ``game`` at a Table whose every seat answers each PROMPT with a
    random legal option (``random.Random(seed)``): every frame sent, encoded, with the seat
    of the connection it went to."""
    from paiju.core.table import Enter, Reply, Send, Table, Tick
    from paiju.games import GameAction
    from paiju.protocol import Prompt, encode

    # a fixed salt: the commitment in ROOM_STATE is the same in every run of the same match
    salt = b"compiled-vs-pure"
    t = Table("c", game, None, seed=seed, hands=hands, clock_ms=3_600_000, robot="random", salt=salt)
    rng = random.Random(seed)
    sent: list[tuple[int, bytes]] = []
    prompts: dict[int, tuple[int, Prompt]] = {}
    now = 0.0

    def feed(msg: Any) -> None:
        for o in t.handle(msg, now):
            if isinstance(o, Send):
                conn = cast(int, o.conn)  # the seat, as given to Join
                sent.append((conn, encode(o.frame)))
                f = o.frame
                if isinstance(f, Prompt):
                    if f.mask:
                        prompts[f.prompt_id] = (conn, f)
                    else:
                        prompts.pop(f.prompt_id, None)

    for s in range(t.n):
        feed(Enter(f"p{s}", f"seat {s}", conn=s, seat=s))
    while not t.closed:
        if prompts:
            pid = rng.choice(sorted(prompts))
            conn, p = prompts.pop(pid)
            opt = rng.choice(p.options)
            cards = bytes(rng.sample(list(opt.cards), opt.pick))
            feed(Reply(f"p{conn}", conn, pid, GameAction(opt.code, cards)))
        else:
            deadline = t.next_deadline()
            if deadline is None:
                break
            now = max(now, deadline)
            feed(Tick())
    return sent


def transcript(game: str, seed: int, hands: int = 1) -> str:
    """The sha256 of what :func:`play` sends (seats and frames), and how many frames."""
    h = hashlib.sha256()
    sent = play(game, seed, hands)
    for conn, data in sent:
        h.update(bytes([conn]) + len(data).to_bytes(4, "big") + data)
    return f"{h.hexdigest()} {len(sent)}"


def pure_tree(to: Path) -> Path:
    """The pure-Python build of this tree: a copy of the package in ``to`` without its
    extensions (nor the file that names their compiler); ``to`` put first on sys.path runs it."""
    import paiju

    shutil.copytree(
        Path(paiju.__file__).parent, to / "paiju", ignore=shutil.ignore_patterns("*.so", "build.txt", "__pycache__")
    )
    return to


def _codec(n: int) -> float:
    """µs for the codec's share of one tricks move, over ``n`` moves."""
    from paiju.protocol import Ack, Action, Event, Option, Prompt, decode, encode

    action = encode(Action(prompt_id=41, code=0, cards=b"\x05"))
    frames = [
        Ack(41),
        Event("r1234567", 97, 0x40, 0, b"\x05", 0),
        Event("r1234567", 97, 0x40, 0, b"\x05", 0),
        Prompt("r1234567", 42, 1, 29_500, 0, [Option(0, b"\x01\x03\x07\x09\x0b\x0d\x11", 1)]),
    ]
    t0 = time.thread_time()
    for _ in range(n):
        decode(action)
        for f in frames:
            decode(encode(f))
    return (time.thread_time() - t0) / n * 1e6


def _table(n: int) -> float:
    """µs an action for seeded tricks matches at a Table, about ``n`` actions in all."""
    actions = 0
    t0 = time.thread_time()
    seed = 0
    while actions < n:
        seed += 1
        actions += sum(1 for _, data in play("tricks", seed) if data[1] == 0x49)  # one ACK an action
    return (time.thread_time() - t0) / actions * 1e6


def _workloads() -> dict[str, Callable[[], object]]:
    """One call's work of each module of paiju.build.COMPILED outside the table's (which
    ``table`` times): what the game, its robots or the records ask of it, on seeded input."""
    from paiju.games.bridge import deal, pbn, scoring
    from paiju.games.mahjong import analysis, tables
    from paiju.protocol import cards
    from paiju.protocol.cards import NIUJIU_CARDS

    patterns = importlib.import_module("paiju.games.niujiu.patterns")  # (the package's `patterns` is a function)
    rng = random.Random(7)
    wall = sorted(cards.MAHJONG_TILES) * 4
    tiles = [bytes(sorted(rng.sample(wall, 14))) for _ in range(64)]
    deck = sorted(NIUJIU_CARDS)
    hands = [bytes(sorted(rng.sample(deck, HAND))) for _ in range(64)]
    tile_text = [cards.format_tiles(t) for t in tiles]
    deals = [deal.format_deal(deal.parse_deal(pbn_deal)) for pbn_deal in [_DEAL]]
    board_text = pbn.write_pbn(pbn.read_pbn(_PBN) * 8)
    contracts = [f"{level}{strain}{x}" for level in range(1, 8) for strain in "CDHSN" for x in ("", "X", "XX")]
    return {
        "paiju.protocol.cards": lambda: [
            cards.parse_tiles(cards.format_tiles(cards.parse_tiles(t))) for t in tile_text
        ],
        "paiju.games.niujiu.patterns": lambda: [patterns.classify(p) for h in hands for p in patterns.patterns(h)],
        "paiju.games.mahjong.analysis": lambda: [analysis.discard_options(t) for t in tiles[:8]],
        "paiju.games.mahjong.tables": lambda: [tables.suit_key(list(t[:9])) for t in tiles],
        "paiju.games.bridge.deal": lambda: [deal.format_deal(deal.parse_deal(d)) for d in deals * 32],
        "paiju.games.bridge.scoring": lambda: [
            scoring.score(c, v, t) for c in contracts for v in (False, True) for t in (6, 9, 13)
        ],
        "paiju.games.bridge.pbn": lambda: pbn.read_pbn(board_text),
    }


BOOLS, TRICKS = (False, True), (6, 9, 13)  # vulnerable or not; tricks taken
HAND = 6  # cards of a niujiu play to choose from (a hand holds 16: every subset would be too many)
_DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
_PBN = f'''[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{_DEAL}"]\n\n'''


def _modules(n: int) -> dict[str, float]:
    """µs a call of each :func:`_workloads`, ``n`` calls each."""
    out = {}
    for name, work in _workloads().items():
        t0 = time.thread_time()
        for _ in range(n):
            work()
        out[name] = (time.thread_time() - t0) / n * 1e6
    return out


def _child(what: str, n: int) -> None:
    from paiju import build

    f: Callable[[int], object] = {"codec": _codec, "table": _table, "modules": _modules}[what]
    f(max(1, n // 10))  # warm up
    print(json.dumps({"us": f(n), "build": build.describe()}))


def _run(env: dict[str, str], *args: str) -> str:
    """The child's output; a tree's child runs in it (``python -m`` puts it first on sys.path)."""
    out = subprocess.run(
        [sys.executable, "-m", "paiju.bench.compiled", *args],
        env=env,
        cwd=env.get(TREE_ENV, ROOT),
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise SystemExit(f"paiju.bench.compiled: the child failed:\n{out.stderr}")
    return out.stdout


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m paiju.bench.compiled", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "what", nargs="?", default="all", choices=["all", "codec", "table", "modules", "transcript", "child"]
    )
    p.add_argument("args", nargs="*", help="transcript: GAME:SEED[:HANDS]...; child: codec|table|modules N")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    p.add_argument("--codec-n", type=int, default=20_000, help="moves a codec run times (default 20000)")
    p.add_argument("--table-n", type=int, default=4_000, help="actions a table run times (default 4000)")
    p.add_argument("--modules-n", type=int, default=20, help="calls of each module's work (default 20)")
    p.add_argument("--tree", action="append", default=[], metavar="NAME=DIR", help="another build to time")
    p.add_argument("--skip", action="append", default=[], metavar="NAME", help="leave out a build (pure, compiled)")
    p.add_argument("--json", action="store_true", help="print the medians as JSON")
    a = p.parse_args(argv)
    if a.what == "transcript":
        from paiju import build

        print(build.describe())
        for match in a.args:
            game, seed, hands = [*match.split(":"), "1"][:3]
            print(match, transcript(game, int(seed), int(hands)))
        return
    if a.what == "child":
        _child(a.args[0], int(a.args[1]))
        return
    base = dict(os.environ)
    builds: dict[str, dict[str, str]] = {}
    pure = pure_tree(Path(tempfile.mkdtemp(prefix="paiju-pure-")))
    atexit.register(shutil.rmtree, pure, True)
    builds["pure"] = {**base, TREE_ENV: str(pure)}
    builds["compiled"] = base
    for spec in a.tree:
        name, _, d = spec.partition("=")
        builds[name] = {**base, TREE_ENV: str(Path(d).resolve())}
    for name in a.skip:
        builds.pop(name, None)
    kinds = ["codec", "table", "modules"] if a.what == "all" else [a.what]
    times: dict[tuple[str, str], list[float]] = {}  # by (row: codec, table or a module; build)
    described: dict[str, str] = {}
    ns = {"codec": a.codec_n, "table": a.table_n, "modules": a.modules_n}
    from tqdm import tqdm

    with tqdm(total=a.rounds * len(kinds) * len(builds), desc="paiju.bench.compiled", file=sys.stderr) as bar:
        for _ in range(a.rounds):
            for kind in kinds:
                for name, env in builds.items():
                    r = json.loads(_run(env, "child", kind, str(ns[kind])))
                    for row, us in (r["us"] if kind == "modules" else {kind: r["us"]}).items():
                        times.setdefault((row, name), []).append(us)
                    described[name] = r["build"]
                    bar.update()
    rows = list(dict.fromkeys(row for row, _ in times))
    result = {row: {name: round(statistics.median(times[row, name]), 2) for name in builds} for row in rows}
    if a.json:
        print(json.dumps({"medians_us": result, "builds": described, "rounds": a.rounds}))
        return
    print(f"medians of {a.rounds} interleaved rounds, µs (load average {os.getloadavg()[0]:.1f})")
    for name in builds:
        print(f"  {name:<10} {described[name]}")
    unit = {"codec": "µs a move", "table": "µs an action"}
    for row in rows:
        ref = result[row].get("pure")
        cells = "  ".join(
            f"{name} {us:.2f}" + (f" ({ref / us:.2f}x)" if ref and name != "pure" else "")
            for name, us in result[row].items()
        )
        print(f"{row} ({unit.get(row, 'µs a call')}): {cells}")


if __name__ == "__main__":
    main()
