"""Match history: writing hands and matches as they end, reading them back.

A hand is written when it ends, in one transaction with its match's row (created by the first
hand); a match is closed in one transaction when it ends: its status, totals, the seats'
holders and ranks, and (for a rated match) every rated account's new rating. The recorder
writes what ends together in one transaction (:func:`paiju.records.batch.write_batch`: a few
statements of plain SQL for the whole batch, the same rows as these functions job by job). A
hand in play is never in the database, so whatever the API reads is already public (the cards
of a finished hand are in its RESULT, which every seat received).

The action log of a hand (``[[seat, code, hex bytes], ...]``) replays it exactly from
``(game, seed, rules, hand)``: :func:`replay_hand` is how a stored outcome is checked, and how
bridge matches are exported as PBN.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select, true, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from paiju import games
from paiju.games import Game, GameAction, Rules, fairness
from paiju.records import ratings
from paiju.records.database import Database
from paiju.records.models import ABANDONED, GUEST, OVER, PLAYING, ROBOT, USER, Account, Hand, Match, MatchSeat, Rating


@dataclass(frozen=True)
class SeatHolder:
    """Who holds a seat: a registered player (``user``, by account name), a ``guest`` (no
    account: only the name is kept) or a robot (``robot``, by its ``NAME@VERSION`` label)."""

    kind: str
    name: str


@dataclass(frozen=True)
class MatchInfo:
    """What a room knows of its match from the start."""

    room_id: str
    game: str
    ruleset: str
    options: dict[str, Any]  # rules options beyond the named ruleset (msgpack/JSON-ready)
    seed: int
    hands: int
    started: float
    salt: bytes = b""  # the match's salt: its commitment is SHA-256(salt || seed) (paiju/games/fairness.py)


@dataclass(frozen=True)
class HandRecord:
    hand: int
    actions: Sequence[tuple[int, int, bytes]]  # (seat, action code, cards) of each action, in order
    scores: Sequence[int]
    revealed: Sequence[bytes]  # every seat's hand as the end of the hand reveals it (RESULT.hands)
    detail: Mapping[str, Any] = field(default_factory=dict)
    pending: bool = False  # its analysis (par, solved values) is still to be added to ``detail``


class NotFound(LookupError):
    """No such player or match (the API answers 404)."""


# ------------------------------------------------------------------ writing
async def write_hand(
    db: Database, info: MatchInfo, match_id: int | None, hand: HandRecord, seats: Sequence[SeatHolder]
) -> int:
    """Store a finished hand (and the match row with its first hand) in a transaction of its
    own; the match's id."""
    async with db.session.begin() as s:
        match_id = await open_match(s, info, match_id, seats)
        await add_hands(s, [hand_row(match_id, hand)])
    return match_id


async def open_match(s: AsyncSession, info: MatchInfo, match_id: int | None, seats: Sequence[SeatHolder]) -> int:
    """The id of the match a finished hand belongs to: ``match_id`` when the caller knows
    it, else the match of the room's start still in play, else a new one (the room's first
    hand, or its first since a restart rebuilt the room from Redis)."""
    if match_id is None:
        match_id = await s.scalar(
            select(Match.id).where(
                Match.room_id == info.room_id, Match.started == info.started, Match.status == PLAYING
            )
        )
    if match_id is None:
        m = Match(
            room_id=info.room_id,
            game=info.game,
            ruleset=info.ruleset,
            options=info.options,
            seed=info.seed,
            **fair(info),
            hands_planned=info.hands,
            hands_played=0,
            status=PLAYING,
            rated=False,
            started=info.started,
        )
        s.add(m)
        await s.flush()
        match_id = m.id
        await _write_seats(s, match_id, seats)
    return match_id


def hand_row(match_id: int, hand: HandRecord) -> dict[str, Any]:
    """The ``hands`` row of a finished hand."""
    return {
        "match_id": match_id,
        "hand": hand.hand,
        "actions": [[seat, code, cards.hex()] for seat, code, cards in hand.actions],
        "scores": list(hand.scores),
        "revealed": [bytes(c).hex() for c in hand.revealed],
        "detail": jsonable(hand.detail),
        "ended": time.time(),
        "analysis_pending": hand.pending,
    }


