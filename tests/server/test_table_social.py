"""The room core's chat and rematch (paiju/core/table/ with paiju/core/social.py), driven in-process:
who reads which line, the length cap, the rate limit, mutes, the lines a newcomer or a resumed
player gets again, and nothing of it in the room's log; the rematch offered after the match,
accepted by all, declined, timed out, and with a player who drops or leaves during the offer."""

from __future__ import annotations

import random

from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.core.social import Chat
from paiju.core.table import AnswerRematch, MuteName, Rematched, SayLine, SwapSeat
from paiju.protocol import ChatLine, Error, ErrorCode, RematchOffer, RematchState, RoomEvent, SeatKind

from .tablekit import Driver

LIMITS = Limits(hand_pause=0.0, grace=5.0, quickplay_wait=1.0, rematch_wait=30.0)


def say(d: Driver, pid: str, text: str) -> None:
    d.feed(SayLine(pid, d.people[pid].conn, text))


def lines(d: Driver, pid: str) -> list[tuple[str, str]]:
    return [(f.speaker, f.text) for f in d.frames(pid, ChatLine)]


def errors(d: Driver, pid: str) -> list[int]:
    return [f.code for f in d.frames(pid, Error)]


def test_players_chat_to_the_table_and_spectators_among_themselves() -> None:
    d = Driver.new("tricks", limits=LIMITS)
    d.join("ann")
    d.join("bob")
    d.join("eve", None)  # watching
    say(d, "ann", "hi <b>x</b>")
    say(d, "eve", "nice lead")
    assert lines(d, "ann") == lines(d, "bob") == [("ann", "hi <b>x</b>")]  # the players never read the gallery
    assert lines(d, "eve") == [("ann", "hi <b>x</b>"), ("eve", "nice lead")]
    [first, second] = d.frames("eve", ChatLine)
    assert (first.seat, first.channel, second.seat, second.channel) == (0, 0, None, 1) and second.id > first.id
    assert not any(isinstance(e.result, ChatLine) for e in d.table.log)  # chat is not in the room's log
    # a newcomer and a resumed player get the last lines they may read again
    d.join("sam", None)
    assert lines(d, "sam") == lines(d, "eve")
    d.drop("bob")
    d.resume("bob")
    assert lines(d, "bob") == [("ann", "hi <b>x</b>")]


def test_length_rate_and_emptiness_are_refused() -> None:
    d = Driver.new("tricks", limits=LIMITS)
    d.join("ann")
    d.join("bob")
    say(d, "ann", "x" * (Chat.MAX_LEN + 1))
    say(d, "ann", " \x07 ")
    assert errors(d, "ann") == [ErrorCode.BAD_FIELD, ErrorCode.BAD_FIELD] and lines(d, "bob") == []
    for i in range(Chat.BURST + 1):
        say(d, "ann", f"line {i}")
    assert errors(d, "ann")[-1] == ErrorCode.RATE_LIMITED
    assert len(lines(d, "bob")) == Chat.BURST  # the burst, then one line every REFILL_S
    d.tick(Chat.REFILL_S)
    say(d, "ann", "again")
    assert lines(d, "bob")[-1] == ("ann", "again")
    say(d, "bob", "x" * Chat.MAX_LEN)  # another player's own allowance
    assert lines(d, "ann")[-1] == ("bob", "x" * Chat.MAX_LEN)
    d.feed(SayLine("zed", 99, "hello"))  # not in the room
    assert [f.code for f in d.got[99]] == [ErrorCode.NOT_IN_ROOM]
    d.feed(AnswerRematch("ann", d.people["ann"].conn, True))  # no rematch during the match
    assert errors(d, "ann")[-1] == ErrorCode.WRONG_STATE


def test_a_player_mutes_another() -> None:
    d = Driver.new("tricks", limits=LIMITS)
    d.join("ann")
    d.join("bob")
    d.feed(MuteName("bob", d.people["bob"].conn, "ann", True))
    say(d, "ann", "can you hear me")
    assert lines(d, "bob") == [] and lines(d, "ann") == [("ann", "can you hear me")]
    d.feed(MuteName("bob", d.people["bob"].conn, "ann", False))
    say(d, "ann", "now?")
    assert lines(d, "bob") == [("ann", "now?")]


def play_out(d: Driver, rng: random.Random) -> None:
    for _ in range(10_000):
        if d.table.phase is Phase.OVER:
            return
        if not any(d.random_answer(p, rng) for p in list(d.people)) and not d.answer_robots(rng):
            d.step_clock()
    raise AssertionError("the match did not end")


def offers(d: Driver, pid: str) -> list[RematchOffer]:
    return [f for f in d.frames(pid) if isinstance(f, RematchOffer)]


