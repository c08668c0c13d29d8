"""`paiju bench churn`: real clients in every seat of tables of every game, dropping (abort,
no closing handshake) and resuming at random, some resuming twice at once; a spectator at
every table. Counts, for every client, the events missed or received twice, the clients
that never saw their final RESULT and MATCH_END, and the server's connections, players and
rooms left over at the end (/healthz against its baseline).

The spectators do not drop: a spectator whose connection closes stops watching (it may
JOIN again, for a ROOM_STATE). Each seat's events are checked against the spectator's copy:
the same event, with cards only where the spectator sees them or the seat's own event.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from paiju.client import Client, Closed, ServerError
from protocol import Event, Prompt, Result, RoomEvent, RoomState
from protocol.cards import HIDDEN

SEATS = {"tricks": 2, "niujiu": 3, "mahjong": 4, "bridge": 4}


@dataclass
class Member:
    """What one client received over all its connections."""

    name: str
    seat: int | None
    events: list[Event] = field(default_factory=list)
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
    leaked_cards: int = 0
    leftover: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        bad = self.gaps + self.duplicates + self.unfinished + self.snapshots + self.leaked_cards
        return bad == 0 and not any(self.leftover.values())


def health(http: str) -> dict[str, Any]:
    with urllib.request.urlopen(http + "/healthz", timeout=10) as r:
        body: dict[str, Any] = json.load(r)
        return body


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
    for e in got:  # the one replaced before its WELCOME went out fails with Closed
        if isinstance(e, BaseException) and not isinstance(e, Closed):
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
            if m.seat is not None and not m.ended and rng.random() < p_drop:
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


def _leaks(seat: int, mine: list[Event], public: dict[int, Event]) -> int:
    """Events of another seat whose cards this seat saw although the spectator did not, or
    that differ from the spectator's copy otherwise."""
    bad = 0
    for e in mine:
        p = public.get(e.seq)
        if p is None:
            continue
        same = (e.code, e.seat, e.arg, len(e.cards)) == (p.code, p.seat, p.arg, len(p.cards))
        own = set(p.cards) <= {HIDDEN} and e.seat == seat  # its own hidden cards, shown to it
        bad += int(not same or (e.cards != p.cards and not own))
    return bad


async def table(url: str, game: str, hands: int, seed: int, p_drop: float, gap: float, twice: float) -> list[Member]:
    rng = random.Random(seed)
    n = SEATS[game]
    clients = [await Client.connect(url, f"{game}{i}") for i in range(n)]
    eve = await Client.connect(url, f"{game}-eve")
    st = await clients[0].create(game, seed=seed, hands=hands, clock_ms=5_000)
    await eve.watch(st.room)
    for i in range(1, n):
        await clients[i].join(st.room, i)
    members = [Member(c.name, i) for i, c in enumerate(clients)] + [Member(eve.name, None)]
    await asyncio.gather(
        *(
            _play(url, m, c, random.Random(rng.random()), p_drop, gap, twice)
            for m, c in zip(members, [*clients, eve], strict=True)
        )
    )
    return members


async def churn(
    url: str,
    http: str,
    hands: int,
    *,
    seed: int = 1,
    tables_at_once: int = 4,
    hands_per_table: int = 4,
    p_drop: float = 0.03,
    gap: float = 0.5,
    twice: float = 0.25,
    progress: Any = None,
) -> Report:
    """Play ``hands`` hands in all (tables of ``hands_per_table`` hands, the four games in
    turn, ``tables_at_once`` at a time) with churning clients; what went wrong, counted."""
    rep = Report()
    t0 = time.monotonic()
    base = await asyncio.to_thread(health, http)
    names = list(SEATS)
    sem = asyncio.Semaphore(tables_at_once)

    async def one(i: int) -> None:
        async with sem:
            game = names[i % len(names)]
            members = await table(url, game, hands_per_table, seed * 100_003 + i, p_drop, gap, twice)
        public = {e.seq: e for e in members[-1].events}
        for m in members:
            g, d = m.gaps_and_duplicates()
            rep.gaps += g
            rep.duplicates += d
            rep.unfinished += int(not (m.ended and m.finals == 1))
            rep.snapshots += m.states
            rep.drops += m.drops
            rep.doubles += m.doubles
            rep.events += len(m.events)
            if m.seat is not None:
                rep.leaked_cards += _leaks(m.seat, m.events, public)
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
    parser.add_argument("--drop", type=float, default=0.03, help="chance a seat drops after a frame (0.03)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server's ws://host:port/ws (default: start one, in-process)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    server = None
    url = args.url
    if url is None:  # a `paiju serve` of its own, a real process
        server, url = _serve()
    http = url.replace("ws://", "http://").rsplit("/ws", 1)[0]
    try:
        with tqdm(total=args.hands, unit="hand", disable=args.json) as bar:
            rep = asyncio.run(churn(url, http, args.hands, **_opts(args), progress=bar))
    finally:
        if server is not None:
            server.terminate()
            server.wait(20)
    out = {**rep.__dict__, "ok": rep.ok}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0 if rep.ok else 1


def _serve() -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "paiju", "serve", "--port", "0", "--hand-pause", "0", "--grace", "30"]
    cmd += ["--rate", "300", "--burst", "300", "--log-level", "WARNING"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"\(ws://([^)]+)\)", line)
        if m:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained
            return proc, f"ws://{m.group(1)}"
    raise RuntimeError("paiju serve did not start")


def _opts(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "seed": args.seed,
        "tables_at_once": args.tables,
        "hands_per_table": args.hands_per_table,
        "p_drop": args.drop,
    }
