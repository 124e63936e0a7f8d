"""The table's web page: an aiohttp application in a thread of its own.

The page is another input port and another public screen. It reads only `Snapshot`s
(`companion.web.public`), which the referee loop publishes after every step, and it acts
only by putting a `PagePress` on the loop's queue, where it is journaled and judged like a
button press of the paired seat. Every request is checked here, whatever the page did:

- watching (`GET`) is open to anyone on the network;
- every request names the table itself in its `Host` header (an address, or the Pi's
  own name): a page of another site whose name was made to point at the Pi (DNS
  rebinding) is refused;
- acting needs a paired phone (`companion.web.pairing`): its cookie says which seat, the
  `X-CSRF-Token` header must carry that pairing's token, an `Origin` header must be this
  very site, bodies are JSON of at most `MAX_BODY` bytes with exactly the keys expected;
  and the referee says whether the act is that seat's to make (`seat_refusal`);
- connections are bounded and timed out (`companion.web.gate`), pairing tries slowed
  (`companion.web.pairing`);
- a refused request is a status and `{"error": "<a sentence>"}` (in the table's language
  for what a player may read), never a traceback.

Why aiohttp: one maintained package gives the HTTP server, server-sent events and a test
client, runs in any thread on its own asyncio loop (the referee loop stays a plain
thread), has wheels for the Pi's ARM boards and a small footprint.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import io
import ipaddress
import json
import logging
import math
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from companion import games
from companion.contract.game import Game
from companion.referee.event_log import TableEvent
from companion.run.items import Inbox, PagePress, Redraw, VirtualMove
from companion.run.supervise import SupervisedThread
from companion.screens.model import Reason
from companion.screens.text import DEFAULT_LANGUAGE, phrase
from companion.transcript import describe
from companion.web.aio import StreamWriter, web
from companion.web.assets import CONTENT_TYPES, page_file
from companion.web.errors import Refused, said, told
from companion.web.gate import Gate, Limits
from companion.web.pairing import CodeCard, Pairings, client_of
from companion.web.public import Snapshot, diff
from companion.web.quiet import QuietFilter
from companion.web.replay import Journals, Replay, frame_png, record_text
from companion.web.reports import REPORT_CSP, Reports
from companion.web.threaded import ThreadedServer
from companion.web.virtual import HandPace, refused

log = logging.getLogger("companion")

MAX_BODY = 8 * 1024
"""Bytes: a placement is well under 1 KiB."""
COOKIE = "companion_seat"
ANSWER_TIMEOUT = 5.0
"""Seconds an action waits for the referee loop before the page is told it did not answer."""
KEEP_ALIVE = 15.0
"""Seconds between two keep-alive comments of a live stream."""
RETRY_MS = 3000
"""How soon a page reopens a live stream that ended (server-sent events' `retry`)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
STATIC = resources.files("companion.web") / "static"
HTTP_LOG = logging.getLogger("companion.web.http")
"""aiohttp's server logs here (a broken request...): summed up, never a traceback."""
HTTP_LOG.addFilter(QuietFilter())


def _compact(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _chunk(data: bytes) -> bytes:
    """`data` as one chunk of an HTTP/1.1 chunked body (as aiohttp frames a write)."""
    return b"%x\r\n%b\r\n" % (len(data), data)


DELTAS_KEPT = 16
"""The latest changes kept as deltas: a stream that fell further behind is sent the whole
state."""


class _Public:
    """The public part of the clients' state at one version: the view, serialized whole
    only when a client needs it whole (a page's first state, a poll), and what changed
    since the version built before it (`delta`, an `event: delta`)."""

    __slots__ = ("_json", "delta", "open_seats", "snapshot", "version", "view")

    def __init__(self, version: int, snapshot: Snapshot | None, open_seats: list[int],
                 view: dict[str, Any], before: _Public | None) -> None:  # fmt: skip
        self.version = version
        self.snapshot = snapshot
        self.open_seats = open_seats
        self.view = view
        self._json: tuple[bytes, bytes, bytes] | None = None
        self.delta: tuple[int, bytes] | None = None
        """(the version it changes, the event), when a version was built before."""
        if before is not None:
            ops = diff(before.view, view)
            head = {"version": version, "from": before.version, "ops": ops}
            self.delta = (before.version, b"event: delta\ndata: " + _compact(head) + b"\n\n")

    def whole(self) -> tuple[bytes, bytes, bytes]:
        """The state without `you` (its closing brace is where a paired client's `you`
        goes), with `"you":null` (every unpaired client's), and that one's event."""
        if self._json is None:
            public = _compact({"version": self.version, **self.view})
            unpaired = public[:-1] + b',"you":null}'
            self._json = (public, unpaired, b"event: state\ndata: " + unpaired + b"\n\n")
        return self._json


STREAM_BUFFER = 0x10000
"""Bytes a live stream's connection may hold unsent before the hub stops writing to it
(its handler waits for the phone to take them): aiohttp's own bound on a response."""


class _Follower:
    """A live stream in step with the hub (`Hub.follow`): while its handler waits, the hub
    writes each change to the stream's connection itself (`Hub._broadcast`), and wakes the
    handler only for what the handler must do: the whole state, a connection to drain."""

    __slots__ = ("chunked", "token", "transport", "version", "waiter", "who")

    def __init__(self, transport: asyncio.Transport, chunked: bool, token: str | None,
                 version: int, who: tuple[int, str] | None) -> None:  # fmt: skip
        self.transport = transport
        self.chunked = chunked
        """The response is sent in HTTP/1.1 chunks (each write framed as one)."""
        self.token = token
        self.version = version
        """The version the stream has (everything up to it written)."""
        self.who = who
        self.waiter: asyncio.Future[None] | None = None

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class Hub:
    """What the web thread shares with the referee loop: the latest snapshot, the
    pairings, the loop's queue. `publish` and `pairing_card` are called from the loop."""

    def __init__(
        self,
        game: Game,
        seats: tuple[str, ...],
        inbox: Inbox,
        pairings: Pairings,
        journals: Journals,
        clock: Callable[[], float] = time.monotonic,
        admin_token: str | None = None,
        virtual: bool = False,
    ) -> None:
        self.game = game
        self.virtual = virtual
        """The table is played on the page with virtual tokens (`companion.web.virtual`)."""
        self.private: dict[int, bytes] = {}
        """Each seat's own facts on the virtual table (its hand...), compact JSON, set by
        the referee loop: sent to that seat's paired phone only, as its `mine`."""
        self.hands = HandPace(clock)
        """How fast each paired seat may act (a flood is refused, the others play)."""
        self.admin_token = admin_token
        """`companion unpair` sends it (from the Pi itself); None: no console route."""
        self.seats = seats
        self.inbox = inbox
        self.pairings = pairings
        self.journals = journals
        self.reports = Reports(journals.data_dir)
        self.clock = clock
        self.snapshot: Snapshot | None = None
        self.address = ""
        """The page's address, once it listens (the OLED's pairing card shows it)."""
        self.code_card = CodeCard(clock)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.version = 0
        self._followers: dict[_Follower, None] = {}
        self._broadcast_due = False
        self._seat_changes = 0
        self._png: tuple[int, bytes] = (-1, b"")
        self._public_cache: _Public | None = None
        self._deltas: deque[tuple[int, int, bytes]] = deque(maxlen=DELTAS_KEPT)
        """The latest changes: (from version, to version, event), oldest first."""
        self._private_built: dict[int, bytes] = self.private
        """The seats' own facts the latest version was built with."""

    @property
    def language(self) -> str:
        """The table's language, as the latest snapshot gives it."""
        if self.snapshot is None:
            return DEFAULT_LANGUAGE
        return str(self.snapshot.view.get("language", DEFAULT_LANGUAGE))

    # ------------------------------------------------------------- loop thread side

    def publish(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self._bump()

    def publish_private(self) -> None:
        """A seat's own facts changed (`private`) with nothing public: its page updates."""
        self._bump()

    def publish_pairing(self) -> None:
        """Who is paired changed: pages update their seat lists, the OLED its card."""
        self._bump()
        self.inbox.put_nowait(Redraw())

    def code_asked(self) -> bool:
        """A page asked to see the pairing code, and the card is still on."""
        return self.code_card.showing()

    # -------------------------------------------------------------- web thread side

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def _bump(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._notify)

    def _notify(self) -> None:
        """In the web thread, after a publish or a pairing: the new content gets its
        version (`_public`), which the streams that follow are sent."""
        self._public()

    async def follow(self, follower: _Follower, timeout: float) -> bool:
        """Wait, as `follower`, while the hub sends the stream every change itself; until
        it cannot (`_broadcast`), or for `timeout` (then False: nothing was sent)."""
        if self.version != follower.version:
            return True
        since = follower.version
        follower.waiter = asyncio.get_running_loop().create_future()
        self._followers[follower] = None
        try:
            async with asyncio.timeout(timeout):  # no task per wait (wait_for makes one)
                await follower.waiter
        except TimeoutError:
            return follower.version != since
        finally:
            self._followers.pop(follower, None)
        return True

    def _broadcast(self) -> None:
        """Each following stream is written what changed since its version (the same
        bytes for every stream at that version: one write each, no task woken). A stream
        that needs more (the whole state: it fell behind the changes kept, or who it is
        changed) or whose connection holds `STREAM_BUFFER` unsent has its handler woken
        instead, out of the followers."""
        public = self._public()
        self._broadcast_due = False
        now = public.version
        framed: dict[int, tuple[bytes, bytes] | None] = {}
        """By version a stream has: what it is sent, as is and as an HTTP chunk."""
        for follower in list(self._followers):
            since = follower.version
            if since == now:
                continue
            if since not in framed:
                chain = self._chain(since, now)
                framed[since] = None if chain is None else (chain, _chunk(chain))
            data = framed[since]
            transport = follower.transport
            if (
                data is None
                or self._own_facts(follower.who)
                or (follower.who is not None and self.pairings.who(follower.token) != follower.who)
                or transport.is_closing()
                or transport.get_write_buffer_size() > STREAM_BUFFER
            ):
                del self._followers[follower]
                follower.wake()
                continue
            transport.write(data[follower.chunked])
            follower.version = now

    def state_bytes(self, token: str | None) -> bytes:
        """The snapshot as one client may see it, as compact JSON: the public view, plus
        who it is (`you`). The public part is serialized once per change and shared by
        every client; only a paired phone's `you` (seat, name, csrf) is its own, spliced
        in before the closing brace."""
        return self._state(self._public(), self.pairings.who(token))

    def event_bytes(self, token: str | None) -> bytes:
        """The server-sent `state` event of `state_bytes`: the same bytes for every
        unpaired watcher of a version."""
        return self._event(self._public(), self.pairings.who(token))

    def stream_bytes(
        self, token: str | None, since: int, seen: tuple[int, str] | None
    ) -> tuple[bytes, int, tuple[int, str] | None]:
        """What a live stream that was sent version `since` as `seen` (its `you`) is sent
        now, the version it then has, and its `you`: the changes since, as the `delta`
        events every stream is sent alike, while they are kept and `you` is the same;
        else the whole state (`event_bytes`)."""
        public = self._public()
        who = self.pairings.who(token)
        if since >= 0 and who == seen and not self._own_facts(who):
            chain = self._chain(since, public.version)
            if chain is not None:
                return chain, public.version, who
        return self._event(public, who), public.version, who

    def _own_facts(self, who: tuple[int, str] | None) -> bool:
        """A paired phone of the virtual table, which has facts of its own (`private`): a
        delta says only what changed publicly, so it is sent the whole state each time."""
        return who is not None and who[0] in self.private

    def _chain(self, since: int, version: int) -> bytes | None:
        """The delta events from `since` to `version`, or None when one is not kept."""
        deltas = self._deltas
        if deltas and deltas[-1][0] == since and deltas[-1][1] == version:
            return deltas[-1][2]  # the usual case: the stream has the version before
        start = next((i for i, d in enumerate(deltas) if d[0] == since), None)
        if start is None or deltas[-1][1] != version:
            return None
        return b"".join(d[2] for d in list(deltas)[start:])

    def _event(self, public: _Public, who: tuple[int, str] | None) -> bytes:
        if who is None:
            return public.whole()[2]
        return b"event: state\ndata: " + self._state(public, who) + b"\n\n"

    def _state(self, public: _Public, who: tuple[int, str] | None) -> bytes:
        whole, unpaired, _ = public.whole()
        if who is None:
            return unpaired
        you = {"seat": who[0], "name": self.seats[who[0]], "csrf": who[1]}
        mine = self.private.get(who[0])
        own = b',"mine":' + mine if mine is not None else b""
        return whole[:-1] + b',"you":' + _compact(you) + own + b"}"

    def _public(self) -> _Public:
        """The public part of the state, built again, as a new version, when the
        snapshot, the open seats or the seats' own facts (the virtual table's `private`)
        changed (a publish, a pairing, a pairing expired, a move): a
        version names one content, which a delta may start from. Its number is the
        snapshot's plus the changes of the open seats so far, so it counts every snapshot
        published, those the page skipped (published faster than it looked) too. The
        following streams are sent it once the loop is free (`_broadcast`)."""
        snapshot = self.snapshot
        paired = self.pairings.paired_seats()
        open_seats = [s for s in range(len(self.seats)) if s not in paired]
        cached = self._public_cache
        private = self.private
        if cached is not None:
            same_private = self._private_built is private
            if cached.snapshot is snapshot and cached.open_seats == open_seats and same_private:
                return cached
            self._seat_changes += cached.open_seats != open_seats
            self._seat_changes += not same_private  # a seat's own facts: a version too
        self._private_built = private
        number = (snapshot.version if snapshot else 0) + self._seat_changes
        self.version = number if cached is None else max(number, self.version + 1)
        if self._followers and not self._broadcast_due and self._loop is not None:
            self._broadcast_due = True
            self._loop.call_soon_threadsafe(self._broadcast)  # (a test may ask from its own)
        view: dict[str, Any] = dict(snapshot.view) if snapshot else {"game": self.game.name}
        frame_no = view.pop("frame_no", 0)
        view.update(frame=f"/api/frame.png?v={frame_no}", pairing={"open_seats": open_seats})
        public = _Public(self.version, snapshot, open_seats, view, cached)
        if public.delta is not None:
            self._deltas.append((public.delta[0], public.version, public.delta[1]))
        self._public_cache = public
        return public

    def frame_png(self) -> bytes:
        snapshot = self.snapshot
        if snapshot is None:
            raise told(503, "starting")
        number = snapshot.view.get("frame_no", 0)
        if self._png[0] != number:
            out = io.BytesIO()
            snapshot.frame.save(out, format="PNG")
            self._png = (number, out.getvalue())
        return self._png[1]


# ------------------------------------------------------------------------ the app

HUB = web.AppKey("hub", Hub)
GATE = web.AppKey("gate", Gate)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Security headers on every response; a refused request as JSON; never a traceback.
    The request's connection is busy meanwhile (`Gate.busy`: not closed to make room)."""
    try:
        with request.app[GATE].busy(request.transport):
            if not _own_host(request.host):
                raise told(403, "host")
            response = await handler(request)
    except Refused as exc:
        response = _error(exc.status, exc.sentence(_hub(request).language))
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        if exc.status == 408:
            response.force_close()  # the rest of the body is not waited for
    except web.HTTPRequestEntityTooLarge:
        response = _error(413, said("large", _hub(request).language, limit=MAX_BODY))
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = _error(
            exc.status, said(_HTTP_KEYS.get(exc.status, "refused"), _hub(request).language)
        )
    except ConnectionError:  # the client left mid-request: nobody to answer
        log.debug("web: %s %s: the client went away", request.method, request.path)
        response = _error(400, said("gone", _hub(request).language))
    except Exception:
        log.exception("web: %s %s failed", request.method, request.path)
        response = _error(500, said("failed", _hub(request).language))
    if not response.prepared:
        for header, value in SECURITY_HEADERS.items():
            response.headers.setdefault(header, value)  # a report sets its own policy
        if request.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
    return response


_HTTP_KEYS = {404: "no.page", 405: "method"}
"""aiohttp's own refusals (no such route, a method the route does not take), said."""


def _error(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


@functools.cache
def _own_names() -> frozenset[str]:
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local"})


def _own_host(host: str) -> bool:
    """A `Host` header that names the table itself: an IP address (the QR code's, any of
    the Pi's), "localhost", or the Pi's own name (and its mDNS name, NAME.local); never a
    name of another site (DNS rebinding)."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.removeprefix("[").split("]", 1)[0]
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return name.lower().rstrip(".") in _own_names()
    return True


def make_app(hub: Hub, gate: Gate | None = None) -> web.Application:
    """The page's routes over `hub`, its connections behind `gate` (default: default
    limits, for an app served without `WebServer`)."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_guard])
    app[HUB] = hub
    app[GATE] = gate if gate is not None else Gate(Limits(), lambda: said("full", hub.language))
    app.router.add_get("/", _static_page("index.html"))
    app.router.add_get("/replay", _static_page("replay.html"))
    app.router.add_get("/static/{name}", _static_file)
    app.router.add_get("/games/{game}/{name}", _game_file)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/live", _live)
    app.router.add_get("/api/frame.png", _frame)
    app.router.add_post("/api/pair", _pair)
    app.router.add_post("/api/pair/show", _show_code)
    app.router.add_post("/api/unpair", _unpair)
    app.router.add_post("/api/act", _act)
    app.router.add_post("/api/virtual", _virtual)
    app.router.add_get("/api/journals", _journals)
    app.router.add_get("/api/journals/{name}", _journal)
    app.router.add_get("/api/journals/{name}/frames/{i}.png", _journal_frame)
    app.router.add_get("/api/journals/{name}/steps/{i}.json", _journal_table)
    app.router.add_get("/api/journals/{name}/record.txt", _journal_record)
    app.router.add_get("/api/reports", _reports)
    app.router.add_get("/reports/{name}/", _report_file)
    app.router.add_get("/reports/{name}/{file}", _report_file)
    app.router.add_post("/api/admin/unpair", _admin_unpair)
    app.router.add_get("/api/{game}/{name}", _game_data)
    app.router.add_get("/P/{code}", _pair_link)
    app.router.add_get("/p/{code}", _pair_link)
    return app


def _hub(request: web.Request) -> Hub:
    return request.app[HUB]


def _static_page(name: str) -> Handler:
    async def page(request: web.Request) -> web.StreamResponse:
        return _static_response(name)

    return page


async def _static_file(request: web.Request) -> web.StreamResponse:
    return _static_response(request.match_info["name"])


def _static_response(name: str) -> web.Response:
    suffix = Path(name).suffix
    entry = STATIC / name
    if "/" in name or name.startswith(".") or suffix not in CONTENT_TYPES or not entry.is_file():
        raise told(404, "no.file", name=name)
    return web.Response(
        body=entry.read_bytes(),
        headers={"Content-Type": CONTENT_TYPES[suffix], "Cache-Control": "no-cache"},
    )


async def _game_file(request: web.Request) -> web.StreamResponse:
    """A file of a registered game's page view (`companion.web.assets`)."""
    body, content_type = page_file(request.match_info["game"], request.match_info["name"])
    return web.Response(
        body=body, headers={"Content-Type": content_type, "Cache-Control": "no-cache"}
    )


async def _state(request: web.Request) -> web.StreamResponse:
    return web.Response(
        body=_hub(request).state_bytes(request.cookies.get(COOKIE)),
        content_type="application/json",
    )


async def _live(request: web.Request) -> web.StreamResponse:
    """Server-sent events: the client's state at once, then what changed at every change
    (written by the hub itself while the stream follows it, `Hub.follow`); for at most
    `Limits.stream_seconds`, or until the stream gives way to another client's
    (`Gate.stream`), then the page reopens it (one of a bounded number)."""
    hub = _hub(request)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            **SECURITY_HEADERS,
        }
    )
    with request.app[GATE].stream(request.remote) as stream:
        token = request.cookies.get(COOKIE)
        sent, seen = -1, None
        try:
            async with stream.time_left():
                await response.prepare(request)
                await response.write(f"retry: {RETRY_MS}\n\n".encode())
                transport, writer = request.transport, request.writer
                assert transport is not None and isinstance(writer, StreamWriter)
                while True:
                    if hub.version != sent:
                        data, sent, seen = hub.stream_bytes(token, sent, seen)
                        await response.write(data)
                    follower = _Follower(transport, writer.chunked, token, sent, seen)
                    if not await hub.follow(follower, KEEP_ALIVE):
                        await response.write(b": keep-alive\n\n")
                    sent = follower.version
                    await writer.drain()  # a phone slow to take what the hub wrote
        except (ConnectionError, TimeoutError):
            pass  # the page went away, or the stream's time is up: the page reopens it
    response.force_close()  # its connection with it: a new stream opens a new one
    return response


async def _frame(request: web.Request) -> web.StreamResponse:
    return web.Response(body=_hub(request).frame_png(), content_type="image/png")


async def _body(request: web.Request, keys: Mapping[str, bool]) -> dict[str, Any]:
    """The JSON object of a POST, checked: same origin, JSON, small, the keys in `keys`
    (key -> required) and no other."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        raise told(403, "origin")  # the host itself is the table's (`_own_host`)
    if request.content_type != "application/json":
        raise told(415, "json")
    body = await request.app[GATE].read_body(request, MAX_BODY)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise told(400, "json.bad") from exc
    if not isinstance(data, dict):
        raise told(400, "json.object")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise told(400, "json.unknown", unknown=", ".join(unknown), keys=", ".join(keys))
    missing = [k for k, required in keys.items() if required and k not in data]
    if missing:
        raise told(400, "json.missing", missing=", ".join(missing))
    return data


def _paired(request: web.Request) -> tuple[int, str]:
    """(seat, token) of a paired phone whose request carries its CSRF token."""
    hub = _hub(request)
    token = request.cookies.get(COOKIE)
    who = hub.pairings.who(token)
    if who is None or token is None:
        raise told(409, "pair.over") if hub.pairings.over else told(401, "unpaired")
    csrf = request.headers.get("X-CSRF-Token", "")
    if not secrets.compare_digest(csrf.encode(), who[1].encode()):
        raise told(403, "csrf")
    return who[0], token


async def _pair(request: web.Request) -> web.StreamResponse:
    hub = _hub(request)
    data = await _body(request, {"code": True, "seat": True})
    paired = hub.pairings.pair(data["code"], data["seat"], client_of(request.remote))
    hub.publish_pairing()
    response = web.json_response(
        {"seat": paired.seat, "name": hub.seats[paired.seat], "csrf": paired.csrf}
    )
    response.set_cookie(COOKIE, paired.token, httponly=True, samesite="Strict", path="/")
    return response


async def _pair_link(request: web.Request) -> web.StreamResponse:
    """The QR code's address (upper case, to fit QR's alphanumeric mode): the page, with
    the code to fill in."""
    code = request.match_info["code"]
    if not (code.isascii() and code.isdigit() and len(code) <= 12):
        raise told(404, "not_code")
    raise web.HTTPFound(f"/?pair={code}")


async def _admin_unpair(request: web.Request) -> web.StreamResponse:
    """`companion unpair`: the console revokes pairings, from the Pi itself only."""
    hub = _hub(request)
    if not _from_this_machine(request) or hub.admin_token is None:
        raise told(403, "admin.here")
    if not secrets.compare_digest(request.headers.get("X-Admin-Token", ""), hub.admin_token):
        raise told(403, "admin.token")
    data = await _body(request, {"seat": True})
    seat = data["seat"]
    if seat == "all":
        count = hub.pairings.revoke(None)
    elif isinstance(seat, str) and seat in hub.seats:
        count = hub.pairings.revoke(hub.seats.index(seat))
    else:
        raise told(400, "admin.seat", seats=", ".join(hub.seats))
    hub.publish_pairing()
    done = said("admin.unpaired", hub.language, count=count)  # the table's language, as refused
    return web.json_response({"ok": True, "unpaired": count, "said": done})


def _from_this_machine(request: web.Request) -> bool:
    """The request comes from the Pi itself: loopback, or the address it listens on."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    local = sockname[0] if sockname else None
    return request.remote in ("127.0.0.1", "::1", local)


