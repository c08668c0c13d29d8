"""The room core in-process: seating, clocks and default actions, robot takeover, resume
exactly once, spectators, the end of a match, refusals and the rebuild from a log, each
driven through :class:`paiju.core.table.Table` with a clock the test moves (no sockets)."""

from __future__ import annotations

import random

import pytest

from paiju import games
from paiju.core import roomlog
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.table import Append, Bound, Close, Dealt, Enter, Extra, Publish, Restored, SealLog, Send, Table, Tick
from paiju.games import GameAction
from paiju.protocol import Ack, Error, ErrorCode, Event, Prompt, Result, RoomEvent, RoomState, SeatKind

from .tablekit import Driver, check_default_actions, check_prompts, check_streams, seats_of


def phase(d: Driver) -> Phase:
    return d.table.phase


def events(d: Driver, pid: str, code: int | None = None) -> list[Event]:
    return [f for f in d.frames(pid, Event) if code is None or f.code == code]


def play_out(d: Driver, humans: list[str], rng: random.Random, limit: int = 5000) -> None:
    """Humans and robots answer at random until the match is over."""
    for _ in range(limit):
        if d.table.phase is Phase.OVER:
            return
        movers = [h for h in humans if d.people[h].inside and d.people[h].conn is not None]
        rng.shuffle(movers)
        if not any(d.random_answer(h, rng) for h in movers) and not d.answer_robots(rng):
            d.tick(1000.0)  # nothing to answer: a pause between hands
        check_prompts(d)
    raise AssertionError("the match did not end")


# ------------------------------------------------------------------ seating
def test_seating_starts_the_match_when_the_last_seat_fills() -> None:
    d = Driver.new("tricks")
    d.join("ann")
    assert phase(d) is Phase.WAITING and d.people["ann"].seat == 0
    [state] = d.frames("ann", RoomState)
    assert state.seat == 0 and state.view == {}  # nothing dealt yet
    assert state.seq == 1 and events(d, "ann") == []  # the state includes the SEAT of one's own arrival
    d.join("bob", 1)
    assert phase(d) is Phase.PLAYING
    assert RoomEvent.HAND_START in [e.code for e in events(d, "ann")]
    assert d.frames("ann", Prompt) or d.frames("bob", Prompt)
    check_streams(d)
    check_prompts(d)


@pytest.mark.parametrize(
    ("seat", "code"),
    [(0, ErrorCode.SEAT_TAKEN), (3, ErrorCode.BAD_ROOM_OPTIONS)],
)
def test_bad_seats_are_refused(seat: int, code: int) -> None:
    d = Driver.new("tricks")
    d.join("ann", 0)
    d.join("bob", seat)
    [err] = d.frames("bob", Error)
    assert err.code == code and not d.people["bob"].inside


def test_a_player_joins_once_and_not_an_ended_room() -> None:
    d = Driver.new("tricks")
    d.join("ann")
    d.join("ann", None)
    assert [e.code for e in d.frames("ann", Error)] == [ErrorCode.ALREADY_IN_ROOM]
    d.join("bob")
    d.drop("bob")  # the ended room waits for bob's resume
    play_out(d, ["ann"], random.Random(1))
    assert d.table.phase is Phase.OVER and not d.closed
    d.join("eve", None)
    assert [e.code for e in d.frames("eve", Error)] == [ErrorCode.NO_SUCH_ROOM]


def test_quickplay_fills_with_robots_after_its_wait_and_a_full_room_is_refused() -> None:
    d = Driver.new("tricks", quickplay=True)
    d.join("ann", quick=True)
    assert d.table.next_deadline() == pytest.approx(1.0)
    d.tick(0.5)
    assert phase(d) is Phase.WAITING
    d.tick(0.6)
    assert phase(d) is Phase.PLAYING and d.table.seats[1].kind == SeatKind.BOT
    assert [e.arg for e in events(d, "ann", RoomEvent.SEAT)] == [SeatKind.BOT]  # its own SEAT: in the state
    d.join("bob", quick=True)
    assert [e.code for e in d.frames("bob", Error)] == [ErrorCode.ROOM_FULL]


