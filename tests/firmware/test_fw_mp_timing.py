"""The heartbeat's timings under a real MicroPython interpreter (see mp_timing.py)."""

import os
import subprocess

from fwload import HERE, ROOT
from test_fw_micropython import _crc, micropython


def frame(seq: int, body: str) -> bytes:
    head = f"{seq} {body}".encode()
    return head + b"*%04X\n" % _crc(head)


def test_heartbeat_carries_timings_under_micropython():
    commands = frame(0, "CONF stats=1") + frame(1, "SYNC")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MICROPY")}
    done = subprocess.run(
        [micropython(), str(HERE / "mp_timing.py"), str(ROOT)],
        input=commands,
        capture_output=True,
        timeout=60,
        env=env,
    )
    output = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, output
    assert "MP-TIMING ok" in output, output
