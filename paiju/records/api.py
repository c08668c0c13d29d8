"""The JSON HTTP API over the records (read-only; GET, as the server's HTTP side serves).

- ``GET /api/players/NAME/matches?limit=20&before=ID`` -- a player's or robot's matches, newest first;
- ``GET /api/matches/ID`` -- a match: seats, ratings, every finished hand with its action log;
- ``GET /api/matches/ID.pbn`` -- a bridge match as a PBN file;
- ``GET /api/matches/ID/verify`` -- its check: seed and salt against the commitment, every deal again;
- ``GET /api/leaderboard/GAME?limit=50&offset=0`` -- the ratings of a game, best first.

A match's ``seed`` is a decimal string: a 64-bit integer, which a JavaScript number would
round (match ids come from a sequence and stay numbers). A match in play (``status``
"playing") is served as its spectators see it: its ``seed`` and ``room`` are null (the seed
would deal every later hand, a private room's id is its way in); its finished hands, already
shown to everyone in their RESULT, are there.

Bad input gets status 400 (404 for what does not exist) and ``{"error": {"code", "message"}}``.
:func:`answer` is pure of any server: it takes the path and query and returns the response.

>>> import asyncio
>>> r = asyncio.run(answer(None, "/api/leaderboard/chess", ""))  # type: ignore[arg-type]
>>> r.status, r.json()["error"]["code"]
(404, 'no_such_game')
>>> r = asyncio.run(answer(None, "/api/players/xy/matches", "limit=0"))  # type: ignore[arg-type]
>>> r.status, r.json()["error"]["message"]
(400, 'limit must be an integer 1..100, not 0')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote

from paiju import games
from paiju.records import matches, verify
from paiju.records.database import Database
from paiju.records.models import PLAYING

JSON = "application/json"
PLAYER = re.compile(r"/api/players/([^/]+)/matches")
MATCH = re.compile(r"/api/matches/([^/]+?)(\.pbn|\.json|/verify)?")
LEADERBOARD = re.compile(r"/api/leaderboard/([^/]+)")
NAME_OR_ROBOT = re.compile(r"[\w.@-]{2,64}")
MAX_ID = 2**62


@dataclass(frozen=True)
class ApiResponse:
    status: int
    content_type: str
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class BadRequest(ValueError):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


async def answer(db: Database, path: str, query: str) -> ApiResponse:
    """The response to ``GET path?query`` (``path`` under /api/)."""
    try:
        q = parse_qs(query, keep_blank_values=True, max_num_fields=10)
    except ValueError:
        return _error(BadRequest("bad_query", "too many query fields"))
    try:
        if m := PLAYER.fullmatch(path):
            name = unquote(m.group(1))
            if not NAME_OR_ROBOT.fullmatch(name):
                raise BadRequest("bad_name", f"{name[:80]!r} is not a player's name")
            limit = _int(q, "limit", 20, 1, 100)
            before = _int(q, "before", None, 1, MAX_ID)
            page = await matches.history(db, name, limit=limit, before=before)
            return _ok(page | {"matches": [public(m) for m in page["matches"]]})
        if m := MATCH.fullmatch(path):
            match_id = _parse_int("match id", m.group(1), 1, MAX_ID)
            record = await matches.match(db, match_id)
            if m.group(2) == "/verify":  # the match page's check (paiju verify MATCH's)
                return _ok(verify.check(public(record)).json())
            if m.group(2) == ".pbn":
                if record["game"] != "bridge":
                    raise BadRequest("not_bridge", f"match {match_id} is {record['game']}: PBN is for bridge")
                try:
                    text = matches.pbn(record)
                except (games.GameError, ValueError) as e:  # a record altered since it was written
                    why = f"match {match_id}: a stored hand does not replay: {e}"
                    raise BadRequest("does_not_replay", why, 409) from None
                return ApiResponse(200, "text/plain; charset=utf-8", text.encode())
            return _ok(public(record))
        if m := LEADERBOARD.fullmatch(path):
            game = unquote(m.group(1))
            if game not in games.names():
                raise BadRequest("no_such_game", f"no game {game[:40]!r}; known: {', '.join(games.names())}", 404)
            limit = _int(q, "limit", 50, 1, 100)
            offset = _int(q, "offset", 0, 0, 100_000)
            return _ok({"game": game, "players": await matches.leaderboard(db, game, limit=limit, offset=offset)})
        raise BadRequest("no_such_path", f"no API at {path[:100]!r}", 404)
    except BadRequest as e:
        return _error(e)
    except matches.NotFound as e:
        return _error(BadRequest("not_found", str(e), 404))


def _int(q: dict[str, list[str]], key: str, default: int | None, lo: int, hi: int) -> Any:
    if key not in q:
        return default
    return _parse_int(key, q[key][-1], lo, hi)


def _parse_int(what: str, text: str, lo: int, hi: int) -> int:
    if not text.isascii() or not text.isdigit() or not lo <= int(text) <= hi:
        raise BadRequest("bad_" + what.replace(" ", "_"), f"{what} must be an integer {lo}..{hi}, not {text[:40]}")
    return int(text)


def public(match: dict[str, Any]) -> dict[str, Any]:
    """A match as anyone may see it, as JSON carries it: its 64-bit seed as a string once
    the match is over (or abandoned), null while it plays, like its salt, and its room's id
    null while it plays (a private room's id lets its holder in). Its ``commitment`` is
    always there: the promise its seed and salt are checked against.

    >>> public({"status": "playing", "seed": 7, "room": "r1"})
    {'status': 'playing', 'seed': None, 'room': None, 'salt': None}
    >>> public({"status": "over", "seed": 7, "room": "r1"})
    {'status': 'over', 'seed': '7', 'room': 'r1'}
    """
    if match["status"] == PLAYING:
        return match | {"seed": None, "salt": None, "room": None}
    return match | {"seed": str(match["seed"])}


def _ok(body: Any) -> ApiResponse:
    return ApiResponse(200, JSON, json.dumps(body, separators=(",", ":")).encode())


def _error(e: BadRequest) -> ApiResponse:
    return ApiResponse(e.status, JSON, json.dumps({"error": {"code": e.code, "message": e.message}}).encode())
