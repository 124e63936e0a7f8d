"""The OLED port: drawn only on change, a failing display reported once, luma's emulator
showing the very frames of the screens module."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion import games
from companion.config.model import DisplayConfig
from companion.devices.display import Display, check_display, make_device
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.screens import Screen
from companion.journal import TickInput
from companion.screens.render import Pen, frame
from tests.games import TEST_GAME, registered
from tests.pi.conftest import simulated_game


def screens() -> list[Screen]:
    """The screens of a simulated game that look different, in order."""
    setup, inputs = simulated_game()
    referee = PassPassReferee(setup)
    out: list[Screen] = [referee.screen]
    for record in inputs[:40]:
        referee.feed(record)
        if frame(referee.screen).tobytes() != frame(out[-1]).tobytes():
            out.append(referee.screen)
    return out


def test_a_draining_countdown_is_sent_at_most_five_times_a_second() -> None:
    device = Recorder()
    now = [0.0]
    display = Display(
        DisplayConfig(driver="ssd1306"), "fr", factory=lambda c, d: device, clock=lambda: now[0]
    )
    setup, inputs = simulated_game()
    referee = PassPassReferee(setup)
    for record in inputs:
        referee.feed(record)
        display.show(referee.screen)
        if type(referee.screen).__name__ == "CountdownScreen":
            break
    sent = display.sent
    start = referee.now
    for step in range(1, 31):  # 3 s of ticks, 10 a second: the bar drains
        referee.feed(TickInput(round(start + 0.1 * step, 3)))
        now[0] += 0.1
        display.show(referee.screen)
    assert 10 <= display.sent - sent <= 16


@dataclass(frozen=True, slots=True)
class Hourglass:
    """A screen of no game that ticks: the sand left, drawn as a bar, one moment per
    `turn` (any screen may declare `same_moment`, the display knows no game)."""

    turn: int
    sand: float

    def same_moment(self, other: object) -> bool:
        return isinstance(other, Hourglass) and other.turn == self.turn


@dataclass(frozen=True, slots=True)
class Stopwatch:
    """A screen that changes at every tick and declares no moment."""

    sand: float


def draw_sand(pen: Pen, screen: Hourglass | Stopwatch) -> None:
    pen.draw.rectangle((0, 0, int(127 * screen.sand), 7), fill="white")


@pytest.fixture
def sand_game() -> Iterator[None]:
    """A game whose screens are these two, registered for the test (the display draws any
    registered game's screens, and knows none)."""
    sand = {
        kind: lambda pen, screen, lang: draw_sand(pen, screen) for kind in (Hourglass, Stopwatch)
    }
    with registered(TEST_GAME) as found:
        games.register(dataclasses.replace(found["tally"], name="sand", screens=lambda: sand))
        yield


@pytest.mark.usefixtures("sand_game")
def test_any_screen_that_ticks_is_throttled_within_one_moment_only() -> None:
    device = Recorder()
    now = [0.0]
    display = Display(
        DisplayConfig(driver="ssd1306"), "fr", factory=lambda c, d: device, clock=lambda: now[0]
    )
    for step in range(30):  # 3 s of ticks, 10 a second, one moment
        now[0] += 0.1
        display.show(Hourglass(1, 1 - step / 30))
    assert 10 <= display.sent <= 16
    sent = display.sent
    now[0] += 0.01
    assert display.show(Hourglass(2, 1.0))  # a new moment is sent at once
    for step in range(30):  # a screen that declares no moment: every change is sent
        now[0] += 0.1
        assert display.show(Stopwatch((29 - step) / 30))
    assert display.sent == sent + 31


class Recorder:
    """A stand-in luma device that records frames (and can fail)."""

    mode = "1"
    size = (128, 64)

    def __init__(self, fail: bool = False) -> None:
        self.frames: list[Image.Image] = []
        self.fail = fail

    def display(self, image: Image.Image) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")
        self.frames.append(image.copy())

    def cleanup(self) -> None:
        pass


def test_redrawn_only_when_the_screen_changes() -> None:
    device = Recorder()
    now = [0.0]
    display = Display(
        DisplayConfig(driver="ssd1306"), "fr", factory=lambda c, d: device, clock=lambda: now[0]
    )
    shown = screens()
    for screen in shown:
        now[0] += 1.0
        assert display.show(screen)
        assert not display.show(screen)  # the same screen again: nothing sent
    assert display.sent == len(device.frames) == len(shown)
    for screen, image in zip(shown, device.frames, strict=True):
        assert ImageChops.difference(image, frame(screen, "fr").convert("1")).getbbox() is None


def test_missing_display_is_reported_once_and_retried(caplog: pytest.LogCaptureFixture) -> None:
    attempts: list[int] = []
    device = Recorder()

    def factory(config: DisplayConfig, data_dir: Path | None) -> Any:
        attempts.append(1)
        if len(attempts) < 3:
            raise FileNotFoundError(2, "No such file or directory: '/dev/i2c-1'")
        return device

    now = [0.0]
    display = Display(DisplayConfig(), "en", factory=factory, retry=5.0, clock=lambda: now[0])
    caplog.set_level(logging.DEBUG, logger="companion.devices.display")
    shown = screens()
    assert not display.open()
    assert display.fault is not None and "enable I2C" in display.fault
    assert not display.show(shown[0])  # not retried before 5 s
    now[0] = 6.0
    assert not display.show(shown[1])  # retried, fails again: not logged again
    now[0] = 12.0
    assert display.show(shown[1])  # back
    assert display.fault is None
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "the game goes on" in errors[0].getMessage()
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_display_failing_mid_game_does_not_raise(caplog: pytest.LogCaptureFixture) -> None:
    device = Recorder()
    display = Display(DisplayConfig(), "fr", factory=lambda c, d: device, retry=1000)
    shown = screens()
    assert display.show(shown[0])
    device.fail = True
    caplog.set_level(logging.ERROR, logger="companion.devices.display")
    for screen in shown[1:]:
        assert not display.show(screen)
    assert len(caplog.records) == 1 and "Remote I/O error" in caplog.records[0].getMessage()


def test_luma_dummy_and_emulator_show_the_same_frames(tmp_path: Path) -> None:
    screen = screens()[-1]
    expected = frame(screen, "fr").convert("1")
    dummy = make_device(DisplayConfig(driver="dummy"))
    display = Display(DisplayConfig(driver="dummy"), "fr", factory=lambda c, d: dummy)
    assert display.show(screen)
    assert ImageChops.difference(dummy.image.convert("1"), expected).getbbox() is None
    capture = Display(DisplayConfig(driver="capture"), "fr", data_dir=tmp_path)
    assert capture.show(screen)
    (png,) = tmp_path.glob("oled-*.png")
    assert ImageChops.difference(Image.open(png).convert("1"), expected).getbbox() is None


def test_rotation_180_turns_the_frame() -> None:
    screen = screens()[0]
    device = make_device(DisplayConfig(driver="dummy", rotation=180))
    Display(DisplayConfig(driver="dummy"), "fr", factory=lambda c, d: device).show(screen)
    turned = frame(screen, "fr").convert("1").rotate(180)
    assert ImageChops.difference(device.image.convert("1"), turned).getbbox() is None


def test_check_display_for_doctor() -> None:
    ok, message = check_display(DisplayConfig(driver="dummy"))
    assert ok and "dummy" in message
    ok, message = check_display(DisplayConfig(driver="sh1106", i2c_bus=17))
    assert not ok and "sh1106 on I2C bus 17 at 0x3C" in message
