"""Hidden information over the wire: in one room per game and seed, a client in every seat
and a spectator record every frame they receive. The test rebuilds the game from the seed
with games.registry, drives all seats itself in lockstep (so the server applies exactly its
actions, in its order) and checks that

- every EVENT a seat receives is exactly the reference game's event as that seat sees it
  (``Event.seen_by``), in order, with consecutive sequence numbers; spectators likewise;
- every card byte an EVENT carries before the hand's RESULT is one that seat was entitled
  to at some point of the hand (its concealed cards or the public ones);
- every PROMPT answered had exactly the reference game's legal options.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest

import games
from client import Client, ServerError
from games.testing import card_bytes, random_action
from protocol import Event, Prompt, Result, RoomEvent, RoomState
from protocol.cards import HIDDEN

from .conftest import Served

ROOM_ONLY = {RoomEvent.SEAT, RoomEvent.TIMEOUT, RoomEvent.ROBOT, RoomEvent.HAND_END, RoomEvent.MATCH_END}
SEEDS = 30


async def _prompt_for(c: Client, seat: int, options: tuple[Any, ...]) -> Prompt:
    async with asyncio.timeout(10):
        while True:
            for p in list(c.prompts.values()):
                if p.seat == seat and tuple(p.options) == options:
                    return p
            await asyncio.sleep(0.002)


async def lockstep(url: str, game: str, seed: int, hands: int) -> dict[str, Any]:
    ref = games.create(game, seed)
    n = ref.num_seats
    players = [await Client.connect(url, f"p{i}", record=True) for i in range(n)]
    spectator = await Client.connect(url, "spectator", record=True)
    clients = [*players, spectator]
    try:
        st = await players[0].create(game, seed=seed, hands=hands, clock_ms=120_000)
        assert st.seat == 0
        await spectator.watch(st.room)
        for i in range(1, n):
            await players[i].join(st.room, i)
        rng = random.Random(seed)
        reference: list[list[Any]] = []
        entitled: list[list[Counter[int]]] = []  # per hand, per seat
        prompts = 0
        for h in range(hands):
            g = games.create(game, seed, hand=h)
            ent = [Counter[int]() for _ in range(n + 1)]

            def note(g: Any = g, ent: list[Counter[int]] = ent) -> None:
                pub = Counter(g.public())
                for s in range(n):
                    ent[s] |= pub + Counter(g.concealed(s))
                ent[n] |= pub

            note()
            while not g.is_over:
                seat = rng.choice(sorted(g.to_act()))
                legal = g.legal(seat)
                ctl = players[g.controller(seat)]
                action = random_action(g, seat, rng)
                while True:
                    p = await _prompt_for(ctl, seat, legal.options)
                    assert p.mask == legal.mask
                    try:
                        await ctl.act(p, action.code, action.cards)
                        break
                    except ServerError:  # a stale prompt, withdrawn and re-issued meanwhile
                        ctl.prompts.pop(p.prompt_id, None)
                g.apply(seat, action)
                prompts += 1
                note()
            reference.append(list(g.events))
            entitled.append(ent)
        for c in clients:
            async with asyncio.timeout(10):
                while not any(isinstance(f, Result) and f.final for f in c.log):
                    await c.recv()
        return {"n": n, "clients": clients, "reference": reference, "entitled": entitled, "prompts": prompts}
    finally:
        for c in clients:
            await c.close()


def check(run: dict[str, Any]) -> int:
    n, reference, entitled = run["n"], run["reference"], run["entitled"]
    frames = 0
    for who, c in enumerate(run["clients"]):
        seat = who if who < n else None
        hand = 0
        got: list[list[tuple[Any, ...]]] = [[] for _ in reference]
        seqs = []
        for f in c.log:
            frames += 1
            if isinstance(f, Result):
                hand = f.hand + 1
                continue  # a RESULT reveals every hand: that is its purpose
            if isinstance(f, RoomState):
                assert f.seat == seat and f.view == {}, "joined before the deal: nothing to show yet"
                continue
            if hand < len(reference):
                allowed = entitled[hand][who]
                # (a PROMPT's options may hold bridge calls, not cards: they are compared
                # with the reference game's legal options instead, in lockstep)
                seen = card_bytes(getattr(f, "cards", b""))
                assert not seen - allowed, f"{type(f).__name__} to seat {seat} leaks {seen - allowed}: {f}"
            if isinstance(f, Event):
                seqs.append(f.seq)
                if f.code not in ROOM_ONLY:
                    got[hand].append((f.code, f.seat, f.cards, f.arg))
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "sequence numbers are consecutive"
        for h, events in enumerate(reference):
            want = [(e.code, e.seat, e.cards, e.arg) for e in (x.seen_by(seat) for x in events)]
            assert got[h] == want, f"seat {seat} hand {h}: events differ from the reference game's"
    return frames


@pytest.mark.parametrize("game", games.names())
async def test_no_frame_leaks_hidden_cards(served: Served, game: str) -> None:
    frames = prompts = hidden = 0
    for seed in range(SEEDS):
        run = await lockstep(served.url, game, seed, hands=2 if seed == 0 else 1)
        frames += check(run)
        prompts += run["prompts"]
        hidden += sum(
            1 for c in run["clients"] for f in c.log if isinstance(f, Event) and f.cards and set(f.cards) == {HIDDEN}
        )
    print(f"{game}: {SEEDS} seeds, {prompts} prompts answered, {frames} frames checked, {hidden} face-down events")
    assert prompts > 0 and frames > 0
