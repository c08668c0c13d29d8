"""A hand's records reach the records once, at the hand's end (paiju/server/recording.py's
Follower keeps the hand's actions meanwhile), and they are the records that the room's log,
written one entry a move (the log ``--redis`` appends to Redis), gives for that hand: the same
actions in order, scores, revealed hands and detail, over random matches of the four games,
and also when the server restarts at any entry and follows the rebuilt room
(``Follower.restored``)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju import games
from paiju.core import roomlog
from paiju.core.table import Append
from paiju.protocol import RoomEvent
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder
from paiju.server.recording import Follower

from .tablekit import Driver


class Kept:
    """What a Follower hands the records (the Recorder's two calls), kept in order."""

    def __init__(self) -> None:
        self.hands: list[HandRecord] = []
        self.ends: list[tuple[tuple[int, ...], bool]] = []

    def hand_ended(self, info: MatchInfo, hand: HandRecord, seats: list[SeatHolder]) -> None:
        self.hands.append(hand)

    def match_ended(self, info: MatchInfo, seats: list[SeatHolder], totals: list[int], *, complete: bool) -> Any:
        self.ends.append((tuple(totals), complete))


def match_log(game: str, seed: int, hands: int, *, log_events: bool = True) -> list[roomlog.Entry]:
    """The log of a match of ``hands`` hands: Ann in seat 0 and robots, random legal moves
    (``log_events=False``: only the entries the records read, as a server without a room store logs)."""
    n = games.create(game, seed).num_seats
    d = Driver.new(game, seed=seed, hands=hands, bots=list(range(1, n)), logged=True, log_events=log_events)
    d.join("ann", 0)
    rng = random.Random(seed)
    for _ in range(20_000):
        if d.table.phase.name == "OVER" or not (d.answer_robots(rng) or d.random_answer("ann", rng)):
            break
    assert d.table.phase.name == "OVER", f"{game} seed {seed}: the match did not end"
    # the head first, as the server writes it when the room opens (paiju/server/host.py)
    return [d.table.head(), *(o.entry for o in d.outputs if isinstance(o, Append))]


def per_move(head: roomlog.Head, written: list[bytes]) -> list[HandRecord]:
    """Each hand's record as the log written one entry a move gives it: the room rebuilt from
    the log up to the hand's HAND_END (its actions, its RESULT)."""
    out = []
    for i, data in enumerate(written):
        e = roomlog.unpack(data)
        if e[0] == "ev" and e[2] == int(RoomEvent.HAND_END) and e[7] is not None:
            r = roomlog.replay("r1", written[: i + 1])
            res = r.results[-1]
            actions = [(s, a.code, a.cards) for s, a in r.game.log]
            out.append(HandRecord(res.hand, actions, res.scores, res.hands, dict(res.detail)))
    return out


def same(a: HandRecord, b: HandRecord) -> bool:
    return (a.hand, list(a.actions), list(a.scores), list(a.revealed), a.detail) == (
        b.hand,
        [(s, c, bytes(x)) for s, c, x in b.actions],
        list(b.scores),
        list(b.revealed),
        b.detail,
    )


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(games.names())),
    seed=st.integers(0, 2**31 - 1),
    hands=st.integers(1, 2),
    cut=st.floats(0, 1),
)
def test_a_hands_records_are_the_same_written_per_move_or_per_hand(
    game: str, seed: int, hands: int, cut: float
) -> None:
    entries = match_log(game, seed, hands)
    head = entries[0]
    assert isinstance(head, roomlog.Head)
    written = [roomlog.pack(e) for e in entries]  # one write a move, as the room's log
    reference = per_move(head, written)
    assert [h.hand for h in reference] == list(range(hands))

    # per hand: one record at each hand's end
    kept = Kept()
    follower = Follower(kept, "r1", head, {})  # type: ignore[arg-type]
    for e in entries[1:]:
        follower.feed(e)
    assert len(kept.hands) == hands
    assert all(same(a, b) for a, b in zip(kept.hands, reference, strict=True))
    assert kept.ends == [(tuple(roomlog.replay("r1", written).totals), True)]

    # a server without a room store: its tables log only what the records read, fewer
    # entries, and the records are the same
    lean_entries = match_log(game, seed, hands, log_events=False)
    assert len(lean_entries) < len(entries)
    lean = Kept()
    follower = Follower(lean, "r1", head, {})  # type: ignore[arg-type]
    for e in lean_entries[1:]:
        follower.feed(e)
    assert len(lean.hands) == hands and all(same(a, b) for a, b in zip(lean.hands, reference, strict=True))
    assert lean.ends == kept.ends

    # the server restarts after entry k: the records of the hands ended before it and those
    # of the rebuilt room's follower are the same records
    k = 1 + int(cut * (len(entries) - 1))
    before, after = Kept(), Kept()
    first = Follower(before, "r1", head, {})  # type: ignore[arg-type]
    for e in entries[1:k]:
        first.feed(e)
    rebuilt = Follower.restored(after, roomlog.replay("r1", written[:k]), {}, lambda g, r: f"{r}@1")  # type: ignore[arg-type]
    for e in entries[k:]:
        rebuilt.feed(e)
    both = before.hands + after.hands
    assert len(both) == hands and all(same(a, b) for a, b in zip(both, reference, strict=True))
