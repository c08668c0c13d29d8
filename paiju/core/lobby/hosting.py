"""The lobby's rooms: CREATE_ROOM (the table it asks for, within the server's bounds and the
address's), JOIN (an invite link: the first free seat, else watch), QUICK_PLAY (a waiting room
of the game and ruleset with a free seat, else a new one), LIST_ROOMS, and the new match of a
rematch accepted by all.

>>> from paiju.core.config import Limits
>>> from paiju.core.lobby.common import Common
>>> hosting: Hosting[Any] = Hosting(Common(Limits(), secret=b"k"))
>>> hosting.robot_for("tricks", None), hosting.robot_for("tricks", "greedy")
('random', 'greedy')
"""

from __future__ import annotations

import secrets
from collections import deque
from typing import Generic, Literal, TypedDict

from paiju import games
from paiju.core.config import FALLBACK_CLOCK_MS, Limits, rank_robots
from paiju.core.lifecycle import Phase
from paiju.core.lobby.common import Common, Player, R
from paiju.core.lobby.messages import Feed, Open
from paiju.core.messages import Conn
from paiju.core.table import Enter, Observer, Roster, Table
from paiju.core.table.messages import Rematched
from paiju.games import Rules
from paiju.protocol import (
    CreateRoom,
    ErrorCode,
    Frame,
    Join,
    ListRooms,
    LobbyError,
    QuickPlay,
    RematchOffer,
    RematchState,
    RoomInfo,
    RoomList,
)


class Opened(TypedDict):
    """The arguments of a new :class:`Table` that its lobby gives (the room's own come from
    CREATE_ROOM, quick play or the match before a rematch)."""

    limits: Limits
    reply_to: str
    created: float
    logged: bool
    log_events: bool
    now: float
    epoch: float
    observer: Observer
    roster: Roster


