"""`companion run` from its arguments to its exit status.

Before anything starts, the command line, the config, the data directory and the
simulated input are checked (`prepare`): a problem is one line on stderr and exit 2. Then
(`serve`) the inputs start, the OLED opens, the power-on menu runs if it is on, the game
is resumed or set up, and the referee loop runs until SIGTERM/SIGINT, the end of the
script (script clock) or the end of the game (``--exit-when-finished``). Whatever
happens, everything started is stopped again and systemd is told. A device thread that
dies meanwhile (`companion.run.supervise`) ends it with status 1 and its Stop left on the
OLED until the service starts again.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from companion import menu as power_on
from companion.cli_words import os_error, said
from companion.config import load_config
from companion.config.data_dir import (
    DataDir,
    locate_data_dir,
    make_data_dir,
)
from companion.config.model import Config, ConfigError, DisplayConfig
from companion.config.sound import SoundConfig
from companion.devices.display import Display
from companion.devices.sound import Sound, espeak_missing
from companion.notify import Notifier
from companion.options import fail
from companion.run.clock import Clock
from companion.run.devices import Devices, Starter, start_inputs
from companion.run.game_start import open_session
from companion.run.items import Inbox
from companion.run.loop import Service, show_stop, where
from companion.run.power_on_menu import run_menu, start_menu, use_menu
from companion.run.sim_input import sim_input_problem
from companion.run.supervise import DeviceDied, ThreadDeaths
from companion.run.virtual_start import virtual_data_dir, virtual_problem, with_game
from companion.session import Session
from companion.speech import Speaker

if TYPE_CHECKING:
    from companion.club.link import TableLink
    from companion.run.web_port import WebPort

log = logging.getLogger("companion")

FINISH_SOUND = 10.0
"""Seconds the voice may finish its last sentence when the game (or the script) ended by
itself."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What `prepare` settled before anything starts."""

    config: Config
    data_dir: Path
    sim: bool
    """A simulated table (``--sim``, ``--sim-input``, or a config without hardware)."""
    display: DisplayConfig
    script_clock: bool
    """The simulated input's ``t`` is the clock (no clock thread)."""
    menu: bool
    """Show the power-on menu first."""
    sound: SoundConfig = SoundConfig()
    """The table's voice: ``--sound``, else the config's (a simulated table is silent
    unless asked)."""


def run(args: argparse.Namespace) -> int:
    """The `companion run` handler."""
    _setup_logging(getattr(args, "verbose", False))
    plan = prepare(args)
    return plan if isinstance(plan, int) else serve(plan, args)


def prepare(args: argparse.Namespace) -> Plan | int:
    """The `Plan`, or the exit status (2) of what stops `run` before anything starts."""
    if args.sim_clock == "script" and not args.sim_input:
        return _refuse(said("cli.run.script_input"))
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            log.error("config: %s", line)
        return _refuse(said("cli.run.bad_config"))
    virtual = getattr(args, "virtual", False)
    sim = bool(args.sim or args.sim_input or virtual or not config.hardware)
    given = (getattr(args, "game", None), getattr(args, "seats", None))
    if given != (None, None) and not sim:
        return _refuse(said("cli.run.sim_only"))
    chosen = with_game(config, *given)
    if isinstance(chosen, str):
        return _refuse(chosen)
    config = chosen
    if virtual:
        problem = virtual_problem(args, config)
        if problem is not None:
            return _refuse(problem)
    data = locate_data_dir(config, args.data_dir)
    if virtual:
        data = dataclasses.replace(data, path=virtual_data_dir(data.path, args.data_dir))
    problem = _start_problem(args, sim, data)
    if problem is not None:
        return _refuse(problem)
    display = _display_config(config, args.display or ("dummy" if virtual else None), sim)
    sound = _sound_config(config, args.sound, sim)
    missing = espeak_missing() if args.sound == "espeak-ng" and sound.on else None
    if missing is not None:  # asked on the command line: say so (the config's: a warning)
        return _refuse(f"--sound espeak-ng: {missing}")
    try:
        make_data_dir(data.path)
    except OSError as exc:
        return _refuse(said("cli.run.no_data_dir", path=data.path, why=os_error(exc)))
    script_clock = sim and args.sim_clock == "script"
    menu = use_menu(config, args, sim) and not virtual
    return Plan(config, data.path, sim, display, script_clock, menu, sound)


def _refuse(message: str) -> int:
    """One line on stderr for what the command line or the config asked wrongly; exit 2."""
    return fail("run", message)


