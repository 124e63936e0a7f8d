"""The pen every OLED renderer draws with (`companion.screens.render`, each game's screens):
it inks through a PIL drawing and records the box of everything it inks, so the tests
check every box lies on the 128x64 screen. Below the game contract, which types a game's
renderers with it."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from companion.screens.font import INK, SMALL, Box, Font, draw_text

WIDTH = 128
HEIGHT = 64
SIZE = (WIDTH, HEIGHT)
LINE = SMALL.height
"""Pitch of a line of small text: 8 lines fill the screen."""


class Pen:
    """Draws on a PIL ImageDraw and remembers the box of everything it inks."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw
        self.boxes: list[Box] = []

    def text(self, xy: tuple[int, int], text: str, font: Font = SMALL, fill: str = INK) -> Box:
        box = draw_text(self.draw, xy, text, font, fill)
        if text:
            self.boxes.append(box)
        return box

    def centered(
        self,
        y: int,
        text: str,
        font: Font = SMALL,
        fill: str = INK,
        left: int = 0,
        right: int = WIDTH,
    ) -> Box:
        """Text centred between `left` and `right` (exclusive)."""
        x = left + (right - left - font.width(text)) // 2
        return self.text((x, y), text, font, fill)

    def right(self, y: int, text: str, right: int = WIDTH, fill: str = INK) -> Box:
        """Small text whose last inked column is `right - 1`."""
        return self.text((right - SMALL.width(text), y), text, SMALL, fill)

    def rect(self, box: Box, *, fill: str | None = None, outline: str | None = None) -> None:
        """A rectangle covering `box` (right and bottom exclusive)."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=outline)
        self.boxes.append(box)

    def bitmap(self, xy: tuple[int, int], mask: Image.Image, fill: str = INK) -> None:
        """`fill` wherever the 1-bit `mask` is lit, its top left at `xy`: a drawing made
        once and kept (a game's board) inked in one call."""
        box = mask.getbbox()
        if box is None:
            return
        self.draw.bitmap(xy, mask, fill=fill)
        x, y = xy
        self.boxes.append((x + box[0], y + box[1], x + box[2], y + box[3]))

    def hline(self, y: int, left: int = 0, right: int = WIDTH) -> None:
        self.rect((left, y, right, y + 1), fill=INK)

    def paragraph(
        self, top: int, lines: Sequence[str], *, center: bool = False, fill: str = INK
    ) -> int:
        """Small lines from `top` down; returns the y below the last one."""
        y = top
        for line in lines:
            if center:
                self.centered(y, line, fill=fill)
            else:
                self.text((0, y), line, fill=fill)
            y += LINE
        return y