def test_leaving_before_the_start_frees_the_seat_and_in_play_gives_it_to_a_robot() -> None:
    d = Driver.new("tricks", seed=3)
    d.join("ann")
    d.join("eve", None)
    d.leave("ann")
    assert d.table.seats[0].kind == SeatKind.EMPTY and not d.people["ann"].inside
    d.join("ann", 0)
    d.join("bob", 1)
    d.leave("bob")
    assert d.table.seats[1].kind == SeatKind.BOT
    assert any(isinstance(r.request.seat, int) for r in d.published) or d.table.pending.get(1) is None
    d.leave("bob")
    assert d.frames("bob", Error)[-1].code == ErrorCode.NOT_IN_ROOM
    check_streams(d)


# ------------------------------------------------------------------ clocks
@pytest.mark.parametrize("game", games.names())
def test_silent_seat_gets_default_actions_then_a_robot(game: str) -> None:
    n = seats_of(game)
    d = Driver.new(game, seed=21, hands=3, bots=list(range(1, n)), clock_ms=150)
    d.join("sleepy")
    rng = random.Random(2)
    for _ in range(20_000):  # robots answer at once; the silent seat only by its clock
        if d.table.phase is Phase.OVER:
            break
        if not d.answer_robots(rng):
            assert d.step_clock()
    check_default_actions(d.frames("sleepy"))
    assert any(r.seat == 0 for r in d.published), "and the robot is asked"
    check_streams(d)


def test_the_owner_takes_the_seat_back_by_acting() -> None:
    d = Driver.new("tricks", seed=2, bots=[1], clock_ms=100, limits=Limits(hand_pause=0, takeover_after=1))
    d.join("ann")
    while not d.table.seats[0].stand_in:
        if d.table.pending.get(0):
            d.step_clock()
        else:
            d.answer_robots(random.Random(1))
        if d.table.phase is Phase.OVER:
            pytest.fail("no takeover")
    # an ACTION, even one refused, hands the seat back to its owner
    d.act("ann", 999, GameAction(0, b""))
    robot = [e.arg for e in events(d, "ann", RoomEvent.ROBOT)]
    assert robot == [1, 0] and not d.table.seats[0].stand_in
    assert d.frames("ann", Error)[-1].code in (ErrorCode.NOT_YOUR_TURN, ErrorCode.NO_SUCH_PROMPT)


# ------------------------------------------------------------------ robots
def test_a_robot_is_asked_exactly_what_a_human_in_its_seat_sees() -> None:
    d = Driver.new("bridge", seed=5, bots=[1, 2, 3])
    d.join("ann")
    rng = random.Random(4)
    asked = 0
    while d.table.phase is not Phase.OVER and asked < 200:
        robots = [p for p in d.table.pending.values() if d.table.seats[p.controller].robot_played]
        for p in robots:
            [req] = [r for r in d.published if r.prompt_id == p.id]
            g = d.table.game
            assert req.view == g.view(g.controller(p.seat)) and req.seat == p.seat
            assert (req.mask, req.options) == (p.actions.mask, list(p.actions.options))
            asked += 1
        if not d.answer_robots(rng) and not d.random_answer("ann", rng):
            d.tick(1000)
    assert asked > 10


def test_late_or_refused_decisions_change_nothing() -> None:
    d = Driver.new("tricks", seed=7, bots=[0, 1])
    d.join("eve", None)
    p = next(iter(d.table.pending.values()))
    seq = d.table.seq
    d.decide(p.seat, p.id + 100, GameAction(p.actions.options[0].code, p.actions.options[0].cards[:1]))
    d.decide(p.seat, p.id, GameAction(7, b""))  # refused by the rules: logged, nothing changes
    assert d.table.seq == seq and d.table.pending[p.seat] is p


