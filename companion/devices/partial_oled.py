"""OLED devices that send only what changed: luma's SSD1306 and SH1106 with a page diff.

luma's own ``display`` sends the whole 1 KiB frame over I2C every time (1,034 bytes with
the framing: 23 ms at 400 kHz, 93 ms at 100 kHz), though a countdown changes a digit and
a bar in the bottom page. These subclasses of luma's drivers keep the frame last sent to
the controller's RAM, packed the way the controller stores it (one byte per column and
page, bit 0 the top row of the page), and send only the changed column ranges:

- ``PartialSSD1306`` uses the controller's window (the luma driver leaves the SSD1306 in
  horizontal addressing mode): ``COLUMNADDR c0 c1, PAGEADDR p0 p1`` and the window's
  bytes. Changed pages next to each other share one window when that costs fewer bytes
  (``plan_windows`` picks the cheapest cover of the changed runs).
- ``PartialSH1106`` has no window, only a page and a column pointer: one
  ``page, column low, column high`` command and the bytes of each changed run.

A run of changed columns ends where more unchanged columns follow than another transfer's
framing costs (a countdown's bar and its digit are two runs of the bottom page).

The full frame goes out when nothing is known of the controller's RAM: the first frame
(luma's own ``clear()`` at power-on) and the frame after any failed transfer (the exception
leaves the RAM half-written, so the device forgets its copy before it sends anything).
Besides, every page is rewritten whole at a bounded interval, so that a pixel that a
glitch on the bus changed without an error is healed: a page not sent whole for
``REFRESH_EVERY`` frames goes out whole with the next frame, one such page a frame (the
oldest first). Spread this way the refresh of the whole screen never costs a frame more
than one page (138 bytes, 3.1 ms at 400 kHz), so a countdown tick stays under 5 ms even
then; a whole frame at once would make one tick in ``REFRESH_EVERY`` cost 23 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

REFRESH_EVERY = 50
"""A page not sent whole for 50 frames is sent whole with the next one. The countdown, the
busiest screen, is sent at most five times a second, so a stray pixel lasts at most about
12 s (50 frames, then up to 7 more while the other due pages go first); a turn change,
which rewrites most pages anyway, resets their ages. On average the refresh costs about
one page in 50 frames: 0.06 ms of bus a frame at 400 kHz."""

WINDOW_OVERHEAD = 10
"""I2C bytes of one SSD1306 window besides its pixels: the command transaction (address,
control byte, the six addressing bytes) and the data transaction's address and control."""

PAGE_OVERHEAD = 7
"""I2C bytes of one SH1106 page run besides its pixels: the command transaction (address,
control byte, page, column low, column high), the data transaction's address and control."""

Window = tuple[int, int, int, int]
"""``(first page, last page, first column, last column)``, all inclusive."""


def pack_pages(image: Image.Image) -> bytes:
    """The mode "1" ``image`` as the controller's RAM holds it: page by page, one byte per
    column, bit 0 the page's top row. ``len == width * height // 8``."""
    width, height = image.size
    pages = height // 8
    # Transposed, each row of the packed bytes is one column of the image, top pixel in
    # the most significant bit: reverse the bits, then regroup column-major into pages.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return b"".join(columns[page::pages] for page in range(pages))


Run = tuple[int, int]
"""A changed run of columns of one page: ``(first, last)``, inclusive."""


def changed_runs(old: bytes | None, new: bytes, width: int, gap: int) -> list[list[Run]]:
    """For each page, the runs of columns whose byte differs (empty: unchanged; the whole
    page when ``old`` is None). Runs closer than ``gap`` unchanged columns are one run:
    resending those columns costs less than the framing of another transfer."""
    pages = len(new) // width
    out: list[list[Run]] = []
    for page in range(pages):
        start = page * width
        line = new[start : start + width]
        if old is None:
            out.append([(0, width - 1)])
            continue
        before = old[start : start + width]
        runs: list[Run] = []
        if line != before:
            for column in range(width):
                if line[column] == before[column]:
                    continue
                if runs and column - runs[-1][1] <= gap:
                    runs[-1] = (runs[-1][0], column)
                else:
                    runs.append((column, column))
        out.append(runs)
    return out