def ended(game: str = "tricks", bots: list[int] | None = None, *, rematch: bool = True) -> Driver:
    """A match played to its end by humans whose connections answer rematch offers (HELLO's
    Feature.REMATCH) or not."""
    d = Driver.new(game, seed=4, limits=LIMITS, bots=bots)
    for pid in ("ann", "bob", "cid", "dan")[: d.table.n - len(bots or [])]:
        d.join(pid, rematch=rematch)
    play_out(d, random.Random(2))
    return d


def test_a_rematch_accepted_by_every_human() -> None:
    d = ended()
    assert [(o.state, o.ms_left) for o in offers(d, "ann")] == [(RematchState.OFFER, 30_000)]
    assert not d.closed  # the room stays while the offer runs
    d.feed(AnswerRematch("ann", d.people["ann"].conn, True))
    assert [o.accepted for o in offers(d, "bob")] == [[], [0]]  # each is told who accepted
    say(d, "ann", "one more?")  # the table still talks after the match
    assert lines(d, "bob") == [("ann", "one more?")]
    out = d.feed(AnswerRematch("bob", d.people["bob"].conn, True))
    [done] = [o for o in out if isinstance(o, Rematched)]
    assert {s: p for s, (p, _, _) in done.humans.items()} == {0: "ann", 1: "bob"} and done.left == frozenset()
    assert d.closed  # the caller opens the new match and tells them (REMATCH_OFFER ACCEPTED, next_room)


def test_no_offer_to_a_client_that_does_not_answer_them() -> None:
    d = ended(rematch=False)
    assert offers(d, "ann") == [] and d.closed  # the room closes at the end, as it always did


def test_a_rematch_declined_or_timed_out_ends_the_room() -> None:
    d = ended()
    d.feed(AnswerRematch("bob", d.people["bob"].conn, False))
    assert offers(d, "ann")[-1].state == RematchState.DECLINED and d.closed
    assert not any(isinstance(o, Rematched) for o in d.outputs)
    d = ended()
    d.feed(AnswerRematch("ann", d.people["ann"].conn, True))
    assert d.table.rematch is not None and d.table.next_deadline() == d.table.rematch.deadline  # its clock runs
    d.run_clock()
    assert offers(d, "bob")[-1].state == RematchState.EXPIRED and d.closed
    assert d.feed(AnswerRematch("bob", 99, True)) == []  # too late: the room is closed (the server: NO_SUCH_ROOM)


def test_a_player_who_drops_during_the_offer_is_replaced_by_a_robot() -> None:
    d = ended("niujiu")  # three humans
    d.feed(AnswerRematch("ann", d.people["ann"].conn, True))
    d.drop("bob")  # gone during the offer: the others decide
    assert not any(isinstance(o, Rematched) for o in d.outputs)
    out = d.feed(AnswerRematch("cid", d.people["cid"].conn, True))
    [done] = [o for o in out if isinstance(o, Rematched)]
    assert sorted(done.humans) == [0, 2] and done.left == frozenset({1})


def test_one_who_leaves_the_table_during_the_offer_declines_for_itself_only() -> None:
    d = ended("tricks", bots=[1])  # one human and a robot
    d.leave("ann")  # back to the lobby: nobody is left to rematch
    assert d.closed and not any(isinstance(o, Rematched) for o in d.outputs)
    assert offers(d, "ann") == [RematchOffer("r1", RematchState.OFFER, 30_000, [])]


def test_the_creator_swaps_seats_between_robot_and_player_before_the_start() -> None:
    d = Driver.new("mahjong", limits=LIMITS)
    d.join("ann")
    d.join("bob")
    conn = d.people["ann"].conn
    d.feed(SwapSeat("bob", d.people["bob"].conn, 2, True))  # not the creator
    assert errors(d, "bob") == [ErrorCode.WRONG_STATE]
    d.feed(SwapSeat("ann", conn, 1, True))  # bob's seat is a player's
    assert errors(d, "ann") == [ErrorCode.SEAT_TAKEN]
    d.feed(SwapSeat("ann", conn, 2, True))
    d.feed(SwapSeat("ann", conn, 2, False))  # back to a free seat
    d.feed(SwapSeat("ann", conn, 2, True))
    assert d.table.phase is Phase.WAITING and d.table.free_seats() == [3]
    seats = [(e.seat, e.arg) for e in d.frames("bob") if getattr(e, "code", None) == RoomEvent.SEAT and e.seat == 2]
    assert seats == [(2, SeatKind.BOT), (2, SeatKind.EMPTY), (2, SeatKind.BOT)]
    d.feed(SwapSeat("ann", conn, 3, True))  # the last free seat: the match starts
    assert d.table.phase is Phase.PLAYING and d.table.info().bots == [2, 3]
    d.feed(SwapSeat("ann", conn, 3, False))
    assert errors(d, "ann")[-1] == ErrorCode.WRONG_STATE
