"""Fair clocks and paced robots in the room core (paiju/core/table/), driven in-process with a
clock the test moves: a human who runs over a move's time spends the seat's time bank and
keeps the seat while the bank lasts; when it is spent the clock plays and a robot takes the
seat, and the owner gets it back by answering the next prompt before the robot does; in a
room that people play in or watch, robots' answers are played at the robot pace, not at
once (robots alone, in the arena, play at full speed)."""

from __future__ import annotations

import random

from paiju.core.config import Limits
from paiju.core.table import Publish
from paiju.games import GameAction
from paiju.protocol import Ack, Event, Prompt, RoomEvent

from .tablekit import Driver

MOVE, BANK = 1.0, 3.0


def robot_events(d: Driver, pid: str) -> list[int]:
    return [f.arg for f in d.frames(pid, Event) if f.code == RoomEvent.ROBOT and f.seat == 0]


def until_prompted(d: Driver, rng: random.Random) -> Prompt:
    """Let the robot move until seat 0 has a prompt; the last PROMPT it was sent."""
    for _ in range(100):
        p = d.table.pending.get(0)
        if p is not None:
            return [f for f in d.frames("ann", Prompt) if f.prompt_id == p.id and f.mask][-1]
        assert d.answer_robots(rng) or d.step_clock()
    raise AssertionError("seat 0 was never prompted")


def first_option(prompt: Prompt) -> GameAction:
    o = prompt.options[0]
    return GameAction(o.code, bytes(o.cards[: o.pick]))


def test_the_bank_keeps_the_seat_then_a_robot_takes_it_and_the_owner_takes_it_back() -> None:
    rng = random.Random(3)
    limits = Limits(hand_pause=0.0, grace=5.0, takeover_after=2)
    d = Driver.new("tricks", seed=4, bots=[1], clock_ms=int(MOVE * 1000), bank_ms=int(BANK * 1000), limits=limits)
    d.join("ann")

    # a prompt carries the move's time and the whole bank
    p1 = until_prompted(d, rng)
    assert (p1.ms_left, p1.bank_ms) == (int((MOVE + BANK) * 1000), int(BANK * 1000))
    # 2.5 s of thought: past the move's time, on the bank, but the seat is still the human's
    d.tick(2.5)
    assert d.table.pending[0].id == p1.prompt_id
    assert not [f for f in d.frames("ann", Event) if f.code == RoomEvent.TIMEOUT]
    assert robot_events(d, "ann") == []
    d.act("ann", p1.prompt_id, first_option(p1))
    assert d.frames("ann", Ack)[-1].prompt_id == p1.prompt_id
    assert abs(d.table.seats[0].bank - (BANK - 1.5)) < 1e-9  # 1.5 s of the bank are spent

    # the next prompt offers what is left of the bank; waiting it out: the clock plays, a robot takes over
    p2 = until_prompted(d, rng)
    assert (p2.ms_left, p2.bank_ms) == (int((MOVE + BANK - 1.5) * 1000), int((BANK - 1.5) * 1000))
    d.tick(MOVE + BANK - 1.5)
    timeouts = [f for f in d.frames("ann", Event) if f.code == RoomEvent.TIMEOUT]
    assert [t.arg for t in timeouts] == [p2.prompt_id]
    assert robot_events(d, "ann") == [1] and d.table.seats[0].stand_in  # on the first timeout: the bank was spent

    # the next prompt goes to the robot and, still, to the owner; the robot's answer waits for
    # the move's time, and the owner, answering first, takes the seat back
    p3 = until_prompted(d, rng)
    asked = [o.request for o in d.outputs if isinstance(o, Publish) and o.request.prompt_id == p3.prompt_id]
    assert asked and p3.bank_ms == 0 and p3.ms_left == int(MOVE * 1000)
    robot_choice = first_option(p3) if len(p3.options) == 1 else GameAction(0, bytes(p3.options[0].cards[-1:]))
    d.decide(0, p3.prompt_id, robot_choice)
    assert d.table.pending[0].id == p3.prompt_id  # held, not played
    d.tick(MOVE / 2)
    mine = GameAction(0, bytes(p3.options[0].cards[:1]))
    d.act("ann", p3.prompt_id, mine)
    assert robot_events(d, "ann") == [1, 0] and not d.table.seats[0].stand_in
    echo = [f for f in d.frames("ann", Event) if f.seat == 0 and f.code == 0x20][-1]
    assert echo.cards == mine.cards  # the owner's card was played, not the robot's


def test_robots_are_paced_in_a_room_with_people() -> None:
    rng = random.Random(5)
    d = Driver.new("tricks", seed=2, bots=[1], clock_ms=30_000, limits=Limits(hand_pause=0.0, robot_pace=0.6))
    d.join("ann")
    for _ in range(50):  # until the robot is to play
        if 1 in d.table.pending:
            break
        p = until_prompted(d, rng)
        d.act("ann", p.prompt_id, first_option(p))
    robot = d.table.pending[1]
    o = robot.actions.options[0]
    seq = d.table.seq
    d.decide(1, robot.id, GameAction(o.code, bytes(o.cards[:1])))
    assert d.table.seq == seq and d.table.next_deadline() == robot.start + 0.6  # held
    d.tick(0.5)
    assert d.table.seq == seq
    d.tick(0.1)
    assert d.table.seq > seq and (1 not in d.table.pending or d.table.pending[1].id != robot.id)  # played


def test_a_robots_match_with_a_spectator_is_paced_too() -> None:
    d = Driver.new("tricks", seed=2, bots=[0, 1], clock_ms=30_000, limits=Limits(hand_pause=0.0, robot_pace=0.6))
    d.join("eve", seat=None)  # the spectator starts the robots' match
    p = next(iter(d.table.pending.values()))
    o = p.actions.options[0]
    seq = d.table.seq
    d.decide(p.seat, p.id, GameAction(o.code, bytes(o.cards[:1])))
    assert d.table.seq == seq
    d.tick(0.6)
    assert d.table.seq > seq
