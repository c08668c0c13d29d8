"""What every part of the :class:`~paiju.core.lobby.Lobby` reads: its settings, the players and
their connections, the rooms, the per-address counts, the time of the input in hand and the
outputs it has made so far (:class:`Common`, which the lobby is).

>>> from paiju.core.config import Limits
>>> c: Common[Any] = Common(Limits(), secret=b"k")
>>> c.conns[1] = None
>>> c.player(1)
Traceback (most recent call last):
...
paiju.protocol.errors.LobbyError: 200: send HELLO first
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from paiju.core import tokens
from paiju.core.config import Config
from paiju.core.lifecycle import Phase
from paiju.core.lobby.messages import CloseConn, LobbyOut, Refuse, RoomHandle
from paiju.core.messages import Conn, Send
from paiju.core.social import Chat, Rate
from paiju.core.table import ALL_SERVED, UNOBSERVED, Observer, Roster
from paiju.core.throttle import Throttle
from paiju.protocol import Error, ErrorCode, Frame, LobbyError, Moved, PaijuError, Redirect, RoomInfo

R = TypeVar("R", bound=RoomHandle)


@dataclass(eq=False)
class Player:
    """A person (or a client program) known by its player id across connections."""

    id: str
    name: str
    conn: Conn | None = None
    room: str | None = None  # the room it is in (seated or watching)
    seat: int | None = None  # None with a room: watching
    # The ended room that let this player go while its connection looked up: a resume catches
    # up from it (Room.catch_up), in case that link was already dead.
    ended: str | None = None
    # the digest of its one valid resume token (tokens.digest): a new one at each WELCOME and
    # after LEAVE or logout (TOKEN); None for a player this lobby learned from a room's log (a
    # restart, a takeover), whose first validly signed token is taken
    token: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Common(Generic[R]):
    """The lobby's settings, people and rooms, shared by its parts (see the lobby's docstring
    for the arguments)."""

    def __init__(
        self,
        config: Config | Any,
        *,
        secret: bytes,
        robots: Callable[[str], Sequence[str]] | None = None,
        directory: bool = False,
        accounts: bool = False,
        epoch: float = 0.0,
        reply_to: str = "",
        logged: bool = False,
        log_events: bool = True,
        taken: Callable[[str], bool] = lambda rid: False,
        throttle: Throttle | None = None,
        observer: Observer = UNOBSERVED,
        roster: Roster = ALL_SERVED,
    ) -> None:
        self.observer = observer  # the tables' (paiju/server/metrics.py)
        self.roster = roster  # which robots a worker serves now (the bus's), for the tables
        self.config: Config = config if isinstance(config, Config) else Config(limits=config)
        self.limits = self.config.limits
        self.secret = secret
        self.robots = robots
        self.directory = directory
        self.accounts = accounts
        self.epoch = epoch
        self.reply_to = reply_to
        self.logged = logged  # tables produce their log entries (a room store or the records)
        self.log_events = log_events  # all of them (a room store), or what the records read
        self.taken = taken
        lim = self.limits
        self.throttle = throttle or Throttle(base=lim.login_delay, cap=lim.login_delay_max)
        self.players: dict[str, Player] = {}
        self.conns: dict[Conn, Player | None] = {}  # every open connection, and the player it speaks for
        self.rooms: dict[str, R] = {}
        self.finished: dict[str, R] = {}  # closed rooms whose players may still resume from them
        # per client address: open connections, the address of each, the rooms created from
        # it (open ones) and when it created rooms in the last minute
        self.per_address: Counter[str] = Counter()
        self.address_of: dict[Conn, str] = {}
        self.over: set[Conn] = set()  # connections over their address's bound
        self.room_address: dict[str, str] = {}
        self.created_at: dict[str, deque[float]] = {}
        self.expiring: dict[str, float] = {}  # player -> when it is forgotten (an ended room waits for it)
        # connection -> (its address, whether it holds the account's session) while its ACCOUNT
        # is checked (paiju/core/throttle.py)
        self.checking: dict[Conn, tuple[str, bool]] = {}
        self.rematching: set[Conn] = set()  # connections that answer rematch offers (Feature.REMATCH)
        self.leaving: set[str] = set()  # players whose LEAVE their room is carrying out
        # chat lines per client address (paiju/core/social.py)
        self.chat_rate = Rate(Chat.ADDRESS_BURST, Chat.ADDRESS_REFILL_S)
        self.now = 0.0
        self.out: list[LobbyOut] = []  # what the input in hand has made so far
        self.assemble()

    def assemble(self) -> None:
        """Make the parts that share this state: none here; the lobby makes its own (and
        so takes this signature as it is)."""

    # ------------------------------------------------------------------ queries
    def room_of(self, conn: Conn) -> str | None:
        p = self.conns.get(conn)
        return p.room if p is not None else None

    def public_rooms(self, game: str | None) -> list[RoomInfo]:
        """The rooms LIST_ROOMS shows from this node (of ``game``, or all)."""
        return [
            r.table.info()
            for r in self.rooms.values()
            if not r.table.private
            and not r.closed
            and r.table.phase is not Phase.OVER
            and (game is None or r.table.game_name == game)
        ]

    def player(self, conn: Conn) -> Player:
        """The player ``conn`` speaks for (LobbyError HELLO_FIRST: none yet)."""
        p = self.conns.get(conn)
        if p is None:
            raise LobbyError(ErrorCode.HELLO_FIRST, "send HELLO first")
        return p

    def here(self, rid: str) -> bool:
        """Whether room ``rid`` is open on this node."""
        r = self.rooms.get(rid)
        return r is not None and not r.closed

    @staticmethod
    def free(p: Player) -> None:
        """A player joins or opens a room only when it is in none."""
        if p.room is not None:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, f"already in room {p.room}; leave it first")

    def new_token(self, p: Player) -> str:
        """A new resume token for ``p``: the one it had ends."""
        token = tokens.sign(self.secret, p.id, ttl=self.limits.token_ttl, now=self.epoch + self.now)
        p.token = tokens.digest(token)
        return token

    # ------------------------------------------------------------------ answers
    def send(self, conn: Conn, frame: Frame) -> None:
        self.out.append(Send(conn, frame))

    def refuse(
        self, conn: Conn, e: PaijuError, frame: Frame | None, ref_type: int | None = None, ref_id: int | None = None
    ) -> None:
        """Answer ``e`` to what ``conn`` sent (``frame``; ``ref_type``, ``ref_id``: its type and
        prompt id or nonce, when it was not decoded but they could be read)."""
        if isinstance(e, Moved):  # the room is another node's: the client goes there
            self.send(conn, Redirect.answering(e, frame))
        else:
            self.out.append(
                Refuse(conn, Error.refusing(e, frame, ref_type=ref_type, ref_id=ref_id), self.room_of(conn))
            )
        if conn in self.over:
            self.out.append(CloseConn(conn, 1013, "too many connections from this address"))
