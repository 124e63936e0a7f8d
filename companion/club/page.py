"""The club's read-only page: every table live, the results, the standings, the CSVs.

Served by aiohttp from a thread with its own loop (`ClubServer`), as the table's page is.
Only GET routes exist: nothing a browser sends changes the board. The page polls
``/api/board`` and draws each table from its public state: its status line, seats and
scores, the OLED's frame (``/frame/TABLE.png``), and the game's own page view, the very
module the table's page mounts (`Game.page_assets`, loaded by the page's ``gameview.js``,
served here as the table serves them) with nobody to act.
"""

from __future__ import annotations

import asyncio
import threading
from importlib import resources
from typing import Any

from aiohttp import web

from companion import games
from companion.club.board import Board
from companion.club.topics import compact
from companion.club.words import WORDS
from companion.web.assets import page_file
from companion.web.errors import Refused

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
BOARD = web.AppKey("board", Board)
LANG = web.AppKey("lang", str)


def make_app(board: Board, lang: str) -> web.Application:
    app = web.Application(middlewares=[_headers])
    app[BOARD] = board
    app[LANG] = lang
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


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
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
    view = request.app[BOARD].view()
    view["words"] = WORDS[request.app[LANG]]
    return web.Response(body=compact(view), content_type="application/json")


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


class ClubServer:
    """The page served from a thread (`start` returns the port, `stop`)."""

    def __init__(self, board: Board, lang: str, host: str, port: int) -> None:
        self.board, self.lang, self.host, self.port = board, lang, host, port
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._error: OSError | None = None
        self._runner: web.AppRunner | None = None
        self.thread = threading.Thread(target=self._run, name="club-page", daemon=True)

    def start(self, timeout: float = 10.0) -> int:
        self.thread.start()
        self._started.wait(timeout)
        if self._error is not None:
            raise OSError(f"the club's page cannot listen on {self.host}:{self.port}: "
                          f"{self._error.strerror or self._error}")  # fmt: skip
        return self.port

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._listen())
        except OSError as exc:
            self._error = exc
            self._started.set()
            return
        self._started.set()
        self._loop.run_forever()
        if self._runner is not None:
            self._loop.run_until_complete(self._runner.cleanup())
        self._loop.close()

    async def _listen(self) -> None:
        self._runner = web.AppRunner(make_app(self.board, self.lang), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        if self.port == 0 and isinstance(server, asyncio.Server) and server.sockets:
            self.port = int(server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        if self.thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self.thread.join(timeout=5)
