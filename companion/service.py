"""`companion run`: the service of a real table (and its simulated twin on a desktop).

One referee loop owns all state. Device threads (gpiozero callbacks, the Pico's serial
link, the clock, the simulated input source) only put items on one ``queue.Queue``; the
loop takes them in order, stamps each with ``t`` (seconds since the game started), turns
it into a journal input, feeds the ``Session`` (journal first, fsync'd, then the referee),
redraws the OLED when the screen changed and pings the systemd watchdog.

Time. ``t = time.monotonic() - origin``, where the origin is chosen so that a resumed game
continues its time line from the last journaled ``t``. The clock thread puts a tick every
0.1 s; every tick goes to the referee (deadlines: the settle time, the end of a challenge
window, the 300 ms call grace), but only a tick that changed something besides the
referee's notion of "now" is journaled. A tick that changed nothing cannot matter to a
replay: the next input carries a later ``t`` and the referee only keeps the latest.

Resume. ``run --resume`` (the systemd unit always passes it) replays the journal of the
data directory, waits up to ``readers.resume_wait`` seconds for the readers' first report
and records a ``resume`` input with what they see, then goes on live; the OLED shows where
the game stands. Without a journal, or when its game is over (the old journal is moved to
``archive/``), a new game starts with the config's game, seats and first player.

The power-on menu (TABLE.md, "Starting a game"; ``companion/menu.py``). When the console
has controls (``[controls] enabled`` and a pin map with the encoder), the OLED first shows
the menu, driven by the encoder (turn: choose, push: confirm, long push or back: one step
back) on the same queue as the game: the game, the number of seats, the first player,
then "put every token in front of its owner, hats empty"; the game starts as soon as every
spot reads empty (with no readers configured, a push starts it). With ``--resume`` and an
unfinished journal, the menu first offers "resume" / "new game" (a new game moves the old
journal to ``archive/``). ``--no-menu`` skips the menu (today's start: resume, or a new
game from the config); so does a console without controls. ``--menu`` forces it, also on
the simulated table, whose script then drives it with these journal lines:

    {"type":"press","control":"aim","value":1}      the encoder turned 1 detent (-1: back)
    {"type":"press","control":"choose"}             the encoder pushed: confirm
    {"type":"press","control":"back"}               one step back
    {"type":"spot","spot":3,"uids":[]}              a reader's report (the ready step)

Everything after the menu has started the game goes to the game as usual. Seat buttons
are started for every seat the pin map wires (the menu may seat more players than the
config names); a seat button beyond the game's players means nothing.

The simulated table (``--sim``, or a config without hardware). The display is luma's
emulator or dummy device (the last frame is also saved as ``oled.png`` in the data
directory), there are no GPIO buttons and no readers; inputs come from ``--sim-input PATH``
(a file, a FIFO, or ``-`` for stdin): journal lines, exactly as ARCHITECTURE.md's
"Journal and replay format" (``spot``, ``press``, ``reader``, ``tick``; blank lines and
lines starting with ``#`` are skipped). A first ``setup`` line sets up a new game (it is
ignored when resuming). With ``--sim-clock real`` (the default) each line happens when it
is read and its ``t`` is ignored; with ``--sim-clock script`` the lines' own ``t`` are the
game's clock (no clock thread): the same script always gives the same game, and the
service stops when the script ends.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import queue
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from companion import menu as power_on
from companion.config import load_config
from companion.config.data_dir import (
    DataDir,
    data_dir_unwritable,
    folder_problem,
    locate_data_dir,
)
from companion.config.model import Config, ConfigError
from companion.config.pins import check_pins
from companion.devices.controls import (
    EdgeFilter,
    EncoderTurn,
    GpioControls,
    Press,
    press_input,
    turn_input,
)
from companion.devices.display import Display
from companion.devices.readers import (
    ButtonEvent,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    SpotContents,
)
from companion.doc_paths import CONFIG_DOC, JOURNAL_DOC, TABLE_DOC
from companion.games import TableReferee, make_referee
from companion.games import get as get_game
from companion.journal import (
    Input,
    JournalError,
    PressInput,
    ReaderInput,
    Setup,
    SpotInput,
    TickInput,
    parse_input,
    parse_setup,
    read_journal,
)
from companion.notify import Notifier
from companion.options import add_config_option, add_data_dir_option
from companion.session import Session

log = logging.getLogger("companion")

TICK = 0.1
"""Seconds between clock ticks."""


# --------------------------------------------------------------------------- queue items


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock thread's beat."""


