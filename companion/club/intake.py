"""What the club reads from the broker, table by table, at a pace no table can force.

paho calls `Intake.offer` for every message in its network thread, which must stay cheap
whatever a table sends: a callback that falls behind makes the broker drop messages to
the club, every table's. So an offer only files the payload under its table: a state, a
frame, an availability, a page, a games or results list replaces the one of its kind
still waiting (the latest is the table's truth), a result joins its table's few waiting
results within a rate (`Rates`; one over it is dropped and counted: the table's retained
``results`` still brings its games). A payload over its bound (`Bounds.size`) is kept as its first
bound + 1 bytes: the board refuses it as too large, and the card says so.

One thread then hands the board what waits, table after table in turn, each kind of a
table at most every `Rates.every` seconds, a table's games before its results: a table
that floods delays the others' messages by one turn at most, and costs the club a bounded
share of its time. Every second it calls ``tick`` (the reader's bookkeeping).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.club.board import Bounds
from companion.club.topics import AVAILABILITY, FRAME, GAMES, PAGE, RESULT, RESULTS, STATE

log = logging.getLogger("companion.club")

LATEST = (AVAILABILITY, PAGE, GAMES, STATE, FRAME, RESULTS)
"""The kinds of which only the latest counts, in the order they are handed over (a
table's games before its results: a result then finds its announcement)."""
TICK = 1.0
"""Seconds between two calls of ``tick``."""


@dataclass(frozen=True, slots=True)
class Rates:
    """How fast one table's messages reach the board."""

    every: float = 0.2
    """Seconds between two messages of one kind of one table (the latest waits)."""
    results_burst: int = 20
    """Results a table may send at once (a table back after a cut sends its outbox)."""
    results_every: float = 2.0
    """Then one result every so many seconds."""


class _Inbox:
    """One table's messages waiting for the board."""

    __slots__ = ("dropped", "due", "filled", "latest", "results", "tokens")

    def __init__(self, burst: int, now: float) -> None:
        self.latest: dict[str, bytes] = {}
        self.due: dict[str, float] = {}
        """When each kind may next be handed over."""
        self.results: deque[bytes] = deque()
        self.tokens = float(burst)
        self.filled = now
        self.dropped = 0
        """Results dropped for coming too fast, not told to the board yet."""


Hand = Callable[[str, str, bytes], None]


class Intake:
    """Messages in (`offer`, any thread), handed to ``hand`` in turn by one thread
    (`start`, `stop`); ``refused(table, count)`` is told the results dropped for coming
    too fast, once a tick."""

    def __init__(
        self,
        hand: Hand,
        refused: Callable[[str, int], None],
        tick: Callable[[], None] = lambda: None,
        bounds: Bounds | None = None,
        rates: Rates = Rates(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hand = hand
        self.refused = refused
        self.tick = tick
        self.bounds = bounds or Bounds()
        self.rates = rates
        self.clock = clock
        self._ready = threading.Condition()
        self._inboxes: dict[str, _Inbox] = {}
        self._waiting: dict[str, None] = {}
        """The tables with messages waiting, in turn."""
        self._stopping = False
        self.failed = 0
        self._next_failure = float("-inf")
        self._thread = threading.Thread(target=self._run, name="club-intake", daemon=True)

    def offer(self, table: str, kind: str, payload: bytes) -> None:
        """A message from the broker (paho's thread): filed, or dropped and counted."""
        limit = self.bounds.size(kind)
        if limit is None:
            return
        if len(payload) > limit:
            payload = payload[: limit + 1]
        with self._ready:
            inbox = self._inboxes.get(table)
            if inbox is None:
                now = self.clock()
                inbox = self._inboxes[table] = _Inbox(self.rates.results_burst, now)
            if kind != RESULT:
                inbox.latest[kind] = payload
            elif self._may_send_result(inbox):
                inbox.results.append(payload)
            else:
                inbox.dropped += 1
                return
            if table not in self._waiting:
                self._waiting[table] = None
                self._ready.notify()

    def _may_send_result(self, inbox: _Inbox) -> bool:
        """Takes a result's token of ``inbox`` if it has one (a token bucket)."""
        rates = self.rates
        now = self.clock()
        inbox.tokens = min(
            rates.results_burst, inbox.tokens + (now - inbox.filled) / rates.results_every
        )
        inbox.filled = now
        if inbox.tokens < 1:
            return False
        inbox.tokens -= 1
        return True

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._ready:
            self._stopping = True
            self._ready.notify()
        self._thread.join(5)

    def _run(self) -> None:
        ticked = self.clock()
        while True:
            with self._ready:
                turn, wake = self._turn()
                if not turn and not self._stopping:
                    self._ready.wait(min(TICK, max(0.0, wake - self.clock())))
                if self._stopping:
                    return
            for table, kind, payload in turn:
                self._safely(self.hand, table, kind, payload)
            if self.clock() - ticked >= TICK:
                ticked = self.clock()
                with self._ready:
                    dropped = self._dropped()
                for table, count in dropped.items():
                    self._safely(self.refused, table, count)
                self._safely(self.tick)

    def _safely(self, call: Callable[..., None], *args: Any) -> None:
        """``call(*args)``; a failure (a defect: the board takes any payload) is logged at
        most once a minute, and the next message goes on."""
        try:
            call(*args)
        except Exception:
            self.failed += 1
            if self.clock() >= self._next_failure:
                self._next_failure = self.clock() + 60.0
                log.exception("club: a message could not be read (%d so far)", self.failed)

    def _turn(self) -> tuple[list[tuple[str, str, bytes]], float]:
        """One turn of every table with messages waiting: those it may hand over now, and
        when the next one may go (the clock's time)."""
        now = self.clock()
        every = self.rates.every
        turn: list[tuple[str, str, bytes]] = []
        wake = now + TICK
        for table in list(self._waiting):
            inbox = self._inboxes[table]
            for kind in LATEST:
                if kind not in inbox.latest:
                    continue
                due = inbox.due.get(kind, now)
                if due <= now:
                    turn.append((table, kind, inbox.latest.pop(kind)))
                    inbox.due[kind] = now + every
                else:
                    wake = min(wake, due)
            while inbox.results:
                turn.append((table, RESULT, inbox.results.popleft()))
            if not inbox.latest:
                del self._waiting[table]
        return turn, wake

    def _dropped(self) -> dict[str, int]:
        """The results dropped since the last tick, by table (and forget them)."""
        dropped = {}
        for table, inbox in self._inboxes.items():
            if inbox.dropped:
                dropped[table] = inbox.dropped
                inbox.dropped = 0
        return dropped
