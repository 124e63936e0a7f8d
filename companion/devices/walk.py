"""``companion doctor --walk``: the builder walks the mat spot by spot; the table checks itself.

For the pad and then each spot in turn, the console and the OLED say "put a token on spot
7"; the walk waits for a new tag to appear, watches every reader while it rests there
(``hold`` seconds), says "take it off" and waits for it to go. From what each reader
reported it finds, naming the wires where it can (the pin map gives each reader's chip
select and connector):

- **swapped readers**: the token on spot a appeared on reader b and the one on spot b on
  reader a: their chip selects are crossed (two cables on each other's connectors, or two
  CS wires). The profile records the swap, so the service can play on until it is fixed;
- **a moved reader**: spot a's token appeared on reader b alone;
- **a neighbour that reads across**: another reader reported the token while it rested on
  its spot (fields coupled, or the antennas too close), or the Pico reported the spot's
  reader and another sharing one tag (``shared_<n>``: both read it, visit after visit);
- **an unreliable reader**: it lost the token while it rested (each loss the host sees is
  several missed scans in a row: the firmware debounces), reported a tag nobody placed, or
  failed and recovered: the signs of a noisy or floating MISO line;
- **a dead reader**: absent (no chip answers) through the whole walk.

Then (unless ``--no-settle``) it asks for tokens on the spots, as many as the builder has
and one per SPI bus at least, and once they lie still finds the tags' lowest power-up
wait that reads every one (the doctor's `SettleSearch`); the profile records it and the
wait recommended, which the service gives the Pico unless the config sets one by hand.

The walk ends with a verdict per reader and writes the table profile
(`companion.devices.profile`). `walk_session` takes any source of observations (a queue
fed by a `SerialLink`), a ``say`` for the console and a ``show`` for the OLED; the
command (`walk_command`) wires them to the Pico, the configured display and the data
directory.
"""

from __future__ import annotations

import argparse
import functools
import queue
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.cli_words import language, said
from companion.devices.profile import TableProfile, write_profile
from companion.devices.readers import (
    LinkStatus,
    ReaderFault,
    ReaderOk,
    Reported,
    SpotContents,
)
from companion.devices.words import walk_says as told
from companion.screens.text import DEFAULT_LANGUAGE
from companion.screens.walk import WalkScreen

PROMPTS = {
    "fr": {
        "clear": "Retirez tout jeton du tapis.",
        "put": "Posez un jeton sur {place}.",
        "hold": "Ne bougez pas le jeton.",
        "take": "Retirez le jeton de {place}.",
        "done": "Fin : {verdict}.",
        "ok": "tout va bien",
        "bad": "{n} problème(s), voir la console",
        "pad": "le pad",
        "spot": "la case {n}",
        "lay": "Posez des jetons sur les cases (au moins un par bus), puis n'y touchez plus.",
        "still": "Mesure du temps d'éveil des jetons : n'y touchez pas.",
    },
    "en": {
        "clear": "Take every token off the mat.",
        "put": "Put a token on {place}.",
        "hold": "Leave the token there.",
        "take": "Take the token off {place}.",
        "done": "Done: {verdict}.",
        "ok": "all is well",
        "bad": "{n} problem(s), see the console",
        "pad": "the pad",
        "spot": "spot {n}",
        "lay": "Lay tokens on the spots (one per bus at least), then leave them still.",
        "still": "Timing the tokens' power-up: do not touch them.",
    },
}


def _words(lang: str) -> dict[str, str]:
    return PROMPTS.get(lang, PROMPTS["en"])


def place(reader: int, lang: str = DEFAULT_LANGUAGE) -> str:
    words = _words(lang)
    return words["pad"] if reader == 0 else words["spot"].format(n=reader)


@dataclass
class Wiring:
    """What the pin map says of a reader, to name its wires."""

    cs: dict[int, int] = field(default_factory=dict)
    """Reader -> its chip select's Pico GPIO."""
    bus: dict[int, int] = field(default_factory=dict)
    """Reader -> its SPI bus (0 when not said)."""

    def cs_of(self, reader: int) -> str:
        pin = self.cs.get(reader)
        return f"GP{pin}" if pin is not None else "?"


