"""Tally's OLED: the title (or who won), then each seat's pebbles, `>` on whose turn; a
fault stops it all (STOP, and what to fix)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.font import LARGE, wrap
from companion.screens.render import WIDTH, Pen, register_renderer
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


def render_tally(pen: Pen, screen: TallyScreen, lang: str) -> None:
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
        pen.text(
            (0, 10 + 9 * seat), f"{mark}{seat_name(screen.names, seat, lang)} {score}"[: WIDTH // 6]
        )


register_renderer(TallyScreen, render_tally)
