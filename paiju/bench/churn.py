"""`paiju bench churn`: real clients in every seat of tables of every game and a spectator
at every table, all dropping (abort, no closing handshake) and resuming at random, some
resuming twice at once. Counts, for every client, the events missed or received twice, the
clients that never saw their final RESULT and MATCH_END, the frames that show a card the
client was not entitled to, and the server's connections, players and rooms left over at
the end (/healthz against its baseline).

The card check is the conformance kit's (paiju/games/testing.py), applied to every EVENT and
ROOM_STATE a client received: the room's log in Redis (every action, every event with its
cards) rebuilds each hand; every event received must be the logged event as that seat (or a
spectator) sees it, and hold no card beyond what the seat was entitled to so far in the hand
(its concealed cards and the public ones, as a multiset), the spectator only the public ones.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import shutil
import signal
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.client import Client, Closed, ServerError
from paiju.games import GameAction, GameEvent
from paiju.games.testing import card_bytes
from paiju.protocol import ErrorCode, Event, Prompt, Result, RoomEvent, RoomState
from paiju.protocol.cards import HIDDEN
from paiju.testing import launch
from paiju.testing.launch import Child

SEATS = {"tricks": 2, "niujiu": 3, "mahjong": 4, "bridge": 4}


@dataclass
class Member:
    """What one client received over all its connections."""

    name: str
    seat: int | None
    events: list[Event] = field(default_factory=list)
    seen: list[Event | RoomState] = field(default_factory=list)  # every one received, for the card check
    finals: int = 0
    states: int = 0  # ROOM_STATE after the start: a resume that lost its position
    drops: int = 0
    doubles: int = 0
    ended: bool = False

    def gaps_and_duplicates(self) -> tuple[int, int]:
        seqs = [e.seq for e in self.events]
        dups = len(seqs) - len(set(seqs))
        gaps = sum(max(0, b - a - 1) + int(b <= a) for a, b in itertools.pairwise(seqs))
        return gaps, dups


@dataclass
class Report:
    tables: int = 0
    hands: int = 0
    clients: int = 0
    drops: int = 0
    doubles: int = 0
    events: int = 0
    gaps: int = 0
    duplicates: int = 0
    unfinished: int = 0
    snapshots: int = 0
    checked_frames: int = 0  # EVENT and ROOM_STATE frames checked against the room's log
    leaked_cards: int = 0  # frames not as the log says that client sees them, or showing a card it may not see
    leftover: dict[str, int] = field(default_factory=dict)
    failed_tables: list[str] = field(default_factory=list)  # tables that could not be set up or played
    unfinished_at: list[str] = field(default_factory=list)  # where each unfinished client was
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        bad = self.gaps + self.duplicates + self.unfinished + self.snapshots + self.leaked_cards
        return bad == 0 and not any(self.leftover.values()) and not self.failed_tables


def health(http: str, tries: int = 5) -> dict[str, Any]:
    """The server's /healthz (a loaded machine may keep it from answering for a while)."""
    for i in range(tries):
        try:
            with urllib.request.urlopen(http + "/healthz", timeout=30) as r:
                body: dict[str, Any] = json.load(r)
                return body
        except TimeoutError:
            if i == tries - 1:
                raise
    raise AssertionError("unreachable")


async def _resume(url: str, m: Member, token: str, last: int, rng: random.Random, twice: float) -> Client:
    """A new connection for ``m`` (two at once, now and then: the later one stays)."""
    if rng.random() >= twice:
        return await Client.connect(url, m.name, token=token, last_seq=last)
    m.doubles += 1
    got = await asyncio.gather(
        Client.connect(url, m.name, token=token, last_seq=last),
        Client.connect(url, m.name, token=token, last_seq=last),
        return_exceptions=True,
    )
    live = [c for c in got if isinstance(c, Client)]
    for e in got:  # the one replaced before its WELCOME went out fails with Closed, and the
        # one that comes second finds the token rotated by the first's WELCOME (BAD_TOKEN)
        lost = isinstance(e, Closed) or (isinstance(e, ServerError) and e.code == ErrorCode.BAD_TOKEN)
        if isinstance(e, BaseException) and not lost:
            raise e
    if len(live) == 1:
        return live[0]
    a, b = live
    done, _ = await asyncio.wait([a._reader, b._reader], return_when=asyncio.FIRST_COMPLETED, timeout=60)
    loser = a if a._reader in done else b
    await loser.close()
    return b if loser is a else a


