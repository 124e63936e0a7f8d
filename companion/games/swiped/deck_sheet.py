"""The printable Swiped deck: A4 sheets of layout cards, as a PDF to print or PNGs to look at.

The layout is computed once, in millimetres, as a list of drawing primitives per page
(`layout`): rectangles, texts, lines and circles. Two small back ends paint the same
primitives: fpdf2 for the PDF (`write_pdf`, vector, exact sizes) and Pillow for the PNGs
(`write_png`, 6 pixels per millimetre). What a back end does not understand it refuses,
so the two cannot drift apart.

A sheet is A4 portrait with up to 9 cards at playing-card size (63 x 88 mm) in a 3 x 3
grid, 4 mm apart, with cut marks at every card corner in the gaps (never over a card).
A card shows its number ("7" and "Carte 7"), the 3 x 3 grid of squares 1..9 in reading
order, each filled with its colour and carrying the colour's name (for players who do not
tell colours apart) and its number, and a dashed circle marked NFC: that part of the card
goes on the pad, and the tag is stuck behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

COLOUR_RGB: dict[str, RGB] = {
    "rouge": (214, 32, 39),
    "orange": (247, 136, 30),
    "jaune": (252, 217, 38),
    "vert": (22, 128, 62),
    "bleu": (28, 84, 196),
    "violet": (118, 52, 158),
    "rose": (244, 143, 190),
    "blanc": (255, 255, 255),
    "noir": (28, 28, 28),
}
"""The printed colour of each of Swiped's nine colours (companion.games.swiped.rules.config)."""

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
GREY: RGB = (110, 110, 110)
LIGHT_GREY: RGB = (190, 190, 190)

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, mm
CARD_W, CARD_H = 63.0, 88.0  # a playing card, mm
COLUMNS, ROWS = 3, 3
CARDS_PER_PAGE = COLUMNS * ROWS
GAP = 4.0
"""Between two cards: room for the cut marks of both."""
MARK_OFFSET, MARK_LENGTH = 1.0, 2.0
"""A cut mark starts 1 mm from the card corner and is 2 mm long: it ends 1 mm before the
next card (GAP = 2 * MARK_OFFSET + MARK_LENGTH)."""
MARGIN_X = (PAGE_W - COLUMNS * CARD_W - (COLUMNS - 1) * GAP) / 2
MARGIN_Y = (PAGE_H - ROWS * CARD_H - (ROWS - 1) * GAP) / 2

SQUARE, SQUARE_GAP = 13.5, 1.0
GRID_X = (CARD_W - 3 * SQUARE - 2 * SQUARE_GAP) / 2  # from the card's left edge
GRID_Y = 16.0  # from the card's top edge
NFC_CENTRE = (CARD_W / 2, 73.0)
NFC_RADIUS = 12.5
"""A 25 mm circle: where the card goes on the pad, and the usual round NFC sticker."""

THIN = 0.2  # mm, line width of the card frame and the cut marks
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


Primitive = Rect | Text | Line | Circle
Page = list[Primitive]
Card = Sequence[str]