@dataclass(frozen=True, slots=True)
class Scripted:
    """A journal input read by the simulated input source (``t`` is the script's)."""

    record: Input


@dataclass(frozen=True, slots=True)
class ScriptSetup:
    """The simulated input's first line was a setup."""

    setup: Setup


@dataclass(frozen=True, slots=True)
class ScriptEnd:
    """The simulated input ended (end of file, or the FIFO's writer closed it)."""

    error: str | None = None


class Clock:
    """Puts a ``Tick`` on the queue every ``period`` seconds until stopped."""

    def __init__(self, sink: queue.Queue[Any], period: float = TICK) -> None:
        self.sink = sink
        self.period = period
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="clock", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            self.sink.put_nowait(Tick())

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=1.0)


def script_items(lines: IO[str], name: str) -> Iterator[ScriptSetup | Scripted]:
    """The queue items of a simulated-table script: journal lines (blank lines and ``#``
    comments skipped), each parsed as a setup or an input. Raises `JournalError` naming
    the line for a line that is not one, or for text that is not UTF-8."""
    number = 0
    try:
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise ValueError("not a JSON object")
                data.setdefault("t", 0.0)
                if data.get("type") == "setup":
                    yield ScriptSetup(parse_setup(data))
                else:
                    yield Scripted(parse_input(data))
            except ValueError as exc:  # JournalError is a ValueError
                raise JournalError(f"{name}:{number}: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise JournalError(
            f"{name}: not UTF-8 text (byte 0x{exc.object[exc.start]:02X}"
            f"{f' after line {number}' if number else ''}): save it as UTF-8"
        ) from exc


