"""Provably fair deals: every deal of a match comes from one seed, fixed before the first
card, and the room says so before it deals by publishing a commitment to it.

The commitment is ``SHA-256(salt || seed)`` in hex: ``salt`` 16 random bytes drawn for the
match, ``seed`` as 8 bytes big-endian. Every seat and spectator gets it in ROOM_STATE
before the first deal; the final RESULT reveals the seed and the salt, and anyone can then
check that they hash to the commitment and deal every hand again with
``games.create(game, seed, rules, hand=h)`` (SPEC.md §8, "Provably fair deals"). The salt
keeps the commitment from being searched: a 63-bit seed alone could be found from its hash.

>>> c = commitment(7, bytes(16))
>>> c == hashlib.sha256(bytes(16) + (7).to_bytes(8, "big")).hexdigest(), len(c)
(True, 64)
>>> matches(c, 7, bytes(16)), matches(c, 8, bytes(16))
(True, False)
>>> len(new_salt())
16
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SALT_BYTES = 16


def commitment(seed: int, salt: bytes) -> str:
    """The hex SHA-256 of ``salt`` followed by ``seed`` as 8 bytes big-endian."""
    return hashlib.sha256(bytes(salt) + seed.to_bytes(8, "big")).hexdigest()


def matches(promised: str, seed: int, salt: bytes) -> bool:
    """Whether ``seed`` and ``salt`` are those the commitment ``promised`` was made from."""
    return hmac.compare_digest(promised.lower(), commitment(seed, salt))


def new_salt() -> bytes:
    """A fresh salt for a new match."""
    return secrets.token_bytes(SALT_BYTES)
