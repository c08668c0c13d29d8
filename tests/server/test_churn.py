"""Churn: real clients in every seat of a table of each game and a spectator at each, all
dropping (abort) and resuming at random, some twice at once; every client gets every event
once and in order, its final RESULT and MATCH_END, no card it may not see (checked against
the room's log in Redis), and the server lets go of everything."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from paiju import games
from paiju.bench import churn as bench_churn
from paiju.bench.churn import Member, card_check, churn
from paiju.core import table as tb
from paiju.core.roomlog import pack
from paiju.games.testing import random_action
from paiju.protocol import Event, RoomState


@pytest.fixture(scope="module")
def churned() -> Iterator[tuple[str, str, str]]:
    """The bench's own servers: redis-server, `paiju serve --redis`, one `paiju bots`. A grace
    of 5 s (the bench's 30): a dropped client resumes within half a second (the churn's gap),
    and the check that the server lets go of every player waits for the last one's grace."""
    procs, url, redis_url = bench_churn._serve(grace=5)
    try:
        yield url, url.replace("ws://", "http://").rsplit("/ws", 1)[0], redis_url
    finally:
        bench_churn.stop(procs)


@pytest.mark.slow
async def test_churn_keeps_every_promise(churned: tuple[str, str, str]) -> None:
    url, http, redis_url = churned
    rep = await churn(url, http, hands=4, redis=redis_url, tables_at_once=4, hands_per_table=1, p_drop=0.05)
    print(rep)
    assert rep.tables == 4 and rep.drops >= 10 and rep.doubles >= 1, "the churn did churn"
    assert rep.checked_frames >= rep.events, "every frame was checked against the room's log"
    assert (rep.gaps, rep.duplicates, rep.unfinished, rep.snapshots, rep.leaked_cards) == (0, 0, 0, 0, 0)
    assert rep.leftover == {"connections": 0, "players": 0, "rooms": 0}


def logged_match(game: str, seed: int) -> tuple[list[bytes], list[Member]]:
    """A table of ``game`` played to its end with random moves (no server): its log, and what
    a client in each seat and a spectator received."""
    t = tb.Table("r1", game, None, seed=seed, hands=1, clock_ms=1000, robot="random", logged=True)
    n = t.n
    members = [Member(f"p{i}", i) for i in range(n)] + [Member("eve", None)]
    entries = [pack(t.head())]
    rng = random.Random(seed)

    def run(msg: tb.TableIn) -> None:
        for o in t.handle(msg, 0.0):
            if isinstance(o, tb.Append):
                entries.append(pack(o.entry))
            elif isinstance(o, tb.Send) and isinstance(o.frame, (Event, RoomState)):
                assert isinstance(o.conn, int)
                members[o.conn].seen.append(o.frame)

    run(tb.Enter("eve", "eve", n, None))
    for i in range(n):
        run(tb.Enter(f"p{i}", f"p{i}", i, i))
    while not t.game.is_over:
        p = t.pending[min(t.pending)]
        run(tb.Reply(f"p{p.controller}", p.controller, p.id, random_action(t.game, p.seat, rng)))
    return entries, members


@pytest.mark.parametrize("game", games.names())
def test_the_card_check_finds_a_card_shown_to_the_wrong_seat(game: str) -> None:
    entries, members = logged_match(game, seed=3)
    checked, bad = card_check(entries, members)
    assert checked == sum(len(m.seen) for m in members) and bad == 0
    # a seat that receives the deal as another seat sees it, and the spectator as seat 0 does
    deal = next(f for f in members[0].seen if isinstance(f, Event) and f.cards and 0 not in f.cards)
    for m in (members[1], members[-1]):
        m.seen = [deal if isinstance(f, Event) and f.seq == deal.seq else f for f in m.seen]
    assert card_check(entries, members) == (checked, 2)
