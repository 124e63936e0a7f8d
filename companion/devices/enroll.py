"""Guided enrolment: tap each token on the pad once, so the registry learns its tag.

``enroll_session`` is independent of the command line: it takes any ``Readers`` source
(the pad is reader 0), a ``TagRegistry`` and a list of steps ``(prompt, kind)``, and talks
through a ``say`` callback. For each step it waits for exactly one new tag to rest on the
pad, records it, and refuses with a clear message a tag already enrolled or two tags at
once. A step that reads no tag within ``timeout`` seconds ends the session with a message.

``add_enroll_parser`` adds the ``companion enroll`` subcommand, which writes the registry
of the one data directory `companion run` reads (``companion.config.data_dir.locate_data_dir``);
``add_doctor_parser`` (from doctor.py, re-exported here) adds ``companion doctor``.
"""

from __future__ import annotations

import argparse
import queue
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import games
from companion.cli_words import language, os_error, said, text_of
from companion.config import load_config
from companion.config.data_dir import locate_data_dir
from companion.config.model import Config, ConfigError
from companion.config.pins import MAX_GPIO
from companion.devices.doctor import add_doctor_parser, add_port_option
from companion.devices.readers import LinkStatus, ReaderFault, Readers, Reported, SpotContents
from companion.devices.registry import RegistryError, TagRegistry, check_kind
from companion.devices.words import say as told
from companion.doc_paths import CONFIG_DOC, TABLE_DOC
from companion.options import (
    add_config_option,
    add_data_dir_option,
    fail,
    positive_seconds,
    whole_number,
)

__all__ = [
    "Step",
    "EnrollResult",
    "enroll_session",
    "game_steps",
    "add_enroll_parser",
    "add_doctor_parser",
]


@dataclass(frozen=True, slots=True)
class Step:
    """One token to enrol: what to tell the players, and the kind to record."""

    prompt: str
    kind: str


@dataclass(slots=True)
class EnrollResult:
    """What a session did: ``enrolled`` (uid, kind) pairs in order; ``complete`` is False
    when it stopped early (``reason`` says why)."""

    enrolled: list[tuple[str, str]] = field(default_factory=list)
    complete: bool = True
    reason: str = ""


MAX_EACH = 10
"""`--each`'s bound: copies of each token per seat (a table keeps a spare or two at most)."""
MAX_TAPS = 1000
"""The most tokens one session asks for (`KIND*N`): a table's whole material is far fewer
(a deck of 52 cards), and every step is held in memory before the first tap."""
FIRST_REPORT = 10.0
"""Seconds to wait for the pad reader's first report (a Pico answers within a second or
two; `--timeout` is the wait for a person's tap, which may be long)."""


class _Timeout(Exception):
    """A wait ran out; the message says what was awaited."""


class _Pad:
    """The pad's latest contents, fed from the observation queue."""

    def __init__(
        self,
        inbox: queue.Queue[Reported],
        pad: int,
        say: Callable[[str], None],
        clock: Callable[[], float],
    ) -> None:
        self.inbox = inbox
        self.pad = pad
        self.say = say
        self.clock = clock
        self.uids: frozenset[str] = frozenset()
        self.seen = False
        self.changed_at = clock()
        self.link_down: str | None = None
        """Why the link is down, as it last said (None: up, or nothing said yet)."""

    def wait(self, until: float, waiting_for: str) -> None:
        """Take one observation (or raise ``_Timeout`` at ``until``) and fold it in."""
        left = until - self.clock()
        if left <= 0:
            raise _Timeout(waiting_for)
        try:
            obs = self.inbox.get(timeout=min(left, 0.05))
        except queue.Empty:
            return
        if isinstance(obs, SpotContents) and obs.reader == self.pad:
            self.seen = True
            if obs.uids != self.uids:
                self.uids = obs.uids
                self.changed_at = self.clock()
        elif isinstance(obs, ReaderFault) and obs.reader == self.pad:
            self.say(told("pad_silent", code=obs.code))
        elif isinstance(obs, LinkStatus):
            self.link_down = None if obs.connected else obs.reason
            if not obs.connected:
                self.say(told("link_down", reason=obs.reason))

    def settled(self, settle: float) -> frozenset[str] | None:
        """The contents once unchanged for ``settle`` seconds, else None."""
        return self.uids if self.clock() - self.changed_at >= settle else None


