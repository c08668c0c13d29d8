"""Property tests of the room core: random interleavings of joins, leaves, drops, resumes,
actions (legal and not), robots' decisions (legal, late and refused) and clock ticks, in
every game. After every input the prompts match the game (one per seat to act, for its
controller); the sequence number never goes back and nothing follows MATCH_END; at the
end every connection's events are consecutive, each exactly the table's event as that
connection's seat may see it (hidden cards hidden), spectators get no prompt, and a
player who resumed got every event it missed exactly once."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju import games
from paiju.core.config import Limits
from paiju.core.lifecycle import Phase
from paiju.games import GameAction
from paiju.protocol import RoomEvent

from .tablekit import Driver, check_prompts, check_streams, seats_of

PEOPLE = [f"p{i}" for i in range(5)]
# join, leave, drop, resume, act, decide, tick, clock: joins and answers weigh most, so that
# matches get played; leaves are rare, since a room whose people all left is closed
KINDS = [0] * 4 + [1] + [2] * 2 + [3] * 2 + [4] * 6 + [5] * 5 + [6] * 2 + [7] * 2
ops = st.lists(
    st.tuples(st.sampled_from(KINDS), st.integers(0, len(PEOPLE) - 1), st.integers(0, 2**16)), min_size=10, max_size=150
)


def run(game: str, seed: int, bots: list[int], program: list[tuple[int, int, int]], robot_on_drop: bool) -> Driver:
    n = seats_of(game)
    limits = Limits(hand_pause=0.5, grace=3.0, quickplay_wait=2.0, takeover_after=2, robot_on_drop=robot_on_drop)
    d = Driver.new(game, seed=seed, hands=2, bots=[b for b in bots if b < n], clock_ms=800, limits=limits)
    resumed: dict[int, int] = {}
    seq = 0
    ended_at: int | None = None
    d.join(PEOPLE[0])  # as the lobby does: a room is made with its creator in it
    for op, who, r in program:
        rng = random.Random(r)
        pid = PEOPLE[who]
        p = d.person(pid)
        if op == 0:
            d.join(pid, rng.choice(["any", None, *range(n + 1)]))
        elif op == 1:
            d.leave(pid)
        elif op == 2 and p.conn is not None and p.inside:
            d.drop(pid)
        elif op == 3 and p.conn is None and p.inside:
            last = rng.choice(["last", "last", None])
            seen = p.last_seq
            d.resume(pid, last)
            if last == "last" and p.conn is not None:
                resumed[p.conn] = seen
        elif op == 4:
            if not d.random_answer(pid, rng):
                d.act(pid, rng.randrange(1, 50), GameAction(rng.randrange(8), bytes([rng.randrange(1, 60)])))
        elif op == 5:
            if rng.random() < 0.8 and d.answer_robots(rng):
                pass
            else:
                d.decide(rng.randrange(n), rng.randrange(1, 50), GameAction(rng.randrange(8), b""))
        elif op == 6:
            d.tick((r % 2000) / 1000)
        elif op == 7:
            d.step_clock()
        check_prompts(d)
        assert d.table.seq >= seq, "the sequence number never goes back"
        seq = d.table.seq
        if ended_at is not None:
            assert d.table.seq == ended_at, "nothing is emitted after MATCH_END"
        elif any(e.event.code == RoomEvent.MATCH_END for e in d.table.log):
            ended_at = d.table.seq
        if d.table.phase is Phase.OVER:
            assert not d.table.pending
        if d.closed:
            break
    check_streams(d, resumed_from=resumed)
    return d


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(games.names()),
    seed=st.integers(0, 1000),
    bots=st.lists(st.integers(0, 3), max_size=3),
    program=ops,
    robot_on_drop=st.booleans(),
)
def test_random_interleavings_keep_the_invariants(
    game: str, seed: int, bots: list[int], program: list[tuple[int, int, int]], robot_on_drop: bool
) -> None:
    run(game, seed, bots, program, robot_on_drop)
