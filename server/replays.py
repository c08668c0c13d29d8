"""Finished hands kept for replay: ``GET /replay/ROOM/HAND.msgpack`` gives one hand as the
frames a spectator received, so that the web client steps through it with the same code
that draws a live table (``/?replay=ROOM/HAND``).

A replay is one msgpack array of frames (each the array SPEC.md §1 describes): a ROOM_STATE
of the table before the hand (a spectator's, with an empty view that the hand's events
fill), every EVENT of the hand as a spectator saw it (hidden cards as ``0x00``), and the
hand's RESULT, which reveals every hand. Only finished hands are kept, so no card that was
hidden while the hand was played is ever served before its end. Sans-I/O: the room core
gives :meth:`Replays.add` the frames, the HTTP side reads :meth:`Replays.get`.

>>> from protocol import Event, Result, decode
>>> r = Replays(keep=1)
>>> r.add("r1", "tricks", "standard", 0, ["ann", None], [0, 0], [Event("r1", 1, 1, 0, b"", 0)],
...       Result("r1", 0, [1, -1], [1, -1], [b"", b""], True, {}))
>>> [type(decode(f)).__name__ for f in unpack(r.get("r1", 0))]
['RoomState', 'Event', 'Result']
>>> r.add("r2", "tricks", "standard", 0, [None, None], [0, 0], [], Result("r2", 0, [0, 0], [0, 0], [b"", b""], True))
>>> r.get("r1", 0) is None, r.get("r2", 0) is not None  # the oldest went
(True, True)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import msgpack

from protocol import Event, Result, RoomState, encode


class Replays:
    """The last ``keep`` finished hands of this server, by room and hand number."""

    def __init__(self, keep: int = 2_000) -> None:
        self.keep = keep
        self._hands: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def add(
        self,
        room: str,
        game: str,
        ruleset: str,
        hand: int,
        seats: Sequence[str | None],
        scores: Sequence[int],
        events: Sequence[Event],
        result: Result,
    ) -> None:
        """Keep hand ``hand`` of ``room``: the seats' names and the match scores before it,
        its events as a spectator received them, and its RESULT."""
        first = events[0].seq - 1 if events else 0
        head = RoomState(room, game, ruleset, None, first, hand, list(seats), list(scores), {})
        frames = [encode(head), *(encode(e) for e in events), encode(result)]
        packer = msgpack.Packer()
        self._hands[(room, hand)] = packer.pack_array_header(len(frames)) + b"".join(frames)
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
