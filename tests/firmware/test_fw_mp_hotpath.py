"""The driver's hot path under the real MicroPython: no heap allocation, native code."""

import os
import subprocess

from fwload import HERE, ROOT
from test_fw_micropython import micropython


def test_driver_hot_path_allocates_nothing_and_is_native_under_micropython():
    env = {k: v for k, v in os.environ.items() if not k.startswith("MICROPY")}
    done = subprocess.run(
        [micropython(), str(HERE / "mp_hotpath.py"), str(ROOT)],
        capture_output=True,
        timeout=60,
        env=env,
    )
    output = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, output
    assert "MP-HOTPATH ok" in output, output
