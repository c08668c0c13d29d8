"""Accounts: names, passwords, sessions, robots.

A name is 2 to 24 letters (any script), digits, ``_``, ``-`` or ``.``, starting with a letter
or a digit; it belongs to one account whatever its case (``name_key`` is the case-folded
name). Passwords are kept as argon2id hashes (argon2-cffi; hashing runs in one of two threads
of its own, below the event loop's priority, so that the event loop never stalls on it and
password checks never take more than those two threads, however many logins come at once;
the lobby lets one check of each client address wait for them at a time, and those of the
addresses that fail a lot wait behind the others: paiju/core/throttle.py). Every login costs
one hash, whether its name is an account's or not. A session token is 256 random bits shown
once to its client; the database keeps only its SHA-256, so neither a password nor a token is
ever stored in clear. A robot's account is named ``NAME@VERSION`` (``@`` never appears in a
person's name, so the two cannot collide).

>>> check_name("Alice_2"), check_name("牛九王")
('Alice_2', '牛九王')
>>> codes = []
>>> for bad in ("a", "_x", "bob!", "heuristic@1"):
...     try:
...         check_name(bad)
...     except AccountError as e:
...         codes.append(e.code)
>>> codes
['bad_name', 'bad_name', 'bad_name', 'bad_name']
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import itertools
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from paiju.records.database import Database
from paiju.records.models import ROBOT, USER, Account, Session

T = TypeVar("T")

NAME_RE = re.compile(r"[^\W_][\w.-]{1,23}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
SESSION_TTL = 90 * 24 * 3600.0  # a login survives browser restarts for three months
# OWASP's argon2id settings (19 MiB, 2 passes, 1 lane): argon2-cffi's default (64 MiB, 4 lanes)
# costs a second of a busy 2-core server per login; hashes made with other settings are
# re-hashed at the next login (check_needs_rehash).
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
HASHING_THREADS = 2


def _below_the_loop() -> None:
    """A hashing thread runs below the event loop's priority (Linux: nice is per thread)."""
    with contextlib.suppress(OSError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + 5))


_hashing = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="argon2", initializer=_below_the_loop)


