"""The command line of `companion run`: its options, their help, and its handler."""

from __future__ import annotations

import argparse

from companion.config.sound import SOUND_BACKENDS
from companion.doc_paths import CONFIG_DOC, JOURNAL_DOC, TABLE_DOC, WEB_DOC
from companion.options import add_config_option, add_data_dir_option, path_text


def add_run_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion run`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "run",
        help="the table service: readers, buttons and OLED (systemd runs it)",
        description="Referee a real table: read the readers and buttons, journal every input, "
        "draw the OLED. --resume continues the journal's game after a power cut (or starts "
        "a new one when there is none). The journal and the enrolled tags are in the data "
        "directory (--data-dir, else $COMPANION_DATA, else paths.data_dir of the config), "
        f"the same one `companion enroll` writes. The config: {CONFIG_DOC}; how each game's "
        f"table is played: {TABLE_DOC}. With --sim, or a config without hardware, the table "
        "is simulated: its inputs are journal lines from --sim-input (UTF-8 JSON Lines: "
        f"spot, press, reader, tick, and an optional first setup line; see {JOURNAL_DOC}).",
    )
    add_config_option(p)
    _add_start_options(p)
    _add_sim_options(p)
    add_data_dir_option(p)
    p.add_argument(
        "--display",
        default=None,
        choices=("ssd1306", "sh1106", "emulator", "capture", "dummy", "none"),
        help="override the display driver",
    )
    p.add_argument(
        "--sound",
        default=None,
        choices=SOUND_BACKENDS,
        help="override [sound] backend (a simulated table is silent unless given espeak-ng "
        "or capture: capture logs each announcement)",
    )
    p.add_argument(
        "--exit-when-finished",
        action="store_true",
        help="stop when the game is over (simulations, tests)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    p.set_defaults(func=_run)


def _add_start_options(p: argparse.ArgumentParser) -> None:
    """How the game starts: --resume, and the power-on menu forced or skipped."""
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the journal's game (with the power-on menu: offer to continue it); "
        "a new game when there is none",
    )
    menu = p.add_mutually_exclusive_group()
    menu.add_argument(
        "--menu",
        action="store_true",
        help="show the power-on menu even without GPIO controls (a --sim-input script "
        "drives it with aim/choose/back presses)",
    )
    menu.add_argument(
        "--no-menu",
        action="store_true",
        help="no power-on menu: resume (--resume) or start the config's game at once",
    )


def _add_sim_options(p: argparse.ArgumentParser) -> None:
    """The simulated table: --sim, its input and its clock; the virtual table."""
    p.add_argument("--sim", action="store_true", help="simulate the table (no hardware)")
    p.add_argument(
        "--virtual",
        action="store_true",
        help="a virtual table: the game is played on the web page with virtual tokens, "
        "each seat from its own paired phone or browser (no hardware, nothing enrolled); "
        "the log gives the page's address and each pairing code. Its games are kept in "
        f"the virtual/ folder of the data directory unless --data-dir is given ({WEB_DOC})",
    )
    p.add_argument(
        "--game",
        metavar="NAME",
        default=None,
        help="with --virtual or --sim: the game of a new game, over the config's [game] name",
    )
    p.add_argument(
        "--seats",
        metavar="NAMES",
        default=None,
        help="with --virtual or --sim: the players of a new game, comma-separated clockwise "
        "(Ana,Bob,Cy), over the config's [game] seats",
    )
    p.add_argument(
        "--sim-input",
        metavar="PATH",
        type=path_text,
        default=None,
        help=f"journal lines for the simulated table: a file, a FIFO or - (stdin); the "
        f"format: {JOURNAL_DOC}",
    )
    p.add_argument(
        "--sim-clock",
        choices=("real", "script"),
        default="real",
        help="real: lines happen when read; script: the lines' t is the clock and the "
        "service stops when the script ends (needs --sim-input)",
    )


def _run(args: argparse.Namespace) -> int:
    """`companion run`: the service and all it drives, imported only now."""
    from companion.run.startup import run

    return run(args)