def enroll_session(
    source: Readers,
    registry: TagRegistry,
    steps: Sequence[Step | tuple[str, str]],
    *,
    say: Callable[[str], None] = print,
    timeout: float = 30.0,
    settle: float = 0.3,
    pad: int = 0,
    clock: Callable[[], float] = time.monotonic,
) -> EnrollResult:
    """Run the steps in order on the pad of ``source`` (started and stopped here).

    A step completes when the pad holds one tag, not enrolled yet, unchanged for ``settle``
    seconds; the tag must then leave the pad before the next step. ``timeout`` bounds the
    wait for a tag in each step (a step retried after a refusal gets a fresh timeout); the
    wait for the pad's first report is at most `FIRST_REPORT` seconds.
    """
    plan = [s if isinstance(s, Step) else Step(*s) for s in steps]
    for step in plan:
        check_kind(step.kind)  # fail before anyone taps anything
    inbox: queue.Queue[Reported] = queue.Queue()
    result = EnrollResult()
    source.start(inbox)
    try:
        state = _Pad(inbox, pad, say, clock)
        number = 0
        first = min(timeout, FIRST_REPORT)
        try:
            until = clock() + first
            while not state.seen:  # the pad's first report: a token left on it is not a tap
                state.wait(until, told("first_report"))
            for number, step in enumerate(plan, 1):
                uid = _one_step(state, registry, step, number, len(plan), say, timeout, settle)
                result.enrolled.append((uid, step.kind))
        except _Timeout as exc:
            result.complete = False
            if number:
                result.reason = told("timed_out_step", timeout=timeout, what=exc, number=number,
                                    prompt=plan[number - 1].prompt)  # fmt: skip
            else:
                why = (
                    told("link_why", reason=state.link_down) if state.link_down
                    else told("firmware")
                )  # fmt: skip
                result.reason = told("timed_out", timeout=first, what=exc, why=why)
            say(result.reason)
            return result
        say(told("done", n=len(result.enrolled), path=registry.path))
        return result
    finally:
        source.stop()


def _one_step(
    pad: _Pad,
    registry: TagRegistry,
    step: Step,
    number: int,
    total: int,
    say: Callable[[str], None],
    timeout: float,
    settle: float,
) -> str:
    if pad.uids:
        say(told("clear"))
        until = pad.clock() + timeout
        while pad.uids:
            pad.wait(until, told("cleared"))
    say(told("step", number=number, total=total, prompt=step.prompt))
    until = pad.clock() + timeout
    while True:
        pad.wait(until, told("a_tag"))
        uids = pad.settled(settle)
        if not uids:
            continue
        if len(uids) > 1:
            say(told("several", n=len(uids), uids=", ".join(sorted(uids))))
        else:
            (uid,) = uids
            try:
                registry.enroll(uid, step.kind)
            except RegistryError as exc:
                say(told("refused", why=exc))
            else:
                say(told("recorded", uid=uid, kind=step.kind))
                return uid
        # A refusal: wait until the pad is cleared, then read again with a fresh timeout.
        until = pad.clock() + timeout
        while pad.uids:
            pad.wait(until, told("cleared"))
        say(told("step", number=number, total=total, prompt=step.prompt))
        until = pad.clock() + timeout


# ---- steps --------------------------------------------------------------------------------------
def game_steps(
    game: str, seats: int, each: int = 1, rules: Mapping[str, Any] | None = None
) -> list[Step]:
    """One step per token the game needs, in its descriptor's order: "tap seat 1's
    Stone on the pad" for a seat's own token, "tap card QH (7 of 52) on the pad" for a
    shared one, counted among the shared tokens of its family (the kind's part before
    ":"), named as the game's `TokenFamily` says. ``rules``: the game's own (a deck's
    size)."""
    descriptor = games.get(game)
    tokens = descriptor.tokens(seats, rules)
    own = {family.name: family for family in descriptor.token_families}
    nouns = {name: text_of(family.enrolled_as) for name, family in own.items()}
    families = Counter(_family(kind) for seat, kind in tokens if seat is None)
    done: Counter[str] = Counter()
    steps: list[Step] = []
    for seat, kind in tokens:
        family, word = _family(kind), kind.split(":", 1)[-1]
        named = own.get(family)
        name = text_of(named.token_name(word)) if named else word[:1].upper() + word[1:]
        for copy in range(each):
            if seat is None:
                done[family] += 1
                noun = nouns.get(family, family)
                count = told("of", n=done[family], total=families[family] * each)
                what = " ".join(filter(None, (noun, name)))
                steps.append(Step(told("tap_shared", what=what, count=count), kind))
            else:
                suffix = " " + told("of", n=copy + 1, total=each) if each > 1 else ""
                steps.append(Step(told("tap_seat", seat=seat + 1, name=name, count=suffix), kind))
    return steps


