"""The `companion` command: one subcommand per job a table owner or developer does."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.cli_language import command_language
from companion.cli_words import language, numeral, os_error, said, speaking, text_of
from companion.config.bounds import SETTLE
from companion.config.model import GameConfig
from companion.doc_paths import JOURNAL_DOC, RULINGS_DOC, TABLE_DOC
from companion.options import (
    add_lang_option,
    checked_option,
    fail,
    output_file_problem,
    output_folder_problem,
    path_text,
    seconds_option,
    whole_number,
)
from companion.rules.errors import BadInput

if TYPE_CHECKING:
    from companion.devices.sound import Sound
    from companion.session import Session

DEFAULTS = GameConfig()
"""The config's game defaults, which `play` shares (settle)."""
DEMO_OUT = "out/demo"
FINISH_SOUND = 10.0
"""Seconds `play --speak` lets the voice finish its last sentence after quit."""
PLAY_JOURNAL = "out/play.jsonl"
"""Where `demo` and `play` write when not told: ``out/`` is created for them (a folder the
user names is created, never the folders above it)."""


def _first_problem(first: int, players: int) -> str | None:
    """Why ``--first`` is not a seat (counted from 1, as people count), or None."""
    if 1 <= first <= players:
        return None
    return said("cli.play.first_problem", first=first, players=players)


def _players(args: argparse.Namespace) -> int:
    return int(args.players or games.get(args.game).default_seats)


def _unreadable(path: object, exc: OSError) -> str:
    """A file that cannot be opened, in one line (no errno noise)."""
    return said("cli.unreadable", path=path, why=os_error(exc))


def _cannot_write(option: str, path: object, exc: OSError) -> str:
    return said("cli.cannot_write", option=option, path=path, why=os_error(exc))


def _demo(args: argparse.Namespace) -> int:
    from companion.config.data_dir import folder_problem
    from companion.demo import run_demo

    players = _players(args)
    problem = games.players_problem(args.game, players)
    if problem:
        return fail("demo", problem)
    out = Path(args.out or DEMO_OUT)
    problem = output_folder_problem(args.out) if args.out else folder_problem(out)
    if problem:
        return fail("demo", said("cli.demo.out_problem", problem=problem))
    try:
        run_demo(args.game, players, args.seed, out, language(), quiet=args.quiet)
    except OSError as exc:
        return fail("demo", _cannot_write("--out", out, exc))
    return 0


def _replay(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    from companion.demo import replay
    from companion.journal import MAX_JOURNAL, JournalError, JournalReader, file_lines, open_journal
    from companion.referee.pace import SetupError
    from companion.session import NotApplied

    # What it prints waits in a spool (on disk past 1 MB) until the whole journal was
    # read: a damaged one prints nothing but its error, and memory stays flat.
    try:
        with tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8") as spool:
            with open_journal(args.file, MAX_JOURNAL) as f:
                reader = JournalReader(file_lines(f), str(args.file))
                replay(reader, args.json, spool, args.lang)
            for warning in reader.warnings + reader.unended():
                print(said("cli.warning", command="replay", message=warning), file=sys.stderr)
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout)
    except BrokenPipeError:  # the reader of our output stopped (`| head`): nothing to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (no second error at exit)
    except OSError as exc:
        return fail("replay", _unreadable(args.file, exc))
    except NotApplied as exc:
        return fail("replay", said("cli.fault", error=exc))
    except (JournalError, SetupError, BadInput, games.UnknownGame) as exc:
        return fail("replay", said("cli.format", error=exc, doc=JOURNAL_DOC))
    return 0


def _play_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options of a new `play` game, or None."""
    if not args.sim:
        return said("cli.play.only_sim")
    if args.speak:
        from companion.devices.sound import espeak_missing

        missing = espeak_missing()
        if missing is not None:
            return f"--speak: {missing}"
    if not args.resume and games.get(args.game).console is None:
        return said("cli.play.no_console", game=args.game)
    if args.resume:
        return _resumed_journal_problem(Path(args.journal or PLAY_JOURNAL))
    players = _players(args)
    problem = games.players_problem(args.game, players) or _first_problem(args.first, players)
    return problem or _new_journal_problem(args.journal)


def _new_journal_problem(given: str | None) -> str | None:
    """Why a new game's journal cannot be written where ``--journal`` says, or None."""
    from companion.config.data_dir import folder_problem

    if given is None:
        problem = folder_problem(Path(PLAY_JOURNAL).parent)
        return None if problem is None else f"--journal {PLAY_JOURNAL}: {problem}"
    problem = output_file_problem(given)
    return None if problem is None else f"--journal {given}: {problem}"


