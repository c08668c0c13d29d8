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
from typing import Any, get_args

from paiju import games
from paiju.core.config import DEFAULT_BANK_MS, DEFAULT_CLOCK_MS, FALLBACK_CLOCK_MS, Limits, rank_robots
from paiju.core.social import Chat
from paiju.protocol.frames import U64, LongText, MaxLen, Range

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
        "every CREATE_ROOM field but `game`, by name: `ruleset` and `robot` `{values, default}` (a robot "
        "seat's robot when CREATE_ROOM names none: the first, the strongest); `hands`, `clock_ms`, `bots` "
        "(its seats) and `seed` `{min, max, default}` (`clock_ms`'s default is this game's clock, and a room "
        "with it has the time bank `bank_ms`; `seed` nil: the server draws one, §8); `robots` `{values, length}` "
        "(at most `length` entries, by seat: a robot for a seat of `bots`, or nil: the room's `robot`); "
        "`private` `{default}`; `pbn` `{max_chars}` for bridge only; and "
        "`bank_ms`, the time bank a room with the default clock gives each seat a hand",
    ),
    (
        "games[].robots",
        "`{name, description, default}`, strongest first; `default` marks the robot a robot "
        "seat gets when CREATE_ROOM names none",
    ),
    (
        "limits",
        "the bounds of this server: `max_hands`, `max_rooms`, per client address "
        "`address_connections`, `address_rooms`, `address_rooms_per_minute` (0: none), the frame rate "
        "`rate` (frames/s), `burst`, `rate_strikes` (§1), `send_queue` (frames a connection may leave "
        "unread, §8) and `replay_buffer` (the events a room keeps for a resume's `last_seq`, §8)",
    ),
    (
        "timings",
        "in milliseconds: `grace_ms` (a dropped player keeps its seat, a spectator its place: resume within "
        "it), `robot_pace_ms` (a robot's move waits this long after its prompt where people play or "
        "watch, at most half the room's `clock_ms`), `rematch_ms` (the rematch offer's time; 0: no offer), "
        "`quickplay_wait_ms` (quick play's wait before robots fill the room), `hand_pause_ms` (from a RESULT "
        "to the next deal), `waiting_expiry_ms` (a room not started by then closes: `ROOM_EXPIRED`), "
        "`stall_ms` (a connection leaving frames unread that long is closed), `ping_interval_ms` (WebSocket "
        "pings, §1), `token_ttl_ms` (a resume token's life); and `takeover_after`, the timeouts in a row "
        "after which a robot plays a seat in a room without time banks",
    ),
    (
        "chat",
        "SAY's bounds: `max_chars` a line, `burst` lines at once then one every `refill_ms` per player, "
        "`address_burst` and `address_refill_ms` for all the connections of a client address together, "
        "and `kept`, the lines of the table (and apart of the spectators) sent again to whoever joins or "
        "resumes",
    ),
)
"""The answer's fields and what each means (SPEC.md §10)."""

LONGTEXT = next(m.n for m in get_args(LongText) if isinstance(m, MaxLen))  # CREATE_ROOM's pbn
SEED_MAX = next(m.hi for m in get_args(U64) if isinstance(m, Range))  # CREATE_ROOM's seed


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
        menu = [r for r, _ in robots.get(name, ())]
        options: dict[str, Any] = {
            "ruleset": {"values": list(cls.RULESETS), "default": next(iter(cls.RULESETS))},
            "hands": {"min": 1, "max": limits.max_hands, "default": 1},
            "clock_ms": {
                "min": limits.min_clock_ms,
                "max": limits.max_clock_ms,
                "default": clocks.get(name, FALLBACK_CLOCK_MS),
            },
            "bots": {"min": 0, "max": seats - 1},
            "robot": {"values": menu, "default": menu[0] if menu else None},
            "private": {"default": False},
            "seed": {"min": 0, "max": SEED_MAX, "default": None},
            "robots": {"values": menu, "length": seats},
            "bank_ms": banks.get(name, 0),
        }
        if name == "bridge":
            options["pbn"] = {"max_chars": LONGTEXT}
        out.append(
            {
                "name": name,
                "title": cls.TITLE,
                "seats": seats,
                "rulesets": rulesets,
                "options": options,
                "robots": [
                    {"name": r, "description": d, "default": i == 0} for i, (r, d) in enumerate(robots.get(name, ()))
                ],
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
            "send_queue",
            "replay_buffer",
        )
    }
    return {"version": VERSION, "games": out, "limits": bounds, "timings": timings(limits), "chat": chat()}


def timings(limits: Limits) -> dict[str, int]:
    """The times a client must respect, in milliseconds (discovery's ``timings``).

    >>> timings(Limits(grace=4.0))["grace_ms"], timings(Limits())["rematch_ms"]
    (4000, 30000)
    """
    ms = {
        "grace_ms": limits.grace,
        "robot_pace_ms": limits.robot_pace,
        "rematch_ms": limits.rematch_wait,
        "quickplay_wait_ms": limits.quickplay_wait,
        "hand_pause_ms": limits.hand_pause,
        "waiting_expiry_ms": limits.waiting_expiry,
        "stall_ms": limits.stall,
        "ping_interval_ms": limits.ping_interval,
        "token_ttl_ms": limits.token_ttl,
    }
    return {k: round(v * 1000) for k, v in ms.items()} | {"takeover_after": limits.takeover_after}


def chat() -> dict[str, int]:
    """SAY's bounds (discovery's ``chat``: paiju.core.social.Chat)."""
    return {
        "max_chars": Chat.MAX_LEN,
        "burst": Chat.BURST,
        "refill_ms": round(Chat.REFILL_S * 1000),
        "address_burst": Chat.ADDRESS_BURST,
        "address_refill_ms": round(Chat.ADDRESS_REFILL_S * 1000),
        "kept": Chat.KEEP,
    }