def fair(info: MatchInfo) -> dict[str, str | None]:
    """The ``salt`` and ``commitment`` columns of a match (None: a room without a salt)."""
    if not info.salt:
        return {"salt": None, "commitment": None}
    return {"salt": info.salt.hex(), "commitment": fairness.commitment(info.seed, info.salt)}


async def add_hands(s: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (:func:`hand_row`) in one statement and count them in their matches:
    one round trip for many hands, where an object per hand cost the ORM's bookkeeping."""
    if not rows:
        return
    await s.execute(insert(Hand), list(rows))
    for match_id, n in Counter(r["match_id"] for r in rows).items():
        await s.execute(update(Match).where(Match.id == match_id).values(hands_played=Match.hands_played + n))


async def recorded_hands(db: Database, room_id: str, started: float) -> set[int]:
    """The numbers of the hands recorded of the match of room ``room_id`` started at ``started``."""
    async with db.engine.connect() as conn:
        got = await conn.execute(
            select(Hand.hand)
            .join(Match, Match.id == Hand.match_id)
            .where(Match.room_id == room_id, Match.started == started)
        )
        return {int(h) for (h,) in got.all()}


async def match_status(db: Database, room_id: str, started: float) -> str | None:
    """The status of the match of room ``room_id`` started at ``started`` (None: not recorded)."""
    async with db.engine.connect() as conn:
        got = await conn.execute(select(Match.status).where(Match.room_id == room_id, Match.started == started))
        row = got.first()
        return None if row is None else str(row[0])


async def pending_analyses(db: Database, limit: int = 1_000) -> list[dict[str, Any]]:
    """The recorded hands whose analysis is still to come (a server stopped first), oldest
    first: ``{match_id, hand, game, ruleset, options, seed, hands}`` each, to deal it again."""
    async with db.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(
                    Hand.match_id, Hand.hand, Match.game, Match.ruleset, Match.options, Match.seed, Match.hands_planned
                )
                .join(Match, Match.id == Hand.match_id)
                .where(Hand.analysis_pending == true())
                .order_by(Hand.match_id, Hand.hand)
                .limit(limit)
            )
        ).all()
    return [
        {"match_id": r.match_id, "hand": r.hand, "game": r.game, "ruleset": r.ruleset, "options": r.options}
        | {"seed": r.seed, "hands": r.hands_planned}
        for r in rows
    ]


async def finish_match(
    db: Database, match_id: int, info: MatchInfo, seats: Sequence[SeatHolder], totals: Sequence[int], *, complete: bool
) -> None:
    """Close a match in one transaction: ``over`` (rated when a person played in it) when
    every hand was played, else ``abandoned`` (the room closed early; never rated)."""
    async with db.session.begin() as s:
        await close_match(s, match_id, info, seats, totals, complete=complete)


async def close_match(
    s: AsyncSession,
    match_id: int,
    info: MatchInfo,
    seats: Sequence[SeatHolder],
    totals: Sequence[int],
    *,
    complete: bool,
) -> None:
    """:func:`finish_match` within the caller's transaction."""
    rated = complete and any(h.kind in (USER, GUEST) for h in seats)
    groups = ratings.teams(info.game, len(totals))
    team_rank = ratings.ranks(totals, groups)
    rank = {i: r for g, r in zip(groups, team_rank, strict=True) for i in g}
    held = (await s.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat))).all()
    if [(r.kind, r.name) for r in held] == [(h.kind, h.name) for h in seats]:
        rows = list(held)  # the holders of its first hand to the end (robots always): their rows get the totals
        for r in rows:
            r.total, r.rank = totals[r.seat], rank[r.seat]
    else:
        for r in held:
            s.expunge(r)
        await s.execute(delete(MatchSeat).where(MatchSeat.match_id == match_id))
        rows = await _write_seats(s, match_id, seats, totals, rank)
    if rated:
        await _rate(s, info.game, rows, totals)
    await s.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(status=OVER if complete else ABANDONED, rated=rated, ended=time.time(), totals=list(totals))
    )


