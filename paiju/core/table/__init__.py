"""The room's core, sans-I/O: one match of one game at one table, driven by typed inputs.

A :class:`Table` takes one input (:data:`TableIn`, paiju/core/table/messages.py) with the time
``now`` and returns what must happen outside (:data:`TableOut`). It reads no clock and does no
I/O: the asyncio shell (paiju/server/room.py) feeds it and carries out its outputs, and the
tests drive it directly. A connection is whatever handle the caller passes (the shell's
Connection, a test's int): the table only compares it and hands it back.

The table routes each input to one of its parts, each in its module:

- ``common``: what every part reads (settings, seats, watchers, phase, game, scores, outputs);
- ``seating``: players and watchers entering, leaving, dropping, resuming, swapping seats;
- ``prompts``: the pending prompt of each seat to act, sent to its controller or its robot;
- ``standins``: robots standing in for human seats, and the pace of the robots' answers;
- ``match``: hands dealt, answers applied, hands and the match ended, the table closed;
- ``stream``: the events, numbered, sent as each seat sees them, kept for resumes and archives;
- ``clocks``: the deadlines, and the :class:`Tick` that runs those due;
- ``talk``: the room's chat and the rematch offered after the match.

A refusal (:class:`paiju.protocol.PaijuError`: a lobby or a game error) comes out last, as
:class:`Refused`, for the caller to answer to whoever sent the input; what the input changed
before the refusal (a robot handing the seat back) stands and its outputs come before it.

>>> t = Table("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, bots=[1], robot="random")
>>> out = t.handle(Enter("p1", "ann", conn=7), now=0.0)
>>> t.phase.value, [type(o).__name__ for o in out][:4]
('playing', ['Bound', 'Send', 'Dealt', 'Send'])
"""

from paiju.core.messages import Conn, Send, Tick
from paiju.core.table.common import ALL_SERVED, ROBOT_SUFFIX, UNOBSERVED, Observer, Roster, SeatState, Unobserved
from paiju.core.table.messages import (
    AnswerRematch,
    Append,
    Archive,
    Bound,
    Close,
    Dealt,
    Decide,
    Drop,
    Enter,
    Exit,
    Extra,
    MuteName,
    Publish,
    Refused,
    Rematched,
    Reply,
    Restored,
    Resume,
    SayLine,
    SealLog,
    SwapSeat,
    TableIn,
    TableOut,
    Unbound,
)
from paiju.core.table.prompts import Pending
from paiju.core.table.table import Table

__all__ = [
    "ALL_SERVED",
    "ROBOT_SUFFIX",
    "UNOBSERVED",
    "AnswerRematch",
    "Append",
    "Archive",
    "Bound",
    "Close",
    "Conn",
    "Dealt",
    "Decide",
    "Drop",
    "Enter",
    "Exit",
    "Extra",
    "MuteName",
    "Observer",
    "Pending",
    "Publish",
    "Refused",
    "Rematched",
    "Reply",
    "Restored",
    "Resume",
    "Roster",
    "SayLine",
    "SealLog",
    "SeatState",
    "Send",
    "SwapSeat",
    "Table",
    "TableIn",
    "TableOut",
    "Tick",
    "Unbound",
    "Unobserved",
]
