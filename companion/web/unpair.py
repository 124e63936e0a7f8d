"""`companion unpair SEAT|all`: the console revokes phones paired to the table's web page.

It asks the running service, from the Pi itself, with the admin token the service keeps
in the data directory (readable by the service's user only).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys

from companion.config import load_config
from companion.config.data_dir import locate_data_dir
from companion.config.model import ConfigError
from companion.options import add_config_option, add_data_dir_option
from companion.run.web_port import ADMIN_TOKEN


def add_unpair_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "unpair",
        help="revoke the phones paired to the table's web page",
        description=(
            "Unpair a seat's phone (by the seat's name) or every phone (all) from the "
            "running service's web page, on the Pi itself. The phone can watch still; to "
            "act again it must enter the new code the OLED shows. See docs/web.md."
        ),
    )
    p.add_argument("seat", help="the seat's name as the config gives it, or all")
    add_config_option(p)
    add_data_dir_option(p)
    p.set_defaults(func=unpair)


def unpair(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            print(f"companion unpair: config: {line}", file=sys.stderr)
        return 2
    if not config.web.enabled:
        print("companion unpair: the web page is off ([web] enabled = false)", file=sys.stderr)
        return 2
    data = locate_data_dir(config, args.data_dir)
    problem = data.problem()
    if problem is not None:
        print(f"companion unpair: {problem}", file=sys.stderr)
        return 2
    token_file = data.path / ADMIN_TOKEN
    try:
        token = token_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        print(
            f"companion unpair: cannot read {token_file} ({exc.strerror or exc}): is the "
            "service running, and are you its user (or root)?",
            file=sys.stderr,
        )
        return 1
    # The service accepts this from the Pi itself: loopback, or the one address it listens on.
    wildcard = {"0.0.0.0": "127.0.0.1", "::": "::1"}
    host = wildcard.get(config.web.host, config.web.host)
    connection = http.client.HTTPConnection(host, config.web.port, timeout=5)
    try:
        connection.request(
            "POST",
            "/api/admin/unpair",
            body=json.dumps({"seat": args.seat}),
            headers={"Content-Type": "application/json", "X-Admin-Token": token},
        )
        response = connection.getresponse()
        answer = json.loads(response.read() or b"{}")
    except (OSError, ValueError) as exc:
        print(f"companion unpair: the service does not answer: {exc}", file=sys.stderr)
        return 1
    finally:
        connection.close()
    if response.status != 200:
        print(f"companion unpair: {answer.get('error', response.reason)}", file=sys.stderr)
        return 1
    print(answer.get("said") or f"unpaired {answer['unpaired']} phone(s)")
    return 0