async def _show_code(request: web.Request) -> web.StreamResponse:
    hub = _hub(request)
    await _body(request, {})
    seconds = hub.code_card.ask(client_of(request.remote))
    hub.inbox.put_nowait(Redraw())
    return web.json_response({"ok": True, "seconds": math.ceil(seconds)})


async def _unpair(request: web.Request) -> web.StreamResponse:
    hub = _hub(request)
    await _body(request, {})
    _, token = _paired(request)
    hub.pairings.forget(token)
    hub.publish_pairing()
    response = web.json_response({"ok": True})
    response.del_cookie(COOKIE, path="/")
    return response


async def _act(request: web.Request) -> web.StreamResponse:
    """A paired seat's action, through the referee loop; the lines it caused."""
    hub = _hub(request)
    data = await _body(request, {"control": True, "value": False})
    seat, _ = _paired(request)
    hub.hands.take(seat)
    control = data["control"]
    if not isinstance(control, str) or control not in hub.game.controls:
        controls = ", ".join(hub.game.controls)
        raise told(400, "control", game=hub.game.title, control=repr(control), controls=controls)
    value = data.get("value")
    if hub.game.page_value is not None:
        board = hub.snapshot.view.get("board") if hub.snapshot else None
        value = hub.game.page_value(control, value, seat, board or {})
    answer: concurrent.futures.Future[list[TableEvent] | Reason]
    answer = concurrent.futures.Future()
    hub.inbox.put_nowait(PagePress(control, seat, value, functools.partial(_reply, answer)))
    try:
        events = await asyncio.wait_for(asyncio.wrap_future(answer), ANSWER_TIMEOUT)
    except TimeoutError as exc:
        raise told(503, "no_answer") from exc
    if isinstance(events, Reason):  # not this seat's act: nothing was journaled
        return _error(403, phrase(f"notice.{events}", hub.language))
    return _lines(hub, events)


