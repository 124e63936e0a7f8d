"""Drawings on paper: primitives in millimetres, painted as a PDF to print or PNGs to look at.

A drawing is computed once, in millimetres from a page's top-left corner, as a list of
primitives per page: rectangles, texts, lines, circles, and a clip that confines what
follows it to a box. Two small back ends paint the same primitives: fpdf2 for the PDF
(`write_pdf`, vector, exact sizes when printed at 100 %) and Pillow for the PNGs
(`write_png`). What a back end does not understand it refuses, so the two cannot drift
apart. A game's printables (`Game.printables`: its deck of cards) and the builder's mat
templates (companion/kit) are drawn with them; fpdf2 and Pillow load only when painting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from fpdf import FPDF
    from PIL import Image

RGB = tuple[int, int, int]
BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
GREY: RGB = (110, 110, 110)
LIGHT_GREY: RGB = (190, 190, 190)

Size = tuple[float, float]
A4: Size = (210.0, 297.0)
A3: Size = (297.0, 420.0)
"""Portrait width and height, mm."""

THIN = 0.2  # mm, line width of frames and marks
CAP_HEIGHT = 0.718
"""Helvetica's capital height as a fraction of the font size: a Text's y is the middle of
its capitals, so both back ends put the baseline at y + CAP_HEIGHT * size / 2."""

Align = Literal["left", "center", "right"]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: RGB | None
    outline: RGB | None = None
    width: float = THIN


@dataclass(frozen=True, slots=True)
class Text:
    """``text`` at (x, y): x per ``align``, y the middle of the capitals; size in mm."""

    x: float
    y: float
    text: str
    size: float
    colour: RGB
    align: Align = "center"
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: RGB = BLACK
    width: float = THIN


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    outline: RGB
    width: float = 0.3
    dash: float = 0.0
    """Length of dashes and gaps in mm; 0 for a solid outline."""


@dataclass(frozen=True, slots=True)
class Clip:
    """Everything after it on the page is drawn only inside this box (one clip a page)."""

    x: float
    y: float
    w: float
    h: float


Primitive = Rect | Text | Line | Circle | Clip
Page = list[Primitive]


# --- back end 1: fpdf2 (the PDF to print) -------------------------------------------------

PT_PER_MM = 72 / 25.4
FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)
"""The creation date written into every PDF, so that the same drawing gives the same file."""


def _pdf_primitive(pdf: FPDF, p: Primitive) -> None:
    if isinstance(p, Rect):
        if p.fill is None and p.outline is None:
            return
        style = "F" if p.outline is None else ("D" if p.fill is None else "DF")
        if p.fill is not None:
            pdf.set_fill_color(*p.fill)
        if p.outline is not None:
            pdf.set_draw_color(*p.outline)
            pdf.set_line_width(p.width)
        pdf.rect(p.x, p.y, p.w, p.h, style=style)
    elif isinstance(p, Text):
        pdf.set_font("Helvetica", "B" if p.bold else "", p.size * PT_PER_MM)
        pdf.set_text_color(*p.colour)
        width = pdf.get_string_width(p.text)
        x = {"left": p.x, "center": p.x - width / 2, "right": p.x - width}[p.align]
        pdf.text(x, p.y + CAP_HEIGHT * p.size / 2, p.text)
    elif isinstance(p, Line):
        pdf.set_draw_color(*p.colour)
        pdf.set_line_width(p.width)
        pdf.line(p.x1, p.y1, p.x2, p.y2)
    elif isinstance(p, Circle):
        pdf.set_draw_color(*p.outline)
        pdf.set_line_width(p.width)
        pdf.set_dash_pattern(dash=p.dash, gap=p.dash)
        pdf.ellipse(p.cx - p.r, p.cy - p.r, 2 * p.r, 2 * p.r, style="D")
        pdf.set_dash_pattern()
    else:  # pragma: no cover - Primitive is closed
        raise TypeError(f"the PDF back end cannot draw {p!r}")


def _pdf_page(pdf: FPDF, page: Page) -> None:
    pdf.add_page()
    clip = next((i for i, p in enumerate(page) if isinstance(p, Clip)), len(page))
    for p in page[:clip]:
        _pdf_primitive(pdf, p)
    if clip < len(page):
        box = page[clip]
        assert isinstance(box, Clip)
        with pdf.rect_clip(box.x, box.y, box.w, box.h):
            for p in page[clip + 1 :]:
                _pdf_primitive(pdf, p)


def write_pdf(
    pages: Sequence[Page],
    path: Path,
    *,
    size: Size = A4,
    title: str = "",
    creator: str = "companion",
    compress: bool = True,
) -> None:
    """Paint ``pages`` on pages of ``size`` (width, height in mm; landscape when wider than
    high) of a PDF at ``path``; sizes in mm are exact, the file the same for the same pages."""
    from fpdf import FPDF

    width, height = size
    pdf = FPDF(orientation="L" if width > height else "P", unit="mm", format=(min(size), max(size)))
    pdf.set_compression(compress)
    pdf.set_auto_page_break(False)
    pdf.set_creator(creator)
    pdf.set_producer("fpdf2")
    pdf.set_creation_date(FIXED_DATE)
    if title:
        pdf.set_title(title)
    for page in pages:
        _pdf_page(pdf, page)
    pdf.output(str(path))


# --- back end 2: Pillow (PNGs to look at) -------------------------------------------------

PX_PER_MM = 6


def png_paths(path: Path, pages: int) -> list[Path]:
    """Page 1 is ``path`` itself; page n >= 2 is ``NAME-n.png`` next to it."""
    return [path] + [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, pages + 1)]


def png_page(page: Page, scale: float = PX_PER_MM, size: Size = A4) -> Image.Image:
    """One page as an image, ``scale`` pixels per mm."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (round(size[0] * scale), round(size[1] * scale)), WHITE)
    canvas = image
    draw = ImageDraw.Draw(image)
    fonts: dict[float, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
    clip: Clip | None = None

    def px(mm: float) -> int:
        return round(mm * scale)

    def width(mm: float) -> int:
        return max(1, round(mm * scale))

    for p in page:
        if isinstance(p, Clip):  # what follows is drawn on a layer, pasted inside the box
            clip = p
            canvas = Image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(canvas)
        elif isinstance(p, Rect):
            box = (px(p.x), px(p.y), px(p.x + p.w) - 1, px(p.y + p.h) - 1)
            outline_width = width(p.width) if p.outline is not None else 0
            draw.rectangle(box, fill=p.fill, outline=p.outline, width=outline_width)
        elif isinstance(p, Text):
            font = fonts.get(p.size) or fonts.setdefault(
                p.size, ImageFont.load_default(size=p.size * scale)
            )
            anchor = {"left": "ls", "center": "ms", "right": "rs"}[p.align]
            xy = (p.x * scale, (p.y + CAP_HEIGHT * p.size / 2) * scale)
            bold = 1 if p.bold and p.size * scale >= 24 else 0
            draw.text(xy, p.text, p.colour, font, anchor, stroke_width=bold, stroke_fill=p.colour)
        elif isinstance(p, Line):
            draw.line((px(p.x1), px(p.y1), px(p.x2), px(p.y2)), fill=p.colour, width=width(p.width))
        elif isinstance(p, Circle):
            box = (px(p.cx - p.r), px(p.cy - p.r), px(p.cx + p.r), px(p.cy + p.r))
            if p.dash <= 0:
                draw.ellipse(box, outline=p.outline, width=width(p.width))
                continue
            step = 360 * p.dash / (2 * math.pi * p.r)  # degrees per dash (or gap)
            start = 0.0
            while start < 360:
                draw.arc(box, start, min(start + step, 360), fill=p.outline, width=width(p.width))
                start += 2 * step
        else:  # pragma: no cover - Primitive is closed
            raise TypeError(f"the PNG back end cannot draw {p!r}")
    if clip is not None:
        box = (px(clip.x), px(clip.y), px(clip.x + clip.w), px(clip.y + clip.h))
        image.paste(canvas.crop(box), box[:2], canvas.crop(box))
    return image


def write_png(
    pages: Sequence[Page], path: Path, *, scale: float = PX_PER_MM, size: Size = A4
) -> list[Path]:
    """Paint each page as a PNG (``scale`` pixels per mm); returns the files (png_paths)."""
    paths = png_paths(path, len(pages))
    for page, target in zip(pages, paths, strict=True):
        png_page(page, scale, size).save(target, format="PNG", optimize=True)
    return paths
