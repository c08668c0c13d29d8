"""Match history and ratings on real databases: hands written as they end, a match closed in
one transaction, outcomes equal to a replay of the stored logs, ratings for teams and several
players, the API's answers and its refusals."""

from __future__ import annotations

import random
import time

import pytest

from paiju import games
from paiju.games.bridge.pbn import read_pbn
from paiju.records import accounts, matches
from paiju.records.api import answer
from paiju.records.database import Database
from paiju.records.matches import HandRecord, MatchInfo, SeatHolder
from paiju.records.models import GUEST, ROBOT, USER


def play(game: str, seed: int, hand: int) -> HandRecord:
    """A hand of random legal moves, as the room records it (the same moves for the same arguments)."""
    return matches.random_hand(game, seed, hand, random.Random(seed * 100 + hand))


async def store(db: Database, game: str, seed: int, hands: int, seats: list[SeatHolder]) -> tuple[int, list[int]]:
    info = MatchInfo(f"r{seed}", game, games.get(game).ruleset().name, {}, seed, hands, time.time())
    mid = None
    totals = [0] * len(seats)
    for h in range(hands):
        rec = play(game, seed, h)
        mid = await matches.write_hand(db, info, mid, rec, seats)
        totals = [t + s for t, s in zip(totals, rec.scores, strict=True)]
    assert mid is not None
    await matches.finish_match(db, mid, info, seats, totals, complete=True)
    return mid, totals


@pytest.mark.parametrize("game", ["bridge", "mahjong", "niujiu", "tricks"])
async def test_stored_outcomes_equal_a_replay(db: Database, game: str) -> None:
    await accounts.register(db, "alice", "correct horse")
    n = games.create(game, 1).num_seats
    seats = [SeatHolder(USER, "alice")] + [SeatHolder(ROBOT, "random@1")] * (n - 1)
    mid, totals = await store(db, game, 11, 2, seats)
    record = await matches.match(db, mid)
    assert record["status"] == "over" and record["rated"] and record["totals"] == totals
    assert [h["hand"] for h in record["hands"]] == [0, 1]
    for h in record["hands"]:
        g = matches.replay_hand(record, h)
        assert g.is_over and list(g.outcome().scores) == h["scores"]
        assert [c.hex() for c in g.outcome().hands] == h["revealed"]
    if game == "bridge":
        boards = read_pbn(matches.pbn(record))
        assert [b.hands for b in boards] == [tuple(bytes.fromhex(c) for c in h["revealed"]) for h in record["hands"]]


async def test_history_pages_and_ratings(db: Database) -> None:
    await accounts.register(db, "alice", "correct horse")
    me = SeatHolder(USER, "alice")
    ids = []
    for seed in range(5):
        mid, _ = await store(db, "niujiu", seed, 1, [me, SeatHolder(ROBOT, "random@1"), SeatHolder(GUEST, "gus")])
        ids.append(mid)
    page = await matches.history(db, "ALICE", limit=3)
    assert [m["id"] for m in page["matches"]] == ids[::-1][:3] and page["next"] == ids[2]
    rest = await matches.history(db, "alice", limit=3, before=page["next"])
    assert [m["id"] for m in rest["matches"]] == ids[1::-1] and rest["next"] is None
    first = page["matches"][0]
    assert first["seats_held"] == [0] and [s["kind"] for s in first["seats"]] == [USER, ROBOT, GUEST]
    board = await matches.leaderboard(db, "niujiu")
    assert {p["name"] for p in board} == {"alice", "random@1"}  # the guest is not rated
    assert all(p["matches"] == 5 for p in board)
    assert board[0]["rating"] >= board[1]["rating"]
    seat = first["seats"][0]
    assert seat["rating_before"] is not None and seat["rating_after"] != seat["rating_before"]
    # a guest has no account, but its matches are listed under its name, newest first
    gus = await matches.history(db, "gus", limit=3)
    assert gus["player"]["kind"] == GUEST and [m["id"] for m in gus["matches"]] == ids[::-1][:3]
    assert gus["matches"][0]["seats_held"] == [2] and gus["next"] == ids[2]
    rest = await matches.history(db, "gus", limit=3, before=gus["next"])
    assert [m["id"] for m in rest["matches"]] == ids[1::-1] and rest["next"] is None
    with pytest.raises(matches.NotFound):
        await matches.history(db, "Gus")  # a guest's name is matched exactly
    with pytest.raises(matches.NotFound):
        await matches.history(db, "nobody")


