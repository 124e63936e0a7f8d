"""Log lines a stranger on the network cannot multiply.

What a client can repeat at will (a wrong pairing code, a connection refused or closed to
make room, the HTTP server's and the event loop's complaints about broken requests) is
logged once, then summed up at most once a `EVERY` seconds, never with a traceback: the
log of a table under attack stays readable and small.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("companion")

EVERY = 60.0
"""Seconds between two lines about the same kind of thing."""


class Summary:
    """One kind of repeated thing: the first at once, then a count at most every `every`
    seconds (the count of a quiet spell is told with the next one)."""

    def __init__(
        self,
        what: str,
        level: int = logging.WARNING,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.level = level
        self.every = every
        self.clock = clock
        self.count = 0
        """Held back since the last line."""
        self.total = 0
        self._next = float("-inf")

    def note(self, detail: str = "") -> bool:
        """One more; True when it was logged (a line now), False when only counted."""
        self.count += 1
        self.total += 1
        now = self.clock()
        if now < self._next:
            return False
        log.log(self.level, "web: %s%s (%d since the last such line)", self.what, detail,
                self.count)  # fmt: skip
        self.count = 0
        self._next = now + self.every
        return True


class QuietFilter(logging.Filter):
    """On a library's logger (aiohttp's server): a record at most every `every` seconds,
    without its traceback, saying how many were held back."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.held = 0
        self._next = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        self.held += 1
        now = self.clock()
        if now < self._next:
            return False
        exc = record.exc_info[1] if record.exc_info else None
        message = record.getMessage() + (f": {exc!r}" if exc is not None else "")
        record.msg = f"{message} ({self.held} such since the last line, at most one a minute)"
        record.args = ()
        record.exc_info = record.exc_text = record.stack_info = None
        self.held = 0
        self._next = now + self.every
        return True


LoopHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]


def loop_complaints(summary: Summary) -> LoopHandler:
    """An event loop's exception handler that sums its complaints up ("socket.accept()
    out of system resource" many times a second, a connection reset...)."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        summary.note(f": {context.get('message', '?')}" + (f": {exc!r}" if exc else ""))

    return handle
