"""`companion play --sim --game vnp`: a Vous ne passerez pas ! table you operate by typing
what the players enter on their phones.

At a real table each act is a press the web page sends for a seat (docs/journal.md, "Vous
ne passerez pas !"); here each command is that press. A placement is typed as a piece, the
intersection (x, y) at the top left of the piece's box (x to the right, y downwards, from
0) and an orientation (`shapes PIECE` draws them), or as a placement id: the referee
judges it exactly as at a table, refusals and all, and the OLED is drawn after each
command. `board` draws the lattice board as text; you play every seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import IO

from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.rules import (
    COLOURS,
    PIECE_NAMES,
    PIECES,
    Colour,
    geometry,
    is_over,
    public_view,
)
from companion.games.vnp.rules.pieces import Mid, ends
from companion.games.vnp.screens import colour_name, colour_word
from companion.journal import Input, PressInput, TickInput
from companion.screens.text import DEFAULT_LANGUAGE, phrase, typed_kind
from companion.session import Session
from companion.sim.console import (
    UnknownCommand,
    columns_of,
    fill,
    hands_lines,
    obey,
    seat_of,
    show_table,
    wait_seconds,
)

HELP = "vnp.console.help"


def letters(lang: str) -> dict[Colour, str]:
    """Each colour's letter on the text board: its name's first in `lang` (j b r v, y b r g)."""
    return {colour: colour_word(str(colour), lang)[0] for colour in COLOURS}


def help_text(lang: str) -> str:
    """`help`, in the table's language `lang`."""
    colours = [colour_word(str(colour), lang) for colour in COLOURS]
    return phrase(HELP, lang, colours=", ".join(colours), other=colours[1],
                  letters=" ".join(letters(lang).values()))  # fmt: skip


def mids_of(size: int, pid: int) -> list[Mid]:
    """The doubled midpoints of a placement's segments."""
    g = geometry(size)
    mids = []
    for s in g.placement(pid).segments:
        (x1, y1), (x2, y2) = g.segment(s)
        mids.append((x1 + x2, y1 + y2))
    return mids


def placement_words(size: int, pid: int) -> tuple[str, int, int, int]:
    """(piece, orientation, x, y) of a placement: the inverse of `find_placement`."""
    g = geometry(size)
    piece = PIECES[g.piece_of[pid]]
    mids = mids_of(size, pid)
    x0 = min(a for a, _ in mids) // 2
    y0 = min(b for _, b in mids) // 2
    shape = tuple(sorted((a - 2 * x0, b - 2 * y0) for a, b in mids))
    return piece.name, piece.orientations.index(shape), x0, y0


def _no_piece(piece: str, lang: str) -> ValueError:
    return ValueError(phrase("vnp.console.no_piece", lang, piece=repr(piece),
                             pieces=", ".join(PIECE_NAMES)))  # fmt: skip


