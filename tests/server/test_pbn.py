"""PBN into a bridge room and out of it: CREATE_ROOM with a PBN file's text plays
its deals (hand h plays deal h mod their number), and every bridge RESULT carries the board
as PBN (``detail["pbn"]``) that reads back to the same deal, auction and score."""

from __future__ import annotations

import random

import pytest

from client import Client, ServerError
from games.bridge.pbn import read_pbn, result_pbn
from protocol import ErrorCode, Event, Result, RoomEvent, decode, encode
from protocol.bridge import VULNERABILITY
from protocol.bridge import Event as BridgeEvent
from protocol.frames import MAX_FRAME

from .conftest import Served

# Two boards as a person would type them: comments, a deal from West, a vulnerability alias.
PBN = """% two boards for the club night
[Event "club night"]
[Board "7"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "N:A4.J9843.KQJ.AK2 Q763.KQ62.952.J6 KT98.A75.76.T754 J52.T.AT843.Q983"]

{ the second one }
[Event "club night"]
[Board "12"]
[Dealer "W"]
[Vulnerable "Both"]
[Deal "W:65.6432.QJ643.K8 AQJ8.KQJ7.A92.T5 KT942.T.T875.A97 73.A985.K.QJ6432"]
"""
BOARDS = read_pbn(PBN)


async def test_a_room_plays_the_deals_of_a_pbn_file(served: Served) -> None:
    rng = random.Random(4)
    ann = await Client.connect(served.url, "ann", record=True)
    try:
        st = await ann.create("bridge", bots=[1, 2, 3], robot="random", clock_ms=30_000, hands=3, pbn=PBN)
        assert st.room == ann.room
        results = await ann.play(rng, timeout=120)
        assert [r.hand for r in results] == [0, 1, 2] and results[-1].final
        events = [f for f in ann.log if isinstance(f, Event)]
        starts = [e for e in events if e.code == RoomEvent.HAND_START]
        deals = [e.cards for e in events if e.code == RoomEvent.DEAL and e.seat == 0]
        # each HAND_START is followed by the board's own number, dealer and vulnerability
        shown = [events[events.index(e) + 1] for e in starts]
        for h, result in enumerate(results):
            board = BOARDS[h % len(BOARDS)]  # the third hand plays the first deal again
            assert (starts[h].arg, starts[h].seat) == (h, board.dealer)
            assert shown[h].code == BridgeEvent.BOARD and shown[h].seat == board.dealer
            assert (shown[h].arg >> 2, VULNERABILITY[shown[h].arg & 3]) == (board.board, board.vulnerable)
            assert deals[h] == board.hands[0]
            assert tuple(result.hands) == board.hands
            assert (result.detail["board"], result.detail["vulnerable"]) == (board.board, board.vulnerable)
            [played] = read_pbn(result.detail["pbn"])  # the PBN a client saves reads back
            assert (played.board, played.dealer, played.vulnerable, played.hands) == (
                board.board,
                board.dealer,
                board.vulnerable,
                board.hands,
            )
            assert played.contract == result.detail["contract"] and played.event == "paiju"
            if played.contract != "Pass":
                assert played.result == result.detail["tricks"]
            assert played.game().outcome().scores == tuple(result.scores), "its auction and play replay the score"
        print(
            f"PBN room: boards {[r.detail['board'] for r in results]}, contracts "
            f"{[r.detail['contract'] for r in results]}, totals {results[-1].totals}; every RESULT's PBN re-imported"
        )

        # Without `hands` the room plays each deal once.
        await ann.create("bridge", bots=[1, 2, 3], robot="random", pbn=PBN)
        [info] = [r for r in await ann.list_rooms("bridge") if r.room == ann.room]
        assert info.hands == len(BOARDS)
        await ann.leave()
    finally:
        await ann.close()


async def test_pbn_is_refused_with_a_clear_error(served: Served) -> None:
    c = await Client.connect(served.url, "pat")
    try:
        with pytest.raises(ServerError) as e:
            await c.create("niujiu", bots=[1, 2], pbn=PBN)
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS and "bridge rooms only" in e.value.error.message
        broken = PBN.replace("KQJ.AK2 ", "KQJ.AK ")  # board 7's North has 12 cards
        with pytest.raises(ServerError) as e:
            await c.create("bridge", bots=[1, 2, 3], pbn=broken)
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS and e.value.error.message.startswith("pbn: line 6: Deal")
        with pytest.raises(ServerError) as e:
            await c.create("bridge", bots=[1, 2, 3], pbn="% nothing here\n")
        assert e.value.code == ErrorCode.BAD_ROOM_OPTIONS and "no board" in e.value.error.message
        huge = PBN + "%" * (60_001 - len(PBN))  # over the field's limit, within MAX_FRAME
        assert len(huge) + 100 < MAX_FRAME
        with pytest.raises(ServerError) as e:
            await c.create("bridge", bots=[1, 2, 3], pbn=huge)
        assert e.value.code == ErrorCode.BAD_FIELD
        st = await c.create("bridge", bots=[1, 2, 3], pbn=PBN + "%" * (59_000 - len(PBN)))  # the connection carries on
        assert st.room and st.seat == 0
        await c.leave()
    finally:
        await c.close()


def test_pbn_results_are_whole_files() -> None:
    """A RESULT's PBN is a file in PBN's export format (what bridge programs load)."""
    import games
    from games import Action

    g = games.create("bridge", 3, "standard")
    rng = random.Random(2)
    while not g.is_over:
        s = g.to_act()[0]
        o = rng.choice(g.legal(s).options)
        g.apply(s, Action(o.code, bytes(rng.sample(list(o.cards), o.pick))))
    text = result_pbn(g)["pbn"]
    assert text.startswith("% PBN 2.1\n% EXPORT\n") and '[Deal "N:' in text
    [b] = read_pbn(text)
    assert b.hands == tuple(g.dealt) and b.auction == tuple(g.calls)
    frame = Result("r1", 0, [0] * 4, [0] * 4, list(g.dealt), True, {**g.outcome().detail, **games.records(g)})
    assert decode(encode(frame)) == frame, "the PBN travels in RESULT.detail as a string"
