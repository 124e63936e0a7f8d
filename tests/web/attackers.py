"""Strangers on the LAN that try to starve the page, over real sockets, from many loopback
addresses (any of 127/8 reaches a page on 127.0.0.1): slow POST bodies, live streams
taken as many as a client can, and a watcher polling meanwhile. Shared by the tests
(tests/web/test_connections.py) and the bench (bench/web_attacks.py)."""

from __future__ import annotations

import contextlib
import http.client
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Sequence


def addresses(count: int, first: int = 10) -> list[str]:
    """`count` loopback addresses, 127.0.0.<first> on."""
    return [f"127.0.0.{first + i}" for i in range(count)]


class _Crowd:
    """Connections from `sources`, `per_source` each, kept open in a thread: a connection
    the page closes is opened again. `opened` counts every connection opened."""

    def __init__(self, host: str, port: int, sources: Sequence[str], per_source: int) -> None:
        self.host, self.port = host, port
        self.sources = list(sources)
        self.per_source = per_source
        self.opened = 0
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Crowd:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()

    def _open(self, source: str) -> None:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.setblocking(False)
        sock.connect_ex((self.host, self.port))
        self._selector.register(sock, selectors.EVENT_WRITE, [source, False])
        self.opened += 1

    def head(self) -> bytes:
        raise NotImplementedError

    def tick(self, sock: socket.socket) -> None:
        """Every `pace` seconds, on each connection whose head is sent."""

    def received(self, sock: socket.socket, data: bytes) -> None:
        """What the page sent on `sock`."""

    def closed(self, sock: socket.socket) -> None:
        """`sock` was closed by the page."""

    pace = 0.5

    def _run(self) -> None:
        for source in self.sources:
            for _ in range(self.per_source):
                self._open(source)
        next_tick = time.monotonic() + self.pace
        while not self._stop.is_set():
            for key, events in self._selector.select(0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                source, sent = key.data
                try:
                    if not sent and events & selectors.EVENT_WRITE:
                        sock.sendall(self.head())
                        self._selector.modify(sock, selectors.EVENT_READ, [source, True])
                        continue
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if data:
                    self.received(sock, data)
                    continue
                self._selector.unregister(sock)  # closed by the page: open another
                self.closed(sock)
                sock.close()
                self._open(source)
            if time.monotonic() >= next_tick:
                next_tick += self.pace
                for key in list(self._selector.get_map().values()):
                    if key.data[1]:
                        with contextlib.suppress(OSError):  # closed: seen by the next select
                            self.tick(key.fileobj)  # type: ignore[arg-type]


class SlowBodies(_Crowd):
    """POSTs whose body comes a byte every half second (8,000 bytes announced): each
    connection holds a request under way as long as the page lets it."""

    def head(self) -> bytes:
        return (
            f"POST /api/pair HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 8000\r\n\r\n{"
        ).encode()

    def tick(self, sock: socket.socket) -> None:
        sock.send(b" ")


class StreamHogs(_Crowd):
    """`GET /api/live` on every connection: as many live streams as the page gives; a
    stream refused or ended is asked for again. `streaming()` counts the streams the page
    is sending right now."""

    def __init__(self, host: str, port: int, sources: Sequence[str], per_source: int) -> None:
        super().__init__(host, port, sources, per_source)
        self._live: set[socket.socket] = set()

    def head(self) -> bytes:
        return f"GET /api/live HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode()

    def received(self, sock: socket.socket, data: bytes) -> None:
        if data.startswith(b"HTTP/1.1 200"):
            self._live.add(sock)

    def closed(self, sock: socket.socket) -> None:
        self._live.discard(sock)

    def streaming(self) -> int:
        return len(self._live)


def watch(
    host: str,
    port: int,
    source: str,
    seconds: float,
    every: float = 0.05,
    waits: list[float] | None = None,
) -> Counter[str]:
    """A watcher polling `GET /api/state` from `source` for `seconds`, a new connection
    each time: how many answers of each status ("none": no answer within 5 s); each
    answer's wait (seconds, connection included) appended to `waits`."""
    statuses: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(host, port, timeout=5, source_address=(source, 0))
        asked = time.monotonic()
        try:
            connection.request("GET", "/api/state")
            answer = connection.getresponse()
            answer.read()
            statuses[str(answer.status)] += 1
            if waits is not None:
                waits.append(time.monotonic() - asked)
        except OSError:
            statuses["none"] += 1
        finally:
            connection.close()
        time.sleep(every)
    return statuses
