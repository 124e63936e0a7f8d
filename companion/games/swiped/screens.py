"""Swiped's OLED screens: plain data built from public facts only, and their renderers.

Every screen holds the engine's `PublicView` (never a `State`), the seat names and public
facts: a prompt (a key and its parameters), the last claim's verdict (which says whether
it was true, never a card), the seat whose target card was just recorded. No field can
hold a target card, so no screen can show one, except `SwGameOverScreen`, which the
referee builds only once the game is over (SW-5: then the cards may be shown).

The board: the 3 x 3 grid on the left (squares 1..9 in reading order, each with the first
letters of its cube's colour: where the cubes stand, or, while placing, where they go),
the manche and the phase of the next swap under it; on the right the two seats (the seat
whose swap is next inverted), the last verdict or recorded card, and what is expected now,
that text going on across the whole width under the grid when the panel is full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from companion.games.swiped.rules import ClaimChecked, Phase, PublicView
from companion.games.swiped.words import PREFIX, SCREEN_PHRASES
from companion.screens.font import INK, LARGE, PAPER, SMALL, ellipsize, wrap
from companion.screens.model import Notice
from companion.screens.render import (
    HEIGHT,
    LINE,
    WIDTH,
    Drawing,
    Pen,
    draw_notice,
    draw_stop,
    drawings,
    fit_name,
)
from companion.screens.text import (
    DEFAULT_LANGUAGE,
    check_lang,
    phrase,
    seat_name,
)


class SwSay(StrEnum):
    """What a Swiped prompt asks. Parameters by key (seats 0-based, spots 1..9, 0 the pad,
    colours by their engine names). The fault keys are the `reason` of `fault` events.

    LAYOUT                 draw a card face up and tap it on the pad
    PLACE card             place the cubes as that card shows (the grid shows where)
    TARGET seat            seat taps its secret target card on the pad
    PROGRAM seat           a manche begins: program 3 swaps, reveal them; seat swaps first
    SWAP seat              seat exchanges two cubes
    SWAP_OR_SKIP seat      the same, or push the encoder: same pair as the phase's first
    SWAPPING seat, spots   cubes in the air on those squares (claimer: a seat whose claim,
                           pressed meanwhile, is judged once the swap lands)
    GUESS seat             seat names a card: turns the encoder to it and pushes, or
                           taps it on the pad
    NAMING seat, card      seat's encoder aims at that card: push to name it
    WAIT_TABLE spots       put those squares back as they were (after back or a restart)
    PUT_BACK spots, colours    fault: wrong cubes; each square and the cube it must hold
    SAME_PAIR spots, colours   fault: the pair of the phase's first swap is applied once
    GUESS_FIRST seat       fault: a swap while seat names a card: put it back, tap the card
    UNKNOWN_TAG spot       fault: a tag that is not of the game
    CARD_ON_SQUARE spot    fault: a card on a square: take it off
    TWO_CARDS spot         fault: two new cards on the pad: one at a time
    CARD_TAKEN spot        fault: that card is the face-up card or the other target
    READER_SILENT spot     fault: the reader of that spot stopped answering
    ACROSS_SPOTS spots     fault: a cube or card lies across those two spots: put it on one
    OFF_MAT spot           fault: something lies on reader `spot`, which is no square of
                           the game: take it off
    """

    LAYOUT = "layout"
    PLACE = "place"
    TARGET = "target"
    PROGRAM = "program"
    SWAP = "swap"
    SWAP_OR_SKIP = "swap_or_skip"
    SWAPPING = "swapping"
    GUESS = "guess"
    NAMING = "naming"
    WAIT_TABLE = "wait_table"
    PUT_BACK = "put_back"
    SAME_PAIR = "same_pair"
    GUESS_FIRST = "guess_first"
    UNKNOWN_TAG = "unknown_tag"
    CARD_ON_SQUARE = "card_on_square"
    TWO_CARDS = "two_cards"
    CARD_TAKEN = "card_taken"
    READER_SILENT = "reader_silent"
    ACROSS_SPOTS = "across_spots"
    OFF_MAT = "off_mat"


SwParam = int | str | tuple[int, ...] | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SwPrompt:
    say: SwSay
    params: tuple[tuple[str, SwParam], ...] = ()

    @classmethod
    def of(cls, say: SwSay, **params: SwParam) -> SwPrompt:
        return cls(say, tuple(sorted(params.items())))

    def get(self, name: str) -> SwParam:
        return dict(self.params)[name]

    def spots(self) -> tuple[int, ...]:
        """The spots it names, in order."""
        params = dict(self.params)
        spot, spots = params.get("spot"), params.get("spots")
        if isinstance(spot, int):
            return (spot,)
        return tuple(s for s in spots if isinstance(s, int)) if isinstance(spots, tuple) else ()


@dataclass(frozen=True, slots=True)
class SwScreen:
    """Base of every Swiped screen: the public view and the seat names."""

    view: PublicView
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SwBoardScreen(SwScreen):
    """The grid, the seats and what is expected now."""

    prompt: SwPrompt
    verdict: ClaimChecked | None = None
    """The last claim's verdict, when it did not end the game (a false claim, refused)."""
    recorded: int | None = None
    """The seat whose target card was just recorded (never which card)."""