def pages_needed(cards: int) -> int:
    return max(1, -(-cards // CARDS_PER_PAGE))


def card_origin(slot: int) -> tuple[float, float]:
    """The top-left corner (mm) of the card in place ``slot`` (0..8, reading order)."""
    row, column = divmod(slot, COLUMNS)
    return MARGIN_X + column * (CARD_W + GAP), MARGIN_Y + row * (CARD_H + GAP)


def square_box(slot: int, square: int) -> tuple[float, float, float, float]:
    """(x, y, w, h) in mm of square 1..9 of the card in place ``slot``."""
    x0, y0 = card_origin(slot)
    row, column = divmod(square - 1, 3)
    step = SQUARE + SQUARE_GAP
    return x0 + GRID_X + column * step, y0 + GRID_Y + row * step, SQUARE, SQUARE


def luminance(rgb: RGB) -> float:
    """Relative luminance (WCAG 2), 0 for black to 1 for white."""

    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio, 1 (none) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(fill: RGB) -> RGB:
    """White on a dark square, black on a light one: whichever contrasts more."""
    return WHITE if contrast(WHITE, fill) > contrast(BLACK, fill) else BLACK


def _square(slot: int, square: int, colour: str) -> list[Primitive]:
    x, y, w, h = square_box(slot, square)
    fill = COLOUR_RGB[colour]
    ink = text_colour(fill)
    outline = GREY if luminance(fill) > 0.8 else None  # blanc: visible on white paper
    return [
        Rect(x, y, w, h, fill, outline, 0.3),
        Text(x + 0.9, y + 1.7, str(square), 2.2, ink, "left"),
        Text(x + w / 2, y + h / 2, colour, 3.2, ink, "center", bold=True),
    ]


def card_primitives(number: int, card: Card, slot: int) -> Page:
    """Card ``number`` (``card[i]`` is the colour of square i + 1) in place ``slot``."""
    x0, y0 = card_origin(slot)
    cx, cy = NFC_CENTRE
    page: Page = [
        Rect(x0, y0, CARD_W, CARD_H, None, LIGHT_GREY),
        Text(x0 + 4, y0 + 8.5, str(number), 9.0, BLACK, "left", bold=True),
        Text(x0 + CARD_W - 4, y0 + 8.5, f"Carte {number}", 4.5, BLACK, "right", bold=True),
    ]
    for square, colour in enumerate(card, start=1):
        page.extend(_square(slot, square, colour))
    page += [
        Circle(x0 + cx, y0 + cy, NFC_RADIUS, GREY, 0.3, dash=1.2),
        Text(x0 + cx, y0 + cy, "NFC", 4.0, GREY, "center", bold=True),
        Text(x0 + 3, y0 + CARD_H - 3, "Swiped", 2.2, GREY, "left"),
    ]
    return page


def cut_marks(slot: int) -> list[Line]:
    """Two short lines at each corner of the card in place ``slot``, on the extension of
    its edges, outside it (they end MARK_OFFSET before the neighbouring card)."""
    x0, y0 = card_origin(slot)
    marks: list[Line] = []
    for x, dx in ((x0, -1), (x0 + CARD_W, 1)):
        for y, dy in ((y0, -1), (y0 + CARD_H, 1)):
            near, far = MARK_OFFSET, MARK_OFFSET + MARK_LENGTH
            marks.append(Line(x + dx * near, y, x + dx * far, y))
            marks.append(Line(x, y + dy * near, x, y + dy * far))
    return marks


def page_primitives(deck: Sequence[Card], page: int, title: str = "Swiped") -> Page:
    """Everything drawn on page ``page`` (0-based) of the sheet of ``deck``; ``title``
    heads every page."""
    first = page * CARDS_PER_PAGE
    cards = deck[first : first + CARDS_PER_PAGE]
    span = f"cartes {first + 1}-{first + len(cards)}, page {page + 1}/{pages_needed(len(deck))}"
    advice = (
        "Imprimer sans ajuster la taille (100 %) : une carte mesure "
        f"{CARD_W:g} x {CARD_H:g} mm. Couper le long des traits de coupe."
    )
    primitives: Page = [
        Text(PAGE_W / 2, MARGIN_Y / 2, f"{title} - {span}", 3.0, GREY),
        Text(PAGE_W / 2, PAGE_H - MARGIN_Y / 2, advice, 2.6, GREY),
    ]
    for slot, card in enumerate(cards):
        primitives.extend(card_primitives(first + slot + 1, card, slot))
        primitives.extend(cut_marks(slot))
    return primitives


def layout(deck: Sequence[Card], title: str = "Swiped") -> list[Page]:
    """The whole sheet: one list of primitives per page, cards numbered from 1. Texts are
    plain ASCII (the PDF's core font is latin-1 and the PNG's built-in font has no accents)."""
    return [page_primitives(deck, p, title) for p in range(pages_needed(len(deck)))]


# --- back end 1: fpdf2 (the PDF to print) -------------------------------------------------

PT_PER_MM = 72 / 25.4


def _pdf_page(pdf: FPDF, page: Page) -> None:
    pdf.add_page()
    for p in page:
        if isinstance(p, Rect):
            if p.fill is None and p.outline is None:
                continue
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


def write_pdf(pages: Sequence[Page], path: Path, *, title: str = "", compress: bool = True) -> None:
    """Paint ``pages`` on A4 portrait pages of a PDF at ``path`` (sizes in mm are exact)."""
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_compression(compress)
    pdf.set_auto_page_break(False)
    pdf.set_creator("companion deck")
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


def _png_page(page: Page, scale: float) -> Image.Image:
    image = Image.new("RGB", (round(PAGE_W * scale), round(PAGE_H * scale)), WHITE)
    draw = ImageDraw.Draw(image)
    fonts: dict[float, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}

    def px(mm: float) -> int:
        return round(mm * scale)

    def width(mm: float) -> int:
        return max(1, round(mm * scale))

    for p in page:
        if isinstance(p, Rect):
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
            step = 360 * p.dash / (2 * 3.141592653589793 * p.r)  # degrees per dash (or gap)
            start = 0.0
            while start < 360:
                draw.arc(box, start, min(start + step, 360), fill=p.outline, width=width(p.width))
                start += 2 * step
        else:  # pragma: no cover - Primitive is closed
            raise TypeError(f"the PNG back end cannot draw {p!r}")
    return image


def write_png(pages: Sequence[Page], path: Path, *, scale: float = PX_PER_MM) -> list[Path]:
    """Paint each page as a PNG (``scale`` pixels per mm); returns the files (png_paths)."""
    paths = png_paths(path, len(pages))
    for page, target in zip(pages, paths, strict=True):
        _png_page(page, scale).save(target, format="PNG", optimize=True)
    return paths


# --- the sheet ----------------------------------------------------------------------------

SUFFIXES = (".pdf", ".png")


def write_sheet(deck: Sequence[Card], path: Path, title: str = "Swiped") -> list[Path]:
    """Lay out ``deck`` and write it as a PDF (one file) or PNGs (one per page, png_paths),
    by the suffix of ``path``; returns the files written. ValueError for another suffix."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: write a .pdf (to print) or a .png (to look at)")
    pages = layout(deck, title)
    if suffix == ".png":
        return write_png(pages, path)
    write_pdf(pages, path, title=title)
    return [path]
