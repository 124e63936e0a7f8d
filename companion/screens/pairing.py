"""The OLED's pairing card: the code a phone enters, and a QR code that opens the page
with it, for every game (`companion.web.pairing`).

It is drawn over the game's screen by the referee loop, never by a referee, and never
reaches the page: the page is fed from the referee's own screen (`companion.web.public`).

The QR code holds `HTTP://<HOST>:<PORT>/P/<CODE>` in upper case, so that it fits QR's
alphanumeric mode: an IPv4 address gives version 2 (25 modules), drawn 2 pixels a module
with a one-module light margin in the card's left 54 x 54 pixels. The address is written
under it for those who type it.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno

from companion.screens.common import fit_name
from companion.screens.font import LARGE, SMALL, sanitize
from companion.screens.pen import HEIGHT, WIDTH, Pen

_TEXT = {
    "fr": {"title": "Jumeler", "any": "un téléphone", "seat": "{name}"},
    "en": {"title": "Pair", "any": "a phone", "seat": "{name}"},
}


@dataclass(frozen=True, slots=True)
class PairingScreen:
    """The pairing card: `address` is "HOST:PORT", `seat` the name of the seat that must
    pair (None when a page asked for the code)."""

    code: str
    address: str
    seat: str | None = None


def qr_text(address: str, code: str) -> str:
    """What the QR code holds: the page's pairing address (`/P/<code>` redirects to it)."""
    return f"HTTP://{address}/P/{code}".upper()


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules, dark = True, with no margin."""
    qr = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in qr.matrix)


def render_pairing(pen: Pen, screen: PairingScreen, lang: str) -> None:
    text = _TEXT.get(lang, _TEXT["en"])
    matrix = qr_matrix(qr_text(screen.address, screen.code))
    size = len(matrix) + 2  # one light module around
    scale = max(1, 54 // size)
    side = size * scale
    pen.rect((0, 0, side, side), fill="white")
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = (x + 1) * scale, (y + 1) * scale
                pen.rect((left, top, left + scale, top + scale), fill="black")
    left = side + 4
    width = WIDTH - left
    pen.text((left, 0), text["title"])
    who = sanitize(screen.seat) if screen.seat else text["any"]
    pen.text((left, 10), fit_name(lambda s: s, who, width))
    pen.centered(22, screen.code[:3], LARGE, left=left)
    pen.centered(38, screen.code[3:], LARGE, left=left)
    pen.centered(HEIGHT - SMALL.height, screen.address[: WIDTH // 6])
