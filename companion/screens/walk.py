"""The OLED during ``companion doctor --walk`` (`companion.devices.walk`): the step (3/19)
under the walk's title, then the instruction, in the command line's language."""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.font import INK, PAPER, wrap
from companion.screens.pen import WIDTH, Pen
from companion.screens.text import phrase


@dataclass(frozen=True, slots=True)
class WalkScreen:
    """The OLED during the walk: the step (3/19) and the instruction."""

    step: str
    text: str


def render_walk(pen: Pen, screen: WalkScreen, lang: str) -> None:
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    pen.centered(1, f"{phrase('walk.title', lang)} {screen.step}".strip(), fill=PAPER)
    lines = wrap(screen.text, WIDTH, max_lines=5)
    pen.paragraph(14, lines, center=True)
