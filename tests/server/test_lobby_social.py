"""The lobby's part in invite links, chat and rematch (paiju/core/lobby.py with real tables): JOIN
with first_free seats whoever opens a link, else watches; chat frames reach the room, a LEAVE
after the match reaches the room that offers a rematch; the rematch accepted by both opens a
new room with them (mahjong's seats one on, robots for the rest) and tells them where."""

from __future__ import annotations

from paiju.protocol import (
    ChatLine,
    CreateRoom,
    Feature,
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
