"""The `companion` command: one subcommand per job a table owner or developer does."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion.bots.passpass import BOTS
from companion.rules.errors import BadInput
from companion.rules.passpass import RULESETS, make_config


def _progress(done: int, total: int) -> None:
    """A one-line progress meter on stderr (stdout stays the report)."""
    if done == total or done % max(1, total // 100) == 0:
        end = "\n" if done == total else ""
        print(f"\rgames {done}/{total} ({done / total:.0%})", end=end, file=sys.stderr, flush=True)


def _selfplay(args: argparse.Namespace) -> int:
    from companion import selfplay

    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(BOTS))
    if not kinds or unknown:
        print(f"companion selfplay: unknown bot(s) {unknown}; choose from {BOTS}", file=sys.stderr)
        return 2
    seats = [kinds[i % len(kinds)] for i in range(args.players)]
    try:
        make_config(args.game, args.players)  # validate once, with the rule book's message
    except BadInput as exc:
        print(f"companion selfplay: {exc}", file=sys.stderr)
        return 2
    summary = selfplay.run(
        lambda i: make_config(
            args.game, args.players, first=i % args.players, turn_limit=args.turn_limit
        ),
        seats,
        args.games,
        args.seed,
        progress=None if args.quiet else _progress,
    )
    print(f"{args.game}, {args.players} players, seed {args.seed}, first player rotating")
    print(summary.report(seats))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A Raspberry Pi referee for physical game tables (PtiPassPass and friends).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sp = sub.add_parser(
        "selfplay",
        help="play many games between bots and print statistics",
        description=(
            "Play whole games between bots and print win rate by seat, mean turns per "
            "manche and challenge success rates. The same seed gives the same output."
        ),
    )
    sp.add_argument("game", choices=sorted(RULESETS), help="the rule set")
    sp.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    sp.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sp.add_argument("--seed", type=int, default=1, help="seed of every bot's RNG (default 1)")
    sp.add_argument(
        "--bots",
        default="heuristic",
        help=f"comma-separated bot kinds, cycled over the seats ({', '.join(BOTS)}); "
        "e.g. heuristic,random",
    )
    sp.add_argument(
        "--turn-limit",
        type=int,
        default=None,
        help="void a manche after this many turns (PTI-15, for simulations)",
    )
    sp.add_argument("--quiet", action="store_true", help="no progress meter on stderr")
    sp.set_defaults(func=_selfplay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