class ScriptSource:
    """The simulated table's input: journal lines from a file, a FIFO or stdin."""

    def __init__(self, path: str, sink: queue.Queue[Any]) -> None:
        self.path = path
        self.sink = sink
        self._thread = threading.Thread(target=self._run, name="sim-input", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            if self.path == "-":
                self._read(sys.stdin, "stdin")
            else:
                with open(self.path, encoding="utf-8") as f:
                    self._read(f, self.path)
        except OSError as exc:
            self.sink.put_nowait(ScriptEnd(f"cannot read {self.path}: {exc.strerror or exc}"))
            return
        except ValueError as exc:  # JournalError, or a decoding error it did not wrap
            self.sink.put_nowait(ScriptEnd(str(exc)))
            return
        self.sink.put_nowait(ScriptEnd())

    def _read(self, lines: IO[str], name: str) -> None:
        for item in script_items(lines, name):
            self.sink.put_nowait(item)


def sim_input_problem(path: str) -> str | None:
    """Why ``--sim-input`` cannot be read, found before the service starts (so a wrong
    path stops it at once instead of leaving it running on nothing), or None. A regular
    file is read through: every line must be a journal line. A FIFO or ``-`` (stdin) can
    only be read live; it is checked for existence and permission only."""
    if path == "-":
        return None
    where = Path(path)
    if not where.exists():
        return f"--sim-input {path}: no such file (give journal lines, see {JOURNAL_DOC})"
    if where.is_dir():
        return f"--sim-input {path} is a directory: give a file of journal lines"
    if not os.access(where, os.R_OK):
        return f"--sim-input {path}: not readable by this user"
    if not where.is_file():
        return None  # a FIFO: opening it would wait for its writer
    try:
        with open(where, encoding="utf-8") as f:
            for _ in script_items(f, path):
                pass
    except OSError as exc:
        return f"--sim-input cannot read {path}: {exc.strerror or exc}"
    except JournalError as exc:
        return f"--sim-input {exc} (the format: {JOURNAL_DOC})"
    return None


# --------------------------------------------------------------------------- the loop


def where(referee: TableReferee) -> str:
    """Where the game stands, in one line for the log and the systemd status."""
    return referee.where()


class Service:
    """The referee loop. ``run`` returns when stopped, or the game ends (``until_finished``),
    or the script ends (script clock)."""

    def __init__(
        self,
        session: Session,
        inbox: queue.Queue[Any],
        display: Display,
        notifier: Notifier,
        *,
        script_clock: bool = False,
        until_finished: bool = False,
        origin: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        spots: int | None = None,
    ) -> None:
        self.session = session
        self.referee = session.referee
        self.inbox = inbox
        self.display = display
        self.notifier = notifier
        self.script_clock = script_clock
        self.until_finished = until_finished
        self.clock = clock
        self.last_t = self.referee.now
        self.origin = clock() - self.last_t if origin is None else origin
        self.spots = self.referee.spots if spots is None else spots
        self.pico_buttons = EdgeFilter(bounce=0.0)
        self.link_down = False
        self.stopping = False
        self.journaled_ticks = 0
        self.skipped_ticks = 0
        self._status = ""

    def now(self) -> float:
        self.last_t = max(self.last_t, round(self.clock() - self.origin, 3))
        return self.last_t

    def stop(self, *_: object) -> None:
        self.stopping = True

    # -------------------------------------------------------------- conversion

    def inputs_of(self, item: Any) -> list[Input]:
        """The journal inputs of one queue item (none for what means nothing now)."""
        referee = self.referee
        if isinstance(item, Scripted):
            record = item.record
            if self.script_clock:
                self.last_t = max(self.last_t, record.t)
                return [dataclasses.replace(record, t=self.last_t)]
            if isinstance(record, TickInput):
                return []
            return [dataclasses.replace(record, t=self.now())]
        if isinstance(item, Tick):
            return [TickInput(self.now())]
        if isinstance(item, Press):
            press = press_input(item, self.now(), referee.announce_values, referee.aim)
            if press is None or (press.seat is not None and press.seat >= len(referee.setup.seats)):
                return []  # nothing here, or the button of a seat nobody sits at in this game
            return [press]
        if isinstance(item, EncoderTurn):
            choices = referee.encoder_choices()
            if not choices:
                return []
            turn = turn_input(item, self.now(), choices, referee.aim)
            return [] if turn is None else [turn]
        if isinstance(item, SpotContents):
            return [SpotInput(self.now(), item.reader, item.uids)]
        if isinstance(item, ReaderFault):
            log.warning("reader %d: %s", item.reader, item.code)
            return [ReaderInput(self.now(), item.reader, False)]
        if isinstance(item, ReaderOk):
            return [ReaderInput(self.now(), item.reader, True)]
        if isinstance(item, ButtonEvent):
            pressed = self.pico_buttons.edge(item.name, item.down, self.clock())
            return [] if pressed is None else self.inputs_of(pressed)
        if isinstance(item, LinkStatus):
            return self._link(item)
        return []

    def _link(self, status: LinkStatus) -> list[Input]:
        """A lost link makes every reader silent (the referee says Stop) until it is back."""
        t = self.now()
        if not status.connected and not self.link_down:
            log.error("reader link lost: %s", status.reason or "no reason given")
            self.link_down = True
            return [ReaderInput(t, spot, False) for spot in range(self.spots + 1)]
        if status.connected:
            log.info(
                "reader link up: %s firmware %s, %s readers",
                status.port,
                status.firmware or "?",
                status.readers or "?",
            )
            if self.link_down:
                self.link_down = False
                return [ReaderInput(t, spot, True) for spot in range(self.spots + 1)]
        return []

    # -------------------------------------------------------------------- feed

    def feed(self, record: Input) -> None:
        if isinstance(record, TickInput):
            before = self.referee.moment()
            events = self.referee.feed(record)
            if events or self.referee.moment() != before:
                self.session.writer.write(record)  # before anything leaves the process
                self.journaled_ticks += 1
            else:
                self.skipped_ticks += 1
        else:
            events = self.session.feed(record)
        for event in events:
            log.info("event %s", json.dumps(event, separators=(",", ":")))

    # -------------------------------------------------------------------- loop

    def refresh(self) -> None:
        self.display.show(self.referee.screen)
        status = where(self.referee)
        if self.display.fault:
            status += f"; {self.display.fault}"
        if status != self._status:
            self._status = status
            self.notifier.status(status)

    def run(self) -> int:
        self.refresh()
        while not self.stopping:
            self.notifier.alive()
            try:
                item = self.inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(item, ScriptEnd):
                if item.error:
                    log.error("simulated input: %s", item.error)
                if self.script_clock:
                    log.info("simulated input ended")
                    break
                continue
            if isinstance(item, ScriptSetup):
                log.info("a setup line in the simulated input is ignored: a game is on")
                continue
            for record in self.inputs_of(item):
                self.feed(record)
            self.refresh()
            if self.until_finished and self.referee.finished:
                log.info("%s", where(self.referee))
                break
        return 0


# --------------------------------------------------------------------------- start-up


def new_setup(config: Config, tags: Mapping[str, str], seed: int | None = None) -> Setup:
    g = config.game
    kinds = {kind for _, kind in get_game(g.name).tokens(len(g.seats))}
    own = {uid: kind for uid, kind in tags.items() if kind in kinds}
    if not own:
        log.warning("no enrolled tag belongs to %s: enrol the tokens (companion enroll)", g.name)
    if seed is None:
        seed = g.seed if g.seed is not None else random.SystemRandom().randrange(2**31)
    return Setup(
        game=g.name,
        seats=g.seats,
        tags=own,
        first=g.first,
        seed=seed,
        window=g.window,
        settle=g.settle,
        doublon_min=g.doublon_min,
        language=g.language,
        layout=g.layout,
    )


def load_tags(data_dir: Path) -> Mapping[str, str]:
    """The tags `companion enroll` recorded in the data directory (none, logged, when its
    registry cannot be read)."""
    from companion.devices.registry import RegistryError, TagRegistry

    try:
        registry = TagRegistry(data_dir)
    except RegistryError as exc:
        log.error("%s", exc)
        return {}
    log.info("%d enrolled tag(s) in %s", len(registry), registry.path)
    return dict(registry)


def archive(path: Path) -> Path:
    """Move a finished game's journal aside (``archive/game-<time>.jsonl``)."""
    folder = path.parent / "archive"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}"
    os.replace(path, target)
    return target


