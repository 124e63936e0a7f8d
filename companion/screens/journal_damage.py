"""The OLED's card after a start that found the journal damaged, for every game.

The service never stops on a damaged journal (docs/journal.md, "Damage"): it replays the
lines before the first bad one, keeps the file as it was in ``archive/`` and goes on. The
table must hear of it: this card says which line could not be read and from which input
the game resumed (or that no game could be resumed, when the setup line itself was
damaged). Like the pairing card, the referee loop draws it over the game's screen, for a
few seconds (`Session.damage_card`); then the game's own screen guides the table back to
the state the kept inputs expect.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.font import INK, PAPER, wrap
from companion.screens.pen import LINE, WIDTH, Pen
from companion.screens.text import phrase


@dataclass(frozen=True, slots=True)
class JournalDamageScreen:
    """`line`: the journal's first damaged line; `inputs`: how many inputs before it were
    replayed; `resumed`: False when no game could be resumed (a new one starts)."""

    line: int
    inputs: int
    resumed: bool = True


def damage_text(screen: JournalDamageScreen, lang: str) -> str:
    """The card's sentence."""
    if screen.resumed:
        return phrase("damage.resumed", lang, line=screen.line, n=screen.inputs)
    return phrase("damage.new_game", lang, line=screen.line)


def render_damage(pen: Pen, screen: JournalDamageScreen, lang: str) -> None:
    pen.rect((0, 0, WIDTH, 10), fill=INK)
    pen.centered(1, phrase("damage.title", lang), fill=PAPER)
    lines = wrap(damage_text(screen, lang), WIDTH, max_lines=6)
    pen.paragraph(12 + (52 - LINE * len(lines)) // 2, lines, center=True)