async def abandon_playing(db: Database, room: str | None = None) -> int:
    """Close as ``abandoned`` the matches still ``playing`` (those of room ``room``; None: all)
    whose room is gone for good (a server killed outright, a room not rebuilt), keeping their
    hands; their totals are the sum of those hands' scores. The number closed."""
    async with db.session.begin() as s:
        q = select(Match).where(Match.status == PLAYING)
        if room is not None:
            q = q.where(Match.room_id == room)
        found = (await s.scalars(q)).all()
        for m in found:
            scores = (await s.scalars(select(Hand.scores).where(Hand.match_id == m.id))).all()
            totals = [sum(col) for col in zip(*scores, strict=True)] if scores else None
            m.status, m.rated, m.ended, m.totals = ABANDONED, False, time.time(), totals
        return len(found)


async def _write_seats(
    s: AsyncSession,
    match_id: int,
    seats: Sequence[SeatHolder],
    totals: Sequence[int] | None = None,
    rank: dict[int, int] | None = None,
) -> list[MatchSeat]:
    ids = await _account_ids(s, seats)
    rows = [
        MatchSeat(
            match_id=match_id,
            seat=i,
            account_id=ids.get(h.name) if h.kind != GUEST else None,
            name=h.name,
            kind=h.kind,
            total=None if totals is None else totals[i],
            rank=None if rank is None else rank[i],
        )
        for i, h in enumerate(seats)
    ]
    s.add_all(rows)
    await s.flush()
    return rows


async def _account_ids(s: AsyncSession, seats: Sequence[SeatHolder]) -> dict[str, int]:
    """Account ids by name; a robot's account is created on its first match."""
    from paiju.records.accounts import name_key

    keys = {name_key(h.name): h for h in seats if h.kind != GUEST}
    if not keys:
        return {}
    found = {a.name_key: a for a in (await s.scalars(select(Account).where(Account.name_key.in_(keys)))).all()}
    for k, h in keys.items():
        if k not in found and h.kind == ROBOT:
            acc = Account(name=h.name, name_key=k, kind=ROBOT, password_hash=None, created=time.time())
            # a savepoint: another server creating the same robot's account only costs a retry
            async with s.begin_nested():
                s.add(acc)
            found[k] = acc
    return {h.name: found[k].id for k, h in keys.items() if k in found}


async def _rate(s: AsyncSession, game: str, rows: list[MatchSeat], totals: Sequence[int]) -> None:
    accounts = {r.account_id for r in rows if r.account_id is not None}
    q = select(Rating).where(Rating.game == game, Rating.account_id.in_(accounts))
    if s.get_bind().dialect.name == "postgresql":
        q = q.with_for_update()  # two servers rating the same robot at once: one waits
    held = {r.account_id: r for r in (await s.scalars(q)).all()}
    before = [(held[r.account_id].mu, held[r.account_id].sigma) if r.account_id in held else None for r in rows]
    after = ratings.update(game, before, totals)
    # An account in several seats (one robot filling three) moves by the mean of its seats' moves.
    moves: dict[int, list[tuple[float, float]]] = {}
    for r, b, a in zip(rows, before, after, strict=True):
        if r.account_id is not None:
            b = b or (ratings.MU, ratings.SIGMA)
            moves.setdefault(r.account_id, []).append((a[0] - b[0], a[1]))
            r.rating_before = ratings.ordinal(b)
    now = time.time()
    new: dict[int, tuple[float, float]] = {}
    for acc, ms in moves.items():
        old = held.get(acc)
        mu0 = old.mu if old is not None else ratings.MU
        mu = mu0 + sum(m[0] for m in ms) / len(ms)
        sigma = sum(m[1] for m in ms) / len(ms)
        new[acc] = (mu, sigma)
        if old is None:
            s.add(
                Rating(
                    account_id=acc,
                    game=game,
                    mu=mu,
                    sigma=sigma,
                    ordinal=ratings.ordinal((mu, sigma)),
                    matches=1,
                    updated=now,
                )
            )
        else:
            old.mu, old.sigma, old.ordinal = mu, sigma, ratings.ordinal((mu, sigma))
            old.matches += 1
            old.updated = now
    for r in rows:
        if r.account_id is not None:
            r.rating_after = ratings.ordinal(new[r.account_id])


