"""What the cores' messages share: the connection handle, a frame to send and the clock's tick.
Each core's own inputs and outputs are in its package's ``messages`` module (:data:`TableIn`
and :data:`TableOut` in paiju/core/table/messages.py, :data:`LobbyIn` and :data:`LobbyOut` in
paiju/core/lobby/messages.py).

>>> from paiju.protocol import Pong
>>> Send(7, Pong(1))
Send(conn=7, frame=Pong(nonce=1))
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from paiju.protocol import Frame

Conn = Hashable
"""A connection as the caller knows it: a core only compares it and hands it back."""


# Not frozen, with slots: a busy room makes several of these a move, and a frozen
# dataclass's __init__ (object.__setattr__ per field) costs four times as much. Read only.
# Its __init__ is written out (as that of the other outputs made every move): mypyc compiles
# it, where the one the dataclass decorator writes at import runs as Python in the compiled
# build too, some 0.4 µs a message.
@dataclass(slots=True)
class Send:
    """Send ``frame`` to connection ``conn`` (an output of both cores)."""

    conn: Conn
    frame: Frame

    def __init__(self, conn: Conn, frame: Frame) -> None:
        self.conn = conn
        self.frame = frame


@dataclass(frozen=True)
class Tick:
    """Time has passed: a core runs what is due by its ``now`` (an input of both cores; the
    shell feeds it at the core's ``next_deadline()``)."""
