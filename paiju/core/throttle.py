"""Login throttling, sans-I/O: failed logins limited per account name and per client address.

OWASP's advice: after a few failures each further attempt waits longer (the delay doubles),
and past a bound the name (or the address) is locked for a while; the lock expires by itself,
so that nobody can lock an account out for good. The answer is the same whether the name is
an account's or not (the name is counted either way). The clock is the caller's ``now``.

>>> t = Throttle(free=2, base=1.0, lock_after=4, lock_for=60.0)
>>> for at in (0.0, 0.0):
...     t.record("ann", "10.0.0.1", at, ok=False)
>>> t.wait("ann", "10.0.0.1", 0.0), t.wait("Ann", "10.0.0.2", 0.5)
(1.0, 0.5)
>>> t.record("ann", "10.0.0.1", 1.0, ok=False); t.wait("ann", "10.0.0.3", 1.0)
2.0
>>> t.record("ann", "10.0.0.1", 3.0, ok=False); t.wait("ann", "10.0.0.3", 3.0)
60.0
>>> t.wait("ann", "10.0.0.3", 63.0)
0.0
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Throttle:
    """``wait(name, address, now)``: seconds before a login may be tried; ``record`` its outcome.

    An account name may fail ``free`` times at once; then each attempt waits ``base`` seconds,
    doubled with each failure, until ``lock_after`` failures lock it for ``lock_for`` seconds.
    An address gets ``per_address`` times these counts (one client trying many names). At
    most ``concurrent`` password checks run at once (each holds a thread for some 50 ms).
    """

    free: int = 3
    base: float = 1.0
    lock_after: int = 10
    lock_for: float = 900.0
    per_address: int = 5
    concurrent: int = 2
    fails: dict[str, tuple[int, float]] = field(default_factory=dict)  # key -> (failures, the last one's time)

    def wait(self, name: str, address: str, now: float) -> float:
        return max(self._wait(_name(name), 1, now), self._wait(_addr(address), self.per_address, now))

    def _wait(self, key: str, scale: int, now: float) -> float:
        n, last = self.fails.get(key, (0, 0.0))
        if n >= self.lock_after * scale:
            until = last + self.lock_for
        elif n >= self.free * scale:
            until = last + min(self.lock_for, self.base * 2 ** (n - self.free * scale))
        else:
            return 0.0
        return max(0.0, until - now)

    def record(self, name: str, address: str, now: float, *, ok: bool) -> None:
        """A login of ``name`` from ``address`` succeeded (the name's failures are forgotten)
        or failed."""
        if ok:
            self.fails.pop(_name(name), None)
            return
        for key, scale in ((_name(name), 1), (_addr(address), self.per_address)):
            n, last = self.fails.get(key, (0, 0.0))
            if n >= self.lock_after * scale and now >= last + self.lock_for:
                n = 0  # the lock ran out: counting starts again
            self.fails[key] = (n + 1, now)
        if len(self.fails) > 100_000:  # forget what no longer delays anything
            for key in [k for k, (_, last) in self.fails.items() if now - last > self.lock_for]:
                del self.fails[key]


def _name(name: str) -> str:
    return "n:" + name.casefold()


def _addr(address: str) -> str:
    return "a:" + address