def find_placement(
    size: int, piece: str, orientation: int, x: int, y: int, lang: str = DEFAULT_LANGUAGE
) -> int:
    """The placement id of a piece in an orientation with the top left of its box at
    intersection (x, y); ValueError saying what is wrong, in `lang`."""
    if piece not in PIECE_NAMES:
        raise _no_piece(piece, lang)
    shapes = PIECES[PIECE_NAMES[piece]].orientations
    if not 0 <= orientation < len(shapes):
        last = len(shapes) - 1
        raise ValueError(phrase("vnp.console.orientations", lang, piece=piece, last=last))
    g = geometry(size)
    try:
        ids = frozenset(
            g.segment_id(((p[0] // 2, p[1] // 2), (q[0] // 2, q[1] // 2)))
            for p, q in (ends((a + 2 * x, b + 2 * y)) for a, b in shapes[orientation])
        )
    except ValueError:
        off = phrase("vnp.console.off_board", lang, piece=piece, o=orientation, x=x, y=y)
        raise ValueError(off) from None
    return g.by_segments[ids]


def draw_segments(
    width: int, height: int, segments: Iterable[tuple[Mid, str]], marks: dict[int, str]
) -> str:
    """A lattice of width x height intersections as text: intersection (x, y) at row 2y,
    column 2x; a segment's letter between its two intersections. `marks`: a letter for
    some intersections (by id, y * width + x)."""
    rows = [[" "] * (2 * width - 1) for _ in range(2 * height - 1)]
    for y in range(height):
        for x in range(width):
            rows[2 * y][2 * x] = marks.get(y * width + x, ".")
    for (a, b), letter in segments:
        rows[b][a] = letter
    return "\n".join("".join(row).rstrip() for row in rows)


def board_text(referee: VnpReferee, lang: str = DEFAULT_LANGUAGE) -> str:
    """The board with every placed segment as its colour's first letter (in `lang`), the
    start of a colour that has not placed yet in lower case, and x, y scales."""
    view = public_view(referee.state)
    letter = letters(lang)
    size = view.size
    segments = [
        (mid, letter[COLOURS[c]].upper())
        for c, ids in enumerate(view.placed)
        for pid in ids
        for mid in mids_of(size, pid)
    ]
    marks = {
        y * size + x: letter[COLOURS[c]]
        for c, (x, y) in enumerate(view.starts)
        if not view.placed[c]
    }
    lines = draw_segments(size, size, segments, marks).splitlines()
    head = "    " + " ".join(str(x % 10) for x in range(size))
    body = [
        (f"{y // 2:>3} {line}" if y % 2 == 0 else f"    {line}").rstrip()
        for y, line in enumerate(lines)
    ]
    return "\n".join([head, *body])


def shapes_text(piece: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """Every orientation of a piece, drawn, with its oN."""
    if piece not in PIECE_NAMES:
        raise _no_piece(piece, lang)
    out = []
    for i, shape in enumerate(PIECES[PIECE_NAMES[piece]].orientations):
        points = [p for mid in shape for p in ends(mid)]
        width = max(a for a, _ in points) // 2 + 1
        height = max(b for _, b in points) // 2 + 1
        out.append(f"o{i}:")
        lines = ((m, "-" if m[0] % 2 else "|") for m in shape)
        out.append(draw_segments(width, height, lines, {}))
    return "\n".join(out)


class VnpConsole:
    """The typed table: one command a line, each press at one second after the last."""

    def __init__(self, session: Session, out: IO[str], lang: str = "fr") -> None:
        referee = session.referee
        if not isinstance(referee, VnpReferee):
            raise TypeError(f"the typed VNP table plays vnp, not {referee.setup.game}")
        self.session = session
        self.referee = referee
        self.out = out
        self.lang = lang
        self.t = referee.now
        self.seen = len(referee.events)

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def feed(self, record: Input) -> None:
        self.t = max(self.t, record.t)
        self.session.feed(record)

    # ---------------------------------------------------------------- words

    def _split_as(self, args: list[str]) -> tuple[list[str], int | None]:
        """The words before `as SEAT`, and that seat (0-based) if given."""
        if "as" in args:
            i = args.index("as")
            return args[:i], seat_of(args[i + 1], self.referee.names, self.lang)
        return args, None

    def _colour(self, args: list[str]) -> tuple[list[str], Colour]:
        """A colour word among the args (removed), else the colour to play."""
        for word in args:
            colour = typed_kind(word, COLOURS, colour_name, self.lang)
            if colour is not None:  # in the table's language, the other, or the engine's
                return [w for w in args if w != word], Colour(colour)
        state = self.referee.state
        if is_over(state):
            example = colour_word(str(COLOURS[1]), self.lang)
            raise ValueError(phrase("vnp.console.over", self.lang, colour=example))
        return args, COLOURS[state.turn]

    def _seat(self, colour: Colour, seat: int | None) -> int:
        return self.referee.config.seat_of(COLOURS.index(colour)) if seat is None else seat

    def _placement(self, words: Sequence[str]) -> int:
        size = self.referee.config.size
        if len(words) == 1 and words[0].isdigit():
            return int(words[0])
        if not words:
            raise IndexError
        piece, where, *rest = words
        orientation = 0
        for word in rest:
            if word.lower().startswith("o") and word[1:].isdigit():
                orientation = int(word[1:])
            else:
                raise ValueError(phrase("vnp.console.orientation", self.lang, word=repr(word)))
        try:
            x, y = (int(v) for v in where.split(","))
        except ValueError:
            raise ValueError(phrase("vnp.console.place", self.lang, where=repr(where))) from None
        return find_placement(size, piece.lower(), orientation, x, y, self.lang)

    # -------------------------------------------------------------- commands

    def press(self, control: str, seat: int | None, value: object = None) -> None:
        self.feed(PressInput(round(self.t + 1.0, 3), control, seat, value))

    def look(self, verb: str, args: list[str]) -> bool:
        """The commands that only show something; False for any other verb."""
        referee = self.referee
        if verb == "board":
            self.say(board_text(referee, self.lang))
        elif verb == "pieces":
            view = public_view(referee.state)
            colours = [self._colour(args)[1]] if args else list(COLOURS)
            for colour in colours:
                left = " ".join(view.left[COLOURS.index(colour)])
                left = left or phrase("vnp.console.all_placed", self.lang)
                named = f"{colour_word(str(colour), self.lang)}: {left}"
                self.say(fill(named, columns_of(self.out) - 1))
        elif verb == "shapes":
            self.say(shapes_text(args[0].lower(), self.lang))
        elif verb == "legal":
            size = referee.config.size
            wanted = args[0].lower() if args else None
            found = [placement_words(size, pid) for pid in referee.legal()]
            found = [w for w in found if wanted is None or w[0] == wanted]
            for piece, o, x, y in found[:12]:
                self.say(f"  place {piece} {x},{y} o{o}")
            more = len(found) - 12
            if more > 0:
                self.say("  " + phrase("vnp.console.more", self.lang, n=more))
            else:
                self.say("  " + phrase("vnp.console.in_all", self.lang, n=len(found)))
        elif verb == "hands":
            self.say("\n".join(hands_lines(referee, self.lang)))
        elif verb == "view":
            self.say(json.dumps(referee.board_view()))
        elif verb in ("screen", "show"):
            self.show()
        elif verb == "help":
            self.say(help_text(self.lang))
        else:
            return False
        return True

    def handle(self, line: str) -> bool:
        """Carry out one typed line (`obey`); False once the player quits or the game is
        over."""
        return obey(line, self.out, self.command, self.show, lambda: self.referee.finished,
                    self.lang)  # fmt: skip

    def command(self, verb: str, args: list[str]) -> bool | None:
        """One command (`companion.sim.console.Act`)."""
        if self.look(verb, args):
            return True
        args, seat = self._split_as(args)
        if verb == "place":
            args, colour = self._colour(args)
            pid = self._placement(args)
            value = {"colour": str(colour), "placement": pid}
            self.press("place", self._seat(colour, seat), value)
        elif verb == "pass":
            args, colour = self._colour(args)
            self.press("pass", self._seat(colour, seat), {"colour": str(colour)})
        elif verb == "hint":
            self.press("hint", seat)
        elif verb == "back":
            self.press("back", seat)
        elif verb == "wait":
            self.feed(TickInput(round(self.t + wait_seconds(args[0], self.lang), 3)))
        else:
            raise UnknownCommand(verb, self.lang)
        return None

    def show(self) -> None:
        self.seen = show_table(self.referee, self.seen, self.out, self.lang)


def run_console(
    session: Session, lines: Iterable[str], out: IO[str], lang: str, echo: bool = False
) -> int:
    """Read commands until quit or the end of the game; `echo` them when not typed live."""
    console = VnpConsole(session, out, lang)
    print(help_text(lang), file=out)
    console.show()
    for line in lines:
        if echo:
            print(f"> {line.rstrip()}", file=out)
        if not console.handle(line):
            break
    session.close()
    return 0