# ------------------------------------------------------------------ actions and refusals
def test_refusals_and_retries() -> None:
    d = Driver.new("tricks", seed=4)
    d.join("host")
    d.join("bad", 1)
    p = d.table.pending[0]
    card = p.actions.options[0].cards[:1]
    d.act("bad", p.id, GameAction(0, card))
    d.act("bad", 12345, GameAction(0, b""))
    assert [e.code for e in d.frames("bad", Error)] == [ErrorCode.NOT_YOUR_TURN] * 2
    d.act("host", p.id, GameAction(3, card))
    assert d.frames("host", Error)[-1].code == ErrorCode.ILLEGAL_ACTION
    seq = d.table.seq
    d.act("host", p.id, GameAction(0, card))
    d.act("host", p.id, GameAction(0, card))  # a retry: acknowledged again, applied once
    assert [f.prompt_id for f in d.frames("host", Ack)] == [p.id, p.id]
    echoes = [e for e in events(d, "host") if e.code == 0x20 and e.seat == 0]
    assert len(echoes) == 1 and d.table.seq == seq + 1
    d.act("host", p.id, GameAction(0, p.actions.options[0].cards[1:2]))
    assert d.frames("host", Error)[-1].code == ErrorCode.NO_SUCH_PROMPT
    d.join("eve", None)
    d.act("eve", p.id, GameAction(0, card))
    assert d.frames("eve", Error)[-1].code == ErrorCode.NOT_IN_ROOM
    err = d.frames("host", Error)[-1]
    assert err.ref_type is None  # no frame named: the driver sends none


def test_an_answer_that_crossed_its_withdrawal_is_told_so() -> None:
    """Four people play bridge at random; every prompt withdrawn from one of them (a defender
    rejected the claim first) is answered afterwards, as a client whose ACTION was on the wire
    would: NO_SUCH_PROMPT that says so, never NOT_YOUR_TURN, and nothing changes."""
    d = Driver.new("bridge", seed=3, hands=4)
    people = ["a", "b", "c", "d"]
    for i, pid in enumerate(people):
        d.join(pid, i)
    rng = random.Random(5)
    seen: dict[str, int] = dict.fromkeys(people, 0)
    crossed = 0
    for _ in range(5000):
        if d.table.phase is Phase.OVER:
            break
        for pid in people:  # the withdrawals each one got since last time: answered now
            got = d.frames(pid)
            fresh, seen[pid] = got[seen[pid] :], len(got)
            offered = {f.prompt_id: f for f in got if isinstance(f, Prompt) and f.mask}
            for w in [f for f in fresh if isinstance(f, Prompt) and not f.mask]:
                o = offered[w.prompt_id].options[0]
                seq = d.table.seq
                d.act(pid, w.prompt_id, GameAction(o.code, o.cards[: o.pick]))
                err = d.frames(pid)[-1]
                assert isinstance(err, Error) and err.code == ErrorCode.NO_SUCH_PROMPT, err
                assert "withdrawn" in err.message and d.table.seq == seq
                crossed += 1
            seen[pid] = len(d.frames(pid))
        movers = people[:]
        rng.shuffle(movers)
        if not any(d.random_answer(h, rng) for h in movers):
            d.tick(1000.0)
    assert d.table.phase is Phase.OVER and crossed > 0, crossed


# ------------------------------------------------------------------ resume
@pytest.mark.parametrize("robot_on_drop", [True, False])
def test_drop_then_resume_gets_every_missed_event_once(robot_on_drop: bool) -> None:
    limits = Limits(hand_pause=0, grace=60, robot_on_drop=robot_on_drop, takeover_after=1000)
    d = Driver.new("tricks", seed=99, clock_ms=300, limits=limits)
    rng = random.Random(7)
    d.join("ann")
    d.join("bob", 1)
    d.join("eve", None)
    assert d.random_answer("ann", rng) or d.random_answer("bob", rng)
    old_conn = d.people["ann"].conn
    last = d.people["ann"].last_seq
    d.drop("ann")
    for _ in range(6):  # the others go on: a robot or the clock plays for ann
        if not d.random_answer("bob", rng) and not d.answer_robots(rng):
            d.tick(0.31)
    d.resume("ann")
    new_conn = d.people["ann"].conn
    assert new_conn is not None and old_conn is not None
    after = d.frames("ann", Event)
    assert not d.frames("ann", RoomState), "the events were buffered: no snapshot"
    assert [e.seq for e in after][: d.table.seq - last] == list(range(last + 1, d.table.seq + 1))
    marks = [e for e in after if e.code == RoomEvent.SEAT and e.seat == 0]
    assert [e.arg for e in marks] == [SeatKind.AWAY, SeatKind.HUMAN]
    missed = [e for e in after if e.seq < marks[1].seq]
    kept_by = {e.code for e in missed if e.seat == 0} & {RoomEvent.ROBOT, RoomEvent.TIMEOUT}
    assert len(missed) >= 3 and kept_by == ({RoomEvent.ROBOT} if robot_on_drop else {RoomEvent.TIMEOUT})
    play_out(d, ["ann", "bob"], rng)
    check_streams(d, resumed_from={new_conn: last})
    # what ann saw on both connections is every event after her first ROOM_STATE once, in order
    start = d.frames("ann", RoomState, conn=old_conn)[0].seq
    seqs = [e.seq for e in d.frames("ann", Event, conn=old_conn) + d.frames("ann", Event, conn=new_conn)]
    assert seqs == list(range(start + 1, start + 1 + len(seqs)))


