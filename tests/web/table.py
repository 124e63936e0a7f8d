"""A live table for the web tests: the real referee loop (`Service`) with its web page,
both in threads, over a journal in a temporary data directory; and a small HTTP client
on the standard library, so requests cross a real socket."""

from __future__ import annotations

import asyncio
import http.client
import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, TypeVar

from companion import games
from companion.config.model import DisplayConfig, WebConfig
from companion.devices.display import Display
from companion.games import TableReferee
from companion.journal import Setup, dump_lines
from companion.notify import Notifier
from companion.run.clock import Clock
from companion.run.loop import Service
from companion.run.web_port import WebPort
from companion.session import Session
from companion.web.gate import Limits
from companion.web.virtual import HandPace, virtual_setup

T = TypeVar("T")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    """One browser: its own cookies; `csrf` once paired."""

    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str | None = None
    source: str | None = None
    """The address it connects from (any of 127/8 reaches a page on 127.0.0.1)."""

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        sent = dict(headers or {})
        if isinstance(body, dict):
            body = json.dumps(body)
            sent.setdefault("Content-Type", "application/json")
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        source = None if self.source is None else (self.source, 0)
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=10, source_address=source
        )
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
            for raw in response.headers.get_all("Set-Cookie") or []:
                for key, morsel in SimpleCookie(raw).items():
                    if morsel.value and not morsel["expires"]:
                        self.cookies[key] = morsel.value
                    else:
                        self.cookies.pop(key, None)
            return Answer(response.status, dict(response.headers), data)
        finally:
            connection.close()

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None, **headers: str) -> Answer:
        if self.csrf is not None:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return self.request("POST", path, {} if body is None else body, headers)

    def pair(self, table: LiveTable, seat: int) -> Answer:
        answer = self.post("/api/pair", {"code": table.web.pairings.code, "seat": seat})
        if answer.status == 200:
            self.csrf = answer.json()["csrf"]
        return answer

    def act(self, control: str, value: Any = None) -> Answer:
        body: dict[str, Any] = {"control": control}
        if value is not None:
            body["value"] = value
        return self.post("/api/act", body)

    def move(self, name: str, **fields: Any) -> Answer:
        """A move of this seat's hands on the virtual table."""
        return self.post("/api/virtual", {"move": {"move": name, **fields}})

    def stream_first_event(self) -> str:
        """The data of the first `state` event of this browser's live stream."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        try:
            connection.request("GET", "/api/live", headers=headers)
            response = connection.getresponse()
            assert response.status == 200
            for raw in response:
                line = raw.decode()
                if line.startswith("data: "):
                    return line.removeprefix("data: ").strip()
            raise AssertionError("the stream ended without an event")
        finally:
            connection.close()

    def mine(self) -> dict[str, Any]:
        """This seat's own facts on the virtual table (its state's `mine`)."""
        state = self.get("/api/state").json()
        assert state["you"] is not None
        mine: dict[str, Any] = state["mine"]
        return mine


class LiveTable:
    """`Service` + `WebPort` on a new journal, until `close`."""

    def __init__(
        self,
        data_dir: Path,
        setup: Setup,
        *,
        script_clock: bool = False,
        config: WebConfig | None = None,
        limits: Limits | None = None,
        virtual: bool = False,
    ) -> None:
        """`script_clock`: `Scripted` inputs keep their own time (a simulated game fed
        whole, its ticks included), as `companion run --sim-clock script` does; `config`
        the [web] section (the page on 127.0.0.1, a port of its own), `limits` the page's
        bounds on connections; `virtual`: a virtual table (`companion run --virtual`),
        its tags made up, on the real clock (the clock thread ticks)."""
        self.data_dir = data_dir
        self.inbox: queue.Queue[Any] = _TrackingQueue()
        if virtual:
            setup = virtual_setup(setup, games.get(setup.game))
        self.session = Session.start(data_dir / "game.jsonl", setup)
        self.display = Display(DisplayConfig(driver="dummy"), setup.language)
        self.display.open()
        self.web = WebPort(
            config or WebConfig(host="127.0.0.1", port=0),
            data_dir,
            self.session.referee,
            self.inbox,
            limits=limits,
            virtual=virtual,
        )
        self.web.start()
        self.service = Service(
            self.session,
            self.inbox,
            self.display,
            Notifier({}),
            web=self.web,
            script_clock=script_clock,
        )
        self.thread = threading.Thread(target=self.service.run, daemon=True)
        self.thread.start()
        self.clock = Clock(self.inbox) if virtual else None
        if self.clock is not None:
            self.clock.start()
        host, port = self.web.address.rsplit(":", 1)
        self.host, self.port = host, int(port)

    def unhurried(self) -> None:
        """Let every seat's phone act at machine speed: a test that plays whole games
        faster than hands would is refused (429) by the seats' pace, which
        `test_virtual_table` tests on its own."""
        self.web.hub.hands = HandPace(time.monotonic, rate=1000.0, burst=1000)

    def client(self, source: str | None = None) -> Client:
        """A new browser, connecting from `source` (127.0.0.1 by default)."""
        return Client(self.host, self.port, source=source)

    def put(self, item: Any) -> None:
        self.inbox.put(item)

    def settle(self) -> None:
        """Wait until the loop took everything queued so far."""
        done = threading.Event()
        self.inbox.put(_Marker(done))
        assert done.wait(10)

    def stable_version(self) -> int:
        """The page's version once every change asked so far is numbered: the loop has
        taken everything queued and the page's loop has run every call it was given (a
        change may move it more than once: the pairing, then the OLED's card the loop
        draws after it), so nothing is left that would move it."""
        hub = self.web.hub
        while True:
            version = hub.version
            self.settle()
            self.in_page_loop(lambda: None)  # after the `_notify`s the publishes queued
            if hub.version == version and self.inbox.empty():
                return version

    def in_page_loop(self, call: Callable[[], T]) -> T:
        """`call()` run in the page's event loop (its hub and connections are the loop's),
        after every call queued there before."""

        async def run() -> T:
            return call()

        return asyncio.run_coroutine_threadsafe(run(), self.web.server._loop).result(10)

    def close(self) -> None:
        if self.clock is not None:
            self.clock.stop()
        self.service.stop()
        self.thread.join(5)
        self.web.stop()
        self.session.close()
        self.display.close()


@dataclass(frozen=True, eq=False)
class _Marker:
    """An item the loop ignores; set once the loop asks for the item after it."""

    done: threading.Event


class _TrackingQueue(queue.Queue[Any]):
    """The loop's queue; the loop asks for the next item only once it has finished the
    last one, so a marker taken before is done when the loop asks again."""

    def __init__(self) -> None:
        super().__init__()
        self._taken: _Marker | None = None

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        if self._taken is not None:
            self._taken.done.set()
            self._taken = None
        item = super().get(block, timeout)
        if isinstance(item, _Marker):
            self._taken = item
        return item


def archive_game(data_dir: Path, name: str, game: str, seats: int, seed: int) -> TableReferee:
    """A whole simulated game of `game` in `data_dir`'s archive, named `name`, as the
    service leaves a finished one; its referee fed to the end."""
    played = games.get(game)
    setup = played.simulated_setup(seats, seed)
    inputs = played.simulate(setup).inputs
    folder = data_dir / "archive"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("\n".join(dump_lines(setup, inputs, checksum=True)) + "\n")
    referee = played.referee(setup)
    for record in inputs:
        referee.feed(record)
    return referee


def drawn(page: Any, selector: str) -> None:
    """In a browser's ``page``, the image ``selector`` is loaded and the OLED's 128 pixels
    wide (waited for: a loaded machine may take a moment to decode it)."""
    page.wait_for_function(
        "(s) => { const i = document.querySelector(s); "
        "return i !== null && i.complete && i.naturalWidth === 128 }",
        arg=selector,
    )
