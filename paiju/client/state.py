"""The state of one session with a paiju server, without I/O (like websockets' protocol
objects: bytes in, frames and state out; the caller moves the bytes).

:class:`SessionState` decodes what the server sends and keeps what a client must know to go
on: the token and player id of WELCOME, the last event number (``seq``, for a resume), the
room and seat, the prompts still open for this connection, and whether the room's match has
ended; :meth:`SessionState.hello` is the HELLO of the next connection (a resume once there
is a token), asking for batches of frames (SPEC.md §1) unless told not to.
:class:`client.Client` (asyncio, requests that wait for their answer) and the load
generator (paiju/loadtest/, lean per frame) both keep their session in one.

>>> from paiju.protocol import Event, Feature, RoomEvent, Welcome, encode
>>> s = SessionState("ann")
>>> s.hello().token is None
True
>>> s.receive(encode(Welcome("p1", "tok")))[0].token, s.token
('tok', 'tok')
>>> _ = s.receive(encode(Event("r1", 7, RoomEvent.HAND_START)))
>>> s.room, s.seq
('r1', 7)
>>> s.hello().token, s.hello().last_seq, s.hello().features == Feature.BATCH  # it resumes
('tok', 7, True)
"""

from __future__ import annotations

from paiju.protocol import (
    VERSION,
    Ack,
    Event,
    Feature,
    Frame,
    Hello,
    Identity,
    Prompt,
    Result,
    RoomEvent,
    RoomState,
    Token,
    Welcome,
    decode,
    decode_all,
)


class SessionState:
    """What one session knows of the server's side (see the module's docstring)."""

    __slots__ = ("batch", "name", "over", "player_id", "prompts", "room", "seat", "seq", "session", "token")

    def __init__(self, name: str, session: str | None = None, batch: bool = True) -> None:
        self.name = name  # the name said in HELLO
        self.session = session  # an account's session (HELLO logs in with it)
        self.batch = batch  # HELLO asks for several frames a message (Feature.BATCH)
        self.player_id = ""
        self.token: str | None = None  # WELCOME's: a later HELLO with it is the same player
        self.seq = 0  # the last event seen, for a resume
        self.room: str | None = None
        self.seat: int | None = None
        self.prompts: dict[int, Prompt] = {}  # open for this connection, by prompt id
        self.over = False  # the room's match has ended (MATCH_END since the last ROOM_STATE)

    def hello(self) -> Hello:
        """The HELLO of a new connection: with a token, a resume (from the last event seen
        while in a room); before the first WELCOME, a new player."""
        last = self.seq if self.token is not None and self.room is not None else None
        return Hello(VERSION, self.name, self.token, last, self.session, self.features)

    @property
    def features(self) -> int:
        """HELLO's features: what this session asks the server for."""
        return Feature.BATCH if self.batch else 0

    def receive(self, data: bytes) -> list[Frame]:
        """Decode one binary message, a batch of frames if batches were asked for, else one
        frame (:class:`protocol.ProtocolError` if it is not that), and take in what they say."""
        frames = decode_all(data) if self.batch else [decode(data)]
        for f in frames:
            self.take(f)
        return frames

    def take(self, f: Frame) -> None:
        """Take in what the frame ``f`` says of the session."""
        if isinstance(f, Event):
            if f.seq > self.seq:
                self.seq = f.seq
            self.room = f.room
            if f.code == RoomEvent.MATCH_END:
                self.over = True
        elif isinstance(f, Prompt):
            if f.mask == 0 and not f.options:  # withdrawn
                self.prompts.pop(f.prompt_id, None)
            else:
                self.prompts[f.prompt_id] = f
        elif isinstance(f, Ack):
            self.prompts.pop(f.prompt_id, None)
        elif isinstance(f, RoomState):
            self.seq, self.room, self.seat, self.over = f.seq, f.room, f.seat, False
            self.prompts.clear()
        elif isinstance(f, Result):
            self.prompts.clear()
        elif isinstance(f, Welcome):
            self.player_id, self.token = f.player_id, f.token
        elif isinstance(f, Token):  # the one from WELCOME has ended (LEAVE, logout)
            self.token = f.token
        elif isinstance(f, Identity):  # a login's session, kept for the next HELLO
            if not f.registered:
                self.session = None
            elif f.session is not None:
                self.session = f.session

    def left(self) -> None:
        """This session left its room (LEAVE was handled)."""
        self.room, self.seat = None, None
        self.prompts.clear()
