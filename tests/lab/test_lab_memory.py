"""The lab's memory is flat in its games: workers tally their games and send back only
the tallies (companion/lab/tally.py), so 30 times the games take the same peak memory.
VNP is the worst case: its record, with the lead's story and the legal choices, is the
largest of the games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# One lab run in a process of its own: its peak resident memory and its workers'.
RUN = """
import json, resource, sys
from companion.cli import main
code = main(["lab", sys.argv[1], "--workers", "2", "--quiet", "--out", sys.argv[2]])
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "own_kb": own, "worker_kb": workers}))
"""


def _peak(tmp_path: Path, games: int) -> dict[str, int]:
    lab = tmp_path / f"vnp{games}.toml"
    lab.write_text(
        f'game = "vnp"\nplayers = 4\nbots = ["largest"]\ngames = {games}\nseed = 1\n'
        '[[variant]]\nname = "four largest"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(lab), str(tmp_path / f"out{games}")],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    peak: dict[str, int] = json.loads(done.stdout.splitlines()[-1])
    assert peak["code"] == 0, done.stderr
    return peak


def test_thirty_times_the_games_take_the_same_peak_memory(tmp_path: Path) -> None:
    few, many = _peak(tmp_path, 1_000), _peak(tmp_path, 30_000)
    assert many["own_kb"] <= 1.10 * few["own_kb"], (few, many)
    assert many["worker_kb"] <= 1.10 * few["worker_kb"], (few, many)
    report = json.loads((tmp_path / "out30000" / "figures.json").read_text(encoding="utf-8"))
    assert report["variants"][0]["games"] == 30_000
