"""One lobby over two nodes: rooms created on either are listed by both, and a client of
one node joins a room of the other by following the REDIRECT (the client library does it)."""

from __future__ import annotations

import asyncio
import random

from paiju.client import Client
from paiju.protocol import RoomInfo

from .conftest import TwoNodes


def ids(rooms: list[RoomInfo]) -> set[str]:
    return {r.room for r in rooms}


async def test_one_lobby_and_a_join_through_the_other_node(two_nodes: TwoNodes) -> None:
    a, b = two_nodes.a, two_nodes.b
    ann = await Client.connect(a.url, "ann", record=True)
    bob = await Client.connect(b.url, "bob", record=True)
    cid = await Client.connect(b.url, "cid")
    try:
        on_a = await ann.create("tricks", hands=1, clock_ms=30_000)  # waits for a second player
        on_b = await cid.create("niujiu", bots=[1, 2], hands=1, clock_ms=30_000)
        async with asyncio.timeout(5):
            while True:  # each node lists the other's rooms once they are in the directory
                la, lb = await ann.list_rooms(), await bob.list_rooms()
                if {on_a.room, on_b.room} <= ids(la) and ids(la) == ids(lb):
                    break
                await asyncio.sleep(0.05)
        assert [r.status for r in lb if r.room == on_a.room] == ["waiting"]

        st = await bob.join(on_a.room, 1)  # a room of node a, asked of node b
        assert st.room == on_a.room and st.seat == 1
        assert bob.redirects == 1 and bob.url == a.url, (bob.redirects, bob.url)
        rng = random.Random(1)
        r1, r2 = await asyncio.gather(ann.play(rng, timeout=60), bob.play(rng, timeout=60))
        assert r1 == r2 and r1[-1].final
    finally:
        for c in (ann, bob, cid):
            await c.close()
    two_nodes.check()
