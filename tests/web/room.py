"""A room of phones watching one table's page, each from its own loopback address (any of
127/8 reaches a page on 127.0.0.1), over real sockets, as the page's own script follows
the table (companion/web/static/live.js): a live stream (`GET /api/live`: the whole state,
then deltas), or, when the page refuses one (503), `GET /api/state` polled until a stream
is had. The version of every state each phone gets is kept, so a test or a bench can
tell whether every phone got every change; a delta that does not follow the phone's
version is a gap (the page would open a new stream). Shared by tests/web/test_room.py
and bench/web_watchers.py."""

from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import threading
import time
from collections.abc import Sequence
from typing import Any

from companion.web.public import patch

VERSION = re.compile(rb'^\{"version":(\d+),')
"""A state's own version: the page writes it first."""
DELTA = re.compile(rb'^\{"version":(\d+),"from":(\d+),')


class Phone:
    """One phone: its address, the versions it got (in order, with their arrival times)
    and its latest state."""

    __slots__ = ("_deltas", "_latest", "arrivals", "buffer", "gaps", "polling", "source",
                 "versions")  # fmt: skip

    def __init__(self, source: str) -> None:
        self.source = source
        self.versions: list[int] = []
        self.arrivals: list[float] = []
        self._latest = b"{}"
        self._deltas: list[bytes] = []
        """The deltas got since the latest whole state, applied when `latest` is read."""
        self.gaps = 0
        """Deltas that did not follow the phone's version."""
        self.polling = False
        """Refused a stream: it polls the state."""
        self.buffer = bytearray()

    def got(self, state: bytes, when: float) -> None:
        """A whole state arrived (its version read without parsing the rest: a room's
        bench must not be slower than the page it measures)."""
        found = VERSION.search(state)
        assert found is not None, state[:200]
        if self._arrived(int(found.group(1)), when):
            self._latest, self._deltas = state, []

    def changed(self, delta: bytes, when: float) -> None:
        """A delta arrived: it must start from the phone's version."""
        found = DELTA.search(delta)
        assert found is not None, delta[:200]
        if not self.versions or int(found.group(2)) != self.versions[-1]:
            self.gaps += 1
        elif self._arrived(int(found.group(1)), when):
            self._deltas.append(delta)

    def _arrived(self, version: int, when: float) -> bool:
        if self.versions and version == self.versions[-1]:
            return False
        self.versions.append(version)
        self.arrivals.append(when)
        return True

    @property
    def latest(self) -> dict[str, Any]:
        """The phone's state: the latest whole one, with every delta since applied."""
        state = dict(json.loads(self._latest))
        for delta in self._deltas:
            change = json.loads(delta)
            state = {**patch(state, change["ops"]), "version": change["version"]}
        return state


class Room:
    """Phones from `sources` (one each), followed by two threads: one reads every stream,
    one polls for the refused (every `poll_seconds`, each phone its own connection)."""

    def __init__(self, host: str, port: int, sources: Sequence[str], poll_seconds: float = 2.0):
        self.host, self.port = host, port
        self.poll_seconds = poll_seconds
        self.phones = [Phone(s) for s in sources]
        self.lock = threading.Lock()
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        for phone in self.phones:
            self._open(phone)
        self._threads = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._poll, daemon=True)]  # fmt: skip
        for thread in self._threads:
            thread.start()

    def _open(self, phone: Phone) -> None:
        sock = socket.socket()
        sock.bind((phone.source, 0))
        sock.settimeout(10)
        sock.connect((self.host, self.port))
        sock.sendall(f"GET /api/live HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode())
        sock.setblocking(False)
        self._selector.register(sock, selectors.EVENT_READ, phone)

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(0.1):
                phone: Phone = key.data
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(1 << 20)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                now = time.perf_counter()
                phone.buffer += chunk
                if not chunk or self._refused(phone):  # ended, or refused: it polls
                    self._selector.unregister(sock)
                    sock.close()
                    with self.lock:
                        phone.polling = True
                    continue
                self._events(phone, now)

    @staticmethod
    def _refused(phone: Phone) -> bool:
        """The page answered the stream with another status than 200 (as the page's
        script does, the phone then polls)."""
        head = bytes(phone.buffer[:12])
        return len(head) == 12 and head.startswith(b"HTTP/1.1 ") and head[9:12] != b"200"

    def _events(self, phone: Phone, now: float) -> None:
        buffer = phone.buffer
        while (end := buffer.find(b"\n\n")) >= 0:
            event = bytes(buffer[:end])
            del buffer[: end + 2]
            if b"event: state\n" in event:  # (after a chunk's size, for some)
                with self.lock:
                    phone.got(event.split(b"data: ", 1)[1], now)
            elif b"event: delta\n" in event:
                with self.lock:
                    phone.changed(event.split(b"data: ", 1)[1], now)

    def _poll(self) -> None:
        while not self._stop.wait(self.poll_seconds):
            with self.lock:
                polling = [p for p in self.phones if p.polling]
            for phone in polling:
                connection = http.client.HTTPConnection(
                    self.host, self.port, timeout=10, source_address=(phone.source, 0)
                )
                try:
                    connection.request("GET", "/api/state")
                    answer = connection.getresponse()
                    body = answer.read()
                    if answer.status == 200:
                        with self.lock:
                            phone.got(body, time.perf_counter())
                except OSError:
                    pass  # the next poll
                finally:
                    connection.close()

    def counts(self) -> tuple[int, int]:
        """(phones streaming, phones polling)."""
        with self.lock:
            polling = sum(p.polling for p in self.phones)
        return len(self.phones) - polling, polling

    def wait_for(self, version: int, timeout: float = 30.0) -> float:
        """Until every phone has a state of `version` or later; the last arrival's time.
        Raises AssertionError naming the phones still without it."""
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                behind = [p for p in self.phones if not p.versions or p.versions[-1] < version]
                if not behind:
                    return max(next(t for v, t in zip(p.versions, p.arrivals, strict=True)
                                    if v >= version) for p in self.phones)  # fmt: skip
            if time.monotonic() > deadline:
                names = ", ".join(f"{p.source} ({'polling' if p.polling else 'stream'})"
                                  for p in behind[:10])  # fmt: skip
                raise AssertionError(f"{len(behind)} phones never got version {version}: {names}")
            time.sleep(0.002)

    def gaps(self) -> int:
        """Deltas, in all, that did not follow their phone's version."""
        with self.lock:
            return sum(p.gaps for p in self.phones)

    def missed(self, versions: Sequence[int]) -> dict[str, list[int]]:
        """Each phone that did not get every one of `versions`: the ones it missed."""
        with self.lock:
            return {p.source: [v for v in versions if v not in p.versions]
                    for p in self.phones if not set(versions) <= set(p.versions)}  # fmt: skip

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(15)
        for key in list(self._selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self._selector.close()
