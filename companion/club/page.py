"""The club's read-only page: every table live, the results, the standings, the CSVs.

Served by aiohttp from a thread with its own loop (`ClubServer`), as the table's page is,
behind the same bounds (`companion.web.gate`: so many connections, so many from one
address, an idle one closed to make room, open files well under the process's limit) and
the same quiet log (`companion.web.quiet`: a flood of connections is summed up, never a
line each). Only GET routes exist: nothing a browser sends changes the board. The page
polls ``/api/board`` with the ETag of the version it has: unchanged, it is answered 304
with no body; changed, with the board's JSON built once a version (`Board.view_json`).
Each table is drawn from its public state: its status line, seats and scores, the OLED's
frame (``/frame/TABLE.png``), and the game's own page view, the very module the table's
page mounts (`Game.page_assets`, loaded by the page's ``gameview.js``, served here as the
table serves them) with nobody to act.
"""

from __future__ import annotations

import logging
import secrets
from importlib import resources
from typing import Any

from aiohttp import web

from companion import games
from companion.club.board import Board
from companion.club.topics import compact
from companion.club.words import WORDS
from companion.web.assets import page_file
from companion.web.errors import Refused
from companion.web.gate import Gate, Limits
from companion.web.quiet import QuietFilter, Summary
from companion.web.threaded import ThreadedServer

STATIC = resources.files("companion.club") / "static"
WEB_STATIC = resources.files("companion.web") / "static"
WEB_MODULES = ("gameview.js", "i18n.js", "draw.js")
"""The table's page modules the club's page imports to mount each game's view (and the
views import), served at the same /static/ paths as on the table's page."""
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self'; style-src 'self'; connect-src 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
HTTP_LOG = logging.getLogger("companion.club.http")
"""aiohttp's server logs here (a broken request...): summed up, never a traceback."""
HTTP_LOG.addFilter(QuietFilter())
BOARD = web.AppKey("board", Board)
LANG = web.AppKey("lang", str)
GATE = web.AppKey("gate", Gate)


class Served:
    """``/api/board`` as last served: its version, ETag and body (the board's JSON with the
    page's words and the games' titles), made again only when the board's version changed."""

    def __init__(self, lang: str) -> None:
        self.words = compact(WORDS[lang])
        self.games = compact({
            name: {"title": games.get(name).title, "lowest_wins": games.get(name).lowest_wins}
            for name in games.names()
        })  # fmt: skip
        """Each game's title and whether its lowest score wins, for the standings."""
        self.boot = secrets.token_hex(4)
        """In the ETag: a restarted club (its versions from 0 again) is never "unchanged"."""
        self.version = -1
        self.etag = ""
        self.body = b""

    def now(self, board: Board) -> tuple[str, bytes]:
        version, view = board.view_json()
        if version != self.version:
            self.version = version
            self.etag = f'"{self.boot}-{version}"'
            self.body = b'{"words":' + self.words + b',"games":' + self.games + b"," + view[1:]
        return self.etag, self.body


SERVED = web.AppKey("served", Served)


def make_app(board: Board, lang: str, gate: Gate | None = None) -> web.Application:
    """The page's routes over ``board``, its connections behind ``gate`` (default: default
    limits, for an app served without `ClubServer`)."""
    app = web.Application(middlewares=[_guard])
    app[BOARD] = board
    app[LANG] = lang
    app[GATE] = gate if gate is not None else Gate(Limits(), lambda: WORDS[lang]["full"])
    app[SERVED] = Served(lang)
    app.router.add_get("/", _static("club.html"))
    app.router.add_get("/club.js", _static("club.js"))
    app.router.add_get("/club.css", _static("club.css"))
    app.router.add_get("/api/board", _board)
    app.router.add_get("/frame/{table}.png", _frame)
    for name in WEB_MODULES:
        app.router.add_get(f"/static/{name}", _web_module(name))
    app.router.add_get("/games/{game}/{name}", _game_file)
    app.router.add_get("/api/{game}/{name}", _game_data)
    app.router.add_get("/results.csv", _csv("results"))
    app.router.add_get("/standings.csv", _csv("standings"))
    return app


