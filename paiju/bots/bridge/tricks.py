"""A fast estimate of a contract's double-dummy tricks, for the bidding's simulations.

Double dummy costs 60-400 ms of CPU a deal here (one strain and declarer; every strain and
seat), far beyond a call's budget when each decision looks at a dozen deals and several
contracts; :func:`estimate` costs about 20 µs. It is a linear model of the declaring pair's
double-dummy tricks on features of the whole deal (a sample deal shows every hand): the
pair's high-card points, aces, the trump fit and its top honours, the ruffing values of the
short trump hand, the defenders' worst trump split; in notrump the longest suit and the suits
no hand of the pair stops. :data:`SUIT` and :data:`NOTRUMP` were fitted by least squares
(:func:`fit`) on the double-dummy tables of random deals; the residual's spread ``sigma``
turns the estimate into a distribution of tricks (:func:`trick_odds`), so that a slam's
twelfth trick counts by its chance, not all or nothing.

``paiju bench judge --fit 400`` solves that many random deals double dummy, fits the two
models and prints them with their mean absolute error; ``tests/bots/test_bridge_judge.py``
checks the agreement on deals of its own.

>>> from paiju.games.bridge.deal import parse_deal
>>> hands = [list(h) for h in parse_deal("N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654")]
>>> round(estimate(hands, 4, 0)[0])
13
"""

from __future__ import annotations

import math
from collections.abc import Sequence

NT = 4
_HCP = {14: 4, 13: 3, 12: 2, 11: 1}

# the fitted weights, feature by feature (see :func:`features`), and the residual's spread:
# `paiju bench judge --fit 400 --seed 1` (mean absolute error 0.82 tricks in a suit, 1.01 in notrump)
SUIT = (
    (-4.7339, 0.2949, 0.7542, 0.0753, 0.2973, 0.2694, -0.3522, 0.43),
    1.04,
)
NOTRUMP = (
    (-2.3995, 0.37, 0.0208, -0.7286, 0.5802),
    1.29,
)


def _ranks(hand: Sequence[int], suit: int) -> list[int]:
    return [c & 0xF for c in hand if c >> 4 == suit]


def _stops(ranks: list[int]) -> bool:
    n = len(ranks)
    return 14 in ranks or (13 in ranks and n >= 2) or (12 in ranks and n >= 3) or (11 in ranks and n >= 4)


def features(hands: Sequence[Sequence[int]], strain: int, declarer: int) -> list[float]:
    """The model's inputs for ``declarer``'s pair playing in ``strain`` (0-3 a suit, 4 notrump).

    Suit: 1, the pair's HCP, trump length together, the short trump hand's ruffing values
    (void 3, singleton 2, doubleton 1, at most its trumps), the long hand's (the same, at most
    its trumps beyond the short hand's), the trump A K Q held, the defenders' longer trump
    holding, the pair's aces. Notrump: 1, HCP, the longest suit together, the suits the pair
    does not stop, the aces.
    """
    a, b = hands[declarer], hands[(declarer + 2) % 4]
    pts = sum(_HCP.get(c & 0xF, 0) for c in (*a, *b))
    aces = sum(1 for c in (*a, *b) if c & 0xF == 14)
    ra = [_ranks(a, s) for s in range(4)]
    rb = [_ranks(b, s) for s in range(4)]
    if strain == NT:
        longest = max(len(ra[s]) + len(rb[s]) for s in range(4))
        open_suits = sum(1 for s in range(4) if not _stops(ra[s]) and not _stops(rb[s]))
        return [1.0, pts, longest, open_suits, aces]
    t = strain
    la, lb = len(ra[t]), len(rb[t])
    short, long_ = (ra, rb) if la <= lb else (rb, ra)
    ls, ll = min(la, lb), max(la, lb)

    def ruffs(suits: list[list[int]], trumps: int) -> int:
        value = sum(max(0, 3 - len(suits[s])) for s in range(4) if s != t)
        return min(value, max(0, trumps))

    top = sum(1 for r in (*ra[t], *rb[t]) if r >= 12)
    opp = max(len(_ranks(hands[(declarer + 1) % 4], t)), len(_ranks(hands[(declarer + 3) % 4], t)))
    return [1.0, pts, la + lb, ruffs(short, ls), ruffs(long_, ll - ls), top, opp, aces]


def estimate(hands: Sequence[Sequence[int]], strain: int, declarer: int) -> tuple[float, float]:
    """The expected double-dummy tricks of ``declarer`` in ``strain`` and the spread around it."""
    weights, sigma = NOTRUMP if strain == NT else SUIT
    x = features(hands, strain, declarer)
    mu = sum(w * v for w, v in zip(weights, x, strict=True))
    return min(13.0, max(0.0, mu)), sigma


def _cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def trick_odds(mu: float, sigma: float) -> list[float]:
    """The chance of each trick count 0-13 around ``mu`` (a normal of spread ``sigma``, rounded)."""
    edges = [_cdf((t + 0.5 - mu) / sigma) for t in range(13)]
    odds = [edges[0]] + [edges[t] - edges[t - 1] for t in range(1, 13)] + [1.0 - edges[12]]
    return odds


def fit(rows: Sequence[tuple[list[float], float]]) -> tuple[list[float], float]:
    """Least-squares weights for ``rows`` of (features, tricks), and the residual's root mean square."""
    n = len(rows[0][0])
    ata = [[0.0] * n for _ in range(n)]
    atb = [0.0] * n
    for x, y in rows:
        for i in range(n):
            atb[i] += x[i] * y
            for j in range(n):
                ata[i][j] += x[i] * x[j]
    # Gauss-Jordan elimination with partial pivoting (n is 5 or 8)
    m = [[*row, atb[i]] for i, row in enumerate(ata)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [v - f * p for v, p in zip(m[r], m[col], strict=True)]
    w = [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]
    rms = math.sqrt(sum((sum(a * b for a, b in zip(w, x, strict=True)) - y) ** 2 for x, y in rows) / len(rows))
    return w, rms
