"""`companion run`: the service of a real table (and its simulated twin on a desktop).

The entry module: systemd runs ``python -m companion.service run --resume`` and the
install script ``python -m companion.service config check``. The service itself lives in
``companion/run/`` (its package docstring maps it): the referee loop in
``companion.run.loop``, start-up in ``companion.run.startup``, the power-on menu in
``companion.run.power_on_menu``, resume in ``companion.run.game_start``, the simulated
table in ``companion.run.sim_input``.
"""

from __future__ import annotations

import argparse
import sys

from companion.run.arguments import add_run_parser


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.service run ...`` / ``config check ...`` (before cli.py wires it)."""
    from companion.config.check import add_config_parser

    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", required=True)
    add_run_parser(sub)
    add_config_parser(sub)
    args = parser.parse_args(argv)
    from companion.cli import run_command

    return run_command(args)


if __name__ == "__main__":
    sys.exit(main())
