"""Draw screens on the 128x64 1-bit console.

One renderer per screen kind, a dispatcher `draw` for any `Screen`, `show` to put a screen
on any luma device through `luma.core.render.canvas`, and `frame` for the picture itself
(rendered through luma's own `dummy` device, so tests and transcripts see exactly what a
real SSD1306 would receive).

Screens hold only public facts (see `model.py`), so nothing drawn here can reveal a hat or
a hand. All words come from `text.py`; every glyph from `font.py`. Long prompts wrap and
end with an ellipsis when they run out of lines; long names are cut with an ellipsis.
Every renderer draws through a `Pen` that records the box of everything it inks: the
tests check those boxes all lie on the screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageDraw

from companion.rules.passpass import VICTORIES_TO_WIN, Challenge, PublicView
from companion.screens.font import (
    ELLIPSIS,
    INK,
    LARGE,
    PAPER,
    SMALL,
    Box,
    Font,
    draw_text,
    ellipsize,
    sanitize,
    wrap,
)
from companion.screens.model import (
    CountdownScreen,
    FaultScreen,
    GameWonScreen,
    InstructionScreen,
    MancheWonScreen,
    MenuScreen,
    NoticeScreen,
    Prompt,
    RevealMapScreen,
    RevealMissScreen,
    Screen,
    StatusScreen,
    VerdictScreen,
)
from companion.screens.text import (
    DEFAULT_LANGUAGE,
    Label,
    check_lang,
    label,
    notice_reason,
    notice_title,
    phrase,
    place,
    say,
    seat_name,
    token_list,
    token_name,
    verdict_facts,
    verdict_outcome,
    verdict_title,
)

WIDTH = 128
HEIGHT = 64
SIZE = (WIDTH, HEIGHT)
LINE = SMALL.height
"""Pitch of a line of small text: 8 lines fill the screen."""


class Pen:
    """Draws on a PIL ImageDraw and remembers the box of everything it inks."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw
        self.boxes: list[Box] = []

    def text(self, xy: tuple[int, int], text: str, font: Font = SMALL, fill: str = INK) -> Box:
        box = draw_text(self.draw, xy, text, font, fill)
        if text:
            self.boxes.append(box)
        return box

    def centered(
        self,
        y: int,
        text: str,
        font: Font = SMALL,
        fill: str = INK,
        left: int = 0,
        right: int = WIDTH,
    ) -> Box:
        """Text centred between `left` and `right` (exclusive)."""
        x = left + (right - left - font.width(text)) // 2
        return self.text((x, y), text, font, fill)

    def right(self, y: int, text: str, right: int = WIDTH, fill: str = INK) -> Box:
        """Small text whose last inked column is `right - 1`."""
        return self.text((right - SMALL.width(text), y), text, SMALL, fill)

    def rect(self, box: Box, *, fill: str | None = None, outline: str | None = None) -> None:
        """A rectangle covering `box` (right and bottom exclusive)."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=outline)
        self.boxes.append(box)

    def hline(self, y: int, left: int = 0, right: int = WIDTH) -> None:
        self.rect((left, y, right, y + 1), fill=INK)

    def paragraph(
        self, top: int, lines: Sequence[str], *, center: bool = False, fill: str = INK
    ) -> int:
        """Small lines from `top` down; returns the y below the last one."""
        y = top
        for line in lines:
            if center:
                self.centered(y, line, fill=fill)
            else:
                self.text((0, y), line, fill=fill)
            y += LINE
        return y


def fit_name(make: Callable[[str], str], name: str, width: int, font: Font = SMALL) -> str:
    """`make(name)`, with `name` cut (ending in an ellipsis) until the result fits `width`."""
    for keep in range(len(name), 0, -1):
        text = make(name if keep == len(name) else name[:keep].rstrip() + ELLIPSIS)
        if font.width(text) <= width:
            return text
    return ellipsize(make(ELLIPSIS), width, font)


# ------------------------------------------------------------------------ shared parts


def _header(pen: Pen, view: PublicView, lang: str) -> None:
    """Manche and, in PtiPassPass, Masqué/Visible (PTI-4), over a rule."""
    parts = [f"{label(Label.MANCHE, lang)} {view.manche}"]
    if view.game == "ptipasspass":
        parts.append(label(Label.MASQUE if view.masque else Label.VISIBLE, lang))
    pen.text((0, 0), ellipsize(" · ".join(parts), WIDTH))
    pen.hline(8)


def _prompt(prompt: Prompt, screen: Screen, lang: str) -> str:
    return say(prompt, screen.names, lang, view=screen.view)


def _name(screen: Screen, seat: int, lang: str) -> str:
    return seat_name(screen.names, seat, lang)


# --------------------------------------------------------------------------- renderers


def render_status(pen: Pen, screen: StatusScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """Manche, Masqué/Visible, every seat's Challenge (●) and victory (★) tokens with the
    Magicien inverted and the seat to speak framed, then what is expected now."""
    view = screen.view
    _header(pen, view, lang)
    n = view.players
    cols = 1 if n <= 2 else 2
    rows = math.ceil(n / cols)
    cell_w = WIDTH // cols
    to_speak = view.speaker if view.speaker is not None else view.challenger
    for seat in range(n):
        x0 = (seat // rows) * cell_w
        y0 = 10 + (seat % rows) * 9
        right = x0 + cell_w - (2 if x0 + cell_w < WIDTH else 0)
        fill = INK
        if seat == view.magician:
            pen.rect((x0, y0, right, y0 + 9), fill=INK)
            fill = PAPER
        elif seat == to_speak:
            pen.rect((x0, y0, right, y0 + 9), outline=INK)
        victories = f"★{view.victories[seat]}"
        x = pen.right(y0 + 1, victories, right=right - 2, fill=fill)[0]
        if view.game == "ptipasspass":  # PHI-1: no Challenge tokens
            challenges = f"●{view.challenge_tokens[seat]}"
            x = pen.right(y0 + 1, challenges, right=x - 3, fill=fill)[0]
        name_room = x - 4 - (x0 + 2)
        pen.text((x0 + 2, y0 + 1), ellipsize(_name(screen, seat, lang), name_room), fill=fill)
    rule = 11 + rows * 9
    pen.hline(rule)
    lines = wrap(_prompt(screen.prompt, screen, lang), WIDTH, max_lines=(HEIGHT - rule - 2) // LINE)
    pen.paragraph(rule + 2, lines)


def render_countdown(pen: Pen, screen: CountdownScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The open challenge window: the Magicien, the hat and the announced token, the calls
    that may be made, and a bar draining with the seconds left (PTI-7 timed window)."""
    view = screen.view
    pen.rect((0, 0, WIDTH, 9), fill=INK)
    magician = _name(screen, view.magician, lang)
    pen.text(
        (1, 1),
        fit_name(lambda m: phrase("countdown.magician", lang, m=m), magician, WIDTH - 2),
        fill=PAPER,
    )
    if view.spot is not None:
        pen.text((0, 11), phrase("countdown.hat", lang, spot=view.spot))
    if view.announced is not None:
        pen.right(11, phrase("countdown.announced", lang, token=token_name(view.announced, lang)))
    calls = view.open_challenges or (Challenge.DOUBLON, Challenge.MENTEUR)
    y = 21 if len(calls) > 1 else 29
    for call in calls:
        pen.centered(y, phrase(f"challenge.{call}", lang), LARGE)
        y += 16
    total = screen.total if screen.total > 0 else 0.0
    left = min(max(screen.remaining, 0.0), total)
    seconds = phrase("countdown.seconds", lang, n=math.ceil(left))
    bar_right = WIDTH - SMALL.width(seconds) - 6
    pen.rect((0, 55, bar_right, 64), outline=INK)
    inner = bar_right - 4
    filled = round(inner * left / total) if total else 0
    pen.rect((2, 57, 2 + filled, 62), fill=INK)
    pen.right(56, seconds)


