"""Vous ne passerez pas !'s OLED screens: plain data built from public facts, and their
renderers.

Nothing is hidden in this game, so a screen holds the engine's `PublicView`, the seat
names, who plays which colour (VNP-7) and the names of the sides, plus what the referee
shows on top: the last placement, a hint asked for, a refused press with the ruling that
refused it. Players act on their phones (the table's web page); the OLED is the table's
shared summary.

The board screen: on the left, the board in miniature (one dot an intersection, every
piece as a thin line; the hint, or else the last placement, drawn thick; the start
intersection of a colour that has not placed yet as a small square); on the right, the
colour to play and its seat (inverted), what just happened (the last placement, a pass, or
the hint asked for), and each colour's score so far (the segments of its pieces left,
VNP-6); under the board, for two players or teams, each side's sum (VNP-7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from companion.games.vnp.rules import (
    ALL_PLACED_BONUS,
    COLOURS,
    PIECES,
    Colour,
    PublicView,
    geometry,
)
from companion.games.vnp.rules.pieces import Point, Segment
from companion.games.vnp.words import FEMININE, PREFIX, SCREEN_PHRASES, WHY_FR, VnpRefusal
from companion.screens.font import INK, PAPER, Box, ellipsize, wrap
from companion.screens.model import Notice
from companion.screens.render import (
    HEIGHT,
    LINE,
    WIDTH,
    Drawing,
    Pen,
    draw_notice,
    drawings,
    fit_name,
)
from companion.screens.text import (
    DEFAULT_LANGUAGE,
    check_lang,
    notice_reason,
    notice_title,
    phrase,
    seat_name,
)


@dataclass(frozen=True, slots=True)
class Shown:
    """A placement the OLED (and the web page) shows: the last one made, or a hint. A hint
    for a colour that can place nothing (VNP-5: it must pass) has no piece."""

    colour: Colour
    piece: str | None
    segments: tuple[Segment, ...]
    placement: int | None = None

    def to_json(self) -> dict[str, object]:
        """As `board_view` gives it: {"colour", "piece", "segments": [[x1,y1,x2,y2]...]}."""
        return {
            "colour": str(self.colour),
            "piece": self.piece,
            "segments": [[a[0], a[1], b[0], b[1]] for a, b in self.segments],
        }


def shown_of(colour: Colour, placement: int | None, size: int) -> Shown:
    """The `Shown` of a placement id of the board size (None: no piece, a pass)."""
    if placement is None:
        return Shown(colour, None, ())
    g = geometry(size)
    segments = tuple(g.segment(s) for s in g.placement(placement).segments)
    return Shown(colour, PIECES[g.piece_of[placement]].name, segments, placement)


@dataclass(frozen=True, slots=True)
class VnpScreen:
    """Base of every VNP screen: the public view, the seat names, the seat of each colour
    (in COLOURS order) and the name of each side (a seat, or a team)."""

    view: PublicView
    names: tuple[str, ...]
    colour_seats: tuple[int, ...]
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VnpBoardScreen(VnpScreen):
    """The game going on: whose turn, the last placement or pass, a hint, the scores."""

    last: Shown | None = None
    """The last placement still on the board."""
    passed: Colour | None = None
    """The colour that just passed (VNP-5), when that is the news."""
    hint: Shown | None = None
    """The hint asked for (shown until the next action)."""


@dataclass(frozen=True, slots=True)
class VnpNoticeScreen(VnpScreen):
    """A press that could not count, for NOTICE_SECONDS; with the ruling and the engine's
    sentence when a rule refused it (VNP-4: "pieces never cross...")."""

    notice: Notice
    ruling: str | None = None
    why: str | None = None


@dataclass(frozen=True, slots=True)
class VnpGameOverScreen(VnpScreen):
    """VNP-6: every colour's score (the -10 of a colour that placed all), the sides' sums
    (VNP-7) and the winners (the lowest)."""


VnpAnyScreen = VnpBoardScreen | VnpNoticeScreen | VnpGameOverScreen

# ------------------------------------------------------------------------------ words


def vnp_phrase(key: str, lang: str = DEFAULT_LANGUAGE, **fields: object) -> str:
    """One entry of the catalogue, filled in."""
    return phrase(PREFIX + key, lang, **fields)


def vnp_phrase_keys(lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    check_lang(lang)
    return tuple(SCREEN_PHRASES[lang])


def colour_name(colour: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return vnp_phrase(f"colour.{colour}", lang)


def colour_word(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A colour as a line names it mid-sentence in `lang` ("yellow", "jaune"); a team of
    colours ("bleu + vert", VNP-7) colour by colour; any other name (a seat's) as it is."""
    parts = name.split(" + ")
    if not all(part in FEMININE for part in parts):
        return name
    return " + ".join(colour_name(part, lang).lower() for part in parts)


