"""What every part of a :class:`~paiju.core.table.Table` reads: the room's settings, its seats
and watchers, the match's phase, game and scores, the time of the input in hand and the outputs
it has made so far (:class:`Common`, which the table is).

>>> c = Common("r1", "tricks", None, seed=1, hands=1, clock_ms=1000, robot="random", bots=[1])
>>> c.free_seats(), c.seat_names()
([0], [None, 'random (robot)'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from paiju import games
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.messages import Conn, Send
from paiju.core.roomlog import Watchers
from paiju.core.table.messages import Append, TableOut, Unbound
from paiju.games import Rules, fairness
from paiju.protocol import Frame, RoomInfo, SeatKind

ROBOT_SUFFIX = " (robot)"  # a robot seat's name in ROOM_STATE: "NAME (robot)"; no person's name ends so


class Observer(Protocol):
    """What a table tells whoever counts (paiju/server/metrics.py's, passed in by the shell)."""

    def applied(self, game: str) -> None:
        """An action was applied to the game (a player's, a robot's or the clock's)."""

    def requested(self, game: str) -> None:
        """A robot was asked for a decision."""

    def robot_latency(self, game: str, seconds: float) -> None:
        """A robot's decision came this long after its prompt."""

    def clock_default(self, game: str, robot: bool) -> None:
        """A prompt's clock ran out (``robot``: a robot held the seat)."""


class Unobserved:
    """The observer that counts nothing (a table made without one)."""

    def applied(self, game: str) -> None:
        pass

    def requested(self, game: str) -> None:
        pass

    def robot_latency(self, game: str, seconds: float) -> None:
        pass

    def clock_default(self, game: str, robot: bool) -> None:
        pass


UNOBSERVED: Observer = Unobserved()  # typed: mypyc builds lobby.py, which reads it, with this module


class Roster(Protocol):
    """Which robots a worker serves now, as the shell knows it (its bus: paiju/bus/roster.py on
    Redis); a full room waits for its robots' worker before its first deal."""

    def serves(self, game: str, robot: str) -> bool:
        """Whether a worker serves ``robot`` of ``game`` now."""


class AllServed:
    """The roster of a bus whose robots are always served (in memory, in the server's process)."""

    def serves(self, game: str, robot: str) -> bool:
        return True


ALL_SERVED: Roster = AllServed()


@dataclass(eq=False)
class SeatState:
    kind: SeatKind = SeatKind.EMPTY
    player: str | None = None  # who holds (or held, after the match) the seat
    name: str | None = None
    member: bool = False  # the player is still in this room (false once let go after the end)
    conn: Conn | None = None  # the player's connection, while it is up
    stand_in: bool = False  # a robot stands in for this human seat for now (timeouts, or dropped)
    rematch: bool = False  # its connection answers rematch offers
    timeouts: int = 0  # consecutive
    bank: float = 0.0  # seconds of time bank left to this seat in this hand
    away_until: float | None = None

    @property
    def robot_played(self) -> bool:
        return self.kind == SeatKind.BOT or self.stand_in

    @property
    def live(self) -> Conn | None:
        """The connection that receives this seat's frames now."""
        return self.conn if self.kind == SeatKind.HUMAN else None


class Common:
    """A table's settings, people and match, shared by its parts (see the table's docstring
    for the arguments)."""

    def __init__(
        self,
        room_id: str,
        game: str,
        rules: str | Rules | None,
        *,
        seed: int,
        hands: int,
        clock_ms: int,
        robot: str,  # the keyword-only arguments without a default first: mypyc's signatures want it
        bank_ms: int = 0,
        bots: list[int] | tuple[int, ...] = (),
        robots: list[str | None] | tuple[str | None, ...] = (),
        private: bool = False,
        quickplay: bool = False,
        limits: Limits | None = None,
        now: float = 0.0,
        epoch: float = 0.0,
        reply_to: str = "",
        created: float = 0.0,
        logged: bool = False,
        log_events: bool = True,
        observer: Observer = UNOBSERVED,
        salt: bytes = b"",
        roster: Roster = ALL_SERVED,
    ) -> None:
        self.id = room_id
        self.observer = observer
        self.roster = roster
        self.waiting = ""  # why the full room's match has not started (ROOM_STATE's waiting)
        self.game_name = game
        self.seed = seed
        # the commitment to the seed every seat and spectator gets before the first deal
        # (ROOM_STATE); the final RESULT reveals seed and salt (paiju/games/fairness.py)
        self.salt = salt or fairness.new_salt()
        self.commitment = fairness.commitment(seed, self.salt)
        self.game = games.create(game, seed, rules, hand=0)
        self.rules: Rules = self.game.rules  # the whole value (a bridge room's PBN deals), not only its name
        self.ruleset = self.rules.name
        self.n = self.game.num_seats
        self.hands = hands
        self.clock_ms = clock_ms
        self.bank_ms = bank_ms
        self.default_robot = robot  # the robot of the robot seats
        self.seat_robots = tuple(robots)  # by seat: a robot seat's own robot (None or missing: the default)
        self.private = private
        self.quickplay = quickplay
        self.limits = limits if limits is not None else Limits()
        self.epoch = epoch
        self.reply_to = reply_to
        self.created = created
        self.logged = logged
        # every entry (a room store rebuilds the room from them), or only those the records
        # read (paiju/server/recording.py): the seats, each hand's deal, actions and RESULT, the
        # match's end; no other event, time bank or watcher (a move makes fewer outputs)
        self.log_events = log_events
        self.seats = [SeatState() for _ in range(self.n)]
        for b in bots:
            self.seats[b].kind = SeatKind.BOT
        self.spectators: dict[str, Conn] = {}  # the watchers connected now
        self.watchers: dict[str, str] = {}  # every watcher (connected or away) and its name
        self.watchers_away: dict[str, float] = {}  # a dropped watcher, until its grace runs out
        self.creator: str | None = None  # the first player seated: it may swap seats before the start
        self.phase = Phase.WAITING
        self.hand = 0
        self.totals = [0] * self.n
        self.closed = False
        self.now = now
        self.out: list[TableOut] = []  # what the input in hand has made so far
        self.assemble()

    def assemble(self) -> None:
        """Make the parts that share this state: none here; the table makes its own (and
        so takes this signature as it is)."""

    # ------------------------------------------------------------------ queries
    def info(self) -> RoomInfo:
        return RoomInfo(
            self.id,
            self.game_name,
            self.ruleset,
            self.seat_names(),
            [i for i, s in enumerate(self.seats) if s.kind == SeatKind.BOT],
            len(self.spectators),
            self.hands,
            self.hand,
            self.phase.value,
        )

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY]

    def seat_names(self) -> list[str | None]:
        out: list[str | None] = []
        for s in self.seats:
            if s.kind == SeatKind.BOT:
                out.append(f"{self.robot_of(len(out))}{ROBOT_SUFFIX}")
            else:
                out.append(s.name if s.player is not None else None)
        return out

    def robot_of(self, seat: int) -> str:
        """The robot that plays ``seat`` when a robot does."""
        own = self.seat_robots[seat] if seat < len(self.seat_robots) else None
        return own or self.default_robot

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` holds in this room, or None."""
        for i, s in enumerate(self.seats):
            if s.member and s.player == player:
                return i
        return None

    def humans(self) -> bool:
        """Whether a human holds a seat (connected or away)."""
        return any(s.kind in (SeatKind.HUMAN, SeatKind.AWAY) for s in self.seats)

    # ------------------------------------------------------------------ people going free
    def send(self, conn: Conn, frame: Frame) -> None:
        self.out.append(Send(conn, frame))

    def unwatch(self, player: str) -> None:
        self.spectators.pop(player, None)
        self.watchers_away.pop(player, None)
        del self.watchers[player]
        self.log_watchers()
        self.out.append(Unbound(self.id, player))

    def log_watchers(self) -> None:
        if self.logged and self.log_events:
            self.out.append(Append(Watchers(tuple(self.watchers.items()))))

    def let_go(self, st: SeatState) -> None:
        """The seat's player is no longer in this (ended) room; no event is emitted."""
        if st.player is not None and st.member:
            self.out.append(Unbound(self.id, st.player))
        st.member, st.conn, st.away_until = False, None, None
