"""The floor of `paiju bench peers`: the least a Python server on paiju's stack does for the same game.

The two-player ``tricks`` game (docs/rules/tricks.md) served on paiju's own stack (websockets'
asyncio server on uvloop, paiju.protocol's msgpack frames, one write a connection a turn of
the event loop) with the same authority as Colyseus's room (paiju/bench/colyseus/room.js):
the server deals, prompts the seat to play, checks every move (the right seat, the open
prompt, a card of the hand), hides each hand from the other seat, and tells both players
what happened. It speaks the part of paiju's wire (paiju/protocol/SPEC.md) that the load
generator uses, with the frames ``paiju serve`` sends for them: HELLO/WELCOME (batches
granted when asked), CREATE_ROOM and JOIN (answered by ROOM_STATE; a room of two seats that
deals once both are taken), PROMPT, ACTION answered by ACK, the EVENTs of the hand (its
start, the deal, each card, each trick, its end, the match's end), RESULT, LEAVE, ERROR with
SPEC.md §7's codes. Frames that ask nothing of their reader (events, results, ACKs) may
wait ``--linger-ms`` to leave with the connection's next prompt, as paiju serve's do.

Nothing else: no records, no room log, no resume, no clocks (a PROMPT's ``ms_left`` is 0),
no metrics, no rate limits, no lobby beyond the pairing of CREATE_ROOM and JOIN. What paiju
serve spends above this floor a move is what its features cost; what the floor spends is
what any server on this stack pays.

``--reader recv`` (the default) reads each message with websockets' ``recv()`` coroutine,
as paiju serve does; ``--reader callback`` has websockets' protocol hand each whole binary
message to the server synchronously, as it parses it (a :class:`websockets.asyncio.server.ServerConnection`
whose ``process_event`` calls the player): no task wakes per message. (Other messages, text
or fragmented, still go through ``recv()``: one of them may be taken after a whole binary
message that followed it.)

``python -m paiju.bench.floor [--port 0] [--reader recv|callback] [--linger-ms 50]`` prints
``floor serving on ws://HOST:PORT/``; any path is the game's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import random
import signal
from collections.abc import Callable
from typing import Any, cast

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame as WsFrame
from websockets.frames import Opcode
from websockets.protocol import State

from paiju.protocol import (
    MAX_FRAME,
    VERSION,
    Ack,
    Action,
    CreateRoom,
    Error,
    ErrorCode,
    Event,
    Feature,
    Frame,
    GameError,
    Hello,
    Join,
    Leave,
    LobbyError,
    Option,
    PaijuError,
    Prompt,
    ProtocolError,
    Result,
    RoomEvent,
    RoomState,
    Welcome,
    batch,
    decode,
    echo,
    encode,
)
from paiju.protocol.cards import tricks_card
from paiju.protocol.tricks import ActCode, EventCode
from paiju.protocol.tricks import Error as TricksError
from paiju.server.connection import binary_frame

N = 8  # cards a seat: the `standard` ruleset, cards 1..16
CARDS = [tricks_card(k) for k in range(1, 2 * N + 1)]  # card bytes, in the order of their numbers
HIDDEN_HAND = bytes(N)  # a hand as the other seat sees it
PLAYED, TRICK = echo(ActCode.PLAY), int(EventCode.TRICK)
HAND_START, DEAL, HAND_END, MATCH_END = (
    int(e) for e in (RoomEvent.HAND_START, RoomEvent.DEAL, RoomEvent.HAND_END, RoomEvent.MATCH_END)
)
MAY_WAIT = 0.05  # seconds (--linger-ms): what asks nothing of its reader waits for its next prompt

_ids = itertools.count(1)
_rooms: dict[str, Room] = {}


class Lingering:
    """The players whose queued frames may wait: each waits ``delay`` seconds from its first
    such frame unless a prompt flushes it first; one timer for all, ringing at most every
    ``delay / 4`` (paiju serve's scheme, paiju/server/connection.py)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, delay: float) -> None:
        self.loop, self.delay, self.slack = loop, delay, delay / 4
        self.waiting: collections.deque[tuple[float, Player]] = collections.deque()
        self.timer: asyncio.TimerHandle | None = None

    def add(self, player: Player) -> float:
        due = self.loop.time() + self.delay
        self.waiting.append((due, player))
        if self.timer is None:
            self.timer = self.loop.call_at(due - self.slack, self.ring)
        return due

    def ring(self) -> None:
        self.timer = None
        soon = self.loop.time() + self.slack
        waiting = self.waiting
        while waiting:
            due, player = waiting[0]
            if player.lingers != due:  # flushed since
                waiting.popleft()
                continue
            if due > soon:
                break
            waiting.popleft()
            player.flush()
        if waiting:
            self.timer = self.loop.call_at(max(waiting[0][0] - self.slack, soon), self.ring)


class Player:
    """One connection: its frames queued during a turn of the event loop leave in one write
    (one WebSocket message when it asked for batches), and its seat once it has one."""

    __slots__ = (
        "batch",
        "flushing",
        "hello",
        "id",
        "lingering",
        "lingers",
        "loop",
        "name",
        "out",
        "room",
        "seat",
        "ws",
    )

    def __init__(self, ws: ServerConnection, lingering: Lingering | None) -> None:
        self.ws = ws
        self.loop = asyncio.get_running_loop()
        self.lingering = lingering
        self.id = f"p{next(_ids)}"
        self.name = ""
        self.hello = False
        self.batch = False
        self.out: list[bytes] = []
        self.flushing = False
        self.lingers = 0.0  # when its waiting frames are due (0: none waits)
        self.room: Room | None = None
        self.seat = -1

    def send(self, data: bytes, urgent: bool = True) -> None:
        self.out.append(data)
        if self.flushing:
            return
        if urgent or self.lingering is None:
            self.flushing = True
            self.loop.call_soon(self.flush)
        elif not self.lingers:
            self.lingers = self.lingering.add(self)

    def flush(self) -> None:
        self.flushing = False
        self.lingers = 0.0
        out, self.out = self.out, []
        if not out or self.ws.protocol.state is not State.OPEN:
            return
        self.ws.transport.write(b"".join([binary_frame(m) for m in (batch(out) if self.batch else out)]))

    def receive(self, data: bytes | str) -> None:
        """One message from the client: carried out, or refused with an ERROR."""
        frame: Frame | None = None
        try:
            if isinstance(data, str):
                raise ProtocolError(ErrorCode.MALFORMED, "text messages are refused: frames are binary")
            frame = decode(data)
            kind = type(frame)
            if kind is Action:
                if self.room is None:
                    raise LobbyError(ErrorCode.NOT_IN_ROOM, "not in a room")
                self.room.play(self.seat, frame)  # type: ignore[arg-type]
            elif not self.hello and kind is not Hello:
                raise LobbyError(ErrorCode.HELLO_FIRST, "HELLO first")
            elif kind is Hello:
                self.welcome(frame)  # type: ignore[arg-type]
            elif kind is CreateRoom:
                self.create(frame)  # type: ignore[arg-type]
            elif kind is Join:
                self.join(frame)  # type: ignore[arg-type]
            elif kind is Leave:
                self.leave()
            else:
                raise LobbyError(ErrorCode.WRONG_STATE, f"the floor server does not serve {kind.__name__}")
        except PaijuError as e:
            self.send(encode(Error.refusing(e, frame)))

    def welcome(self, f: Hello) -> None:
        if self.hello:
            raise LobbyError(ErrorCode.WRONG_STATE, "HELLO again")
        if f.version != VERSION:
            raise ProtocolError(ErrorCode.BAD_VERSION, f"this server speaks version {VERSION}")
        self.hello, self.name = True, f.name
        self.batch = bool(f.features & Feature.BATCH)
        self.send(encode(Welcome(self.id, "", VERSION, Feature.BATCH if self.batch else 0)))

    def create(self, f: CreateRoom) -> None:
        if self.room is not None:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, "LEAVE your room first")
        if f.game != "tricks" or f.ruleset not in (None, "standard") or f.bots or f.robot or f.seed or f.pbn:
            raise LobbyError(ErrorCode.BAD_ROOM_OPTIONS, "the floor server plays tricks, standard, two people")
        room = Room(f.hands or 1)
        _rooms[room.id] = room
        room.sit(self, 0)

    def join(self, f: Join) -> None:
        if self.room is not None:
            raise LobbyError(ErrorCode.ALREADY_IN_ROOM, "LEAVE your room first")
        room = _rooms.get(f.room)
        if room is None:
            raise LobbyError(ErrorCode.NO_SUCH_ROOM, f"no room {f.room!r}")
        seat = f.seat if f.seat is not None else room.players.index(None) if None in room.players else 2
        if seat > 1 or room.players[seat] is not None:
            raise LobbyError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        room.sit(self, seat)

    def leave(self) -> None:
        """Out of its room: the match ends there (as the Colyseus room's)."""
        room, self.room, self.seat = self.room, None, -1
        if room is not None:
            room.close()


