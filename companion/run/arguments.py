"""The command line of `companion run`: its options, their help, and its handler."""

from __future__ import annotations

import argparse

from companion.cli_words import said
from companion.config.sound import SOUND_BACKENDS
from companion.doc_paths import CONFIG_DOC, JOURNAL_DOC, TABLE_DOC, WEB_DOC
from companion.options import add_config_option, add_data_dir_option, path_text


def add_run_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion run`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "run",
        help=said("cli.summary.run"),
        description=said(
            "cli.run.description", config=CONFIG_DOC, table=TABLE_DOC, journal=JOURNAL_DOC
        ),
    )
    add_config_option(p)
    _add_start_options(p)
    _add_sim_options(p)
    add_data_dir_option(p)
    p.add_argument(
        "--display",
        default=None,
        choices=("ssd1306", "sh1106", "emulator", "capture", "dummy", "none"),
        help=said("cli.run.display"),
    )
    p.add_argument("--sound", default=None, choices=SOUND_BACKENDS, help=said("cli.run.sound"))
    p.add_argument("--exit-when-finished", action="store_true", help=said("cli.run.exit"))
    p.add_argument("-v", "--verbose", action="store_true", help=said("cli.run.verbose"))
    p.set_defaults(func=_run)


def _add_start_options(p: argparse.ArgumentParser) -> None:
    """How the game starts: --resume, and the power-on menu forced or skipped."""
    p.add_argument("--resume", action="store_true", help=said("cli.run.resume"))
    menu = p.add_mutually_exclusive_group()
    menu.add_argument("--menu", action="store_true", help=said("cli.run.menu"))
    menu.add_argument("--no-menu", action="store_true", help=said("cli.run.no_menu"))


def _add_sim_options(p: argparse.ArgumentParser) -> None:
    """The simulated table: --sim, its input and its clock; the virtual table."""
    p.add_argument("--sim", action="store_true", help=said("cli.run.sim"))
    p.add_argument("--virtual", action="store_true", help=said("cli.run.virtual", web=WEB_DOC))
    p.add_argument(
        "--game", metavar=said("cli.metavar.name"), default=None, help=said("cli.run.game")
    )
    p.add_argument(
        "--seats", metavar=said("cli.metavar.names"), default=None, help=said("cli.run.seats")
    )
    p.add_argument(
        "--sim-input",
        metavar=said("cli.metavar.path"),
        type=path_text,
        default=None,
        help=said("cli.run.sim_input", journal=JOURNAL_DOC),
    )
    p.add_argument(
        "--sim-clock", choices=("real", "script"), default="real", help=said("cli.run.sim_clock")
    )


def _run(args: argparse.Namespace) -> int:
    """`companion run`: the service and all it drives, imported only now."""
    from companion.run.startup import run

    return run(args)
