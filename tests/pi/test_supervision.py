"""Supervised device threads: a thread that dies is logged (never a UID or a token kind),
shown as a Stop naming the device, and ends `companion run` with status 1; nothing hangs.

Each thread dies for real: the Pico's link over a real pty whose read raises, the clock,
the simulated input (its file gone before it is opened, in the game and in the power-on
menu; bytes that are not text mid-game; an error nobody foresaw), a GPIO callback thread
that no code of ours started, the SPI readers on emulated chips, the web page.
`companion run` runs as a subprocess (a small driver injects the fault, then calls
`companion.cli.main`) with a timeout, so a hang fails; the loop itself runs in-process
under a timer that stops it.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion import games
from companion.config.model import DisplayConfig, WebConfig
from companion.devices.display import Display
from companion.journal import dump_lines
from companion.notify import Notifier
from companion.run.clock import Clock
from companion.run.devices import Devices, Starter
from companion.run.loop import Service
from companion.run.startup import Running
from companion.run.supervise import ENDED, DeviceDied, SupervisedThread, blank_secrets
from companion.run.web_port import WebPort
from companion.screens.device_stop import DeviceStopScreen
from companion.screens.render import frame
from companion.session import Session
from tests.devices.conftest import FakePico
from tests.pi.conftest import PINS, ROOT, service_env

UID = "04A1B2C3D4E5F6"
KIND = "animal:lapin"
TIMEOUT = 30.0
"""Seconds a `companion run` may take before the test calls it a hang."""

DRIVER = r"""
import sys
import threading

mode, argv = sys.argv[1], sys.argv[2:]
if mode == "serial-read":  # the Pico's port raises once it reads a BEL byte
    import serial

    read = serial.Serial.read

    def faulty_read(self, size=1):
        data = read(self, size)
        if b"\x07" in data:
            raise RuntimeError("injected fault after tag 04A1B2C3D4E5F6 (animal:lapin)")
        return data

    serial.Serial.read = faulty_read
elif mode == "clock":  # the fifth tick raises
    from companion.run import clock
    from companion.run.items import Tick

    ticks = iter(range(4))

    def tick():
        if next(ticks, None) is None:
            raise RuntimeError("injected fault in the clock")
        return Tick()

    clock.Tick = tick
elif mode == "file-removed":  # the script passes the start check, then is gone
    import os

    from companion.run import startup

    check = startup.sim_input_problem

    def check_then_remove(path):
        problem = check(path)
        os.remove(path)
        return problem

    startup.sim_input_problem = check_then_remove
elif mode == "script-raises":  # the input thread raises at the script's third line
    from companion.run import sim_input

    items = sim_input.script_items

    def failing(lines, name):
        for n, item in enumerate(items(lines, name)):
            if n == 2 and threading.current_thread() is not threading.main_thread():
                raise RuntimeError("injected fault reading the script")
            yield item

    sim_input.script_items = failing
elif mode == "gpio-callback":  # a button's callback raises in the thread that fires it
    from companion.devices import controls

    def broken(self, name, down, t):
        raise RuntimeError("injected fault in a button callback")

    controls.EdgeFilter.edge = broken
    start = controls.GpioControls.start

    def start_then_press(self, sink):
        start(self, sink)
        pin = self.devices[0].pin
        threading.Thread(target=pin.drive_low, name="gpio-callbacks", daemon=True).start()

    controls.GpioControls.start = start_then_press
from companion.cli import main