def _family(kind: str) -> str:
    """A kind's family: "card" of "card:QH", "" of a kind without one."""
    family, colon, _ = kind.partition(":")
    return family if colon else ""


def kind_steps(specs: Sequence[str]) -> list[Step]:
    """Steps from ``KIND`` or ``KIND*COUNT`` arguments (``family:name*6``), at most
    `MAX_TAPS` in all; a bad count or kind raises ``ValueError`` naming the argument."""
    counts = [_kind_count(spec) for spec in specs]
    total = sum(count for _, count in counts)
    if total > MAX_TAPS:
        raise ValueError(told("too_many", total=total, max=MAX_TAPS))
    steps = []
    for kind, count in counts:
        check_kind(kind)
        for i in range(count):
            suffix = " " + told("of", n=i + 1, total=count) if count > 1 else ""
            steps.append(Step(told("tap_kind", kind=kind, count=suffix), kind))
    return steps


def _kind_count(spec: str) -> tuple[str, int]:
    """``KIND*N`` as (KIND, N), N from 1 to `MAX_TAPS` (1 without ``*N``); a ValueError
    naming the argument otherwise."""
    kind, star, count_text = spec.partition("*")
    try:
        count = int(count_text) if star else 1
    except ValueError:  # not a number, or more digits than int() reads
        count = 0
    if not 1 <= count <= MAX_TAPS:
        raise ValueError(told("count_fix", spec=spec, max=MAX_TAPS, kind=kind))
    return kind, count


# ---- command line -------------------------------------------------------------------------------
def spi_spot(text: str) -> tuple[int, int]:
    """An argparse ``type=`` for ``--spi BUS.DEV`` (e.g. ``0.0``; ``0`` means ``0.0``)."""
    bus, _, dev = text.partition(".")
    if not (bus.isdigit() and (dev.isdigit() or not dev)) or int(bus) > 6 or int(dev or 0) > 6:
        raise argparse.ArgumentTypeError(said("cli.reader.spi_fix", text=repr(text)))
    return int(bus), int(dev or 0)


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    add_port_option(parser)
    parser.add_argument("--spi", metavar="BUS.DEV", type=spi_spot, help=said("cli.reader.spi"))
    parser.add_argument(
        "--rst",
        type=whole_number(0, MAX_GPIO),
        default=None,
        metavar=said("cli.metavar.n"),
        help=said("cli.reader.rst", max=MAX_GPIO),
    )


def make_source(args: argparse.Namespace) -> Readers:
    """The Readers back end chosen by ``--port`` / ``--spi`` (serial by default); a
    RuntimeError saying why at once when there is no Pico or ``--port`` cannot be opened."""
    if args.spi:
        from companion.devices.spi_readers import SpiReaders

        return SpiReaders([args.spi], pin_rst=args.rst)
    from companion.devices.serial_link import SerialLink, no_pico, pico_problem

    problem = pico_problem(args.port)
    if problem is not None:
        if args.port is not None:
            raise RuntimeError(f"--port {problem}")
        if problem == no_pico():
            problem = told("no_pico_port", problem=problem)
        raise RuntimeError(problem)
    return SerialLink(args.port)


