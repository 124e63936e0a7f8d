"""`companion club`: the club's board on any machine of the club (docs/club.md).

Reads the broker (`reader`), keeps the board (`board`), serves the read-only page
(`page`) and archives each result of the night to a JSON Lines file, read back when the
club restarts. Runs until Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from datetime import date
from pathlib import Path

from companion.cli_words import language, os_error, said
from companion.config.club import MQTT_PORT, MQTTS_PORT
from companion.config.club_table import broker_address
from companion.options import (
    add_lang_option,
    checked_option,
    fail,
    output_file_problem,
    path_text,
    whole_number,
)

PASSWORD_ENV = "COMPANION_CLUB_PASSWORD"
DEFAULT_PORT = 8090
DEFAULT_USER = "club"


def add_club_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    description = said("cli.club.description", env=PASSWORD_ENV)
    p = subparsers.add_parser("club", help=said("cli.summary.club"), description=description)
    p.add_argument(
        "--broker",
        required=True,
        type=checked_option(
            lambda v: v if broker_address(v) else None, said("cli.club.broker_fix")
        ),
        metavar=said("cli.metavar.broker"),
        help=said("cli.club.broker", tls=MQTTS_PORT, plain=MQTT_PORT),
    )
    p.add_argument("--username", default=DEFAULT_USER, metavar=said("cli.metavar.user"),
                   help=said("cli.club.username", default=DEFAULT_USER))  # fmt: skip
    p.add_argument(
        "--password-file", type=path_text, default=None, metavar=said("cli.metavar.file"),
        help=said("cli.club.password_file"),
    )  # fmt: skip
    tls = p.add_mutually_exclusive_group(required=True)
    tls.add_argument("--tls-ca", type=path_text, default=None, metavar=said("cli.metavar.file"),
                     help=said("cli.club.tls_ca"))  # fmt: skip
    tls.add_argument("--plain", action="store_true", help=said("cli.club.plain"))
    p.add_argument("--host", default="0.0.0.0", metavar=said("cli.metavar.host"),
                   help=said("cli.club.host"))  # fmt: skip
    p.add_argument("--port", type=whole_number(0, 65535), default=DEFAULT_PORT,
                   metavar=said("cli.metavar.port"),
                   help=said("cli.club.port", default=DEFAULT_PORT))  # fmt: skip
    add_lang_option(p, said("cli.club.lang"))
    p.add_argument("--archive", type=path_text, default=None, metavar=said("cli.metavar.file"),
                   help=said("cli.club.archive"))  # fmt: skip
    p.set_defaults(func=run_club)


def broker_of(args: argparse.Namespace) -> tuple[str, int]:
    """(host, port) of --broker, its default port TLS's unless --plain."""
    address = broker_address(args.broker, tls=not args.plain)
    assert address is not None  # checked as an option
    return address


def _password(args: argparse.Namespace) -> str | None:
    """The password of --password-file, else of the environment; raises OSError."""
    if args.password_file is None:
        return os.environ.get(PASSWORD_ENV) or None
    lines = Path(args.password_file).read_text(encoding="utf-8").splitlines()
    return lines[0] if lines and lines[0] else None


def run_club(args: argparse.Namespace) -> int:
    """`companion club`: check the options, then serve until SIGTERM or Ctrl-C."""
    archive = Path(args.archive or f"club-{date.today().isoformat()}.jsonl")
    problem = output_file_problem(str(archive))
    if problem is not None:
        return fail("club", f"--archive {problem}")
    if args.tls_ca is not None and not Path(args.tls_ca).is_file():
        return fail("club", said("cli.club.no_ca", path=args.tls_ca))
    try:
        password = _password(args)
    except (OSError, UnicodeDecodeError) as exc:
        why = os_error(exc) if isinstance(exc, OSError) else said("cli.club.not_utf8")
        return fail("club", said("cli.club.password_unreadable", path=args.password_file, why=why))
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())  # before it says it runs
    try:
        return _serve(args, archive, password, stop)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _serve(
    args: argparse.Namespace, archive: Path, password: str | None, stop: threading.Event
) -> int:
    """Read the archive, serve the page, read the broker, until ``stop`` or Ctrl-C."""
    from companion.club.board import Board
    from companion.club.page import ClubServer
    from companion.club.reader import ClubReader, read_archive

    host, port = broker_of(args)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    board = Board()
    try:
        earlier = read_archive(archive, board)
    except OSError as exc:
        why = os_error(exc)
        return fail("club", said("cli.club.archive_unreadable", path=archive, why=why))
    print(said("cli.club.archive_read", path=archive, n=earlier))
    server = ClubServer(board, language(), args.host, args.port)
    try:
        listening = server.start()
    except OSError as exc:
        return fail("club", str(exc))
    tls = Path(args.tls_ca) if args.tls_ca else None
    reader = ClubReader(board, archive, host, port, args.username, password, tls)
    try:
        reader.start()
    except OSError as exc:
        server.stop()
        why = os_error(exc)
        return fail("club", said("cli.club.archive_unwritable", path=archive, why=why))
    serving = said(
        "cli.club.serving", host=args.host, port=listening, broker=host, broker_port=port
    )
    print(serving, flush=True)
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
        server.stop()
    return 0
