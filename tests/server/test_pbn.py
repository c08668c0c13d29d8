"""PBN into a bridge room and out of it: CREATE_ROOM with a PBN file's text plays
its deals (hand h plays deal h mod their number), and every bridge RESULT carries the board
as PBN (``detail["pbn"]``) that reads back to the same deal, auction and score. In-process:
the lobby's core and the tables (tests/server/lobbykit.py)."""

from __future__ import annotations

import random

import pytest

from paiju.games.bridge.pbn import read_pbn, result_pbn
from paiju.protocol import (
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    ListRooms,
    ProtocolError,
    Result,
    RoomEvent,
    RoomList,
    RoomState,
    decode,
    encode,
)
from paiju.protocol.bridge import VULNERABILITY, EventCode
from paiju.protocol.frames import MAX_FRAME

from .lobbykit import Kit

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


def test_a_room_plays_the_deals_of_a_pbn_file() -> None:
    k = Kit()
    k.hello(1, "ann")
    got = k.send(1, CreateRoom("bridge", hands=3, clock_ms=30_000, bots=[1, 2, 3], robot="random", pbn=PBN))
    st = next(f for f in got if isinstance(f, RoomState))
    assert st.room == k.lobby.conns[1].room  # type: ignore[union-attr]
    k.play(1, rng=random.Random(4))
    log = k.frames[1]
    results = [f for f in log if isinstance(f, Result)]
    assert [r.hand for r in results] == [0, 1, 2] and results[-1].final
    events = [f for f in log if isinstance(f, Event)]
    starts = [e for e in events if e.code == RoomEvent.HAND_START]
    deals = [e.cards for e in events if e.code == RoomEvent.DEAL and e.seat == 0]
    # each HAND_START is followed by the board's own number, dealer and vulnerability
    shown = [events[events.index(e) + 1] for e in starts]
    for h, result in enumerate(results):
        board = BOARDS[h % len(BOARDS)]  # the third hand plays the first deal again
        assert (starts[h].arg, starts[h].seat) == (h, board.dealer)
        assert shown[h].code == EventCode.BOARD and shown[h].seat == board.dealer
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
    k.send(1, CreateRoom("bridge", bots=[1, 2, 3], robot="random", pbn=PBN))
    (listed,) = k.send(1, ListRooms("bridge"))
    assert isinstance(listed, RoomList)
    [info] = [r for r in listed.rooms if r.room == k.lobby.conns[1].room]  # type: ignore[union-attr]
    assert info.hands == len(BOARDS)


def test_pbn_is_refused_with_a_clear_error() -> None:
    k = Kit()
    k.hello(1, "pat")

    def refused(f: CreateRoom) -> Error:
        (e,) = [x for x in k.send(1, f) if isinstance(x, Error)]
        return e

    e = refused(CreateRoom("niujiu", bots=[1, 2], pbn=PBN))
    assert e.code == ErrorCode.BAD_ROOM_OPTIONS and "bridge rooms only" in e.message
    broken = PBN.replace("KQJ.AK2 ", "KQJ.AK ")  # board 7's North has 12 cards
    e = refused(CreateRoom("bridge", bots=[1, 2, 3], pbn=broken))
    assert e.code == ErrorCode.BAD_ROOM_OPTIONS and e.message.startswith("pbn: line 6: Deal")
    e = refused(CreateRoom("bridge", bots=[1, 2, 3], pbn="% nothing here\n"))
    assert e.code == ErrorCode.BAD_ROOM_OPTIONS and "no board" in e.message
    huge = PBN + "%" * (60_001 - len(PBN))  # over the field's limit, within MAX_FRAME: the reader refuses it
    frame = encode(CreateRoom("bridge", bots=[1, 2, 3], pbn=huge))
    assert len(frame) < MAX_FRAME
    with pytest.raises(ProtocolError) as err:
        decode(frame)
    assert err.value.code == ErrorCode.BAD_FIELD
    got = k.send(1, CreateRoom("bridge", bots=[1, 2, 3], pbn=PBN + "%" * (59_000 - len(PBN))))  # it carries on
    st = next(f for f in got if isinstance(f, RoomState))
    assert st.room and st.seat == 0


def test_pbn_results_are_whole_files() -> None:
    """A RESULT's PBN is a file in PBN's export format (what bridge programs load)."""
    from paiju import games
    from paiju.games import GameAction

    g = games.create("bridge", 3, "standard")
    rng = random.Random(2)
    while not g.is_over:
        s = g.to_act()[0]
        o = rng.choice(g.legal(s).options)
        g.apply(s, GameAction(o.code, bytes(rng.sample(list(o.cards), o.pick))))
    text = result_pbn(g)["pbn"]
    assert text.startswith("% PBN 2.1\n% EXPORT\n") and '[Deal "N:' in text
    [b] = read_pbn(text)
    assert b.hands == tuple(g.dealt) and b.auction == tuple(g.calls)
    frame = Result("r1", 0, [0] * 4, [0] * 4, list(g.dealt), True, {**g.outcome().detail, **games.details(g)})
    assert decode(encode(frame)) == frame, "the PBN travels in RESULT.detail as a string"