_ENGINE_COLOUR = re.compile(r"\b(?:" + "|".join(FEMININE) + r")\b")
"""A colour as the engine's English sentences name it (its own French name)."""


def why_text(why: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The engine's sentence for a refused action, as a sentence of `lang`: in English the
    engine's own, its colours named in English."""
    if check_lang(lang) == "en":
        why = _ENGINE_COLOUR.sub(lambda found: colour_word(found[0], lang), why)
    else:
        for pattern, french in WHY_FR:
            match = re.fullmatch(pattern, why)
            if match:
                found = match.groupdict()
                colour = found.get("c", "")
                named = colour_name(colour, lang) if colour in FEMININE else colour
                return french.format(C=named, f=FEMININE.get(colour, colour), p=found.get("p"))
    first = next((i for i, ch in enumerate(why) if ch.isalpha()), 0)
    text = why[:first] + why[first : first + 1].upper() + why[first + 1 :]
    return text if text.endswith(".") else text + "."


def side_line(screen: VnpScreen, lang: str) -> str:
    """The sides' sums (VNP-7), "Ana 22 · Bob 31"; empty when each seat is one colour."""
    if len(screen.sides) == len(COLOURS):
        return ""
    return " · ".join(
        f"{_side_name(screen, i, lang)} {score}" for i, score in enumerate(screen.view.side_scores)
    )


def _side_name(screen: VnpScreen, side: int, lang: str) -> str:
    """A side as the OLED names it: a seat's name, or a team by its colours' letters."""
    if len(screen.sides) == len(screen.names):
        return seat_name(screen.names, side, lang)
    colours = [c for c in COLOURS if _side_of(screen, COLOURS.index(c)) == side]
    return "+".join(colour_name(c, lang)[:1] for c in colours)


def _side_of(screen: VnpScreen, colour: int) -> int:
    """VNP-7: the side of a colour, from the screen's facts (two sides: bleu + vert is 0)."""
    if len(screen.sides) == len(COLOURS):
        return colour
    return 0 if COLOURS[colour] in (Colour.BLEU, Colour.VERT) else 1


def winners_line(screen: VnpScreen, lang: str, width: int) -> str:
    """VNP-6, the lowest score wins: "Bob gagne !", "Ana et Bob gagnent !", "B+V gagne !",
    or "Égalité !" when every side has the lowest score."""
    winners = screen.view.winners
    if len(winners) == len(screen.view.side_scores) > 1:
        return vnp_phrase("tie", lang)
    names = [_side_name(screen, side, lang) for side in winners]
    if len(names) == 1:
        return fit_name(lambda s: vnp_phrase("won", lang, s=s), names[0], width)
    joined = ", ".join(names[:-1]) + vnp_phrase("and", lang) + names[-1]
    return ellipsize(vnp_phrase("won.many", lang, s=joined), width)


# -------------------------------------------------------------------------- renderers

PANEL_X = 53
"""Where the right panel starts (the miniature board is on the left)."""
ORIGIN = 1
"""Where intersection (0, 0) of the miniature board is drawn (x and y): a thick segment on
the edge stays on the screen."""


def board_pitch(size: int) -> int:
    """Pixels between two intersections of the miniature board: 4 for the 13 x 13 board."""
    return max(1, min(4, 48 // max(size - 1, 1)))


def draw_board(pen: Pen, view: PublicView, thick: Shown | None) -> None:
    """The board in miniature at the top left: a dot per intersection, every piece as a
    thin line, `thick` drawn 3 pixels wide, each start intersection of a colour that has
    not placed yet as a 3 x 3 square. The dots and pieces are one kept drawing
    (`miniature`), inked in one call."""
    pen.bitmap((0, 0), miniature(view.size, view.starts, view.placed))
    if thick is not None:
        pitch = board_pitch(view.size)
        for segment in thick.segments:
            pen.rect(_segment(segment, pitch, 1), fill=INK)


PlacedIds = tuple[tuple[int, ...], ...]

_last_miniature: tuple[tuple[int, tuple[Point, ...], PlacedIds], Image.Image] | None = None
"""The last miniature drawn, and what it shows: the next frame usually adds one piece."""


def miniature(size: int, starts: tuple[Point, ...], placed: PlacedIds) -> Image.Image:
    """The board's dots, the pieces `placed` (per colour, placement ids) and the starts of
    the colours that placed nothing, as a 1-bit mask of the screen. Drawn on the last one
    when it shows a part of these pieces (only the new ones are drawn), else on the
    board's empty dots (`_dots`); kept for the next frame, never changed once made."""
    global _last_miniature
    key = (size, starts, placed)
    last = _last_miniature
    if last is not None and last[0] == key:
        return last[1]
    g, pitch = geometry(size), board_pitch(size)
    before: PlacedIds = tuple(() for _ in placed)
    mask = _dots(size)
    if last is not None:
        (old_size, old_starts, old_placed), old_mask = last
        if (
            old_size == size
            and old_starts == starts
            and all(bool(old) == bool(new) and new[: len(old)] == old
                    for old, new in zip(old_placed, placed, strict=True))
        ):  # fmt: skip
            before, mask = old_placed, old_mask
    mask = mask.copy()
    draw = ImageDraw.Draw(mask)
    for colour, ids in enumerate(placed):
        for pid in ids[len(before[colour]) :]:
            for s in g.placement(pid).segments:
                _ink(draw, _segment(g.segment(s), pitch, 0))
        if not ids:
            x, y = starts[colour]
            at_x, at_y = ORIGIN + x * pitch, ORIGIN + y * pitch
            _ink(draw, (at_x - 1, at_y - 1, at_x + 2, at_y + 2))
    _last_miniature = (key, mask)
    return mask


@cache
def _dots(size: int) -> Image.Image:
    """The empty board's dots, one an intersection (none when they would touch)."""
    mask = Image.new("1", (WIDTH, HEIGHT))
    pitch = board_pitch(size)
    if pitch > 2:
        draw = ImageDraw.Draw(mask)
        for y in range(size):
            for x in range(size):
                at_x, at_y = ORIGIN + x * pitch, ORIGIN + y * pitch
                _ink(draw, (at_x, at_y, at_x + 1, at_y + 1))
    return mask


def _ink(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Light `box` (right and bottom exclusive, as `Pen.rect`) on a mask."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=1)


def _segment(segment: Segment, pitch: int, grow: int) -> Box:
    """The box of one unit segment, `grow` pixels wider on each side than a 1-pixel line."""
    (x1, y1), (x2, y2) = sorted(segment)
    left, top = ORIGIN + x1 * pitch - grow, ORIGIN + y1 * pitch - grow
    return left, top, ORIGIN + x2 * pitch + 1 + grow, ORIGIN + y2 * pitch + 1 + grow


def _panel(pen: Pen, y: int, text: str) -> None:
    pen.text((PANEL_X, y), ellipsize(text, WIDTH - PANEL_X))


def news_line(screen: VnpBoardScreen, lang: str) -> str:
    """What just happened, or the hint asked for."""
    hint = screen.hint
    if hint is not None:
        if hint.piece is None:
            return vnp_phrase("hint.pass", lang)
        return vnp_phrase("hint", lang, p=hint.piece)
    if screen.passed is not None:
        return vnp_phrase("passed", lang, c=colour_name(screen.passed, lang))
    last = screen.last
    if last is not None:
        return vnp_phrase("placed", lang, c=colour_name(last.colour, lang), p=last.piece)
    return ""


def render_board(pen: Pen, screen: VnpBoardScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    view = screen.view
    draw_board(pen, view, screen.hint or screen.last)
    pen.rect((PANEL_X - 1, 0, WIDTH, 10), fill=INK)
    if view.turn is not None and view.seat is not None:
        who = seat_name(screen.names, view.seat, lang)
        colour = colour_name(view.turn, lang)
        turn = fit_name(lambda s: vnp_phrase("turn", lang, c=colour, s=s), who, WIDTH - PANEL_X - 1)
        pen.text((PANEL_X, 1), turn, fill=PAPER)
    _panel(pen, 12, news_line(screen, lang))
    for i, colour in enumerate(COLOURS):
        out = vnp_phrase("out", lang) if view.passed[i] or not view.left[i] else ""
        short = vnp_phrase(f"short.{colour}", lang)
        _panel(pen, 22 + i * LINE, f"{short} {view.scores[i]:>3} {out}".rstrip())
    sides = side_line(screen, lang)
    if sides:
        pen.text((0, HEIGHT - LINE), ellipsize(sides, WIDTH))


def render_notice(pen: Pen, screen: VnpNoticeScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """A refused press: whose and which control, inverted, then why; a rule's refusal
    names the ruling and the engine's sentence."""
    notice = screen.notice
    if screen.ruling is None:
        draw_notice(pen, notice, screen.names, lang)
        return
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    name = (
        phrase("notice.console", lang)
        if notice.seat is None
        else seat_name(screen.names, notice.seat, lang)
    )
    title = fit_name(lambda s: notice_title(notice, screen.names, lang, name=s), name, WIDTH - 2)
    pen.centered(1, title, fill=PAPER)
    if notice.reason is VnpRefusal.ILLEGAL_PLACEMENT and screen.why:
        why = why_text(screen.why, lang)
    else:
        why = notice_reason(notice, lang)
    body = vnp_phrase("rule", lang, r=screen.ruling, why=why)
    lines = wrap(body, WIDTH, max_lines=6)
    pen.paragraph(12 + (52 - LINE * len(lines)) // 2, lines, center=True)


def render_game_over(pen: Pen, screen: VnpGameOverScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    """The title, the winners, each colour's score and the sides' sums (VNP-7). With four
    players each row names the colour's seat too, and the -10 of a colour that placed all
    (VNP-6) is starred and told in the last row; otherwise that row says it."""
    view = screen.view
    four = len(screen.sides) == len(COLOURS)
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    pen.centered(1, vnp_phrase("over", lang), fill=PAPER)
    pen.centered(12, winners_line(screen, lang, WIDTH))
    bonus = False
    for i, colour in enumerate(COLOURS):
        y = 22 + i * LINE
        score = view.scores[i]
        all_placed = not view.left[i] and score == ALL_PLACED_BONUS
        bonus |= all_placed
        if all_placed:
            right = f"{score}*" if four else vnp_phrase("all_placed", lang, n=score)
        else:
            right = f"{score} " if four else str(score)
        pen.right(y, right)
        left = colour_name(colour, lang)
        if four:
            left = f"{left} {seat_name(screen.names, screen.colour_seats[i], lang)}"
        pen.text((0, y), ellipsize(left, WIDTH - 6 * (len(right) + 1)))
    last = side_line(screen, lang)
    if four and bonus:
        last = vnp_phrase("bonus", lang, n=ALL_PLACED_BONUS)
    if last:
        pen.text((0, HEIGHT - LINE), ellipsize(last, WIDTH))


__all__ = [
    "ORIGIN", "PANEL_X", "Shown", "VnpAnyScreen", "VnpBoardScreen", "VnpGameOverScreen",
    "VnpNoticeScreen", "VnpScreen", "board_pitch", "colour_name", "colour_word", "draw_board",
    "news_line", "shown_of", "side_line", "vnp_phrase", "vnp_phrase_keys", "why_text",
    "winners_line",
]  # fmt: skip


SCREENS = drawings(
    Drawing(VnpBoardScreen, render_board),
    Drawing(VnpNoticeScreen, render_notice),
    Drawing(VnpGameOverScreen, render_game_over),
)
"""Its screen kinds and how each is drawn: its descriptor's `screens`."""
