"""How many connections the page keeps open, and for how long: a LAN of strangers may open
thousands, send a request a byte at a time or take every live stream, and the page must
still answer everyone.

- A connection must send a whole request head within `idle_seconds` of being opened or of
  its last answer (aiohttp's keep-alive timer, which `WebServer` sets to that): an idle
  connection, or one that sends its headers a byte at a time (slowloris), is then closed.
- A body is read with a rate floor (`Gate.read_body`): after `body_grace` seconds it must
  keep coming at `body_rate` bytes a second on average, and be whole within
  `body_seconds`, or it is answered 408. A connection waiting for its body is not busy:
  it holds nothing of the page's but a socket, so it may make room as an idle one does.
  So slow bodies from any number of addresses never make the page refuse anyone else:
  they can only take each other's place. (No bound of its own on a client's bodies under
  way: closing its oldest for a new one only made an attacker reopen faster, and every
  other client wait longer; `per_client` bounds them.)
- At most `connections` connections are open at once, at most `per_client` from one client
  (`pairing.client_of`). Past either bound a new connection takes the place of the one
  free the longest (idle, or waiting for its body), of the same client at its own bound,
  else of the client holding the most connections: that is what an attacker holds, and a
  new connection may be a player. When every one is busy (a request being answered, a
  live stream), the new one is answered 503 with a sentence, without being read, and
  closed. So the open files stay far below the service's limit (1,024), and the event
  loop never runs out of them.
- Live streams (`/api/live`) are at most `streams`, `streams_per_client` from one client,
  each at most `stream_seconds` long (the page reopens it by itself). They are shared
  fairly: when all are taken, a client holding at least two fewer than the client
  holding the most gets one, and that client's oldest stream ends (its page reopens it
  later, or polls); otherwise the stream is refused (503, `Retry-After`), and the page
  polls the state meanwhile and says so. So a few addresses cannot take every stream
  from the others: a new watcher gets one, unless the streams are shared out evenly
  already, and then it is told to poll.

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

from companion.web.aio import web
from companion.web.errors import told
from companion.web.pairing import client_of
from companion.web.quiet import Summary

RETRY_SECONDS = 5
"""What a refused client is told to wait (Retry-After)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The page's bounds (see the module's docstring)."""

    connections: int = 384
    per_client: int = 32
    streams: int = 256
    """A room of phones, one stream each: a club's evening of 200 watchers all live (one
    stream costs the table about 12 KB and one write a change; a polling phone a request
    every 2 s, many times that)."""
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
    body_grace: float = 2.0
    """Seconds a body may take before the rate floor counts."""
    body_rate: int = 1024
    """Bytes a second a body must average after `body_grace` (the floor)."""

    def within(self, open_files: int) -> Limits:
        """These limits with `connections` well under a limit of `open_files` (the accept
        loop takes up to a backlog of sockets before any is closed), and `streams` at most
        two thirds of them (the rest answer requests: a page, a pairing, an act)."""
        room = max(8, (open_files - 256) // 2)
        connections = min(self.connections, room)
        streams = min(self.streams, max(1, room * 2 // 3))
        if (connections, streams) == (self.connections, self.streams):
            return self
        return dataclasses.replace(self, connections=connections, streams=streams)


class _Connection:
    __slots__ = ("busy", "client", "open", "transport")

    def __init__(self, transport: asyncio.Transport, client: str) -> None:
        self.transport = transport
        self.client = client
        self.busy = 0
        """Requests under way (0: idle, between requests or before the first)."""
        self.open = True


class Stream:
    """One live stream the gate let through (`Gate.stream`)."""

    __slots__ = ("_deadline", "_timeout", "client")

    def __init__(self, client: str, deadline: float) -> None:
        self.client = client
        self._deadline = deadline
        self._timeout: asyncio.Timeout | None = None

    def time_left(self) -> asyncio.Timeout:
        """The stream's time, to enter at once (`async with stream.time_left():`): it runs
        out at `Limits.stream_seconds`, or as soon as the stream gives way to another
        client's (a `TimeoutError` either way)."""
        self._timeout = asyncio.timeout_at(self._deadline)
        return self._timeout

    def give_way(self) -> None:
        """End the stream now (its `time_left` runs out), for another client's."""
        self._deadline = asyncio.get_running_loop().time()
        if self._timeout is not None:
            self._timeout.reschedule(self._deadline)


