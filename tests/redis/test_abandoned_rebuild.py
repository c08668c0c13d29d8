"""With room logs (several nodes, or a restart on Redis), the node that finds a room it
cannot rebuild closes that room's match as abandoned, keeping its hands; other matches
still playing (other nodes' rooms) are left alone. A real redis-server and SQLite file."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from pathlib import Path

from paiju.bus.link import Link, client
from paiju.bus.memory import MemoryBus
from paiju.core.config import Config
from paiju.records import Database, matches
from paiju.records.matches import MatchInfo, SeatHolder
from paiju.records.models import GUEST, ROBOT
from paiju.server.app import Server
from paiju.server.storage import RoomStore

from .conftest import RedisServer, free_port


async def test_a_room_that_cannot_be_rebuilt_closes_its_match(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    db = Database(f"sqlite:///{path}")
    await db.upgrade()
    seats = [SeatHolder(GUEST, "ann"), SeatHolder(ROBOT, "random@1")]
    hands = {}
    for room in ("rgone", "rother"):
        info = MatchInfo(room, "tricks", "standard", {}, 5, 3, time.time())
        hands[room] = matches.random_hand("tricks", 5, 0, random.Random(1))
        await matches.write_hand(db, info, None, hands[room], seats)
    r = RedisServer(free_port())
    r.start()
    link = Link(client(r.url), r.url, "server:n1", logging.getLogger("test"))
    try:
        await link.start()
        server = Server(Config(port=0), MemoryBus("n1"), store=RoomStore(link, "n1"), database=db)
        assert await server.host.rebuild("rgone", [b"\x01not a log"]) is None  # a log that does not read
    finally:
        await link.close()
        r.stop()
        await db.close()
    with sqlite3.connect(path) as c:
        got = {
            room: (status, totals and json.loads(totals))
            for room, status, totals in c.execute("SELECT room_id, status, totals FROM matches")
        }
        kept = c.execute("SELECT count(*) FROM hands").fetchone()[0]
    assert got == {"rgone": ("abandoned", list(hands["rgone"].scores)), "rother": ("playing", None)} and kept == 2
