"""Every call explained: the auction read one call at a time by the bidding system
(:mod:`paiju.games.bridge.bidding`), and each call's meaning in words.

The game explains each call as it is made (its echo event carries the text to every seat,
spectators and replays: the meaning of a call is public), so the reading must cost little on
the server's event loop: :class:`Reading` keeps the promises read so far and reads only the new
call, where :func:`~paiju.games.bridge.bidding.read_auction` reads the whole auction again (and
caches every auction it has seen, which suits a robot's short-lived process, not a server).
A human's calls are read by the same rows as a robot's: the text is what a robot partner
understood.

>>> from paiju.protocol.cards import parse_call
>>> r = Reading.start(dealer=0)
>>> for call in ("1NT", "P", "2C"):
...     r = r.add(parse_call(call))
>>> r.explained[0]
'balanced, no five-card major; 13-15 points, 2-5 clubs, 2-5 diamonds, 2-4 hearts, 2-4 spades'
>>> r.explained[1], r.explained[2]
('no other call of the system fits', 'Stayman, forcing; 9+ points')
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from paiju.games.bridge.bidding import CURRENT, Promise, Summary, _readings, agreed, context, explain, forced

MAX_TEXT = 300
"""The longest explanation sent (characters): a long auction's ROOM_STATE stays small."""
KEPT = 1024
"""Readings kept, the most recently used (an auction's calls are some 10 to 30 of them)."""
_KEPT: OrderedDict[tuple[int, tuple[int, ...], str], Reading] = OrderedDict()


@dataclass(frozen=True)
class Reading:
    """The auction read so far, seat by seat (immutable: :meth:`add` gives a new reading, so a
    copied game shares it safely)."""

    dealer: int
    calls: tuple[int, ...]
    promises: tuple[Promise, ...]
    summaries: tuple[Summary, ...]  # what each seat (0 N .. 3 W) has promised so far; never mutated
    explained: tuple[str, ...]  # each call's meaning, in order
    tables: str = CURRENT

    @classmethod
    def start(cls, dealer: int, tables: str = CURRENT) -> Reading:
        """The reading before the first call of an auction that ``dealer`` opens."""
        return cls(dealer, (), (), tuple(Summary() for _ in range(4)), (), tables)

    def add(self, call: int) -> Reading:
        """The reading with ``call`` (a call byte, paiju.protocol.cards) read after the others:
        the same promise as :func:`~paiju.games.bridge.bidding.read_auction` gives it. The last
        :data:`KEPT` readings are kept: a game replayed from its log (a room rebuilt, a
        replay, a copy) reads its auction once."""
        key = (self.dealer, (*self.calls, call), self.tables)
        got = _KEPT.get(key)
        if got is not None:
            _KEPT.move_to_end(key)
            return got
        got = _KEPT[key] = self._read(call)
        if len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
        return got

    def _read(self, call: int) -> Reading:
        i = len(self.calls)
        seat = (self.dealer + i) % 4
        ctx = context(
            self.calls,
            [self.summaries[(seat + k) % 4] for k in range(4)],
            agreed(self.promises, seat),
            forced(self.promises, self.tables),
            self.promises,
        )
        p = Promise(seat, i, call, ctx, tuple(_readings(ctx, call, self.tables)))
        mine = self.summaries[seat].copy()
        mine.narrow(p.summary())
        summaries = tuple(mine if s == seat else self.summaries[s] for s in range(4))
        text = words(p)
        return Reading(
            self.dealer, (*self.calls, call), (*self.promises, p), summaries, (*self.explained, text), self.tables
        )


def words(p: Promise) -> str:
    """The text of one call: :func:`~paiju.games.bridge.bidding.explain`, a pass whose rows say
    nothing named as such, and at most :data:`MAX_TEXT` characters."""
    text = explain(p) or NOTHING
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


NOTHING = "no other call of the system fits"
"""The text of a call whose rows promise nothing (a pass over an opening without a hand for
any call)."""
