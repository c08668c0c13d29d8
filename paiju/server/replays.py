"""Finished hands kept for replay: ``GET /replay/ROOM/HAND.msgpack`` gives one hand as the
frames a spectator would have received with every card face up, so that the web client steps
through it with the same code that draws a live table (``/?replay=ROOM/HAND``), showing every
seat's hand from the deal on (as BBO's hand records and Tenhou's replays do).

A replay is one msgpack array of frames (each the array SPEC.md §1 describes): a ROOM_STATE
of the table before the hand (a spectator's, with an empty view that the hand's events
fill), every EVENT of the hand with its cards as dealt, drawn and played (none as ``0x00``),
and the hand's RESULT. Only finished hands are kept, so no card that was hidden while the
hand was played is ever served before its end. Sans-I/O: the room core
gives :meth:`Replays.add` the frames, the HTTP side reads :meth:`Replays.get`.

A hand of a match kept in the records database is served the same
way, ``GET /api/matches/ID/HAND.msgpack``: :func:`from_record` deals it again from the match's
seed and rules and applies its stored actions, so the web client has one replay viewer for
both (``/?match=ID/HAND``).

>>> from paiju.protocol import Event, Result, decode
>>> r = Replays(keep=1)
>>> r.add("r1", 0, pack("r1", "tricks", "standard", 0, ["ann", None], [0, 0], [Event("r1", 1, 1, 0, b"", 0)],
...       Result("r1", 0, [1, -1], [1, -1], [b"", b""], True, {})))
>>> [type(decode(f)).__name__ for f in unpack(r.get("r1", 0))]
['RoomState', 'Event', 'Result']
>>> none = Result("r2", 0, [0, 0], [0, 0], [b"", b""], True)
>>> r.add("r2", 0, pack("r2", "tricks", "standard", 0, [None, None], [0, 0], [], none))
>>> r.get("r1", 0) is None, r.get("r2", 0) is not None  # the oldest went
(True, True)
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import msgpack

from paiju import games
from paiju.games import GameAction, GameError
from paiju.protocol import Event, Result, RoomState, encode
from paiju.records import Database, matches
from paiju.records.models import PLAYING

STORED = re.compile(r"/api/matches/(\d{1,18})/(\d{1,9})\.msgpack")
"""The path of a stored match's hand as replay frames: match id, hand number."""


def pack(
    room: str,
    game: str,
    ruleset: str,
    hand: int,
    seats: Sequence[str | None],
    scores: Sequence[int],
    events: Sequence[Event],
    result: Result,
    encoded: Callable[[Event], bytes] = encode,
) -> bytes:
    """One hand's replay: a spectator's ROOM_STATE before the hand, its events, its RESULT.
    ``encoded``: the bytes of an event (those already encoded for its receivers)."""
    first = events[0].seq - 1 if events else 0
    head = RoomState(room, game, ruleset, None, first, hand, list(seats), list(scores), {})
    frames = [encode(head), *map(encoded, events), encode(result)]
    header: bytes = msgpack.Packer().pack_array_header(len(frames))
    return header + b"".join(frames)


async def stored(db: Database, match_id: int, hand: int) -> bytes | None:
    """The replay of hand ``hand`` of stored match ``match_id`` (None: no such match or hand)."""
    try:
        record = await matches.match(db, match_id)
    except matches.NotFound:
        return None
    if record["status"] == PLAYING:  # its room's id stays unsaid while it plays (a private room's way in)
        record = record | {"room": ""}
    try:
        return from_record(record, hand)
    except (GameError, ValueError, IndexError):  # a record that does not replay (altered): none to show
        return None


def from_record(record: dict[str, Any], hand: int) -> bytes | None:
    """The replay of hand ``hand`` of a stored match (``paiju.records.matches.match``'s dict), or
    None if the match has no such finished hand. The events are the game's own, every card
    face up (the room's SEAT, ROBOT and TIMEOUT events are not stored)."""
    hands = record["hands"]
    k = next((i for i, h in enumerate(hands) if h["hand"] == hand), None)
    if k is None:
        return None
    room = str(record["room"])
    g = games.create(record["game"], record["seed"], matches.rules_of(record), hand=hand)
    game_events = list(g.events)
    for seat, code, cards in hands[k]["actions"]:
        game_events += g.apply(int(seat), GameAction(int(code), bytes.fromhex(cards)))
    events = [Event(room, i, e.code, e.seat, e.cards, e.arg, e.text) for i, e in enumerate(game_events, 1)]
    before = [sum(h["scores"][s] for h in hands[:k]) for s in range(g.num_seats)]
    out = g.outcome()
    # the stored detail's additions (a bridge board's PBN and par, a deal's solved value) are
    # plain JSON values; the outcome's own detail is made again, with its bytes as bytes
    detail = {**hands[k]["detail"], **out.detail}
    totals = [b + s for b, s in zip(before, out.scores, strict=True)]
    final = record["status"] == "over" and k == len(hands) - 1
    result = Result(room, hand, list(out.scores), totals, list(out.hands), final, detail)
    names = [s["name"] for s in sorted(record["seats"], key=lambda s: s["seat"])]
    return pack(room, record["game"], record["ruleset"], hand, names, before, events, result)


class Replays:
    """The last ``keep`` finished hands of this server, by room and hand number."""

    def __init__(self, keep: int = 2_000) -> None:
        self.keep = keep
        self._hands: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def add(self, room: str, hand: int, replay: bytes) -> None:
        """Keep hand ``hand`` of ``room``: its replay as :func:`pack` made it."""
        self._hands[(room, hand)] = replay
        self._hands.move_to_end((room, hand))
        while len(self._hands) > self.keep:
            self._hands.popitem(last=False)

    def get(self, room: str, hand: int) -> bytes | None:
        """The replay of a finished hand (a msgpack array of frames), or None."""
        return self._hands.get((room, hand))


def unpack(data: bytes | None) -> list[bytes]:
    """The frames of a replay, each encoded on its own (for tests and tools)."""
    if data is None:
        return []
    return [msgpack.packb(f, use_bin_type=True) for f in msgpack.unpackb(data, raw=False)]
