"""Logins that cannot lock the owner out, against a real `paiju serve` (its own SQLite file) with
short throttling windows (``--login-delay 0.02``): the patient attacker, and a crowd of
connections from 8 loopback addresses (127.0.0.x) trying names that do not exist. The owner's
login works throughout, from another address and with its session from an attacker's address.
The throttling rules themselves are tested in the core (tests/server/test_lobby_core.py)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiju.client import Client, ServerError
from paiju.protocol import ErrorCode, Identity
from tests.records.test_serve import serve
from tests.server.conftest import TEST_OPTIONS, Served

FAST = ("--login-delay", "0.02", "--login-delay-max", "5")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    yield from serve(f"sqlite:///{tmp_path / 'records.sqlite3'}", *TEST_OPTIONS, *FAST)


async def connect(s: Served, name: str, address: str, **kw: str) -> Client:
    return await Client.connect(s.url, name, local_addr=(address, 0), **kw)


async def login(c: Client, name: str, password: str) -> Identity | ServerError:
    try:
        return await c.account("login", name, password)
    except ServerError as e:
        return e


async def test_the_patient_attacker_does_not_lock_the_owner_out(server: Served) -> None:
    owner = await connect(server, "dee", "127.0.0.2")
    session = (await owner.account("register", "Dee", "correct horse")).session
    assert session
    attacker = await connect(server, "eve", "127.0.0.3")
    waits = []
    for _ in range(10):  # 10 wrong passwords, each after the wait the last RATE_LIMITED said
        answer = await login(attacker, "dee", "wrong horse")
        while isinstance(answer, ServerError) and answer.code == ErrorCode.RATE_LIMITED:
            waits.append(float(answer.error.message.split("try again in ")[1].split()[0]))
            await asyncio.sleep(waits[-1])
            answer = await login(attacker, "dee", "wrong horse")
        assert isinstance(answer, ServerError) and answer.code == ErrorCode.BAD_LOGIN, answer
    # after 3 free failures, growing waits (a late attempt may find the shortest ones passed)
    assert 1 <= len(waits) <= 7 and waits == sorted(waits) and waits[-1] >= 1.0
    # the right password from the attacker's address waits like any other
    answer = await login(attacker, "dee", "correct horse")
    assert isinstance(answer, ServerError) and answer.code == ErrorCode.RATE_LIMITED
    answer = await login(owner, "dee", "correct horse")  # the owner, from another address: at once
    assert isinstance(answer, Identity) and answer.player == "Dee"
    # the owner's browser on the attacker's address: its session plays as Dee, and logs in
    same = await connect(server, "x", "127.0.0.3", session=session)
    assert await identity(same) == Identity("Dee", True, None)
    assert isinstance(await login(same, "Dee", "correct horse"), Identity)
    for c in (owner, attacker, same):
        await c.close()


async def identity(c: Client) -> Identity:
    """The IDENTITY that follows WELCOME (a HELLO with a session)."""
    while not isinstance(f := await c.recv(5), Identity):
        pass
    return f


async def test_a_crowd_from_8_addresses_does_not_starve_the_owner(server: Served) -> None:
    """32 connections over 127.0.0.1-8 log in with names that no account has, each as fast as
    its connection's frame rate allows (40 a second), keeping every address's password checks
    busy; meanwhile each of the owner's logins (from 127.0.0.9, and with its session from
    127.0.0.1) succeeds."""
    c = await Client.connect(server.url, "zed")
    await c.account("register", "Fay", "correct horse")
    await c.close()
    crowd = [await connect(server, f"bot{i}", f"127.0.0.{1 + i % 8}") for i in range(32)]
    answers: Counter[int] = Counter()
    done = asyncio.Event()

    async def attack(i: int, cl: Client) -> None:
        n = 0
        while not done.is_set():
            n += 1
            answer = await login(cl, f"nobody{i}x{n}", "wrong horse")
            answers[answer.code if isinstance(answer, ServerError) else 0] += 1
            if isinstance(answer, ServerError) and answer.code == ErrorCode.RATE_LIMITED:
                await asyncio.sleep(1 / 40)

    owned: list[Identity | ServerError] = []

    async def owner() -> None:
        try:
            await asyncio.sleep(1.0)  # the crowd at work
            here = await connect(server, "guest-f", "127.0.0.9")
            owned.append(await login(here, "Fay", "correct horse"))
            session = owned[-1].session if isinstance(owned[-1], Identity) else None
            there = await connect(server, "guest-g", "127.0.0.1", session=session)
            owned.append(await identity(there))
            for _ in range(3):
                for cl in (here, there):
                    owned.append(await login(cl, "fay", "correct horse"))
            await here.close()
            await there.close()
        finally:
            done.set()

    async with asyncio.timeout(120):
        await asyncio.gather(owner(), *(attack(i, cl) for i, cl in enumerate(crowd)))
    for cl in crowd:
        await cl.close()
    assert len(owned) == 8 and all(isinstance(i, Identity) and i.player == "Fay" for i in owned), owned
    # the crowd's attempts were answered all along: wrong logins (each a password check), or slowed
    assert set(answers) == {ErrorCode.BAD_LOGIN, ErrorCode.RATE_LIMITED}, answers
