"""What goes into the :class:`~paiju.core.lobby.Lobby` and what comes out of it.

Inputs (:data:`LobbyIn`): connections opening and closing (:class:`Connect`,
:class:`Disconnect`), client frames (:class:`Received`, or :class:`Garbled` when refused unread),
the answers to its questions (:class:`Looked`), what the rooms' tables say of their players as
they say it (:class:`~paiju.core.table.messages.Bound`,
:class:`~paiju.core.table.messages.Unbound`, :class:`~paiju.core.table.messages.Rematched`),
rooms closing or moving away (:class:`RoomClosed`, :class:`Evict`) and the clock (:class:`Tick`).

Outputs (:data:`LobbyOut`): frames to send (:class:`Send`), refusals (:class:`Refuse`), inputs for a
room's table (:class:`Feed`), a room to open (:class:`Open`), a resume's catch-up from an ended
room (:class:`CatchUp`), connections to close (:class:`CloseConn`) and questions for the database
or the other nodes (:class:`Lookup`, answered with :class:`Looked`).

>>> Connect(1, "10.0.0.1")
Connect(conn=1, address='10.0.0.1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from paiju.core.messages import Conn, Send, Tick
from paiju.core.table import Table
from paiju.core.table.messages import Bound, Rematched, TableIn, Unbound
from paiju.protocol import Error, Frame, PaijuError, RoomInfo, SessionInfo


class RoomHandle(Protocol):
    """What the lobby reads of a room the shell registers (paiju/server/room.py's Room)."""

    @property
    def id(self) -> str: ...
    @property
    def table(self) -> Table: ...
    @property
    def closed(self) -> bool: ...


# ------------------------------------------------------------------ inputs
# Read only, all of them; those made for every frame (Received, Feed, Send) are not frozen but
# have slots: a frozen dataclass's __init__ costs several times as much on the hot path.
@dataclass(frozen=True)
class Connect:
    """A connection opened from ``address`` (the client's IP: the per-address limits count by it)."""

    conn: Conn
    address: str


@dataclass(slots=True)
class Received:
    """A client frame, decoded and admitted (its type is a client's, its rate within bounds)."""

    conn: Conn
    frame: Frame

    def __init__(self, conn: Conn, frame: Frame) -> None:  # (written out: see paiju.core.messages.Send)
        self.conn = conn
        self.frame = frame


@dataclass(frozen=True)
class Garbled:
    """A client frame refused before the lobby could read it (not decodable, a server's frame,
    over the rate): ``error`` answers it (``ref_type``: its type, ``ref_id``: its prompt id or
    nonce, when readable)."""

    conn: Conn
    error: PaijuError
    ref: Frame | None = None
    ref_type: int | None = None
    ref_id: int | None = None


@dataclass(frozen=True)
class Checked:
    """A HELLO's account, checked in the database ("" for a guest)."""

    account: str


@dataclass(frozen=True)
class Identified:
    """An ACCOUNT frame carried out: the player plays as ``account`` (None: logged out), with
    this new ``session`` token (register and login)."""

    account: str | None
    session: str | None = None


@dataclass(frozen=True)
class Listed:
    """The other nodes' public rooms, for LIST_ROOMS."""

    rooms: list[RoomInfo]


@dataclass(frozen=True)
class Go:
    """Nothing stands in the way (the directory: the request is this node's to serve)."""


@dataclass(frozen=True)
class Failed:
    """The lookup refused the request (:class:`protocol.Moved`: it is another node's)."""

    error: PaijuError


@dataclass(frozen=True)
class SessionsListed:
    """SESSIONS carried out: the account's sessions now, and the digests of the session
    tokens it ended (the connections playing as them are logged out)."""

    sessions: list[SessionInfo]
    ended: tuple[str, ...] = ()


Answer = Checked | Identified | Listed | Go | Failed | SessionsListed


@dataclass(frozen=True)
class Looked:
    """The answer to the :class:`Lookup` that ``frame`` of ``conn`` needed."""

    conn: Conn
    frame: Frame
    answer: Answer


@dataclass(frozen=True)
class Disconnect:
    """The connection closed."""

    conn: Conn


@dataclass(frozen=True)
class RoomClosed:
    """The room closed: it leaves the directory."""

    room: str


@dataclass(frozen=True)
class Evict:
    """The room stopped here (it moved to another node): its players go, their connections
    closed with ``why`` (they resume on the room's new node)."""

    room: str
    why: str


LobbyIn = Connect | Received | Garbled | Looked | Disconnect | Bound | Unbound | RoomClosed | Evict | Tick | Rematched


# ------------------------------------------------------------------ outputs
@dataclass(frozen=True)
class Refuse:
    """Answer ``error`` to ``conn``, behind what room ``room`` (the player's, if any) still
    holds for it: a refusal must not arrive before the events that explain it."""

    conn: Conn
    error: Error
    room: str | None = None


@dataclass(slots=True)
class Feed:
    """Hand ``input`` to room ``room``'s table; a refusal answers ``ref``."""

    room: str
    input: TableIn
    ref: Frame | None = None


@dataclass(frozen=True)
class Open:
    """Open a room for ``table`` (new: its log starts with ``table.head()``) and register it
    with :meth:`Lobby.add` before carrying out the next outputs."""

    table: Table


@dataclass(frozen=True)
class CatchUp:
    """A resume of ``player`` after room ``room`` ended and let it go (Room.catch_up)."""

    room: RoomHandle
    player: str
    conn: Conn
    last_seq: int | None


@dataclass(frozen=True)
class CloseConn:
    conn: Conn
    code: int
    reason: str


@dataclass(frozen=True)
class Lookup:
    """``frame`` of ``conn`` needs an answer from outside (feed it back as :class:`Looked`):

    - HELLO: the other nodes first when ``player`` (a valid token's) is in no room here
      (its room may be another node's: Failed(Moved)), then its account (Checked; ``account``
      is the one the resumed player plays as);
    - ACCOUNT: the database's answer (Identified); ``session`` is the player's to log out;
      ``rank``: the password check's turn (lower first: the address's failed logins);
    - SESSIONS: the account's sessions, after ending the one named (SessionsListed); ``session``
      is the connection's;
    - LIST_ROOMS: the other nodes' public rooms (Listed);
    - CREATE_ROOM, JOIN, QUICK_PLAY: whether this node serves it (Go; Failed(Moved)).
    """

    conn: Conn
    frame: Frame
    player: str | None = None
    account: str | None = None
    session: str | None = None
    rank: int = 0


LobbyOut = Send | Refuse | Feed | Open | CatchUp | CloseConn | Lookup
