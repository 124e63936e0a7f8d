"""The clock thread: a `Tick` on the queue every 0.1 s, so deadlines pass without input.

Every tick goes to the referee (the settle time, the end of a challenge window, the 300 ms
call grace); the loop journals only the ticks that changed something (`companion.run.loop`).
With ``--sim-clock script`` there is no clock thread: the script's ``t`` is the clock.
The thread is supervised (`companion.run.supervise`): if it dies, the service stops.
"""

from __future__ import annotations

import threading

from companion.run.items import Inbox, Tick
from companion.run.supervise import SupervisedThread

TICK = 0.1
"""Seconds between clock ticks."""


class Clock:
    """Puts a ``Tick`` on the queue every ``period`` seconds until stopped."""

    def __init__(self, sink: Inbox, period: float = TICK) -> None:
        self.sink = sink
        self.period = period
        self._stop = threading.Event()
        self.thread = SupervisedThread("clock", self._run, sink, self._stop.is_set)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            self.sink.put_nowait(Tick())

    def stop(self) -> None:
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=1.0)
