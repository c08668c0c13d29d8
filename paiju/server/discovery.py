"""``GET /api/games``: what a client may ask of this server, built from the registries.

The games, each with its seats, its rulesets (a one-line description and the options each
sets), the options of CREATE_ROOM with their ranges and defaults, and the robots with their
descriptions, strongest (the default) first. A pure function of the server's settings and
robot menus; paiju/protocol/SPEC.md §10 documents the answer (generated from :data:`FIELDS`), and
tests/server/test_spec_conformance.py compares a live server's answer with the registries.

>>> from paiju.core.config import Limits
>>> answer = catalogue(Limits(), robots={"tricks": [("perfect", "exact"), ("random", "any")]})
>>> t = next(g for g in answer["games"] if g["name"] == "tricks")
>>> t["seats"], [r["name"] for r in t["rulesets"]], t["robots"][0]
(2, ['standard', 'pack'], {'name': 'perfect', 'description': 'exact', 'default': True})
>>> t["options"]["hands"]
{'min': 1, 'max': 64, 'default': 1}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from paiju import games
from paiju.core.config import DEFAULT_BANK_MS, DEFAULT_CLOCK_MS, FALLBACK_CLOCK_MS, Limits, rank_robots

FIELDS: tuple[tuple[str, str], ...] = (
    ("version", "the protocol version the server speaks (HELLO's `version`)"),
    ("games", "one entry per game, in the order below"),
    ("games[].name", "the game's name: CREATE_ROOM's and QUICK_PLAY's `game`"),
    ("games[].title", "the game's name for people"),
    ("games[].seats", "the number of seats (0..seats-1)"),
    (
        "games[].rulesets",
        "`{name, description, default, rules}`: the first is the default; `rules` maps each "
        "option the ruleset sets to its value",
    ),
    (
        "games[].options",
        "CREATE_ROOM's options: `{field: {min, max, default}}` for `hands` and `clock_ms`, "
        "`bank_ms` (the time bank a room with the default clock gives each seat a hand), `seats` for `bots`; "
        "`pbn` is listed for bridge only",
    ),
    (
        "games[].robots",
        "`{name, description, default}`, strongest first; `default` marks the robot a robot "
        "seat gets when CREATE_ROOM names none",
    ),
    (
        "limits",
        "the bounds of this server: `max_hands`, `max_rooms`, per client address "
        "`address_connections`, `address_rooms`, `address_rooms_per_minute` (0: none), and the frame rate "
        "`rate` (frames/s), `burst`, `rate_strikes`",
    ),
)
"""The answer's fields and what each means (SPEC.md §10)."""


def menus(describe: Callable[[str], Sequence[tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
    """Each game's robots with their descriptions, strongest (the default) first, from
    ``describe(game)`` (paiju.bots.registry.describe: ``(name, description)`` in any order).

    >>> menus(lambda game: [("random", "any"), ("greedy", "best now")])["tricks"]
    [('greedy', 'best now'), ('random', 'any')]
    """
    out = {}
    for game in games.names():
        described = dict(describe(game))
        out[game] = [(name, described[name]) for name in rank_robots(list(described))]
    return out


def catalogue(
    limits: Limits,
    *,
    robots: Mapping[str, Sequence[tuple[str, str]]],
    clocks: Mapping[str, int] = DEFAULT_CLOCK_MS,
    banks: Mapping[str, int] = DEFAULT_BANK_MS,
) -> dict[str, Any]:
    """The answer of ``GET /api/games`` for a server with ``limits``, the robot menus
    ``robots`` (per game, ``(name, description)`` strongest first) and its clocks and banks."""
    from paiju.protocol import VERSION

    out: list[dict[str, Any]] = []
    for name in games.names():
        cls = games.get(name)
        seats = games.create(name, 0).num_seats
        rulesets = []
        for i, (rname, rules) in enumerate(cls.RULESETS.items()):
            sets = {k: v for k, v in dataclasses.asdict(rules).items() if k not in ("name", "deals")}
            rulesets.append({"name": rname, "description": cls.RULESET_NOTES[rname], "default": i == 0, "rules": sets})
        options: dict[str, Any] = {
            "hands": {"min": 1, "max": limits.max_hands, "default": 1},
            "clock_ms": {
                "min": limits.min_clock_ms,
                "max": limits.max_clock_ms,
                "default": clocks.get(name, FALLBACK_CLOCK_MS),
            },
            "bank_ms": banks.get(name, 0),
            "seats": {"min": 0, "max": seats - 1},
        }
        if name == "bridge":
            options["pbn"] = "the text of a PBN file whose deals the room plays, in order (hands: their number)"
        menu = list(robots.get(name, ()))
        out.append(
            {
                "name": name,
                "title": cls.TITLE,
                "seats": seats,
                "rulesets": rulesets,
                "options": options,
                "robots": [{"name": r, "description": d, "default": i == 0} for i, (r, d) in enumerate(menu)],
            }
        )
    bounds = {
        k: getattr(limits, k)
        for k in (
            "max_hands",
            "max_rooms",
            "address_connections",
            "address_rooms",
            "address_rooms_per_minute",
            "rate",
            "burst",
            "rate_strikes",
        )
    }
    return {"version": VERSION, "games": out, "limits": bounds}