async def _virtual(request: web.Request) -> web.StreamResponse:
    """What a paired seat's hands did on the virtual table (`companion.web.virtual`):
    judged by the game's kit for that seat, in the referee loop; the lines it caused."""
    hub = _hub(request)
    data = await _body(request, {"move": True})
    seat, _ = _paired(request)
    if not hub.virtual:
        raise refused(409, "off")
    if hub.game.virtual is None:
        raise refused(409, "none")
    hub.hands.take(seat)
    answer: concurrent.futures.Future[list[TableEvent] | Exception]
    answer = concurrent.futures.Future()
    hub.inbox.put_nowait(VirtualMove(seat, data["move"], functools.partial(_reply, answer)))
    try:
        events = await asyncio.wait_for(asyncio.wrap_future(answer), ANSWER_TIMEOUT)
    except TimeoutError as exc:
        raise told(503, "no_answer") from exc
    if isinstance(events, Refused):
        raise events
    if isinstance(events, Exception):
        raise told(500, "failed")
    return _lines(hub, events)


def _lines(hub: Hub, events: list[TableEvent]) -> web.Response:
    """What an act or a move caused, as the page shows it: its lines, or the referee's
    refusal (409) when it refused it."""
    lang = hub.language
    lines = [line for e in events if (line := describe(e, hub.seats, hub.game.name, lang))]
    refused_events = [e for e in events if e.get("kind") == "ignored"]
    if refused_events:
        why = describe(refused_events[0], hub.seats, hub.game.name, lang) or said("refused", lang)
        return _error(409, why, lines=lines)
    return web.json_response({"ok": True, "lines": lines})


