"""The lobby's core, sans-I/O: who is connected, who plays as whom, which rooms there are.

A :class:`Lobby` takes one input (:data:`LobbyIn`, paiju/core/lobby/messages.py) with the time
``now`` and returns what must happen outside (:data:`LobbyOut`). It reads no clock and does no
I/O: paiju/server/lobby.py feeds it and carries its outputs out, and the tests drive it directly
(tests/server/test_lobby_core.py). The lobby routes each input to one of its parts, each in its
module:

- ``common``: what every part reads (settings, players, connections, rooms, outputs);
- ``people``: connections opening and closing, what the rooms say of their players, players
  forgotten;
- ``login``: HELLO (new players and resumes) and ACCOUNT (with the login throttle);
- ``hosting``: CREATE_ROOM, JOIN, QUICK_PLAY, LIST_ROOMS and a rematch's new match.

>>> from paiju.core.config import Limits
>>> lobby = Lobby(Limits(), secret=b"k")
>>> lobby.handle(Connect(1, "10.0.0.1"), 0.0)
[]
"""

from paiju.core.lobby.common import Player, R
from paiju.core.lobby.hosting import pbn_rules
from paiju.core.lobby.lobby import Lobby
from paiju.core.lobby.login import become
from paiju.core.lobby.messages import (
    Answer,
    CatchUp,
    Checked,
    CloseConn,
    Connect,
    Disconnect,
    Evict,
    Failed,
    Feed,
    Garbled,
    Go,
    Identified,
    Listed,
    LobbyIn,
    LobbyOut,
    Looked,
    Lookup,
    Open,
    Received,
    Refuse,
    RoomClosed,
    RoomHandle,
    SessionsListed,
)
from paiju.core.messages import Conn, Send, Tick
from paiju.core.table.messages import Bound, Rematched, Unbound

__all__ = [
    "Answer",
    "Bound",
    "CatchUp",
    "Checked",
    "CloseConn",
    "Conn",
    "Connect",
    "Disconnect",
    "Evict",
    "Failed",
    "Feed",
    "Garbled",
    "Go",
    "Identified",
    "Listed",
    "Lobby",
    "LobbyIn",
    "LobbyOut",
    "Looked",
    "Lookup",
    "Open",
    "Player",
    "R",
    "Received",
    "Refuse",
    "Rematched",
    "RoomClosed",
    "RoomHandle",
    "Send",
    "SessionsListed",
    "Tick",
    "Unbound",
    "become",
    "pbn_rules",
]