@dataclass(frozen=True, slots=True)
class SwFaultScreen(SwScreen):
    """STOP: what is wrong and how to fix it; play resumes when the table matches."""

    prompt: SwPrompt


@dataclass(frozen=True, slots=True)
class SwNoticeScreen(SwScreen):
    """A press (or a card on the pad) that could not count, for a few seconds."""

    notice: Notice


@dataclass(frozen=True, slots=True)
class SwGameOverScreen(SwScreen):
    """The game is over: the winner or the draw (SW-6), the claim that ended it, and now
    both target cards."""

    verdict: ClaimChecked | None
    targets: tuple[int, ...]


SwAnyScreen = SwBoardScreen | SwFaultScreen | SwNoticeScreen | SwGameOverScreen

# ------------------------------------------------------------------------------ words


def sw_phrase(key: str, lang: str = DEFAULT_LANGUAGE, **fields: object) -> str:
    """One entry of Swiped's catalogue, filled in."""
    return phrase(PREFIX + key, lang, **fields)


def sw_phrase_keys(lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    check_lang(lang)
    return tuple(SCREEN_PHRASES[lang])


def colour_name(colour: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return sw_phrase(f"colour.{colour}", lang)


def _places(spots: Sequence[int], lang: str) -> str:
    """ "case 3", "cases 2, 5", "le pad et case 3" (the pad, 0, by its name)."""
    squares = [s for s in spots if s != 0]
    named = [sw_phrase("pad", lang)] if len(squares) < len(spots) else []
    if len(squares) == 1:
        named.append(sw_phrase("spot", lang, n=squares[0]))
    elif squares:
        named.append(sw_phrase("spots", lang, n=", ".join(map(str, squares))))
    return f" {sw_phrase('and', lang)} ".join(named)


def sw_say(prompt: SwPrompt, names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence of a prompt."""
    params = dict(prompt.params)
    fields: dict[str, object] = {}
    seat = params.get("seat")
    if isinstance(seat, int):
        fields["s"] = seat_name(names, seat, lang)
    spots = prompt.spots()
    if spots:
        where = _places(spots, lang)
        fields["where"] = where
        fields["Where"] = where[:1].upper() + where[1:]
    colours = params.get("colours")
    if isinstance(colours, tuple):
        fields["items"] = ", ".join(
            sw_phrase("item", lang, n=spot, colour=colour_name(str(colour), lang))
            for spot, colour in zip(spots, colours, strict=True)
        )
    if "card" in params:
        fields["card"] = params["card"]
    if isinstance(params.get("spot"), int):
        fields["spot"] = params["spot"]
    key = f"say.{prompt.say}"
    claimer = params.get("claimer")
    if isinstance(claimer, int):
        fields["c"] = seat_name(names, claimer, lang)
        key += ".claim"
    return sw_phrase(key, lang, **fields)


def verdict_line(verdict: ClaimChecked, names: Sequence[str], lang: str) -> str:
    s = seat_name(names, verdict.seat, lang)
    return sw_phrase(f"verdict.{verdict.claim}.{str(verdict.correct).lower()}", lang, s=s)


def next_phase(view: PublicView) -> int:
    """SW-4: the phase (1..3) of the next swap; each phase has two swaps."""
    return min(view.step // 2 + 1, 3)


# -------------------------------------------------------------------------- renderers

PITCH_X = 20
PITCH_Y = 12
PANEL_X = 62
"""Where the right panel (seats, news, prompt) starts."""


def draw_grid(pen: Pen, view: PublicView, lang: str) -> None:
    """The 3 x 3 grid: each square's cube, by three letters of its colour, a pixel clear of
    each border (squares side by side share one, so that the letters have room)."""
    for square in range(1, 10):
        row, col = divmod(square - 1, 3)
        x, y = col * PITCH_X, row * PITCH_Y
        pen.rect((x, y, x + PITCH_X, y + PITCH_Y - 1), outline=INK)
        if view.grid:
            pen.text((x + 2, y + 2), sw_phrase(f"short.{view.grid[square - 1]}", lang))


def _seats(pen: Pen, screen: SwScreen, lang: str, turn: int | None) -> int:
    """One row per seat, the seat whose swap is next inverted. Returns the y below."""
    y = 0
    for seat in range(len(screen.names)):
        fill = INK
        if seat == turn:
            pen.rect((PANEL_X, y, WIDTH, y + 9), fill=INK)
            fill = PAPER
        name = f"{seat + 1} {seat_name(screen.names, seat, lang)}"
        pen.text((PANEL_X + 1, y + 1), ellipsize(name, WIDTH - PANEL_X - 2), fill=fill)
        y += 9
    return y


def render_board(pen: Pen, screen: SwBoardScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    view = screen.view
    draw_grid(pen, view, lang)
    if view.phase is Phase.EXECUTE:
        pen.text((0, 38), sw_phrase("where", lang, m=view.manche, p=next_phase(view)))
    top = _seats(pen, screen, lang, view.next_swap) + 1
    news = None
    if screen.verdict is not None:
        news = verdict_line(screen.verdict, screen.names, lang)
    elif screen.recorded is not None:
        news = sw_phrase("recorded", lang, s=seat_name(screen.names, screen.recorded, lang))
    prompt = sw_say(screen.prompt, screen.names, lang)
    _flow(pen, [news, prompt] if news is not None else [prompt], top)


BELOW_GRID = 46
"""Under the grid and the manche line: text may use the whole width from here down."""


def _flow(pen: Pen, paragraphs: Sequence[str], top: int) -> None:
    """Paragraphs from `top` in the right panel, beside the grid, then (when the panel
    cannot hold them) across the whole width under it; the last line ends with an
    ellipsis only when the text cannot fit."""
    left = [p for p in paragraphs if p]
    panel = [line for p in left for line in wrap(p, WIDTH - PANEL_X)]
    if len(panel) <= (HEIGHT - top) // LINE:
        for i, line in enumerate(panel):
            pen.text((PANEL_X, top + i * LINE), line)
        return
    rows = [(PANEL_X, y) for y in range(top, BELOW_GRID - LINE + 1, LINE)]
    rows += [(0, y) for y in range(BELOW_GRID, HEIGHT - LINE + 1, LINE)]
    text = ""
    for x, y in rows:
        if not text and left:
            text = left.pop(0)
        if not text:
            return
        last = (x, y) == rows[-1]
        if last and left:
            text = " ".join([text, *left])
        line, *more = wrap(text, WIDTH - x, max_lines=1 if last else None)
        pen.text((x, y), line)
        text = " ".join(more)


def render_fault(pen: Pen, screen: SwFaultScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    draw_stop(pen, sw_say(screen.prompt, screen.names, lang), lang)


def render_notice(pen: Pen, screen: SwNoticeScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    draw_notice(pen, screen.notice, screen.names, lang)


def render_game_over(pen: Pen, screen: SwGameOverScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The winner or the draw, framed; the claim that ended it; both target cards."""
    view = screen.view
    pen.rect((0, 0, WIDTH, HEIGHT), outline=INK)
    font = LARGE
    if view.winner is None:
        title = sw_phrase("over.drawn", lang)
        why = sw_phrase("over.limit", lang, n=view.manche)
    else:
        who = seat_name(screen.names, view.winner, lang)
        if LARGE.width(sw_phrase("over.won", lang, s=who)) > WIDTH - 8:
            font = SMALL  # the winner's whole name rather than its first letter
        title = fit_name(lambda s: sw_phrase("over.won", lang, s=s), who, WIDTH - 8, font)
        why = "" if screen.verdict is None else verdict_line(screen.verdict, screen.names, lang)
    pen.centered(3 if font is LARGE else 7, title, font)
    y = 21
    for line in wrap(why, WIDTH - 8, max_lines=2) if why else []:
        pen.centered(y, line)
        y += LINE
    y = 38
    for seat, card in enumerate(screen.targets):
        name = seat_name(screen.names, seat, lang)
        pen.text((4, y), fit_name(partial(_card_line, lang=lang, n=card), name, WIDTH - 8))
        y += LINE + 1


def _card_line(name: str, *, lang: str, n: int) -> str:
    return sw_phrase("over.card", lang, s=name, n=n)


__all__ = [
    "SwAnyScreen", "SwBoardScreen", "SwFaultScreen", "SwGameOverScreen", "SwNoticeScreen",
    "SwParam", "SwPrompt", "SwSay", "SwScreen", "colour_name", "draw_grid", "sw_phrase",
    "sw_phrase_keys", "sw_say", "verdict_line",
]  # fmt: skip


SCREENS = drawings(
    Drawing(SwBoardScreen, render_board),
    Drawing(SwFaultScreen, render_fault),
    Drawing(SwNoticeScreen, render_notice),
    Drawing(SwGameOverScreen, render_game_over),
)
"""Its screen kinds and how each is drawn: its descriptor's `screens`."""
