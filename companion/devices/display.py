"""The Display port: the console OLED with luma.oled, or luma's emulators on a desktop.

Drivers (``[display] driver``): ``ssd1306`` or ``sh1106`` (many 1.3" modules are SH1106,
0.96" ones SSD1306) on I2C, with the bus, address, rotation and contrast of the config;
``emulator`` (a luma.emulator pygame window), ``capture`` (luma.emulator: one PNG per
frame in the data directory), ``dummy`` (luma's in-memory device) and ``none``.

The I2C drivers are luma's own with a page diff (``partial_oled``): a frame sends only the
column ranges that changed since the last one (a countdown tick: 1 ms at most at 400 kHz),
the whole 1 KiB (23 ms at 400 kHz I2C, 93 ms at the default 100 kHz: set
``dtparam=i2c_arm=on,i2c_arm_baudrate=400000``) at power-on and after a failed transfer,
and, one page a frame, each page that was not sent whole for ``REFRESH_EVERY`` frames.
``Display.show`` draws only when the screen changed: equal screens are skipped without
drawing, and a drawing whose pixels equal the last frame sent is not sent either. A screen
that ticks while the game stands still (``screens.model.Ticking``: a countdown draining a
bar pixel by pixel) has its frames of one moment sent at most every
``countdown_interval`` seconds (the loop calls ``show`` at every tick, so the latest
one always gets through).

A missing or failing display never stops the game: the first failure is logged once and
kept in ``fault`` (the service puts it in the systemd status; ``check_display`` is what
``companion doctor`` runs); the display is retried every ``retry`` seconds and a recovery
is logged once too.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from companion.config.model import DisplayConfig
from companion.screens.model import same_moment
from companion.screens.render import HEIGHT, WIDTH, draw

log = logging.getLogger(__name__)


def make_device(config: DisplayConfig, data_dir: Path | None = None) -> Any:
    """The luma device of ``config`` (None for ``none``); raises on a missing device."""
    rotate = config.rotation // 90
    driver = config.driver
    if driver == "none":
        return None
    if driver in ("ssd1306", "sh1106"):
        from luma.core.interface.serial import i2c

        from companion.devices.partial_oled import PartialSH1106, PartialSSD1306

        serial = i2c(port=config.i2c_bus, address=config.address)
        cls = PartialSSD1306 if driver == "ssd1306" else PartialSH1106
        device = cls(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    elif driver == "dummy":
        from luma.core.device import dummy

        device = dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    elif driver in ("emulator", "capture"):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from luma.emulator.device import capture, pygame

        if driver == "emulator":
            device = pygame(
                width=WIDTH, height=HEIGHT, rotate=rotate, mode="1", transform="scale2x", scale=4
            )
        else:
            folder = data_dir or Path.cwd()
            folder.mkdir(parents=True, exist_ok=True)
            template = str(folder / f"oled-{os.getpid()}-{{0:06}}.png")
            device = capture(
                width=WIDTH,
                height=HEIGHT,
                rotate=rotate,
                mode="1",
                transform="none",
                scale=1,
                file_template=template,
            )
    else:
        raise ValueError(f"unknown display driver {driver!r}")
    device.contrast(config.contrast)
    return device


def describe_error(config: DisplayConfig, exc: BaseException, lang: str | None = None) -> str:
    """A failure in words a table owner can act on, in `lang` (None: the command line's,
    as `companion doctor` speaks); the driver's own words are quoted as it says them, but a
    system error's, which are said in ours ("no such file or folder")."""
    from companion.cli_words import language, os_error
    from companion.devices.words import DOCTOR_SAYS

    lang = lang or language()

    def says(key: str, **fields: object) -> str:
        return DOCTOR_SAYS.said_in(key, lang, **fields)

    text = str(exc) or type(exc).__name__
    error = text
    cause = exc if isinstance(exc, OSError) else exc.__cause__ or exc.__context__
    if "not found on address" in text:  # luma's words for a device that does not answer
        error = says("display_no_answer")
    elif isinstance(cause, OSError) and cause.errno is not None:  # luma's or the system's
        why = os_error(cause, lang)
        error = says("display_os", why=why, path=cause.filename) if cause.filename else why
    if config.driver not in ("ssd1306", "sh1106"):
        return says("display_failed", driver=config.driver, where="", error=error)
    if "No such file" in text or "not found: /dev" in text:
        hint = says("display_enable_i2c")
    elif "ermission" in text:
        hint = says("display_i2c_group")
    else:
        hint = says("display_wiring")
    where = says("display_where", bus=config.i2c_bus, address=config.address)
    failed = says("display_failed", driver=config.driver, where=where, error=error)
    return says("display_hint", failed=failed, hint=hint)


