"""PtiPassPass and PhiPassPass's OLED screens: plain data built from public facts only, and
their renderers.

The referee (`companion/games/passpass/referee.py`) builds one of these screens after every
input. Every screen carries the engine's `PublicView` (never a `State`) and the seat
names; the extra fields are public too: a verdict event, a prompt (`passpass_prompt.py`),
a fault, a refused press. Nothing here can hold a hat's contents or a hand, so no screen
can leak one.

Each screen kind has one renderer (`SCREENS`, which the game's descriptor gives the
registry), so whoever holds one of these screens can draw it with `render.draw` or
`render.frame`. All words come from `words.py`; every glyph from `font.py`. Long prompts
wrap and end with an ellipsis when they run out of lines; long names are cut with an
ellipsis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.games.passpass.prompt import Prompt
from companion.games.passpass.rules import VICTORIES_TO_WIN, Challenge, PublicView, Verdict
from companion.games.passpass.words import (
    Label,
    label,
    say,
    token_list,
    token_name,
    verdict_facts,
    verdict_outcome,
    verdict_title,
)
from companion.screens.font import INK, LARGE, PAPER, SMALL, Box, ellipsize, wrap
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
from companion.screens.text import DEFAULT_LANGUAGE, phrase, seat_name


@dataclass(frozen=True, slots=True)
class Screen:
    """Base of every PassPass screen: the public view and the names of the seats (clockwise)."""

    view: PublicView
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StatusScreen(Screen):
    """Manche, Masqué/Visible, the Magicien, each seat's Challenge and victory tokens, and
    what is expected now."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class CountdownScreen(Screen):
    """The challenge window is open (hat `view.spot`, announced `view.announced`)."""

    remaining: float
    """Seconds left before silence means OK."""
    total: float

    def same_moment(self, other: object) -> bool:
        """A countdown ticking down is one moment of the game (the demo draws it once)."""
        return isinstance(other, CountdownScreen) and other.view == self.view


@dataclass(frozen=True, slots=True)
class VerdictScreen(Screen):
    """A settled challenge with the facts the book makes public, and what to do now."""

    verdict: Verdict
    prompt: Prompt


@dataclass(frozen=True, slots=True)
class InstructionScreen(Screen):
    """A physical instruction the table must carry out before play goes on."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class RevealMapScreen(Screen):
    """The map of the hats (grid positions of spots 1..N) with the line being chosen."""

    positions: tuple[tuple[int, int], ...]
    line: tuple[int, int, int] | None
    swapped: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class FaultScreen(Screen):
    """ "Stop": what is wrong and how to fix it; play resumes when the table matches."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class NoticeScreen(Screen):
    """A refused press, for a few seconds: the seat, the button and the reason."""

    notice: Notice


@dataclass(frozen=True, slots=True)
class RevealMissScreen(Screen):
    """A failed reveal (PTI-11): the three hats lifted and what each held (the table saw
    them), then the hats go back as they were."""

    seat: int
    spots: tuple[int, int, int]
    lifted: tuple[tuple[str, ...], ...]
    """What each lifted hat held, in the order of `spots`."""


@dataclass(frozen=True, slots=True)
class MancheWonScreen(Screen):
    seat: int
    pick: tuple[str, ...]
    spots: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class GameWonScreen(Screen):
    seat: int


# ----------------------------------------------------------------- parts of several screens


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
    draw_stop(pen, _prompt(screen.prompt, screen, lang), lang)


def render_notice(pen: Pen, screen: NoticeScreen, lang: str = DEFAULT_LANGUAGE) -> None:
    draw_notice(pen, screen.notice, screen.names, lang)


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


SCREENS = drawings(
    Drawing(StatusScreen, render_status),
    Drawing(CountdownScreen, render_countdown),
    Drawing(VerdictScreen, render_verdict),
    Drawing(InstructionScreen, render_instruction),
    Drawing(RevealMapScreen, render_reveal_map),
    Drawing(FaultScreen, render_fault),
    Drawing(MancheWonScreen, render_manche_won),
    Drawing(NoticeScreen, render_notice),
    Drawing(RevealMissScreen, render_reveal_miss),
    Drawing(GameWonScreen, render_game_won),
)
"""Its screen kinds and how each is drawn: its descriptor's `screens`."""
