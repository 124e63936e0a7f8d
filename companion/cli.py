"""The `companion` command: one subcommand per job a table owner or developer does."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import games
from companion.config.bounds import SETTLE
from companion.config.model import GameConfig
from companion.doc_paths import JOURNAL_DOC, RULINGS_DOC, TABLE_DOC
from companion.options import (
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
    return (
        f"--first {first}: the first player is a seat from 1 to {players} "
        "(the one the game's rule book names)"
    )


def _players(args: argparse.Namespace) -> int:
    return int(args.players or games.get(args.game).default_seats)


def _unreadable(path: object, exc: OSError) -> str:
    """A file that cannot be opened, in one line (no errno noise)."""
    return f"cannot read {path}: {exc.strerror or exc}"


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
        return fail("demo", f"--out {problem} (it gets journal.jsonl and oled.gif)")
    try:
        run_demo(args.game, players, args.seed, out, args.lang, quiet=args.quiet)
    except OSError as exc:
        return fail("demo", f"--out {out}: cannot write there: {exc.strerror or exc}")
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
                replay(reader, args.json, spool)
            for warning in reader.warnings + reader.unended():
                print(f"companion replay: warning: {warning}", file=sys.stderr)
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout)
    except BrokenPipeError:  # the reader of our output stopped (`| head`): nothing to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (no second error at exit)
    except OSError as exc:
        return fail("replay", _unreadable(args.file, exc))
    except NotApplied as exc:
        return fail("replay", f"{exc}: a fault of the companion, please report it")
    except (JournalError, SetupError, BadInput, games.UnknownGame) as exc:
        return fail("replay", f"{exc} (the format: {JOURNAL_DOC})")
    return 0


def _play_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options of a new `play` game, or None."""
    if not args.sim:
        return "only --sim exists for now (a real table: companion run)"
    if args.speak:
        from companion.devices.sound import espeak_missing

        missing = espeak_missing()
        if missing is not None:
            return f"--speak: {missing}"
    if not args.resume and games.get(args.game).console is None:
        return f"--game {args.game}: no typed simulated table yet (try: companion demo)"
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
        return f"--journal {path} is a folder: give the journal file to resume"
    if path.exists() and not path.is_file():
        return f"--journal {path} is not a regular file: give the journal file to resume"
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
            language=args.lang, **_own_settings(args),
        )  # fmt: skip
        return Session.start(path, setup)
    except FileNotFoundError:
        if not args.resume:
            return f"--journal {path}: cannot write there: no such file or folder"
        return f"--journal {path}: no such file (start a new game: leave out --resume)"
    except FileExistsError as exc:
        return f"--journal {exc} (continue it: add --resume)"
    except OSError as exc:
        if args.resume:
            return f"--journal {_unreadable(path, exc)}"
        return f"--journal {path}: cannot write there: {exc.strerror or exc}"
    except NotApplied as exc:
        return f"--journal {exc}: a fault of the companion, please report it"
    except (JournalError, SetupError, BadInput, games.UnknownGame) as exc:
        return f"--journal {path}: {exc} (the format: {JOURNAL_DOC})"


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
        print(f"companion play: warning: {note}", file=sys.stderr)
    resume = f"companion play --sim --resume --journal {path}"
    print(f"journal: {path}\ncontinue later with: {resume}")
    lang = session.referee.setup.language
    console = games.get(session.referee.setup.game).console
    if console is None:
        session.close()
        return fail("play", f"{session.referee.setup.game} has no typed simulated table yet")
    voice = _voice(session) if args.speak else None
    finish = FINISH_SOUND
    try:
        from companion.sim.console import Prompted

        lines = Prompted(sys.stdin, sys.stdout) if sys.stdin.isatty() else sys.stdin
        return console(session, lines, sys.stdout, lang)
    except KeyboardInterrupt:  # Ctrl-C: every input is already journaled and fsync'd
        session.close()
        finish = 0.0
        print(f"\ncompanion play: interrupted; the game is saved, continue it with: {resume}",
              file=sys.stderr)  # fmt: skip
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
        offered = ", ".join(g for g in games.names() if games.get(g).printables) or "none"
        return fail("deck", f"{args.game} has nothing to print (games that do: {offered})")
    problem = output_file_problem(args.out)
    if problem:
        return fail("deck", f"--out {args.out}: {problem}")
    out = Path(args.out)
    try:
        written = printables.write(args, out)
    except ValueError as exc:
        return fail("deck", str(exc))
    except OSError as exc:
        return fail("deck", f"--out {out}: cannot write there: {exc.strerror or exc}")
    print(f"wrote {out}: {written}")
    return 0


