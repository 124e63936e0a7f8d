"""`companion replay` streams a journal like a resume does: what it prints is written as
the referee makes it, and the referee keeps only its last events, so its memory does not
grow with the journal (issue 30: 100,000 inputs grew the process by 24 MB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion import games
from companion.journal import PressInput, dump_lines

PEAK = """
import sys
from companion.cli import main
code = main(["replay", sys.argv[1], "--json"])
status = open("/proc/self/status").read()  # VmHWM: this process's own peak, in kB
print(status.split("VmHWM:")[1].split()[0], file=sys.stderr)
sys.exit(code)
"""


def restless_journal(path: Path, presses: int) -> Path:
    """A PtiPassPass game's setup, then `presses` presses out of turn: each one refused,
    an `ignored` event each (the events a referee used to keep, and replay to hold)."""
    setup = games.get("ptipasspass").simulated_setup(4, 1)
    inputs = [PressInput(round(setup.t + 1 + i / 100, 2), "menteur", 1) for i in range(presses)]
    path.write_text("\n".join(dump_lines(setup, inputs)) + "\n")
    return path


def peak_kb(path: Path) -> int:
    """The peak resident memory of a process that replays `path` (everything printed)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stderr.split()[-1])


def test_replaying_100000_inputs_takes_no_more_memory_than_1000(tmp_path):
    short = peak_kb(restless_journal(tmp_path / "short.jsonl", 1_000))
    long = peak_kb(restless_journal(tmp_path / "long.jsonl", 100_000))
    assert long - short < 4 * 1024, (short, long)
