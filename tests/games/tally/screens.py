"""Tally's OLED: the title (or who won), then each seat's pebbles, `>` on whose turn and
`-` after a seat that passed; a fault stops it all (STOP, and what to fix); a press that
cannot count is shown a moment (whose, which button by its label, and why)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.font import LARGE, wrap
from companion.screens.model import Notice
from companion.screens.render import WIDTH, Drawing, Pen, draw_notice, drawings
from companion.screens.text import phrase, seat_name

from .words import say


@dataclass(frozen=True, slots=True)
class TallyScreen:
    names: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int
    winner: int | None
    fault: tuple[str, int, int | None] | None = None
    """The fault to fix: its reason (a fault event's), the hat or the reader, and the other
    reader of a pebble across two."""
    notice: Notice | None = None
    """A press that could not count, while it is shown."""
    passed: tuple[bool, ...] = ()
    """Per seat, whether it passed its turn (TALLY-2)."""


def render_tally(pen: Pen, screen: TallyScreen, lang: str) -> None:
    if screen.notice is not None:
        draw_notice(pen, screen.notice, screen.names, lang)
        return
    if screen.fault is not None:
        reason, spot, other = screen.fault
        pen.centered(0, phrase("fault.stop", lang), LARGE)
        text = say(f"fault.{reason}", lang, spot=spot, other=other)
        pen.paragraph(20, wrap(text, WIDTH, max_lines=4))
        return
    if screen.winner is None:
        title = say("title", lang)
    else:
        title = say("won", lang, s=seat_name(screen.names, screen.winner, lang))
    pen.centered(0, title)
    for seat, score in enumerate(screen.scores):
        mark = ">" if seat == screen.turn and screen.winner is None else " "
        passed = "-" if seat < len(screen.passed) and screen.passed[seat] else ""
        line = f"{mark}{seat_name(screen.names, seat, lang)} {score}{passed}"
        pen.text((0, 10 + 9 * seat), line[: WIDTH // 6])


SCREENS = drawings(
    Drawing(TallyScreen, render_tally),
)
"""Its screen kinds and how each is drawn: its descriptor's `screens`."""
