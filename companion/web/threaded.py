"""An aiohttp application served from a thread of its own, with its own asyncio loop,
behind a `Gate`: the table's page (`companion.web.server.WebServer`) and the club's
(`companion.club.page.ClubServer`) are served this one way.

The gate keeps `Limits.connections` well under the process's limit of open files (the
files the process keeps open always have theirs), and answers a connection it has no
room for with the server's own sentence (``refusal``, in its language). Stopping closes
every connection (a request under way, a live stream) rather than waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import threading
from collections.abc import Callable
from typing import Any

from companion.web.aio import web
from companion.web.gate import Gate, Limits
from companion.web.quiet import Summary, loop_complaints


class ThreadedServer:
    """`start` listens and returns the port (the one chosen, with port 0; OSError when it
    cannot listen), `stop` closes. A subclass gives its application (`app`), may do more
    with the loop as it starts (`attach`), and may run it in a thread of its own kind
    (`make_thread`)."""

    def __init__(
        self,
        name: str,
        host: str,
        port: int,
        limits: Limits | None,
        refusal: Callable[[], str],
        logger: logging.Logger,
        **runner: Any,
    ) -> None:
        """``name``: what the log and errors call it ("the web page"); ``refusal``: the
        sentence of a connection refused; ``logger``: aiohttp's server logs there;
        ``runner``: more of `web.AppRunner`'s options."""
        self.name = name
        self.host = host
        self.port = port
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        self.gate = Gate((limits or Limits()).within(soft), refusal)
        self.complaints = Summary(f"{name}'s event loop says")
        self._logger = logger
        self._runner_options = runner
        self._listener: asyncio.Server | None = None
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._error: OSError | None = None
        self._runner: web.AppRunner | None = None
        self.thread = self.make_thread(self._run)

    # ------------------------------------------------------------- for subclasses

    def app(self) -> web.Application:
        """The application served (its connections behind `gate`)."""
        raise NotImplementedError

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's loop, as it starts (before the application is made)."""

    def make_thread(self, run: Callable[[], None]) -> threading.Thread:
        """The thread that runs ``run`` (the loop, until `stop`)."""
        return threading.Thread(target=run, name=self.name, daemon=True)

    # ---------------------------------------------------------------------- use

    def start(self, timeout: float = 10.0) -> int:
        """Listen; the port listened on. Raises OSError when it cannot."""
        self.thread.start()
        self._started.wait(timeout)
        if self._error is not None:
            raise OSError(f"{self.name} cannot listen on {self.host}:{self.port}: "
                          f"{self._error.strerror or self._error}")  # fmt: skip
        return self.port

    def stop(self) -> None:
        if self.thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self.thread.join(timeout=5)

    @property
    def failed(self) -> bool:
        """It never listened (`start` raised)."""
        return self._error is not None

    # --------------------------------------------------------------- the thread

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._listen())
        except OSError as exc:
            self._error = exc
            self._started.set()
            return
        self._started.set()
        self._loop.run_forever()
        self._loop.run_until_complete(self._close())
        pending = asyncio.all_tasks(self._loop)  # streams of pages still open
        for task in pending:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self._loop.close()

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(loop_complaints(self.complaints))
        self.attach(loop)
        self._runner = web.AppRunner(
            self.app(),
            access_log=None,
            logger=self._logger,
            shutdown_timeout=1.0,
            keepalive_timeout=self.gate.limits.idle_seconds,  # also before the first request
            lingering_time=1.0,
            **self._runner_options,
        )
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        self._listener = await loop.create_server(
            self.gate.protocol(server), self.host, self.port, backlog=128
        )
        self.port = int(self._listener.sockets[0].getsockname()[1])  # port 0: the one chosen

    async def _close(self) -> None:
        if self._listener is not None:
            self._listener.close()
        self.gate.close_all()
        await asyncio.sleep(0)  # the aborted connections are lost, their handlers cancelled
        if self._runner is not None:
            await self._runner.cleanup()