def wait_for_table(
    inbox: queue.Queue[Any], spots: int, seconds: float
) -> tuple[dict[int, frozenset[str]], list[Any]]:
    """The readers' first report after a restart: (spot -> uids, the other items in order).
    Returns once every spot 0..N reported or after ``seconds``."""
    table: dict[int, frozenset[str]] = {}
    others: list[Any] = []
    deadline = time.monotonic() + seconds
    while len(table) < spots + 1:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            item = inbox.get(timeout=min(left, 0.1))
        except queue.Empty:
            continue
        if isinstance(item, SpotContents):
            table[item.reader] = item.uids
        elif not isinstance(item, Tick):
            others.append(item)
    return table, others


def _journal_live(path: Path) -> bool:
    return path.exists() and path.stat().st_size > 0


class Devices:
    """What `run` started, to stop it again in reverse order."""

    def __init__(self) -> None:
        self.started: list[Any] = []

    def start(self, device: Any, sink: queue.Queue[Any]) -> None:
        device.start(sink)
        self.started.append(device)

    def stop(self) -> None:
        for device in reversed(self.started):
            try:
                device.stop()
            except Exception as exc:  # stopping must go on
                log.warning("stopping %s: %s", type(device).__name__, exc)
        self.started = []


def _readers(config: Config) -> Any:
    r = config.readers
    if r.kind == "pico":
        from companion.devices.serial_link import SerialLink

        return SerialLink(r.port)
    if r.kind == "spi":
        from companion.devices.spi_readers import SpiReaders

        assert r.spi_rst is not None
        return SpiReaders(r.spi_spots, pin_rst=r.spi_rst)
    return None


