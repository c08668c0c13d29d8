"""Ratings: openskill's Plackett-Luce model, one rating (mu, sigma) per account and game.

A match is one ranking of teams by their final totals: bridge's partnerships (seats 0 and 2
against 1 and 3) are two teams of two, every other game's seats play for themselves (Niujiu's
three, mahjong's four, the trick-taking game's two). Equal totals share a rank. Leaderboards
sort by the ordinal ``mu - 3 sigma``, which rises only as the system grows sure of a player.
Guests take part with a fresh rating that is not kept; robots are rated like people.
This module is pure: :mod:`paiju.records.matches` reads and writes the ratings around it.

>>> teams("bridge", 4), teams("mahjong", 4)
([(0, 2), (1, 3)], [(0,), (1,), (2,), (3,)])
>>> ranks([5, -5, 5, -5], teams("bridge", 4)), ranks([3, 9, 3], teams("niujiu", 3))
([1, 2], [2, 1, 2])
>>> after = update("bridge", [None] * 4, [420, -420, 420, -420])
>>> after[0] == after[2] and after[0][0] > 25 > after[1][0]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

PARTNERSHIPS: dict[str, list[tuple[int, ...]]] = {"bridge": [(0, 2), (1, 3)]}
_model = PlackettLuce()
MU, SIGMA = _model.mu, _model.sigma

Rating = tuple[float, float]  # (mu, sigma)


def teams(game: str, seats: int) -> list[tuple[int, ...]]:
    """The teams of a game's seats: partnerships where the game has them, else one per seat."""
    return PARTNERSHIPS.get(game, [(s,) for s in range(seats)])


def ranks(totals: Sequence[int], groups: Sequence[tuple[int, ...]]) -> list[int]:
    """Each team's rank by its total (1 = best; ties share the better rank)."""
    scores = [sum(totals[s] for s in g) / len(g) for g in groups]
    return [1 + sum(other > mine for other in scores) for mine in scores]


def ordinal(r: Rating) -> float:
    """What leaderboards sort by: ``mu - 3 sigma`` (0 for a new player)."""
    return r[0] - 3 * r[1]


def update(game: str, before: Sequence[Rating | None], totals: Sequence[int]) -> list[Rating]:
    """The seats' ratings after a match that ended with ``totals`` (None before: a fresh rating)."""
    groups = teams(game, len(totals))
    model_teams = [[_model.rating(*(before[s] or (MU, SIGMA))) for s in g] for g in groups]
    rated = _model.rate(model_teams, ranks=[float(r) for r in ranks(totals, groups)])
    out: list[Rating] = [(MU, SIGMA)] * len(totals)
    for g, team in zip(groups, rated, strict=True):
        for s, r in zip(g, team, strict=True):
            out[s] = (r.mu, r.sigma)
    return out
