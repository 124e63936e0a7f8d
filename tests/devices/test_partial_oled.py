"""The page-diff OLED drivers against luma's own devices: every byte they send is captured
at the serial interface and replayed into a model of the controller's RAM, which must show
the last image whatever came before (random frames, a countdown, failures)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.config.model import DisplayConfig
from companion.devices import partial_oled
from companion.devices.display import Display, make_device
from companion.devices.partial_oled import (
    WINDOW_OVERHEAD,
    PartialSH1106,
    PartialSSD1306,
    changed_runs,
    pack_pages,
    plan_windows,
)
from companion.screens.render import frame
from tests.screens.samples import golden_cases

W, H, PAGES = 128, 64, 8
FULL_FRAME_I2C = 2 + 6 + 2 + W * PAGES
"""luma's whole frame: one command transaction (address, control, 6 bytes), one data one."""


class Capture:
    """A luma serial interface (``command``/``data``/``cleanup``) that records every
    transaction, and can fail a data transfer half-way as a noisy I2C bus does."""

    def __init__(self) -> None:
        self.log: list[tuple[str, list[int]]] = []
        self.fail_in: int | None = None
        """Fail the data transaction after this many more (0: the next one)."""

    def command(self, *cmd: int) -> None:
        assert len(cmd) <= 32  # luma's i2c limit
        self.log.append(("cmd", [int(c) for c in cmd]))

    def data(self, data: Any) -> None:
        payload = [int(b) for b in data]
        if self.fail_in is not None:
            if self.fail_in == 0:
                self.fail_in = None
                self.log.append(("data", payload[: len(payload) // 2]))
                raise OSError(121, "Remote I/O error")
            self.fail_in -= 1
        self.log.append(("data", payload))

    def cleanup(self) -> None:
        pass

    def i2c_bytes(self, since: int = 0) -> int:
        """Bytes on the bus: each transaction adds the address and the control byte."""
        return sum(2 + len(p) for _, p in self.log[since:])


# Command bytes that take arguments, and how many (SSD1306 and SH1106 datasheets).
ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1}
ARGS |= {0xDB: 1, 0x8D: 1, 0xAD: 1}
NO_ARGS = {0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0x2E}


class SSD1306Ram:
    """The SSD1306's GDDRAM as its command decoder fills it (horizontal addressing mode
    with a column/page window, or page addressing with the pointer commands)."""

    def __init__(self) -> None:
        self.ram = [[0] * W for _ in range(PAGES)]
        self.mode = 0x02  # the reset default: page addressing
        self.cols, self.pages = (0, W - 1), (0, PAGES - 1)
        self.col = self.page = 0
        self.written: set[tuple[int, int]] = set()
        """(page, column) of every byte written."""

    def feed(self, log: list[tuple[str, list[int]]]) -> None:
        for kind, payload in log:
            if kind == "cmd":
                self.command(payload)
            else:
                for byte in payload:
                    self.write(byte)

    def command(self, cmd: list[int]) -> None:
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = ARGS.get(op, 0)
            args = cmd[i + 1 : i + 1 + n]
            assert len(args) == n, f"command 0x{op:02X} cut short"
            i += 1 + n
            if op == 0x20:
                self.mode = args[0]
                assert self.mode in (0x00, 0x02)
            elif op == 0x21:
                self.cols = (args[0], args[1])
                self.col = args[0]
            elif op == 0x22:
                self.pages = (args[0], args[1])
                self.page = args[0]
            elif 0xB0 <= op <= 0xB7 and self.mode == 0x02:
                self.page = op - 0xB0
            elif op <= 0x0F and self.mode == 0x02:
                self.col = (self.col & 0xF0) | op
            elif 0x10 <= op <= 0x1F and self.mode == 0x02:
                self.col = (self.col & 0x0F) | (op - 0x10) << 4
            else:
                assert op in ARGS or op in NO_ARGS or 0x40 <= op <= 0x7F, f"0x{op:02X}"

    def write(self, byte: int) -> None:
        self.ram[self.page][self.col] = byte
        self.written.add((self.page, self.col))
        if self.mode == 0x02:
            self.col = self.col + 1 if self.col < W - 1 else self.col
            return
        if self.col < self.cols[1]:
            self.col += 1
            return
        self.col = self.cols[0]
        self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]

    def image(self) -> Image.Image:
        out = Image.new("1", (W, H))
        px = out.load()
        assert px is not None
        for page in range(PAGES):
            for x in range(W):
                for bit in range(8):
                    px[x, page * 8 + bit] = 1 if self.ram[page][x] >> bit & 1 else 0
        return out


class SH1106Ram(SSD1306Ram):
    """The SH1106's 132-column RAM (page addressing only), shown from column ``offset``."""

    def __init__(self, offset: int = 2) -> None:
        super().__init__()
        self.offset = offset
        self.ram = [[0] * 132 for _ in range(PAGES)]

    def command(self, cmd: list[int]) -> None:
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = 0 if op == 0x20 else ARGS.get(op, 0)  # 0x20 is no command of the SH1106
            i += 1 + n
            if 0xB0 <= op <= 0xB7:
                self.page = op - 0xB0
            elif op <= 0x0F:
                self.col = (self.col & 0xF0) | op
            elif 0x10 <= op <= 0x1F:
                self.col = (self.col & 0x0F) | (op - 0x10) << 4

    def write(self, byte: int) -> None:
        self.ram[self.page][self.col] = byte
        self.written.add((self.page, self.col - self.offset))
        self.col = min(self.col + 1, 131)

    def image(self) -> Image.Image:
        shown = SSD1306Ram()
        shown.ram = [row[self.offset : self.offset + W] for row in self.ram]
        return shown.image()


DRIVERS = {"ssd1306": (PartialSSD1306, SSD1306Ram), "sh1106": (PartialSH1106, SH1106Ram)}


def make(driver: str, rotate: int = 0, **kwargs: Any) -> tuple[Any, Capture, SSD1306Ram]:
    cls, ram_cls = DRIVERS[driver]
    serial = Capture()
    device = cls(serial, width=W, height=H, rotate=rotate, **kwargs)
    device.persist = True  # no clear() at interpreter exit
    ram = ram_cls()
    ram.feed(serial.log)
    return device, serial, ram


def send(device: Any, serial: Capture, ram: SSD1306Ram, image: Image.Image) -> int:
    """Display ``image``, replay what went out into ``ram``; the I2C bytes it took."""
    start = len(serial.log)
    try:
        device.display(image)
    finally:
        ram.feed(serial.log[start:])
    return serial.i2c_bytes(start)


def on_glass(ram: SSD1306Ram, rotate: int) -> Image.Image:
    """What a viewer sees: the RAM, turned back for a module mounted upside down."""
    shown = ram.image()
    return shown.rotate(180) if rotate == 2 else shown


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def noise(seed: int) -> Image.Image:
    return Image.frombytes("1", (W, H), bytes(seed * 7919 + i * 31 & 0xFF for i in range(1024)))


def test_pack_pages_is_the_controllers_layout() -> None:
    image = Image.new("1", (W, H))
    image.putpixel((5, 0), 1)
    image.putpixel((5, 9), 1)
    image.putpixel((127, 63), 1)
    packed = pack_pages(image)
    assert len(packed) == 1024
    assert packed[5] == 0x01 and packed[W + 5] == 0x02 and packed[7 * W + 127] == 0x80
    assert sum(1 for b in packed if b) == 3


def test_the_power_on_clear_is_whole_then_only_changes_go_out() -> None:
    device, serial, ram = make("ssd1306")
    assert [len(p) for kind, p in serial.log if kind == "data"] == [1024]  # luma's clear()
    assert same(ram.image(), Image.new("1", (W, H)))
    first = noise(3)
    assert send(device, serial, ram, first) <= FULL_FRAME_I2C
    assert same(ram.image(), first)
    assert send(device, serial, ram, first) == 0  # nothing changed: nothing on the bus
    second = first.copy()
    ImageDraw.Draw(second).rectangle((40, 16, 47, 23), fill=1)
    send(device, serial, ram, second)
    second = second.copy()
    ImageDraw.Draw(second).rectangle((40, 20, 47, 22), fill=0)  # 8 columns of page 2
    assert send(device, serial, ram, second) == WINDOW_OVERHEAD + 8
    assert same(ram.image(), second)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("rotate", [0, 2])
def test_a_countdown_tick_sends_a_small_fraction_of_a_frame(driver: str, rotate: int) -> None:
    """The real countdown screen of a PassPass window, one second apart: one digit and
    the bar change, in the bottom page."""
    countdown, lang = golden_cases()["countdown_fr"]
    device, serial, ram = make(driver, rotate)
    send(device, serial, ram, frame(countdown, lang))
    for remaining in (2.0, 1.0, 0.4):
        tick = frame(dataclasses.replace(countdown, remaining=remaining), lang)
        spent = send(device, serial, ram, tick)
        assert same(on_glass(ram, rotate), tick)
        assert 0 < spent <= FULL_FRAME_I2C // 16


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_failed_transfer_is_followed_by_a_whole_frame(driver: str) -> None:
    device, serial, ram = make(driver)
    send(device, serial, ram, noise(1))
    serial.fail_in = 0
    half = noise(1).copy()
    ImageDraw.Draw(half).rectangle((0, 0, 127, 40), fill=1)
    with pytest.raises(OSError):
        send(device, serial, ram, half)
    # The next frame equals the failed one: without the rule nothing would be resent.
    spent = send(device, serial, ram, half)
    assert spent >= 1024
    assert same(ram.image(), half)


def test_every_page_is_rewritten_whole_within_a_bounded_number_of_frames() -> None:
    """A one-pixel change a frame, always in page 7: the other pages are refreshed one a
    frame, each within ``refresh_every + 7`` frames of its last whole write."""
    device, serial, ram = make("ssd1306", refresh_every=4)
    base = noise(5)
    send(device, serial, ram, base)
    last_whole = [0] * PAGES  # luma's clear() at power-on wrote every page
    for step in range(1, 40):
        image = base.copy()
        image.putpixel((step, 63), 1 - image.getpixel((step, 63)))
        ram.written.clear()
        spent = send(device, serial, ram, image)
        assert same(ram.image(), image)
        for page in range(PAGES):
            if all((page, x) in ram.written for x in range(W)):
                last_whole[page] = step
            assert step - last_whole[page] <= 4 + 7, (page, step)
        assert spent <= 2 * WINDOW_OVERHEAD + 3 + W  # the change and at most one page
        base = image


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_countdown_tick_stays_under_5_ms_while_pages_are_refreshed(driver: str) -> None:
    countdown, lang = golden_cases()["countdown_fr"]
    device, serial, ram = make(driver, refresh_every=2)
    for tenth in range(60, -1, -2):  # 6 s window, a frame every 0.2 s
        tick = frame(dataclasses.replace(countdown, remaining=tenth / 10), lang)
        spent = send(device, serial, ram, tick)
        assert same(ram.image(), tick)
        assert spent * 9 / 400_000 <= 0.005 or tenth == 60


def test_changed_pages_next_to_each_other_share_a_window_when_cheaper() -> None:
    narrow = [[], [(10, 12)], [(10, 12)], [], [], [], [], [(0, 127)]]
    assert plan_windows(narrow) == [(1, 2, 10, 12), (7, 7, 0, 127)]
    gap = [[(0, 3)], [], [], [], [], [], [], [(120, 127)]]
    assert plan_windows(gap) == [(0, 0, 0, 3), (7, 7, 120, 127)]
    two_runs = [[], [], [], [], [], [], [], [(2, 40), (100, 110)]]
    assert plan_windows(two_runs) == [(7, 7, 2, 40), (7, 7, 100, 110)]
    assert plan_windows([[(0, 127)]] * PAGES) == [(0, 7, 0, 127)]
    assert plan_windows([[]] * PAGES) == []


def test_runs_split_where_the_gap_costs_more_than_a_transfer() -> None:
    old = bytes(1024)
    new = bytearray(old)
    new[7 * W + 10] = new[7 * W + 14] = new[7 * W + 60] = 1
    assert changed_runs(old, bytes(new), W, WINDOW_OVERHEAD)[7] == [(10, 14), (60, 60)]
    assert changed_runs(old, bytes(new), W, WINDOW_OVERHEAD)[:7] == [[]] * 7
    assert changed_runs(None, bytes(new), W, WINDOW_OVERHEAD) == [[(0, 127)]] * PAGES


def cost(windows: list[tuple[int, int, int, int]]) -> int:
    return sum(WINDOW_OVERHEAD + (b - a + 1) * (h - lo + 1) for a, b, lo, h in windows)


RUNS = st.lists(st.tuples(st.integers(0, 127), st.integers(0, 127)), max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(RUNS, min_size=PAGES, max_size=PAGES))
def test_the_plan_covers_every_change_and_beats_page_by_page(
    raw: list[list[tuple[int, int]]],
) -> None:
    runs = [sorted((min(r), max(r)) for r in page) for page in raw]
    windows = plan_windows(runs)
    for page, page_runs in enumerate(runs):
        for low, high in page_runs:
            assert any(a <= page <= b and lo <= low and high <= h for a, b, lo, h in windows)
    per_run = [(p, p, lo, hi) for p, page_runs in enumerate(runs) for lo, hi in page_runs]
    assert cost(windows) <= cost(per_run)


# A frame sequence: each step is a fresh random frame, a few rectangles drawn or erased on
# the last one, the same frame again, or a failure injected into its transfer.
STEP = st.one_of(
    st.tuples(st.just("noise"), st.integers(0, 10_000)),
    st.tuples(
        st.just("draw"),
        st.lists(
            st.tuples(
                st.integers(0, 127),
                st.integers(0, 63),
                st.integers(0, 40),
                st.integers(0, 20),
                st.booleans(),
            ),
            min_size=1,
            max_size=4,
        ),
    ),
    st.tuples(st.just("same"), st.none()),
    st.tuples(st.just("fail"), st.integers(0, 2)),
)


@settings(max_examples=60, deadline=None)
@given(
    driver=st.sampled_from(sorted(DRIVERS)),
    rotate=st.sampled_from([0, 2]),
    refresh_every=st.integers(2, 60),
    steps=st.lists(STEP, min_size=1, max_size=12),
)
def test_after_any_frames_the_glass_shows_the_last_image(
    driver: str, rotate: int, refresh_every: int, steps: list[tuple[str, Any]]
) -> None:
    device, serial, ram = make(driver, rotate, refresh_every=refresh_every)
    image = Image.new("1", (W, H))
    for kind, arg in steps:
        if kind == "noise":
            image = noise(arg)
        elif kind == "draw":
            image = image.copy()
            pen = ImageDraw.Draw(image)
            for x, y, w, h, ink in arg:
                pen.rectangle((x, y, x + w, y + h), fill=int(ink))
        elif kind == "fail":
            serial.fail_in = arg
        try:
            send(device, serial, ram, image)
        except OSError:
            continue
        serial.fail_in = None
        assert same(on_glass(ram, rotate), image)
    serial.fail_in = None
    send(device, serial, ram, image)  # after a failure, the loop's next show
    assert same(on_glass(ram, rotate), image)


def test_the_ssd1306_and_sh1106_drivers_use_the_page_diff(monkeypatch: pytest.MonkeyPatch) -> None:
    """``make_device`` builds the partial devices on luma's i2c interface (captured here),
    and the Display's frames reach the RAM through them."""
    import luma.core.interface.serial as luma_serial

    buses: list[Capture] = []

    def i2c(port: int, address: int) -> Capture:
        buses.append(Capture())
        return buses[-1]

    monkeypatch.setattr(luma_serial, "i2c", i2c)
    assert isinstance(make_device(DisplayConfig(driver="sh1106")), PartialSH1106)
    assert partial_oled.REFRESH_EVERY >= 10
    now = [0.0]
    display = Display(DisplayConfig(driver="ssd1306", rotation=180), "fr", clock=lambda: now[0])
    assert display.open() and isinstance(display.device, PartialSSD1306)
    display.device.persist = True
    countdown, lang = golden_cases()["countdown_fr"]
    ram = SSD1306Ram()
    for remaining in (2.4, 1.4):
        shown = dataclasses.replace(countdown, remaining=remaining)
        assert display.show(shown)
        now[0] += 1.0
    ram.feed(buses[-1].log)
    assert same(on_glass(ram, 2), frame(shown, lang))
