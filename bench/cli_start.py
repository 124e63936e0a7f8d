"""How long a command takes to start: the whole process, several runs.

`.venv/bin/python bench/cli_start.py [--runs N] [COMMAND...]` runs `companion --help` and
`companion config check --help` (or the commands given, each a quoted string) N times
(default 7), interleaved, and prints the wall time's min, median and max. `--root DIR`
runs another checkout's code (e.g. an older commit's, to compare) with this Python.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from companion.cli import main; main()"
DEFAULT = ("--help", "config --help", "config check --help")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("commands", nargs="*", default=list(DEFAULT))
    args = parser.parse_args()
    times: dict[str, list[float]] = {c: [] for c in args.commands}
    for _ in range(args.runs):
        for command in args.commands:
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", MAIN, args.root, *shlex.split(command)],
                capture_output=True,
                check=False,
            )
            times[command].append((time.perf_counter() - started) * 1000)
    print("| command | min ms | median ms | max ms |")
    print("|---|---|---|---|")
    for command, runs in times.items():
        print(f"| companion {command} | {min(runs):.0f} | {statistics.median(runs):.0f} | "
              f"{max(runs):.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