sys.exit(main(argv))
"""


def start(mode: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, mode, *args],
        env=service_env(GPIOZERO_PIN_FACTORY="mock"),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    """The exit status and the log; a run still going after `TIMEOUT` is a hang."""
    try:
        _, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"companion run hangs after its thread died:\n{err}") from None
    return proc.returncode, err


def run(mode: str, *args: str) -> tuple[int, str]:
    return finish(start(mode, *args))


def same_picture(shown: Image.Image, screen: Any, lang: str = "fr") -> bool:
    expected = frame(screen, lang).convert("1")
    return ImageChops.difference(shown.convert("1"), expected).getbbox() is None


def assert_stopped(code: int, log: str, data: Path, device: str) -> None:
    """Status 1, the log says so, the OLED's last frame (oled.png) is the device's Stop."""
    assert code == 1, log
    assert f"{device} is gone: the service stops with status 1" in log, log
    assert "Traceback" not in log, log
    assert same_picture(Image.open(data / "oled.png"), DeviceStopScreen(device))


def script(path: Path, game: str = "ptipasspass", lines: int = 6) -> Path:
    """A new game's setup line and a few presses, as a simulated table's input."""
    setup = games.get(game).simulated_setup(3, 5)
    presses = [{"t": 0.1 * (i + 1), "type": "press", "control": "back"} for i in range(lines)]
    text = "\n".join(list(dump_lines(setup, [])) + [json.dumps(p) for p in presses])
    path.write_text(text + "\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------- `companion run`


def test_a_serial_link_whose_read_raises_stops_the_service(tmp_path: Path) -> None:
    pico = FakePico(tmp_path)
    data = tmp_path / "data"
    config = tmp_path / "companion.toml"
    config.write_text(
        '[game]\nseats = ["Ana", "Bob", "Cy"]\nseed = 3\n[display]\ndriver = "capture"\n'
        f'[controls]\nenabled = false\n[readers]\nkind = "pico"\nport = "{pico.path}"\n'
        "[web]\nenabled = false\n"
    )
    try:
        proc = start("serial-read", "run", "--config", str(config), "--data-dir", str(data))
        try:
            pico.wait_command("SYNC", timeout=TIMEOUT)  # the link thread has the port open
            pico.write(b"\x07")
        finally:
            code, log = finish(proc)
    finally:
        pico.unplug()
    assert code == 1, log
    assert "device thread serial-link died: RuntimeError: injected fault after tag <uid>" in log
    assert "serial-link is gone: the service stops with status 1" in log
    assert UID not in log and KIND not in log and "Traceback" not in log, log
    last = max(data.glob("oled-*.png"))  # the capture driver: one PNG a frame, in order
    assert same_picture(Image.open(last), DeviceStopScreen("serial-link"))


def test_a_clock_that_raises_stops_the_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, log = run("clock", "run", "--sim", "--data-dir", str(data))
    assert "device thread clock died: RuntimeError: injected fault in the clock (at " in log
    assert_stopped(code, log, data, "clock")


def test_a_script_gone_before_its_thread_opens_it_stops_the_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = script(tmp_path / "script.jsonl")
    code, log = run(
        "file-removed", "run", "--sim", "--sim-input", str(path), "--data-dir", str(data)
    )
    assert f"simulated input: cannot read {path}: No such file or directory" in log, log
    assert_stopped(code, log, data, "sim-input")


def test_a_script_that_turns_unreadable_mid_game_stops_the_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    fifo = tmp_path / "table.fifo"
    os.mkfifo(fifo)
    proc = start("none", "run", "--sim", "--sim-input", str(fifo), "--data-dir", str(data))
    try:
        with open(fifo, "wb") as pipe:
            pipe.write(script(tmp_path / "script.jsonl", lines=1).read_bytes())
            pipe.flush()
            deadline = time.monotonic() + TIMEOUT
            while '"control":"back"' not in _text(data / "game.jsonl"):
                assert time.monotonic() < deadline, "the game did not start"
                time.sleep(0.02)
            pipe.write(b'{"type":"press","control":"back"}\n\xff\xfe\n')  # not UTF-8
    finally:
        code, log = finish(proc)
    assert "simulated input: table.fifo" not in log  # the path is named as given
    assert "not UTF-8 text" in log, log
    assert_stopped(code, log, data, "sim-input")


def test_an_error_not_foreseen_in_the_input_thread_stops_the_service(tmp_path: Path) -> None:
    """Its death is the thread's own report (a `ScriptEnd` with the error's type) or,
    should the exception escape it, the one `ThreadDeaths` makes: either way, a Stop."""
    data = tmp_path / "data"
    path = script(tmp_path / "script.jsonl")
    code, log = run(
        "script-raises", "run", "--sim", "--sim-input", str(path), "--data-dir", str(data)
    )
    assert "RuntimeError" in log, log
    assert_stopped(code, log, data, "sim-input")


def test_a_script_gone_while_the_power_on_menu_shows_stops_the_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = script(tmp_path / "script.jsonl")
    code, log = run(
        "file-removed", "run", "--sim", "--menu", "--sim-input", str(path), "--data-dir", str(data)
    )
    assert f"simulated input: cannot read {path}: No such file or directory" in log, log
    assert "stopped in the power-on menu" not in log
    assert_stopped(code, log, data, "sim-input")


def test_a_button_callback_that_raises_stops_the_service(tmp_path: Path) -> None:
    """A button's callback runs in the GPIO library's own thread, which RPi.GPIO makes in C
    (here a thread driving gpiozero's mock pin): no Python hook sees an exception there. The
    callback itself reports it as the buttons' death, so the press is not lost unseen."""
    data = tmp_path / "data"
    (tmp_path / "pins.toml").write_text(PINS.read_text())
    config = tmp_path / "companion.toml"
    config.write_text(
        '[paths]\npins = "pins.toml"\n[game]\nseats = ["Ana", "Bob", "Cy"]\nseed = 3\n'
        '[display]\ndriver = "capture"\n[readers]\nkind = "none"\n[web]\nenabled = false\n'
    )
    code, log = run(
        "gpio-callback", "run", "--no-menu", "--config", str(config), "--data-dir", str(data)
    )
    assert code == 1, log
    assert "device thread buttons died: RuntimeError: injected fault in a button" in log
    assert "buttons is gone: the service stops with status 1" in log
    assert "gpio-callbacks" not in log, log  # reported by the callback, not by a thread hook
    assert "Traceback" not in log, log
    last = max(data.glob("oled-*.png"))
    assert same_picture(Image.open(last), DeviceStopScreen("buttons"))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


# ------------------------------------------------------------------ the loop in-process


@pytest.fixture
def table(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """What a `Service` needs: an inbox, a dummy OLED, the devices (watched threads)."""
    display = Display(DisplayConfig(driver="dummy"), "fr")
    display.open()
    parts: dict[str, Any] = {"inbox": queue.Queue(), "display": display, "devices": Devices()}
    yield parts
    parts["devices"].stop()
    display.close()


def service(tmp_path: Path, table: dict[str, Any], game: str = "ptipasspass", **kw: Any) -> Service:
    setup = games.get(game).simulated_setup(2 if game == "vnp" else 3, 5)
    session = Session.start(tmp_path / "game.jsonl", setup)
    return Service(
        session,
        table["inbox"],
        table["display"],
        Notifier({}),
        watch=table["devices"].dead,
        **kw,
    )


def run_loop(loop: Service, seconds: float = TIMEOUT) -> int:
    """`loop.run()`, stopped (status 0) by a timer if it is still going after ``seconds``."""
    timer = threading.Timer(seconds, loop.stop)
    timer.start()
    try:
        return loop.run()
    finally:
        timer.cancel()
        loop.session.close()


def shows(display: Display, screen: Any) -> bool:
    return same_picture(display.device.image, screen)


def test_spi_readers_whose_bus_fails_stop_the_loop(
    tmp_path: Path, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.devices import spi_readers
    from tests.devices import fakepi

    assert importlib.util.find_spec("mfrc522") is not None, "pip install -e '.[dev]'"
    board = fakepi.Board([(0, 0), (0, 1)], rst=25)
    fakepi.install(monkeypatch, board)
    readers = spi_readers.SpiReaders(
        [(0, 0), (0, 1)],
        pin_rst=25,
        interval=0.001,
        driver_options={"sleep": board.sleep, "clock": board.now},
    )
    table["devices"].start(readers, table["inbox"])
    spidev = sys.modules["spidev"].SpiDev
    transfer = spidev.xfer2

    def failing(self: Any, values: list[int]) -> list[int]:
        if board.total_transfers() > 2000:
            raise OSError(5, "Input/output error")
        result: list[int] = transfer(self, values)
        return result

    monkeypatch.setattr(spidev, "xfer2", failing)
    loop = service(tmp_path, table)
    assert run_loop(loop) == 1
    assert shows(table["display"], DeviceStopScreen("spi-readers"))


def test_every_input_thread_dead_and_silent_is_noticed_at_a_tick(
    tmp_path: Path, table: dict[str, Any]
) -> None:
    """The clock's ticks go to a full queue: its put raises, its death cannot be queued
    either. The loop's own inbox stays silent; the liveness check sees the thread gone."""
    full: queue.Queue[Any] = queue.Queue(maxsize=1)
    full.put_nowait("in the way")
    table["devices"].start(Starter(Clock(full, period=0.01)), full)
    loop = service(tmp_path, table)
    assert run_loop(loop) == 1
    assert shows(table["display"], DeviceStopScreen("clock"))


@pytest.fixture
def quiet_web(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.run.web_port.lan_address", lambda: "127.0.0.1")


def kill_web(web: WebPort) -> None:
    """A BaseException in the page's asyncio loop escapes `run_forever`: the thread dies."""

    def die() -> None:
        raise SystemExit("injected fault in the web page")

    web.server._loop.call_soon_threadsafe(die)


def start_web(tmp_path: Path, table: dict[str, Any], loop: Service) -> WebPort:
    web = WebPort(WebConfig(host="127.0.0.1", port=0), tmp_path, loop.referee, table["inbox"])
    web.start()
    table["devices"].watch(web.server.thread)
    table["web"] = web
    loop.web = web
    return web


def test_the_page_of_a_game_played_on_the_table_dies_and_the_game_goes_on(
    tmp_path: Path, table: dict[str, Any], quiet_web: None, caplog: pytest.LogCaptureFixture
) -> None:
    loop = service(tmp_path, table)
    web = start_web(tmp_path, table, loop)
    kill_web(web)

    def stop_once_noted() -> None:
        deadline = time.monotonic() + TIMEOUT
        while not loop.notes and time.monotonic() < deadline:
            time.sleep(0.02)
        table["inbox"].put(DeviceDied("web", "reported twice"))  # handled once
        time.sleep(0.3)
        loop.stop()

    helper = threading.Thread(target=stop_once_noted)
    helper.start()
    with caplog.at_level(logging.INFO, logger="companion"):
        code = run_loop(loop)
    helper.join()
    web.stop()
    assert code == 0 and loop.web is None and loop.notes == ["the web page stopped"]
    stopped = [r.getMessage() for r in caplog.records if "the web page stopped" in r.getMessage()]
    assert len(stopped) == 1 and "SystemExit: injected fault in the web page" in stopped[0]
    assert not shows(table["display"], DeviceStopScreen("web"))


def test_the_page_of_a_game_played_on_the_page_dies_and_the_service_stops(
    tmp_path: Path, table: dict[str, Any], quiet_web: None
) -> None:
    loop = service(tmp_path, table, game="vnp")
    web = start_web(tmp_path, table, loop)
    kill_web(web)
    assert run_loop(loop) == 1
    web.stop()
    assert shows(table["display"], DeviceStopScreen("web"))


# ------------------------------------------------------------------------------ parts


def test_the_stop_stays_on_the_oled_once_the_service_has_ended() -> None:
    """luma clears a device it cleans up; the Stop must stay there until the restart."""
    display = Display(DisplayConfig(driver="dummy"), "fr")
    display.open()
    device = display.device
    running = Running(display=display)
    display.show(DeviceStopScreen("clock"))
    running.keep_frame = True
    running.close()
    assert same_picture(device.image, DeviceStopScreen("clock"))


def test_a_thread_whose_work_ends_unasked_is_dead() -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    stopped = threading.Event()
    thread = SupervisedThread("clock", lambda: None, inbox, stopped.is_set)
    thread.start()
    thread.join()
    assert inbox.get_nowait() == DeviceDied("clock", ENDED)
    assert thread.dead() == DeviceDied("clock", ENDED)
    stopped.set()  # asked to stop: an end is no death
    assert thread.dead() is None
    calm = SupervisedThread("clock", lambda: None, inbox, lambda: True)
    calm.start()
    calm.join()
    assert inbox.empty()


def test_the_reason_never_carries_a_uid_or_a_token_kind() -> None:
    text = f"KeyError: '{UID}' in 8a2c11f0, 04A1B2C3D4E5F6A1B2C3 and {KIND} or layout:12"
    assert blank_secrets(text) == "KeyError: '<uid>' in <uid>, <uid> and <kind> or <kind>"
    kept = "port 0x7f12ab34 on /dev/ttyACM0 at 115200"  # no UID, nothing to blank
    assert blank_secrets(kept) == kept
