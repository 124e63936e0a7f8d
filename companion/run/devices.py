"""The threads that feed the queue: started for `run`, stopped again in reverse order.

A real table starts its readers (a Pico on serial, or MFRC522s on the Pi's SPI) and its
GPIO controls; a simulated one its script (`ScriptSource`). Seat buttons are started for
every seat the pin map wires when the power-on menu may seat more players than the config
names (`console_seats`). The clock starts later, once the game is set up.

Every supervised thread started here (`companion.run.supervise`) is watched: the referee
loop asks `Devices.dead` at each tick whether one ended though nobody stopped it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from companion.config.model import Config
from companion.devices.controls import GpioControls
from companion.devices.profile import TableProfile, played_as, table_profile
from companion.run.clock import Clock
from companion.run.items import Inbox
from companion.run.power_on_menu import console_seats
from companion.run.sim_input import ScriptSource
from companion.run.supervise import DeviceDied, Watch

log = logging.getLogger("companion")


class Devices:
    """What `run` started, to stop it again in reverse order."""

    def __init__(self) -> None:
        self.started: list[Any] = []
        self.watched = Watch()

    def start(self, device: Any, sink: Inbox) -> None:
        device.start(sink)
        self.started.append(device)
        self.watched.add(getattr(device, "thread", None))

    def watch(self, thread: object) -> None:
        """Watch a supervised thread started elsewhere (the web page's)."""
        self.watched.add(thread)

    def dead(self) -> DeviceDied | None:
        """A watched thread that ended though not stopped (reported once), or None."""
        return self.watched.dead()

    def stop(self) -> None:
        for device in reversed(self.started):
            try:
                device.stop()
            except Exception as exc:  # stopping must go on
                log.warning("stopping %s: %s", type(device).__name__, exc)
        self.started = []


class Starter:
    """Adapts a thread with ``start()`` / ``stop()`` to the ``start(sink)`` of devices."""

    def __init__(self, source: ScriptSource | Clock) -> None:
        self.source = source

    def start(self, sink: Inbox) -> None:
        self.source.start()

    @property
    def thread(self) -> object:
        """The clock's supervised thread; the simulated input's is not ours to watch (it
        ends with its script; an exception that kills it reaches `ThreadDeaths`)."""
        return self.source.thread if isinstance(self.source, Clock) else None

    def stop(self) -> None:
        self.source.stop()


def start_inputs(
    devices: Devices,
    inbox: Inbox,
    config: Config,
    *,
    sim: bool,
    sim_input: str | None,
    menu: bool,
    data_dir: Path | None = None,
    real_clock: bool = True,
) -> bool:
    """Start what puts the table's inputs on ``inbox``; False (logged) when a device
    cannot start. ``data_dir``: where `companion doctor --walk` left the table profile
    (its power-up wait is used unless the config sets one; swapped readers are played as
    wired right until the wires are fixed). ``real_clock``: the simulated input's lines
    happen when they come (`ScriptSource`)."""
    if sim:
        if sim_input:
            source = ScriptSource(sim_input, inbox, real_clock=real_clock)
            devices.start(Starter(source), inbox)
        return True
    try:
        profile = table_profile(data_dir) if config.readers.kind != "none" else None
        readers = _readers(config, profile)
        if readers is not None:
            devices.start(played_as(readers, profile), inbox)
        if config.controls.enabled and config.pins is not None:
            seats = console_seats(config) if menu else len(config.game.seats)
            devices.start(GpioControls(config.pins, seats, config.controls), inbox)
    except Exception as exc:  # gpiozero, pyserial, mfrc522: say which, then stop
        log.error(
            "cannot start the devices: %s: %s (companion config check; is "
            "this a Raspberry Pi with GPIO access?)",
            type(exc).__name__,
            exc,
        )
        return False
    return True


def _readers(config: Config, profile: TableProfile | None = None) -> Any:
    """The configured readers (not started), or None; their power-up wait the config's,
    else the ``profile``'s (`ReadersConfig.settle`)."""
    r = config.readers
    if r.kind == "none":
        return None
    measured = profile.settle_us if profile else None
    settle_us = r.settle(measured)
    if r.settle_us is None and measured is not None:
        log.info("settle_us = %d µs, measured by the table profile's walk", settle_us)
    elif measured is not None and measured != settle_us:
        log.info(
            "settle_us = %d µs from the config (the table profile measured %d µs)",
            settle_us,
            measured,
        )
    if r.kind == "pico":
        from companion.devices.serial_link import SerialLink

        return SerialLink(r.port, settings={"settle_us": settle_us})
    if r.kind == "spi":
        from companion.devices.spi_readers import SpiReaders

        assert r.spi_rst is not None
        return SpiReaders(r.spi_spots, pin_rst=r.spi_rst, settle_us=settle_us)
    return None
