"""Accounts: names, passwords, sessions, robots.

A name is 2 to 24 letters (any script), digits, ``_``, ``-`` or ``.``, starting with a letter
or a digit; it belongs to one account whatever its case (``name_key`` is the case-folded
name). Passwords are kept as argon2id hashes (argon2-cffi; hashing runs in one of two threads
of its own, so that the event loop never stalls on it and password checks never take more
than those two threads, however many logins come at once). A session token is 256 random bits shown once to its
client; the database keeps only its SHA-256, so neither a password nor a token is ever
stored in clear. A robot's account is named ``NAME@VERSION`` (``@`` never appears in a
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
import hashlib
import re
import secrets
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
_hashing = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="argon2")


async def _hashed(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` (argon2's hash or verify) in the hashing threads."""
    return await asyncio.get_running_loop().run_in_executor(_hashing, fn, *args)


class AccountError(ValueError):
    """A refused account operation; ``code`` names why (bad_name, name_taken, bad_password,
    wrong_password, bad_session)."""

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


async def register(db: Database, name: str, password: str) -> tuple[Account, str]:
    """A new account and a session token for it (AccountError: bad name or password, taken)."""
    check_name(name)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    digest = await _hashed(_hasher.hash, password)
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


async def login(db: Database, name: str, password: str) -> tuple[Account, str]:
    """The account and a new session token (AccountError wrong_password: no such name or a
    wrong password; one message for both, so that names cannot be probed)."""
    acc = await find(db, name)
    wrong = AccountError("wrong_password", "no account with this name and password")
    if acc is None or acc.kind != USER or acc.password_hash is None:
        await _hashed(_hasher.hash, password)  # the same time whether the name exists or not
        raise wrong
    try:
        await _hashed(_hasher.verify, acc.password_hash, password)
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