async def _play(url: str, m: Member, c: Client, rng: random.Random, p_drop: float, gap: float, twice: float) -> None:
    last = c.seq
    acting: set[asyncio.Task[None]] = set()

    async def act(f: Prompt, conn: Client) -> None:
        with contextlib.suppress(ServerError, Closed, TimeoutError):
            await conn.act_random(f, rng)

    try:
        while not m.ended:
            try:
                f = await c.recv(timeout=60)
            except TimeoutError:  # nothing for a minute: counted as unfinished
                return
            except Closed:  # replaced by the other of a double resume, or the server let go
                _forget_after(m, last)
                c = await _resume(url, m, c.token, last, rng, twice)
                continue
            if isinstance(f, (Event, RoomState)):
                m.seen.append(f)
            if isinstance(f, Event):
                m.events.append(f)
                # a HAND_END counts as seen with its RESULT, which has no seq of its own
                last = f.seq if f.code != RoomEvent.HAND_END else last
                m.ended = f.code == RoomEvent.MATCH_END
            elif isinstance(f, Result):
                last = m.events[-1].seq
                m.finals += int(f.final)
            elif isinstance(f, RoomState) and m.drops:  # (those of the joins come before)
                m.states += 1
            elif isinstance(f, Prompt) and f.mask and m.seat is not None:
                t = asyncio.create_task(act(f, c))
                acting.add(t)
                t.add_done_callback(acting.discard)
            if not m.ended and rng.random() < p_drop:
                m.drops += 1
                token = c.token
                await c.abort()
                _forget_after(m, last)
                await asyncio.sleep(rng.uniform(0, gap))
                c = await _resume(url, m, token, last, rng, twice)
    finally:
        await c.close()


def _forget_after(m: Member, last: int) -> None:
    """Before a resume from ``last``: a HAND_END whose RESULT was lost comes again."""
    while m.events and m.events[-1].seq > last:
        m.events.pop()


def log_entries(redis_url: str, room: str) -> list[bytes]:
    """The log of ``room`` as the server wrote it to Redis (kept for the log TTL after the end)."""
    import redis

    from paiju.bus.link import room_log

    with redis.Redis.from_url(redis_url) as r:
        entries: list[bytes] = r.lrange(room_log(room), 0, -1)  # type: ignore[assignment]
        return entries


def card_check(entries: list[bytes], members: list[Member]) -> tuple[int, int]:
    """Frames checked and frames wrong: every EVENT and ROOM_STATE each member received,
    against the room's log (see the module's docstring); the members' seats are game seats."""
    from paiju.core.roomlog import read_head, rules_from, unpack

    head = read_head("?", entries[0])
    rules = rules_from(head.game, head.ruleset, head.options)
    by_seq: dict[int, list[tuple[int | None, Event | RoomState]]] = {}
    for m in members:
        for f in m.seen:
            by_seq.setdefault(f.seq, []).append((m.seat, f))
    checked = bad = 0
    game = None
    ent: dict[int | None, Counter[int]] = {}

    def note() -> None:  # what each seat (None: a spectator) may have seen so far in the hand
        assert game is not None
        pub = Counter(game.public())
        ent[None] = ent.get(None, Counter()) | pub
        for s in range(game.num_seats):
            ent[s] = ent.get(s, Counter()) | pub + Counter(game.concealed(s))

    def check(seq: int, ev: GameEvent | None) -> None:
        nonlocal checked, bad
        for seat, f in by_seq.pop(seq, []):
            checked += 1
            allowed = ent.get(seat, Counter())
            if isinstance(f, RoomState):
                bad += int(f.seat != seat or bool(card_bytes(f.view) - allowed))
                continue
            assert ev is not None
            want = ev.seen_by(seat)
            same = (f.code, f.seat, f.cards, f.arg, f.text) == (want.code, want.seat, want.cards, want.arg, want.text)
            bad += int(not same or bool(Counter(b for b in f.cards if b != HIDDEN) - allowed))

    check(0, None)  # a ROOM_STATE of the waiting room
    for data in entries[1:]:
        e = unpack(data)
        if e[0] == "hand":
            game = games.create(head.game, head.seed, rules, hand=int(e[1]))
            ent.clear()
            note()
        elif e[0] == "act" and game is not None:
            game.apply(int(e[1]), GameAction(int(e[2]), bytes(e[3])))
            note()
        elif e[0] == "ev":
            _, seq, code, seat, cards, arg, vis, _res, *text = e  # (text: in logs since explanations)
            seen = frozenset(vis) if vis is not None else None
            check(seq, GameEvent(code, seat, bytes(cards), arg, seen, text[0] if text else ""))
    bad += sum(len(v) for v in by_seq.values())  # a frame numbered past the log: wrong too
    return checked, bad


