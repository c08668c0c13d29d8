"""Resume tokens: ``player_id.expiry.nonce.signature``, HMAC-SHA256 under the server's secret.

The signature says which player a token names and until when (any node of a service checks
it with the shared secret); the lobby (paiju/core/lobby/) keeps only the ``digest`` of the
one token of each player that is valid now, so that a token can be revoked: a new one at every
resume (the previous one ends), none after LEAVE or logout until the next is given. The clock
is the caller's ``now``.

>>> t = sign(b"k", "p1", now=100.0, ttl=60.0)
>>> verify(b"k", t, now=150.0)
'p1'
>>> verify(b"k", t, now=161.0) is None, verify(b"other", t, now=150.0) is None
(True, True)
>>> t == sign(b"k", "p1", now=100.0, ttl=60.0), len(digest(t))  # each token is new
(False, 64)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def _mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()[:32]


def sign(secret: bytes, player_id: str, *, ttl: float, now: float) -> str:
    """A new token for ``player_id``, valid ``ttl`` seconds from ``now`` (unix time)."""
    body = f"{player_id}.{int(now + ttl)}.{secrets.token_hex(8)}"
    return f"{body}.{_mac(secret, body)}"


def verify(secret: bytes, token: str, *, now: float) -> str | None:
    """The player id of a validly signed, unexpired token; None otherwise."""
    parts = token.split(".")
    if len(parts) != 4:
        return None
    player_id, expiry, nonce, mac = parts
    if not hmac.compare_digest(mac, _mac(secret, f"{player_id}.{expiry}.{nonce}")):
        return None
    if not expiry.isdigit() or int(expiry) < now:
        return None
    return player_id


def digest(token: str) -> str:
    """What a server keeps of a token (or a session's): its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()
