"""``python -m companion.kit``: write the builder's kit from the pin map and the games' mats.

Run it after changing hardware/pins.toml or a game's mat. ``--check`` writes nothing: it
generates into a temporary folder and lists each committed file that differs (exit 1).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from companion.config.pins import REPOSITORY_PINS
from companion.devices.words import crowded_buses
from companion.kit.build import ARTIFACTS, ROOT, differences, generate
from companion.kit.table import KitError, load_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.kit",
        description="Generate the builder's kit (BOM, wiring diagrams, board netlist, mat "
        "templates) from a pin map and the games' mats (docs/build.md).",
    )
    parser.add_argument(
        "--pins",
        type=Path,
        default=REPOSITORY_PINS,
        help="the pin map (default: the repository's hardware/pins.toml)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT,
        help="the folder to write hardware/ and docs/ under (default: the repository)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=sorted({a.folder for a in ARTIFACTS}),
        help="write only this folder's artifacts (may be repeated)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list the files of --out that differ (exit 1)",
    )
    args = parser.parse_args(argv)
    try:
        table = load_table(args.pins)
    except KitError as exc:
        print(f"python -m companion.kit: {exc}", file=sys.stderr)
        return 2
    for line in crowded_buses([reader.bus for reader in table.readers]):
        print(f"python -m companion.kit: warning: {line}", file=sys.stderr)
    if args.check:
        with tempfile.TemporaryDirectory(prefix="kit-") as fresh:
            generate(table, Path(fresh), args.only)
            problems = differences(args.out, Path(fresh), args.only)
        for line in problems:
            print(line)
        print(
            "the kit matches its description"
            if not problems
            else f"{len(problems)} file(s) differ: run python -m companion.kit"
        )
        return 1 if problems else 0
    for path in generate(table, args.out, args.only):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
