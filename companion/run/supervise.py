"""Supervised threads: a device thread that dies stops the service, loudly, never silently.

Every thread that feeds the referee loop's queue runs as a `SupervisedThread`
(``serial-link``, ``spi-readers``, ``clock``, ``web``): an exception escaping its work, or
an end while nobody asked it to stop (its work should run until stopped), is logged (the
exception's type, its message with tag UIDs and token kinds blanked, and where it was
raised) and put on the queue as a `DeviceDied`. The loop then shows a Stop naming the
device and ends with status 1, so that systemd (``Restart=on-failure``) restarts the
service, which resumes the game from its journal. The web page of a game not played on
the page is the exception: the game goes on without it (`companion.run.loop`).

Threads whose code is not ours to wrap (the simulated input's, any other thread of a
library) are covered by `ThreadDeaths`, a ``threading.excepthook`` installed while the
service runs: any thread of the process that dies of an uncaught exception is reported
the same way. The GPIO library's callback thread may be made in C (RPi.GPIO's), out of
that hook's sight, so the button and encoder callbacks report their own exceptions
(``buttons``, `companion.devices.controls`). And in case a report never reaches the
queue, the loop also checks at each tick that the threads it knows are alive (`Watch`).
"""

from __future__ import annotations

import logging
import re
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from companion import games
from companion.devices.readers import DeviceDied as DeviceDied

log = logging.getLogger("companion")

ENDED = "its work ended though nobody stopped it"
"""The reason of a thread whose work returned while it should run until stopped."""

_UID = re.compile(r"\b(?:[0-9A-Fa-f]{20}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{8})\b")


class Sink(Protocol):
    """Where a death is reported: the referee loop's queue."""

    def put_nowait(self, item: DeviceDied, /) -> None: ...


def blank_secrets(text: str) -> str:
    """``text`` without tag UIDs and token kinds (an exception's message may quote one):
    the kinds of every registered game's token families (`companion.games.TokenFamily`),
    whichever game is played; any ``word:word`` when a game cannot be loaded to say."""
    try:
        families = "|".join(map(re.escape, games.token_families())) or None
    except Exception:  # a report must not fail: blank too much rather than too little
        families = r"[a-z][a-z0-9_]*"
    text = _UID.sub("<uid>", text)
    return re.sub(rf"\b(?:{families}):[\w:]+", "<kind>", text) if families else text


def death(name: str, exc: BaseException | None) -> DeviceDied:
    """The `DeviceDied` of thread ``name`` killed by ``exc``: its type, its message
    (secrets blanked) and the innermost place it was raised."""
    if exc is None:
        return DeviceDied(name, ENDED)
    message = blank_secrets(str(exc))
    reason = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        reason += f" (at {Path(last.filename).name}:{last.lineno} in {last.name})"
    return DeviceDied(name, reason)


def report(sink: Sink, died: DeviceDied, exc: BaseException | None = None) -> None:
    """Log the death and put it on ``sink``; the stack (frames only, no message) at debug."""
    log.error("device thread %s died: %s", died.name, died.reason)
    if exc is not None and exc.__traceback__ is not None:
        log.debug("%s", "".join(traceback.format_tb(exc.__traceback__)).rstrip())
    try:
        sink.put_nowait(died)
    except Exception as failed:  # a full bounded queue: the loop's liveness check sees it
        log.error("device thread %s: its death could not be queued: %s", died.name, failed)


class SupervisedThread(threading.Thread):
    """A daemon thread running ``work`` until ``stopped()``; its death is reported on
    ``sink`` (see the module docstring). ``died`` keeps the report for the liveness check."""

    def __init__(
        self,
        name: str,
        work: Callable[[], object],
        sink: Sink,
        stopped: Callable[[], bool],
    ) -> None:
        super().__init__(name=name, daemon=True)
        self.work = work
        self.sink = sink
        self.stopped = stopped
        self.died: DeviceDied | None = None

    def run(self) -> None:
        try:
            self.work()
        except BaseException as exc:  # whatever it was, the thread is gone: say so
            self.died = death(self.name, exc)
            report(self.sink, self.died, exc)
            return
        if not self.stopped():
            self.died = death(self.name, None)
            report(self.sink, self.died)

    def dead(self) -> DeviceDied | None:
        """The thread's death if it has ended though not asked to stop, else None."""
        if self.ident is None or self.is_alive() or self.stopped():
            return None
        return self.died or death(self.name, None)


class Watch:
    """The supervised threads the loop checks at each tick (`dead`)."""

    def __init__(self) -> None:
        self.threads: list[SupervisedThread] = []

    def add(self, thread: object) -> None:
        """Watch ``thread`` if it is a `SupervisedThread` (a device without one: nothing)."""
        if isinstance(thread, SupervisedThread):
            self.threads.append(thread)

    def dead(self) -> DeviceDied | None:
        """The first watched thread found dead (watched no more), or None."""
        for thread in self.threads:
            died = thread.dead()
            if died is not None:
                self.threads.remove(thread)
                return died
        return None


class ThreadDeaths:
    """While installed (`install` ... `restore`): a thread of the process that dies of an
    uncaught exception is reported on ``sink`` as a `DeviceDied` named after it."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self._previous: Callable[[threading.ExceptHookArgs], Any] | None = None

    def install(self) -> ThreadDeaths:
        self._previous = threading.excepthook
        threading.excepthook = self._hook
        return self

    def restore(self) -> None:
        if self._previous is not None:
            threading.excepthook = self._previous
            self._previous = None

    def _hook(self, args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread is not None else "unnamed"
        exc = args.exc_value
        died = death(name, exc) if exc is not None else DeviceDied(name, args.exc_type.__name__)
        report(self.sink, died, exc)
