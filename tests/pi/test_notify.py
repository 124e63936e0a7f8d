"""sd_notify against a real datagram socket standing in for systemd's NOTIFY_SOCKET."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.notify import Notifier, socket_address, watchdog_interval
from tests.pi.conftest import service_command, service_env, simulated_game, write_script


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield path, sock
    sock.close()


def messages(sock: socket.socket, until: str, timeout: float = 10) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            data = sock.recv(4096).decode()
        except TimeoutError:
            break
        got.append(data)
        if until in data:
            break
    return got


def pinged(sock: socket.socket, count: int, seconds: float = 60) -> list[str]:
    """The messages up to the ``count``-th watchdog ping; fails when they have not come
    within ``seconds`` (a bound, not a speed: a loaded machine may take its time)."""
    got: list[str] = []
    deadline = time.monotonic() + seconds
    while got.count("WATCHDOG=1") < count:
        assert time.monotonic() < deadline, f"only {got} in {seconds} s"
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            continue
    return got


def test_ready_status_and_stopping_reach_the_socket(
    notify_socket: tuple[str, socket.socket],
) -> None:
    path, sock = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready("manche 1")
    assert sock.recv(4096) == b"READY=1\nSTATUS=manche 1"
    assert notifier.status("Stop: hat 7")
    assert sock.recv(4096) == b"STATUS=Stop: hat 7"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_abstract_socket_names() -> None:
    assert socket_address("@companion/notify") == b"\0companion/notify"
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    name = f"@companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(socket_address(name))
    sock.settimeout(2)
    try:
        assert Notifier({"NOTIFY_SOCKET": name}).send(READY=1)
        assert sock.recv(64) == b"READY=1"
    finally:
        sock.close()


def test_watchdog_pings_at_half_the_period(notify_socket: tuple[str, socket.socket]) -> None:
    path, sock = notify_socket
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}, clock=lambda: now[0])
    assert notifier.interval == 1.0
    assert notifier.ready()
    assert sock.recv(4096) == b"READY=1\nWATCHDOG=1"
    now[0] += 0.5
    assert not notifier.alive()  # too early
    now[0] += 0.6
    assert notifier.alive()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert not notifier.alive()


def test_watchdog_settings() -> None:
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "junk"}) is None
    env = {"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}
    assert watchdog_interval(env, pid=2) is None  # meant for another process
    assert watchdog_interval(env, pid=1) == 0.5


def test_without_systemd_nothing_is_sent() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.alive() and not notifier.stopping()


def test_a_vanished_socket_is_not_fatal(tmp_path: Path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert not notifier.ready()
    assert not notifier.status("still playing")


def test_the_service_notifies_ready_pings_from_its_loop_and_says_stopping(
    tmp_path: Path, notify_socket: tuple[str, socket.socket]
) -> None:
    path, sock = notify_socket
    setup, _ = simulated_game()
    script = write_script(tmp_path / "setup.jsonl", setup, [])
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        service_command(
            "run", "--sim", "--sim-input", str(fifo), "--data-dir", str(tmp_path / "data")
        ),
        env=service_env(NOTIFY_SOCKET=path, WATCHDOG_USEC="300000"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with open(fifo, "w", encoding="utf-8") as pipe:
            pipe.write(script.read_text())
            pipe.flush()
            first = messages(sock, until="READY=1")
            assert any(m.startswith("READY=1") for m in first), first
            ready = next(m for m in first if m.startswith("READY=1"))
            assert "STATUS=round 1" in ready and "WATCHDOG=1" in ready
            # The loop pings again and again (how often: test_watchdog_pings_at_half_the_period).
            pinged(sock, 4)
            proc.send_signal(signal.SIGTERM)
            assert any("STOPPING=1" in m for m in messages(sock, until="STOPPING=1"))
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
