"""What goes into a :class:`~paiju.core.table.Table` and what comes out of it.

Inputs (:data:`TableIn`): people coming and going (:class:`Enter`, :class:`Exit`, :class:`Drop`,
:class:`Resume`, :class:`SwapSeat`), answers to prompts (:class:`Reply` from a player,
:class:`Decide` from a robot), the clock (:class:`Tick`), a table rebuilt from its log
(:class:`Restored`), what was worked out from a deal outside (:class:`Extra`) and table talk
(:class:`SayLine`, :class:`MuteName`, :class:`AnswerRematch`).

Outputs (:data:`TableOut`): frames for connections (:class:`Send`), requests for the robots
(:class:`Publish`), the room's log (:class:`Append`, :class:`SealLog`), what the lobby is handed
as it is (:class:`Bound`, :class:`Unbound`, :class:`Rematched`), a deal to work on (:class:`Dealt`), a hand
for the replays (:class:`Archive`), a refusal for the sender (:class:`Refused`) and the end of the
room (:class:`Close`).

>>> Enter("p1", "ann", conn=7)
Enter(player='p1', name='ann', conn=7, seat='any', quick=False, rematch=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from paiju import games
from paiju.core.messages import Conn, Send, Tick
from paiju.core.roomlog import Entry
from paiju.games import GameAction
from paiju.protocol import DecisionRequest, Event, PaijuError, Result


# ------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Enter:
    """Player ``player`` takes ``seat`` ("any": the first free seat, else watch; None: watch)."""

    player: str
    name: str
    conn: Conn
    seat: int | Literal["any"] | None = "any"
    quick: bool = False  # quick play: a room with no free seat is ROOM_FULL, not a seat to watch from
    rematch: bool = False  # the connection answers rematch offers (HELLO's Feature.REMATCH)


@dataclass(frozen=True)
class Exit:
    """The player leaves (a seat in play is then played by a robot)."""

    player: str
    conn: Conn


@dataclass(frozen=True)
class Drop:
    """The connection ``conn`` of the player closed (it may resume within the grace period)."""

    player: str
    conn: Conn


@dataclass(frozen=True)
class Resume:
    """The player is back on connection ``conn``, having seen the events up to ``last_seq``."""

    player: str
    conn: Conn
    last_seq: int | None = None
    rematch: bool = False  # the connection answers rematch offers (HELLO's Feature.REMATCH)


@dataclass(frozen=True)
class Reply:
    """A seated player's answer to prompt ``prompt_id``."""

    player: str
    conn: Conn
    prompt_id: int
    action: GameAction


@dataclass(frozen=True)
class Decide:
    """A robot's answer for ``seat`` to prompt ``prompt_id`` (from the bus)."""

    seat: int
    prompt_id: int
    action: GameAction


@dataclass(frozen=True)
class Restored:
    """First input of a table rebuilt from its log (:meth:`Table.restore`)."""


@dataclass(frozen=True)
class Extra:
    """What was computed outside the table from hand ``hand``'s deal (:class:`Dealt`), for
    its RESULT's detail (bridge's par, the trick game's solved value): merged when it comes
    before the hand ends, else ignored here (the shell gives it to the records)."""

    hand: int
    detail: dict[str, Any]


@dataclass(frozen=True)
class SayLine:
    """The player says ``text`` in the room's chat (paiju/core/social.py)."""

    player: str
    conn: Conn
    text: str


@dataclass(frozen=True)
class MuteName:
    """The player stops (``on``) or starts again hearing the chat lines of ``name``."""

    player: str
    conn: Conn
    name: str
    on: bool = True


@dataclass(frozen=True)
class AnswerRematch:
    """A human's answer to the rematch offered after the match."""

    player: str
    conn: Conn
    accept: bool


@dataclass(frozen=True)
class SwapSeat:
    """The room's creator gives the free ``seat`` to a robot (``robot``), or frees a robot's."""

    player: str
    conn: Conn
    seat: int
    robot: bool


TableIn = (
    Enter
    | Exit
    | Drop
    | Resume
    | Reply
    | Decide
    | Tick
    | Restored
    | Extra
    | SayLine
    | MuteName
    | AnswerRematch
    | SwapSeat
)


# ------------------------------------------------------------------ outputs
# Not frozen, with slots, as Send: a busy room makes several of these a move. Read only.
@dataclass(slots=True)
class Publish:
    """A robot plays the seat: this request goes on the bus."""

    request: DecisionRequest

    def __init__(self, request: DecisionRequest) -> None:  # (written out: see paiju.core.messages.Send)
        self.request = request


@dataclass(slots=True)
class Append:
    """An entry for the room's log (only from a table made with ``logged=True``)."""

    entry: Entry

    def __init__(self, entry: Entry) -> None:  # (written out: see paiju.core.messages.Send)
        self.entry = entry


@dataclass(frozen=True)
class SealLog:
    """The match is over: the log is complete and the room is not one to rebuild."""


@dataclass(frozen=True)
class Bound:
    """The player is now in room ``room``, at ``seat`` (None: watching); an input of the lobby
    as it is."""

    room: str
    player: str
    name: str
    seat: int | None


@dataclass(frozen=True)
class Unbound:
    """The player is no longer in room ``room`` (free to join another); an input of the lobby
    as it is."""

    room: str
    player: str


@dataclass(frozen=True)
class Close:
    """The table is done: nothing more will come out of it."""


@dataclass(frozen=True)
class Refused:
    """The input (of a connection) was refused: answer ``error`` to its sender."""

    error: PaijuError


@dataclass(frozen=True)
class Archive:
    """A hand is over: its events with every card face up and its RESULT, for replays (served
    only now that the hand is over, when every seat's cards are open to all)."""

    hand: int
    seats: list[str | None]  # the seats' names when it was dealt
    totals: list[int]  # the match's scores before it
    events: list[Event]
    result: Result


@dataclass(frozen=True)
class Dealt:
    """Hand ``hand`` is dealt (``game``, read only): what is slow to work out from the deal
    may start now, outside the table, and come back as :class:`Extra`."""

    hand: int
    game: games.Game[Any]


@dataclass(frozen=True)
class Rematched:
    """Every human still at room ``room``'s table accepted the rematch: the lobby (an input of
    it as it is) opens the new match with them (``humans``: seat -> (player, name,
    connection)); the seats of those who left (``left``) go to robots."""

    room: str
    humans: dict[int, tuple[str, str, Conn]]
    left: frozenset[int]


TableOut = Send | Publish | Append | SealLog | Bound | Unbound | Close | Refused | Archive | Dealt | Rematched
