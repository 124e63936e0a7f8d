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

from companion.config.club import MQTT_PORT, MQTTS_PORT
from companion.config.club_table import broker_address
from companion.options import checked_option, fail, output_file_problem, path_text, whole_number

PASSWORD_ENV = "COMPANION_CLUB_PASSWORD"
DEFAULT_PORT = 8090
DEFAULT_USER = "club"


def add_club_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "club",
        help="the club night's board: every table live, results and standings, from the broker",
        description="Read the club's MQTT broker (the tables with a [club] section publish "
        "to it) and serve a read-only page: every table live, the evening's results and "
        "the standings per player across tables and games, with CSV exports; every "
        "result is archived to a JSON Lines file. The password is read from the file "
        f"--password-file names, or from ${PASSWORD_ENV}. Setting up a club night: "
        "docs/club.md.",
    )
    p.add_argument(
        "--broker",
        required=True,
        type=checked_option(lambda v: v if broker_address(v) else None, _BROKER),
        metavar="HOST[:PORT]",
        help=f"the broker (default port {MQTTS_PORT}, {MQTT_PORT} with --plain)",
    )
    p.add_argument(
        "--username",
        default=DEFAULT_USER,
        help=f"the club's user on the broker (default {DEFAULT_USER})",
    )
    p.add_argument(
        "--password-file",
        type=path_text,
        default=None,
        help="a file holding the user's password (its first line)",
    )
    tls = p.add_mutually_exclusive_group(required=True)
    tls.add_argument(
        "--tls-ca",
        type=path_text,
        default=None,
        help="the club's CA certificate (PEM), which the broker's must be signed by",
    )
    tls.add_argument(
        "--plain",
        action="store_true",
        help="plain MQTT without TLS: a broker on a closed network only (docs/club.md)",
    )
    p.add_argument(
        "--host",
        default="0.0.0.0",
        help="the address the page listens on (default 0.0.0.0: the network)",
    )
    p.add_argument(
        "--port",
        type=whole_number(0, 65535),
        default=DEFAULT_PORT,
        help=f"the page's TCP port (default {DEFAULT_PORT})",
    )
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="the page's language")
    p.add_argument(
        "--archive",
        type=path_text,
        default=None,
        help="the night's archive, JSON Lines, added to when it exists (default "
        "club-YYYY-MM-DD.jsonl in the current folder)",
    )
    p.set_defaults(func=run_club)


_BROKER = 'the broker\'s address, HOST or HOST:PORT (e.g. "club-pi.local")'


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
        return fail("club", f"--tls-ca {args.tls_ca}: no such file")
    try:
        password = _password(args)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        return fail("club", f"--password-file {args.password_file}: cannot read it: {why}")
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
        return fail("club", f"--archive {archive}: cannot read it: {exc.strerror or exc}")
    print(f"archive: {archive}, results already there: {earlier}")
    server = ClubServer(board, args.lang, args.host, args.port)
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
        return fail("club", f"--archive {archive}: cannot write it: {exc.strerror or exc}")
    print(f"club page: http://{args.host}:{listening}/ (reading {host}:{port})", flush=True)
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
        server.stop()
    return 0