def _reply(answer: concurrent.futures.Future[Any], value: Any) -> None:
    """The referee loop's answer to a page's act (in the loop's thread): dropped when the
    page no longer waits for it (it gave up, or went away)."""
    with contextlib.suppress(concurrent.futures.InvalidStateError):
        answer.set_result(value)


async def _journals(request: web.Request) -> web.StreamResponse:
    journals = _hub(request).journals
    listing = await asyncio.get_running_loop().run_in_executor(None, journals.listing)
    return web.json_response({"journals": listing})


def _journal_path(request: web.Request) -> Path:
    path = _hub(request).journals.find(request.match_info["name"])
    if path is None:
        raise told(404, "no.journal")
    return path


def _replay_of(request: web.Request) -> Replay:
    return _hub(request).journals.get(_journal_path(request))


def _step_of(request: web.Request, replay: Replay) -> int:
    """The step the address names, or a 404."""
    try:
        i = int(request.match_info["i"])
    except ValueError as exc:
        raise told(404, "no.step") from exc
    if not 0 <= i < len(replay.steps):
        raise told(404, "no.step_range", step=i, last=len(replay.steps) - 1)
    return i


async def _journal(request: web.Request) -> web.StreamResponse:
    loop = asyncio.get_running_loop()
    replay = await loop.run_in_executor(None, _replay_of, request)
    return web.json_response(replay.document())


