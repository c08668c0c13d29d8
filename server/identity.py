"""Who a connection plays as: a guest (a display name, no account) or a registered account.

HELLO with ``session`` (a token from an earlier IDENTITY) plays as that account; HELLO without
one is a guest, whose name may not be an account's (NAME_TAKEN: log in to use it). ACCOUNT
registers, logs in or logs out; each answer is an IDENTITY frame, the first two with a new
session token that the client keeps (the web client in localStorage, so that a login survives
a browser restart). The account's name is kept in ``player.extra["account"]`` and its session
token in ``player.extra["session"]`` (in memory only: the database has its hash).

Without a database (a server built without records) there are only guests: ACCOUNT and a
HELLO with a session get NO_ACCOUNTS. Refusals are raised as :class:`protocol.LobbyError`
(the server's reader answers them with ERROR).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import Account, ErrorCode, Hello, Identity, LobbyError
from records import accounts
from records.accounts import AccountError

from .connection import Connection
from .room import Player

if TYPE_CHECKING:
    from records import Database

# AccountError codes -> ERROR codes
ERRORS = {
    "bad_name": ErrorCode.BAD_ACCOUNT,
    "bad_password": ErrorCode.BAD_ACCOUNT,
    "name_taken": ErrorCode.NAME_TAKEN,
    "wrong_password": ErrorCode.BAD_LOGIN,
    "bad_session": ErrorCode.BAD_LOGIN,
}


def account_of(player: Player) -> str | None:
    """The account ``player`` plays as (None: a guest)."""
    name = player.extra.get("account")
    return name if isinstance(name, str) else None


def _refused(e: AccountError) -> LobbyError:
    return LobbyError(ERRORS[e.code], e.message)


def _no_accounts() -> LobbyError:
    return LobbyError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")


async def check_hello(db: Database | None, f: Hello, resumed: Player | None) -> str:
    """The account a HELLO plays as ("" for a guest); LobbyError if refused (no WELCOME then).

    ``resumed`` is the player a valid resume token names, if any: it keeps its account."""
    if f.session is not None:
        if db is None:
            raise _no_accounts()
        try:
            acc = await accounts.resume(db, f.session)
        except AccountError as e:
            raise _refused(e) from None
        return acc.name
    account = account_of(resumed) if resumed is not None else None
    if account is not None:
        return account
    if db is not None and f.name and await accounts.exists(db, f.name):
        raise LobbyError(ErrorCode.NAME_TAKEN, f"the name {f.name!r} belongs to an account: log in to use it")
    return ""


def become(player: Player, account: str, session: str | None) -> None:
    """``player`` plays as ``account`` from now on."""
    player.extra["account"] = account
    if session is not None:
        player.extra["session"] = session
    player.name = account


async def account_frame(db: Database | None, conn: Connection, player: Player, f: Account) -> None:
    """Register, log in or log out: IDENTITY, or LobbyError naming why not."""
    if db is None:
        raise _no_accounts()
    if f.op == "logout":
        if "account" not in player.extra:
            raise LobbyError(ErrorCode.WRONG_STATE, "not logged in")
        del player.extra["account"]
        session = player.extra.pop("session", None)
        if isinstance(session, str):
            await accounts.logout(db, session)
        player.name = f"guest-{player.id[:4]}"
        conn.send(Identity(player.name, False, None))
        return
    if f.op not in ("register", "login"):
        raise LobbyError(ErrorCode.BAD_ACCOUNT, f"op is 'register', 'login' or 'logout', not {f.op!r}")
    if f.name is None or f.password is None:
        raise LobbyError(ErrorCode.BAD_ACCOUNT, f"{f.op} needs a name and a password")
    try:
        if f.op == "register":
            acc, token = await accounts.register(db, f.name, f.password)
        else:
            acc, token = await accounts.login(db, f.name, f.password)
    except AccountError as e:
        raise _refused(e) from None
    become(player, acc.name, token)
    conn.send(Identity(acc.name, True, token))