@pytest.mark.parametrize("last_seq", [None, 10**6])
def test_resume_without_a_usable_position_gets_room_state(last_seq: int | None) -> None:
    d = Driver.new("tricks", seed=5, clock_ms=60_000)
    d.join("ann")
    d.join("bob", 1)
    d.drop("ann")
    d.resume("ann", last_seq)
    [state] = d.frames("ann", RoomState)
    assert state.seat == 0 and state.view["hand"]


def test_resume_after_the_match_ended_then_release() -> None:
    d = Driver.new("tricks", seed=21, bots=[1], hands=2, clock_ms=2000)
    rng = random.Random(11)
    d.join("ann")
    d.join("eve", None)
    assert d.random_answer("ann", rng)
    last = d.people["ann"].last_seq
    d.drop("ann")
    play_out(d, [], rng)
    assert d.table.phase is Phase.OVER and not d.closed, "the ended room waits for ann"
    assert not d.people["eve"].inside, "the spectator is free at once"
    d.tick(1)
    d.resume("ann")
    frames = d.frames("ann")
    got = [f for f in frames if isinstance(f, Event)]
    assert [e.seq for e in got] == list(range(last + 1, got[-1].seq + 1))
    finals = [f for f in frames if isinstance(f, Result) and f.final]
    ends = [e for e in got if e.code == RoomEvent.MATCH_END]
    assert len(finals) == 1 and len(ends) == 1 and frames[-1] is ends[0]
    assert frames[-2] is finals[0] and isinstance(frames[-3], Event) and frames[-3].code == RoomEvent.HAND_END
    assert d.closed and not d.people["ann"].inside


def test_an_ended_room_is_released_when_the_grace_period_runs_out() -> None:
    d = Driver.new("tricks", seed=22, bots=[1], hands=2, clock_ms=2000)
    rng = random.Random(12)
    d.join("ann")
    assert d.random_answer("ann", rng)
    d.drop("ann")
    play_out(d, [], rng)
    assert not d.closed
    d.run_clock()
    assert d.closed and isinstance(d.outputs[-1], Close)
    assert d.now <= 5.0 + 1e-9 + max(e for e in [d.now]), "within the grace period of the drop"
    d.resume("ann", 0)
    assert d.frames("ann") == [], "after the grace period nothing is kept"


# ------------------------------------------------------------------ spectators and the end
@pytest.mark.parametrize("game", games.names())
def test_spectator_watches_robots_until_the_final_result(game: str) -> None:
    n = seats_of(game)
    d = Driver.new(game, seed=3, bots=list(range(n)))
    d.join("watcher")
    assert d.people["watcher"].seat is None and d.table.phase is Phase.PLAYING
    play_out(d, [], random.Random(5))
    results = d.frames("watcher", Result)
    assert len(results) == 1 and results[0].final
    assert not d.frames("watcher", Prompt)
    assert d.closed
    check_streams(d)