# --------------------------------------------------------------------------- the menu


def use_menu(config: Config, args: argparse.Namespace, sim: bool) -> bool:
    """Show the power-on menu? ``--menu`` forces it, ``--no-menu`` skips it; otherwise
    only a real console whose controls include the encoder and its push shows it."""
    if getattr(args, "no_menu", False):
        return False
    if getattr(args, "menu", False):
        return True
    pins = config.pins
    return (
        not sim
        and config.controls.enabled
        and pins is not None
        and None not in (pins.encoder_a, pins.encoder_b, pins.encoder_push)
    )


def console_seats(config: Config) -> int:
    """How many seats the console has buttons for: the most seats (up to 6) whose pins
    the pin map wires without a clash (at least the config's seats)."""
    seats = len(config.game.seats)
    if config.pins is None:
        return power_on.MAX_SEATS
    for n in range(power_on.MAX_SEATS, seats, -1):
        try:
            check_pins(config.pins, n, config.display, config.readers, "pins")
        except ConfigError:
            continue
        return n
    return seats


def start_menu(
    config: Config, args: argparse.Namespace, data_dir: Path, sim: bool
) -> power_on.Menu:
    """The menu at power-on. With ``--resume``, an unfinished journal is offered first (a
    finished one is archived); without, an existing journal is refused as today."""
    path = data_dir / config.journal_path.name
    resumable = False
    if _journal_live(path):
        if not args.resume:
            raise FileExistsError(
                f"{path} holds a game: pass --resume to continue it, or move it away"
            )
        journal = read_journal(path)
        referee = make_referee(journal.setup)
        for record in journal.inputs:
            referee.feed(record)
        if referee.finished:
            log.info("the journal's game is over (%s); moved to %s", where(referee), archive(path))
        else:
            resumable = True
            log.info("unfinished game in %s: %s", path, where(referee))
    g = config.game
    hardware = not sim and config.controls.enabled and config.pins is not None
    return power_on.new_menu(
        g.name,
        g.seats,
        g.first,
        language=g.language,
        resumable=resumable,
        readers=not sim and config.readers.kind != "none",
        max_seats=console_seats(config) if hardware else power_on.MAX_SEATS,
        layout=g.layout,
    )


def menu_item(
    menu: power_on.Menu, item: Any, buttons: EdgeFilter, now: float
) -> tuple[power_on.Menu, bool]:
    """One queue item applied to the menu; True when the game needs it too (a reader
    fault, the link's state), so it is kept for when the game starts."""
    if isinstance(item, ButtonEvent):
        pressed = buttons.edge(item.name, item.down, now)
        return (menu, False) if pressed is None else menu_item(menu, pressed, buttons, now)
    if isinstance(item, EncoderTurn):
        return power_on.turn(menu, item.steps), False
    if isinstance(item, Press):
        if item.name == "push":
            return (power_on.back(menu) if item.long else power_on.push(menu)), False
        if item.name == "back":
            return power_on.back(menu), False
        return menu, False
    if isinstance(item, SpotContents):
        return power_on.table(menu, item.reader, item.uids), False
    if isinstance(item, ReaderFault):
        return power_on.table(menu, item.reader, None), True
    if isinstance(item, ReaderOk):
        return menu, True
    if isinstance(item, LinkStatus):
        if not item.connected:  # every spot must report again
            menu = dataclasses.replace(menu, table=())
        return menu, True
    if isinstance(item, Scripted):
        record = item.record
        if isinstance(record, PressInput):
            if record.control == "aim" and isinstance(record.value, int):
                return power_on.turn(menu, record.value), False
            if record.control == "choose":
                return power_on.push(menu), False
            if record.control == "back":
                return power_on.back(menu), False
            log.warning("the menu ignores a scripted %s press", record.control)
            return menu, False
        if isinstance(record, SpotInput):
            return power_on.table(menu, record.spot, record.uids), False
        if isinstance(record, ReaderInput) and not record.ok:
            return power_on.table(menu, record.spot, None), False
        return menu, False
    if isinstance(item, ScriptSetup):
        log.info("a setup line in the simulated input is ignored: the menu sets the game up")
    return menu, False