def _seats_help() -> str:
    """The seat counts of every game, for --players' help."""
    ranges = "; ".join(
        f"{g.name} {g.players().removesuffix(' players')}, default {g.default_seats}"
        for g in map(games.get, games.names())
    )
    return f"number of seats ({ranges})"


def _add_game_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--game", choices=games.names(), default=games.DEFAULT_GAME)
    p.add_argument("--players", type=whole_number(1), default=None, help=_seats_help())
    p.add_argument("--seed", type=int, default=1, help=seed_help)
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="OLED language")


def _add_demo(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = sub.add_parser(
        "demo",
        help="a whole simulated game with bots: transcript, OLED frames, GIF and journal",
        description=(
            "Play a whole game on a simulated table with bot seats, through the real "
            "referee and screens. Prints what happens and every new OLED frame, and writes "
            "the journal and an animated GIF of the OLED to the output folder. The journal "
            f"format: {JOURNAL_DOC}; how the table is played: {TABLE_DOC}."
        ),
    )
    _add_game_options(demo, "seed of the bots and the tags (default 1)")
    demo.add_argument(
        "--out",
        type=path_text,
        default=None,
        help=f"output folder, created if needed; the folder above it must exist (default "
        f"{DEMO_OUT})",
    )
    demo.add_argument(
        "--quiet",
        action="store_true",
        help="print only the result and where the files are (no transcript, no frames)",
    )
    demo.set_defaults(func=_demo)


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rp = sub.add_parser(
        "replay",
        help="feed a journal through the referee and print what happened",
        description="Replay a journal (or a scenario file) through the same referee as a "
        "live table. --json prints one document {game, events, scores, winner}. The "
        f"journal and scenario format (UTF-8 JSON Lines): {JOURNAL_DOC}; the rulings the "
        f"events cite: {RULINGS_DOC}.",
    )
    rp.add_argument(
        "file", type=path_text, help=f"a journal or scenario file (UTF-8 JSON Lines, {JOURNAL_DOC})"
    )
    rp.add_argument("--json", action="store_true", help="print the replay document as JSON")
    rp.set_defaults(func=_replay)


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play",
        help="an interactive simulated table: type what your hands do, see the OLED",
        description="Type physical acts (drop, take, slide), presses (announce, the "
        "seats' buttons, choose, back) and waits; the referee judges them as on a real table and "
        "the OLED is drawn after each. Type help inside for the commands. Every input is "
        "journaled: after quit, Ctrl-C or a crash, --resume --journal FILE carries on. How "
        f"the table is played: {TABLE_DOC}; the journal format: {JOURNAL_DOC}; the rulings: "
        f"{RULINGS_DOC}.",
    )
    play.add_argument("--sim", action="store_true", help="use the simulated table")
    _add_game_options(play, "seed of the tags (default 1)")
    _add_setting_options(play)
    play.add_argument(
        "--settle",
        type=seconds_option(SETTLE),
        default=DEFAULTS.settle,
        help=f"seconds the table must be still before a change is judged: {SETTLE.low:g} to "
        f"{SETTLE.high:g} (default {DEFAULTS.settle:g}; game.settle of the config)",
    )
    play.add_argument(
        "--first",
        type=int,
        default=1,
        help="first player, a seat from 1 to the number of players: the one the game's "
        "rule book names (default 1)",
    )
    play.add_argument(
        "--journal",
        type=path_text,
        default=None,
        help=f"journal file to write, in a folder that exists (default {PLAY_JOURNAL}, out/ "
        "created if needed)",
    )
    play.add_argument(
        "--resume", action="store_true", help="continue the game of the journal (--journal)"
    )
    play.add_argument(
        "--speak",
        action="store_true",
        help="say the table's announcements aloud with espeak-ng (whose turn, verdicts, "
        "faults, the end; docs/table.md)",
    )
    play.add_argument(
        "--width",
        type=whole_number(20),
        default=None,
        help="the terminal's columns (default: its own, or COLUMNS); under 130 the OLED is "
        "drawn in braille, 66 columns wide",
    )
    play.set_defaults(func=_play)


