"""The lobby's part in invite links, chat and rematch (paiju/core/lobby/ with real tables): JOIN
with first_free seats whoever opens a link, else watches; chat frames reach the room, a LEAVE
after the match reaches the room that offers a rematch; the rematch accepted by both opens a
new room with them (mahjong's seats one on, robots for the rest) and tells them where."""

from __future__ import annotations

from paiju.core.config import Limits
from paiju.protocol import (
    VERSION,
    ChatLine,
    CreateRoom,
    ErrorCode,
    Feature,
    Hello,
    Join,
    Leave,
    RematchAnswer,
    RematchOffer,
    RematchState,
    RoomState,
    Say,
    SetSeat,
)

from .lobbykit import Kit

BOTH = Feature.BATCH | Feature.REMATCH


def states(k: Kit, conn: int) -> list[RoomState]:
    return [f for f in k.frames[conn] if isinstance(f, RoomState)]


def test_invite_link_chat_and_rematch_through_the_lobby() -> None:
    k = Kit()
    assert k.hello(1, "ann", features=BOTH).features == BOTH  # granted
    k.hello(2, "bob", features=Feature.REMATCH)
    k.hello(3, "eve")
    k.send(1, CreateRoom("mahjong", bots=[], private=True, clock_ms=1000))
    room = states(k, 1)[-1].room
    for s in (2, 3):  # the creator gives two seats to robots before the start
        k.send(1, SetSeat(room, s, True))
    k.send(2, Join(room, first_free=True))  # the invite link: the first free seat
    assert states(k, 2)[-1].seat == 1
    k.send(3, Join(room, first_free=True))  # no free seat left: watching
    assert states(k, 3)[-1].seat is None
    k.send(3, Say(room, "from the gallery"))
    k.send(1, Say(room, "<b>x</b>"))
    said = [(f.speaker, f.text) for f in k.frames[2] if isinstance(f, ChatLine)]
    assert said == [("ann", "<b>x</b>")]
    k.play(1, 2)
    [offer] = [f for f in k.frames[2] if isinstance(f, RematchOffer)]
    assert offer.state == RematchState.OFFER and offer.room == room
    k.send(1, RematchAnswer(room, True))
    k.send(2, RematchAnswer(room, True))
    told = [f for f in k.frames[1] if isinstance(f, RematchOffer)][-1]
    assert told.state == RematchState.ACCEPTED and told.next_room not in (None, room)
    assert [(s.room, s.seat) for s in states(k, 1)[-1:] + states(k, 2)[-1:]] == [
        (told.next_room, 1),
        (told.next_room, 2),
    ]
    new = k.lobby.rooms[told.next_room].table
    assert new.private and new.info().bots == [0, 3] and room not in k.lobby.rooms  # the old room closed


def test_leaving_after_the_match_gives_up_the_rematch_without_an_error() -> None:
    k = Kit()
    k.hello(1, "ann", features=Feature.REMATCH)
    k.send(1, CreateRoom("tricks", bots=[1], clock_ms=1000))
    room = states(k, 1)[-1].room
    k.play(1)
    assert [f.state for f in k.frames[1] if isinstance(f, RematchOffer)] == [RematchState.OFFER]
    k.send(1, Leave(room))
    assert k.errors(1) == [] and room not in k.lobby.rooms


def test_chat_is_limited_per_address_too() -> None:
    """10 fresh guest connections from one address, each saying 5 lines at once (its own
    burst): the address's bound lets 10 through in all; another address is not touched."""
    k = Kit()
    k.hello(1, "host", address="10.0.0.9")
    k.send(1, CreateRoom("tricks", bots=[1], clock_ms=60_000))
    room = states(k, 1)[-1].room
    for c in range(10, 20):
        k.hello(c, f"g{c}", address="10.0.0.5")
        k.send(c, Join(room))  # watching
        for i in range(5):
            k.send(c, Say(room, f"line {i}"))
    lines = [f for f in k.frames[10] if isinstance(f, ChatLine)] + [
        f for c in range(11, 20) for f in k.frames[c] if isinstance(f, ChatLine) and f.speaker == f"g{c}"
    ]
    delivered = {f.id for f in lines}
    assert len(delivered) == 10, len(delivered)
    assert sum(k.errors(c).count(ErrorCode.RATE_LIMITED) for c in range(10, 20)) == 40
    k.send(1, Say(room, "the host is heard"))
    assert k.errors(1) == [] and isinstance(k.frames[1][-1], ChatLine)


def test_a_flood_from_the_gallery_keeps_the_players_lines() -> None:
    """The players' last lines come back to a resuming player whatever the spectators said."""
    k = Kit(Limits(grace=10.0, address_connections=0, robot_on_drop=False))
    w = k.hello(1, "ann")
    k.send(1, CreateRoom("tricks", bots=[1], clock_ms=60_000))
    room = states(k, 1)[-1].room
    for i in range(12):
        k.now += 2.0
        k.send(1, Say(room, f"ann {i}"))
    for c in range(10, 30):  # 20 spectators from 20 addresses, 5 lines each: 100 lines
        k.hello(c, f"s{c}", address=f"10.0.1.{c}")
        k.send(c, Join(room))
        for i in range(5):
            k.send(c, Say(room, f"flood {i}"))
    k.drop(1)
    k.connect(2)
    got = k.send(2, Hello(VERSION, "ann", token=w.token))
    said = [f.text for f in got if isinstance(f, ChatLine)]
    assert said == [f"ann {i}" for i in range(12)]  # every one of them, and no spectator's


def test_a_rematch_answer_from_another_room_is_refused_and_the_rematch_goes_on() -> None:
    """Bob opens another room while the rematch is offered: his answer is refused
    (ALREADY_IN_ROOM), the offer goes on without him, and Ann's acceptance opens the new
    match with a robot in his seat."""
    k = Kit()
    k.hello(1, "ann", features=Feature.REMATCH)
    k.hello(2, "bob", features=Feature.REMATCH)
    k.send(1, CreateRoom("tricks", clock_ms=1000))
    room = states(k, 1)[-1].room
    k.send(2, Join(room, 1))
    k.play(1, 2)
    assert [f.state for f in k.frames[2] if isinstance(f, RematchOffer)] == [RematchState.OFFER]
    k.send(2, CreateRoom("mahjong", bots=[1, 2, 3], clock_ms=60_000))
    other = states(k, 2)[-1].room
    k.send(2, RematchAnswer(room, True))
    assert k.errors(2) == [ErrorCode.ALREADY_IN_ROOM] and k.lobby.conns[2].room == other  # type: ignore[union-attr]
    offers = [f for f in k.frames[1] if isinstance(f, RematchOffer)]
    assert offers[-1].state == RematchState.OFFER and offers[-1].left == [1]  # bob's seat: a robot's
    k.send(1, RematchAnswer(room, True))
    told = [f for f in k.frames[1] if isinstance(f, RematchOffer)][-1]
    assert told.state == RematchState.ACCEPTED and told.next_room is not None
    assert k.lobby.rooms[told.next_room].table.info().bots == [1]
    assert k.lobby.conns[2].room == other  # type: ignore[union-attr]