class Room:
    """A match of ``hands`` hands of tricks between two players."""

    __slots__ = (
        "cards",
        "dealt",
        "hand",
        "hands",
        "id",
        "leader",
        "players",
        "prompt",
        "seq",
        "totals",
        "trick",
        "turn",
        "won",
    )

    def __init__(self, hands: int) -> None:
        self.id = f"r{next(_ids)}"
        self.hands = hands
        self.players: list[Player | None] = [None, None]
        self.seq = 0
        self.hand = 0
        self.cards = [bytearray(), bytearray()]  # each seat's hand, card bytes in order
        self.dealt = [b"", b""]
        self.leader = 0
        self.trick = b""  # the cards of the current trick, the lead first
        self.won = [0, 0]
        self.totals = [0, 0]
        self.prompt = 0
        self.turn = -1  # the seat prompted (-1: none)

    def sit(self, player: Player, seat: int) -> None:
        player.room, player.seat = self, seat
        self.players[seat] = player
        self.seq += 1
        names = [p.name if p is not None else None for p in self.players]
        player.send(encode(RoomState(self.id, "tricks", "standard", seat, self.seq, 0, names, self.totals, {})))
        if None not in self.players:
            self.deal()

    def close(self) -> None:
        for p in self.players:
            if p is not None:
                p.room, p.seat = None, -1
        self.players = [None, None]
        self.turn = -1
        _rooms.pop(self.id, None)

    def tell(self, data: bytes, urgent: bool = False) -> None:
        for p in self.players:
            if p is not None:
                p.send(data, urgent)

    def event(self, code: int, seat: int | None, cards: bytes = b"", arg: int = 0) -> bytes:
        self.seq += 1
        return encode(Event(self.id, self.seq, code, seat, cards, arg))

    def deal(self) -> None:
        deck = random.sample(CARDS, 2 * N)
        self.cards = [bytearray(sorted(deck[:N])), bytearray(sorted(deck[N:]))]
        self.dealt = [bytes(h) for h in self.cards]
        self.leader = self.hand % 2
        self.trick = b""
        self.won = [0, 0]
        self.tell(self.event(HAND_START, self.leader, arg=self.hand))
        for s in (0, 1):  # each hand to its seat, face down to the other
            seq = self.seq = self.seq + 1
            for p in self.players:
                if p is not None:
                    p.send(encode(Event(self.id, seq, DEAL, s, self.dealt[s] if p.seat == s else HIDDEN_HAND)), False)
        self.ask(self.leader)

    def ask(self, seat: int) -> None:
        self.prompt += 1
        self.turn = seat
        player = self.players[seat]
        if player is not None:
            options = [Option(ActCode.PLAY, bytes(self.cards[seat]), 1)]
            player.send(encode(Prompt(self.id, self.prompt, seat, 0, 1 << ActCode.PLAY, options, 0)))

    def play(self, seat: int, f: Action) -> None:
        """A move, checked: the seat prompted, its open prompt, a card of its hand.

        >>> room = Room(1)
        >>> room.cards, room.turn, room.prompt = [bytearray(b"\x02\x05"), bytearray(b"\x03\x04")], 0, 7
        >>> room.play(1, Action(7, 0, b"\x03"))
        Traceback (most recent call last):
        paiju.protocol.errors.GameError: 300: not your turn
        >>> room.play(0, Action(6, 0, b"\x02"))
        Traceback (most recent call last):
        paiju.protocol.errors.GameError: 301: no prompt 6
        >>> room.play(0, Action(7, 0, b"\x03"))
        Traceback (most recent call last):
        paiju.protocol.errors.GameError: 380: 03 is not a card of your hand
        """
        if seat != self.turn:
            raise GameError(ErrorCode.NOT_YOUR_TURN, "not your turn")
        if f.prompt_id != self.prompt:
            raise GameError(ErrorCode.NO_SUCH_PROMPT, f"no prompt {f.prompt_id}")
        if f.code != ActCode.PLAY:
            raise GameError(ErrorCode.ILLEGAL_ACTION, "PLAY is the only action")
        if len(f.cards) != 1:
            raise GameError(ErrorCode.ILLEGAL_CARDS, "PLAY one card")
        hand = self.cards[seat]
        at = hand.find(f.cards)
        if at < 0:
            raise GameError(TricksError.CARD_NOT_IN_HAND, f"{f.cards.hex()} is not a card of your hand")
        del hand[at]
        self.turn = -1
        player = self.players[seat]
        assert player is not None
        player.send(encode(Ack(f.prompt_id)), False)
        self.tell(self.event(PLAYED, seat, f.cards))
        trick = self.trick = self.trick + f.cards
        if len(trick) == 2:  # (card bytes rise with the cards' numbers: the higher byte wins)
            winner = self.leader if trick[0] > trick[1] else 1 - self.leader
            self.won[winner] += 1
            self.leader, self.trick = winner, b""
            self.tell(self.event(TRICK, winner, arg=self.won[winner]))
        if self.cards[0] or self.cards[1]:
            self.ask(self.leader if not self.trick else 1 - self.leader)
        else:
            self.end_hand()

    def end_hand(self) -> None:
        d = self.won[0] - self.won[1]
        self.totals = [self.totals[0] + d, self.totals[1] - d]
        final = self.hand + 1 >= self.hands
        self.tell(self.event(HAND_END, None, arg=self.hand))
        self.tell(
            encode(Result(self.id, self.hand, [d, -d], self.totals, self.dealt, final, {"tricks": list(self.won)}))
        )
        self.hand += 1
        if not final:
            self.deal()
            return
        self.tell(self.event(MATCH_END, None, arg=self.hand))
        self.close()


