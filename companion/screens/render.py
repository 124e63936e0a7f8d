"""Draw screens on the 128x64 1-bit console, whatever the game.

A renderer per screen kind (the core's: a table declared here once, `RENDERERS`; a
game's: its descriptor's `Game.screens`, asked when one of its screens is first drawn),
a dispatcher `draw` for
any of them, `show` to put a screen on any luma device
through `luma.core.render.canvas`, and `frame` for the picture itself (rendered through
luma's own `dummy` device, so tests and transcripts see exactly what a real SSD1306 would
receive). This module knows no game: it imports no game's rules and no game's screens
(the registry gives them).

Every renderer draws through a `Pen` that records the box of everything it inks: the
tests check those boxes all lie on the screen. `fit_name` cuts a seat's name (with an
ellipsis) so a line fits. Screens hold only public facts, so nothing drawn can reveal a
hat or a hand. All words come from `text.py`; every glyph from `font.py`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageDraw

from companion import games
from companion.contract.game import Drawing, Game, Renderer, drawings
from companion.screens.common import draw_notice, draw_stop, fit_name
from companion.screens.device_stop import DeviceStopScreen, render_device_stop
from companion.screens.font import INK, PAPER, Box, ellipsize, sanitize, wrap
from companion.screens.journal_damage import JournalDamageScreen, render_damage
from companion.screens.model import MenuScreen
from companion.screens.pairing import PairingScreen, render_pairing
from companion.screens.pen import HEIGHT, LINE, SIZE, WIDTH, Pen
from companion.screens.text import DEFAULT_LANGUAGE, check_lang, phrase
from companion.screens.walk import WalkScreen, render_walk

__all__ = [
    "HEIGHT", "LINE", "RENDERERS", "SIZE", "WIDTH", "Drawing", "Pen", "Renderer", "draw",
    "draw_notice", "drawings",
    "draw_stop", "fit_name", "frame", "game_title", "menu_question", "render_menu",
    "renderer_of", "show",
]  # fmt: skip
"""The pen and the screen's size are `companion.screens.pen`'s, and what every screen draws
alike `companion.screens.common`'s, named here for the renderers that import them with the
rest."""


def game_title(name: str) -> str:
    """A game as the OLED names it (its title, from its facts: the power-on menu names
    every game without loading one)."""
    from companion import games

    try:
        return games.facts(name).title
    except games.UnknownGame:
        return sanitize(name) or name


def menu_question(screen: MenuScreen) -> str:
    """The text key of the menu step's question; the first player's question and the
    ready step's instruction are the game's own."""
    if screen.step in ("first", "ready") and screen.title:
        from companion import games

        try:
            game = games.facts(screen.title)
        except games.UnknownGame:
            pass
        else:
            return game.first_question if screen.step == "first" else game.ready_prompt
    return f"menu.title.{screen.step}"


def _menu_option(step: str, option: str, lang: str) -> str:
    if step == "resume":
        return phrase(f"menu.option.{option}", lang)
    if step == "game":
        return game_title(option)
    if step == "seats":
        return phrase("menu.players", lang, n=option)
    if step == "sound":
        return phrase("menu.sound.off" if option == "0" else "menu.volume", lang, n=option)
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
    question = phrase(menu_question(screen), lang)
    if screen.step == "ready":
        footer: list[str] = []
        if screen.cursor == 0:
            footer = wrap(phrase("menu.push", lang), WIDTH, max_lines=2)
        elif screen.options:
            places = ", ".join(phrase("place.pad", lang) if spot == "0" else spot
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


RENDERERS = drawings(
    Drawing(MenuScreen, render_menu),
    Drawing(PairingScreen, render_pairing),
    Drawing(JournalDamageScreen, render_damage),
    Drawing(DeviceStopScreen, render_device_stop),
    Drawing(WalkScreen, render_walk),
)
"""The core's own screen kinds, which belong to no game, and how each is drawn: the power-on
menu, the pairing card, a damaged journal's card, a dead device's Stop and the doctor's
walk. Declared here once; a game's are its descriptor's (`Game.screens`)."""
_GAMES_KINDS: dict[type, Renderer] = {}
"""The games' screen kinds drawn so far, as their descriptors give them."""


def renderer_of(screen: object, game: Game | None = None) -> Renderer:
    """How `screen` is drawn: the core's renderer of its kind, else its game's (`game`'s
    when given, a game not in the registry; else the games loaded so far are asked first,
    then every registered game); a TypeError for a kind no one draws."""
    kind = type(screen)
    found = RENDERERS.get(kind) or _GAMES_KINDS.get(kind)
    if found is None:
        given = [game] if game is not None else []
        for asked in (*given, *games.loaded(), *map(games.get, games.names())):
            if asked.screens is not None:
                _GAMES_KINDS.update(asked.screens())
            if kind in _GAMES_KINDS:
                return _GAMES_KINDS[kind]
        raise TypeError(f"no renderer for {kind.__name__}")
    return found


def draw(
    draw_ctx: ImageDraw.ImageDraw,
    screen: object,
    lang: str = DEFAULT_LANGUAGE,
    game: Game | None = None,
) -> tuple[Box, ...]:
    """Draw `screen` (of `game`, when not a registered game's) on a blank 128x64 drawing
    (such as `luma.core.render.canvas` gives); return the box of everything inked."""
    check_lang(lang)
    renderer = renderer_of(screen, game)
    pen = Pen(draw_ctx)
    renderer(pen, screen, lang)
    return tuple(pen.boxes)


def show(
    device: Any, screen: object, lang: str = DEFAULT_LANGUAGE, game: Game | None = None
) -> None:
    """Put `screen` (of `game`, as `draw`) on a luma device (ssd1306, sh1106, an emulator,
    `dummy`)."""
    check_lang(lang)
    if tuple(device.size) != SIZE:
        raise ValueError(f"screens are drawn for a {WIDTH}x{HEIGHT} display, not {device.size}")
    with canvas(device) as draw_ctx:
        draw(draw_ctx, screen, lang, game)


@lru_cache(maxsize=1)
def _frame_device() -> Any:
    # One device for the process: every luma device registers an exit hook when created.
    return dummy(width=WIDTH, height=HEIGHT, mode="1")


def frame(screen: object, lang: str = DEFAULT_LANGUAGE, game: Game | None = None) -> Image.Image:
    """The 128x64 mode "1" picture of `screen` (of `game`, as `draw`), as luma's `dummy`
    device received it."""
    device = _frame_device()
    show(device, screen, lang, game)
    image = device.image
    assert isinstance(image, Image.Image)
    return image