# ------------------------------------------------------------------ reading
async def history(db: Database, name: str, *, limit: int = 20, before: int | None = None) -> dict[str, Any]:
    """A player's (or robot's) matches, newest first: ``limit`` of them with an id below
    ``before``; ``next`` is the ``before`` of the following page (None: no more).

    One statement (the account's page of match ids from the index on ``(account_id,
    match_id)``, joined with the matches, all their seats and the account), and a second one
    only when it finds nothing: each round trip to the database costs more than its rows."""
    from paiju.records.accounts import name_key

    key = name_key(name)
    ids = select(MatchSeat.match_id).where(
        MatchSeat.account_id == select(Account.id).where(Account.name_key == key).scalar_subquery()
    )
    if before is not None:
        ids = ids.where(MatchSeat.match_id < before)
    page = ids.distinct().order_by(MatchSeat.match_id.desc()).limit(limit + 1).subquery()
    me = Account.__table__.alias("me")
    async with db.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(*_HEAD, *_SEAT, MatchSeat.account_id, *(c.label(f"me_{c.name}") for c in me.c))
                .join(page, page.c.match_id == Match.id)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .join(me, me.c.name_key == key)
                .order_by(Match.id.desc(), MatchSeat.seat)
            )
        ).all()
        acc = rows[0] if rows else None
        if acc is None:
            found = (
                await conn.execute(select(me.c.id, me.c.name, me.c.kind, me.c.created).where(me.c.name_key == key))
            ).first()
            if found is None:
                return await _guest_history(conn, name, limit=limit, before=before)
            player = {"name": found.name, "kind": found.kind, "created": found.created}
            return {"player": player, "matches": [], "next": None}
    out: list[dict[str, Any]] = []
    for r in rows:
        if not out or out[-1]["id"] != r.id:
            out.append(_head(r) | {"seats": [], "seats_held": []})
        out[-1]["seats"].append(_seat(r))
        if r.account_id == r.me_id:
            out[-1]["seats_held"].append(r.seat)
    more = len(out) > limit
    out = out[:limit]
    player = {"name": acc.me_name, "kind": acc.me_kind, "created": acc.me_created}
    return {"player": player, "matches": out, "next": out[-1]["id"] if more else None}


async def _guest_history(conn: AsyncConnection, name: str, *, limit: int, before: int | None) -> dict[str, Any]:
    """A guest's matches, as :func:`history` gives a player's: the seats a guest of this exact
    name held (guests have no account; two guests who chose the same name share the list)."""
    mine = (MatchSeat.kind == GUEST) & (MatchSeat.name == name)
    ids = select(MatchSeat.match_id).where(mine)
    if before is not None:
        ids = ids.where(MatchSeat.match_id < before)
    page = ids.distinct().order_by(MatchSeat.match_id.desc()).limit(limit + 1).subquery()
    rows = (
        await conn.execute(
            select(*_HEAD, *_SEAT)
            .join(page, page.c.match_id == Match.id)
            .join(MatchSeat, MatchSeat.match_id == Match.id)
            .order_by(Match.id.desc(), MatchSeat.seat)
        )
    ).all()
    if not rows:
        raise NotFound(f"no player {name!r}")
    out: list[dict[str, Any]] = []
    for r in rows:
        if not out or out[-1]["id"] != r.id:
            out.append(_head(r) | {"seats": [], "seats_held": []})
        out[-1]["seats"].append(_seat(r))
        if r.kind == GUEST and r.name == name:
            out[-1]["seats_held"].append(r.seat)
    more = len(out) > limit
    out = out[:limit]
    player = {"name": name, "kind": GUEST, "created": None}
    return {"player": player, "matches": out, "next": out[-1]["id"] if more else None}


async def match(db: Database, match_id: int) -> dict[str, Any]:
    """Everything stored of a match: its seats, and each finished hand with its action log."""
    async with db.engine.connect() as conn:
        head = (await conn.execute(select(*_HEAD, Match.options).where(Match.id == match_id))).first()
        if head is None:
            raise NotFound(f"no match {match_id}")
        seats = (
            await conn.execute(select(*_SEAT).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat))
        ).all()
        hands = (await conn.execute(select(*_HAND).where(Hand.match_id == match_id).order_by(Hand.hand))).all()
    out = _head(head) | {"seats": [_seat(r) for r in seats], "options": head.options}
    out["hands"] = [dict(h._mapping) for h in hands]
    return out