class Gate:
    """The connections of one server: who is admitted, who makes room, the bodies read,
    the streams. Used from the server's event loop only."""

    def __init__(self, limits: Limits, refusal: Callable[[], str]) -> None:
        """``refusal``: the sentence a connection refused is answered, in its server's
        words and language (the table's page, the club's)."""
        self.limits = limits
        self.refusal = refusal
        self._free: dict[_Connection, None] = {}
        """Connections idle or waiting for their body, the longest free first."""
        self._of: dict[Any, _Connection] = {}
        """By transport."""
        self._count: Counter[str] = Counter()
        self._streams: dict[str, list[Stream]] = {}
        """Each client's streams, the oldest first."""
        self.streaming = 0
        self.refusing = 0
        self.admitted = 0
        """Connections admitted so far."""
        self.made_room = Summary("a free connection (idle, or waiting for its body) closed "
                                 "to make room", logging.INFO)  # fmt: skip
        self.refused = Summary("a connection refused: every connection is busy")
        self.refused_streams = Summary("a live stream refused: too many", logging.INFO)
        self.gave_way = Summary("a live stream ended for another client's", logging.INFO)

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
        self._free[connection] = None
        self.admitted += 1
        return connection

    def _make_room(self, client: str | None) -> bool:
        """Close the longest free connection of `client`, or (None) of the client holding
        the most connections; False if there is none."""
        chosen: _Connection | None = None
        most = 0
        for connection in self._free:
            if client is not None:
                if connection.client == client:
                    chosen = connection
                    break
            elif self._count[connection.client] > most:
                chosen, most = connection, self._count[connection.client]
        if chosen is None:
            return False
        self._close(chosen)
        return True

    def _close(self, connection: _Connection) -> None:
        self.leave(connection)
        connection.transport.abort()
        self.made_room.note(f" (from {connection.client})")

    def leave(self, connection: _Connection) -> None:
        """A connection is closed (by either side); once only."""
        if not connection.open:
            return
        connection.open = False
        self._free.pop(connection, None)
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
        body = json.dumps({"error": self.refusal()}).encode()
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
        """A request under way on `transport`: its connection is not free meanwhile
        (except while it waits for its body, `read_body`)."""
        connection = self._of.get(transport)
        if connection is None:  # not one of the gate's (closed already)
            yield
            return
        connection.busy += 1
        self._free.pop(connection, None)
        try:
            yield
        finally:
            connection.busy -= 1
            if connection.open and not connection.busy:
                self._free[connection] = None  # the most recently free last

    # ---------------------------------------------------------------------- bodies

    async def read_body(self, request: web.BaseRequest, max_size: int) -> bytes:
        """The request's body, at most `max_size` bytes (else 413), read with the rate
        floor (else 408); its connection free meanwhile (see the module's docstring)."""
        if request.content_length is not None and request.content_length > max_size:
            raise told(413, "large", limit=max_size)
        limits = self.limits
        started = asyncio.get_running_loop().time()
        body = bytearray()
        with self._waiting_for_body(request.transport):
            while True:
                allowed = limits.body_grace + len(body) / limits.body_rate
                try:
                    async with asyncio.timeout_at(started + min(limits.body_seconds, allowed)):
                        chunk = await request.content.readany()
                except TimeoutError as exc:
                    raise told(408, "slow") from exc
                if not chunk:
                    return bytes(body)
                body += chunk
                if len(body) > max_size:
                    raise told(413, "large", limit=max_size)

    @contextmanager
    def _waiting_for_body(self, transport: Any) -> Iterator[None]:
        connection = self._of.get(transport)
        if connection is None or not connection.open:
            yield
            return
        self._free[connection] = None
        try:
            yield
        finally:
            if connection.open:
                self._free.pop(connection, None)

    # ------------------------------------------------------------------- streams

    @contextmanager
    def stream(self, remote: str | None) -> Iterator[Stream]:
        """A live stream of client `remote`, if there is room for it (made by the client
        holding the most, see the module's docstring); else a 503. The stream ends when
        its `time_left` runs out."""
        client = client_of(remote)
        limits = self.limits
        mine = len(self._streams.get(client, ()))
        if mine >= limits.streams_per_client:
            self.refused_streams.note(f" (from {client})")
            raise told(503, "streams", retry_after=RETRY_SECONDS)
        if self.streaming >= limits.streams:
            holder = max(self._streams.values(), key=len, default=[])
            if len(holder) < mine + 2:
                self.refused_streams.note(f" (from {client})")
                raise told(503, "streams.all", retry_after=RETRY_SECONDS)
            given = holder[0]
            self._drop(given)
            given.give_way()
            self.gave_way.note(f" (from {given.client} to {client})")
        loop = asyncio.get_running_loop()
        stream = Stream(client, loop.time() + limits.stream_seconds)
        self._streams.setdefault(client, []).append(stream)
        self.streaming += 1
        try:
            yield stream
        finally:
            self._drop(stream)

    def _drop(self, stream: Stream) -> None:
        streams = self._streams.get(stream.client, [])
        if stream in streams:
            streams.remove(stream)
            self.streaming -= 1
            if not streams:
                del self._streams[stream.client]


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
