"""Hidden information: in one room per game and seed, a player in every seat and a spectator
record every frame the room sends them (in-process: the lobby's core and the tables,
tests/server/lobbykit.py; what the wire adds is the codec's, tested in tests/protocol).
The test rebuilds the game from the seed
with paiju.games.registry, drives all seats itself in lockstep (so the server applies exactly its
actions, in its order) and checks that

- every EVENT a seat receives is exactly the reference game's event as that seat sees it
  (``GameEvent.seen_by``), in order, with consecutive sequence numbers; spectators likewise;
- every card byte an EVENT carries before the hand's RESULT is one that seat was entitled
  to at some point of the hand (its concealed cards or the public ones);
- every PROMPT answered had exactly the reference game's legal options.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from paiju import games
from paiju.core.config import Limits
from paiju.games.testing import card_bytes, random_action
from paiju.protocol import Action, CreateRoom, Error, Event, Join, Prompt, Result, RoomEvent, RoomState
from paiju.protocol.cards import HIDDEN

from .lobbykit import Kit

ROOM_ONLY = {RoomEvent.SEAT, RoomEvent.TIMEOUT, RoomEvent.ROBOT, RoomEvent.HAND_END, RoomEvent.MATCH_END}
SEEDS = 30


def _prompt_for(k: Kit, conn: int, seat: int) -> Prompt:
    """The prompt in force for ``seat`` as ``conn`` (its controller) was sent it."""
    pending = {q.seat: q.id for q in k.pending(conn)}
    return next(f for f in reversed(k.frames[conn]) if isinstance(f, Prompt) and f.prompt_id == pending.get(seat))


def lockstep(game: str, seed: int, hands: int) -> dict[str, Any]:
    ref = games.create(game, seed)
    n = ref.num_seats
    k = Kit(limits=Limits(hand_pause=0))
    players = list(range(n))
    spectator = n
    for i in players:
        k.hello(i, f"p{i}")
    k.hello(spectator, "spectator")
    got = k.send(0, CreateRoom(game, seed=seed, hands=hands, clock_ms=120_000))
    st = next(f for f in got if isinstance(f, RoomState))
    assert st.seat == 0
    k.send(spectator, Join(st.room))
    for i in range(1, n):
        k.send(i, Join(st.room, i))
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
            p = _prompt_for(k, ctl, seat)
            assert (p.mask, tuple(p.options)) == (legal.mask, legal.options)
            answer = k.send(ctl, Action(p.prompt_id, action.code, action.cards))
            assert not any(isinstance(f, Error) for f in answer), answer
            g.apply(seat, action)
            prompts += 1
            note()
        reference.append(list(g.events))
        entitled.append(ent)
    logs = [k.frames[c] for c in [*players, spectator]]
    for log in logs:
        assert any(isinstance(f, Result) and f.final for f in log)
    return {"n": n, "logs": logs, "reference": reference, "entitled": entitled, "prompts": prompts}


def check(run: dict[str, Any]) -> int:
    n, reference, entitled = run["n"], run["reference"], run["entitled"]
    frames = 0
    for who, log in enumerate(run["logs"]):
        seat = who if who < n else None
        hand = 0
        got: list[list[tuple[Any, ...]]] = [[] for _ in reference]
        seqs = []
        for f in log:
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
def test_no_frame_leaks_hidden_cards(game: str) -> None:
    frames = prompts = hidden = 0
    for seed in range(SEEDS):
        run = lockstep(game, seed, hands=2 if seed == 0 else 1)
        frames += check(run)
        prompts += run["prompts"]
        hidden += sum(
            1 for log in run["logs"] for f in log if isinstance(f, Event) and f.cards and set(f.cards) == {HIDDEN}
        )
    print(f"{game}: {SEEDS} seeds, {prompts} prompts answered, {frames} frames checked, {hidden} face-down events")
    assert prompts > 0 and frames > 0