def render_verdict(pen: Pen, screen: VerdictScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The call, who was right, the facts the book makes public (the lifted hat, the shown
    token: PTI-8/9) and what the table does now."""
    verdict = screen.verdict
    pen.centered(0, verdict_title(verdict, lang), LARGE)
    challenger = _name(screen, verdict.seat, lang)
    outcome = fit_name(
        lambda s: verdict_outcome(verdict, screen.names, lang, name=s), challenger, WIDTH
    )
    pen.centered(16, outcome)
    facts = verdict_facts(verdict, screen.names, lang)
    todo = _prompt(screen.prompt, screen, lang)
    pen.paragraph(24, wrap(f"{facts} {todo}".strip(), WIDTH, max_lines=5))


def render_instruction(pen: Pen, screen: InstructionScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """A physical instruction, centred under the header."""
    _header(pen, screen.view, lang)
    lines = wrap(_prompt(screen.prompt, screen, lang), WIDTH, max_lines=6)
    pen.paragraph(10 + (54 - LINE * len(lines)) // 2, lines, center=True)


def render_fault(pen: Pen, screen: FaultScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """A big STOP, then what is wrong and how to fix it."""
    pen.rect((0, 0, WIDTH, 18), fill=INK)
    pen.centered(2, phrase("fault.stop", lang), LARGE, fill=PAPER)
    lines = wrap(_prompt(screen.prompt, screen, lang), WIDTH, max_lines=5)
    pen.paragraph(19 + (45 - LINE * len(lines)) // 2, lines, center=True)


def render_notice(pen: Pen, screen: NoticeScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """A refused press: whose and which button, inverted, then why."""
    notice = screen.notice
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    if notice.seat is None:
        name = phrase("notice.console", lang)
    else:
        name = _name(screen, notice.seat, lang)
    title = fit_name(lambda s: notice_title(notice, screen.names, lang, name=s), name, WIDTH - 2)
    pen.centered(1, title, fill=PAPER)
    lines = wrap(notice_reason(notice, lang), WIDTH, max_lines=6)
    pen.paragraph(12 + (52 - LINE * len(lines)) // 2, lines, center=True)


def render_reveal_miss(pen: Pen, screen: RevealMissScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """A failed reveal: "Raté !", what each lifted hat held, and the hats go back."""
    pen.centered(0, phrase("reveal.missed", lang), LARGE)
    y = 16
    for spot, hat in zip(screen.spots, screen.lifted, strict=False):
        tokens = token_list(hat, lang) if hat else phrase("reveal.empty", lang)
        pen.text((0, y), ellipsize(phrase("reveal.hat", lang, spot=spot, tokens=tokens), WIDTH))
        y += LINE
    back = phrase("reveal.back", lang, m=_name(screen, screen.seat, lang))
    pen.paragraph(y + 1, wrap(back, WIDTH, max_lines=(HEIGHT - y - 1) // LINE))


def render_reveal_map(pen: Pen, screen: RevealMapScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The Magicien and the hats on their grid (spots 1..N in reading order, PTI-2). The
    chosen line is filled; the two hats swapped this turn get a thick frame and a link."""
    view = screen.view
    line = screen.line
    if line is None:
        question = phrase("reveal.choose", lang)
    else:
        a, b, c = sorted(line)
        question = phrase("reveal.line", lang, a=a, b=b, c=c)
    x = pen.right(0, ellipsize(question, WIDTH))[0]
    name = ellipsize(_name(screen, view.magician, lang), x - 6)
    if name:  # the Magicien, inverted as on the status screen
        pen.rect((0, 0, SMALL.width(name) + 2, 8), fill=INK)
        pen.text((1, 0), name, fill=PAPER)
    if not screen.positions:
        return
    top_row = min(r for r, _ in screen.positions)
    left_col = min(c for _, c in screen.positions)
    rows = max(r for r, _ in screen.positions) - top_row + 1
    cols = max(c for _, c in screen.positions) - left_col + 1
    area_top, area_h = 10, HEIGHT - 10
    pitch = min(area_h // rows, WIDTH // cols, 20)
    cell = pitch - 2
    if cell < 3:
        return
    x0 = (WIDTH - (cols * pitch - 2)) // 2
    y0 = area_top + (area_h - (rows * pitch - 2)) // 2
    boxes: dict[int, Box] = {}
    for i, (r, c) in enumerate(screen.positions):
        x, y = x0 + (c - left_col) * pitch, y0 + (r - top_row) * pitch
        boxes[i + 1] = (x, y, x + cell, y + cell)
    chosen = set(line or ())
    swapped = set(screen.swapped or ())
    if screen.swapped is not None and all(s in boxes for s in screen.swapped):
        _link(pen, boxes[screen.swapped[0]], boxes[screen.swapped[1]])
    for spot, box in boxes.items():
        x, y, x1, y1 = box
        lit = spot in chosen
        pen.rect(box, fill=INK if lit else None, outline=INK)
        ink = PAPER if lit else INK
        if spot in swapped:
            pen.rect((x + 1, y + 1, x1 - 1, y1 - 1), outline=ink)
        number = str(spot)
        if SMALL.width(number) <= cell - 4 and SMALL.cap_height <= cell - 4:
            nx = x + (cell - SMALL.width(number)) // 2
            ny = y + (cell - SMALL.cap_height) // 2
            pen.text((nx, ny), number, fill=ink)


def _link(pen: Pen, a: Box, b: Box) -> None:
    """A short bar across the gap between two neighbouring hats."""
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = sorted((a, b))
    if ay0 == by0:  # side by side
        mid = (ay0 + ay1) // 2
        pen.rect((ax1, mid - 1, bx0, mid + 2), fill=INK)
    elif ax0 == bx0:  # one above the other
        mid = (ax0 + ax1) // 2
        pen.rect((mid - 1, ay1, mid + 2, by0), fill=INK)


def render_manche_won(pen: Pen, screen: MancheWonScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """Who won the manche, on which three hats, with which pick (PTI-11), and their
    victory tokens so far (PTI-12)."""
    pen.centered(0, phrase("manche.won_by", lang))
    pen.centered(10, ellipsize(_name(screen, screen.seat, lang), WIDTH, LARGE), LARGE)
    a, b, c = screen.spots
    pen.centered(28, phrase("manche.hats", lang, a=a, b=b, c=c))
    if screen.pick:
        pen.paragraph(36, wrap(token_list(screen.pick, lang), WIDTH, max_lines=2), center=True)
    victories = screen.view.victories[screen.seat] if screen.seat < screen.view.players else 0
    pen.centered(56, phrase("manche.victories", lang, n=victories, of=VICTORIES_TO_WIN))


def render_game_won(pen: Pen, screen: GameWonScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The winner of the game, framed."""
    pen.rect((0, 0, WIDTH, HEIGHT), outline=INK)
    pen.centered(4, phrase("game.won_by", lang))
    pen.centered(16, ellipsize(_name(screen, screen.seat, lang), WIDTH - 8, LARGE), LARGE)
    victories = screen.view.victories[screen.seat] if screen.seat < screen.view.players else 0
    pen.centered(38, phrase("game.victories", lang, n=victories))
    pen.centered(50, f"★ {phrase('game.bravo', lang)} ★")


def game_title(name: str) -> str:
    """A game as the OLED names it (its descriptor's title)."""
    from companion import games

    try:
        return games.get(name).title
    except games.UnknownGame:
        return sanitize(name) or name


def _menu_question(screen: MenuScreen) -> str:
    """The text key of the menu step's question; the first player's is the game's own."""
    if screen.step == "first" and screen.title:
        from companion import games

        try:
            return games.get(screen.title).first_question
        except games.UnknownGame:
            pass
    return f"menu.title.{screen.step}"


def _menu_option(step: str, option: str, lang: str) -> str:
    if step == "resume":
        return phrase(f"menu.option.{option}", lang)
    if step == "game":
        return game_title(option)
    if step == "seats":
        return phrase("menu.players", lang, n=option)
    return sanitize(option) or option


def render_menu(pen: Pen, screen: MenuScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The power-on menu: the game chosen so far (inverted), the question, then the
    choices with the encoder's cursor inverted (a window of them that scrolls with it).
    At the ready step: the instruction, then "push to start" or the spots not empty yet."""
    top = 0
    if screen.title:
        pen.rect((0, 0, WIDTH, 9), fill=INK)
        game = game_title(screen.title)
        pen.centered(1, ellipsize(game, WIDTH - 2), fill=PAPER)
        top = 10
    question = phrase(_menu_question(screen), lang)
    if screen.step == "ready":
        footer: list[str] = []
        if screen.cursor == 0:
            footer = wrap(phrase("menu.push", lang), WIDTH, max_lines=2)
        elif screen.options:
            places = ", ".join(place(int(spot), lang) if spot == "0" else spot
                               for spot in screen.options)  # fmt: skip
            footer = wrap(phrase("menu.waiting", lang, places=places), WIDTH, max_lines=2)
        room = (HEIGHT - top - LINE * len(footer) - 2) // LINE
        lines = wrap(question, WIDTH, max_lines=room)
        pen.paragraph(top + 1, lines, center=True)
        if footer:
            y = HEIGHT - LINE * len(footer)
            pen.hline(y - 2)
            pen.paragraph(y, footer, center=True)
        return
    lines = wrap(question, WIDTH, max_lines=2)
    y = pen.paragraph(top, lines)
    pen.hline(y)
    row = LINE + 1
    first_row = y + 2
    visible = max((HEIGHT - first_row) // row, 1)
    count = len(screen.options)
    start = 0
    if count > visible and screen.cursor >= 0:
        start = min(max(screen.cursor - visible // 2, 0), count - visible)
    for i, option in enumerate(screen.options[start : start + visible]):
        index = start + i
        y = first_row + i * row
        text = ellipsize(_menu_option(screen.step, option, lang), WIDTH - 12)
        fill = INK
        if index == screen.cursor:
            pen.rect((0, y, WIDTH, y + row), fill=INK)
            fill = PAPER
            pen.text((2, y + 1), "»", fill=fill)
        pen.text((10, y + 1), text, fill=fill)
    if start > 0:  # more choices above: a small triangle pointing up
        _triangle(pen, first_row + 2, up=True, fill=PAPER if start == screen.cursor else INK)
    if start + visible < count:
        last = start + visible - 1
        fill = PAPER if last == screen.cursor else INK
        _triangle(pen, first_row + (visible - 1) * row + 3, up=False, fill=fill)


def _triangle(pen: Pen, top: int, *, up: bool, fill: str) -> None:
    """A 5-pixel-wide triangle at the right edge, rows from `top` down."""
    for i in range(3):
        half = i if up else 2 - i
        pen.rect((WIDTH - 5 - half, top + i, WIDTH - 4 + half, top + i + 1), fill=fill)


Renderer = Callable[[Pen, Any, str], None]

RENDERERS: dict[type[Any], Renderer] = {
    StatusScreen: render_status,
    CountdownScreen: render_countdown,
    VerdictScreen: render_verdict,
    InstructionScreen: render_instruction,
    RevealMapScreen: render_reveal_map,
    FaultScreen: render_fault,
    MancheWonScreen: render_manche_won,
    NoticeScreen: render_notice,
    RevealMissScreen: render_reveal_miss,
    GameWonScreen: render_game_won,
    MenuScreen: render_menu,
}


# ------------------------------------------------------------------- dispatch, devices


def register_renderer(kind: type[Any], renderer: Renderer) -> None:
    """A game's own screen kind and how to draw it (a game module calls this once)."""
    RENDERERS[kind] = renderer


def draw(
    draw_ctx: ImageDraw.ImageDraw, screen: Any, lang: str = DEFAULT_LANGUAGE
) -> tuple[Box, ...]:
    """Draw `screen` on a blank 128x64 drawing (such as `luma.core.render.canvas` gives);
    return the box of everything inked."""
    check_lang(lang)
    renderer = RENDERERS.get(type(screen))
    if renderer is None:
        raise TypeError(f"no renderer for {type(screen).__name__}")
    pen = Pen(draw_ctx)
    renderer(pen, screen, lang)
    return tuple(pen.boxes)


def show(device: Any, screen: Any, lang: str = DEFAULT_LANGUAGE) -> None:
    """Put `screen` on a luma device (ssd1306, sh1106, an emulator, `dummy`)."""
    check_lang(lang)
    if tuple(device.size) != SIZE:
        raise ValueError(f"screens are drawn for a {WIDTH}x{HEIGHT} display, not {device.size}")
    with canvas(device) as draw_ctx:
        draw(draw_ctx, screen, lang)


@lru_cache(maxsize=1)
def _frame_device() -> Any:
    # One device for the process: every luma device registers an exit hook when created.
    return dummy(width=WIDTH, height=HEIGHT, mode="1")


def frame(screen: Any, lang: str = DEFAULT_LANGUAGE) -> Image.Image:
    """The 128x64 mode "1" picture of `screen`, as luma's `dummy` device received it."""
    device = _frame_device()
    show(device, screen, lang)
    image = device.image
    assert isinstance(image, Image.Image)
    return image
