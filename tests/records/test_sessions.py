"""An account's sessions through a real `paiju serve` (its own SQLite file): SESSIONS lists the
logins of the account, ends one (its connection is logged out at once and its session token
opens nothing any more) or all the others; and the resume token of a logged-in player's seat
rotates at each resume over real sockets. The token rules themselves are tested in the core
(tests/server/test_lobby_core.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from paiju.client import Client, ServerError
from paiju.protocol import ErrorCode, Identity, Token
from tests.records.test_serve import serve
from tests.server.conftest import Served


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    yield from serve(f"sqlite:///{tmp_path / 'records.sqlite3'}")


async def test_the_sessions_list_shows_and_ends_sessions(server: Served) -> None:
    a = await Client.connect(server.url, "zed")
    mine = (await a.account("register", "Gus", "correct horse")).session
    b = await Client.connect(server.url, "guest-b")
    theirs = (await b.account("login", "gus", "correct horse")).session
    c = await Client.connect(server.url, "guest-c")
    await c.account("login", "gus", "correct horse")
    listed = (await a.sessions()).sessions
    assert len(listed) == 3 and [s.current for s in listed].count(True) == 1
    assert all(s.expires > s.created > 0 for s in listed)
    assert len({s.id for s in listed}) == 3
    current = next(s for s in listed if s.current)
    assert listed == (await a.sessions()).sessions  # the same list again
    # end b's session: b is logged out at once, with a new resume token
    bs = [s for s in listed if not s.current][-1].id  # the oldest of the others: b's (newest first)
    after = (await a.sessions(bs)).sessions
    assert [s.id for s in after] == [s.id for s in listed if s.id != bs]
    got = await b.recv(5)
    while not (isinstance(got, Identity) and not got.registered):
        got = await b.recv(5)
    assert isinstance(await b.recv(5), Token)
    with pytest.raises(ServerError) as e:  # its session token opens nothing any more
        await Client.connect(server.url, "again", session=theirs)
    assert e.value.code == ErrorCode.BAD_LOGIN
    with pytest.raises(ServerError) as e:  # an id that is none of the account's
        await a.sessions("999999")
    assert e.value.code == ErrorCode.BAD_ACCOUNT
    # all the others: c's too
    assert [s.id for s in (await a.sessions("others")).sessions] == [current.id]
    with pytest.raises(ServerError) as e:  # a guest has no sessions
        await b.sessions()
    assert e.value.code == ErrorCode.WRONG_STATE
    # the owner's session still plays as Gus
    d = await Client.connect(server.url, "x", session=mine, record=True)
    assert (await a.sessions()).sessions[0].current
    for cl in (a, b, c, d):
        await cl.close()


async def test_a_seat_resumes_with_a_new_token_each_time(server: Served) -> None:
    a = await Client.connect(server.url, "zed")
    session = (await a.account("register", "Hal", "correct horse")).session
    await a.create("tricks", hands=2, clock_ms=60_000, bots=[1], robot="random")
    first, seq = a.token, a.seq
    await a.abort()
    b = await Client.connect(server.url, "Hal", token=first, last_seq=seq, session=session, record=True)
    assert b.token != first
    with pytest.raises(ServerError) as e:  # the first token ended with the resume
        await Client.connect(server.url, "eve", token=first)
    assert e.value.code == ErrorCode.BAD_TOKEN
    # the current token without the session: the seat, but not the account
    second = b.token
    await b.abort()
    c = await Client.connect(server.url, "eve", token=second, record=True)
    with pytest.raises(ServerError) as e:
        await c.account("logout")
    assert e.value.code == ErrorCode.WRONG_STATE
    assert not any(isinstance(f, Identity) for f in c.log)
    await c.close()
    await a.close()