FindSettle = Callable[[dict[int, frozenset[str]]], tuple[int, int] | None]
"""Finds the tags' lowest power-up wait on the readers' ``contents`` (kept up to date):
(lowest, recommended) in µs, None when no wait read every tag."""


@dataclass
class Step:
    """What the walk saw for one reader's spot."""

    reader: int
    token: str | None = None
    """The tag that appeared when the builder was asked to cover this spot."""
    seen_on: list[int] = field(default_factory=list)
    """Every reader that reported the token while it rested, the first first."""
    drops_on: dict[int, int] = field(default_factory=dict)
    """Times each reader lost the token while it rested."""
    lingered_on: set[int] = field(default_factory=set)
    """Readers still reporting the token after the time allowed to take it off."""
    shared_by: set[int] = field(default_factory=set)
    """Readers the Pico reported sharing the token (no UID then: ``token`` may be None)."""

    @property
    def appeared_on(self) -> int | None:
        """The reader that read the token: the spot's own if it did (whoever was faster),
        else the first that did."""
        if self.reader in self.seen_on:
            return self.reader
        return self.seen_on[0] if self.seen_on else None

    @property
    def also_on(self) -> set[int]:
        """The other readers that read it: across from their own spots."""
        return set(self.seen_on) - {self.appeared_on}

    @property
    def drops(self) -> int:
        return self.drops_on.get(self.appeared_on, 0) if self.appeared_on is not None else 0


@dataclass
class ReaderLog:
    faults: int = 0
    recoveries: int = 0
    phantoms: set[str] = field(default_factory=set)
    ever_ok: bool = False


@dataclass
class WalkResult:
    readers: int
    steps: list[Step]
    logs: dict[int, ReaderLog]
    findings: list[str]
    verdicts: dict[int, str]
    spot_of: dict[int, int]
    scans: int | None
    """Scans of each reader during one hold, when the Pico times itself."""
    settle: tuple[int, int] | None = None
    """The power-up wait measured: the lowest that read every token and the one
    recommended (µs); None when not measured."""

    @property
    def healthy(self) -> bool:
        return not self.findings

    def profile(self) -> TableProfile:
        details = []
        for step in self.steps:
            log = self.logs[step.reader]
            details.append(
                {
                    "reader": step.reader,
                    "verdict": self.verdicts[step.reader],
                    "read_by": step.appeared_on,
                    "also_read_by": sorted(step.also_on),
                    "drops": step.drops,
                    "faults": log.faults,
                    "recoveries": log.recoveries,
                    "phantoms": len(log.phantoms),
                }
            )
        return TableProfile(
            walked=datetime.now(UTC).isoformat(timespec="seconds"),
            readers=self.readers,
            healthy=self.healthy,
            findings=tuple(self.findings),
            spot_of=dict(self.spot_of),
            details=tuple(details),
            settle_us=self.settle[1] if self.settle else None,
            settle_lowest_us=self.settle[0] if self.settle else None,
        )