def _resumed_journal_problem(path: Path) -> str | None:
    """Why ``--resume`` cannot read the journal at ``path`` as a file, or None (a missing
    file is said by `_open_play`, with how to start a new game)."""
    if path.is_dir():
        return said("cli.play.resume_folder", path=path)
    if path.exists() and not path.is_file():
        return said("cli.play.resume_special", path=path)
    return None


def _open_play(args: argparse.Namespace, path: Path) -> Session | str:
    """The game of `play`: the journal's (``--resume``) or a new one; or what went wrong."""
    from companion.journal import JournalError
    from companion.referee.pace import SetupError
    from companion.session import NotApplied, Session

    try:
        if args.resume:
            return Session.resume(path)
        setup = games.get(args.game).simulated_setup(
            _players(args), args.seed, settle=args.settle, first=args.first - 1,
            language=language(), **_own_settings(args),
        )  # fmt: skip
        return Session.start(path, setup)
    except FileNotFoundError:
        if not args.resume:
            return said("cli.play.no_such_folder", path=path)
        return said("cli.play.no_journal", path=path)
    except FileExistsError as exc:
        return said("cli.play.exists", error=exc)
    except OSError as exc:
        if args.resume:
            return f"--journal {_unreadable(path, exc)}"
        return _cannot_write("--journal", path, exc)
    except NotApplied as exc:
        return "--journal " + said("cli.fault", error=exc)
    except (JournalError, SetupError, BadInput, games.UnknownGame) as exc:
        return f"--journal {path}: " + said("cli.format", error=exc, doc=JOURNAL_DOC)


def _own_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The game's own settings given as options (``--window``), by name; another game's
    are left out (their help says which games take them)."""
    game = games.get(args.game)
    given = {s.name: getattr(args, _setting_dest(s.name), None) for s in game.table_settings}
    return {name: value for name, value in given.items() if value is not None}


def _setting_dest(name: str) -> str:
    return f"setting:{name}"


def _play(args: argparse.Namespace) -> int:
    problem = _play_problem(args)
    if problem:
        return fail("play", problem)
    if args.width is not None:  # what the typed table reads (companion.sim.console)
        os.environ["COLUMNS"] = str(args.width)
    path = Path(args.journal or PLAY_JOURNAL)
    session = _open_play(args, path)
    if isinstance(session, str):
        return fail("play", session)
    for note in session.notes:  # a torn last line dropped: one line each
        print(said("cli.warning", command="play", message=note), file=sys.stderr)
    resume = f"companion play --sim --resume --journal {path}"
    print(said("cli.play.journal_is", path=path, resume=resume))
    lang = session.referee.setup.language
    console = games.get(session.referee.setup.game).console
    if console is None:
        session.close()
        return fail("play", said("cli.play.no_console_yet", game=session.referee.setup.game))
    voice = _voice(session) if args.speak else None
    finish = FINISH_SOUND
    try:
        from companion.sim.console import Prompted

        lines = Prompted(sys.stdin, sys.stdout) if sys.stdin.isatty() else sys.stdin
        return console(session, lines, sys.stdout, lang)
    except KeyboardInterrupt:  # Ctrl-C: every input is already journaled and fsync'd
        session.close()
        finish = 0.0
        print("\n" + said("cli.play.interrupted", resume=resume), file=sys.stderr)
        return 130
    finally:
        if voice is not None:
            voice.close(finish=finish)


def _voice(session: Session) -> Sound:
    """`play --speak`: the table's voice through espeak-ng, told after every input."""
    from companion.config.sound import SoundConfig
    from companion.devices.sound import Sound
    from companion.speech import Speaker

    voice = Sound(SoundConfig(backend="espeak-ng"))
    voice.open(session.referee.setup.language)
    speaker = Speaker(session.referee, voice)
    speaker.start()
    session.after_feed.append(speaker.hear)
    return voice