class Display:
    """The OLED as the referee loop uses it: ``show(screen)`` whenever it may have changed."""

    def __init__(
        self,
        config: DisplayConfig,
        language: str = "fr",
        *,
        data_dir: Path | None = None,
        snapshot: Path | None = None,
        factory: Callable[[DisplayConfig, Path | None], Any] = make_device,
        retry: float = 30.0,
        countdown_interval: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.language = language
        self.data_dir = data_dir
        self.snapshot = snapshot
        """Where to save the last frame sent as a PNG (for the simulator and tests)."""
        self.factory = factory
        self.retry = retry
        self.countdown_interval = countdown_interval
        self.clock = clock
        self.device: Any = None
        self.fault: str | None = None
        self.sent = 0
        """Frames transferred to the device."""
        self._last_screen: Any = None
        self._last_bytes: bytes | None = None
        self._next_try = 0.0
        self._last_sent = -1e9
        self._reported = False

    @property
    def enabled(self) -> bool:
        return self.config.driver != "none"

    def open(self) -> bool:
        if not self.enabled:
            return False
        try:
            self.device = self.factory(self.config, self.data_dir)
        except Exception as exc:  # any driver error: the game goes on without the OLED
            self._failed(exc)
            return False
        if self._reported:
            log.warning("display %s works again", self.config.driver)
        self.fault = None
        self._reported = False
        self._last_bytes = None
        return True

    def _failed(self, exc: BaseException) -> None:
        self.device = None
        self.fault = describe_error(self.config, exc, "en")  # the log's and the status's
        self._next_try = self.clock() + self.retry
        if not self._reported:
            log.error(
                "%s; the game goes on without it (retrying every %g s)", self.fault, self.retry
            )
            self._reported = True
        else:
            log.debug("%s", self.fault)

    def render(self, screen: Any) -> Image.Image:
        image = Image.new("1", (WIDTH, HEIGHT))
        draw(ImageDraw.Draw(image), screen, self.language)
        return image

    def show(self, screen: Any, force: bool = False) -> bool:
        """Draw ``screen`` if it differs from the last one; True when a frame was sent."""
        if not self.enabled:
            return False
        if screen == self._last_screen and not force and self.device is not None:
            return False
        if (
            same_moment(screen, self._last_screen)
            and self.clock() - self._last_sent < self.countdown_interval
            and not force
        ):
            return False  # the same moment ticking: not now, the next tick will do
        self._last_screen = screen
        if self.device is None and (self.clock() < self._next_try or not self.open()):
            return False
        image = self.render(screen)
        data = image.tobytes()
        if data == self._last_bytes and not force:
            return False
        try:
            self.device.display(
                image if self.device.mode == "1" else image.convert(self.device.mode)
            )
        except Exception as exc:  # an I2C error mid-game: report once, go on
            self._failed(exc)
            return False
        self._last_bytes = data
        self._last_sent = self.clock()
        self.sent += 1
        if self.snapshot is not None:
            _save_atomic(image, self.snapshot)
        return True

    def close(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device.cleanup()
            except Exception as exc:  # a display that vanished cannot be switched off
                log.debug("display cleanup: %s", exc)


def _save_atomic(image: Image.Image, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    image.save(tmp, format="PNG")
    os.replace(tmp, path)


def check_display(config: DisplayConfig, data_dir: Path | None = None) -> tuple[bool, str]:
    """For ``companion doctor``: open the display and draw a test frame; (ok, message)."""
    from companion.devices.words import doctor_says

    if config.driver == "none":
        return True, doctor_says("display_none")
    try:
        device = make_device(config, data_dir)
        image = Image.new("1", (WIDTH, HEIGHT))
        pen = ImageDraw.Draw(image)
        pen.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
        pen.text((8, 26), "companion doctor", fill=1)
        device.display(image if device.mode == "1" else image.convert(device.mode))
    except Exception as exc:
        return False, describe_error(config, exc)
    where = (
        doctor_says("display_where", bus=config.i2c_bus, address=config.address)
        if config.driver in ("ssd1306", "sh1106")
        else ""
    )
    return True, doctor_says("display_ok", driver=config.driver, where=where)
