"""A tiny sd_notify: tell systemd we are ready, alive (watchdog) and what we do (status).

The protocol (sd_notify(3)): send one datagram of newline-separated ``KEY=VALUE`` lines to
the ``AF_UNIX`` datagram socket named by ``$NOTIFY_SOCKET``. A name starting with ``@`` is
in the abstract namespace (the ``@`` stands for a leading NUL byte). With ``Type=notify``
systemd waits for ``READY=1``; with ``WatchdogSec=`` it sets ``$WATCHDOG_USEC`` (and
``$WATCHDOG_PID``, the PID that must ping) and restarts the service when no
``WATCHDOG=1`` comes within that time. The recommended ping interval is half of it.

Without ``$NOTIFY_SOCKET`` (not under systemd) every call does nothing. A failed send is
never fatal: the game goes on, and systemd's own timeouts take over.

The pings are sent from the referee loop (``Notifier.alive``), never from a thread of
their own, so a stuck loop stops the pings and systemd restarts the service.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def socket_address(name: str) -> str | bytes:
    """The `connect` address of a ``$NOTIFY_SOCKET`` value (abstract when it starts ``@``)."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def watchdog_interval(env: Mapping[str, str], pid: int | None = None) -> float | None:
    """Seconds between watchdog pings (half of ``$WATCHDOG_USEC``), or None when systemd
    expects none from this process (no watchdog, or ``$WATCHDOG_PID`` is another PID)."""
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    owner = env.get("WATCHDOG_PID")
    if owner and owner.strip() != str(os.getpid() if pid is None else pid):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None


class Notifier:
    """One process's link to systemd. ``send`` returns False when nothing was sent."""

    def __init__(
        self,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if env is None else env
        self.address = env.get("NOTIFY_SOCKET") or None
        self.interval = watchdog_interval(env)
        self.clock = clock
        self._next_ping = 0.0
        self._sock: socket.socket | None = None
        self._failed = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, **fields: str | int) -> bool:
        """Send ``KEY=VALUE`` lines (``send(READY=1, STATUS="...")``)."""
        if self.address is None:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items())
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode(), socket_address(self.address))
        except OSError as exc:
            if not self._failed:
                log.warning("cannot notify systemd at %s: %s", self.address, exc)
                self._failed = True
            return False
        return True

    def ready(self, status: str = "") -> bool:
        self._next_ping = self.clock() + (self.interval or 0.0)
        fields: dict[str, str | int] = {"READY": 1}
        if status:
            fields["STATUS"] = status
        if self.interval is not None:
            fields["WATCHDOG"] = 1
        return self.send(**fields)

    def status(self, text: str) -> bool:
        return self.send(STATUS=text)

    def alive(self) -> bool:
        """Ping the watchdog if half its period has passed; call it from the main loop."""
        if self.interval is None:
            return False
        now = self.clock()
        if now < self._next_ping:
            return False
        self._next_ping = now + self.interval
        return self.send(WATCHDOG=1)

    def stopping(self, status: str = "") -> bool:
        fields: dict[str, str | int] = {"STOPPING": 1}
        if status:
            fields["STATUS"] = status
        return self.send(**fields)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