class Walk:
    """Feeds on observations (``inbox``) and keeps what each reader reported."""

    def __init__(
        self,
        inbox: queue.Queue[Reported],
        readers: int,
        say: Callable[[str], None],
        show: Callable[[WalkScreen], None] = lambda screen: None,
        *,
        hold: float = 3.0,
        timeout: float = 60.0,
        lang: str = DEFAULT_LANGUAGE,
        wiring: Wiring | None = None,
        scan_ms: Callable[[], float | None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        find_settle: FindSettle | None = None,
    ) -> None:
        self.inbox = inbox
        self.readers = readers
        self.say = say
        self.show = show
        self.hold = hold
        self.timeout = timeout
        self.lang = lang
        self.wiring = wiring or Wiring()
        self.scan_ms = scan_ms
        self.clock = clock
        self.find_settle = find_settle
        self.contents: dict[int, frozenset[str]] = {}
        self.changed_at = clock()
        """When a reader last reported other tags than before."""
        self.left: set[str] = set()
        """Tags left on the mat before the walk (no token of the walk)."""
        self.faulty: set[int] = set()
        self.logs = {r: ReaderLog() for r in range(readers)}
        self.known: set[str] = set()
        """Tags on the mat before the walk, and every token already walked."""
        self.sharing: dict[int, int] = {}
        """Readers the Pico reports sharing a tag with another (``shared_<n>``), by reader:
        the other. No failure of theirs: both read the tag."""
        self.step: Step | None = None
        self.holding = False

    # --- observations ----------------------------------------------------------------------
    def _take(self, obs: Reported) -> None:
        if isinstance(obs, LinkStatus):
            if not obs.connected:
                self.say(told("lost_link", reason=obs.reason))
            return
        if isinstance(obs, ReaderFault) and obs.across is not None:
            self._shared(obs.reader, obs.across)
            return
        if isinstance(obs, ReaderFault):
            if obs.reader in self.logs and obs.reader not in self.faulty:
                self.logs[obs.reader].faults += 1
            self.faulty.add(obs.reader)
            self.contents.pop(obs.reader, None)
            return
        if isinstance(obs, ReaderOk):
            if self.sharing.pop(obs.reader, None) is not None:
                return  # the tag is no longer read by both: its S frame follows
            if obs.reader in self.faulty and obs.reader in self.logs:
                self.logs[obs.reader].recoveries += 1
            self.faulty.discard(obs.reader)
            return
        if not isinstance(obs, SpotContents) or obs.reader not in self.logs:
            return
        self.faulty.discard(obs.reader)
        self.logs[obs.reader].ever_ok = True
        if self.contents.get(obs.reader) != obs.uids:
            self.changed_at = self.clock()
        self.contents[obs.reader] = obs.uids
        step = self.step
        if step is None:
            return
        new = set(obs.uids - self.known - ({step.token} if step.token else set()))
        if step.token is None and new:
            step.token = min(new)
            new.discard(step.token)
        self.logs[obs.reader].phantoms |= new
        if step.token is None:
            return
        if step.token in obs.uids and obs.reader not in step.seen_on:
            step.seen_on.append(obs.reader)
        elif self.holding and obs.reader in step.seen_on and step.token not in obs.uids:
            step.drops_on[obs.reader] = step.drops_on.get(obs.reader, 0) + 1

    def _shared(self, reader: int, other: int) -> None:
        """The Pico reports ``reader`` and ``other`` reading one tag: during a step, the
        token lies in both fields (the UID is not sent: neither reader says which spot
        holds it)."""
        self.sharing[reader] = other
        self.contents.pop(reader, None)
        step = self.step
        if step is None:
            return
        for r in (reader, other):
            if r in self.logs:  # a reader past the walked ones is not waited for
                if r not in step.seen_on:
                    step.seen_on.append(r)
                step.shared_by.add(r)

    def pump(self, seconds: float, until: Callable[[], bool] = lambda: False) -> bool:
        """Take observations for ``seconds`` or until ``until()``; whether it came true."""
        end = self.clock() + seconds
        while not until():
            left = end - self.clock()
            if left <= 0:
                return False
            try:
                self._take(self.inbox.get(timeout=min(left, 0.05)))
            except queue.Empty:
                continue
        return True

    def _where(self, step: Step) -> set[int]:
        """The readers still holding the step's token: reading it, or having shared it
        and not yet said what they hold since (their ``S`` frame, after ``E ok``, may
        still hold it: the firmware debounces a removal)."""
        held = {r for r, uids in self.contents.items() if step.token in uids}
        unsure = {r for r in step.shared_by if r in self.sharing or r not in self.contents}
        return held | unsure

    # --- the walk --------------------------------------------------------------------------
    def _prompt(self, index: int, text: str) -> None:
        self.say(text)
        self.show(WalkScreen(f"{index + 1}/{self.readers}", text))

    def run(self) -> WalkResult:
        words = _words(self.lang)
        known = self.pump(
            self.timeout,
            lambda: len(self.contents) + len(self.faulty) + len(self.sharing) >= self.readers,
        )
        if known:
            self.pump(min(1.0, self.timeout))  # the rest of the first snapshot
        if any(self.contents.values()):
            self._prompt(0, words["clear"])
            self.pump(self.timeout, lambda: not any(self.contents.values()))
        for uids in self.contents.values():
            self.known |= uids  # whatever stays is no token of the walk
        self.left = set(self.known)
        steps = []
        for reader in range(self.readers):
            step = Step(reader)
            self.step = step
            steps.append(step)
            where = place(reader, self.lang)
            self._prompt(reader, words["put"].format(place=where))
            wait = self.timeout
            if reader in self.faulty:  # absent now: its token can only show up elsewhere
                wait = min(self.timeout, 2 * self.hold)
                self.say(told("absent", reader=_name(reader), wait=wait))
            if not self.pump(wait, lambda s=step: bool(s.seen_on)):  # type: ignore[misc]
                self.say(told("nothing", wait=wait))
                self._prompt(reader, words["take"].format(place=where))
                self.step = None
                continue
            if step.token is None:
                both = said("cli.and").join(_name(r) for r in step.seen_on)
                self.say(told("sharing", both=both))
            else:
                self.say(told("reads", reader=_name(step.appeared_on), token=step.token))
            self.holding = True
            self._prompt(reader, words["hold"])
            self.pump(self.hold)
            self.holding = False
            self._prompt(reader, words["take"].format(place=where))
            if not self.pump(self.timeout, lambda s=step: not self._where(s)):  # type: ignore[misc]
                step.lingered_on = self._where(step)
            if step.token is not None:
                self.known.add(step.token)
            self.step = None
        settle, failed = self._settle() if self.find_settle else (None, False)
        result = judge(steps, self.logs, self.faulty, self.wiring, self.readers, self._scans())
        result.settle = settle
        if failed:
            result.findings.append(told("settle_failed"))
        verdict = words["ok"] if result.healthy else words["bad"].format(n=len(result.findings))
        self.show(WalkScreen("", words["done"].format(verdict=verdict)))
        return result

    def _settle(self) -> tuple[tuple[int, int] | None, bool]:
        """Tokens laid on the spots, one per bus at least where a bus has a reader that
        answers, then `find_settle` while they lie still: what it found (lowest,
        recommended), and whether it failed (no token laid is no failure)."""
        words = _words(self.lang)
        reading = [r for r in range(self.readers) if r in self.contents]
        needed = {self.wiring.bus.get(r, 0) for r in reading}

        def laid() -> set[int]:
            return {self.wiring.bus.get(r, 0) for r in reading if self.contents[r] - self.left}

        def still() -> bool:
            return self.clock() - self.changed_at >= self.hold

        if len(needed) > 1:
            spots = {
                b: [place(r, self.lang) for r in reading if self.wiring.bus.get(r, 0) == b]
                for b in sorted(needed)
            }
            buses = "; ".join(told("bus", bus=b, spots=", ".join(p)) for b, p in spots.items())
            self.say(told("buses", buses=buses))
        self._tell(words["lay"])
        if not self.pump(self.timeout, lambda: laid() >= needed and still()):
            if not laid():
                self.say(told("no_token", timeout=self.timeout))
                return None, False
            for bus in sorted(needed - laid()):
                self.say(told("no_token_bus", bus=bus))
            self.pump(self.timeout, still)
        self._tell(words["still"])
        assert self.find_settle is not None
        found = self.find_settle(self.contents)
        return found, found is None

    def _tell(self, text: str) -> None:
        self.say(text)
        self.show(WalkScreen("", text))

    def _scans(self) -> int | None:
        cycle = self.scan_ms()
        return None if not cycle else int(self.hold * 1000 / cycle)


def _name(reader: int | None) -> str:
    if reader is None:
        return told("no_reader")
    return told("pad_reader") if reader == 0 else told("reader", n=reader)


def judge(
    steps: Sequence[Step],
    logs: dict[int, ReaderLog],
    faulty: set[int],
    wiring: Wiring,
    readers: int,
    scans: int | None = None,
) -> WalkResult:
    """The findings of a walk, one sentence each, and a verdict per reader."""
    findings: list[str] = []
    verdicts = {r: "ok" for r in range(readers)}
    read_by = {s.reader: s.appeared_on for s in steps}
    spot_of: dict[int, int] = {}

    def bad(reader: int, verdict: str, text: str) -> None:
        if verdicts[reader] == "ok":
            verdicts[reader] = verdict
        findings.append(text)

    def wires(r: int) -> str:
        return told("wires", r=r, cs=wiring.cs_of(r))

    lang = language()
    for r in range(readers):
        log = logs[r]
        if r in faulty and not log.ever_ok and not log.recoveries:
            bad(r, "dead", told("dead", reader=_name(r), wires=wires(r)))
    for step in steps:
        r, b = step.reader, step.appeared_on
        if verdicts[r] == "dead" or b is None or b == r:
            continue
        if read_by.get(b) == r:
            if r < b:
                spot_of[r], spot_of[b] = b, r
                bad(r, "swapped", told("swapped", a=r, b=b, wires_a=wires(r), wires_b=wires(b)))
                verdicts[b] = "swapped"
        else:
            where = place(r, lang)
            bad(r, "moved", told("moved", place=where, reader=_name(b), wires=wires(r)))
    for step in steps:
        for other in sorted(step.also_on):
            where = place(step.reader, lang)
            bad(other, "reads across", told("across", reader=_name(other), place=where))
        for other in sorted(step.lingered_on):
            where = place(step.reader, lang)
            bad(other, "reads across", told("lingered", reader=_name(other), place=where))
    for r in range(readers):
        if verdicts[r] == "dead":
            continue
        log = logs[r]
        held = next((s for s in steps if s.appeared_on == r), None)
        drops = held.drops if held else 0
        signs = []
        if drops:
            signs.append(told("drops", n=drops))
        if log.phantoms:
            signs.append(told("phantoms", n=len(log.phantoms)))
        if log.recoveries or (log.faults and log.ever_ok):
            signs.append(told("recovered", faults=log.faults, recoveries=log.recoveries))
        if signs:
            shown = functools.reduce(lambda a, b: told("signs", a=a, b=b), signs)
            bad(r, "unreliable", told("unreliable", reader=_name(r), signs=shown, wires=wires(r)))
    for step in steps:
        r = step.reader
        if step.appeared_on is None and verdicts[r] == "ok":
            where = place(r, lang)
            bad(r, "no read", told("no_read", reader=_name(r), place=where, wires=wires(r)))
    return WalkResult(readers, list(steps), logs, findings, verdicts, spot_of, scans)


def report(result: WalkResult, say: Callable[[str], None]) -> None:
    say(told("summary"))
    for step in result.steps:
        r = step.reader
        line = told("verdict", reader=_name(r), verdict=told(f"verdict.{result.verdicts[r]}"))
        if step.appeared_on is not None:
            line += told("read_by", reader=_name(step.appeared_on), n=step.drops)
        say(line)
    if result.scans is not None:
        say(told("scans", scans=result.scans))
    if result.settle is not None:
        lowest, recommended = result.settle
        say(told("power_up", lowest=lowest, recommended=recommended))
    for finding in result.findings:
        say(told("finding", finding=finding))
    say(told("passed" if result.healthy else "failed"))


def walk_session(
    inbox: queue.Queue[Reported],
    readers: int,
    say: Callable[[str], None],
    show: Callable[[WalkScreen], None] = lambda screen: None,
    **options: Any,
) -> WalkResult:
    """Walk ``readers`` readers from the observations on ``inbox`` (see `Walk`)."""
    result = Walk(inbox, readers, say, show, **options).run()
    report(result, say)
    return result


# --- the command ---------------------------------------------------------------------------


def add_walk_options(p: argparse.ArgumentParser) -> None:
    """``companion doctor``'s options of the walk."""
    from companion.options import positive_seconds

    p.add_argument("--walk", action="store_true", help=said("cli.doctor.walk"))
    p.add_argument(
        "--hold",
        type=positive_seconds,
        default=3.0,
        metavar=said("cli.metavar.seconds"),
        help=said("cli.doctor.hold"),
    )
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=120.0,
        metavar=said("cli.metavar.seconds"),
        help=said("cli.doctor.walk_timeout"),
    )
    p.add_argument("--no-settle", action="store_true", help=said("cli.doctor.no_settle"))


