"""The server's HTTP side, beside the WebSocket endpoint ``/ws``: health, metrics, the
records' JSON API, replays, bridge's system card and the web client's static files.

:class:`Site` answers a request by its path: first the exact routes (``site.route(path,
handler)``), then the prefix routes (``site.prefix(prefix, handler)``, longest first), then the
web folder's files. A handler takes the connection and the request's path and query and
returns the response (or an awaitable of it). Adding an endpoint is one ``route`` call.
"""

from __future__ import annotations

import http
import inspect
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from paiju.records import Database
from paiju.records import api as records_api
from paiju.server import metrics, replays, systemcard
from paiju.server.replays import Replays

WEB_DIR = Path(__file__).parent / "web"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
    ".woff": "font/woff",
}
TEXT = "text/plain; charset=utf-8"
# the web client's own pages (player, match, leaderboard): each address is its index.html
CLIENT_PAGES = re.compile(r"/(?:players|matches|leaderboard|r)/[^/]+")

Handler = Callable[[ServerConnection, str, str], "Response | Awaitable[Response]"]


class Site:
    """``Site(health, replays, database, web_dir)``: ``health()`` is the body of ``/healthz``;
    ``replays`` the finished hands kept in memory; ``database`` the records (None: the JSON
    API answers 404 no_records)."""

    def __init__(
        self,
        health: Callable[[], dict[str, Any]],
        replays: Replays,
        database: Database | None = None,
        web_dir: Path = WEB_DIR,
    ) -> None:
        self.health = health
        self.replays = replays
        self.database = database
        self.web_dir = web_dir
        self.routes: dict[str, Handler] = {}
        self.prefixes: dict[str, Handler] = {}
        self.route("/healthz", self._healthz)
        self.route("/metrics", lambda c, p, q: respond(c, http.HTTPStatus.OK, *metrics.exposition()))
        self.route(systemcard.PATH, self._system_card)
        self.route(systemcard.PATH_ZH, self._system_card)
        self.prefix("/replay/", self._replay)
        self.prefix("/api/", self._api)

    def route(self, path: str, handler: Handler) -> None:
        """Answer requests for exactly ``path`` with ``handler``."""
        self.routes[path] = handler

    def prefix(self, prefix: str, handler: Handler) -> None:
        """Answer requests for paths under ``prefix`` with ``handler`` (longest prefix first)."""
        self.prefixes[prefix] = handler
        self.prefixes = dict(sorted(self.prefixes.items(), key=lambda kv: -len(kv[0])))

    async def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request``: the response, or None for the WebSocket at ``/ws``."""
        path, _, query = request.path.partition("?")
        if path == "/ws":
            return None
        handler = self.routes.get(path)
        if handler is None:
            handler = next((h for p, h in self.prefixes.items() if path.startswith(p)), self._static)
        r = handler(connection, path, query)
        return await r if inspect.isawaitable(r) else r

    def _system_card(self, connection: ServerConnection, path: str, query: str) -> Response:
        """Bridge's system card, made from the bidding tables (paiju/server/systemcard.py), in
        English or (``PATH_ZH``) simplified Chinese."""
        page = systemcard.page(lang="zh" if path == systemcard.PATH_ZH else "en")
        return respond(connection, http.HTTPStatus.OK, page.encode(), CONTENT_TYPES[".html"])

    def _healthz(self, connection: ServerConnection, path: str, query: str) -> Response:
        return respond(connection, http.HTTPStatus.OK, json.dumps(self.health()).encode(), "application/json")

    async def _api(self, connection: ServerConnection, path: str, query: str) -> Response:
        """The records' JSON API under /api/ (it reads the database)."""
        if self.database is None:
            body = b'{"error": {"code": "no_records", "message": "this server keeps no records (no database)"}}'
            return respond(connection, http.HTTPStatus.NOT_FOUND, body, "application/json")
        if m := replays.STORED.fullmatch(path):  # a stored hand for the web client's replay viewer
            data = await replays.stored(self.database, int(m.group(1)), int(m.group(2)))
            if data is None:
                return respond(connection, http.HTTPStatus.NOT_FOUND, b"no such finished hand\n", "text/plain")
            return respond(connection, http.HTTPStatus.OK, data, "application/msgpack")
        r = await records_api.answer(self.database, path, query)
        return respond(connection, http.HTTPStatus(r.status), r.body, r.content_type)

    def _replay(self, connection: ServerConnection, path: str, query: str) -> Response:
        """``/replay/ROOM/HAND``: the web client's replay of a finished hand (a redirect to
        ``/?replay=ROOM/HAND``); ``/replay/ROOM/HAND.msgpack``: its frames (paiju/server/replays.py)."""
        parts = unquote(path).split("/")[2:]
        if len(parts) == 2 and parts[1].removesuffix(".msgpack").isdigit():
            room, hand = parts[0], parts[1].removesuffix(".msgpack")
            if not parts[1].endswith(".msgpack"):
                r = respond(connection, http.HTTPStatus.FOUND, b"", TEXT)
                r.headers["Location"] = f"../../?replay={room}/{hand}"
                return r
            data = self.replays.get(room, int(hand))
            if data is not None:
                return respond(connection, http.HTTPStatus.OK, data, "application/msgpack")
        return respond(connection, http.HTTPStatus.NOT_FOUND, b"no such finished hand\n", TEXT)

    def _static(self, connection: ServerConnection, path: str, query: str) -> Response:
        f = self.static_file("/" if CLIENT_PAGES.fullmatch(path) else path)
        if f is None:
            page = self.static_file("/")
            if page is None or "." in path.rsplit("/", 1)[-1]:  # a file (script, image): no page
                return respond(connection, http.HTTPStatus.NOT_FOUND, b"not found\n", TEXT)
            # an address that names no page: the client's, which says so in the player's language
            return respond(connection, http.HTTPStatus.NOT_FOUND, page.read_bytes(), CONTENT_TYPES[".html"])
        ctype = CONTENT_TYPES.get(f.suffix.lower()) or mimetypes.guess_type(f.name)[0] or "application/octet-stream"
        return respond(connection, http.HTTPStatus.OK, f.read_bytes(), ctype)

    def static_file(self, path: str) -> Path | None:
        """The file under the web folder that ``path`` names, or None (never outside it).

        >>> s = Site(dict, Replays(), web_dir=Path("/nonexistent"))
        >>> s.static_file("/../../etc/passwd") is None, s.static_file("/%2e%2e/x") is None
        (True, True)
        """
        rel = unquote(path).lstrip("/") or "index.html"
        parts = rel.split("/")
        if any(p in ("", "..") or p.startswith(".") or "\\" in p or "\0" in p for p in parts):
            return None
        root = self.web_dir.resolve()
        f = (root / rel).resolve()
        if not f.is_relative_to(root) or not f.is_file():
            return None
        return f


def respond(connection: ServerConnection, status: http.HTTPStatus, body: bytes, ctype: str) -> Response:
    """A response of ``status`` with ``body`` of content type ``ctype``, never cached."""
    r = connection.respond(status, "")
    headers = Headers()
    for k, v in r.headers.raw_items():
        if k.lower() not in ("content-length", "content-type"):
            headers[k] = v
    headers["Content-Type"] = ctype
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    headers["X-Content-Type-Options"] = "nosniff"
    r.headers = headers
    r.body = body
    return r
