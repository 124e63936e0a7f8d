"""The printable Swiped deck: A4 sheets of layout cards, as a PDF to print or PNGs to look at.

The layout is computed once, in millimetres, as a list of drawing primitives per page
(`layout`); companion/sheets.py paints them, with fpdf2 for the PDF (`write_pdf`, vector,
exact sizes) and with Pillow for the PNGs (`write_png`, 6 pixels per millimetre).

A sheet is A4 portrait with up to 9 cards at playing-card size (63 x 88 mm) in a 3 x 3
grid, 4 mm apart, with cut marks at every card corner in the gaps (never over a card).
A card shows its number ("7" and "Carte 7"), the 3 x 3 grid of squares 1..9 in reading
order, each filled with its colour and carrying the colour's name (for players who do not
tell colours apart) and its number, and a dashed circle marked NFC: that part of the card
goes on the pad, and the tag is stuck behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from companion.games.swiped.colours import COLOUR_RGB as COLOUR_RGB  # (its tests read it here)
from companion.sheets import (
    BLACK,
    GREY,
    LIGHT_GREY,
    RGB,
    WHITE,
    Circle,
    Line,
    Page,
    Primitive,
    Rect,
    Text,
)
from companion.sheets import PT_PER_MM as PT_PER_MM  # the sheet's scales, read by its tests
from companion.sheets import PX_PER_MM as PX_PER_MM
from companion.sheets import png_paths as png_paths
from companion.sheets import write_pdf as write_sheet_pdf
from companion.sheets import write_png as write_png

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


def write_pdf(pages: Sequence[Page], path: Path, *, title: str = "", compress: bool = True) -> None:
    """Paint ``pages`` on A4 portrait pages of a PDF at ``path`` (sizes in mm are exact)."""
    write_sheet_pdf(pages, path, title=title, creator="companion deck", compress=compress)


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
