"""Flip Done's OLED screens: plain data built from public facts only, and their renderers.

Every screen holds the engine's `PublicView` (never a `State`), the seat names and public
facts: a prompt (a key and its parameters), the scoring events of the last play, whether a
card waits on the pad (never which card). No field can hold a face-down card or a hand, so
no screen can show one. The words are the `fd.*` entries of `words.py`.

The board: the 3 x 3 mat on the left (squares 1..9 in reading order: an outline is a
face-down card, a letter the colour of an element's face-up card, R or N, filled once the
element was flipped; each line's owner as a seat number beside it: rows on the right,
columns below, the diagonal 1-5-9 at the bottom right, 3-5-7 at the bottom left), the
manche and phase under it; on the right the seats with their tokens (the seat to play
inverted), the last play's scoring and what is expected now.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.flipdone.rules import (
    LINES,
    Event,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheWon,
    PhaseEnded,
    PublicView,
    Stage,
    Tied,
    is_red,
)
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


class FdSay(StrEnum):
    """What a Flip Done prompt asks. Parameters by key (seats 0-based, spots 1..9, 0 the
    pad). The fault keys are the `reason` of the journal's `fault` events.

    DEAL_DOWN n            deal n more cards face down, one on each empty square
    DEAL_UP                the face-up card on the centre's face-down card
    PLACE_FIRST seat       (FD-2 variant) seat puts the face-up card on the square it chooses
    PLAY seat              seat plays: a card on a face-down card, or one on the pad
    PAD seat               a card lies on the pad: turn over one element, or push: no flip
    TURNING seat, spot     the element of `spot` is off its spot: put it back turned over
                           (the board inverts the seat to play, so these texts need no name)
    GATHER spots           the phase is over: take every card off (spots not empty yet)
    WAIT_TABLE spots       put those spots back as they were (after back or a restart)
    EXTRA_TAG spot         fault: a card too many: take it off
    MISSING_TAG spot       fault: a card is missing: put it back
    UNKNOWN_TAG spot       fault: a tag that is no card of the game: take it off
    TWO_TAGS spot          fault: two cards at once: one at a time
    STACKED spot           fault: that square already holds an element: take the card off
    FLIPPED_TWICE spot     fault: that element was already flipped: turn it back
    NOT_ELEMENT spot       fault: no element there to flip: put the card back face down
    ONE_FLIP spots         fault: several elements turned over: turn them back
    IN_PLAY spot           fault: that card is already in play this phase: put it back
    OUT_OF_TURN spot       fault: a second card before the first was read: take it back
    DEAL_FIRST spot        fault: the deal is not finished: take that card back
    DISCARD_FIRST spot     fault: an element lifted with no card on the pad: put it back
    READER_SILENT spot     fault: the reader of that spot stopped answering
    ACROSS_SPOTS spots     fault: a card lies across those two spots: put it on one
    OFF_MAT spot           fault: something lies on reader `spot`, which is no square of
                           the game: take it off
    RESTORE spots          fault: those spots are not as expected: put them back
    """

    DEAL_DOWN = "deal_down"
    DEAL_UP = "deal_up"
    PLACE_FIRST = "place_first"
    PLAY = "play"
    PAD = "pad"
    TURNING = "turning"
    GATHER = "gather"
    WAIT_TABLE = "wait_table"
    EXTRA_TAG = "extra_tag"
    MISSING_TAG = "missing_tag"
    UNKNOWN_TAG = "unknown_tag"
    TWO_TAGS = "two_tags"
    STACKED = "stacked"
    FLIPPED_TWICE = "flipped_twice"
    NOT_ELEMENT = "not_element"
    ONE_FLIP = "one_flip"
    IN_PLAY = "in_play"
    OUT_OF_TURN = "out_of_turn"
    DEAL_FIRST = "deal_first"
    DISCARD_FIRST = "discard_first"
    READER_SILENT = "reader_silent"
    ACROSS_SPOTS = "across_spots"
    OFF_MAT = "off_mat"
    RESTORE = "restore"


FdParam = int | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FdPrompt:
    say: FdSay
    params: tuple[tuple[str, FdParam], ...] = ()

    @classmethod
    def of(cls, say: FdSay, **params: FdParam) -> FdPrompt:
        return cls(say, tuple(sorted(params.items())))

    def get(self, name: str) -> FdParam:
        return dict(self.params)[name]


Scoring = LineMade | LineBroken | LineHeld | LineLost
"""The public scoring events of one play (FD-5..FD-8)."""


@dataclass(frozen=True, slots=True)
class FdScreen:
    """Base of every Flip Done screen: the public view and the seat names (clockwise)."""

    view: PublicView
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FdBoardScreen(FdScreen):
    """The mat, the seats and what is expected now (the deal, a play, a flip under way)."""

    prompt: FdPrompt
    pad: bool
    """A card lies on the pad, waiting for a flip or "no flip" (which card is hidden)."""
    news: tuple[Scoring, ...] = ()
    """What the last play scored."""


@dataclass(frozen=True, slots=True)
class FdFaultScreen(FdScreen):
    """STOP: what is wrong and how to fix it; play resumes when the table matches."""

    prompt: FdPrompt


@dataclass(frozen=True, slots=True)
class FdNoticeScreen(FdScreen):
    """A press that could not count, for a few seconds."""

    notice: Notice


@dataclass(frozen=True, slots=True)
class FdPhaseEndScreen(FdScreen):
    """A phase is over (FD-9): the cards left and paid, the manche's result (FD-10) or the
    tie that brings one more phase, and the cards still to gather."""

    ended: PhaseEnded
    manche: MancheWon | None
    tie: Tied | None
    prompt: FdPrompt


@dataclass(frozen=True, slots=True)
class FdGameOverScreen(FdScreen):
    """The game is over (FD-10): the winner(s) and everyone's tokens."""

    over: GameOver


