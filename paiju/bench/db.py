"""`paiju bench db`: the records API's answer times with many stored matches.

Builds a database of ``--matches`` matches (100,000 by default) over the four games, with
``--players`` registered players and the robots: every match has its seats (players and
robots), one hand whose action log, scores and detail are those of a real hand of the game
(a pool of hands played at random, reused), and ratings computed by openskill over the
matches in order, exactly as the server computes them. Then it times the API the web client
and other tools use -- a player's history (first page, and a page further back), a robot's
history, a match, the leaderboards -- over HTTP against the real server, sequentially, and
reports p50/p99/max per kind of request against the target (p99 under 50 ms), and the CPU time
of this process (the server and the timing client both) per request.

The database is a new SQLite file in a temporary folder (default), a throwaway PostgreSQL
cluster (``--postgres``), or ``--database URL`` (which must hold no match yet).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from paiju.cli.args import positive_int
from paiju.cli.db import add_database_argument

TARGET_MS = 50.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=positive_int, default=100_000, help="matches to build (default %(default)s)")
    parser.add_argument("--players", type=positive_int, default=1_000, help="registered players (default %(default)s)")
    parser.add_argument(
        "--requests", type=positive_int, default=500, help="requests timed per kind (default %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=20)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster (initdb, pg_ctl)")
    add_database_argument(where, "a new SQLite file in a temporary folder; an URL given must hold no match")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.matches < 1 or args.players < 4 or args.requests < 1:
        print("paiju bench db: --matches >= 1, --players >= 4, --requests >= 1", file=sys.stderr)
        return 2
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    from paiju.records import Database
    from paiju.records.database import redacted
    from paiju.testing.pgcluster import Cluster, Unavailable

    cluster = None
    tmp = None
    if args.postgres:
        try:
            cluster = Cluster.start()
        except Unavailable as e:
            print(f"paiju bench db: {e}", file=sys.stderr)
            return 1
        url = await cluster.create("bench")
    elif args.database:
        url = args.database
    else:
        tmp = tempfile.TemporaryDirectory(prefix="paiju-bench-db-")
        url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    db = Database(url)
    try:
        await db.upgrade()
        if not await _empty(db):
            print(f"paiju bench db: {redacted(db.url)} already holds matches: give an empty database", file=sys.stderr)
            return 2
        t = time.perf_counter()
        players = await build(db, args.matches, args.players, random.Random(args.seed))
        build_s = time.perf_counter() - t
        results = await measure(db, players, args.requests, random.Random(args.seed + 1))
    finally:
        await db.close()
        if cluster is not None:
            cluster.stop()
        if tmp is not None:
            tmp.cleanup()
    worst = max(r["p99_ms"] for r in results.values())
    out = {
        "database": "postgresql" if not db.sqlite else "sqlite",
        "matches": args.matches,
        "players": args.players,
        "build_s": round(build_s, 1),
        "requests": results,
        "target_p99_ms": TARGET_MS,
        "ok": worst < TARGET_MS,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['database']}: {args.matches:,} matches, {args.players:,} players, built in {build_s:.1f} s")
        print(f"  {'request':<28} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'CPU ms':>8}")
        for name, r in results.items():
            print(f"  {name:<28} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['max_ms']:>8.2f} {r['cpu_ms']:>8.2f}")
        print(f"  p99 target {TARGET_MS:.0f} ms: {'met' if out['ok'] else 'NOT met'} (worst p99 {worst:.2f} ms)")
    return 0 if out["ok"] else 1


async def _empty(db: Any) -> bool:
    from sqlalchemy import func, select

    from paiju.records.models import Match

    async with db.session() as s:
        n: int = await s.scalar(select(func.count()).select_from(Match))
    return n == 0


def _sample_hands(rng: random.Random, per_game: int = 6) -> dict[str, list[dict[str, Any]]]:
    """Real hands of each game, played with random legal moves (the rows' realistic content):
    each a ``hands`` row (``paiju.records.matches.hand_row``) with its game's seats and ruleset."""
    from paiju import games
    from paiju.records.matches import hand_row, random_hand

    pool: dict[str, list[dict[str, Any]]] = {}
    for game in games.names():
        probe = games.create(game, 0)
        pool[game] = [
            {"seats": probe.num_seats, "ruleset": probe.rules.name, "row": hand_row(0, rec)}
            for rec in (random_hand(game, rng.randrange(2**62), k, rng) for k in range(per_game))
        ]
    return pool


async def build(db: Any, n_matches: int, n_players: int, rng: random.Random) -> list[str]:
    """Fill an empty database; the names of the registered players."""
    from argon2 import PasswordHasher
    from sqlalchemy import insert, text
    from tqdm import tqdm  # type: ignore[import-untyped]

    from paiju.records import ratings
    from paiju.records.models import GUEST, OVER, ROBOT, USER, Account, Hand, Match, MatchSeat, Rating

    pool = _sample_hands(rng)
    game_names = sorted(pool)
    now = time.time()
    digest = PasswordHasher().hash("bench-password")  # one real hash, for a realistic row
    names = [f"player{i:05d}" for i in range(n_players)]
    robots = ["random@1", "heuristic@1", "expert@1"]
    accounts = [
        {"id": i + 1, "name": n, "name_key": n, "kind": USER, "password_hash": digest, "created": now}
        for i, n in enumerate(names)
    ]
    accounts += [
        {"id": n_players + j + 1, "name": r, "name_key": r, "kind": ROBOT, "password_hash": None, "created": now}
        for j, r in enumerate(robots)
    ]
    ids: dict[str, int] = {str(a["name"]): int(str(a["id"])) for a in accounts}
    state: dict[tuple[int, str], tuple[float, float, int]] = {}  # (account, game) -> mu, sigma, matches
    async with db.engine.begin() as conn:
        await conn.execute(insert(Account), accounts)
    batch = 2_000
    bar = tqdm(total=n_matches, unit="match", desc="building", file=sys.stderr, mininterval=1.0)
    for start in range(0, n_matches, batch):
        m_rows: list[dict[str, Any]] = []
        s_rows: list[dict[str, Any]] = []
        h_rows: list[dict[str, Any]] = []
        for mid in range(start + 1, min(start + batch, n_matches) + 1):
            game = game_names[mid % len(game_names)]
            hand = rng.choice(pool[game])
            n = hand["seats"]
            people = rng.sample(names, rng.choice([1, 1, 1, 2, n]))
            holders = [(USER, p) for p in people] + [(ROBOT, rng.choice(robots)) for _ in range(n - len(people))]
            if rng.random() < 0.1:
                holders[-1] = (GUEST, "guest")
            rng.shuffle(holders)
            totals = hand["row"]["scores"]
            started = now - (n_matches - mid) * 60.0
            m_rows.append(
                {
                    "id": mid, "room_id": f"r{mid:06x}", "game": game, "ruleset": hand["ruleset"], "options": {},
                    "seed": rng.randrange(2**62), "hands_planned": 1, "hands_played": 1, "status": OVER,
                    "rated": True, "started": started, "ended": started + 300.0, "totals": totals,
                }
            )  # fmt: skip
            h_rows.append(hand["row"] | {"match_id": mid, "ended": started + 300.0})
            accs = [ids.get(name) if kind != GUEST else None for kind, name in holders]
            before = [state.get((a, game)) if a is not None else None for a in accs]
            after = ratings.update(game, [b[:2] if b else None for b in before], totals)
            groups = ratings.teams(game, n)
            rank = {s: r for g, r in zip(groups, ratings.ranks(totals, groups), strict=True) for s in g}
            for seat, ((kind, name), a, b, new) in enumerate(zip(holders, accs, before, after, strict=True)):
                old = b[:2] if b else (ratings.MU, ratings.SIGMA)
                if a is not None:
                    state[(a, game)] = (new[0], new[1], (b[2] if b else 0) + 1)
                s_rows.append(
                    {
                        "match_id": mid, "seat": seat, "account_id": a, "name": name, "kind": kind,
                        "total": totals[seat], "rank": rank[seat],
                        "rating_before": ratings.ordinal(old) if a else None,
                        "rating_after": ratings.ordinal(new) if a else None,
                    }
                )  # fmt: skip
        async with db.engine.begin() as conn:
            await conn.execute(insert(Match), m_rows)
            await conn.execute(insert(MatchSeat), s_rows)
            await conn.execute(insert(Hand), h_rows)
        bar.update(len(m_rows))
    bar.close()
    rows = [
        {"account_id": a, "game": g, "mu": mu, "sigma": sg, "ordinal": ratings.ordinal((mu, sg)), "matches": c,
         "updated": now}
        for (a, g), (mu, sg, c) in state.items()
    ]  # fmt: skip
    async with db.engine.begin() as conn:
        await conn.execute(insert(Rating), rows)
        if not db.sqlite:  # explicit ids: move the sequences past them
            for table in ("accounts", "matches"):
                await conn.execute(text(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))"))
    # the planner's statistics, which a live database has from autovacuum (or SQLite's ANALYZE)
    async with db.engine.connect() as conn:
        await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text("ANALYZE"))
    return names