def walk_command(
    args: argparse.Namespace, out: Any = None, make_link: Callable[..., Any] | None = None
) -> int:
    """``companion doctor --walk``: 0 when the table passed, 1 when not, 2 for a bad setup.
    ``out``: where to write (stdout); ``make_link``: (port, settings=...) -> the link (a
    `SerialLink`)."""
    from companion.config import load_config
    from companion.config.data_dir import locate_data_dir, make_data_dir
    from companion.config.model import ConfigError
    from companion.devices.display import Display
    from companion.devices.serial_link import SerialLink, find_pico, no_pico

    out = out or sys.stdout

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(said("cli.fail", command="doctor", message=exc), file=sys.stderr)
        return 2
    data = locate_data_dir(config, args.data_dir)
    problem = data.problem(writable=True)
    if problem is not None:
        print(said("cli.fail", command="doctor", message=problem), file=sys.stderr)
        return 2
    port = args.port
    if port is None:
        found = find_pico()
        if not found:
            say(no_pico())
            return 1
        port = found[0]
    wiring = _wiring(config)
    display = Display(config.display, config.game.language, data_dir=data.path)
    # The config's wait, else 300 µs: not an earlier walk's, which this one measures anew.
    settle_us = config.readers.settle()
    link = (make_link or SerialLink)(port, settings={"settle_us": settle_us})
    inbox: queue.Queue[Reported] = queue.Queue()
    link.start(inbox)
    try:
        deadline = time.monotonic() + 10.0
        while not link.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        if not link.connected:
            say(told("cannot_talk"))
            return 1
        from companion.devices import protocol

        link.send(protocol.conf("stats", 1))
        count = args.readers or (link.hello.readers if link.hello else None) or 1
        say(told("walking", count=count, port=port))

        def scan_ms() -> float | None:
            timing = link.timing
            return timing.cycle_us[1] / 1000 if timing else None

        def show(screen: WalkScreen) -> None:
            display.show(screen)

        def find_settle(contents: dict[int, frozenset[str]]) -> tuple[int, int] | None:
            from companion.devices.settle import SETTLE_CYCLES, SettleSearch

            cycles = args.find_settle or SETTLE_CYCLES
            search = SettleSearch(link, inbox, say, cycles, args.timeout, contents)
            if search.run() and search.lowest is not None and search.recommended is not None:
                return search.lowest, search.recommended
            return None

        result = walk_session(
            inbox,
            count,
            say,
            show,
            hold=args.hold,
            timeout=args.timeout,
            lang=language(),
            wiring=wiring,
            scan_ms=scan_ms,
            find_settle=None if args.no_settle else find_settle,
        )
    finally:
        link.stop()
        display.close()
    make_data_dir(data.path)
    path = write_profile(data.path, result.profile())
    say(told("written", path=path))
    return 0 if result.healthy else 1


def _wiring(config: Any) -> Wiring:
    """The chip selects of pins.toml, to name wires (none when it cannot be read)."""
    from companion.config.pins import REPOSITORY_PINS, default_pins
    from companion.kit.table import KitError, load_pico

    path = config.pins_path or default_pins(Path(".")) or REPOSITORY_PINS
    try:
        readers, _, _ = load_pico(Path(path))
    except (KitError, OSError):
        return Wiring()
    return Wiring({r.number: r.cs for r in readers}, {r.number: r.bus for r in readers})
