"""A real `companion run` of a simulated table, its inputs written to a FIFO as they come,
for the club tests that cut its power (SIGKILL) or start it again."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from tests.pi.conftest import service_command, service_env


def start_table(folder: Path, name: str, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """`companion run ARGS --sim-input FIFO` started (its log in ``folder/name.log``),
    and the FIFO open for writing once the service opened it (a service that died before
    is an error showing its log)."""
    fifo = folder / f"{name}.fifo"
    os.mkfifo(fifo)
    with open(folder / f"{name}.log", "wb") as log:
        proc = subprocess.Popen(
            service_command("run", *args, "--sim-input", str(fifo)),
            env=service_env(),
            stdout=log,
            stderr=log,
        )
    deadline = time.monotonic() + 60
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            assert proc.poll() is None, (folder / f"{name}.log").read_text()
            assert time.monotonic() < deadline, "the service never read its input"
            time.sleep(0.01)
            continue
        os.set_blocking(fd, True)
        return proc, fd


def stop_table(proc: subprocess.Popen[bytes], fifo: int) -> None:
    """Kill the table (SIGKILL: a power cut) and close its input."""
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    os.close(fifo)
