"""Resume tokens: ``player_id.expiry.signature``, HMAC-SHA256 under the server's secret.

>>> t = sign(b"k", "p1", now=100.0, ttl=60.0)
>>> verify(b"k", t, now=150.0)
'p1'
>>> verify(b"k", t, now=161.0) is None, verify(b"other", t, now=150.0) is None
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac


def _mac(secret: bytes, body: str) -> str:
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()[:32]


def sign(secret: bytes, player_id: str, *, ttl: float, now: float) -> str:
    expiry = int(now + ttl)
    body = f"{player_id}.{expiry}"
    return f"{body}.{_mac(secret, body)}"


def verify(secret: bytes, token: str, *, now: float) -> str | None:
    """The player id of a valid, unexpired token; None otherwise."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    player_id, expiry, mac = parts
    if not hmac.compare_digest(mac, _mac(secret, f"{player_id}.{expiry}")):
        return None
    if not expiry.isdigit() or int(expiry) < now:
        return None
    return player_id
