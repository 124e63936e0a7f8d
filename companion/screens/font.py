"""The console's bitmap font, shipped as Python data.

Pixel-exact screen tests must not depend on Pillow's default font or its version, so
the glyphs live here: 5x7 drawings (plus one row for descenders and the cedilla) on a
6x8 cell, so 21 characters fit on a 128-pixel line. The large font is the same drawing
scaled 2x (12x16 cell, 10 characters per line) for headlines: a call, "STOP", a
winner's name.

Each band of `_SMALL_SOURCE` is a header naming its glyphs (``SP`` is the space), then
eight rows in which every glyph is five columns of ``#`` (lit) and ``.`` (dark).

A line of text is drawn once as a 1-bit mask (kept: `text_mask`), then inked onto any
`PIL.ImageDraw.ImageDraw`, which is what `luma.core.render.canvas` hands out. A character
without a glyph raises `MissingGlyph`: the catalogue's tests rely on that to prove every
sentence can be shown. Seat names come from a table's configuration, so `sanitize` maps
them onto the font instead.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL import Image

Box = tuple[int, int, int, int]
"""Where ink may land: (left, top, right, bottom), right and bottom exclusive."""

INK = "white"
PAPER = "black"
ELLIPSIS = "\u2026"

_GLYPH_W = 5
_GLYPH_H = 8
_CELL_W = 6
_CELL_H = 8

_SMALL_SOURCE = r"""
SP    !     "     #     $     %     &     '     (     )     *     +
..... ..#.. .#.#. .#.#. ..#.. ##... .##.. ..#.. ...#. .#... ..... .....
..... ..#.. .#.#. .#.#. .#### ##..# #..#. ..#.. ..#.. ..#.. ..#.. ..#..
..... ..#.. .#.#. ##### #.#.. ...#. #.#.. ..#.. .#... ...#. #.#.# ..#..
..... ..#.. ..... .#.#. .###. ..#.. .#... ..... .#... ...#. .###. #####
..... ..#.. ..... ##### ..#.# .#... #.#.# ..... .#... ...#. #.#.# ..#..
..... ..... ..... .#.#. ####. #..## #..#. ..... ..#.. ..#.. ..#.. ..#..
..... ..#.. ..... .#.#. ..#.. ...## .##.# ..... ...#. .#... ..... .....
..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

,     -     .     /     0     1     2     3     4     5     6     7
..... ..... ..... ..... .###. ..#.. .###. ##### ...#. ##### ..##. #####
..... ..... ..... ....# #...# .##.. #...# ...#. ..##. #.... .#... ....#
..... ..... ..... ...#. #..## ..#.. ....# ..#.. .#.#. ####. #.... ...#.
..... .###. ..... ..#.. #.#.# ..#.. ...#. ...#. #..#. ....# ####. ..#..
..... ..... ..... .#... ##..# ..#.. ..#.. ....# ##### ....# #...# .#...
.##.. ..... .##.. #.... #...# ..#.. .#... #...# ...#. #...# #...# .#...
..#.. ..... .##.. ..... .###. .###. ##### .###. ...#. .###. .###. .#...
.#... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

8     9     :     ;     <     =     >     ?     @     A     B     C
.###. .###. ..... ..... ...#. ..... .#... .###. .###. .###. ####. .###.
#...# #...# .##.. .##.. ..#.. ..... ..#.. #...# #...# #...# #...# #...#
#...# #...# .##.. .##.. .#... ##### ...#. ....# ....# #...# #...# #....
.###. .#### ..... ..... #.... ..... ....# ...#. .##.# ##### ####. #....
#...# ....# .##.. .##.. .#... ##### ...#. ..#.. #.#.# #...# #...# #....
#...# ...#. .##.. ..#.. ..#.. ..... ..#.. ..... #.#.# #...# #...# #...#
.###. .##.. ..... .#... ...#. ..... .#... ..#.. .###. #...# ####. .###.
..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

D     E     F     G     H     I     J     K     L     M     N     O
####. ##### ##### .###. #...# .###. ..### #...# #.... #...# #...# .###.
#...# #.... #.... #...# #...# ..#.. ...#. #..#. #.... ##.## #...# #...#
#...# #.... #.... #.... #...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...#
#...# ####. ####. #.### ##### ..#.. ...#. ##... #.... #.#.# #.#.# #...#
#...# #.... #.... #...# #...# ..#.. ...#. #.#.. #.... #...# #..## #...#
#...# #.... #.... #...# #...# ..#.. #..#. #..#. #.... #...# #...# #...#
####. ##### #.... .#### #...# .###. .##.. #...# ##### #...# #...# .###.
..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

