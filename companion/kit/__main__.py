"""``python -m companion.kit``: write the builder's kit from the pin map and the games' mats.

Run it after changing hardware/pins.toml or a game's mat. ``--check`` writes nothing: it
generates into a temporary folder and lists each committed file that differs (exit 1).
It speaks the command line's language (`companion.cli_language.command_language`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from companion.cli_language import command_language
from companion.cli_words import said, speaking
from companion.config.pins import REPOSITORY_PINS
from companion.devices.words import crowded_buses
from companion.kit.build import ARTIFACTS, ROOT, differences, generate
from companion.kit.table import KitError, load_table
from companion.kit.words import kit_says
from companion.options import add_lang_option


def main(argv: Sequence[str] | None = None) -> int:
    """The kit builder, in the command line's language (argparse exits 2 on a bad option)."""
    words = sys.argv[1:] if argv is None else argv
    with speaking(command_language(words)):
        return _build(_parser().parse_args(words))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m companion.kit", description=kit_says("description")
    )
    parser.add_argument(
        "--pins",
        type=Path,
        default=REPOSITORY_PINS,
        metavar=said("cli.metavar.file"),
        help=kit_says("pins"),
    )
    parser.add_argument("--out", type=Path, default=ROOT, metavar=said("cli.metavar.dir"),
                        help=kit_says("out"))  # fmt: skip
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=sorted({a.folder for a in ARTIFACTS}),
        metavar=said("cli.metavar.dir"),
        help=kit_says("only", folders=", ".join(sorted({a.folder for a in ARTIFACTS}))),
    )
    parser.add_argument("--check", action="store_true", help=kit_says("check"))
    add_lang_option(parser, kit_says("lang"))
    return parser


def _build(args: argparse.Namespace) -> int:
    try:
        table = load_table(args.pins)
    except KitError as exc:
        print(kit_says("fail", message=exc), file=sys.stderr)
        return 2
    for line in crowded_buses([reader.bus for reader in table.readers]):
        print(kit_says("warning", message=line), file=sys.stderr)
    if args.check:
        with tempfile.TemporaryDirectory(prefix="kit-") as fresh:
            generate(table, Path(fresh), args.only)
            problems = differences(args.out, Path(fresh), args.only)
        for line in problems:
            print(line)
        print(kit_says("differ", n=len(problems)) if problems else kit_says("matches"))
        return 1 if problems else 0
    for path in generate(table, args.out, args.only):
        print(kit_says("wrote", path=path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