def run_menu(
    menu: power_on.Menu,
    inbox: queue.Queue[Any],
    display: Display,
    notifier: Notifier,
    stopped: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[power_on.Result | None, power_on.Menu, list[Any]]:
    """The menu's loop, on the game's queue and display: (what was chosen, or None when
    stopped or the simulated input ended; the last menu; the items the game must see)."""
    buttons = EdgeFilter(bounce=0.0)
    kept: list[Any] = []
    while menu.result is None:
        # The menu is no game screen; Display.show only compares it and draws it through
        # render.draw, which draws menus too.
        display.show(power_on.screen(menu))
        notifier.status(f"power-on menu: {menu.step.value}")
        notifier.alive()
        if stopped():
            return None, menu, kept
        try:
            item = inbox.get(timeout=0.2)
        except queue.Empty:
            continue
        if isinstance(item, ScriptEnd):
            if item.error:
                log.error("simulated input: %s", item.error)
            log.info("simulated input ended in the power-on menu")
            return None, menu, kept
        menu, keep = menu_item(menu, item, buttons, clock())
        if keep:
            kept.append(item)
    log.info("power-on menu: %s", menu.result)
    return menu.result, menu, kept


def chosen_config(config: Config, choice: power_on.NewGame) -> Config:
    """The config with the menu's game, seats and first player (the config's own layout
    only if it was made for that game and number of seats)."""
    g = config.game
    same = choice.game == g.name and len(choice.seats) == len(g.seats)
    game = dataclasses.replace(
        g,
        name=choice.game,
        seats=choice.seats,
        first=choice.first,
        layout=g.layout if same else None,
    )
    return dataclasses.replace(config, game=game)


def _refuse(message: str) -> int:
    """One line on stderr for what the command line or the config asked wrongly; exit 2."""
    print(f"companion run: {message}", file=sys.stderr)
    return 2


def _start_problem(
    config: Config, args: argparse.Namespace, sim: bool, data: DataDir
) -> str | None:
    """What stops `run` before anything starts (a data directory it cannot use, a
    simulated input it cannot read), in one line; None when it may start."""
    problem = folder_problem(data.path) or data_dir_unwritable(data.path)
    if problem is not None:
        return f"data directory ({data.origin}): {problem}"
    if sim and args.sim_input:
        return sim_input_problem(args.sim_input)
    return None


def run(args: argparse.Namespace) -> int:
    """The `companion run` handler."""
    _setup_logging(getattr(args, "verbose", False))
    if args.sim_clock == "script" and not args.sim_input:
        return _refuse("--sim-clock script needs --sim-input (the script's t is the clock)")
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            log.error("config: %s", line)
        return _refuse("invalid configuration (see above; `companion config check`)")
    sim = bool(args.sim or args.sim_input or not config.hardware)
    data = locate_data_dir(config, args.data_dir)
    problem = _start_problem(config, args, sim, data)
    if problem is not None:
        return _refuse(problem)
    data_dir = data.path
    if sim:
        driver = args.display or (
            config.display.driver
            if config.display.driver not in ("ssd1306", "sh1106")
            else ("emulator" if os.environ.get("DISPLAY") else "dummy")
        )
        display_config = dataclasses.replace(config.display, driver=driver)
    else:
        display_config = config.display
        if args.display:
            display_config = dataclasses.replace(display_config, driver=args.display)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _refuse(f"cannot create the data directory {data_dir}: {exc.strerror or exc}")
    script_clock = sim and args.sim_clock == "script"

    menu_on = use_menu(config, args, sim)
    notifier = Notifier()
    inbox: queue.Queue[Any] = queue.Queue()
    devices = Devices()
    session: Session | None = None
    display: Display | None = None
    stop = threading.Event()
    previous = {
        sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)
    }
    try:
        if sim:
            log.info("simulated table (data in %s)", data_dir)
            if args.sim_input:
                devices.start(_Starter(ScriptSource(args.sim_input, inbox)), inbox)
        else:
            try:
                readers = _readers(config)
                if readers is not None:
                    devices.start(readers, inbox)
                if config.controls.enabled and config.pins is not None:
                    seats = console_seats(config) if menu_on else len(config.game.seats)
                    devices.start(GpioControls(config.pins, seats, config.controls), inbox)
            except Exception as exc:  # gpiozero, pyserial, mfrc522: say which, then stop
                log.error(
                    "cannot start the devices: %s: %s (companion config check; is "
                    "this a Raspberry Pi with GPIO access?)",
                    type(exc).__name__,
                    exc,
                )
                return 1
        display = Display(
            display_config,
            config.game.language,
            data_dir=data_dir,
            snapshot=data_dir / "oled.png" if sim else None,
        )
        display.open()
        choice: power_on.Result | None = None
        pending: list[Any] = []
        known: dict[int, frozenset[str]] = {}
        if menu_on:
            menu = start_menu(config, args, data_dir, sim)
            notifier.ready("power-on menu")
            log.info("power-on menu (resume offered: %s)", menu.resumable)
            choice, menu, pending = run_menu(menu, inbox, display, notifier, stop.is_set)
            if choice is None:
                log.info("stopped in the power-on menu")
                return 0
            known = {s: u for s, u in menu.table if u is not None}
        session, opened = _open_session(config, args, data_dir, inbox, sim, choice, known)
        pending += opened
        referee = session.referee
        display.language = referee.setup.language
        for item in pending:
            inbox.put_nowait(item)
        service = Service(
            session,
            inbox,
            display,
            notifier,
            script_clock=script_clock,
            until_finished=args.exit_when_finished,
        )
        if not script_clock:
            devices.start(_Starter(Clock(inbox)), inbox)
        for sig in previous:
            signal.signal(sig, service.stop)
        service.stopping = stop.is_set()
        service.refresh()
        notifier.ready(where(referee))
        log.info("ready: %s", where(referee))
        code = service.run()
        notifier.stopping(where(referee))
        log.info(
            "stopped: %s; ticks journaled %d, skipped %d",
            where(referee),
            service.journaled_ticks,
            service.skipped_ticks,
        )
        return code
    except (ValueError, OSError, RuntimeError) as exc:  # JournalError, SetupError: ValueErrors
        log.error("%s", exc)
        return 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        devices.stop()
        if session is not None:
            session.close()
        if display is not None:
            display.close()
        notifier.close()


