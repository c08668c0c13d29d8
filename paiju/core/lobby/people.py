"""The lobby's players and connections: a connection opening (counted by address, over the
address's bound it is refused whatever it sends first) and closing (its player's room is told:
a drop), what the rooms' tables say of their players (:class:`Bound`, :class:`Unbound`), rooms
closing or moving away, and the one place where players are forgotten: one with neither a
connection nor a room, unless an ended room waits for its resume (then after the grace period).

>>> from paiju.core.config import Limits
>>> from paiju.core.lobby.common import Common
>>> c: Common[Any] = Common(Limits(address_connections=1), secret=b"k")
>>> people = People(c)
>>> people.connect(Connect(1, "10.0.0.1")); people.connect(Connect(2, "10.0.0.1"))
>>> c.per_address["10.0.0.1"], c.over
(2, {2})
"""

from __future__ import annotations

from typing import Generic

from paiju.core.lifecycle import Phase
from paiju.core.lobby.common import Common, Player, R
from paiju.core.lobby.messages import CloseConn, Connect, Evict, Feed, RoomClosed
from paiju.core.messages import Conn
from paiju.core.table import Drop, Exit
from paiju.core.table.messages import Bound, Unbound
from paiju.protocol import Token


class People(Generic[R]):
    """The players and connections of lobby ``c`` (see the module's docstring)."""

    def __init__(self, c: Common[R]) -> None:
        self.c = c

    # ------------------------------------------------------------------ connections
    def connect(self, m: Connect) -> None:
        c = self.c
        c.conns[m.conn] = None
        c.address_of[m.conn] = m.address
        c.per_address[m.address] += 1
        cap = c.limits.address_connections
        if cap > 0 and c.per_address[m.address] > cap:
            c.over.add(m.conn)  # whatever it sends first is answered with the refusal

    def disconnect(self, conn: Conn) -> None:
        c = self.c
        addr = c.address_of.pop(conn, None)
        if addr is not None:
            c.per_address[addr] -= 1
            if c.per_address[addr] <= 0:
                del c.per_address[addr]
        c.over.discard(conn)
        c.rematching.discard(conn)
        p = c.conns.pop(conn, None)
        if p is not None and p.conn == conn:
            p.conn = None
            if p.room is not None:
                c.out.append(Feed(p.room, Drop(p.id, conn)))
            elif p.ended is not None and p.ended in c.rooms:
                # the match ended but its room may still offer a rematch: the others hear at once
                c.out.append(Feed(p.ended, Drop(p.id, conn)))
            self.release(p)

    def release(self, p: Player) -> None:
        """Forget a player with neither connection nor room (its token would make a new
        record); one an ended room waits for (:class:`CatchUp`) is kept for the grace period.
        The one place where players are forgotten."""
        c = self.c
        if p.conn is not None or p.room is not None or c.players.get(p.id) is not p:
            return
        if p.ended is None:
            del c.players[p.id]
            c.expiring.pop(p.id, None)
            c.leaving.discard(p.id)
        else:
            c.expiring.setdefault(p.id, c.now + c.limits.grace)

    def trim(self) -> None:
        """Players with neither a connection nor a room are only kept for their resume
        tokens' sake; past a bound the oldest go (a token then starts a fresh record)."""
        c = self.c
        if len(c.players) > 4 * c.limits.max_connections:
            for pid in [k for k, v in c.players.items() if v.conn is None and v.room is None]:
                del c.players[pid]
                c.expiring.pop(pid, None)

    def tick(self) -> None:
        """Forget the players whose wait for a resume has run out, and the ended rooms that
        nobody waits for any more."""
        c = self.c
        for pid in [p for p, at in c.expiring.items() if at <= c.now]:
            del c.expiring[pid]
            p = c.players.get(pid)
            if p is not None:
                p.ended = None
                self.release(p)
        waited = {p.ended for p in c.players.values()}
        for rid in [r for r in c.finished if r not in waited]:
            del c.finished[rid]

    # ------------------------------------------------------------------ from the rooms
    def bound(self, m: Bound) -> None:
        c = self.c
        p = c.players.get(m.player)
        if p is None:  # a player of a room rebuilt from its log
            p = c.players[m.player] = Player(m.player, m.name)
        if p.ended is not None and p.ended != m.room and p.conn is not None and c.here(p.ended):
            # gone to another room while its ended match offers a rematch: that goes on without it
            c.out.append(Feed(p.ended, Exit(p.id, p.conn)))
        p.room, p.seat, p.ended = m.room, m.seat, None
        c.expiring.pop(p.id, None)

    def unbound(self, m: Unbound) -> None:
        c = self.c
        p = c.players.get(m.player)
        if p is None or p.room != m.room:
            return
        p.room, p.seat = None, None
        room = c.rooms.get(m.room)
        over = room is not None and room.table.phase is Phase.OVER  # its match is over
        if p.conn is None:  # gone for good: its token ends with it
            del c.players[p.id]
            c.expiring.pop(p.id, None)
        else:
            if over:
                p.ended = m.room
            if p.id in c.leaving or not over:  # it left: the seat session is over, its token too
                c.send(p.conn, Token(c.new_token(p)))
        c.leaving.discard(p.id)

    def room_closed(self, m: RoomClosed) -> None:
        c = self.c
        room = c.rooms.pop(m.room, None)
        c.room_address.pop(m.room, None)
        if room is not None and any(p.ended == m.room for p in c.players.values()):
            c.finished[m.room] = room  # kept for those who may resume from it

    def evict(self, m: Evict) -> None:
        c = self.c
        c.rooms.pop(m.room, None)
        c.room_address.pop(m.room, None)
        for p in list(c.players.values()):
            if p.room == m.room:
                p.room, p.seat = None, None
                if p.conn is not None:
                    c.out.append(CloseConn(p.conn, 1012, m.why))
                else:
                    self.release(p)