def _options_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options as a whole (argparse checked each alone), or None."""
    if args.spi and args.rst is None:
        return told("spi_rst")
    if args.game:
        game = games.get(args.game)
        if args.seats is None:
            args.seats = game.default_seats
        if args.seats not in game.seats:
            players = games.players_said(game, language())
            return told("seats", seats=args.seats, game=args.game, players=players)
    return None


def _open_registry(args: argparse.Namespace) -> tuple[TagRegistry, Config] | str:
    """The tag registry of the data directory (see `companion.config.data_dir.locate_data_dir`)
    and the config, or one line saying why they cannot be used."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        first = exc.problems[0] if exc.problems else str(exc)
        more = told("more", n=len(exc.problems) - 1) if len(exc.problems) > 1 else ""
        return told("bad_config", first=first, more=more)
    data = locate_data_dir(config, args.data_dir)
    problem = data.problem()
    if problem is not None:
        return problem
    try:
        return TagRegistry(data.path), config
    except RegistryError as exc:
        return str(exc)
    except OSError as exc:
        return told("cannot_read", path=data.path, why=os_error(exc))


def _enroll_command(args: argparse.Namespace) -> int:
    def err(message: str) -> int:
        return fail("enroll", message)

    problem = _options_problem(args)
    if problem is not None:
        return err(problem)
    opened = _open_registry(args)
    if isinstance(opened, str):
        return err(opened)
    registry, config = opened
    try:
        if args.forget:
            for uid in args.forget:
                print(told("forgot", uid=uid, kind=registry.forget(uid)))
            return 0
        if args.list:
            print(f"# {registry.path}")
            for uid, kind in sorted(registry.items(), key=lambda item: item[1]):
                print(f"{uid}  {kind}")
            return 0
        if args.game:
            # the config's own rules (a bigger deck) when it is that game's
            rules = config.game.rules if config.game.name == args.game else None
            steps = game_steps(args.game, args.seats, args.each, rules)
        else:
            steps = kind_steps(args.kinds)
    except KeyError as exc:
        return err(told("no_tag", uid=exc, path=registry.path))
    except (RegistryError, ValueError) as exc:
        return err(str(exc))
    except OSError as exc:
        return err(told("cannot_write", path=registry.path, why=os_error(exc)))
    if not steps:
        return err(told("nothing"))
    try:
        source = make_source(args)
        print(told("tags_go", path=registry.path), flush=True)
        result = enroll_session(
            source, registry, steps, timeout=args.timeout, say=lambda text: print(text, flush=True)
        )
    except RuntimeError as exc:
        return err(str(exc))
    except OSError as exc:
        return err(told("cannot_write", path=registry.path, why=os_error(exc)))
    return 0 if result.complete else 1


def _kinds_help() -> str:
    """The kinds' help, from the registry: every game's token families."""
    known = ", ".join(text_of(family.shown) for family in games.token_families().values())
    return said("cli.enroll.kinds", max=MAX_TAPS, known=known)


def _seats_help() -> str:
    """--seats' help, from the registry: each game's default and range."""
    each = said("cli.semicolon").join(
        said("cli.enroll.seats_of", game=g.name, default=g.default_seats,
             range=games.players_said(g, language()))
        for g in map(games.get, games.names())
    )  # fmt: skip
    return said("cli.enroll.seats", each=each)


def add_enroll_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion enroll`` to ``subparsers`` (``func`` takes the Namespace, returns the
    exit code: 0 done, 1 stopped early, 2 bad input)."""
    p = subparsers.add_parser(
        "enroll",
        help=said("cli.summary.enroll"),
        description=said("cli.enroll.description", config=CONFIG_DOC, table=TABLE_DOC),
    )
    p.add_argument(
        "kinds",
        nargs="*",
        metavar=said("cli.metavar.kinds"),
        help=_kinds_help(),
    )
    p.add_argument("--game", choices=games.names(), help=said("cli.enroll.game"))
    p.add_argument(
        "--seats",
        type=whole_number(1),
        default=None,
        metavar=said("cli.metavar.n"),
        help=_seats_help(),
    )
    p.add_argument(
        "--each",
        type=whole_number(1, MAX_EACH),
        default=1,
        metavar=said("cli.metavar.n"),
        help=said("cli.enroll.each", max=MAX_EACH),
    )
    add_config_option(p)
    add_data_dir_option(p)
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=30.0,
        metavar=said("cli.metavar.seconds"),
        help=said("cli.enroll.timeout"),
    )
    p.add_argument("--forget", nargs="+", metavar="UID", help=said("cli.enroll.forget"))
    p.add_argument("--list", action="store_true", help=said("cli.enroll.list"))
    add_reader_arguments(p)
    p.set_defaults(func=_enroll_command)