def _start_problem(args: argparse.Namespace, sim: bool, data: DataDir) -> str | None:
    """What stops `run` before anything starts (a data directory it cannot use, a
    simulated input it cannot read), in one line; None when it may start."""
    problem = data.problem(writable=True)
    if problem is not None:
        return problem
    if sim and args.sim_input:
        return sim_input_problem(args.sim_input)
    return None


def _display_config(config: Config, driver: str | None, sim: bool) -> DisplayConfig:
    """The display to open: ``--display``, else the config's; a simulated table never
    opens a real OLED (luma's emulator when there is an X display, else the dummy)."""
    if sim:
        driver = driver or (
            config.display.driver
            if config.display.driver not in ("ssd1306", "sh1106")
            else ("emulator" if os.environ.get("DISPLAY") else "dummy")
        )
        return dataclasses.replace(config.display, driver=driver)
    if driver:
        return dataclasses.replace(config.display, driver=driver)
    return config.display


def _sound_config(config: Config, backend: str | None, sim: bool) -> SoundConfig:
    """The voice to open: ``--sound``, else the config's; a simulated table does not
    speak through the desktop's speakers unless ``--sound espeak-ng`` asks it to."""
    if backend is None and sim and config.sound.backend == "espeak-ng":
        backend = "none"
    return config.sound if backend is None else dataclasses.replace(config.sound, backend=backend)


@dataclass
class Running:
    """What `serve` opened, closed again in reverse order whatever happens."""

    notifier: Notifier = field(default_factory=Notifier)
    inbox: Inbox = field(default_factory=queue.Queue)
    devices: Devices = field(default_factory=Devices)
    display: Display | None = None
    sound: Sound | None = None
    session: Session | None = None
    web: WebPort | None = None
    club: TableLink | None = None
    keep_frame: bool = False
    """Leave the last frame on the OLED when closing it (a Stop, until the restart)."""
    finish_sound: float = 0.0
    """Seconds the voice may finish its last sentence when closing (a game that ended by
    itself; a stop signal cuts it)."""

    def close(self) -> None:
        self.devices.stop()
        if self.web is not None:
            self.web.stop()
        if self.club is not None:
            self.club.stop()
        if self.session is not None:
            self.session.close()
        if self.sound is not None:
            self.sound.close(finish=self.finish_sound)
        if self.display is not None:
            if self.keep_frame and self.display.device is not None:
                self.display.device.persist = True  # luma clears the screen otherwise
            self.display.close()
        self.notifier.close()


