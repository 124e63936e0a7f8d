"""How Swiped's nine colours look: the printed cards (`deck_sheet`) and the web page
(`page`) take them from here, so that a page never imports the drawing of sheets."""

from __future__ import annotations

COLOUR_RGB: dict[str, tuple[int, int, int]] = {
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