FAILED = Summary("a request of the club's page failed")


@web.middleware
async def _guard(request: web.Request, handler: Any) -> web.StreamResponse:
    """The headers on every answer, never a traceback; the request's connection is busy
    meanwhile (`Gate.busy`: not closed to make room)."""
    try:
        with request.app[GATE].busy(request.transport):
            response: web.StreamResponse = await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = web.json_response({"error": exc.reason}, status=exc.status)
    except ConnectionError:  # the client left mid-request: nobody to answer
        response = web.json_response({"error": "gone"}, status=400)
    except Exception as exc:
        FAILED.note(f": {request.method} {request.path}: {exc!r}")
        response = web.json_response({"error": "failed"}, status=500)
    response.headers.update(HEADERS)
    return response


def _static(name: str) -> Any:
    body = (STATIC / name).read_bytes()
    content_type = TYPES["." + name.rsplit(".", 1)[1]]

    async def serve(request: web.Request) -> web.StreamResponse:
        if name.endswith(".html"):
            lang = request.app[LANG]
            text = (
                body.decode().replace("{{lang}}", lang).replace("{{title}}", WORDS[lang]["title"])
            )
            return web.Response(text=text, content_type=content_type, charset="utf-8")
        return web.Response(body=body, content_type=content_type, charset="utf-8")

    return serve


async def _board(request: web.Request) -> web.StreamResponse:
    etag, body = request.app[SERVED].now(request.app[BOARD])
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers={"ETag": etag})
    return web.Response(body=body, content_type="application/json", headers={"ETag": etag})


async def _frame(request: web.Request) -> web.StreamResponse:
    png = request.app[BOARD].frame(request.match_info["table"])
    if png is None:
        return web.json_response({"error": "no such table"}, status=404)
    return web.Response(body=png, content_type="image/png")


def _web_module(name: str) -> Any:
    body = (WEB_STATIC / name).read_bytes()

    async def serve(request: web.Request) -> web.StreamResponse:
        return web.Response(body=body, content_type="text/javascript", charset="utf-8")

    return serve


async def _game_file(request: web.Request) -> web.StreamResponse:
    """A file of a registered game's page view, as the table's page serves it."""
    try:
        body, content_type = page_file(request.match_info["game"], request.match_info["name"])
    except Refused:
        return web.json_response({"error": "no such file"}, status=404)
    return web.Response(body=body, headers={"Content-Type": content_type})


async def _game_data(request: web.Request) -> web.StreamResponse:
    """A registered game's fixed public data (`Game.page_data`), for its page view."""
    try:
        game = games.get(request.match_info["game"])
    except games.UnknownGame:
        return web.json_response({"error": "no such game"}, status=404)
    make = game.page_data.get(request.match_info["name"])
    if make is None:
        return web.json_response({"error": "no such data"}, status=404)
    return web.json_response(make())


def _csv(which: str) -> Any:
    async def serve(request: web.Request) -> web.StreamResponse:
        board = request.app[BOARD]
        text = board.results_csv() if which == "results" else board.standings_csv()
        return web.Response(
            text=text,
            content_type="text/csv",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{which}.csv"'},
        )

    return serve


class ClubServer(ThreadedServer):
    """The page served from a thread (`ThreadedServer`: `start` returns the port, `stop`),
    its connections behind a `Gate` (``limits``, with `connections` well under the
    process's limit of open files: the night's archive and the broker's connection always
    have theirs), a connection refused told so in the board's language."""

    def __init__(
        self, board: Board, lang: str, host: str, port: int, limits: Limits | None = None
    ) -> None:
        self.board, self.lang = board, lang
        super().__init__("the club page", host, port, limits, lambda: WORDS[lang]["full"],
                         HTTP_LOG)  # fmt: skip

    def app(self) -> web.Application:
        return make_app(self.board, self.lang, self.gate)
