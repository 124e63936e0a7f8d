"""The `companion` command: one subcommand per job a table owner or developer does."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.bots.passpass import BOTS
from companion.rules.errors import BadInput
from companion.rules.passpass import RULESETS, make_config


def _progress(done: int, total: int) -> None:
    """A one-line progress meter on stderr (stdout stays the report)."""
    if done == total or done % max(1, total // 100) == 0:
        end = "\n" if done == total else ""
        print(f"\rgames {done}/{total} ({done / total:.0%})", end=end, file=sys.stderr, flush=True)


def _game_ok(command: str, game: str, players: int) -> bool:
    """Check a game and seat count once, with the rule book's own message on stderr."""
    try:
        make_config(game, players)
    except BadInput as exc:
        print(f"companion {command}: {exc}", file=sys.stderr)
        return False
    return True


def _players(args: argparse.Namespace) -> int:
    default = 4 if args.game == "ptipasspass" else 3
    return int(args.players or default)


def _selfplay(args: argparse.Namespace) -> int:
    from companion import selfplay

    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(BOTS))
    if not kinds or unknown:
        print(f"companion selfplay: unknown bot(s) {unknown}; choose from {BOTS}", file=sys.stderr)
        return 2
    seats = [kinds[i % len(kinds)] for i in range(args.players)]
    if not _game_ok("selfplay", args.game, args.players):
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


def _demo(args: argparse.Namespace) -> int:
    from companion.demo import run_demo

    players = _players(args)
    if not _game_ok("demo", args.game, players):
        return 2
    run_demo(args.game, players, args.seed, Path(args.out), args.lang)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from companion.demo import replay
    from companion.journal import JournalError, read_journal
    from companion.referee.passpass import SetupError

    try:
        journal = read_journal(args.file)
        for warning in journal.warnings:
            print(f"companion replay: warning: {warning}", file=sys.stderr)
        replay(journal, args.json)
    except (OSError, JournalError, SetupError) as exc:
        print(f"companion replay: {exc}", file=sys.stderr)
        return 2
    return 0


def _play(args: argparse.Namespace) -> int:
    from companion.journal import JournalError
    from companion.referee.passpass import SetupError
    from companion.session import Session
    from companion.sim.console import run_console
    from companion.sim.driver import make_setup

    if not args.sim:
        print("companion play: only --sim exists for now (a real table: companion run)",
              file=sys.stderr)  # fmt: skip
        return 2
    path = Path(args.journal)
    try:
        if args.resume:
            session = Session.resume(path)
        else:
            setup = make_setup(args.game, _players(args), args.seed, window=args.window,
                               first=args.first - 1, language=args.lang)  # fmt: skip
            session = Session.start(path, setup)
    except (OSError, JournalError, SetupError, BadInput) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    print(f"journal: {path} (continue later with: companion play --sim --resume --journal "
          f"{path})")  # fmt: skip
    lang = session.referee.setup.language
    return run_console(session, sys.stdin, sys.stdout, lang, echo=not sys.stdin.isatty())


def _add_game_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--game", choices=sorted(RULESETS), default="ptipasspass")
    p.add_argument(
        "--players", type=int, default=None, help="seats (default 4, or 3 for phipasspass)"
    )
    p.add_argument("--seed", type=int, default=1, help=seed_help)
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="OLED language")


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

    demo = sub.add_parser(
        "demo",
        help="a whole simulated game with bots: transcript, OLED frames, GIF and journal",
        description=(
            "Play a whole game on a simulated table with bot seats, through the real "
            "referee and screens. Prints what happens and every new OLED frame, and writes "
            "the journal and an animated GIF of the OLED to the output folder."
        ),
    )
    _add_game_options(demo, "seed of the bots and the tags (default 1)")
    demo.add_argument("--out", default="out/demo", help="output folder (default out/demo)")
    demo.set_defaults(func=_demo)

    rp = sub.add_parser(
        "replay",
        help="feed a journal through the referee and print what happened",
        description="Replay a journal (or a scenario file) through the same referee as a "
        "live table. --json prints one document {game, events, scores, winner}.",
    )
    rp.add_argument("file", help="a journal in the JSON Lines format of ARCHITECTURE.md")
    rp.add_argument("--json", action="store_true", help="print the replay document as JSON")
    rp.set_defaults(func=_replay)

    play = sub.add_parser(
        "play",
        help="an interactive simulated table: type what your hands do, see the OLED",
        description="Type physical acts (drop, take, slide), presses (announce, doublon, "
        "menteur, choose, back) and waits; the referee judges them as on a real table and "
        "the OLED is drawn after each. Type help inside for the commands.",
    )
    play.add_argument("--sim", action="store_true", help="use the simulated table")
    _add_game_options(play, "seed of the tags (default 1)")
    play.add_argument("--window", type=float, default=6.0, help="challenge window, seconds")
    play.add_argument(
        "--first", type=int, default=1, help="first player, 1..N: who did a magic trick last"
    )
    play.add_argument("--journal", default="out/play.jsonl", help="journal file to write")
    play.add_argument("--resume", action="store_true", help="continue the journal's game")
    play.set_defaults(func=_play)

    from companion.config import add_config_parser
    from companion.devices.doctor import add_doctor_parser
    from companion.devices.enroll import add_enroll_parser
    from companion.service import add_run_parser

    add_run_parser(sub)
    add_config_parser(sub)
    add_enroll_parser(sub)
    add_doctor_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