class CallbackConnection(ServerConnection):
    """websockets' server connection that hands each whole binary message to ``on_binary`` as
    it parses it, synchronously, instead of queueing it for ``recv()``."""

    on_binary: Callable[[bytes], None] | None = None

    def process_event(self, event: Any) -> None:
        handle = self.on_binary
        if handle is not None and type(event) is WsFrame and event.opcode is Opcode.BINARY and event.fin:
            handle(cast(bytes, event.data))  # (bytes: websockets' parser reads them so)
        else:
            super().process_event(event)


async def main(host: str, port: int, reader: str, linger: float, ready: Callable[[int], None]) -> None:
    loop = asyncio.get_running_loop()
    lingering = Lingering(loop, linger) if linger > 0 else None

    async def handler(ws: ServerConnection) -> None:
        player = Player(ws, lingering)
        if isinstance(ws, CallbackConnection):
            ws.on_binary = player.receive
        try:
            with contextlib.suppress(ConnectionClosed):
                while True:
                    player.receive(await ws.recv())
        finally:
            player.leave()

    async with serve(
        handler,
        host,
        port,
        compression=None,
        max_size=2 * MAX_FRAME,
        max_queue=32,
        ping_interval=20,
        ping_timeout=20,
        create_connection=CallbackConnection if reader == "callback" else None,
    ) as server:
        ready(next(iter(server.sockets)).getsockname()[1])
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


def run(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m paiju.bench.floor", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="0: a free port (default)")
    p.add_argument(
        "--reader",
        choices=("recv", "callback"),
        default="recv",
        help="recv: websockets' recv() coroutine a message, as paiju serve (default); callback: each whole "
        "binary message handed to the server as websockets parses it",
    )
    p.add_argument(
        "--linger-ms",
        type=float,
        default=MAY_WAIT * 1000,
        help="ms that events, results and ACKs may wait for the connection's next prompt "
        "(default %(default)g; 0: none)",
    )
    a = p.parse_args(argv)

    def ready(port: int) -> None:
        print(f"floor serving on ws://{a.host}:{port}/ (reader {a.reader}, linger {a.linger_ms:g} ms)", flush=True)

    import uvloop

    uvloop.run(main(a.host, a.port, a.reader, a.linger_ms / 1000, ready))


if __name__ == "__main__":
    run()
