"""Login throttling, sans-I/O: failed logins slow down per (account name, client address) and
per client address, never per account alone, so that nobody can lock an owner out.

OWASP's authentication guidance: count failures per account *and* source; after a few, each
further attempt waits longer (the delay doubles with each failure, up to ``cap``: exponential
and bounded); no lockout that an attacker can trigger. A patient attacker on one address is
slowed on that address only: the owner logging in from another address is not slowed at all,
and one logging in on a connection that holds a session of the account (a browser that logged
in before: OWASP's "device cookie") is never slowed (the lobby skips the throttle for it).
The answer is the same whether the name is an account's or not (the name is counted either
way). The clock is the caller's ``now``.

Password checks are bounded per source as well: at most ``per_source`` checks of one address
are under way at once (the others are refused at once, costing nothing), and at most ``queue``
in all; and the checks waiting for a hashing thread go in the order of their address's
failures (``failures``: paiju.records.accounts ranks them), so that a crowd of connections from
a few addresses cannot make the owner's check wait behind theirs.

>>> t = Throttle(free=2, base=1.0, cap=8.0, per_address=3)
>>> for at in (0.0, 0.0):
...     t.record("ann", "10.0.0.1", at, ok=False)
>>> t.wait("ann", "10.0.0.1", 0.0), t.wait("Ann", "10.0.0.1", 0.5), t.wait("ann", "10.0.0.2", 0.0)
(1.0, 0.5, 0.0)
>>> for at in (1.0, 3.0, 7.0, 15.0):
...     t.record("ann", "10.0.0.1", at, ok=False)
>>> t.wait("ann", "10.0.0.1", 15.0)  # 2 ** 4 = 16 s, bounded by the cap
8.0
>>> t.wait("bob", "10.0.0.1", 15.0)  # the address itself: 6 failures of its 3 * 2 free
1.0
>>> t.start("10.0.0.1"), t.start("10.0.0.1"), t.start("10.0.0.2")
(True, False, True)
>>> t.finish("10.0.0.1"); t.start("10.0.0.1")
True
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Throttle:
    """``wait(name, address, now)``: seconds before a login may be tried; ``record`` its outcome;
    ``start(address)`` / ``finish(address)`` around each password check.

    A (name, address) pair may fail ``free`` times at once; then each attempt waits ``base``
    seconds, doubled with each further failure, ``cap`` seconds at most. An address gets
    ``per_address`` times the free failures (one client trying many names) before its own
    delays, on the same scale. A success forgets the pair's failures. Failures older than
    ``cap`` seconds no longer delay anything and are forgotten past 100,000 keys.
    """

    free: int = 3
    base: float = 1.0
    cap: float = 300.0
    per_address: int = 10
    per_source: int = 1  # password checks of one address under way at once
    queue: int = 64  # password checks under way at once, all addresses together
    fails: dict[str, tuple[int, float]] = field(default_factory=dict)  # key -> (failures, the last one's time)
    checking: Counter[str] = field(default_factory=Counter)  # address -> checks under way

    def wait(self, name: str, address: str, now: float) -> float:
        return max(self._wait(_pair(name, address), 1, now), self._wait(_addr(address), self.per_address, now))

    def _wait(self, key: str, scale: int, now: float) -> float:
        n, last = self.fails.get(key, (0, 0.0))
        if n < self.free * scale:
            return 0.0
        delay = self.base * 2.0 ** min(n - self.free * scale, 62)
        return max(0.0, last + min(self.cap, delay) - now)

    def failures(self, address: str) -> int:
        """The failed logins counted for ``address`` (the rank of its next password check:
        an address that fails a lot waits behind the others)."""
        return self.fails.get(_addr(address), (0, 0.0))[0]

    def record(self, name: str, address: str, now: float, *, ok: bool) -> None:
        """A login of ``name`` from ``address`` succeeded (the pair's failures are forgotten)
        or failed."""
        if ok:
            self.fails.pop(_pair(name, address), None)
            return
        for key in (_pair(name, address), _addr(address)):
            n, last = self.fails.get(key, (0, 0.0))
            if now - last > 2 * self.cap:
                n = 0  # quiet for long: counting starts again
            self.fails[key] = (n + 1, now)
        if len(self.fails) > 100_000:  # forget what no longer delays anything
            for key in [k for k, (_, last) in self.fails.items() if now - last > self.cap]:
                del self.fails[key]

    def start(self, address: str, *, exempt: bool = False) -> bool:
        """Whether a password check from ``address`` may start now (it is counted then): not
        when the address has ``per_source`` under way (unless ``exempt``), nor ``queue`` in all."""
        if sum(self.checking.values()) >= self.queue:
            return False
        if not exempt and self.checking[address] >= self.per_source:
            return False
        self.checking[address] += 1
        return True

    def finish(self, address: str) -> None:
        """A password check of ``address`` is over."""
        self.checking[address] -= 1
        if self.checking[address] <= 0:
            del self.checking[address]


def seconds(wait: float) -> str:
    """A wait as the RATE_LIMITED message says it: never less than the wait itself.

    >>> seconds(0.04), seconds(2.31), seconds(64.0), seconds(299.2)
    ('0.1', '2.4', '64', '300')
    """
    if wait >= 10:
        return str(math.ceil(wait))
    return f"{math.ceil(wait * 10) / 10:g}"


def _pair(name: str, address: str) -> str:
    return f"p:{address}\x00{name.casefold()}"


def _addr(address: str) -> str:
    return "a:" + address