@pytest.mark.parametrize("game", games.names())
def test_a_match_of_two_hands_against_robots(game: str) -> None:
    n = seats_of(game)
    d = Driver.new(game, seed=11, hands=2, bots=list(range(1, n)), clock_ms=5000)
    d.join("ann")
    play_out(d, ["ann"], random.Random(5))
    results = d.frames("ann", Result)
    assert [r.hand for r in results] == [0, 1] and results[-1].final
    assert results[-1].totals == [a + b for a, b in zip(results[0].scores, results[1].scores, strict=True)]
    starts = events(d, "ann", RoomEvent.HAND_START)
    assert [e.arg for e in starts] == [0, 1] and starts[0].seat != starts[1].seat
    assert events(d, "ann")[-1].code == RoomEvent.MATCH_END
    assert not d.people["ann"].inside and d.closed
    if game == "bridge":
        assert results[0].detail["pbn"].startswith("% PBN 2.1"), "a bridge RESULT carries its board as PBN"
    check_streams(d)


def test_the_room_closes_when_nobody_is_left() -> None:
    d = Driver.new("tricks", bots=[1])
    d.join("ann")
    d.leave("ann")
    assert d.closed and d.table.phase is Phase.OVER
    assert d.table.handle(Restored(), 0.0) == [], "a closed table takes nothing more"


# ------------------------------------------------------------------ the log
def test_a_table_rebuilt_from_its_log_carries_on() -> None:
    d = Driver.new("mahjong", seed=8, bots=[1, 2, 3], logged=True, clock_ms=3000)
    d.join("ann")
    rng = random.Random(9)
    for _ in range(40):
        if not d.answer_robots(rng):
            d.random_answer("ann", rng)
    log = [roomlog.pack(d.table.head())]
    log += [roomlog.pack(o.entry) for o in d.outputs if isinstance(o, Append)]
    assert not any(isinstance(o, SealLog) for o in d.outputs)
    r = roomlog.replay("r1", log)
    assert (r.phase, r.seq, r.hand) == (Phase.PLAYING, d.table.seq, d.table.hand)
    t = Table.restore(r, limits=Limits(hand_pause=0), now=100.0)
    assert t.game.view(0) == d.table.game.view(0) and t.seat_names()[0] == "ann"
    out = t.handle(Restored(), 100.0)
    binds = [o for o in out if isinstance(o, Bound)]
    assert [(b.player, b.seat) for b in binds] == [("ann", 0)]
    assert t.seats[0].kind == SeatKind.AWAY and t.seats[0].stand_in
    assert set(t.pending) == set(t.game.to_act())
    assert all(isinstance(o, (Append, Publish, Bound, Dealt)) for o in out)
    assert [o.hand for o in out if isinstance(o, Dealt)] == [t.hand]  # its slow records start again


def test_the_core_does_no_io() -> None:
    """The room's core imports neither asyncio nor a socket or Redis library."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "paiju" / "core"
    paths = sorted((root / "table").glob("*.py")) + [root / n for n in ("roomlog.py", "lifecycle.py", "config.py")]
    assert len(paths) > 4
    for path in paths:
        name = path.relative_to(root)
        tree = ast.parse(path.read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        bad = {m for m in imported if m.split(".")[0] in ("asyncio", "websockets", "redis", "redisbus", "socket")}
        bad |= {m for m in imported if m.split(".")[:2] in (["paiju", "server"], ["paiju", "bus"])}  # the shells
        assert not bad, f"paiju/core/{name} imports {bad}"


def test_what_is_worked_out_from_a_deal_joins_its_result_when_it_comes_in_time() -> None:
    t = Table("r1", "tricks", None, seed=1, hands=2, clock_ms=1000, bots=[1], robot="random")
    out = t.handle(Enter("p1", "ann", conn=7), now=0.0)
    dealt = [o for o in out if isinstance(o, Dealt)]
    assert [d.hand for d in dealt] == [0] and dealt[0].game is t.game
    assert t.handle(Extra(0, {"value": 3}), 0.5) == []  # nothing to send: it waits for the hand's end
    results: list[Result] = []
    now = 0.5
    while len(results) < 2:
        now += 1.1
        out = t.handle(Tick(), now)  # the clock plays both seats
        results += [o.frame for o in out if isinstance(o, Send) and isinstance(o.frame, Result) and o.conn == 7]
        if any(isinstance(o, Dealt) for o in out):
            assert t.handle(Extra(0, {"value": 9}), now) == []  # hand 0 is over: too late, ignored
    assert results[0].detail["value"] == 3 and "value" not in results[1].detail