async def table(
    url: str, game: str, hands: int, seed: int, p_drop: float, gap: float, twice: float
) -> tuple[str, list[Member]]:
    rng = random.Random(seed)
    n = SEATS[game]
    opened: list[Client] = []
    try:  # a table whose setup fails closes what it opened: no connection is left behind
        for i in range(n):
            opened.append(await Client.connect(url, f"{game}{i}"))
        opened.append(await Client.connect(url, f"{game}-eve"))
        *clients, eve = opened
        # the random robot plays a dropped seat: the churn is what is measured, not the robots
        st = await clients[0].create(game, seed=seed, hands=hands, clock_ms=5_000, robot="random")
        await eve.watch(st.room)
        for i in range(1, n):
            await clients[i].join(st.room, i)
    except BaseException:
        for c in opened:
            await c.close()
        raise
    members = [Member(c.name, i) for i, c in enumerate(clients)] + [Member(eve.name, None)]
    await asyncio.gather(
        *(
            _play(url, m, c, random.Random(rng.random()), p_drop, gap, twice)
            for m, c in zip(members, [*clients, eve], strict=True)
        )
    )
    return st.room, members


async def churn(
    url: str,
    http: str,
    hands: int,
    *,
    redis: str | None = None,
    seed: int = 1,
    tables_at_once: int = 4,
    hands_per_table: int = 4,
    p_drop: float = 0.03,
    gap: float = 0.5,
    twice: float = 0.25,
    minutes: float | None = None,
    progress: Any = None,
) -> Report:
    """Play ``hands`` hands in all (tables of ``hands_per_table`` hands, the four games in
    turn, ``tables_at_once`` at a time) with churning clients; what went wrong, counted.
    ``redis``: the server's Redis, whose room logs the card check reads (None: no check).
    After ``minutes`` no table starts: those playing finish, and the report counts what was played."""
    rep = Report()
    t0 = time.monotonic()
    base = await asyncio.to_thread(health, http)
    names = list(SEATS)
    sem = asyncio.Semaphore(tables_at_once)

    async def one(i: int) -> None:
        async with sem:
            if minutes is not None and time.monotonic() - t0 > 60 * minutes:
                return
            game = names[i % len(names)]
            try:
                room, members = await table(url, game, hands_per_table, seed * 100_003 + i, p_drop, gap, twice)
            except (OSError, Closed, ServerError) as e:  # a connect or a request not answered in time
                rep.failed_tables.append(f"{game} table {i}: {type(e).__name__}: {e}")
                return
        if redis is not None:
            entries = await asyncio.to_thread(log_entries, redis, room)
            checked, bad = card_check(entries, members) if entries else (0, 1)
            rep.checked_frames += checked
            rep.leaked_cards += bad
        for m in members:
            g, d = m.gaps_and_duplicates()
            rep.gaps += g
            rep.duplicates += d
            if not (m.ended and m.finals == 1):
                rep.unfinished += 1
                last = m.events[-1].seq if m.events else None
                rep.unfinished_at.append(
                    f"{game} room {room} {m.name}: last event {last}, {m.finals} final RESULTs, {m.drops} drops"
                )
            rep.snapshots += m.states
            rep.drops += m.drops
            rep.doubles += m.doubles
            rep.events += len(m.events)
        rep.clients += len(members)
        rep.tables += 1
        rep.hands += hands_per_table
        if progress is not None:
            progress.update(hands_per_table)

    await asyncio.gather(*(one(i) for i in range(max(1, hands // hands_per_table))))
    keys = ("connections", "players", "rooms")
    deadline = time.monotonic() + 30
    while True:  # the server lets go of everything within a bound
        now = await asyncio.to_thread(health, http)
        rep.leftover = {k: int(now[k]) - int(base[k]) for k in keys}
        if not any(rep.leftover.values()) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.5)
    rep.seconds = round(time.monotonic() - t0, 1)
    return rep


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=400, help="hands in all, over every game (default 400)")
    parser.add_argument("--tables", type=int, default=4, help="tables played at once (default 4)")
    parser.add_argument("--hands-per-table", type=int, default=4, help="hands of each match (default 4)")
    parser.add_argument("--drop", type=float, default=0.03, help="chance a client drops after a frame (0.03)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minutes", type=float, help="start no table after this many minutes (the report counts the hands played)"
    )
    parser.add_argument(
        "--url",
        help="a running server's ws://host:port/ws (default: start a redis-server, `paiju serve --redis` "
        "and a `paiju bots` worker of its own)",
    )
    parser.add_argument("--redis", metavar="URL", help="with --url: that server's Redis, for the card check")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    url, redis_url = args.url, args.redis
    procs: list[Child] = []
    # a SIGTERM (a `timeout`, a CI's cancel) still stops the servers this command started
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        if url is None:  # servers of its own, real processes
            procs, url, redis_url = _serve()
        elif redis_url is None:
            print("paiju bench churn: no --redis: the card check is skipped", file=sys.stderr)
        http = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
        with tqdm(total=args.hands, unit="hand", disable=args.json) as bar:
            rep = asyncio.run(churn(url, http, args.hands, redis=redis_url, **_opts(args), progress=bar))
    finally:
        stop(procs)
    out = {**rep.__dict__, "ok": rep.ok}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0 if rep.ok else 1


def _serve(grace: float = 30.0) -> tuple[list[Child], str, str]:
    """A redis-server, `paiju serve --redis` and one `paiju bots` worker: the processes (in
    the order they started), the WebSocket URL and the Redis URL. ``grace``: the server's
    ``--grace``, how long a dropped client's player waits for its resume (the churn's end waits
    that long for the last ones to be let go)."""
    if shutil.which("redis-server") is None:
        raise SystemExit("paiju bench churn: no redis-server on PATH (the card check reads the room logs)")
    redis, redis_url = launch.redis()
    procs = [redis]
    try:
        opts = ["--redis", redis_url, "--hand-pause", "0", "--grace", f"{grace:g}", "--rate", "300", "--burst", "300"]
        opts += ["--robot-pace", "0", "--log-level", "WARNING"]
        opts += ["--address-connections", "0", "--address-rooms", "0", "--address-rooms-per-minute", "0"]
        procs.append(launch.serve(*opts))
        procs.append(launch.bots(redis_url, "churn", "--log-level", "INFO"))
    except BaseException:
        stop(procs)
        raise
    return procs, procs[1].url, redis_url


def stop(procs: list[Child]) -> None:
    """Stop the processes of :func:`_serve`, the last started first (SIGTERM, then SIGKILL)."""
    for proc in reversed(procs):
        proc.stop(timeout=20)


def _opts(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "seed": args.seed,
        "tables_at_once": args.tables,
        "hands_per_table": args.hands_per_table,
        "p_drop": args.drop,
        "minutes": args.minutes,
    }
