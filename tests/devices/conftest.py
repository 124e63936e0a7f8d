"""Fixtures of the device tests: the firmware's own protocol module, a fake Pico on a pty."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import select
import time
import tty
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.devices.readers import Observation

ROOT = Path(__file__).resolve().parent.parent.parent


def load_firmware_protocol() -> types.ModuleType:
    """firmware/protocol.py as a module of its own (it is pure, no shims needed)."""
    spec = importlib.util.spec_from_file_location("fw_protocol", ROOT / "firmware" / "protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FWP = load_firmware_protocol()


@pytest.fixture(scope="session")
def fwp() -> types.ModuleType:
    return FWP


class FakePico:
    """The Pico's side of a real pseudo-terminal, speaking through firmware/protocol.py.

    The host opens ``path``, a symlink to the pty's slave end, as the udev rule's stable
    name would be; ``unplug`` tears the pty down (the host's reads fail) and ``replug``
    makes a new one behind the same name.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / "ttyPico"
        self.master = -1
        self.slave = -1
        self.seq = 0
        self.received = b""
        self.on_raw: Callable[[bytes], None] | None = None
        self.replug()

    def replug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path.unlink(missing_ok=True)
        self.path.symlink_to(os.ttyname(self.slave))
        self.seq = 0
        self.received = b""

    def unplug(self) -> None:
        self.path.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def opened_by_host(self) -> int:
        """How many descriptors of this process other than ours hold the slave end."""
        name = os.ttyname(self.slave)
        count = 0
        for fd in os.listdir("/proc/self/fd"):
            try:
                if os.readlink(f"/proc/self/fd/{fd}") == name:
                    count += 1
            except OSError:
                continue
        return count - 1

    def wait_opened(self, timeout: float = 2.0) -> None:
        """Wait until the host has the port open (pyserial flushes input while opening)."""
        deadline = time.monotonic() + timeout
        while self.opened_by_host() < 1:
            if time.monotonic() > deadline:
                raise AssertionError("the host did not open the port")
            time.sleep(0.005)
        time.sleep(0.03)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def send(self, body: str) -> None:
        """One frame with the next sequence number."""
        self.write(FWP.encode(self.seq, body))
        self.seq = FWP.next_seq(self.seq)

    def skip(self, n: int = 1) -> None:
        """Lose the next ``n`` frames on the way (their sequence numbers are used up)."""
        self.seq = (self.seq + n) % 65536

    def hello(self, readers: int = 3, fw: str = "0.1.0") -> None:
        """HELLO, once the host has opened the port (as MicroPython waits for DTR)."""
        self.wait_opened()
        self.send(FWP.hello(fw, readers))

    def _pump(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            with contextlib.suppress(OSError):
                self.received += os.read(self.master, 4096)

    def commands(self) -> list[tuple[Any, ...]]:
        """Every command frame the host sent so far, parsed by the firmware's code."""
        self._pump(0)
        out = []
        for line in self.received.split(b"\n"):
            line = line.strip(b"\r\x03\x04")
            if line:
                _, body = FWP.decode(line)
                out.append(FWP.parse_command(body))
        return out

    def wait_command(self, name: str, count: int = 1, timeout: float = 2.0) -> None:
        deadline = time.monotonic() + timeout
        while sum(1 for c in self.commands() if c[0] == name) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"no {name} from the host; got {self.commands()}")
            self._pump(0.02)


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[FakePico]:
    fake = FakePico(tmp_path)
    yield fake
    fake.unplug()


def wait_for(
    inbox: queue.Queue[Observation],
    match: Callable[[Observation], bool],
    timeout: float = 2.0,
    into: list[Observation] | None = None,
) -> Observation:
    """Take observations until one matches; the others are appended to ``into``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"nothing matched in {timeout} s; saw {into}")
        try:
            obs = inbox.get(timeout=left)
        except queue.Empty:
            continue
        if match(obs):
            return obs
        if into is not None:
            into.append(obs)


def drain(inbox: queue.Queue[Observation], quiet: float = 0.15) -> list[Observation]:
    """Everything that arrives until ``quiet`` seconds pass with nothing new."""
    out = []
    while True:
        try:
            out.append(inbox.get(timeout=quiet))
        except queue.Empty:
            return out
