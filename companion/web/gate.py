"""How many connections the page keeps open, and for how long: a LAN of strangers may open
thousands, or send a request a byte at a time, and the page must still answer everyone.

- A connection must send a whole request head within `idle_seconds` of being opened or of
  its last answer (aiohttp's keep-alive timer, which `WebServer` sets to that): an idle
  connection, or one that sends its headers a byte at a time (slowloris), is then closed.
  A body must arrive within `body_seconds` (`server._body`), or it is answered 408.
- At most `connections` connections are open at once, at most `per_client` from one client
  (`pairing.client_of`). Past either bound a new connection takes the place of the oldest
  idle one (no request under way), of the same client first: an idle connection is what
  an attacker holds, a new one may be a player. When every one is busy, the new one is
  answered 503 with a sentence, without being read, and closed. So the open files stay
  far below the service's limit (1,024), and the event loop never runs out of them.
- Live streams (`/api/live`) are at most `streams`, `streams_per_client` from one client,
  each at most `stream_seconds` long (the page reopens it by itself).

What a client can repeat (a connection refused or closed to make room) is summed up in
the log (`companion.web.quiet`), never logged once per connection.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from companion.web.errors import said, told
from companion.web.pairing import client_of
from companion.web.quiet import Summary

RETRY_SECONDS = 5
"""What a refused client is told to wait (Retry-After)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The page's bounds (see the module's docstring)."""

    connections: int = 256
    per_client: int = 32
    streams: int = 64
    streams_per_client: int = 8
    idle_seconds: float = 10.0
    body_seconds: float = 10.0
    stream_seconds: float = 300.0
    refusing: int = 32
    """Refused connections answered at once; past it, a refused connection is closed
    without an answer."""
    linger_seconds: float = 1.0
    """How long a refused connection is read (and dropped) after its answer, so that its
    request still on the way does not reset the connection before the answer is read."""

    def within(self, open_files: int) -> Limits:
        """These limits with `connections` well under a limit of `open_files` (the accept
        loop takes up to a backlog of sockets before any is closed)."""
        room = max(8, (open_files - 256) // 2)
        return self if self.connections <= room else dataclasses.replace(self, connections=room)


class _Connection:
    __slots__ = ("busy", "client", "open", "transport")

    def __init__(self, transport: asyncio.Transport, client: str) -> None:
        self.transport = transport
        self.client = client
        self.busy = 0
        """Requests under way (0: idle, between requests or before the first)."""
        self.open = True


class Gate:
    """The connections of one server: who is admitted, who makes room, the streams.
    Used from the server's event loop only."""

    def __init__(self, limits: Limits, language: Callable[[], str]) -> None:
        self.limits = limits
        self.language = language
        self._idle: dict[_Connection, None] = {}
        """Idle connections, the longest idle first."""
        self._of: dict[Any, _Connection] = {}
        """By transport."""
        self._count: Counter[str] = Counter()
        self._streams: Counter[str] = Counter()
        self.refusing = 0
        self.admitted = 0
        """Connections admitted so far."""
        self.made_room = Summary("an idle connection closed to make room", logging.INFO)
        self.refused = Summary("a connection refused: every connection is busy")
        self.refused_streams = Summary("a live stream refused: too many", logging.INFO)

    def __len__(self) -> int:
        return len(self._of)

    def protocol(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """The protocol factory for `loop.create_server`: `inner`'s (aiohttp's server),
        behind this gate."""
        return lambda: _Guarded(inner(), self)

    # --------------------------------------------------------------- connections

    def admit(self, transport: asyncio.Transport) -> _Connection | None:
        """A new connection: admitted (room made if need be), or None when every
        connection is busy."""
        peer = transport.get_extra_info("peername")
        client = client_of(peer[0] if isinstance(peer, tuple) else None)
        limits = self.limits
        if self._count[client] >= limits.per_client and not self._make_room(client):
            return None
        if len(self._of) >= limits.connections and not self._make_room(None):
            return None
        connection = _Connection(transport, client)
        self._of[transport] = connection
        self._count[client] += 1
        self._idle[connection] = None
        self.admitted += 1
        return connection

    def _make_room(self, client: str | None) -> bool:
        """Close the longest idle connection (of `client`, if given); False if none."""
        oldest = next((c for c in self._idle if client is None or c.client == client), None)
        if oldest is None:
            return False
        self.leave(oldest)
        oldest.transport.abort()
        self.made_room.note(f" (from {oldest.client})")
        return True

    def leave(self, connection: _Connection) -> None:
        """A connection is closed (by either side); once only."""
        if not connection.open:
            return
        connection.open = False
        self._idle.pop(connection, None)
        del self._of[connection.transport]
        self._count[connection.client] -= 1
        if not self._count[connection.client]:
            del self._count[connection.client]

    def close_all(self) -> None:
        """The server stops: every connection is closed (its request, a live stream,
        cancelled) rather than waited for."""
        for connection in list(self._of.values()):
            self.leave(connection)
            connection.transport.abort()

    def refuse(self, transport: asyncio.Transport) -> bool:
        """Answer a connection there is no room for with a 503 and a sentence, then close
        it once its request had time to arrive; True if answered (False: closed at once,
        too many are being refused)."""
        peer = transport.get_extra_info("peername")
        self.refused.note(f" (from {peer[0] if isinstance(peer, tuple) else '?'})")
        if self.refusing >= self.limits.refusing:
            transport.abort()
            return False
        self.refusing += 1
        body = json.dumps({"error": said("full", self.language())}).encode()
        head = (
            "HTTP/1.1 503 Service Unavailable\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_SECONDS}\r\n"
            "Cache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Connection: close\r\n\r\n"
        )
        transport.write(head.encode() + body)
        if transport.can_write_eof():
            transport.write_eof()
        asyncio.get_running_loop().call_later(self.limits.linger_seconds, transport.abort)
        return True

    @contextmanager
    def busy(self, transport: Any) -> Iterator[None]:
        """A request under way on `transport`: its connection is not idle meanwhile."""
        connection = self._of.get(transport)
        if connection is None:  # not one of the gate's (closed already)
            yield
            return
        connection.busy += 1
        self._idle.pop(connection, None)
        try:
            yield
        finally:
            connection.busy -= 1
            if connection.open and not connection.busy:
                self._idle[connection] = None  # the most recently idle last

    # ------------------------------------------------------------------- streams

    @contextmanager
    def stream(self, remote: str | None) -> Iterator[None]:
        """A live stream of client `remote`, if there is room for it; else a 503."""
        client = client_of(remote)
        limits = self.limits
        total = sum(self._streams.values())
        if total >= limits.streams or self._streams[client] >= limits.streams_per_client:
            self.refused_streams.note(f" (from {client})")
            key = "full" if total >= limits.streams else "streams"
            raise told(503, key, retry_after=RETRY_SECONDS)
        self._streams[client] += 1
        try:
            yield
        finally:
            self._streams[client] -= 1
            if not self._streams[client]:
                del self._streams[client]


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol of one connection, behind the gate: admitted, or refused before
    aiohttp reads a byte."""

    def __init__(self, inner: asyncio.Protocol, gate: Gate) -> None:
        self.inner = inner
        self.gate = gate
        self.connection: _Connection | None = None
        self.refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.connection = self.gate.admit(transport)
        if self.connection is None:
            self.refused = self.gate.refuse(transport)
            return
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.connection is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.connection is not None:
            return self.inner.eof_received()
        return None  # a refused connection: close it

    def pause_writing(self) -> None:
        if self.connection is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.connection is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.connection is not None:
            self.gate.leave(self.connection)
            self.inner.connection_lost(exc)
        elif self.refused:
            self.refused = False
            self.gate.refusing -= 1