def _add_setting_options(play: argparse.ArgumentParser) -> None:
    """``--<name>`` for each game's own setting that offers one (`TableSetting`), with the
    bounds of the config and the games that take it."""
    for name, setting in games.table_settings().items():
        if setting.option_help is None:
            continue
        default = setting.default
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        play.add_argument(
            f"--{name}",
            dest=_setting_dest(name),
            metavar=name.upper(),
            type=checked_option(setting.check, setting.fix),
            default=None,
            help=f"{setting.option_help} (default {shown}; game.{name} of the config; "
            f"{' and '.join(games.taking(name))} only)",
        )


def _add_deck(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    every = [games.get(name) for name in games.names()]
    offered = "; ".join(f"{g.name}, {g.printables.summary}" for g in every if g.printables)
    deck = sub.add_parser(
        "deck",
        help="write what a game has to print (a deck of cards...) in a file to print or to look at",
        description=(
            "Write what a game has to print, in a file to print or to look at: "
            f"{offered or 'no game has any'}. "
            "Each game's own options: companion deck GAME --help."
        ),
    )
    per_game = deck.add_subparsers(dest="game", metavar="GAME", required=True)
    for game in every:
        printables = game.printables
        if printables is None:  # listed, so that it says it has nothing to print
            parser = per_game.add_parser(game.name)
        else:
            parser = per_game.add_parser(
                game.name, help=printables.summary, description=printables.description
            )
        parser.add_argument(
            "--out",
            type=path_text,
            required=printables is not None,
            help="the file to write, in a folder that exists; its suffix says its kind (e.g. "
            "FILE.pdf to print)",
        )
        if printables is not None:
            printables.options(parser)
        parser.set_defaults(func=_deck)


SUMMARIES = {
    "lab": "play rule variants between bots on every core and report what the rules do",
    "report": "the lab's figures from journals of real games, with time per turn and faults",
    "selfplay": "play many games between bots and print the lab's figures (one variant)",
    "demo": "a whole simulated game with bots: transcript, OLED frames, GIF and journal",
    "replay": "feed a journal through the referee and print what happened",
    "play": "an interactive simulated table: type what your hands do, see the OLED",
    "deck": "write what a game has to print (a deck of cards...) in a file to print or to look at",
    "run": "the table service: readers, buttons and OLED (systemd runs it)",
    "config": "check the table configuration",
    "enroll": "teach the companion your tokens' tags, one tap on the pad each",
    "doctor": "check the Pico and every RFID reader, showing live tags",
    "unpair": "revoke the phones paired to the table's web page",
    "club": "the club night's board: every table live, results and standings, from the broker",
}
"""Each command's line in `companion --help` (a test holds them to each command's own)."""


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
    """The `companion` command line: one subparser per command, each with its ``func``.
    Given the ``command`` typed, only its own parser is built (with what it imports); the
    others are their `SUMMARIES` line, so that ``--help`` imports no game, lab or server."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A Raspberry Pi referee for physical game tables.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for names, add in _ADDERS:
        if command is None or command in names:
            add(sub)
        else:
            for name in names:
                sub.add_parser(name, help=SUMMARIES[name])
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
        print(f"\ncompanion {name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(
            f"companion {name}: unexpected error: {type(exc).__name__}: {exc} "
            "(COMPANION_DEBUG=1 shows where; please report it)",
            file=sys.stderr,
        )
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """The `companion` command: parse (argparse exits 2 on a bad option), then run."""
    words = sys.argv[1:] if argv is None else argv
    return run_command(build_parser(_typed_command(words)).parse_args(words))


if __name__ == "__main__":
    sys.exit(main())