class _Starter:
    """Adapts a thread with ``start()`` / ``stop()`` to the ``start(sink)`` of devices."""

    def __init__(self, thread: ScriptSource | Clock) -> None:
        self.thread = thread

    def start(self, sink: queue.Queue[Any]) -> None:
        self.thread.start()

    def stop(self) -> None:
        if isinstance(self.thread, Clock):
            self.thread.stop()


def _open_session(
    config: Config,
    args: argparse.Namespace,
    data_dir: Path,
    inbox: queue.Queue[Any],
    sim: bool,
    choice: power_on.Result | None = None,
    known: Mapping[int, frozenset[str]] | None = None,
) -> tuple[Session, list[Any]]:
    """Resume the journal or start a new game; also the queue items taken meanwhile.
    ``choice``: what the power-on menu chose (None: no menu, today's start); ``known``:
    what the readers reported during the menu."""
    path = data_dir / config.journal_path.name
    pending: list[Any] = []
    resume = args.resume if choice is None else isinstance(choice, power_on.Resume)
    if resume and _journal_live(path):
        journal = read_journal(path)
        referee = make_referee(journal.setup)
        for record in journal.inputs:
            referee.feed(record)
        if referee.finished:
            log.info("the journal's game is over (%s); moved to %s", where(referee), archive(path))
        else:
            table: dict[int, frozenset[str]] | None = None
            if not sim and config.readers.kind != "none":
                spots = referee.spots
                table = {s: u for s, u in (known or {}).items() if s <= spots}
                if len(table) < spots + 1:
                    waited, pending = wait_for_table(inbox, spots, config.readers.resume_wait)
                    table.update(waited)
                log.info("readers reported %d of %d spots before resuming", len(table), spots + 1)
            session = Session.resume(path, table or None)
            log.info("resumed %s: %s", path, where(session.referee))
            return session, pending
    elif _journal_live(path):
        if not isinstance(choice, power_on.NewGame):
            raise FileExistsError(
                f"{path} holds a game: pass --resume to continue it, or move it away"
            )
        log.info("a new game was chosen: the unfinished journal moved to %s", archive(path))
    setup: Setup | None = None
    if isinstance(choice, power_on.NewGame):
        setup = new_setup(chosen_config(config, choice), load_tags(data_dir))
    elif sim and args.sim_input:
        first = inbox.get()
        if isinstance(first, ScriptSetup):
            setup = first.setup
        else:
            pending.append(first)
    if setup is None:
        setup = new_setup(config, load_tags(data_dir))
    session = Session.start(path, setup)
    log.info(
        "new game in %s: %s, seats %s, seed %d",
        path,
        setup.game,
        ", ".join(setup.seats),
        setup.seed,
    )
    return session, pending


