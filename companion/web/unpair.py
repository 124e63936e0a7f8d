"""`companion unpair SEAT|all`: the console revokes phones paired to the table's web page.

It asks the running service, from the Pi itself, with the admin token the service keeps
in the data directory (readable by the service's user only).
"""

from __future__ import annotations

import argparse
import http.client
import json

from companion.cli_words import os_error, said
from companion.config import load_config
from companion.config.data_dir import locate_data_dir
from companion.config.model import ConfigError
from companion.options import add_config_option, add_data_dir_option, fail
from companion.run.web_port import ADMIN_TOKEN


def add_unpair_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "unpair", help=said("cli.summary.unpair"), description=said("cli.unpair.description")
    )
    p.add_argument("seat", metavar=said("cli.metavar.seat"), help=said("cli.unpair.seat"))
    add_config_option(p)
    add_data_dir_option(p)
    p.set_defaults(func=unpair)


def unpair(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            fail("unpair", said("cli.unpair.config", problem=line))
        return 2
    if not config.web.enabled:
        return fail("unpair", said("cli.unpair.web_off"))
    data = locate_data_dir(config, args.data_dir)
    problem = data.problem()
    if problem is not None:
        return fail("unpair", problem)
    token_file = data.path / ADMIN_TOKEN
    try:
        token = token_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        fail("unpair", said("cli.unpair.no_token", path=token_file, why=os_error(exc)))
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
        fail("unpair", said("cli.unpair.no_answer", error=exc))
        return 1
    finally:
        connection.close()
    if response.status != 200:
        fail("unpair", str(answer.get("error", response.reason)))
        return 1
    print(answer.get("said") or said("cli.unpair.done", n=answer["unpaired"]))
    return 0