async def measure(db: Any, players: list[str], n: int, rng: random.Random) -> dict[str, dict[str, float]]:
    """Time GET requests against the real server's HTTP side (a loopback connection each)."""
    from paiju import games
    from paiju.bus.memory import MemoryBus
    from paiju.core.config import Config
    from paiju.server.app import Server

    server = Server(Config(port=0), MemoryBus("bench"), database=db)
    await server.start()
    try:
        pages: dict[str, list[str]] = {
            "history (first page)": [f"/api/players/{rng.choice(players)}/matches?limit=20" for _ in range(n)],
            "history (a robot, deep)": [
                f"/api/players/random@1/matches?limit=20&before={rng.randrange(1000, 100_000)}" for _ in range(n)
            ],
            "leaderboard (top 50)": [f"/api/leaderboard/{rng.choice(games.names())}?limit=50" for _ in range(n)],
            "leaderboard (a later page)": [
                f"/api/leaderboard/{rng.choice(games.names())}?limit=50&offset={rng.randrange(0, 900)}"
                for _ in range(n)
            ],
            "match": [f"/api/matches/{rng.randrange(1, 100)}" for _ in range(n)],
        }
        out = {}
        for name, paths in pages.items():
            times = []
            cpu = time.process_time()
            for path in paths:
                t = time.perf_counter()
                status = await _get(server.port, path)
                times.append((time.perf_counter() - t) * 1000)
                if status not in (200, 404):
                    raise RuntimeError(f"GET {path}: HTTP {status}")
            cpu = (time.process_time() - cpu) * 1000 / len(paths)
            times.sort()
            out[name] = {
                "cpu_ms": round(cpu, 2),
                "p50_ms": round(statistics.median(times), 2),
                "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
                "max_ms": round(times[-1], 2),
            }
        return out
    finally:
        await server.close()


async def _get(port: int, path: str) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return int(data.split(b" ", 2)[1])