async def _journal_frame(request: web.Request) -> web.StreamResponse:
    loop = asyncio.get_running_loop()
    replay = await loop.run_in_executor(None, _replay_of, request)
    i = _step_of(request, replay)
    png = await loop.run_in_executor(None, frame_png, replay, i)
    return web.Response(body=png, content_type="image/png")


async def _journal_table(request: web.Request) -> web.StreamResponse:
    """A step's public table (`companion.web.public.table_now`), as the live page had it."""
    journals = _hub(request).journals
    loop = asyncio.get_running_loop()
    path = await loop.run_in_executor(None, _journal_path, request)
    replay = await loop.run_in_executor(None, journals.with_tables, path)
    table = replay.steps[_step_of(request, replay)].table
    return web.Response(text=table or "null", content_type="application/json")


async def _journal_record(request: web.Request) -> web.StreamResponse:
    """The game's public record as a text file (never the journal: it holds the tags)."""
    loop = asyncio.get_running_loop()
    replay = await loop.run_in_executor(None, _replay_of, request)
    name = replay.name.removesuffix(".jsonl")
    response = web.Response(text=record_text(replay), content_type="text/plain", charset="utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.txt"'
    return response


async def _reports(request: web.Request) -> web.StreamResponse:
    reports = _hub(request).reports
    listing = await asyncio.get_running_loop().run_in_executor(None, reports.listing)
    return web.json_response({"reports": listing})


async def _report_file(request: web.Request) -> web.StreamResponse:
    """A lab report (`companion lab`, `companion report`) of the data directory."""
    name = request.match_info["name"]
    file = request.match_info.get("file", "report.html")
    path = _hub(request).reports.find(name, file)
    if path is None:
        raise told(404, "no.report")
    body = await asyncio.get_running_loop().run_in_executor(None, path.read_bytes)
    kinds = {".html": "text/html", ".json": "application/json", ".csv": "text/csv"}
    response = web.Response(body=body, content_type=kinds[path.suffix], charset="utf-8")
    response.headers["Content-Security-Policy"] = REPORT_CSP
    if path.suffix == ".csv":
        response.headers["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


async def _game_data(request: web.Request) -> web.StreamResponse:
    """A registered game's fixed public data (`Game.page_data`), for its page view: the
    playing game's, or another's whose journal is replayed."""
    try:
        game = games.get(request.match_info["game"])
    except games.UnknownGame as exc:
        raise told(404, "no.game") from exc
    make = game.page_data.get(request.match_info["name"])
    if make is None:
        raise told(404, "no.data")
    return web.json_response(make())


# ---------------------------------------------------------------------- the thread


class WebServer(ThreadedServer):
    """The app served from a thread with its own asyncio loop (`ThreadedServer`). The
    thread is supervised (`companion.run.supervise`): once listening, it runs until
    `stop`, and its death is put on the hub's queue for the referee loop to judge."""

    def __init__(self, hub: Hub, host: str, port: int, limits: Limits | None = None) -> None:
        self.hub = hub
        self._stopping = False
        super().__init__(
            "the web page",
            host,
            port,
            limits,
            lambda: said("full", hub.language),
            HTTP_LOG,
            handler_cancellation=True,
        )  # fmt: skip  (a stream whose page left ends)

    def app(self) -> web.Application:
        return make_app(self.hub, self.gate)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.hub.attach(loop)

    def make_thread(self, run: Callable[[], None]) -> threading.Thread:
        return SupervisedThread("web", run, self.hub.inbox, self._stopped)

    def _stopped(self) -> bool:
        """Asked to stop, or it never listened (`start` raised): no death either way."""
        return self._stopping or self.failed

    def stop(self) -> None:
        self._stopping = True
        super().stop()