class _Hashing:
    """The hashing threads' turns: a check waits for a free thread, those of the lowest
    ``rank`` first (the lobby ranks a login by its address's failed logins, so that the
    addresses that fail a lot wait behind the others), in order of arrival within a rank."""

    def __init__(self, threads: int) -> None:
        self.free = threads
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.arrivals = itertools.count()

    async def run(self, fn: Callable[..., T], *args: Any, rank: int = 0) -> T:
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self.waiting, (rank, next(self.arrivals), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # handed a thread just now: pass it on
                    self._next()
                raise
        try:
            return await asyncio.get_running_loop().run_in_executor(_hashing, fn, *args)
        finally:
            self._next()

    def _next(self) -> None:
        """A thread is free: the next waiting check gets it."""
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


_turns = _Hashing(HASHING_THREADS)


async def _hashed(fn: Callable[..., T], *args: Any, rank: int = 0) -> T:
    """``fn(*args)`` (argon2's hash or verify) in the hashing threads, in its turn (``rank``)."""
    return await _turns.run(fn, *args, rank=rank)


class AccountError(ValueError):
    """A refused account operation; ``code`` names why (bad_name, name_taken, bad_password,
    wrong_password, bad_session, no_session)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def check_name(name: str) -> str:
    if not NAME_RE.fullmatch(name):
        raise AccountError(
            "bad_name", "a name is 2 to 24 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    return name


def name_key(name: str) -> str:
    return name.casefold()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def register(db: Database, name: str, password: str, *, rank: int = 0) -> tuple[Account, str]:
    """A new account and a session token for it (AccountError: bad name or password, taken);
    ``rank``: the password check's turn (lower first)."""
    check_name(name)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    digest = await _hashed(_hasher.hash, password, rank=rank)
    now = time.time()
    try:
        async with db.session.begin() as s:
            acc = Account(name=name, name_key=name_key(name), kind=USER, password_hash=digest, created=now)
            s.add(acc)
            await s.flush()
            token = _new_session(s, acc.id, now)
    except IntegrityError:
        raise AccountError("name_taken", f"the name {name!r} belongs to an account") from None
    return acc, token


async def login(db: Database, name: str, password: str, *, rank: int = 0) -> tuple[Account, str]:
    """The account and a new session token (AccountError wrong_password: no such name or a
    wrong password; one message for both, so that names cannot be probed); ``rank``: the
    password check's turn (lower first)."""
    acc = await find(db, name)
    wrong = AccountError("wrong_password", "no account with this name and password")
    if acc is None or acc.kind != USER or acc.password_hash is None:
        await _hashed(_hasher.hash, password, rank=rank)  # the same work whether the name exists or not
        raise wrong
    try:
        await _hashed(_hasher.verify, acc.password_hash, password, rank=rank)
    except (VerificationError, InvalidHashError):
        raise wrong from None
    async with db.session.begin() as s:
        if _hasher.check_needs_rehash(acc.password_hash):
            acc.password_hash = await _hashed(_hasher.hash, password)
            await s.merge(acc)
        token = _new_session(s, acc.id, time.time())
    return acc, token


async def resume(db: Database, token: str) -> Account:
    """The account of a valid, unexpired session token (AccountError bad_session otherwise)."""
    async with db.session() as s:
        row = (
            await s.execute(
                select(Account, Session.expires)
                .join(Session, Session.account_id == Account.id)
                .where(Session.token_hash == token_hash(token))
            )
        ).first()
    if row is None or row[1] < time.time():
        raise AccountError("bad_session", "the session is not valid (logged out or expired): log in again")
    acc: Account = row[0]
    return acc


async def logout(db: Database, token: str) -> None:
    """End a session (and drop the expired ones while at it)."""
    async with db.session.begin() as s:
        await s.execute(delete(Session).where(Session.token_hash == token_hash(token)))
        await s.execute(delete(Session).where(Session.expires < time.time()))


async def sessions(
    db: Database, token: str, end: str | None = None
) -> tuple[list[tuple[str, float, float, bool]], list[str]]:
    """The sessions of the account whose session ``token`` is, the newest first, as (id,
    created, expires, current), after ending session ``end`` (an id, or "others": all but
    ``token``'s); and the token hashes of those ended (AccountError bad_session: ``token`` is
    not valid; no_session: ``end`` names no session of the account)."""
    mine = token_hash(token)
    async with db.session.begin() as s:
        me = await s.scalar(select(Session).where(Session.token_hash == mine, Session.expires >= time.time()))
        if me is None:
            raise AccountError("bad_session", "the session is not valid (logged out or expired): log in again")
        rows = list(await s.scalars(select(Session).where(Session.account_id == me.account_id)))
        if end is None:
            gone = []
        elif end == "others":
            gone = [r for r in rows if r.id != me.id]
        else:
            gone = [r for r in rows if str(r.id) == end]
            if not gone:
                raise AccountError("no_session", f"the account has no session {end!r}")
        if gone:
            await s.execute(delete(Session).where(Session.id.in_([r.id for r in gone])))
        left = sorted((r for r in rows if r not in gone), key=lambda r: -r.created)
        listing = [(str(r.id), r.created, r.expires, r.id == me.id) for r in left]
    return listing, [r.token_hash for r in gone]


async def find(db: Database, name: str) -> Account | None:
    """The account (person or robot) with this name, whatever its case."""
    async with db.session() as s:
        acc: Account | None = await s.scalar(select(Account).where(Account.name_key == name_key(name)))
        return acc


async def exists(db: Database, name: str) -> bool:
    """Whether ``name`` (whatever its case) is an account's: one statement on a pooled
    connection, without an ORM session and entity (a server asks it at every guest's HELLO)."""
    async with db.engine.connect() as c:
        found = await c.scalar(select(Account.id).where(Account.name_key == name_key(name)).limit(1))
    return found is not None


async def robot(db: Database, label: str) -> Account:
    """The account of robot ``label`` (``NAME@VERSION``), created on first use."""
    acc = await find(db, label)
    if acc is not None:
        return acc
    try:
        async with db.session.begin() as s:
            acc = Account(name=label, name_key=name_key(label), kind=ROBOT, password_hash=None, created=time.time())
            s.add(acc)
    except IntegrityError:  # another server created it first
        acc = await find(db, label)
        assert acc is not None
    return acc


def _new_session(s: AsyncSession, account_id: int, now: float) -> str:
    token = secrets.token_urlsafe(32)
    s.add(Session(account_id=account_id, token_hash=token_hash(token), created=now, expires=now + SESSION_TTL))
    return token