def plan_windows(runs: Sequence[Sequence[Run]]) -> list[Window]:
    """The cheapest set of windows (in I2C bytes, ``WINDOW_OVERHEAD`` each plus the pixels
    it covers) that covers every changed run: a page alone sends each of its runs, or
    consecutive pages share one window with the union of their columns (covering any
    unchanged page between them)."""
    pages = len(runs)
    best = [0] * (pages + 1)  # best[k]: cheapest cover of the changes in pages < k
    choice: list[list[Window]] = [[] for _ in range(pages + 1)]
    for end in range(pages):
        if not runs[end]:
            best[end + 1], choice[end + 1] = best[end], []
            continue
        alone = [(end, end, low, high) for low, high in runs[end]]
        best[end + 1] = best[end] + _cost(alone)
        choice[end + 1] = alone
        low, high = _extent(runs[end])
        for first in range(end - 1, -1, -1):
            if not runs[first]:
                continue
            left, right = _extent(runs[first])
            low, high = min(low, left), max(high, right)
            shared = [(first, end, low, high)]
            cost = best[first] + _cost(shared)
            if cost < best[end + 1]:
                best[end + 1], choice[end + 1] = cost, shared
    windows: list[Window] = []
    k = pages
    while k > 0:
        chosen = choice[k]
        if not chosen:
            k -= 1
            continue
        windows[:0] = chosen
        k = chosen[0][0]
    return windows


def _extent(runs: Sequence[Run]) -> Run:
    return min(low for low, _ in runs), max(high for _, high in runs)


def _cost(windows: Sequence[Window]) -> int:
    return sum(WINDOW_OVERHEAD + (b - a + 1) * (h - lo + 1) for a, b, lo, h in windows)


def window_bytes(packed: bytes, width: int, window: Window) -> bytes:
    """The bytes of ``window`` in the order horizontal addressing writes them."""
    first, last, low, high = window
    return b"".join(
        packed[page * width + low : page * width + high + 1] for page in range(first, last + 1)
    )


class _Partial:
    """The frame bookkeeping shared by both drivers (a mixin before the luma class)."""

    _w: int
    _h: int
    refresh_every: int
    _ram: bytes | None
    """What the controller's RAM holds, as ``pack_pages`` packs it; None when unknown."""
    _ages: list[int]
    """Per page, the frames sent since that page was last sent whole."""

    def _reset_partial(self, refresh_every: int) -> None:
        self.refresh_every = refresh_every
        self._ram = None
        self._ages = []  # sized at the first frame: luma's __init__ sets the size

    def invalidate(self) -> None:
        """Forget the controller's RAM: the next frame goes out whole."""
        self._ram = None

    def _runs(self, image: Image.Image, gap: int) -> tuple[bytes, list[list[Run]]]:
        """The packed frame and the runs to send: the changes, the whole frame when the RAM
        is unknown, and the oldest page whole when one is due its refresh."""
        packed = pack_pages(image)
        width, pages = self._w, len(packed) // self._w
        runs = changed_runs(self._ram, packed, width, gap)
        if len(self._ages) != pages:
            self._ages = [0] * pages
        # Forget the RAM until the transfer has succeeded: a failed one leaves it unknown.
        self._ram = None
        due = [p for p in range(pages) if self._ages[p] >= self.refresh_every]
        if due and any(runs):
            oldest = max(due, key=lambda p: self._ages[p])
            runs[oldest] = [(0, width - 1)]
        return packed, runs

    def _sent(self, packed: bytes, runs: list[list[Run]]) -> None:
        whole = [(0, self._w - 1)]
        self._ram = packed
        self._ages = [0 if r == whole else age + 1 for age, r in zip(self._ages, runs, strict=True)]


class PartialSSD1306(_Partial, ssd1306):  # type: ignore[misc]
    """luma's SSD1306 whose ``display`` sends only the windows that changed."""

    def __init__(
        self, serial_interface: Any = None, *, refresh_every: int = REFRESH_EVERY, **kwargs: Any
    ) -> None:
        self._reset_partial(refresh_every)  # luma's __init__ already displays (its clear())
        super().__init__(serial_interface, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        packed, runs = self._runs(self.preprocess(image), WINDOW_OVERHEAD)
        for window in plan_windows(runs):
            first, last, low, high = window
            self.command(
                self._const.COLUMNADDR,
                self._colstart + low,
                self._colstart + high,
                self._const.PAGEADDR,
                first,
                last,
            )
            self.data(list(window_bytes(packed, self._w, window)))
        self._sent(packed, runs)


class PartialSH1106(_Partial, sh1106):  # type: ignore[misc]
    """luma's SH1106 whose ``display`` sends only the changed runs of the changed pages."""

    def __init__(
        self, serial_interface: Any = None, *, refresh_every: int = REFRESH_EVERY, **kwargs: Any
    ) -> None:
        self._reset_partial(refresh_every)
        super().__init__(serial_interface, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        packed, runs = self._runs(self.preprocess(image), PAGE_OVERHEAD)
        for page, page_runs in enumerate(runs):
            for low, high in page_runs:
                column = self._page_address_offset + low
                self.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)
                self.data(list(packed[page * self._w + low : page * self._w + high + 1]))
        self._sent(packed, runs)


_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