def _deck(args: argparse.Namespace) -> int:
    printables = games.get(args.game).printables
    if printables is None:
        offered = ", ".join(g for g in games.names() if games.get(g).printables)
        offered = offered or said("cli.none")
        return fail("deck", said("cli.deck.nothing", game=args.game, offered=offered))
    problem = output_file_problem(args.out)
    if problem:
        return fail("deck", f"--out {args.out}: {problem}")
    out = Path(args.out)
    try:
        written = printables.write(args, out)
    except ValueError as exc:
        return fail("deck", str(exc))
    except OSError as exc:
        return fail("deck", _cannot_write("--out", out, exc))
    print(said("cli.deck.wrote", out=out, written=written))
    return 0


def _seats_help() -> str:
    """The seat counts of every game, for --players' help."""
    ranges = said("cli.semicolon").join(
        said(
            "cli.game.range",
            game=g.name,
            range=games.players_said(g, language()),
            default=g.default_seats,
        )
        for g in map(games.get, games.names())
    )
    return said("cli.game.seats", ranges=ranges)


def _add_game_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    p.add_argument("--players", type=whole_number(1), default=None, help=_seats_help(),
                   metavar=said("cli.metavar.n"))  # fmt: skip
    p.add_argument("--seed", type=int, default=1, help=seed_help, metavar=said("cli.metavar.n"))
    add_lang_option(p, said("cli.game.lang"))


def _add_demo(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser(
        "demo",
        help=summary("demo"),
        description=said("cli.demo.description", journal=JOURNAL_DOC, table=TABLE_DOC),
    )
    _add_game_options(demo, said("cli.demo.seed"))
    demo.add_argument("--out", type=path_text, default=None, metavar=said("cli.metavar.dir"),
                      help=said("cli.demo.out", default=DEMO_OUT))  # fmt: skip
    demo.add_argument("--quiet", action="store_true", help=said("cli.demo.quiet"))
    demo.set_defaults(func=_demo)


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rp = sub.add_parser(
        "replay",
        help=summary("replay"),
        description=said("cli.replay.description", journal=JOURNAL_DOC, rulings=RULINGS_DOC),
    )
    rp.add_argument("file", type=path_text, metavar=said("cli.metavar.file"),
                    help=said("cli.replay.file", journal=JOURNAL_DOC))  # fmt: skip
    rp.add_argument("--json", action="store_true", help=said("cli.replay.json"))
    add_lang_option(rp, said("cli.replay.lang"))
    rp.set_defaults(func=_replay)


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play",
        help=summary("play"),
        description=said(
            "cli.play.description", table=TABLE_DOC, journal=JOURNAL_DOC, rulings=RULINGS_DOC
        ),
    )
    play.add_argument("--sim", action="store_true", help=said("cli.play.sim"))
    _add_game_options(play, said("cli.play.seed"))
    _add_setting_options(play)
    play.add_argument(
        "--settle",
        type=seconds_option(SETTLE),
        default=DEFAULTS.settle,
        metavar=said("cli.metavar.seconds"),
        help=said("cli.play.settle", low=numeral(SETTLE.low), high=numeral(SETTLE.high),
                  default=numeral(DEFAULTS.settle)),
    )  # fmt: skip
    play.add_argument("--first", type=int, default=1, metavar=said("cli.metavar.seat"),
                      help=said("cli.play.first"))  # fmt: skip
    play.add_argument("--journal", type=path_text, default=None, metavar=said("cli.metavar.file"),
                      help=said("cli.play.journal", default=PLAY_JOURNAL))  # fmt: skip
    play.add_argument("--resume", action="store_true", help=said("cli.play.resume"))
    play.add_argument("--speak", action="store_true", help=said("cli.play.speak"))
    play.add_argument("--width", type=whole_number(20), default=None,
                      metavar=said("cli.metavar.n"), help=said("cli.play.width"))  # fmt: skip
    play.set_defaults(func=_play)


def _add_setting_options(play: argparse.ArgumentParser) -> None:
    """``--<name>`` for each game's own setting that offers one (`TableSetting`), with the
    bounds of the config and the games that take it."""
    for name, setting in games.table_settings().items():
        if setting.option_help is None:
            continue
        default = setting.default
        shown = numeral(default) if isinstance(default, float) else str(default)
        play.add_argument(
            f"--{name}",
            dest=_setting_dest(name),
            metavar=name.upper(),
            type=checked_option(setting.check, setting.fix),
            default=None,
            help=said("cli.play.setting", help=text_of(setting.option_help), default=shown,
                      name=name, games=said("cli.and").join(games.taking(name))),
        )  # fmt: skip


