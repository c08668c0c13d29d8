"""The floor of `paiju bench peers` (paiju/bench/floor.py): it deals, checks and hides like the
peers, and the Node load generator plays it with both readers."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from paiju.bench import peers
from paiju.bench.floor import CARDS
from paiju.protocol import (
    Ack,
    Action,
    CreateRoom,
    ErrorCode,
    Event,
    Feature,
    Frame,
    Hello,
    Join,
    Prompt,
    Result,
    RoomEvent,
    RoomState,
    Welcome,
    decode_all,
    echo,
    encode,
)
from paiju.protocol import Error as ErrorFrame
from paiju.protocol.tricks import ActCode
from paiju.protocol.tricks import Error as TricksError
from paiju.testing.launch import Child
from tests.bench.test_peers import needs_node, node

__all__ = ["node"]  # the fixture: Node.js with the load generator's packages installed

FLOOR_READY = r"floor serving on ws://[^:]+:(\d+)/"


@pytest.fixture(params=["recv", "callback"])
def floor(request: pytest.FixtureRequest) -> Iterator[str]:
    child = Child(
        [sys.executable, "-m", "paiju.bench.floor", "--port", "0", "--reader", request.param, "--linger-ms", "0"],
        FLOOR_READY,
    )
    try:
        yield f"ws://127.0.0.1:{child.port}/ws"
    finally:
        child.stop()


class Seat:
    """A player of the floor: the frames it read, one at a time."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.queue: list[Frame] = []
        self.seen: list[Frame] = []

    async def next(self, kind: type[Frame]) -> Any:
        """The next frame of ``kind`` (those before it are only kept in ``seen``)."""
        while True:
            while self.queue:
                f = self.queue.pop(0)
                self.seen.append(f)
                if isinstance(f, kind):
                    return f
            data = await asyncio.wait_for(self.ws.recv(), 5)
            assert isinstance(data, bytes)
            self.queue.extend(decode_all(data))

    async def send(self, frame: Frame) -> None:
        await self.ws.send(encode(frame))

    async def play(self) -> None:
        """Its lowest card at every prompt, until the match's end."""
        while True:
            f = await self.next(Frame)
            if isinstance(f, Prompt):
                await self.send(Action(f.prompt_id, 0, f.options[0].cards[:1]))
            elif isinstance(f, Event) and f.code == RoomEvent.MATCH_END:
                return


def test_it_deals_checks_every_move_and_hides_the_other_hand(floor: str) -> None:
    async def match() -> tuple[Seat, Seat]:
        async with connect(floor, compression=None) as a_ws, connect(floor, compression=None) as b_ws:
            a, b = Seat(a_ws), Seat(b_ws)
            await a.send(CreateRoom("tricks", hands=2))
            assert (await a.next(ErrorFrame)).code == ErrorCode.HELLO_FIRST
            await a.send(Hello(1, "a", features=Feature.BATCH))
            await b.send(Hello(1, "b", features=Feature.BATCH))
            assert (await a.next(Welcome)).features == Feature.BATCH
            await b.next(Welcome)
            await a.send(CreateRoom("tricks", hands=2, private=True))
            room = (await a.next(RoomState)).room
            await b.send(Join(room, 0))
            assert (await b.next(ErrorFrame)).code == ErrorCode.SEAT_TAKEN
            await b.send(Join(room, 1))
            await b.next(RoomState)
            p = await a.next(Prompt)  # seat 0 leads the first hand, with its 8 cards
            mine = p.options[0].cards
            await b.send(Action(p.prompt_id, 0, mine[:1]))
            assert (await b.next(ErrorFrame)).code == ErrorCode.NOT_YOUR_TURN
            for action, code in (
                (Action(p.prompt_id + 1, 0, mine[:1]), ErrorCode.NO_SUCH_PROMPT),
                (Action(p.prompt_id, 1, mine[:1]), ErrorCode.ILLEGAL_ACTION),
                (Action(p.prompt_id, 0, mine[:2]), ErrorCode.ILLEGAL_CARDS),
                (
                    Action(p.prompt_id, 0, bytes([next(c for c in CARDS if c not in mine)])),
                    TricksError.CARD_NOT_IN_HAND,
                ),
            ):
                await a.send(action)
                assert (await a.next(ErrorFrame)).code == code, action
            await a.send(Action(p.prompt_id, 0, mine[:1]))
            await asyncio.gather(a.play(), b.play())
            return a, b

    a, b = asyncio.run(match())
    results = [[f for f in s.seen if isinstance(f, Result)] for s in (a, b)]
    assert results[0] == results[1] and [r.final for r in results[0]] == [False, True]
    for me, s in enumerate((a, b)):
        deals = [f for f in s.seen if isinstance(f, Event) and f.code == RoomEvent.DEAL]
        assert len(deals) == 4  # 2 hands, each seat's deal to both
        for d, r in zip(deals, [r for r in results[0] for _ in (0, 1)], strict=True):
            # its own hand as RESULT shows it dealt (8 of the cards 1..16), the other's hidden
            assert d.cards == (r.hands[d.seat] if d.seat == me else bytes(8)), (me, d)
        assert sorted(results[0][0].hands[0] + results[0][0].hands[1]) == sorted(CARDS)
        # every card played is told to both seats, and each seat's is acknowledged
        echoes = [f for f in s.seen if isinstance(f, Event) and f.code == echo(ActCode.PLAY)]
        assert len(echoes) == 32 and len([f for f in s.seen if isinstance(f, Ack)]) == 16
        ended = [f for f in s.seen if isinstance(f, Event) and f.code == RoomEvent.MATCH_END]
        assert [e.arg for e in ended] == [2]
    for r in results[0]:  # each hand's score is the tricks' difference, seat 0's way
        assert r.scores == [
            r.detail["tricks"][0] - r.detail["tricks"][1],
            r.detail["tricks"][1] - r.detail["tricks"][0],
        ]


@needs_node
def test_the_load_generator_plays_it_with_both_readers(node: str) -> None:
    """A second of `paiju bench peers`' load generator on each reader of the floor, at once:
    actions played on every table, matches ended, no error."""
    floors = [
        Child([sys.executable, "-m", "paiju.bench.floor", "--port", "0", "--reader", reader], FLOOR_READY)
        for reader in ("recv", "callback")
    ]
    try:
        load = ["--rooms", "2", "--seconds", "1", "--warmup", "0.5", "--hands", "1", "--target", "paiju", "--url"]
        gens = [
            subprocess.Popen(
                [node, "loadgen.js", *load, f"ws://127.0.0.1:{f.port}/ws"],
                cwd=peers.COLYSEUS,
                stdout=subprocess.PIPE,
                text=True,
            )
            for f in floors
        ]
        outs = [g.communicate(timeout=60)[0] for g in gens]
    finally:
        for f in floors:
            f.stop()
    for g, out in zip(gens, outs, strict=True):
        assert g.returncode == 0
        end = json.loads(out.strip().splitlines()[-1])
        assert end["event"] == "end" and end["batch"] is True, end
        assert end["actions"] > 0 and end["matches"] > 0 and end["idle_tables"] == 0 and not end["errors"], end
        # each action's frames in one batch to each player, the mover's ACK and echo lingering for its next prompt
        assert end["actions"] <= end["messages"] <= 3 * end["actions"], end