P     Q     R     S     T     U     V     W     X     Y     Z     [
####. .###. ####. .#### ##### #...# #...# #...# #...# #...# ##### .###.
#...# #...# #...# #.... ..#.. #...# #...# #...# #...# #...# ....# .#...
#...# #...# #...# #.... ..#.. #...# #...# #...# .#.#. .#.#. ...#. .#...
####. #...# ####. .###. ..#.. #...# #...# #.#.# ..#.. ..#.. ..#.. .#...
#.... #.#.# #.#.. ....# ..#.. #...# #...# #.#.# .#.#. ..#.. .#... .#...
#.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.# #...# ..#.. #.... .#...
#.... .##.# #...# ####. ..#.. .###. ..#.. .#.#. #...# ..#.. ##### .###.
..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

\     ]     ^     _     `     a     b     c     d     e     f     g
..... .###. ..#.. ..... .#... ..... #.... ..... ....# ..... ..##. .....
#.... ...#. .#.#. ..... ..#.. ..... #.... ..... ....# ..... .#..# .....
.#... ...#. #...# ..... ...#. .###. #.##. .###. .##.# .###. .#... .####
..#.. ...#. ..... ..... ..... ....# ##..# #.... #..## #...# ###.. #...#
...#. ...#. ..... ..... ..... .#### #...# #.... #...# ##### .#... #...#
....# ...#. ..... ..... ..... #...# #...# #...# #...# #.... .#... .####
..... .###. ..... ##### ..... .#### ####. .###. .#### .###. .#... ....#
..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .###.

h     i     j     k     l     m     n     o     p     q     r     s
#.... ..#.. ...#. #.... .##.. ..... ..... ..... ..... ..... ..... .....
#.... ..... ..... #.... ..#.. ..... ..... ..... ..... ..... ..... .....
#.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###. ####. .#### #.##. .####
##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...# #...# #...# ##..# #....
#...# ..#.. ...#. ##... ..#.. #.#.# #...# #...# #...# #...# #.... .###.
#...# ..#.. ...#. #.#.. ..#.. #.#.# #...# #...# ####. .#### #.... ....#
#...# .###. #..#. #..#. .###. #.#.# #...# .###. #.... ....# #.... ####.
..... ..... .##.. ..... ..... ..... ..... ..... #.... ....# ..... .....

t     u     v     w     x     y     z     {     |     }     ~     à
.#... ..... ..... ..... ..... ..... ..... ...#. ..#.. .#... ..... .#...
.#... ..... ..... ..... ..... ..... ..... ..#.. ..#.. ..#.. ..... ..#..
###.. #...# #...# #...# #...# #...# ##### ..#.. ..#.. ..#.. .#... .###.
.#... #...# #...# #...# .#.#. #...# ...#. .#... ..#.. ...#. #.#.# ....#
.#... #...# #...# #.#.# ..#.. #...# ..#.. ..#.. ..#.. ..#.. ...#. .####
.#..# #..## .#.#. #.#.# .#.#. .#### .#... ..#.. ..#.. ..#.. ..... #...#
..##. .##.# ..#.. .#.#. #...# ....# ##### ...#. ..#.. .#... ..... .####
..... ..... ..... ..... ..... .###. ..... ..... ..... ..... ..... .....

â     ç     è     é     ê     ë     î     ï     ô     ù     û     À
..#.. ..... .#... ...#. ..#.. .#.#. ..#.. .#.#. ..#.. .#... ..#.. .#...
.#.#. ..... ..#.. ..#.. .#.#. ..... .#.#. ..... .#.#. ..#.. .#.#. .###.
.###. .###. .###. .###. .###. .###. .##.. .##.. .###. #...# #...# #...#
....# #.... #...# #...# #...# #...# ..#.. ..#.. #...# #...# #...# #...#
.#### #.... ##### ##### ##### ##### ..#.. ..#.. #...# #...# #...# #####
#...# #...# #.... #.... #.... #.... ..#.. ..#.. #...# #..## #..## #...#
.#### .###. .###. .###. .###. .###. .###. .###. .###. .##.# .##.# #...#
..... .##.. ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

Ç     È     É     «     »     ’     …     —     °     ·     ●     ★
.###. .#... ...#. ..... ..... ..##. ..... ..... .##.. ..... ..... ..#..
#...# ##### ##### ..... ..... ...#. ..... ..... #..#. ..... .###. ..#..
#.... #.... #.... ..#.# #.#.. ..#.. ..... ..... .##.. ..... ##### #####
#.... ####. ####. .#.#. .#.#. ..... ..... ##### ..... ..#.. ##### .###.
#.... #.... #.... #.#.. ..#.# ..... ..... ..... ..... ..... ##### .###.
#...# #.... #.... .#.#. .#.#. ..... ..... ..... ..... ..... .###. .#.#.
.###. ##### ##### ..#.# #.#.. ..... #.#.# ..... ..... ..... ..... #...#
.##.. ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
"""

_ALIASES = {"SP": " "}
_SAME_AS = {"\u00a0": " "}  # a no-break space draws as a space but never breaks a line


class MissingGlyph(ValueError):
    """A character the font cannot draw (the message names it and its code point)."""

    def __init__(self, char: str, text: str) -> None:
        super().__init__(f"no glyph for {char!r} (U+{ord(char):04X}) in {text!r}")
        self.char = char


def _parse(source: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """The lit pixels of every glyph of a band source, as (x, y) offsets in its cell."""
    glyphs: dict[str, tuple[tuple[int, int], ...]] = {}
    for band in source.strip("\n").split("\n\n"):
        header, *rows = band.split("\n")
        names = header.split()
        cells = [row.split() for row in rows]
        if len(cells) != _GLYPH_H or any(len(c) != len(names) for c in cells):
            raise ValueError(f"malformed font band starting {header!r}")
        for i, name in enumerate(names):
            char = _ALIASES.get(name, name)
            if len(char) != 1 or char in glyphs:
                raise ValueError(f"bad or repeated glyph name {name!r}")
            drawing = [cells[y][i] for y in range(_GLYPH_H)]
            if any(len(r) != _GLYPH_W or set(r) - {"#", "."} for r in drawing):
                raise ValueError(f"glyph {name!r} is not {_GLYPH_W} columns of '#' and '.'")
            glyphs[char] = tuple(
                (x, y) for y, row in enumerate(drawing) for x, c in enumerate(row) if c == "#"
            )
    for alias, char in _SAME_AS.items():
        glyphs[alias] = glyphs[char]
    return glyphs


class Font:
    """A monospaced bitmap font: the small glyphs drawn at an integer `scale`."""

    __slots__ = ("name", "scale", "_pixels", "_scaled")

    def __init__(self, name: str, pixels: Mapping[str, tuple[tuple[int, int], ...]], scale: int):
        self.name = name
        self.scale = scale
        self._pixels = pixels
        self._scaled: dict[str, tuple[tuple[int, int], ...]] = {}

    def __repr__(self) -> str:
        return f"Font({self.name!r}, scale={self.scale})"

    @property
    def advance(self) -> int:
        """Horizontal pixels per character, spacing included."""
        return _CELL_W * self.scale

    @property
    def height(self) -> int:
        """Rows a line of text may ink, descenders included; also the line pitch."""
        return _CELL_H * self.scale

    @property
    def cap_height(self) -> int:
        """Rows of a capital or a digit (no accent, no descender)."""
        return 7 * self.scale

    @property
    def chars(self) -> frozenset[str]:
        return frozenset(self._pixels)

    def covers(self, char: str) -> bool:
        return char in self._pixels

    def check(self, text: str) -> None:
        """Raise MissingGlyph for the first character of `text` the font cannot draw."""
        for char in text:
            if char not in self._pixels and char != "\n":
                raise MissingGlyph(char, text)

    def width(self, text: str) -> int:
        """Pixels from the first column to the last inked column of a one-line `text`."""
        return len(text) * self.advance - self.scale if text else 0

    def max_chars(self, width: int) -> int:
        """How many characters fit in `width` pixels."""
        return max(0, (width + self.scale) // self.advance)

    def glyph(self, char: str) -> tuple[tuple[int, int], ...]:
        """The lit pixels of `char` at this scale, as offsets from the cell's top left."""
        scaled = self._scaled.get(char)
        if scaled is None:
            if char not in self._pixels:
                raise MissingGlyph(char, char)
            s = self.scale
            scaled = tuple(
                (x * s + dx, y * s + dy)
                for x, y in self._pixels[char]
                for dy in range(s)
                for dx in range(s)
            )
            self._scaled[char] = scaled
        return scaled

    def points(self, text: str, x: int, y: int) -> list[tuple[int, int]]:
        """Every lit pixel of a one-line `text` whose cell starts at (x, y)."""
        self.check(text)
        out: list[tuple[int, int]] = []
        for i, char in enumerate(text):
            left = x + i * self.advance
            out.extend((left + dx, y + dy) for dx, dy in self.glyph(char))
        return out


SMALL = Font("small", _parse(_SMALL_SOURCE), 1)
LARGE = Font("large", SMALL._pixels, 2)


def text_box(text: str, xy: tuple[int, int], font: Font = SMALL) -> Box:
    """The box a one-line `text` drawn at `xy` may ink."""
    x, y = xy
    return (x, y, x + font.width(text), y + font.height)


def draw_text(
    draw: Drawable, xy: tuple[int, int], text: str, font: Font = SMALL, fill: str = INK
) -> Box:
    """Draw a one-line `text` with its cell's top left at `xy`; return its box.

    Every character is checked before anything is drawn, so a missing glyph leaves the
    image untouched.
    """
    mask = text_mask(text, font)
    if mask is not None:
        draw.bitmap(xy, mask, fill=fill)
    return text_box(text, xy, font)


@lru_cache(maxsize=1024)
def text_mask(text: str, font: Font = SMALL) -> Image.Image | None:
    """A one-line `text` drawn once as a 1-bit mask, its cell's top left at (0, 0) (None:
    nothing to ink): a screen's lines come back frame after frame, so each is drawn in
    one call (`draw_text`) instead of a point per lit pixel."""
    from PIL import Image, ImageDraw  # here: the installer reads configs without Pillow

    points = font.points(text, 0, 0)
    if not points:
        return None
    mask = Image.new("1", (len(text) * font.advance, font.height))
    ImageDraw.Draw(mask).point(points, fill=1)
    return mask


class Drawable(Protocol):
    """The part of `PIL.ImageDraw.ImageDraw` the font needs."""

    def bitmap(self, xy: tuple[int, int], bitmap: Image.Image, fill: str | None = None) -> None: ...


# French puts a space before these and a line must not start with them (nor end after «).
_NO_BREAK_BEFORE = frozenset(":;!?»")
_NO_BREAK_AFTER = frozenset("«")
_NBSP = "\u00a0"


def _glue(text: str) -> str:
    """Turn the spaces that must not break a line into no-break spaces."""
    chars = list(text)
    for i, char in enumerate(chars):
        if char != " ":
            continue
        after = chars[i + 1] if i + 1 < len(chars) else ""
        before = chars[i - 1] if i else ""
        if after in _NO_BREAK_BEFORE or before in _NO_BREAK_AFTER:
            chars[i] = _NBSP
    return "".join(chars)


def wrap(text: str, width: int, font: Font = SMALL, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines no wider than `width` pixels, at spaces where possible.

    "\\n" forces a break. A word wider than a line is cut. With `max_lines`, text that
    does not fit ends the last line with an ellipsis rather than spilling off the screen.
    """
    font.check(text)
    per_line = font.max_chars(width)
    if per_line < 1:
        return []
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in _glue(paragraph).split(" "):
            if not word:
                continue
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= per_line:
                line = candidate
                continue
            if line:
                lines.append(line)
            while len(word) > per_line:
                lines.append(word[:per_line])
                word = word[per_line:]
            line = word
        lines.append(line)
    lines = [line.replace(_NBSP, " ") for line in lines]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        if lines:
            lines[-1] = ellipsize(lines[-1], width, font, force=True)
    return lines


def ellipsize(text: str, width: int, font: Font = SMALL, *, force: bool = False) -> str:
    """`text` if it fits in `width` pixels, else cut with a trailing ellipsis.

    With `force`, the ellipsis is added even if `text` fits (it was cut elsewhere).
    """
    font.check(text)
    per_line = font.max_chars(width)
    if not force and len(text) <= per_line:
        return text
    if per_line < 1:
        return ""
    return text[: per_line - 1].rstrip() + ELLIPSIS


_FALLBACK = {
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss", "Æ": "AE",
    "æ": "ae", "Œ": "OE", "œ": "oe", "‘": "’", "“": '"', "”": '"', "–": "-",
}  # fmt: skip


def sanitize(text: str, font: Font = SMALL) -> str:
    """Map free text (a seat name from the configuration) onto the font's glyphs.

    Accents the font lacks are dropped, a few letters get a stand-in, anything else
    becomes "?", so a name never stops a game; the catalogue itself is never sanitized.
    """
    out = []
    for char in " ".join(text.split()):
        if font.covers(char):
            out.append(char)
            continue
        if char in _FALLBACK:
            out.append(_FALLBACK[char])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if font.covers(c))
        out.append(base or "?")
    return "".join(out)


def covered(texts: Iterable[str], font: Font = SMALL) -> bool:
    """True when the font can draw every character of every text."""
    return all(font.covers(c) for text in texts for c in text if c != "\n")
