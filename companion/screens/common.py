"""What every screen draws alike, whatever the game: a name cut to fit its line, a
fault's STOP and a press that could not count. Below the renderer registry
(`companion.screens.render`), so that the core's own screens, which it lists, and each
game's screens draw with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.screens.font import ELLIPSIS, INK, LARGE, PAPER, SMALL, Font, ellipsize, wrap
from companion.screens.model import Notice
from companion.screens.pen import LINE, WIDTH, Pen
from companion.screens.text import notice_reason, notice_title, phrase, seat_name


def fit_name(make: Callable[[str], str], name: str, width: int, font: Font = SMALL) -> str:
    """`make(name)`, with `name` cut (ending in an ellipsis) until the result fits `width`."""
    for keep in range(len(name), 0, -1):
        text = make(name if keep == len(name) else name[:keep].rstrip() + ELLIPSIS)
        if font.width(text) <= width:
            return text
    return ellipsize(make(ELLIPSIS), width, font)


def draw_stop(pen: Pen, fix: str, lang: str) -> None:
    """A fault, in every game: a big STOP, then what is wrong and how to fix it."""
    pen.rect((0, 0, WIDTH, 18), fill=INK)
    pen.centered(2, phrase("fault.stop", lang), LARGE, fill=PAPER)
    lines = wrap(fix, WIDTH, max_lines=5)
    pen.paragraph(19 + (45 - LINE * len(lines)) // 2, lines, center=True)


def draw_notice(pen: Pen, notice: Notice, names: Sequence[str], lang: str) -> None:
    """A press that could not count, in every game: whose and which button, inverted,
    then why."""
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    if notice.seat is None:
        name = phrase("notice.console", lang)
    else:
        name = seat_name(names, notice.seat, lang)
    title = fit_name(lambda s: notice_title(notice, names, lang, name=s), name, WIDTH - 2)
    pen.centered(1, title, fill=PAPER)
    lines = wrap(notice_reason(notice, lang), WIDTH, max_lines=6)
    pen.paragraph(12 + (52 - LINE * len(lines)) // 2, lines, center=True)