def _setup_logging(verbose: bool) -> None:
    under_systemd = "JOURNAL_STREAM" in os.environ or "INVOCATION_ID" in os.environ
    fmt = "%(levelname)s %(name)s: %(message)s"
    if not under_systemd:
        fmt = "%(asctime)s " + fmt
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO, format=fmt, stream=sys.stderr, force=True
    )


def add_run_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion run`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "run",
        help="the table service: readers, buttons and OLED (systemd runs it)",
        description="Referee a real table: read the readers and buttons, journal every input, "
        "draw the OLED. --resume continues the journal's game after a power cut (or starts "
        "a new one when there is none). The journal and the enrolled tags are in the data "
        "directory (--data-dir, else $COMPANION_DATA, else paths.data_dir of the config), "
        f"the same one `companion enroll` writes. The config: {CONFIG_DOC}; how each game's "
        f"table is played: {TABLE_DOC}. With --sim, or a config without hardware, the table "
        "is simulated: its inputs are journal lines from --sim-input (UTF-8 JSON Lines: "
        f"spot, press, reader, tick, and an optional first setup line; see {JOURNAL_DOC}).",
    )
    add_config_option(p)
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the journal's game (with the power-on menu: offer to continue it); "
        "a new game when there is none",
    )
    menu = p.add_mutually_exclusive_group()
    menu.add_argument(
        "--menu",
        action="store_true",
        help="show the power-on menu even without GPIO controls (a --sim-input script "
        "drives it with aim/choose/back presses)",
    )
    menu.add_argument(
        "--no-menu",
        action="store_true",
        help="no power-on menu: resume (--resume) or start the config's game at once",
    )
    p.add_argument("--sim", action="store_true", help="simulate the table (no hardware)")
    p.add_argument(
        "--sim-input",
        metavar="PATH",
        default=None,
        help=f"journal lines for the simulated table: a file, a FIFO or - (stdin); the "
        f"format: {JOURNAL_DOC}",
    )
    p.add_argument(
        "--sim-clock",
        choices=("real", "script"),
        default="real",
        help="real: lines happen when read; script: the lines' t is the clock and the "
        "service stops when the script ends (needs --sim-input)",
    )
    add_data_dir_option(p)
    p.add_argument(
        "--display",
        default=None,
        choices=("ssd1306", "sh1106", "emulator", "capture", "dummy", "none"),
        help="override the display driver",
    )
    p.add_argument(
        "--exit-when-finished",
        action="store_true",
        help="stop when the game is over (simulations, tests)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    p.set_defaults(func=run)


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
