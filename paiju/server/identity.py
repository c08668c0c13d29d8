"""Who a connection plays as: the database's side of HELLO and ACCOUNT (paiju/core/lobby/
decides; the shell asks here and hands the answer back to the lobby).

HELLO with ``session`` (a token from an earlier IDENTITY) plays as that account; HELLO without
one is a guest, whose name may not be an account's (NAME_TAKEN: log in to use it). ACCOUNT
registers, logs in or logs out; SESSIONS lists the account's sessions and ends one; each
ACCOUNT answer is an IDENTITY frame, the first two with a new
session token that the client keeps (the web client in localStorage, so that a login survives
a browser restart). The account's name is kept in ``player.extra["account"]`` and its session
token in ``player.extra["session"]`` (in memory only: the database has its hash).

Without a database (a server built without records) there are only guests: ACCOUNT and a
HELLO with a session get NO_ACCOUNTS (the lobby answers them). Refusals are raised as
:class:`protocol.LobbyError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiju.core.lobby import Identified, Player, SessionsListed
from paiju.protocol import Account, ErrorCode, Hello, LobbyError, SessionInfo, Sessions
from paiju.records import accounts
from paiju.records.accounts import AccountError

if TYPE_CHECKING:
    from paiju.records import Database

# AccountError codes -> ERROR codes
ERRORS = {
    "bad_name": ErrorCode.BAD_ACCOUNT,
    "bad_password": ErrorCode.BAD_ACCOUNT,
    "name_taken": ErrorCode.NAME_TAKEN,
    "wrong_password": ErrorCode.BAD_LOGIN,
    "bad_session": ErrorCode.BAD_LOGIN,
    "no_session": ErrorCode.BAD_ACCOUNT,
}


def account_of(player: Player) -> str | None:
    """The account ``player`` plays as (None: a guest)."""
    name = player.extra.get("account")
    return name if isinstance(name, str) else None


def _refused(e: AccountError) -> LobbyError:
    return LobbyError(ERRORS[e.code], e.message)


async def check_hello(db: Database, f: Hello, resumed: str | None) -> str:
    """The account a HELLO plays as ("" for a guest); LobbyError if refused (no WELCOME then).

    ``resumed`` is the account of the player a valid resume token names, if any: it keeps it."""
    if f.session is not None:
        try:
            acc = await accounts.resume(db, f.session)
        except AccountError as e:
            raise _refused(e) from None
        return acc.name
    if resumed is not None:
        return resumed
    if f.name and await accounts.exists(db, f.name):
        raise LobbyError(ErrorCode.NAME_TAKEN, f"the name {f.name!r} belongs to an account: log in to use it")
    return ""


async def account_op(db: Database, f: Account, session: str | None, rank: int = 0) -> Identified:
    """Register, log in (the lobby checked the frame's fields) or log out (of ``session``);
    ``rank``: the password check's turn (lower first: paiju.records.accounts)."""
    if f.op == "logout":
        if session is not None:
            await accounts.logout(db, session)
        return Identified(None)
    assert f.name is not None and f.password is not None
    try:
        if f.op == "register":
            acc, token = await accounts.register(db, f.name, f.password, rank=rank)
        else:
            acc, token = await accounts.login(db, f.name, f.password, rank=rank)
    except AccountError as e:
        raise _refused(e) from None
    return Identified(acc.name, token)


async def sessions_op(db: Database, f: Sessions, session: str) -> SessionsListed:
    """SESSIONS: the account's sessions after ending the one ``f`` names (``session``: the
    connection's own)."""
    try:
        listing, ended = await accounts.sessions(db, session, f.end)
    except AccountError as e:
        raise _refused(e) from None
    infos = [SessionInfo(sid, int(created), int(expires), current) for sid, created, expires, current in listing]
    return SessionsListed(infos, tuple(ended))