class StopSignals:
    """SIGTERM and SIGINT: during start-up they set `stopped`; `to` hands them to the
    loop; `restore` gives them back their previous handlers."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.previous = {
            sig: signal.signal(sig, lambda *_: self.stopped.set()) for sig in self.SIGNALS
        }

    def to(self, handler: Callable[[int, FrameType | None], object]) -> None:
        for sig in self.previous:
            signal.signal(sig, handler)

    def restore(self) -> None:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


def serve(plan: Plan, args: argparse.Namespace) -> int:
    """Start everything, play, stop everything: the exit status of `run`."""
    running = Running()
    signals = StopSignals()
    deaths = ThreadDeaths(running.inbox).install()
    try:
        if plan.sim:
            log.info("simulated table (data in %s)", plan.data_dir)
        if not start_inputs(
            running.devices,
            running.inbox,
            plan.config,
            sim=plan.sim,
            sim_input=args.sim_input,
            menu=plan.menu,
            data_dir=plan.data_dir,
            real_clock=not plan.script_clock,
        ):
            return 1
        running.display = _open_display(plan)
        choice: power_on.Result | None = None
        pending: list[Any] = []
        known: dict[int, frozenset[str]] = {}
        if plan.menu:
            choice, pending, known = _menu(plan, args, running, signals)
            if choice is None:
                died = next((i for i in pending if isinstance(i, DeviceDied)), None)
                if died is not None:
                    assert running.display is not None
                    running.keep_frame = True
                    return show_stop(died, running.display, running.notifier)
                log.info("stopped in the power-on menu")
                return 0
        running.session, opened = open_session(
            plan.config, args, plan.data_dir, running.inbox, plan.sim, choice, known
        )
        if isinstance(choice, power_on.NewGame) and choice.volume is not None:
            plan = dataclasses.replace(
                plan, sound=dataclasses.replace(plan.sound, volume=choice.volume)
            )
        return _play(plan, args, running, pending + opened, signals)
    except (ValueError, OSError, RuntimeError) as exc:  # JournalError, SetupError: ValueErrors
        log.error("%s", exc)
        return 1
    finally:
        signals.restore()
        running.close()
        deaths.restore()


def _open_display(plan: Plan) -> Display:
    """The OLED (or its stand-in); a simulated table also saves its last frame."""
    display = Display(
        plan.display,
        plan.config.game.language,
        data_dir=plan.data_dir,
        snapshot=plan.data_dir / "oled.png" if plan.sim else None,
    )
    display.open()
    return display


def _menu(
    plan: Plan, args: argparse.Namespace, running: Running, signals: StopSignals
) -> tuple[power_on.Result | None, list[Any], dict[int, frozenset[str]]]:
    """The power-on menu: (what was chosen, or None when stopped; the items the game
    must see; what the readers reported meanwhile)."""
    assert running.display is not None
    voice = plan.sound.volume if plan.sound.backend != "none" else None
    menu = start_menu(plan.config, args, plan.data_dir, plan.sim, voice)
    running.display.show(power_on.screen(menu))
    running.notifier.ready("power-on menu")
    log.info("power-on menu (resume offered: %s)", menu.resumable)
    menu = power_on.with_every_game(menu)  # after its first frame (inputs wait meanwhile)
    choice, menu, pending = run_menu(
        menu, running.inbox, running.display, running.notifier, signals.stopped.is_set
    )
    return choice, pending, {s: u for s, u in menu.table if u is not None}


def _play(
    plan: Plan,
    args: argparse.Namespace,
    running: Running,
    pending: list[Any],
    signals: StopSignals,
) -> int:
    """The referee loop on the opened session, until it stops."""
    assert running.session is not None and running.display is not None
    referee = running.session.referee
    running.display.language = referee.setup.language
    for item in pending:
        running.inbox.put_nowait(item)
    running.sound = Sound(plan.sound)
    running.sound.open(referee.setup.language)
    service = Service(
        running.session,
        running.inbox,
        running.display,
        running.notifier,
        script_clock=plan.script_clock,
        until_finished=args.exit_when_finished,
        watch=running.devices.dead,
        speaker=Speaker(referee, running.sound) if running.sound.enabled else None,
    )
    if running.sound.fault is not None:
        service.notes.append(running.sound.fault)
    if not plan.script_clock:
        running.devices.start(Starter(Clock(running.inbox)), running.inbox)
    signals.to(service.stop)
    service.stopping = signals.stopped.is_set()
    if service.speaker is not None:
        service.speaker.start()  # a new game's first instruction: no event says it
    service.refresh()
    running.notifier.ready(where(referee))
    log.info("ready: %s", where(referee))
    # The table referees from here (inputs wait in the inbox); its page and club link start
    # now, aiohttp's import being most of a start, and the loop's first step publishes.
    service.web = running.web = _start_web(plan, running)
    service.club = running.club = _start_club(plan, running)
    referee.warm_up()  # what the game builds for its inputs, not to show the table
    code = service.run()
    running.keep_frame = code != 0  # the Stop of a dead device stays until the restart
    if code == 0 and not service.stopping:
        running.finish_sound = FINISH_SOUND
    running.notifier.stopping(where(referee) if code == 0 else "")  # keep the STOP status
    log.info(
        "stopped: %s; ticks journaled %d, skipped %d",
        where(referee),
        service.journaled_ticks,
        service.skipped_ticks,
    )
    return code


def _start_web(plan: Plan, running: Running) -> WebPort | None:
    """The table's web page ([web]); a page that cannot listen is logged, the game goes
    on without it."""
    if not plan.config.web.enabled:
        return None
    assert running.session is not None
    from companion.run.web_port import WebPort  # the page's server, only when it is on

    referee = running.session.referee
    web = WebPort(
        plan.config.web, plan.data_dir, referee, running.inbox, virtual=referee.setup.virtual
    )
    web.log_codes = plan.sim  # a desktop has no OLED across the table: its log shows the code
    try:
        web.start()
    except OSError as exc:
        log.error("%s; the game goes on without the web page ([web] in the config)", exc)
        return None
    running.devices.watch(web.server.thread)
    return web


def _start_club(plan: Plan, running: Running) -> TableLink | None:
    """The club's broker ([club], docs/club.md): paho-mqtt is imported only then. The link
    starts whatever the network does (its results wait in its outbox meanwhile)."""
    if plan.config.club is None:
        return None
    assert running.session is not None
    from companion.club.link import open_link

    return open_link(plan.config.club, plan.data_dir, running.session.referee, running.web)


def _setup_logging(verbose: bool) -> None:
    under_systemd = "JOURNAL_STREAM" in os.environ or "INVOCATION_ID" in os.environ
    fmt = "%(levelname)s %(name)s: %(message)s"
    if not under_systemd:
        fmt = "%(asctime)s " + fmt
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO, format=fmt, stream=sys.stderr, force=True
    )
