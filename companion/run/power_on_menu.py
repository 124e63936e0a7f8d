"""The power-on menu, run on the game's queue and display before the game starts.

The power-on menu (docs/table.md, "Starting a game"; ``companion/menu.py``). When the console
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
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import menu as power_on
from companion.config.model import Config, ConfigError
from companion.config.pins import check_pins
from companion.devices.controls import EdgeFilter, EncoderTurn, Press
from companion.devices.display import Display
from companion.devices.readers import (
    ButtonEvent,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    SpotContents,
)
from companion.journal import Input, PressInput, ReaderInput, SpotInput
from companion.notify import Notifier
from companion.run.game_start import archive_over, finished_game
from companion.run.items import Inbox, Scripted, ScriptEnd, ScriptSetup
from companion.run.journal_file import (
    clear_torn_setup,
    in_the_way,
    journal_live,
    recover,
)
from companion.run.loop import where
from companion.run.supervise import DeviceDied

log = logging.getLogger("companion")


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
            check_pins(config.pins, n, config.display, config.readers, "pins", config.game.name)
        except ConfigError:
            continue
        return n
    return seats


def start_menu(
    config: Config,
    args: argparse.Namespace,
    data_dir: Path,
    sim: bool,
    volume: int | None = None,
) -> power_on.Menu:
    """The menu at power-on. With ``--resume``, an unfinished journal is offered first (a
    finished one is archived); without, a finished one is archived too and an unfinished
    one refused.
    ``volume``: the voice's, when the table has one (the menu then asks it)."""
    path = data_dir / config.journal_path.name
    resumable = False
    if args.resume:
        clear_torn_setup(path)
    if journal_live(path) and not args.resume:
        over = finished_game(path)  # a finished game is archived; an unfinished one kept
        if over is None:
            raise in_the_way(path)
        archive_over(over, config)
    if journal_live(path):
        resumable = _unfinished(path, config)
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
        layout=g.settings.get("layout"),
        volume=volume,
    )


def _unfinished(path: Path, config: Config) -> bool:
    """Is the journal's game still on? A finished one is archived."""
    replayed = recover(path)
    referee = replayed.referee
    if referee.finished:
        archive_over(replayed, config)
        return False
    log.info("unfinished game in %s: %s", path, where(referee))
    return True


def run_menu(
    menu: power_on.Menu,
    inbox: Inbox,
    display: Display,
    notifier: Notifier,
    stopped: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[power_on.Result | None, power_on.Menu, list[Any]]:
    """The menu's loop, on the game's queue and display: (what was chosen, or None when
    stopped, the simulated input ended or a device thread died (its `DeviceDied` last in
    the items); the last menu; the items the game must see)."""
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
        if isinstance(item, ScriptEnd) and item.error:  # the input's thread died
            log.error("simulated input: %s", item.error)
            item = DeviceDied("sim-input", item.error)
        if isinstance(item, DeviceDied):  # no game without it: the caller shows the Stop
            return None, menu, [*kept, item]
        if isinstance(item, ScriptEnd):
            log.info("simulated input ended in the power-on menu")
            return None, menu, kept
        menu, keep = menu_item(menu, item, buttons, clock())
        if keep:
            kept.append(item)
    log.info("power-on menu: %s", menu.result)
    return menu.result, menu, kept


def menu_item(
    menu: power_on.Menu, item: Any, buttons: EdgeFilter, now: float
) -> tuple[power_on.Menu, bool]:
    """One queue item applied to the menu; True when the game needs it too (a reader
    fault, the link's state), so it is kept for when the game starts."""
    if isinstance(item, ButtonEvent):
        pressed = buttons.edge(item.name, item.down, now)
        return (menu, False) if pressed is None else menu_item(menu, pressed, buttons, now)
    if isinstance(item, Scripted):
        return _scripted(menu, item.record), False
    if isinstance(item, ScriptSetup):
        log.info("a setup line in the simulated input is ignored: the menu sets the game up")
        return menu, False
    return _device_item(menu, item)


def _device_item(menu: power_on.Menu, item: Any) -> tuple[power_on.Menu, bool]:
    """What the encoder, the buttons and the readers do to the menu (see `menu_item`)."""
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
    return menu, False


def _scripted(menu: power_on.Menu, record: Input) -> power_on.Menu:
    """A simulated-input line in the menu: the encoder's presses and the readers' reports."""
    if isinstance(record, PressInput):
        if record.control == "aim" and isinstance(record.value, int):
            return power_on.turn(menu, record.value)
        if record.control == "choose":
            return power_on.push(menu)
        if record.control == "back":
            return power_on.back(menu)
        log.warning("the menu ignores a scripted %s press", record.control)
        return menu
    if isinstance(record, SpotInput):
        return power_on.table(menu, record.spot, record.uids)
    if isinstance(record, ReaderInput) and not record.ok:
        return power_on.table(menu, record.spot, None)
    return menu