FdAnyScreen = FdBoardScreen | FdFaultScreen | FdNoticeScreen | FdPhaseEndScreen | FdGameOverScreen

# ------------------------------------------------------------------------------ words


def fd_place(spot: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """A square or the pad: "Case 5" / "Spot 5", "Pad"."""
    if spot == 0:
        return phrase("fd.pad", lang)
    return phrase("fd.spot", lang, n=spot)


def fd_places(spots: tuple[int, ...], lang: str = DEFAULT_LANGUAGE) -> str:
    """Several places: "Cases 2 et 5", "Case 3 et pad", "Spots 1, 2 and 4", "Pad"."""
    squares = [str(s) for s in spots if s != 0]
    if not squares:
        return fd_place(0, lang)
    items = squares + ([phrase("fd.the_pad", lang)] if 0 in spots else [])
    if len(items) == 1:
        return fd_place(int(squares[0]), lang)
    joined = f"{', '.join(items[:-1])} {phrase('fd.and', lang)} {items[-1]}"
    return phrase("fd.spot" if len(squares) == 1 else "fd.spots", lang, n=joined)


def colour_letter(card: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """FD-1: only the colour shows: "R" (rouge / red) or "N" (noir) / "B" (black)."""
    return phrase("fd.red" if is_red(card) else "fd.black", lang)


def line_name(line: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """FD-4's lines, short: "col1", "rang2", "diag\\" (1-5-9), "diag/" (3-5-7)."""
    spec = LINES[line]
    if spec.diagonal:  # 1-5-9 falls like "\\", 3-5-7 rises like "/"
        return phrase("fd.line.diagonal", lang, slant="\\" if spec.squares[0] == 1 else "/")
    kind, n = spec.name.split()
    return phrase(f"fd.line.{kind}", lang, n=n)


def fd_say(prompt: FdPrompt, names: tuple[str, ...], lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence of a prompt."""
    check_lang(lang)
    params = dict(prompt.params)
    fields: dict[str, object] = {}
    for key, value in params.items():
        if key == "seat" and isinstance(value, int):
            fields["s"] = seat_name(names, value, lang)
        elif key == "spot" and isinstance(value, int):
            fields["Spot"] = fd_place(value, lang)
            fields["spot"] = value
        elif key == "spots" and isinstance(value, tuple):
            fields["Spots"] = fd_places(value, lang)
            pad = [phrase("fd.the_pad", lang)] if 0 in value else []
            fields["left"] = " ".join([str(s) for s in value if s != 0] + pad)
        else:
            fields[key] = value
    return phrase(f"fd.say.{prompt.say}", lang, **fields)


def scoring_line(event: Scoring, names: tuple[str, ...], lang: str = DEFAULT_LANGUAGE) -> str:
    """One line for a scoring event: "Bob +2 rang 1", "Cy prend 2 à Bob"."""
    line = line_name(event.line, lang)
    if isinstance(event, LineMade):
        s = seat_name(names, event.seat, lang)
        return phrase("fd.news.made", lang, s=s, n=event.value, line=line)
    owner = seat_name(names, event.owner, lang)
    if isinstance(event, LineBroken):
        s = seat_name(names, event.seat, lang)
        return phrase("fd.news.broken", lang, s=s, n=event.value, o=owner, line=line)
    if isinstance(event, LineHeld):
        return phrase("fd.news.held", lang, o=owner, n=event.bonus, line=line)
    return phrase("fd.news.lost", lang, o=owner, line=line)


def _where(view: PublicView, lang: str) -> str:
    """The manche and the phase, short: "M1 P2"."""
    return f"{phrase('fd.manche', lang)[0]}{view.manche} P{view.phase}"


# -------------------------------------------------------------------------- renderers

CELL = 11
PITCH = 13
GRID_X = 8
GRID_Y = 1
PANEL_X = 55
"""Where the right panel (seats, news, prompt) starts."""


def _cell(square: int) -> tuple[int, int, int, int]:
    row, col = divmod(square - 1, 3)
    x = GRID_X + col * PITCH
    y = GRID_Y + row * PITCH
    return (x, y, x + CELL, y + CELL)


def _owner_at(line: int) -> tuple[int, int]:
    """Where a line's owner is written: rows on the right, columns below, diagonals at the
    bottom corners they point to."""
    spec = LINES[line]
    bottom = GRID_Y + 3 * PITCH
    if spec.diagonal:
        return (GRID_X + 3 * PITCH, bottom) if spec.squares[0] == 1 else (1, bottom)
    kind, n = spec.name.split()
    i = int(n) - 1
    if kind == "row":
        return (GRID_X + 3 * PITCH, GRID_Y + i * PITCH + 2)
    return (GRID_X + i * PITCH + 3, bottom)


def draw_mat(pen: Pen, view: PublicView, lang: str) -> None:
    """The 3 x 3 mat with each element's colour and each line's owner."""
    for square in range(1, 10):
        box = _cell(square)
        x0, y0, x1, y1 = box
        face = view.faces[square - 1]
        if face is None:
            if view.dealt[square - 1]:
                pen.rect(box, outline=INK)  # a face-down card
            else:
                mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
                pen.rect((mid_x, mid_y, mid_x + 1, mid_y + 1), fill=INK)  # an empty square
            continue
        flipped = view.flipped[square - 1]
        pen.rect(box, fill=INK if flipped else None, outline=INK)
        letter = colour_letter(face, lang)
        ink = PAPER if flipped else INK
        pen.text((x0 + (CELL - SMALL.width(letter)) // 2, y0 + 2), letter, fill=ink)
    for line, owner in enumerate(view.owners):
        if owner is not None:
            pen.text(_owner_at(line), str(owner + 1))


def _seats(pen: Pen, screen: FdScreen, lang: str, top: int, turn: int | None) -> int:
    """One row per seat: its number and name, its tokens right-aligned; the seat to play
    inverted. Returns the y below."""
    view = screen.view
    y = top
    for seat in range(len(view.tokens)):
        fill = INK
        if seat == turn:
            pen.rect((PANEL_X, y, WIDTH, y + 9), fill=INK)
            fill = PAPER
        tokens = str(view.tokens[seat])
        x = pen.right(y + 1, tokens, right=WIDTH - 1, fill=fill)[0]
        name = f"{seat + 1} {seat_name(screen.names, seat, lang)}"
        pen.text((PANEL_X + 1, y + 1), ellipsize(name, x - PANEL_X - 4), fill=fill)
        y += 9
    return y


def render_board(pen: Pen, screen: FdBoardScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    view = screen.view
    draw_mat(pen, view, lang)
    pen.text((0, 48), _where(view, lang))
    if view.extra:
        pen.text((0, 56), phrase("fd.tie_phase", lang))
    elif screen.pad:
        pen.text((0, 56), phrase("fd.pad", lang))
    turn = view.turn if view.stage is not Stage.DEAL else None
    y = _seats(pen, screen, lang, 0, turn) + 1
    width = WIDTH - PANEL_X
    news = screen.news if screen.prompt.say is FdSay.PLAY else ()
    for event in news[:2]:
        pen.text((PANEL_X, y), ellipsize(scoring_line(event, screen.names, lang), width))
        y += LINE
    lines = wrap(fd_say(screen.prompt, screen.names, lang), width, max_lines=(HEIGHT - y) // LINE)
    for line in lines:
        pen.text((PANEL_X, y), line)
        y += LINE


def render_fault(pen: Pen, screen: FdFaultScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    draw_stop(pen, fd_say(screen.prompt, screen.names, lang), lang)


def render_notice(pen: Pen, screen: FdNoticeScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    draw_notice(pen, screen.notice, screen.names, lang)


def render_phase_end(pen: Pen, screen: FdPhaseEndScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The phase's end: who paid for cards left (FD-9), the manche's winner (FD-10) or a
    tie, then the cards to gather."""
    view = screen.view
    ended = screen.ended
    pen.rect((0, 0, WIDTH, 9), fill=INK)
    pen.centered(1, phrase("fd.phase_over", lang), fill=PAPER)
    y = 10
    for seat in range(len(view.tokens)):
        tokens = str(view.tokens[seat])
        paid = ended.paid[seat] if seat < len(ended.paid) else 0
        right = f"-{paid} {tokens}" if paid else tokens
        x = pen.right(y, right, right=WIDTH - 1)[0]
        name = seat_name(screen.names, seat, lang)
        pen.text((1, y), ellipsize(f"{seat + 1} {name}", x - 5))
        y += LINE
    if screen.manche is not None:
        m = screen.manche
        who = seat_name(screen.names, m.seat, lang)
        text = fit_name(
            lambda s: phrase("fd.manche_won", lang, m=m.manche, s=s, n=m.bonus), who, WIDTH
        )
        pen.text((0, y), text)
        y += LINE
    elif screen.tie is not None:
        pen.text((0, y), ellipsize(phrase("fd.tie", lang), WIDTH))
        y += LINE
    pen.hline(y)
    lines = wrap(
        fd_say(screen.prompt, screen.names, lang), WIDTH, max_lines=(HEIGHT - y - 2) // LINE
    )
    pen.paragraph(y + 2, lines)


def render_game_over(pen: Pen, screen: FdGameOverScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The winner(s), framed, and everyone's tokens."""
    over = screen.over
    pen.rect((0, 0, WIDTH, HEIGHT), outline=INK)
    pen.centered(3, phrase("game.won_by", lang))
    winners = " & ".join(seat_name(screen.names, s, lang) for s in over.winners)
    pen.centered(13, ellipsize(winners, WIDTH - 8, LARGE), LARGE)
    y = 31
    for seat, tokens in enumerate(over.tokens):
        name = seat_name(screen.names, seat, lang)
        x = pen.right(y, str(tokens), right=WIDTH - 4)[0]
        pen.text((4, y), ellipsize(f"{seat + 1} {name}", x - 8))
        y += LINE


__all__ = [
    "Event", "FdAnyScreen", "FdBoardScreen", "FdFaultScreen", "FdGameOverScreen",
    "FdNoticeScreen", "FdParam", "FdPhaseEndScreen", "FdPrompt", "FdSay", "FdScreen",
    "Scoring", "colour_letter", "draw_mat", "fd_place", "fd_places", "fd_say", "line_name",
    "scoring_line",
]  # fmt: skip


SCREENS = drawings(
    Drawing(FdBoardScreen, render_board),
    Drawing(FdFaultScreen, render_fault),
    Drawing(FdNoticeScreen, render_notice),
    Drawing(FdPhaseEndScreen, render_phase_end),
    Drawing(FdGameOverScreen, render_game_over),
)
"""Its screen kinds and how each is drawn: its descriptor's `screens`."""
