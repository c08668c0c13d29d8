"""The executor (design.md §7.5 执行器): packs the chosen action in protocol encoding.

A robot's answer is a ``games.GameAction`` (code + tile bytes); on the bus it travels as a
``protocol.Decision`` frame for the request's room, seat and prompt.

>>> from paiju.protocol import decode, encode
>>> a = pack(0, b"\\x21")
>>> a
GameAction(code=0, cards=b'!')
>>> decode(encode(decision_frame("r1", 2, 7, a)))
Decision(room='r1', seat=2, prompt_id=7, code=0, cards=b'!')
"""

from __future__ import annotations

from paiju.games import GameAction
from paiju.protocol import Decision


def pack(code: int, tiles: bytes) -> GameAction:
    """The action in the game interface's encoding (tiles as BDI bytes, sorted)."""
    return GameAction(int(code), bytes(sorted(tiles)))


def decision_frame(room: str, seat: int, prompt_id: int, action: GameAction) -> Decision:
    """The bus frame that answers a decision request with ``action``."""
    return Decision(room=room, seat=seat, prompt_id=prompt_id, code=action.code, cards=action.cards)
