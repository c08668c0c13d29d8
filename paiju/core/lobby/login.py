"""Who plays as whom: HELLO (a new player, or a resume with its signed token, the database
asked for a session's account or whether a guest's name is an account's, the other nodes for a
token's player in no room here) and ACCOUNT (register, login, logout; failed logins throttled per
name and address, never locking the owner out).

>>> from paiju.core.config import Limits
>>> from paiju.core.lobby.common import Common
>>> from paiju.core.lobby.people import People
>>> from paiju.protocol import VERSION
>>> c: Common[Any] = Common(Limits(), secret=b"k")
>>> c.conns[1] = None
>>> Login(c, People(c)).hello(1, Hello(VERSION, "ann"))
>>> [type(f.frame).__name__ for f in c.out], c.conns[1].name
(['Welcome'], 'ann')
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Generic

from paiju.core import tokens
from paiju.core.lobby.common import Common, Player, R
from paiju.core.lobby.messages import (
    Answer,
    CatchUp,
    CloseConn,
    Failed,
    Feed,
    Identified,
    Looked,
    Lookup,
    SessionsListed,
)
from paiju.core.lobby.people import People
from paiju.core.messages import Conn, Send
from paiju.core.social import clean
from paiju.core.table import ROBOT_SUFFIX, Resume
from paiju.core.throttle import seconds
from paiju.protocol import (
    VERSION,
    Account,
    ErrorCode,
    Feature,
    Hello,
    Identity,
    LobbyError,
    ProtocolError,
    SessionList,
    Sessions,
    Token,
    Welcome,
)


class Login(Generic[R]):
    """HELLO and ACCOUNT for lobby ``c`` (see the module's docstring)."""

    def __init__(self, c: Common[R], people: People[R]) -> None:
        self.c = c
        self.people = people

    # ------------------------------------------------------------------ HELLO
    def hello(self, conn: Conn, f: Hello) -> None:
        c = self.c
        if c.conns.get(conn) is not None:
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        if f.version != VERSION:
            raise ProtocolError(
                ErrorCode.BAD_VERSION, f"this server speaks protocol version {VERSION}, not {f.version}"
            )
        name = clean(f.name)  # no control or format characters, no spaces at its ends (as chat lines)
        if name.casefold().endswith(ROBOT_SUFFIX):  # a person is never taken for a robot (ROOM_STATE's seats)
            raise ProtocolError(
                ErrorCode.BAD_FIELD, f"name: {f.name!r} ends as a robot seat's name does ({ROBOT_SUFFIX!r})"
            )
        if name != f.name:  # (an empty one: a guest name is given at WELCOME)
            f = replace(f, name=name)
        if f.session is not None and not c.accounts:
            raise LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        pid = self._token(f)
        player = c.players.get(pid) if pid is not None else None
        # a resume token is no session: a resumed player plays as its account only when the HELLO
        # brings the account's session too (the database checks it)
        kept = player.extra.get("account") if player is not None and f.session is not None else None
        account = kept if isinstance(kept, str) else None
        # a token's player in no room here may be in another node's room: the directory knows
        ask = pid if c.directory and pid is not None and (player is None or player.room is None) else None
        # the database: a session's account, or whether a guest's name is an account's
        check = c.accounts and (f.session is not None or (account is None and bool(f.name)))
        if ask is None and not check:
            self.welcome(conn, f, account or "")
        else:
            c.out.append(Lookup(conn, f, player=ask, account=account))

    def _token(self, f: Hello) -> str | None:
        c = self.c
        if f.token is None:
            return None
        pid = tokens.verify(c.secret, f.token, now=c.epoch + c.now)
        if pid is None:
            raise LobbyError(ErrorCode.BAD_TOKEN, "the resume token is not valid (signature or expiry)")
        p = c.players.get(pid)
        if p is not None and p.token is not None and p.token != tokens.digest(f.token):
            raise LobbyError(
                ErrorCode.BAD_TOKEN, "the resume token has ended (a newer one replaced it, or the player left)"
            )
        return pid

    def welcome(self, conn: Conn, f: Hello, account: str) -> None:
        c = self.c
        if c.conns.get(conn) is not None:  # another HELLO was done meanwhile
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO was already done on this connection")
        pid = self._token(f)
        player = c.players.get(pid) if pid is not None else None
        if pid is not None and player is None and not c.directory:  # forgotten: it left, or its wait ran out
            raise LobbyError(ErrorCode.BAD_TOKEN, "the resume token has ended: its player is no longer here")
        if player is None:  # new, or (several nodes) a player another node sent here (REDIRECT)
            pid = pid or secrets.token_hex(8)
            player = c.players[pid] = Player(pid, f.name or f"guest-{pid[:4]}")  # never nameless
        old = player.conn
        if old is not None and old != conn:
            if old in c.conns:
                c.conns[old] = None
            c.out.append(CloseConn(old, 1008, "replaced by a newer connection of the same player"))
        player.conn = conn
        player.name = f.name or player.name
        c.conns[conn] = player
        c.expiring.pop(player.id, None)
        if account:
            become(player, account, f.session)
        elif "account" in player.extra:  # a resume without the account's session: a guest
            as_guest(player, f.name)
        token = c.new_token(player)
        if f.features & Feature.REMATCH:
            c.rematching.add(conn)
        c.out.append(Send(conn, Welcome(player.id, token, VERSION, f.features & (Feature.BATCH | Feature.REMATCH))))
        if account:
            c.out.append(Send(conn, Identity(account, True, None)))
        if player.room is not None:
            resume = Resume(player.id, conn, f.last_seq, rematch=conn in c.rematching)
            c.out.append(Feed(player.room, resume))
        elif player.ended is not None:
            ended = c.rooms.get(player.ended) or c.finished.get(player.ended)
            if ended is not None:
                c.out.append(CatchUp(ended, player.id, conn, f.last_seq))
        self.people.trim()

    # ------------------------------------------------------------------ ACCOUNT
    def checked(self, m: Looked) -> None:
        """An ACCOUNT's check is done (whatever became of its connection): the throttle counts it."""
        c, conn, f, a = self.c, m.conn, m.frame, m.answer
        checked = c.checking.pop(conn, None) if isinstance(f, Account) and f.op != "logout" else None
        if checked is not None and isinstance(f, Account):
            addr, owner = checked
            c.throttle.finish(addr)
            if f.name is not None and not owner:  # the owner's own logins count for nothing
                failed = isinstance(a, Failed) and a.error.code == ErrorCode.BAD_LOGIN
                c.throttle.record(f.name, addr, c.now, ok=not failed)

    def account(self, conn: Conn, p: Player, f: Account) -> None:
        c = self.c
        if not c.accounts:
            raise LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        if f.op == "logout":
            if "account" not in p.extra:
                raise LobbyError(ErrorCode.WRONG_STATE, "not logged in")
            session = p.extra.get("session")
            c.out.append(Lookup(conn, f, session=session if isinstance(session, str) else None))
            return
        if f.op not in ("register", "login"):
            raise LobbyError(ErrorCode.BAD_ACCOUNT, f"op is 'register', 'login' or 'logout', not {f.op!r}")
        if f.name is None or f.password is None:
            raise LobbyError(ErrorCode.BAD_ACCOUNT, f"{f.op} needs a name and a password")
        if conn in c.checking:
            raise LobbyError(ErrorCode.RATE_LIMITED, "this connection's last ACCOUNT is still being checked")
        addr = c.address_of.get(conn, "")
        # a connection that holds a session of the account (its owner) is never slowed
        owner = isinstance(p.extra.get("account"), str) and p.extra["account"].casefold() == f.name.casefold()
        wait = 0.0 if owner else c.throttle.wait(f.name, addr, c.now)
        if wait > 0:  # the same answer whether the name is an account's or not
            raise LobbyError(ErrorCode.RATE_LIMITED, f"too many failed logins: try again in {seconds(wait)} s")
        if not c.throttle.start(addr, exempt=owner):  # each check holds a hashing thread for a while
            raise LobbyError(ErrorCode.RATE_LIMITED, "a password check from this address is under way: try again soon")
        c.checking[conn] = (addr, owner)
        c.out.append(Lookup(conn, f, rank=0 if owner else c.throttle.failures(addr)))

    def identified(self, conn: Conn, f: Account, a: Answer) -> None:
        c = self.c
        p = c.player(conn)
        if isinstance(a, Failed):
            raise a.error
        assert isinstance(a, Identified)
        if a.account is None:
            self.logged_out(conn, p)
        else:
            become(p, a.account, a.session)
            c.out.append(Send(conn, Identity(a.account, True, a.session)))

    def logged_out(self, conn: Conn, p: Player) -> None:
        """``p`` plays as a guest from now on; its resume token ends (TOKEN gives the next)."""
        as_guest(p)
        self.c.send(conn, Identity(p.name, False, None))
        self.c.send(conn, Token(self.c.new_token(p)))

    # ------------------------------------------------------------------ SESSIONS
    def sessions(self, conn: Conn, p: Player, f: Sessions) -> None:
        """List (and end) the sessions of the account ``p`` plays as: the database's."""
        if not self.c.accounts:
            raise LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        session = p.extra.get("session")
        if not isinstance(session, str):
            raise LobbyError(ErrorCode.WRONG_STATE, "not logged in: sessions are an account's")
        self.c.out.append(Lookup(conn, f, session=session))

    def listed(self, conn: Conn, a: SessionsListed) -> None:
        """SESSIONS carried out: its list, and the connections of the sessions it ended logged out."""
        c = self.c
        c.send(conn, SessionList(a.sessions))
        ended = set(a.ended)
        for q in list(c.conns.values()):
            s = q.extra.get("session") if q is not None else None
            if q is not None and q.conn is not None and isinstance(s, str) and tokens.digest(s) in ended:
                self.logged_out(q.conn, q)


def as_guest(player: Player, name: str = "") -> None:
    """``player`` plays as a guest from now on, named ``name`` (else ``guest-`` and its id's start)."""
    player.extra.pop("account", None)
    player.extra.pop("session", None)
    player.name = name or f"guest-{player.id[:4]}"


def become(player: Player, account: str, session: str | None) -> None:
    """``player`` plays as ``account`` from now on."""
    player.extra["account"] = account
    if session is not None:
        player.extra["session"] = session
    player.name = account
