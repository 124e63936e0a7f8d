"""Guided enrolment: tap each token on the pad once, so the registry learns its tag.

``enroll_session`` is independent of the command line: it takes any ``Readers`` source
(the pad is reader 0), a ``TagRegistry`` and a list of steps ``(prompt, kind)``, and talks
through a ``say`` callback. For each step it waits for exactly one new tag to rest on the
pad, records it, and refuses with a clear message a tag already enrolled or two tags at
once. A step that reads no tag within ``timeout`` seconds ends the session with a message.

``add_enroll_parser`` adds the ``companion enroll`` subcommand; ``add_doctor_parser`` (from
doctor.py, re-exported here) adds ``companion doctor``.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.devices.doctor import add_doctor_parser
from companion.devices.readers import LinkStatus, Observation, ReaderFault, Readers, SpotContents
from companion.devices.registry import RegistryError, TagRegistry, check_kind

__all__ = [
    "Step",
    "EnrollResult",
    "enroll_session",
    "game_steps",
    "add_enroll_parser",
    "add_doctor_parser",
    "default_data_dir",
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


class _Timeout(Exception):
    """A wait ran out; the message says what was awaited."""


class _Pad:
    """The pad's latest contents, fed from the observation queue."""

    def __init__(
        self,
        inbox: queue.Queue[Observation],
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
            self.say(f"the pad reader is not answering ({obs.code}): check its cable")
        elif isinstance(obs, LinkStatus) and not obs.connected:
            self.say(f"reader link down: {obs.reason}")

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
    wait for a tag in each step (a step retried after a refusal gets a fresh timeout).
    """
    plan = [s if isinstance(s, Step) else Step(*s) for s in steps]
    for step in plan:
        check_kind(step.kind)  # fail before anyone taps anything
    inbox: queue.Queue[Observation] = queue.Queue()
    result = EnrollResult()
    source.start(inbox)
    try:
        state = _Pad(inbox, pad, say, clock)
        number = 0
        try:
            until = clock() + timeout
            while not state.seen:  # the pad's first report: a token left on it is not a tap
                state.wait(until, "a first report from the pad reader")
            for number, step in enumerate(plan, 1):
                uid = _one_step(state, registry, step, number, len(plan), say, timeout, settle)
                result.enrolled.append((uid, step.kind))
        except _Timeout as exc:
            result.complete = False
            where = f" at step {number} ({plan[number - 1].prompt})" if number else ""
            result.reason = (
                f"timed out after {timeout:g} s waiting for {exc}{where}; is the pad reader "
                "connected and the token's tag working? Try `companion doctor`."
            )
            say(result.reason)
            return result
        say(f"done: {len(result.enrolled)} tag(s) enrolled in {registry.path}")
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
        say("take every token off the pad")
        until = pad.clock() + timeout
        while pad.uids:
            pad.wait(until, "the pad to be cleared")
    say(f"[{number}/{total}] {step.prompt}")
    until = pad.clock() + timeout
    while True:
        pad.wait(until, "a tag on the pad")
        uids = pad.settled(settle)
        if not uids:
            continue
        if len(uids) > 1:
            say(
                f"{len(uids)} tags at once on the pad ({', '.join(sorted(uids))}): "
                "leave exactly one token on the pad"
            )
        else:
            (uid,) = uids
            try:
                registry.enroll(uid, step.kind)
            except RegistryError as exc:
                say(f"refused: {exc}")
            else:
                say(f"recorded {uid} as {step.kind}; take it off the pad")
                return uid
        # A refusal: wait until the pad is cleared, then read again with a fresh timeout.
        until = pad.clock() + timeout
        while pad.uids:
            pad.wait(until, "the pad to be cleared")
        say(f"[{number}/{total}] {step.prompt}")
        until = pad.clock() + timeout


# ---- steps --------------------------------------------------------------------------------------
GAME_TOKENS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ptipasspass": ("animal", ("colombe", "lapin", "souris")),
    "phipasspass": ("colour", ("bleu", "orange", "vert")),
}


def game_steps(game: str, seats: int, each: int = 1) -> list[Step]:
    """One step per token of every seat: "seat 1: tap seat 1's Colombe on the pad"."""
    family, tokens = GAME_TOKENS[game]
    steps = []
    for seat in range(1, seats + 1):
        for token in tokens:
            for copy in range(each):
                suffix = f" ({copy + 1} of {each})" if each > 1 else ""
                steps.append(
                    Step(
                        f"tap seat {seat}'s {token.capitalize()}{suffix} on the pad",
                        f"{family}:{token}",
                    )
                )
    return steps


def kind_steps(specs: Sequence[str]) -> list[Step]:
    """Steps from ``KIND`` or ``KIND*COUNT`` arguments (``animal:lapin*6``)."""
    steps = []
    for spec in specs:
        kind, _, count_text = spec.partition("*")
        count = int(count_text) if count_text else 1
        check_kind(kind)
        for i in range(count):
            suffix = f" ({i + 1} of {count})" if count > 1 else ""
            steps.append(Step(f"tap a {kind} token{suffix} on the pad", kind))
    return steps


# ---- command line -------------------------------------------------------------------------------
def default_data_dir() -> Path:
    """``$COMPANION_DATA``, else ``~/.local/share/tabletop-companion``."""
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "tabletop-companion"


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", help="serial device of the Pico (default: found by USB id)")
    parser.add_argument(
        "--spi",
        metavar="BUS.DEV",
        help="use an MFRC522 wired to the Pi's SPI as the pad instead of the Pico, e.g. 0.0",
    )
    parser.add_argument(
        "--rst", type=int, default=None, help="BCM GPIO of the MFRC522 reset line (with --spi)"
    )


def make_source(args: argparse.Namespace) -> Readers:
    """The Readers back end chosen by ``--port`` / ``--spi`` (serial by default)."""
    if args.spi:
        from companion.devices.spi_readers import SpiReaders

        if args.rst is None:
            raise SystemExit("--spi needs --rst (the BCM GPIO wired to the readers' RST)")
        bus, _, dev = args.spi.partition(".")
        return SpiReaders([(int(bus), int(dev or 0))], pin_rst=args.rst)
    from companion.devices.serial_link import SerialLink

    return SerialLink(args.port)


def _enroll_command(args: argparse.Namespace) -> int:
    def err(message: str) -> int:
        print(f"companion enroll: {message}", file=sys.stderr)
        return 2

    try:
        registry = TagRegistry(args.data)
        if args.forget:
            for uid in args.forget:
                print(f"forgot {uid} ({registry.forget(uid)})")
            return 0
        if args.list:
            for uid, kind in sorted(registry.items(), key=lambda item: item[1]):
                print(f"{uid}  {kind}")
            return 0
        if args.game:
            steps = game_steps(args.game, args.seats, args.each)
        else:
            steps = kind_steps(args.kinds)
    except KeyError as exc:
        return err(f"no such tag {exc}")
    except (RegistryError, ValueError) as exc:
        return err(str(exc))
    if not steps:
        return err("nothing to enrol: give --game and --seats, or token kinds")
    try:
        source = make_source(args)
        result = enroll_session(
            source, registry, steps, timeout=args.timeout, say=lambda text: print(text, flush=True)
        )
    except RuntimeError as exc:
        return err(str(exc))
    return 0 if result.complete else 1


def add_enroll_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion enroll`` to ``subparsers`` (``func`` takes the Namespace, returns the
    exit code: 0 done, 1 stopped early, 2 bad input)."""
    p = subparsers.add_parser(
        "enroll",
        help="teach the companion your tokens' tags, one tap on the pad each",
        description=(
            "Guided enrolment: the companion names a token, you put it alone on the pad "
            "(reader 0), it records the tag's UID and kind in the tag registry "
            "(<data>/tags.json)."
        ),
    )
    p.add_argument(
        "kinds",
        nargs="*",
        metavar="KIND[*N]",
        help="token kinds to enrol, e.g. animal:lapin*6 colour:bleu",
    )
    p.add_argument(
        "--game", choices=sorted(GAME_TOKENS), help="enrol every seat's tokens of this game"
    )
    p.add_argument("--seats", type=int, default=4, help="number of seats (with --game)")
    p.add_argument(
        "--each", type=int, default=1, help="copies of each token per seat (with --game, default 1)"
    )
    p.add_argument(
        "--data",
        type=Path,
        default=default_data_dir(),
        help="data directory holding tags.json (default $COMPANION_DATA or "
        "~/.local/share/tabletop-companion)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds to wait for a tag at each step (default 30)",
    )
    p.add_argument("--forget", nargs="+", metavar="UID", help="remove these tags and exit")
    p.add_argument("--list", action="store_true", help="print the registry and exit")
    add_reader_arguments(p)
    p.set_defaults(func=_enroll_command)