async def test_bridge_partnerships_move_together(db: Database) -> None:
    for name in ("north", "south"):
        await accounts.register(db, name, "correct horse")
    seats = [
        SeatHolder(USER, "north"),
        SeatHolder(ROBOT, "random@1"),
        SeatHolder(USER, "south"),
        SeatHolder(ROBOT, "random@1"),
    ]
    _, totals = await store(db, "bridge", 3, 1, seats)
    board = {p["name"]: p for p in await matches.leaderboard(db, "bridge")}
    assert board["north"]["mu"] == board["south"]["mu"]
    if totals[0] != totals[1]:
        assert (board["north"]["mu"] > board["random@1"]["mu"]) == (totals[0] > totals[1])


async def test_an_abandoned_match_is_kept_but_not_rated(db: Database) -> None:
    info = MatchInfo("rx", "tricks", "standard", {}, 9, 3, time.time())
    seats = [SeatHolder(GUEST, "gus"), SeatHolder(ROBOT, "random@1")]
    mid = await matches.write_hand(db, info, None, play("tricks", 9, 0), seats)
    assert (await matches.match(db, mid))["status"] == "playing"
    await matches.finish_match(db, mid, info, seats, [1, -1], complete=False)
    record = await matches.match(db, mid)
    assert record["status"] == "abandoned" and not record["rated"] and len(record["hands"]) == 1
    assert await matches.leaderboard(db, "tricks") == []


async def test_a_match_in_play_is_served_without_its_seed_or_room(db: Database) -> None:
    info = MatchInfo("0123456789abcdef", "tricks", "standard", {}, 2**62 + 5, 2, time.time())
    seats = [SeatHolder(GUEST, "gus"), SeatHolder(ROBOT, "random@1")]
    mid = await matches.write_hand(db, info, None, play("tricks", info.seed, 0), seats)
    listed = (await answer(db, "/api/players/gus/matches", "")).json()["matches"][0]
    shown = (await answer(db, f"/api/matches/{mid}", "")).json()
    for m in (listed, shown):
        assert m["status"] == "playing" and m["seed"] is None and m["room"] is None
    for r in (await answer(db, f"/api/matches/{mid}", ""), await answer(db, "/api/players/gus/matches", "")):
        assert str(info.seed).encode() not in r.body and info.room_id.encode() not in r.body
    assert shown["hands"][0]["revealed"]  # the finished hand, as its RESULT showed it to everyone
    await matches.finish_match(db, mid, info, seats, [1, -1], complete=False)
    shown = (await answer(db, f"/api/matches/{mid}", "")).json()
    assert shown["seed"] == str(info.seed) and shown["room"] == info.room_id


async def test_api(db: Database) -> None:
    await accounts.register(db, "alice", "correct horse")
    seed = 2**63 - 3  # a 64-bit seed travels as a string: a JavaScript number would round it
    mid, _ = await store(db, "bridge", seed, 1, [SeatHolder(USER, "alice")] + [SeatHolder(ROBOT, "random@1")] * 3)
    r = await answer(db, "/api/players/alice/matches", "limit=5")
    assert r.status == 200 and r.json()["matches"][0]["id"] == mid
    assert r.json()["matches"][0]["seed"] == str(seed)
    r = await answer(db, f"/api/matches/{mid}", "")
    assert r.status == 200 and r.json()["hands"][0]["actions"] and r.json()["seed"] == str(seed)
    r = await answer(db, f"/api/matches/{mid}.pbn", "")
    assert r.status == 200 and r.body.startswith(b"% PBN 2.1") and r.content_type.startswith("text/plain")
    r = await answer(db, "/api/leaderboard/bridge", "")
    assert [p["name"] for p in r.json()["players"]] in (["alice", "random@1"], ["random@1", "alice"])
    refused = {
        ("/api/players/nobody/matches", ""): (404, "not_found"),
        ("/api/players/a%20b/matches", ""): (400, "bad_name"),
        ("/api/players/alice/matches", "limit=101"): (400, "bad_limit"),
        ("/api/players/alice/matches", "before=-1"): (400, "bad_before"),
        ("/api/matches/0", ""): (400, "bad_match_id"),
        ("/api/matches/x1", ""): (400, "bad_match_id"),
        (f"/api/matches/{mid + 1}", ""): (404, "not_found"),
        ("/api/leaderboard/go", ""): (404, "no_such_game"),
        ("/api/leaderboard/bridge", "offset=x"): (400, "bad_offset"),
        ("/api/nothing", ""): (404, "no_such_path"),
    }
    for (path, query), (status, code) in refused.items():
        r = await answer(db, path, query)
        assert (r.status, r.json()["error"]["code"]) == (status, code), (path, query, r.body)
        assert r.json()["error"]["message"]
