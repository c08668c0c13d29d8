"""Match history: writing hands and matches as they end, reading them back.

A hand is written when it ends, in one transaction with its match's row (created by the first
hand); a match is closed in one transaction when it ends: its status, totals, the seats'
holders and ranks, and (for a rated match) every rated account's new rating. A hand in play
is never in the database, so whatever the API reads is already public: the cards dealt are
revealed by every hand's RESULT anyway.

The action log of a hand (``[[seat, code, hex bytes], ...]``) replays it exactly from
``(game, seed, rules, hand)``: :func:`replay_hand` is how a stored outcome is checked, and how
bridge matches are exported as PBN.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

import games
from games import Action, Game, Rules

from . import ratings
from .database import Database
from .models import GUEST, OVER, PLAYING, ROBOT, USER, Account, Hand, Match, MatchSeat, Rating


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


@dataclass(frozen=True)
class HandRecord:
    hand: int
    actions: Sequence[tuple[int, Action]]
    scores: Sequence[int]
    dealt: Sequence[bytes]
    detail: dict[str, Any] = field(default_factory=dict)


class NotFound(LookupError):
    """No such player or match (the API answers 404)."""


# ------------------------------------------------------------------ writing
async def write_hand(
    db: Database, info: MatchInfo, match_id: int | None, hand: HandRecord, seats: Sequence[SeatHolder]
) -> int:
    """Store a finished hand (and the match row with its first hand); the match's id."""
    async with db.session.begin() as s:
        if match_id is None:  # the room's first hand, or its first since a restart rebuilt it from Redis
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
        s.add(
            Hand(
                match_id=match_id,
                hand=hand.hand,
                actions=[[seat, a.code, bytes(a.cards).hex()] for seat, a in hand.actions],
                scores=list(hand.scores),
                dealt=[bytes(c).hex() for c in hand.dealt],
                detail=jsonable(hand.detail),
                ended=time.time(),
            )
        )
        await s.execute(update(Match).where(Match.id == match_id).values(hands_played=Match.hands_played + 1))
    return match_id


async def finish_match(
    db: Database, match_id: int, info: MatchInfo, seats: Sequence[SeatHolder], totals: Sequence[int], *, complete: bool
) -> None:
    """Close a match in one transaction: ``over`` (rated when a person played in it) when
    every hand was played, else ``abandoned`` (the room closed early; never rated)."""
    rated = complete and any(h.kind in (USER, GUEST) for h in seats)
    groups = ratings.teams(info.game, len(totals))
    team_rank = ratings.ranks(totals, groups)
    rank = {s: r for g, r in zip(groups, team_rank, strict=True) for s in g}
    async with db.session.begin() as s:
        await s.execute(delete(MatchSeat).where(MatchSeat.match_id == match_id))
        rows = await _write_seats(s, match_id, seats, totals, rank)
        if rated:
            await _rate(s, info.game, rows, totals)
        await s.execute(
            update(Match)
            .where(Match.id == match_id)
            .values(status=OVER if complete else "abandoned", rated=rated, ended=time.time(), totals=list(totals))
        )


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
    from .accounts import name_key

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
    ``before``; ``next`` is the ``before`` of the following page (None: no more)."""
    from .accounts import name_key

    async with db.session() as s:
        acc = await s.scalar(select(Account).where(Account.name_key == name_key(name)))
        if acc is None:
            raise NotFound(f"no player {name!r}")
        q = select(MatchSeat.match_id).where(MatchSeat.account_id == acc.id)
        if before is not None:
            q = q.where(MatchSeat.match_id < before)
        ids = list((await s.scalars(q.order_by(MatchSeat.match_id.desc()).limit(limit + 1))).all())
        more = len(ids) > limit
        ids = ids[:limit]
        matches = {m.id: m for m in (await s.scalars(select(Match).where(Match.id.in_(ids)))).all()}
        seats: dict[int, list[MatchSeat]] = {}
        for row in (await s.scalars(select(MatchSeat).where(MatchSeat.match_id.in_(ids)))).all():
            seats.setdefault(row.match_id, []).append(row)
    out = []
    for mid in ids:
        m = matches[mid]
        mine = [r.seat for r in seats.get(mid, []) if r.account_id == acc.id]
        out.append(_match_head(m, seats.get(mid, [])) | {"seats_held": mine})
    return {"player": _account(acc), "matches": out, "next": ids[-1] if more else None}


async def match(db: Database, match_id: int) -> dict[str, Any]:
    """Everything stored of a match: its seats, and each finished hand with its action log."""
    async with db.session() as s:
        m = await s.get(Match, match_id)
        if m is None:
            raise NotFound(f"no match {match_id}")
        seats = list((await s.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id))).all())
        hands = (await s.scalars(select(Hand).where(Hand.match_id == match_id).order_by(Hand.hand))).all()
    out = _match_head(m, seats)
    out["options"] = m.options
    out["hands"] = [
        {
            "hand": h.hand,
            "scores": h.scores,
            "dealt": h.dealt,
            "actions": h.actions,
            "detail": h.detail,
            "ended": h.ended,
        }
        for h in hands
    ]
    return out


async def leaderboard(db: Database, game: str, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """The accounts rated in ``game``, best ordinal first (robots included)."""
    async with db.session() as s:
        rows = (
            await s.execute(
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
            "name": n,
            "kind": k,
            "rating": round(o, 3),
            "mu": round(mu, 3),
            "sigma": round(sg, 3),
            "matches": c,
        }
        for i, (n, k, mu, sg, o, c) in enumerate(rows)
    ]


def replay_hand(record: dict[str, Any], hand: dict[str, Any]) -> Game[Any]:
    """The game of a stored hand (``record`` from :func:`match`), rebuilt from its action log."""
    log = [(int(seat), Action(int(code), bytes.fromhex(cards))) for seat, code, cards in hand["actions"]]
    return games.get(record["game"]).replay(record["seed"], rules_of(record), log, hand=hand["hand"])


def rules_of(record: dict[str, Any]) -> Rules:
    def frozen(v: Any) -> Any:
        return tuple(frozen(x) for x in v) if isinstance(v, list) else v

    opts = {k: frozen(v) for k, v in (record.get("options") or {}).items()}
    rules: Rules = games.get(record["game"]).ruleset(record["ruleset"], **opts)
    return rules


def pbn(record: dict[str, Any]) -> str:
    """A stored bridge match as a PBN file (its boards replayed from the action logs)."""
    from games.bridge import Bridge
    from games.bridge.pbn import board_from_game, write_pbn

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
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def _account(a: Account) -> dict[str, Any]:
    return {"name": a.name, "kind": a.kind, "created": a.created}


def _match_head(m: Match, seats: Sequence[MatchSeat]) -> dict[str, Any]:
    return {
        "id": m.id,
        "room": m.room_id,
        "game": m.game,
        "ruleset": m.ruleset,
        "seed": m.seed,
        "status": m.status,
        "rated": m.rated,
        "hands": m.hands_planned,
        "hands_played": m.hands_played,
        "started": m.started,
        "ended": m.ended,
        "totals": m.totals,
        "seats": [
            {
                "seat": r.seat,
                "name": r.name,
                "kind": r.kind,
                "total": r.total,
                "rank": r.rank,
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
            }
            for r in sorted(seats, key=lambda r: r.seat)
        ],
    }