async def leaderboard(db: Database, game: str, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """The accounts rated in ``game``, best ordinal first (robots included)."""
    async with db.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(Account.name, Account.kind, Rating.mu, Rating.sigma, Rating.ordinal, Rating.matches)
                .join(Account, Account.id == Rating.account_id)
                .where(Rating.game == game)
                .order_by(Rating.ordinal.desc(), Account.id)
                .limit(limit)
                .offset(offset)
            )
        ).all()
    return [
        {
            "rank": offset + i + 1,
            "name": r.name,
            "kind": r.kind,
            "rating": round(r.ordinal, 3),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "matches": r.matches,
        }
        for i, r in enumerate(rows)
    ]


_HEAD = (
    Match.id,
    Match.room_id,
    Match.game,
    Match.ruleset,
    Match.seed,
    Match.salt,
    Match.commitment,
    Match.status,
    Match.rated,
    Match.hands_planned,
    Match.hands_played,
    Match.started,
    Match.ended,
    Match.totals,
)
_SEAT = (
    MatchSeat.seat,
    MatchSeat.name,
    MatchSeat.kind,
    MatchSeat.total,
    MatchSeat.rank,
    MatchSeat.rating_before,
    MatchSeat.rating_after,
)
_HAND = (Hand.hand, Hand.scores, Hand.revealed, Hand.actions, Hand.detail, Hand.ended, Hand.analysis_pending)


def _head(r: Any) -> dict[str, Any]:
    return {
        "id": r.id,
        "room": r.room_id,
        "game": r.game,
        "ruleset": r.ruleset,
        "seed": r.seed,
        "salt": r.salt,
        "commitment": r.commitment,
        "status": r.status,
        "rated": r.rated,
        "hands": r.hands_planned,
        "hands_played": r.hands_played,
        "started": r.started,
        "ended": r.ended,
        "totals": r.totals,
    }


def _seat(r: Any) -> dict[str, Any]:
    return {
        "seat": r.seat,
        "name": r.name,
        "kind": r.kind,
        "total": r.total,
        "rank": r.rank,
        "rating_before": r.rating_before,
        "rating_after": r.rating_after,
    }


def random_hand(game: str, seed: int, hand: int, rng: random.Random) -> HandRecord:
    """Hand number ``hand`` of ``(game, seed)`` played to its end with random legal moves
    (as the robot ``random`` plays), recorded as a room records it: the realistic rows of
    the benchmarks and the tests.

    >>> r = random_hand("tricks", 1, 0, random.Random(1))
    >>> r.hand, len(r.scores), sum(r.scores) == 0 or r.scores
    (0, 2, True)
    """
    g = games.create(game, seed, None, hand=hand)
    while not g.is_over:
        seat = g.to_act()[0]
        opt = rng.choice(g.legal(seat).options)
        g.apply(seat, GameAction(opt.code, bytes(rng.sample(list(opt.cards), opt.pick))))
    out = g.outcome()
    return HandRecord(hand, [(s, a.code, a.cards) for s, a in g.log], out.scores, out.hands, out.detail)


def replay_hand(record: dict[str, Any], hand: dict[str, Any]) -> Game[Any]:
    """The game of a stored hand (``record`` from :func:`match`), rebuilt from its action log."""
    log = [(int(seat), GameAction(int(code), bytes.fromhex(cards))) for seat, code, cards in hand["actions"]]
    return games.get(record["game"]).replay(record["seed"], rules_of(record), log, hand=hand["hand"])


def rules_of(record: dict[str, Any]) -> Rules:
    def frozen(v: Any) -> Any:
        return tuple(frozen(x) for x in v) if isinstance(v, list) else v

    opts = {k: frozen(v) for k, v in (record.get("options") or {}).items()}
    rules: Rules = games.get(record["game"]).ruleset(record["ruleset"], **opts)
    return rules


def pbn(record: dict[str, Any]) -> str:
    """A stored bridge match as a PBN file (its boards replayed from the action logs)."""
    from paiju.games.bridge import Bridge
    from paiju.games.bridge.pbn import board_from_game, write_pbn

    if record["game"] != "bridge":
        raise ValueError(f"PBN is for bridge matches, not {record['game']}")
    boards = []
    for h in record["hands"]:
        g = replay_hand(record, h)
        assert isinstance(g, Bridge)
        boards.append(board_from_game(g, event=f"paiju {record['id']}"))
    return write_pbn(boards)


def jsonable(v: Any) -> Any:
    """A msgpack-able value as JSON can hold it: bytes (cards, tiles) as hex strings."""
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, Mapping):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v
