"""Vous ne passerez pas !'s own rule checks, made once for a table's setup and the lab:
a `mode` that does not fit the players (VNP-7) and `starts` that are not one intersection of
the board a colour. Each says what is wrong (`companion.rule_checks.Wrong`, worded in
`BOOK`) or None; the referee raises its `SetupError`, the lab its `Refusal`."""

from __future__ import annotations

from companion.games.vnp.rules.config import COLOURS, Mode
from companion.phrasebook import Book
from companion.rule_checks import Wrong, typed

BOOK = Book("cli.vnp.rules.", {
    "mode_players": ("`rules` : le mode {mode} se joue à {wanted} joueurs, pas à {n} (VNP-7)",
                     "rules: the mode {mode} is for {wanted} players, not {n} (VNP-7)"),
    "starts": ("`rules` : `starts` est {colours} intersections `[x, y]` du plateau de {size} × "
               "{size} (jaune, bleu, rouge, vert), pas {value}",
               "rules: `starts` is {colours} intersections `[x, y]` on the {size} × {size} "
               "board (yellow, blue, red, green), not {value}"),
})  # fmt: skip
"""Their words, in French and English."""


def wrong_mode(mode: Mode, players: int) -> Wrong | None:
    """VNP-7: mode two is for 2 players, four and teams for 4."""
    wanted = 2 if mode is Mode.TWO else 4
    if players == wanted:
        return None
    return Wrong("mode_players", {"mode": typed(str(mode)), "wanted": wanted, "n": typed(players)},
                 BOOK)  # fmt: skip


def wrong_starts(starts: object, size: int) -> Wrong | None:
    """`starts`: none (VNP-2's for the board), or one intersection [x, y] of the `size` x
    `size` board a colour."""
    if (
        isinstance(starts, list | tuple)
        and (not starts or len(starts) == len(COLOURS))
        and all(
            isinstance(s, list | tuple)
            and len(s) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < size for v in s)
            for s in starts
        )
    ):
        return None
    return starts_refused(starts, size)


def starts_refused(starts: object, size: int) -> Wrong:
    """`starts` the board of `size` cannot take."""
    return Wrong("starts", {"colours": len(COLOURS), "size": size, "value": typed(starts)}, BOOK)
