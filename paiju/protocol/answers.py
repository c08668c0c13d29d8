"""What the server answers each request frame with: its answer, and every ERROR it may get.

Declared once, here: SPEC.md's table of errors per request (§7.1) is generated from it
(``python -m paiju.spec``), and tests/server/test_spec_conformance.py provokes every error
listed, for every request frame and every game, on a live server and compares the codes.
The refusals of ACTION that depend on the game are declared beside each game's codes
(``REFUSALS`` in ``paiju/protocol/<game>.py``).

>>> [e.name for e, _ in answer_of("PING").errors]
['HELLO_FIRST']
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from paiju.protocol.errors import ErrorCode

E = ErrorCode

ANY_FRAME: tuple[tuple[int, str], ...] = (
    (E.MALFORMED, "not msgpack, truncated, not an array, or a text message"),
    (E.UNKNOWN_FRAME, "a frame type that does not exist"),
    (E.BAD_FIELD, "a field missing, extra, of the wrong type or out of range"),
    (E.BAD_CARD, "a byte that is no card, tile or call"),
    (E.TOO_LARGE, "over MAX_FRAME bytes"),
    (E.TRAILING_BYTES, "bytes after the frame"),
    (E.WRONG_DIRECTION, "a frame only the server sends"),
    (E.RATE_LIMITED, "over the connection's rate (§1): the frame is dropped"),
    (E.TOO_MANY_CONNECTIONS, "the first frame of a connection over its address's bound: then closed"),
)
"""Errors any frame may get, whatever it is: SPEC.md lists them once, not per request."""


@dataclass(frozen=True)
class Answer:
    """A request frame: what it gets when it is carried out, and each refusal with its cause."""

    frame: str  # the request's wire name
    answer: str  # what the server sends when it is carried out
    errors: tuple[tuple[int, str], ...]  # each ERROR code it may get besides ANY_FRAME's, and when


REQUESTS: tuple[Answer, ...] = (
    Answer(
        "HELLO",
        "WELCOME; with a `session`, then IDENTITY; with a `token` of a player in a room, then its missed "
        "events (or ROOM_STATE) and its pending PROMPT; REDIRECT when the player's room is another node's",
        (
            (E.BAD_VERSION, "`version` is not 1"),
            (E.BAD_TOKEN, "`token` with a bad signature or expired"),
            (E.WRONG_STATE, "a second HELLO on a connection that has had its WELCOME"),
            (E.NAME_TAKEN, "`name` is a registered account's (without its `session`)"),
            (E.BAD_LOGIN, "`session` logged out or expired"),
        ),
    ),
    Answer("LIST_ROOMS", "ROOM_LIST", ((E.HELLO_FIRST, "before WELCOME"),)),
    Answer(
        "CREATE_ROOM",
        "ROOM_STATE of the new room as the creator's seat (or, every seat a robot, a spectator) sees it; "
        "REDIRECT from a node that is shutting down",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (
                E.BAD_ROOM_OPTIONS,
                "unknown game, ruleset or robot, an option out of its range (GET /api/games), "
                "`pbn` for a game other than bridge or a file that does not read",
            ),
            (E.ALREADY_IN_ROOM, "the player is in a room (seated or watching): LEAVE it first"),
            (E.TOO_MANY_ROOMS, "the client's address holds, or opened in the last minute, as many rooms as it may"),
            (E.ROOM_FULL, "the server holds as many rooms as it may"),
            (E.SHUTTING_DOWN, "the node is shutting down and no other node takes rooms"),
        ),
    ),
    Answer(
        "JOIN",
        "ROOM_STATE as the seat (or a spectator) sees it; REDIRECT when the room is another node's",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NO_SUCH_ROOM, "no room of that id, or its match is over"),
            (E.SEAT_TAKEN, "the seat is a person's or a robot's"),
            (E.BAD_ROOM_OPTIONS, "a seat the game does not have"),
            (E.ALREADY_IN_ROOM, "the player is in a room: LEAVE it first"),
        ),
    ),
    Answer(
        "LEAVE",
        "nothing: the others get EVENT SEAT (a robot takes a seat in play)",
        ((E.HELLO_FIRST, "before WELCOME"), (E.NOT_IN_ROOM, "the player is not in that room")),
    ),
    Answer(
        "QUICK_PLAY",
        "ROOM_STATE of the room the player is seated in; REDIRECT when another node has the waiting room",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.BAD_ROOM_OPTIONS, "unknown game or ruleset"),
            (E.ALREADY_IN_ROOM, "the player is in a room: LEAVE it first"),
            (E.TOO_MANY_ROOMS, "a new room is needed and the address may open no more"),
            (E.ROOM_FULL, "a new room is needed and the server holds as many as it may"),
            (E.SHUTTING_DOWN, "the node is shutting down and no other node takes rooms"),
        ),
    ),
    Answer(
        "ACTION",
        "ACK, and the action's events to everyone; a retry of an answered prompt with the same action: ACK again",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NOT_IN_ROOM, "the player has no seat in a room"),
            (E.NOT_YOUR_TURN, "the player's seats have no decision pending"),
            (
                E.NO_SUCH_PROMPT,
                "`prompt_id` is not the seat's open prompt (answered with another action, "
                "withdrawn, or never the seat's)",
            ),
        ),
    ),
    Answer("PING", "PONG with the same `nonce`", ((E.HELLO_FIRST, "before WELCOME"),)),
    Answer(
        "ACCOUNT",
        "IDENTITY",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.BAD_ACCOUNT, "an `op` other than register, login or logout; a name or password outside the rules"),
            (E.NAME_TAKEN, "register: the name is taken, whatever its case"),
            (E.BAD_LOGIN, "login: wrong name or password (one message for both)"),
            (
                E.RATE_LIMITED,
                "register or login after 3 failed logins of the name from this address, or 30 from the "
                "address (the wait doubles each time, 5 minutes at most; never on a connection that holds "
                "the account's session), or while a password check from the address is under way",
            ),
            (E.WRONG_STATE, "logout while a guest"),
        ),
    ),
    Answer(
        "SAY",
        "CHAT_LINE, to the sender and to those who hear it (the table, or the spectators)",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NO_SUCH_ROOM, "no room of that id"),
            (E.NOT_IN_ROOM, "the player neither sits nor watches there (nor was offered its rematch)"),
            (E.BAD_FIELD, "a line that is empty once cleaned, or over 200 characters"),
            (
                E.RATE_LIMITED,
                "more than 5 lines at once (one more every 2 s), or than 10 from the client's address "
                "(one more a second)",
            ),
        ),
    ),
    Answer(
        "MUTE",
        "nothing: the player's lines are no longer (or again) sent to the sender",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NO_SUCH_ROOM, "no room of that id"),
            (E.NOT_IN_ROOM, "the sender neither sits nor watches there"),
        ),
    ),
    Answer(
        "REMATCH_ANSWER",
        "REMATCH_OFFER with the answers so far, to those offered the rematch",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NO_SUCH_ROOM, "no room of that id"),
            (E.WRONG_STATE, "no rematch is offered in that room, or none to the sender"),
            (E.ALREADY_IN_ROOM, "the sender has gone to another room meanwhile (the rematch goes on without it)"),
        ),
    ),
    Answer(
        "SET_SEAT",
        "EVENT SEAT to the room (the match starts when the last free seat goes to a robot); nothing "
        "when the seat is so already",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.NOT_IN_ROOM, "the sender is not in that room"),
            (E.WRONG_STATE, "not the room's creator, or the match has started"),
            (E.BAD_ROOM_OPTIONS, "a seat the game does not have"),
            (E.SEAT_TAKEN, "the seat is a player's"),
        ),
    ),
    Answer(
        "SESSIONS",
        "SESSION_LIST; the connections of an ended session get IDENTITY (a guest) and TOKEN",
        (
            (E.HELLO_FIRST, "before WELCOME"),
            (E.WRONG_STATE, "a guest's (sessions are an account's)"),
            (E.BAD_ACCOUNT, "`end` names no session of the account"),
        ),
    ),
)
"""Every request frame a client sends, in the order of SPEC.md §3.1."""


def answer_of(frame: str) -> Answer:
    """The declaration of request ``frame`` (its wire name)."""
    return next(a for a in REQUESTS if a.frame == frame)


def refusals(game: str) -> tuple[tuple[int, str], ...]:
    """The refusals of an ACTION in ``game`` that the game itself decides (its ``REFUSALS``)."""
    return tuple(importlib.import_module(f"paiju.protocol.{game}").REFUSALS)


NEVER_SENT: tuple[tuple[int, str], ...] = (
    (
        E.NO_ACCOUNTS,
        "by `paiju serve`, which always keeps records: a server embedded without a database "
        "answers ACCOUNT, and HELLO with a `session`, with it",
    ),
    (E.MOVED, "the server answers REDIRECT instead; the client library raises it after five REDIRECTs"),
    (
        E.GAME_OVER,
        "the games' refusal of an action after the hand; a client's late ACTION gets NO_SUCH_PROMPT "
        "or NOT_YOUR_TURN, and after MATCH_END NOT_IN_ROOM",
    ),
)
"""Codes of the list that no request gets from the server, and why."""

UNSOLICITED: tuple[tuple[int, str], ...] = (
    (E.ROOM_EXPIRED, "to everyone in a room whose match did not start in time, as it closes (`ref_type` nil)"),
    (
        E.ROBOTS_UNAVAILABLE,
        "to everyone in a full room whose robots no worker served in time (ROOM_STATE `waiting` said so), "
        "as it closes (`ref_type` nil)",
    ),
    (E.SLOW_CONSUMER, "never sent as a frame: the close reason (1008) of a connection that stopped reading"),
    (E.INTERNAL, "a bug on the server's side: the frame was not carried out"),
)
"""Codes that answer no particular request."""