class Hosting(Generic[R]):
    """The rooms lobby ``c`` hosts (see the module's docstring)."""

    def __init__(self, c: Common[R]) -> None:
        self.c = c

    def listing(self, conn: Conn, f: ListRooms, others: list[RoomInfo]) -> None:
        """LIST_ROOMS: this node's public rooms and ``others`` (the other nodes')."""
        c = self.c
        c.send(conn, RoomList((c.public_rooms(f.game) + others)[:200]))

    def go(self, conn: Conn, p: Player, f: CreateRoom | Join | QuickPlay) -> None:
        c = self.c
        if isinstance(f, Join):
            room = c.rooms.get(f.room)
            if room is None or room.closed:
                raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
            c.free(p)
            # an invite link: the first free seat, else watch
            seat: int | Literal["any"] | None = "any" if f.first_free else f.seat
            c.out.append(Feed(room.id, Enter(p.id, p.name, conn, seat, rematch=conn in c.rematching), f))
        elif isinstance(f, CreateRoom):
            self._create(conn, p, f, f)
        else:
            self._quickplay(conn, p, f)

    # ------------------------------------------------------------------ rooms
    def _create(self, conn: Conn, p: Player, f: CreateRoom, ref: Frame, *, quickplay: bool = False) -> None:
        c = self.c
        c.free(p)
        addr = c.address_of.get(conn, "")
        t = self.table(f, quickplay)
        self._count_room(addr)
        c.room_address[t.id] = addr
        c.out.append(Open(t))
        c.out.append(Feed(t.id, Enter(p.id, p.name, conn, "any", rematch=conn in c.rematching), ref))

    def _count_room(self, addr: str) -> None:
        """A room is created from ``addr`` (LobbyError TOO_MANY_ROOMS: over its bounds)."""
        c = self.c
        lim, now = c.limits, c.now
        if lim.address_rooms and sum(1 for a in c.room_address.values() if a == addr) >= lim.address_rooms:
            raise LobbyError(
                ErrorCode.TOO_MANY_ROOMS, f"{lim.address_rooms} open rooms created from one address at most"
            )
        if len(c.created_at) > 1_000:  # addresses quiet for a minute are forgotten
            for a in [a for a, q in c.created_at.items() if not q or q[-1] < now - 60]:
                del c.created_at[a]
        recent = c.created_at.setdefault(addr, deque())
        while recent and recent[0] < now - 60:
            recent.popleft()
        if lim.address_rooms_per_minute and len(recent) >= lim.address_rooms_per_minute:
            raise LobbyError(
                ErrorCode.TOO_MANY_ROOMS,
                f"{lim.address_rooms_per_minute} rooms a minute from one address at most; try again in "
                f"{max(1, round(recent[0] + 60 - now))} s",
            )
        recent.append(now)

    def robot_for(self, game: str, wanted: str | None) -> str | None:
        """The robot a room of ``game`` gets for ``wanted`` (None: the strongest; None back:
        no robot of that name)."""
        c = self.c
        known = list(c.robots(game)) if c.robots is not None else None
        if wanted is not None:
            return wanted if known is None or wanted in known else None
        if not known:
            return "random"
        return rank_robots(known)[0]

    def table(self, f: CreateRoom, quickplay: bool = False) -> Table:
        """The table CREATE_ROOM asks for (LobbyError BAD_ROOM_OPTIONS or ROOM_FULL: none)."""
        c = self.c

        def bad(msg: str) -> LobbyError:
            return LobbyError(ErrorCode.BAD_ROOM_OPTIONS, msg)

        lim = c.limits
        if f.game not in games.names():
            raise bad(f"no game {f.game!r}; known: {', '.join(games.names())}")
        try:
            n, rules = games.shape(f.game, f.ruleset)
        except KeyError as e:
            raise bad(str(e).strip("\"'")) from None
        boards = 1
        # a bridge room without deals of its own plays the server's (paiju serve --pbn)
        pbn = f.pbn if f.pbn is not None else (c.config.pbn if f.game == "bridge" else None)
        if pbn is not None:
            try:
                rules, boards = pbn_rules(f.game, rules, pbn)
            except ValueError as e:
                raise bad(str(e)) from None
        hands = f.hands if f.hands is not None else min(boards, lim.max_hands)
        if not 1 <= hands <= lim.max_hands:
            raise bad(f"hands must be 1..{lim.max_hands}")
        clock = f.clock_ms if f.clock_ms is not None else c.config.clocks.get(f.game, FALLBACK_CLOCK_MS)
        if not lim.min_clock_ms <= clock <= lim.max_clock_ms:
            raise bad(f"clock_ms must be {lim.min_clock_ms}..{lim.max_clock_ms}")
        bots = sorted(set(f.bots))
        if any(b >= n for b in bots):
            raise bad(f"{f.game} has seats 0..{n - 1}")
        robot = self.robot_for(f.game, f.robot)
        if robot is None:
            raise bad(f"no robot {f.robot!r} for {f.game}")
        if len(f.robots) > n or any(name is not None and s not in bots for s, name in enumerate(f.robots)):
            raise bad(f"robots names a robot for each of the seats in bots, at most {n}")
        for name in f.robots:
            if name is not None and self.robot_for(f.game, name) is None:
                raise bad(f"no robot {name!r} for {f.game}")
        if len(c.rooms) >= lim.max_rooms:
            raise LobbyError(ErrorCode.ROOM_FULL, "the server has as many rooms as it may hold")
        return Table(
            self._room_id(f.private),
            f.game,
            rules,
            seed=f.seed if f.seed is not None else secrets.randbits(63),
            hands=hands,
            clock_ms=clock,
            # the game's time bank, unless the room sets its own clock
            bank_ms=c.config.banks.get(f.game, 0) if f.clock_ms is None else 0,
            bots=bots,
            robot=robot,
            robots=list(f.robots),
            private=f.private,
            quickplay=quickplay,
            **self._opened(),
        )

    def _opened(self) -> Opened:
        """What a table this lobby opens takes from it."""
        c = self.c
        return {
            "limits": c.limits,
            "reply_to": c.reply_to,
            "created": c.epoch + c.now,
            "logged": c.logged,
            "log_events": c.log_events,
            "now": c.now,
            "epoch": c.epoch,
            "observer": c.observer,
            "roster": c.roster,
        }

    def _room_id(self, private: bool) -> str:
        """A new room's id: for a private room (its link is the way in) 64 random bits in 11
        URL-safe base64 characters (16 hex digits had cost every EVENT and PROMPT 5 bytes
        more), else "r" and 6 hex digits."""
        c = self.c
        while True:
            rid = secrets.token_urlsafe(8) if private else "r" + secrets.token_hex(3)
            if rid not in c.rooms and not c.taken(rid):
                return rid

    @staticmethod
    def ruleset(f: QuickPlay) -> str:
        try:
            ruleset = str(games.get(f.game).ruleset(f.ruleset).name) if f.game in games.names() else None
        except KeyError:
            ruleset = None
        if ruleset is None:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, f"no game {f.game!r} with ruleset {f.ruleset!r}")
        return ruleset

    def waiting(self, game: str, ruleset: str) -> R | None:
        """A waiting quick-play room of ``game`` and ``ruleset`` with a free seat."""
        c = self.c
        for room in c.rooms.values():
            t = room.table
            if (
                t.quickplay
                and t.phase is Phase.WAITING
                and not room.closed
                and t.game_name == game
                and t.ruleset == ruleset
                and t.free_seats()
            ):
                return room
        return None

    def _quickplay(self, conn: Conn, p: Player, f: QuickPlay) -> None:
        """A waiting quick-play room of the game and ruleset with a free seat, else a new one
        (the directory, asked before, found none on the other nodes)."""
        c = self.c
        c.free(p)
        ruleset = self.ruleset(f)
        room = self.waiting(f.game, ruleset)
        if room is not None:
            join = Enter(p.id, p.name, conn, "any", quick=True, rematch=conn in c.rematching)
            c.out.append(Feed(room.id, join, f))
        else:
            self._create(conn, p, CreateRoom(f.game, ruleset), f, quickplay=True)

    def rematch(self, m: Rematched) -> None:
        """A new match for those who accepted a rematch, in a new room with the old one's
        settings and a new seed: mahjong's and Niujiu's players move one seat on (the first
        seat of the deal changes hands), bridge keeps its partnerships; the seat of one who
        left, or who went to another room meanwhile, goes to a robot."""
        c = self.c
        old = c.rooms.get(m.room)
        if old is None:
            return
        t = old.table
        rotate = 1 if t.game_name in ("mahjong", "niujiu") else 0
        seated: dict[int, tuple[Player, Conn]] = {}
        for s, (pid, _name, conn) in m.humans.items():
            p = c.players.get(pid)
            if p is not None and p.room is None and p.conn == conn:
                seated[(s + rotate) % t.n] = (p, conn)
        if not seated or len(c.rooms) >= c.limits.max_rooms:
            return
        robots = [t.robot_of((s - rotate) % t.n) if s not in seated else None for s in range(t.n)]
        new = Table(
            self._room_id(t.private),
            t.game_name,
            t.rules,
            seed=secrets.randbits(63),
            hands=t.hands,
            clock_ms=t.clock_ms,
            bank_ms=t.bank_ms,
            bots=[s for s in range(t.n) if s not in seated],
            robot=t.default_robot,
            robots=robots,
            private=t.private,
            **self._opened(),
        )
        c.room_address[new.id] = c.room_address.get(m.room, "")
        c.out.append(Open(new))
        told = RematchOffer(m.room, RematchState.ACCEPTED, 0, sorted(m.humans), new.id)
        for _pid, _name, conn in m.humans.values():
            if conn in c.conns:
                c.send(conn, told)
        for s, (p, conn) in sorted(seated.items()):
            c.out.append(Feed(new.id, Enter(p.id, p.name, conn, s, rematch=conn in c.rematching)))


def pbn_rules(game: str, base: Rules, text: str) -> tuple[Rules, int]:
    """CREATE_ROOM's ``pbn``: the rules that play the file's deals (hand h plays deal h mod
    their number) and the number of deals; ValueError with the message for BAD_ROOM_OPTIONS.

    >>> pbn_rules("niujiu", games.get("niujiu").ruleset(), "")
    Traceback (most recent call last):
    ...
    ValueError: pbn: PBN deals are for bridge rooms only, not niujiu
    >>> pbn_rules("bridge", games.get("bridge").ruleset(), '[Board "1"] [Deal "N:AKQ"]')
    Traceback (most recent call last):
    ...
    ValueError: pbn: line 1: Deal: a deal has four hands, not 1
    """
    if game != "bridge":
        raise ValueError(f"pbn: PBN deals are for bridge rooms only, not {game}")
    from paiju.games.bridge import BridgeRules
    from paiju.games.bridge.pbn import read_pbn, rules_from_pbn

    assert isinstance(base, BridgeRules)
    try:
        boards = read_pbn(text)
        rules = rules_from_pbn(boards, base)
    except ValueError as e:  # PbnError, whose message starts with "line N:"
        raise ValueError(f"pbn: {e}") from None
    return rules, len(boards)
