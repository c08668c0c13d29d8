"""Writing a batch of the recorder: what ended together, in the caller's transaction, in a few
statements of plain SQL for the whole batch.

:func:`write_batch` stores the same rows as :func:`paiju.records.matches.open_match`,
:func:`~paiju.records.matches.add_hands` and :func:`~paiju.records.matches.close_match` job by
job (tests/records/test_recorder.py compares the two), but through :class:`Sql`: SQL text with
``:name`` parameters, JSON columns encoded here (``json.dumps``, as SQLAlchemy's JSON type
does). A busy server ends a hand every few milliseconds and its RESULT waits for the commit,
so a batch is mostly one hand: what a statement cost in SQLAlchemy's ORM and compiler (some
0.2 ms each, a millisecond a hand) was most of the records' writer's CPU. The writer process
runs these statements on the ``sqlite3`` driver itself (:class:`OnSqlite`); PostgreSQL, and the
recorder without a writer process, through SQLAlchemy's connection (:class:`OnSession`).

>>> import asyncio, sqlite3
>>> conn = sqlite3.connect(":memory:", isolation_level=None)
>>> q = OnSqlite(conn)
>>> asyncio.run(q.run("CREATE TABLE t (a INTEGER, b TEXT)"))
>>> asyncio.run(q.many("INSERT INTO t VALUES (:a, :b)", [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]))
>>> frag, params = among("a", [2, 3])
>>> asyncio.run(q.rows(f"SELECT b FROM t WHERE a IN ({frag})", params))
[('y',)]
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import TextClause, text
from sqlalchemy.ext.asyncio import AsyncSession

from paiju.records import ratings
from paiju.records.accounts import name_key
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder, fair, hand_row, jsonable
from paiju.records.models import ABANDONED, GUEST, OVER, PLAYING, ROBOT, USER

Key = tuple[str, float]
"""A match as the recorder knows it: (room id, started)."""


class Sql(Protocol):
    """Statements in the caller's transaction: SQL text with ``:name`` parameters."""

    postgresql: bool

    async def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Sequence[Any]]:
        """The rows a statement returns."""

    async def run(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        """A statement that returns no rows."""

    async def many(self, sql: str, params: Sequence[Mapping[str, Any]]) -> None:
        """One statement for each of ``params`` (nothing when it is empty)."""


class OnSqlite:
    """:class:`Sql` on a ``sqlite3`` connection (its calls block: the records' writer process)."""

    postgresql = False

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __repr__(self) -> str:
        return f"OnSqlite({self.conn!r})"

    async def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Sequence[Any]]:
        return self.conn.execute(sql, params or {}).fetchall()

    async def run(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        self.conn.execute(sql, params or {})

    async def many(self, sql: str, params: Sequence[Mapping[str, Any]]) -> None:
        if params:
            self.conn.executemany(sql, params)


class OnSession:
    """:class:`Sql` on a SQLAlchemy session's connection (asyncpg, aiosqlite)."""

    def __init__(self, s: AsyncSession) -> None:
        self.s = s
        self.postgresql = s.get_bind().dialect.name == "postgresql"

    def __repr__(self) -> str:
        return f"OnSession({self.s!r})"

    async def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Sequence[Any]]:
        return list((await self.s.execute(_text(sql), dict(params or {}))).all())

    async def run(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        await self.s.execute(_text(sql), dict(params or {}))

    async def many(self, sql: str, params: Sequence[Mapping[str, Any]]) -> None:
        if params:
            await self.s.execute(_text(sql), [dict(p) for p in params])


@functools.lru_cache(maxsize=64)
def _text(sql: str) -> TextClause:
    return text(sql)


def among(name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """The parameters of ``IN (...)`` over ``values``: ``(":name0, :name1", {"name0": ...})``."""
    params = {f"{name}{i}": v for i, v in enumerate(values)}
    return ", ".join(f":{k}" for k in params), params


def from_json(v: Any) -> Any:
    """A JSON column as a driver hands it over: text (sqlite3, asyncpg) or decoded."""
    return json.loads(v) if isinstance(v, (str, bytes)) else v


@dataclass
class MatchJobs:
    """What one batch of the recorder holds for one match: the hands that ended (in order),
    who held the seats at the first of them, and the match's end when it came (``end_at``:
    its place among the batch's ends, the order in which ratings move)."""

    info: MatchInfo
    hands: list[HandRecord] = field(default_factory=list)
    seats: tuple[SeatHolder, ...] = ()
    end: tuple[tuple[SeatHolder, ...], tuple[int, ...], bool] | None = None  # (seats, totals, complete)
    end_at: int = 0


@dataclass
class Known:
    """What a writer learnt from its committed batches: the ids of the matches it opened
    (still in play), and of the robots' accounts (by name key: they are never removed)."""

    matches: dict[Key, int] = field(default_factory=dict)
    robots: dict[str, int] = field(default_factory=dict)


@dataclass
class _Rated:
    """An account's rating in one game as a batch moves it (written at the batch's end)."""

    mu: float
    sigma: float
    matches: int
    new: bool


def hand_values(match_id: int, hand: HandRecord) -> dict[str, Any]:
    """The ``hands`` row of a finished hand (:func:`paiju.records.matches.hand_row`), its JSON
    columns encoded."""
    row = hand_row(match_id, hand)
    for column in ("actions", "scores", "revealed", "detail"):
        row[column] = json.dumps(row[column])
    return row


_INSERT_HAND = (
    "INSERT INTO hands (match_id, hand, actions, scores, revealed, detail, ended, analysis_pending) "
    "VALUES (:match_id, :hand, :actions, :scores, :revealed, :detail, :ended, :analysis_pending)"
)
_INSERT_MATCH = (
    "INSERT INTO matches (room_id, game, ruleset, options, seed, salt, commitment, hands_planned, hands_played, "
    "status, rated, started, ended, totals) VALUES (:room_id, :game, :ruleset, :options, :seed, :salt, :commitment, "
    ":hands_planned, :hands_played, :status, :rated, :started, :ended, :totals) RETURNING id"
)
_INSERT_SEAT = (
    "INSERT INTO match_seats (match_id, seat, account_id, name, kind, total, rank, rating_before, rating_after) "
    "VALUES (:match_id, :seat, :account_id, :name, :kind, :total, :rank, :rating_before, :rating_after)"
)


async def write_batch(q: Sql, batch: Sequence[MatchJobs], known: Known) -> tuple[dict[Key, int | None], Known]:
    """Write a batch of the recorder in the caller's transaction. A match opened and closed
    within the batch is inserted as it ends. ``known``: what earlier batches learnt. Returns
    each match's id for the next batch (None: closed, or nothing of it kept) and the robots'
    accounts it found (both to be kept once the transaction is committed)."""
    ids: dict[Key, int | None] = {(m.info.room_id, m.info.started): None for m in batch}
    for key in ids:
        ids[key] = known.matches.get(key)
    # matches this writer has not opened (a room rebuilt after a restart): one query for all
    unknown = {(m.info.room_id, m.info.started) for m in batch if m.hands} - set(k for k, v in ids.items() if v)
    if unknown:
        frag, params = among("r", sorted({room for room, _ in unknown}))
        found = await q.rows(
            f"SELECT id, room_id, started FROM matches WHERE status = :playing AND room_id IN ({frag})",
            {"playing": PLAYING, **params},
        )
        for mid, room, started in found:
            if (room, started) in unknown and ids[(room, started)] is None:
                ids[(room, started)] = mid
    holders = [h for m in batch for h in (*m.seats, *(m.end[0] if m.end else ()))]
    robots = dict(known.robots)
    accounts = await account_ids(q, holders, robots)
    held: dict[tuple[str, int], _Rated] = {}
    seat_rows: dict[Key, list[dict[str, Any]]] = {}
    closing: dict[Key, dict[str, Any]] = {}  # the values of each match that ends here
    for m in sorted((m for m in batch if m.end is not None), key=lambda m: m.end_at):
        key = (m.info.room_id, m.info.started)
        assert m.end is not None
        seats, totals, complete = m.end
        if ids[key] is None and not m.hands:
            continue  # no hand of it ended: nothing to keep
        groups = ratings.teams(m.info.game, len(totals))
        team_rank = ratings.ranks(totals, groups)
        rank = {i: r for g, r in zip(groups, team_rank, strict=True) for i in g}
        rows = [
            {
                "seat": i,
                "account_id": accounts.get(h.name) if h.kind != GUEST else None,
                "name": h.name,
                "kind": h.kind,
                "total": totals[i],
                "rank": rank[i],
                "rating_before": None,
                "rating_after": None,
            }
            for i, h in enumerate(seats)
        ]
        rated = complete and any(h.kind in (USER, GUEST) for h in seats)
        if rated:
            await _rate_rows(q, m.info.game, rows, totals, held)
        seat_rows[key] = rows
        closing[key] = {"status": OVER if complete else ABANDONED, "rated": rated, "totals": json.dumps(list(totals))}
    now = time.time()
    new = [m for m in batch if m.hands and ids[(m.info.room_id, m.info.started)] is None]
    for m in new:
        key = (m.info.room_id, m.info.started)
        end = closing.get(key)
        got = await q.rows(
            _INSERT_MATCH,
            {
                "room_id": m.info.room_id,
                "game": m.info.game,
                "ruleset": m.info.ruleset,
                "options": json.dumps(m.info.options),
                "seed": m.info.seed,
                **fair(m.info),
                "hands_planned": m.info.hands,
                "hands_played": len(m.hands),
                "status": end["status"] if end else PLAYING,
                "rated": end["rated"] if end else False,
                "started": m.info.started,
                "ended": now if end else None,
                "totals": end["totals"] if end else None,  # SQL NULL, as the ORM leaves it
            },
        )
        ids[key] = got[0][0]
        if end is None:  # in play: the holders of its first hand, without totals yet
            seat_rows[key] = [
                {
                    "seat": i,
                    "account_id": accounts.get(h.name) if h.kind != GUEST else None,
                    "name": h.name,
                    "kind": h.kind,
                    "total": None,
                    "rank": None,
                    "rating_before": None,
                    "rating_after": None,
                }
                for i, h in enumerate(m.seats)
            ]
    opened = {(m.info.room_id, m.info.started) for m in new}
    old: dict[Key, int] = {k: v for k, v in ids.items() if v is not None and k not in opened}
    hands = [hand_values(hid, h) for m in batch if (hid := ids[(m.info.room_id, m.info.started)]) for h in m.hands]
    await q.many(_INSERT_HAND, hands)
    counted = [
        {"id": old[k], "n": len(m.hands)} for m in batch if (k := (m.info.room_id, m.info.started)) in old and m.hands
    ]
    await q.many("UPDATE matches SET hands_played = hands_played + :n WHERE id = :id", counted)
    replaced = [old[k] for k in closing if k in old]
    if replaced:  # the seats as the match ends replace those of its first hand
        frag, params = among("m", replaced)
        await q.run(f"DELETE FROM match_seats WHERE match_id IN ({frag})", params)
        await q.many(
            "UPDATE matches SET status = :status, rated = :rated, ended = :ended, totals = :totals WHERE id = :id",
            [{"id": old[k], "ended": now, **v} for k, v in closing.items() if k in old],
        )
    seat_values = [
        {"match_id": ids[k], **row} for k, rows in seat_rows.items() if ids.get(k) is not None for row in rows
    ]
    await q.many(_INSERT_SEAT, seat_values)
    await _write_ratings(q, held, now)
    return {k: None if k in closing or v is None else v for k, v in ids.items()}, Known(robots=robots)


async def account_ids(q: Sql, seats: Sequence[SeatHolder], robots: dict[str, int]) -> dict[str, int]:
    """Account ids by name (of the holders ``seats`` that are not guests); a robot's account is
    created on its first match. ``robots``: robots' ids by name key, read from it and added to."""
    keys = {name_key(h.name): h for h in seats if h.kind != GUEST}
    if not keys:
        return {}
    found = {k: robots[k] for k in keys if k in robots}
    unread = [k for k in keys if k not in found]
    if unread:
        frag, params = among("k", unread)
        for aid, k, kind in await q.rows(f"SELECT id, name_key, kind FROM accounts WHERE name_key IN ({frag})", params):
            found[k] = aid
            if kind == ROBOT:
                robots[k] = aid
    for k, h in keys.items():
        if k not in found and h.kind == ROBOT:
            # another server creating the same robot's account at once: its row is the one
            made = {"name": h.name, "key": k, "kind": ROBOT, "created": time.time()}
            got = await q.rows(
                "INSERT INTO accounts (name, name_key, kind, password_hash, created) "
                "VALUES (:name, :key, :kind, NULL, :created) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                made,
            )
            if not got:
                got = await q.rows("SELECT id FROM accounts WHERE name_key = :key", {"key": k})
            found[k] = robots[k] = got[0][0]
    return {h.name: found[k] for k, h in keys.items() if k in found}


async def _rate_rows(
    q: Sql, game: str, rows: list[dict[str, Any]], totals: Sequence[int], held: dict[tuple[str, int], _Rated]
) -> None:
    """The accounts of seat ``rows`` (dicts) move in ``game``'s ratings, and each row gets its
    account's ordinal before and after. ``held``: the ratings the batch has read or made so
    far, so that its matches that share an account (a robot) move it in turn, and each account
    is read once a batch (written by :func:`_write_ratings`)."""
    accounts = {r["account_id"] for r in rows if r["account_id"] is not None}
    if not accounts:
        return  # guests only: their fresh ratings are not kept
    unread = sorted(a for a in accounts if (game, a) not in held)
    if unread:
        frag, params = among("a", unread)
        lock = " FOR UPDATE" if q.postgresql else ""  # two servers rating the same robot at once: one waits
        got = await q.rows(
            f"SELECT account_id, mu, sigma, matches FROM ratings WHERE game = :game AND account_id IN ({frag}){lock}",
            {"game": game, **params},
        )
        for acc, mu, sigma, n in got:
            held[(game, acc)] = _Rated(mu, sigma, n, new=False)
    mine = {a: held[(game, a)] for a in accounts if (game, a) in held}
    before = [
        (mine[r["account_id"]].mu, mine[r["account_id"]].sigma) if r["account_id"] in mine else None for r in rows
    ]
    after = ratings.update(game, before, totals)
    moves: dict[int, list[tuple[float, float]]] = {}
    for r, b, a in zip(rows, before, after, strict=True):
        if r["account_id"] is not None:
            b = b or (ratings.MU, ratings.SIGMA)
            moves.setdefault(r["account_id"], []).append((a[0] - b[0], a[1]))
            r["rating_before"] = ratings.ordinal(b)
    for acc, ms in moves.items():
        old = mine.get(acc)
        mu = (old.mu if old is not None else ratings.MU) + sum(m[0] for m in ms) / len(ms)
        sigma = sum(m[1] for m in ms) / len(ms)
        if old is None:
            old = held[(game, acc)] = _Rated(mu, sigma, 0, new=True)
        old.mu, old.sigma = mu, sigma
        old.matches += 1
    for r in rows:
        if r["account_id"] is not None:
            now_held = held[(game, r["account_id"])]
            r["rating_after"] = ratings.ordinal((now_held.mu, now_held.sigma))


async def _write_ratings(q: Sql, held: Mapping[tuple[str, int], _Rated], now: float) -> None:
    """The ratings a batch moved (:func:`_rate_rows`): inserted or updated."""
    values = [
        {"account_id": acc, "game": game, "mu": r.mu, "sigma": r.sigma, "n": r.matches, "new": r.new}
        | {"ordinal": ratings.ordinal((r.mu, r.sigma)), "updated": now}
        for (game, acc), r in held.items()
    ]
    await q.many(
        "INSERT INTO ratings (account_id, game, mu, sigma, ordinal, matches, updated) "
        "VALUES (:account_id, :game, :mu, :sigma, :ordinal, :n, :updated)",
        [{k: v for k, v in x.items() if k != "new"} for x in values if x["new"]],
    )
    await q.many(
        "UPDATE ratings SET mu = :mu, sigma = :sigma, ordinal = :ordinal, matches = :n, updated = :updated "
        "WHERE account_id = :account_id AND game = :game",
        [{k: v for k, v in x.items() if k != "new"} for x in values if not x["new"]],
    )


async def add_analysis(
    q: Sql, info: MatchInfo | None, match_id: int | None, hand: int, detail: Mapping[str, Any]
) -> bool:
    """Merge a recorded hand's analysis (bridge's par, the trick game's solved values) into
    its detail and mark it no longer pending, in the caller's transaction: hand ``hand`` of
    ``match_id``, or (None) of the match of ``info``'s room and start. Whether the hand was there."""
    if match_id is None and info is not None:
        got = await q.rows(
            "SELECT id FROM matches WHERE room_id = :room AND started = :started ORDER BY id DESC LIMIT 1",
            {"room": info.room_id, "started": info.started},
        )
        match_id = got[0][0] if got else None
    if match_id is None:
        return False
    where = {"match_id": match_id, "hand": hand}
    held = await q.rows("SELECT detail FROM hands WHERE match_id = :match_id AND hand = :hand", where)
    if not held or held[0][0] is None:
        return False
    merged = json.dumps({**from_json(held[0][0]), **jsonable(detail)})
    await q.run(
        "UPDATE hands SET detail = :detail, analysis_pending = :pending WHERE match_id = :match_id AND hand = :hand",
        {"detail": merged, "pending": False, **where},
    )
    return True
