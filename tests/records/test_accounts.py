"""Accounts on real databases: names are unique whatever their case, passwords and tokens are
never stored in clear, sessions survive until logout or expiry, robots have accounts."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from paiju.records import accounts
from paiju.records.accounts import AccountError
from paiju.records.database import Database
from paiju.records.models import ROBOT, USER


async def test_register_login_resume_logout(db: Database) -> None:
    acc, token = await accounts.register(db, "Alice", "correct horse")
    assert acc.kind == USER and acc.name == "Alice"
    assert (await accounts.resume(db, token)).id == acc.id
    acc2, token2 = await accounts.login(db, "alice", "correct horse")  # any case logs in
    assert acc2.id == acc.id and token2 != token
    await accounts.logout(db, token)
    with pytest.raises(AccountError) as e:
        await accounts.resume(db, token)
    assert e.value.code == "bad_session"
    assert (await accounts.resume(db, token2)).name == "Alice"  # the other session lives on


@pytest.mark.parametrize(
    ("name", "password", "code"),
    [
        ("ALICE", "another one", "name_taken"),
        ("a", "long enough", "bad_name"),
        ("bob!", "long enough", "bad_name"),
        ("bob", "short", "bad_password"),
        ("heuristic@1", "long enough", "bad_name"),
    ],
)
async def test_refusals(db: Database, name: str, password: str, code: str) -> None:
    await accounts.register(db, "alice", "correct horse")
    with pytest.raises(AccountError) as e:
        await accounts.register(db, name, password)
    assert e.value.code == code


async def test_wrong_password_and_unknown_name_look_alike(db: Database) -> None:
    await accounts.register(db, "carol", "correct horse")
    errors = []
    for name, pw in (("carol", "wrong horse"), ("nobody", "correct horse")):
        with pytest.raises(AccountError) as e:
            await accounts.login(db, name, pw)
        errors.append(str(e.value))
    assert errors[0] == errors[1] == "wrong_password: no account with this name and password"


async def test_nothing_secret_is_stored_in_clear(db: Database) -> None:
    password = "hunter2-but-longer"
    _, token = await accounts.register(db, "dave", password)
    _, token2 = await accounts.login(db, "dave", password)
    dump = []
    async with db.engine.connect() as conn:
        for table in ("accounts", "sessions"):
            for row in (await conn.execute(text(f"SELECT * FROM {table}"))).all():
                dump.append(" ".join(map(str, row)))
    everything = "\n".join(dump)
    assert "dave" in everything and "$argon2id$" in everything
    for secret in (password, token, token2):
        assert secret not in everything


async def test_robot_accounts_are_their_own_kind(db: Database) -> None:
    r = await accounts.robot(db, "heuristic@1")
    assert r.kind == ROBOT and r.password_hash is None
    assert (await accounts.robot(db, "heuristic@1")).id == r.id
    assert (await accounts.robot(db, "heuristic@2")).id != r.id  # one account per version
    with pytest.raises(AccountError):
        await accounts.login(db, "heuristic@1", "")