def _add_deck(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    every = [games.get(name) for name in games.names()]
    offered = said("cli.semicolon").join(
        said("cli.deck.offered", game=g.name, summary=text_of(g.printables.summary))
        for g in every
        if g.printables
    )
    deck = sub.add_parser(
        "deck",
        help=summary("deck"),
        description=said("cli.deck.description", offered=offered or said("cli.deck.none")),
    )
    per_game = deck.add_subparsers(dest="game", metavar=said("cli.metavar.game"), required=True)
    for game in every:
        printables = game.printables
        if printables is None:  # listed, so that it says it has nothing to print
            parser = per_game.add_parser(game.name)
        else:
            parser = per_game.add_parser(game.name, help=text_of(printables.summary),
                                         description=text_of(printables.description))  # fmt: skip
        parser.add_argument(
            "--out", type=path_text, required=printables is not None,
            metavar=said("cli.metavar.file"), help=said("cli.deck.out"),
        )  # fmt: skip
        if printables is not None:
            printables.options(parser)
        parser.set_defaults(func=_deck)


COMMANDS = ("lab", "report", "selfplay", "demo", "replay", "play", "deck", "run", "config",
            "enroll", "doctor", "unpair", "club")  # fmt: skip
"""Every command, in `companion --help`'s order."""


def summary(command: str) -> str:
    """A command's line in `companion --help`, which its own parser says too (a test holds
    each command's help to it)."""
    return said(f"cli.summary.{command}")


def _add_lab(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.lab.cli import add_parsers

    add_parsers(sub)


def _add_run(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.run.arguments import add_run_parser

    add_run_parser(sub)


def _add_config(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.config.check import add_config_parser

    add_config_parser(sub)


def _add_enroll(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.devices.enroll import add_enroll_parser

    add_enroll_parser(sub)


def _add_doctor(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.devices.doctor import add_doctor_parser

    add_doctor_parser(sub)


def _add_unpair(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.web.unpair import add_unpair_parser

    add_unpair_parser(sub)


def _add_club(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion.club.command import add_club_parser

    add_club_parser(sub)


_ADDERS = (
    (("lab", "report", "selfplay"), _add_lab),
    (("demo",), _add_demo),
    (("replay",), _add_replay),
    (("play",), _add_play),
    (("deck",), _add_deck),
    (("run",), _add_run),
    (("config",), _add_config),
    (("enroll",), _add_enroll),
    (("doctor",), _add_doctor),
    (("unpair",), _add_unpair),
    (("club",), _add_club),
)
"""Who adds each command's parser: imported and called only for the command typed."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The `companion` command line: one subparser per command, each with its ``func``, in
    the command line's language (`speaking`). Given the ``command`` typed, only its own
    parser is built (with what it imports); the others are their `summary` line, so that
    ``--help`` imports no game, lab or server."""
    parser = argparse.ArgumentParser(prog="companion", description=said("cli.description"))
    sub = parser.add_subparsers(dest="command", required=True)
    for names, add in _ADDERS:
        if command is None or command in names:
            add(sub)
        else:
            for name in names:
                sub.add_parser(name, help=summary(name))
    return parser


def _typed_command(argv: Sequence[str]) -> str:
    """The command word of `argv` ("" when none: ``companion --help``)."""
    return next((word for word in argv if not word.startswith("-")), "")


def command_name(args: argparse.Namespace) -> str:
    """The command as a person typed it (``config check``), for messages."""
    name = str(getattr(args, "command", "") or "")
    sub = getattr(args, "config_command", None)
    return f"{name} {sub}" if sub else name


def run_command(args: argparse.Namespace) -> int:
    """Run the parsed command's ``func``; what it did not foresee becomes one line on
    stderr, never a traceback (``COMPANION_DEBUG=1`` shows the traceback, for developers).
    Ctrl-C exits 130 as a shell expects."""
    name = command_name(args)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("\n" + said("cli.interrupted", command=name), file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(said("cli.unexpected", command=name, kind=type(exc).__name__, error=exc),
              file=sys.stderr)  # fmt: skip
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """The `companion` command: parse (argparse exits 2 on a bad option), then run, in
    the command line's language (`command_language`)."""
    words = sys.argv[1:] if argv is None else argv
    with speaking(command_language(words)):
        return run_command(build_parser(_typed_command(words)).parse_args(words))


if __name__ == "__main__":
    sys.exit(main())
