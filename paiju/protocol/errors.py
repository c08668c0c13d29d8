"""Error codes: the one numbered list every ERROR frame and every refusal draws from.

Ranges: 1xx the wire (frames that cannot be decoded), 2xx the session and the lobby,
3xx the game (a decoded action that the rules refuse), 5xx the server itself.
Each game's own refusals live in its 3xx sub-range (see paiju/protocol/<game>.py).
"""

from __future__ import annotations

from enum import IntEnum


class ErrorCode(IntEnum):
    # 1xx: the wire
    MALFORMED = 100  # not msgpack, truncated, or not an array
    UNKNOWN_FRAME = 101  # frame type not in the table
    BAD_FIELD = 102  # wrong number of fields or a field of the wrong type or range
    BAD_CARD = 103  # a card/tile/call byte outside every table
    TOO_LARGE = 104  # over MAX_FRAME bytes
    TRAILING_BYTES = 105  # bytes after the first msgpack object
    BAD_VERSION = 106  # HELLO with a protocol version the server does not speak
    WRONG_DIRECTION = 107  # a server frame sent by a client (or the reverse)
    # 2xx: session and lobby
    HELLO_FIRST = 200  # anything but HELLO before WELCOME
    BAD_TOKEN = 201  # resume token not valid (signature, expiry)
    NO_SUCH_ROOM = 202  # no room of that id here (or its match is over)
    SEAT_TAKEN = 203  # the seat asked for is a person's or a robot's
    ROOM_FULL = 204  # the server holds as many rooms as it may, or a quick-play room filled up
    NOT_IN_ROOM = 205  # a room frame from a player who has no seat (or no place) in that room
    BAD_ROOM_OPTIONS = 206  # unknown game, ruleset, robot, or out-of-range option
    RATE_LIMITED = 207  # over the connection's frame rate: dropped (§1: too many of them close it)
    ALREADY_IN_ROOM = 208  # the player is in a room already: LEAVE it first
    SLOW_CONSUMER = 209  # send queue overflowed: the connection is closed
    WRONG_STATE = 210  # a frame that makes no sense now (a second HELLO on one connection)
    NAME_TAKEN = 211  # the name belongs to an account: log in to use it
    BAD_LOGIN = 212  # wrong name or password, or a session token that ended (logged out, expired)
    BAD_ACCOUNT = 213  # a name or password outside the rules (ERROR's message says which)
    NO_ACCOUNTS = 214  # this server keeps no records (no database)
    MOVED = 215  # the room lives on another node: the server answers REDIRECT, not ERROR
    TOO_MANY_CONNECTIONS = 216  # the client's address has as many connections as it may: this one is closed
    TOO_MANY_ROOMS = 217  # the client's address holds, or created in the last minute, as many rooms as it may
    ROOM_EXPIRED = 218  # unsolicited: the waiting room closed, its match not started within the server's bound
    ROBOTS_UNAVAILABLE = 219  # unsolicited: the full room closed, no worker served its robots within the bound
    # 3xx: the game
    NOT_YOUR_TURN = 300  # the seat has no decision pending
    NO_SUCH_PROMPT = 301  # ACTION names a prompt that is not the seat's current one
    ILLEGAL_ACTION = 302  # action code not in the mask
    ILLEGAL_CARDS = 303  # code allowed, cards match no option
    GAME_OVER = 304  # the games' refusal after the end of the hand (the server answers NO_SUCH_PROMPT)
    # 5xx: the server
    INTERNAL = 500  # a fault of the server: the frame was not carried out
    SHUTTING_DOWN = 503  # the node is shutting down and no other node takes rooms


class PaijuError(Exception):
    """A refusal with a code of :class:`ErrorCode` (or a game's 3xx range) and a message for people.

    Raised where the problem is found; the server turns it into the wire's ERROR frame in one
    place (:meth:`paiju.protocol.frames.Error.refusing`).

    >>> e = LobbyError(ErrorCode.NO_SUCH_ROOM, "no room 'x'")
    >>> isinstance(e, PaijuError), e.code, e.message
    (True, 202, "no room 'x'")
    """

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{int(code)}: {message}")
        self.code = int(code)
        self.message = message


class ProtocolError(PaijuError):
    """The only exception `protocol.decode` raises, whatever the input (1xx codes).

    >>> ProtocolError(ErrorCode.MALFORMED, "not msgpack").code
    100
    """


class LobbyError(PaijuError):
    """A refused session or lobby request (2xx codes): no such room, seat taken, bad options ..."""


class Moved(LobbyError):
    """The request belongs to another node: the server answers it with REDIRECT to ``url``
    (the node's WebSocket URL), never with ERROR.

    >>> Moved("ws://10.0.0.2:8765/ws", "r1a2b3c").code
    215
    """

    def __init__(self, url: str, room: str | None = None) -> None:
        super().__init__(ErrorCode.MOVED, f"room {room} is on {url}" if room else f"go to {url}")
        self.url = url
        self.room = room


class GameError(PaijuError):
    """A refused action (3xx codes: paiju.protocol.errors and each game's range); nothing was changed."""

    @property
    def reason(self) -> str:
        return self.message


class HandNotOver(GameError):
    """``Game.outcome()`` asked before the end of the hand (the same in every game)."""

    def __init__(self, message: str = "the hand is not over") -> None:
        super().__init__(ErrorCode.ILLEGAL_ACTION, message)
