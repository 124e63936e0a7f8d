"""Every word the console shows, in French (the default, the rule books' language) and
English.

Screens never hold sentences: they hold a prompt (a key and its parameters) and public
engine facts, and this catalogue turns them into text for one language. Seat numbers in
parameters are 0-based seats; the text shows the seat's name. Everything here is checked
by the tests against the bitmap font, so a sentence can always be drawn.

The catalogue is shared and knows no game: its own phrases are the core's (the menu, the
refused presses, a seat's default name, a damaged journal...). A game's own phrases are
its descriptor's (`Game.words`, `console_words`, its facts' `menu_words`): the registry
adds them (`register_words`) when it loads the game or its facts, so a game's words are
here whenever the game is used. The command line's own words are its books
(`companion.cli_words.books`), in the same languages, so a table says everything in one
language; a game's words for the command line and the lab's are here, as drawn by no
screen. How a game says its prompts aloud is its descriptor's (`Game.say`).

French typography keeps its space before ":", ";", "!" and "?"; the font's `wrap` never
breaks a line there.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.screens.font import sanitize
from companion.screens.model import Notice

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


def check_lang(lang: str) -> str:
    """`lang` itself if the catalogue speaks it, else a ValueError naming the ones it does."""
    if lang not in LANGUAGES:
        supported = ", ".join(f'"{code}"' for code in LANGUAGES)
        raise ValueError(f"unknown language {lang!r}; supported languages: {supported}")
    return lang


def typed_kind(
    word: str, kinds: Iterable[str], name: Callable[[str, str], str], lang: str
) -> str | None:
    """The kind among `kinds` a player typed (`play --sim`'s console): as the engine spells
    it, or by its shown name `name(kind, lang)` in the table's language `lang`, else in the
    other one (the French word at an English table); None for no kind. Case is free."""
    typed = word.strip().casefold()
    kinds = tuple(kinds)
    for kind in kinds:
        if typed == kind.casefold():
            return kind
    for spoken in (check_lang(lang), *(other for other in LANGUAGES if other != lang)):
        for kind in kinds:
            if typed == name(kind, spoken).casefold():
                return kind
    return None


# ------------------------------------------------------------------------------ phrases

_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "notice.title": "{s} : {control}",
        "notice.not_now": "Ce bouton ne sert à rien maintenant.",
        "notice.table_first": "D’abord, remettez la table comme attendu.",
        "notice.not_seated": "Personne n’est assis à cette place.",
        "notice.already_called": "Déjà appelé pour ce tour.",
        "notice.nothing_to_undo": "Rien à annuler.",
        "notice.public_fact": "Impossible : ce que la table a vu reste vu.",
        "notice.not_your_turn": "Ce n’est pas ton tour.",
        "notice.not_your_step": "Retour n’annule que ton propre coup.",
        "control.announce": "Annonce",
        "control.choose": "Choix",
        "control.aim": "Choix",
        "control.back": "Retour",
        "notice.console": "Console",
        "seat": "Joueur {n}",
        "game.won_by": "Partie gagnée par",
        "fault.stop": "STOP",
        "place.pad": "Pad",
        "place.spot": "Case {n}",
        "menu.title.resume": "Une partie n’est pas finie.",
        "menu.option.resume": "Reprendre la partie",
        "menu.option.new": "Nouvelle partie",
        "menu.title.game": "Quel jeu ?",
        "menu.title.seats": "Combien de joueurs ?",
        "menu.players": "{n} joueurs",
        "menu.title.first": "Qui joue en premier ?",
        "menu.title.sound": "La table parle ?",
        "menu.sound.off": "Muette",
        "menu.volume": "Volume {n}",
        "menu.title.ready": "Chaque jeton devant son propriétaire, chapeaux vides.",
        "menu.waiting": "Pas encore vides : {places}",
        "menu.push": "Appuie pour jouer.",
        "menu.seat": "Siège {n}",
        "damage.title": "Journal abîmé",
        "damage.resumed": "Ligne {line} illisible, mise de côté. Partie reprise à l’entrée {n}.",
        "damage.new_game": "Ligne {line} illisible, mise de côté. Aucune partie à reprendre.",
        "walk.title": "Vérification",
    },
    "en": {
        "notice.title": "{s}: {control}",
        "notice.not_now": "That button does nothing now.",
        "notice.table_first": "First put the table back as expected.",
        "notice.not_seated": "Nobody sits at that seat.",
        "notice.already_called": "Already called this turn.",
        "notice.nothing_to_undo": "Nothing to undo.",
        "notice.public_fact": "Cannot undo: what the table has seen stays seen.",
        "notice.not_your_turn": "Not your turn.",
        "notice.not_your_step": "Back only takes back your own move.",
        "control.announce": "Announce",
        "control.choose": "Choose",
        "control.aim": "Choose",
        "control.back": "Back",
        "notice.console": "Console",
        "seat": "Seat {n}",
        "game.won_by": "Game won by",
        "fault.stop": "STOP",
        "place.pad": "Pad",
        "place.spot": "Spot {n}",
        "menu.title.resume": "A game is unfinished.",
        "menu.option.resume": "Resume the game",
        "menu.option.new": "New game",
        "menu.title.game": "Which game?",
        "menu.title.seats": "How many players?",
        "menu.players": "{n} players",
        "menu.title.first": "Who plays first?",
        "menu.title.sound": "Does the table speak?",
        "menu.sound.off": "Silent",
        "menu.volume": "Volume {n}",
        "menu.title.ready": "Put every token in front of its owner, hats empty.",
        "menu.waiting": "Not empty yet: {places}",
        "menu.push": "Push to play.",
        "menu.seat": "Seat {n}",
        "damage.title": "Journal damaged",
        "damage.resumed": "Line {line} unreadable, set aside. Game resumed from input {n}.",
        "damage.new_game": "Line {line} unreadable, set aside. No game to resume.",
        "walk.title": "Table check",
    },
}
"""The core's phrases, then every registered game's (`register_words`)."""

_OWNERS: dict[str, frozenset[str]] = {}
"""Which keys each game registered (the tests check every one against the font)."""
_UNDRAWN: set[str] = set()
"""The keys no screen draws: the command line's (a game's options and printables, the
lab's names and notes), which need neither the font nor the OLED's boxes."""


def register_words(
    owner: str, table: Mapping[str, Mapping[str, str]], *, drawn: bool = True
) -> None:
    """Add phrases, the same keys in every language of the catalogue: a game's (the
    registry, with its descriptor's words), or the lab's (`companion.cli_words.add_words`);
    `drawn=False` for words no screen draws (the command line's). A key the core or
    another game already says otherwise is a ValueError, so two games never share a key by
    accident."""
    keys = frozenset(table.get(DEFAULT_LANGUAGE, ()))
    for lang in LANGUAGES:
        if frozenset(table.get(lang, ())) != keys:
            raise ValueError(f"{owner}: the phrases of {lang!r} differ from those of French")
        for key, text in table[lang].items():
            if _PHRASES[lang].get(key, text) != text:
                raise ValueError(f"{owner}: phrase {key!r} is already said otherwise")
    for lang in LANGUAGES:
        _PHRASES[lang].update(table[lang])
    if drawn:
        _OWNERS[owner] = _OWNERS.get(owner, frozenset()) | keys
    else:
        _UNDRAWN.update(keys)


def registered_words() -> dict[str, frozenset[str]]:
    """Every game that registered phrases a screen may draw, and their keys."""
    return dict(_OWNERS)


def phrase(key: str, lang: str = DEFAULT_LANGUAGE, /, **fields: object) -> str:
    """One catalogue entry, filled in; a French one writes its numbers as French does
    (`number`). An unknown key is a KeyError (a programming error)."""
    return fill(_PHRASES[check_lang(lang)][key], lang, fields)


def fill(template: str, lang: str, fields: Mapping[str, object]) -> str:
    """`template` filled in with `fields`, its numbers written as `lang` writes them."""
    if lang == "fr" and (_numeric(template) or any(isinstance(v, float) for v in fields.values())):
        return _FRENCH_NUMBERS.vformat(template, (), fields)
    return template.format(**fields)


def number(value: float, spec: str = "", lang: str = DEFAULT_LANGUAGE) -> str:
    """`value` formatted by `spec` as `lang` writes numbers: French writes 1,5 and
    1 234 (a narrow no-break space) where English writes 1.5 and 1,234."""
    text = format(value, spec)
    return text.translate(_FRENCH_MARKS) if lang == "fr" else text


@functools.cache
def _numeric(template: str) -> bool:
    """Does `template` format a number with a decimal point or thousands ({n:,} {x:.1f})?"""
    return re.search(r"\{[^{}:]*:[^{}]*[.,][^{}]*\}", template) is not None


_FRENCH_MARKS = str.maketrans({".": ",", ",": "\u202f"})


class _FrenchNumbers(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return number(value, format_spec, "fr")
        return str(super().format_field(value, format_spec))


_FRENCH_NUMBERS = _FrenchNumbers()


def phrase_keys(lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The keys of the phrases a screen may draw (not the command line's)."""
    return tuple(key for key in _PHRASES[check_lang(lang)] if key not in _UNDRAWN)


def seat_name(names: Sequence[str], seat: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The configured name of a 0-based seat, mapped onto the font; "Joueur 3" if none."""
    if 0 <= seat < len(names):
        name = sanitize(names[seat])
        if name:
            return name
    return phrase("seat", lang, n=seat + 1)


def default_seat_names(count: int, lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The names of `count` seats nobody named, as the table's menu shows them: "Siège 1",
    "Siège 2"... in French, "Seat 1"... in English."""
    return tuple(phrase("menu.seat", lang, n=seat + 1) for seat in range(count))


def is_default_seat_name(name: str, seat: int) -> bool:
    """Is `name` the default name of the 0-based `seat` in some language ("Seat 3",
    "Siège 3"), or no name at all: a seat nobody named?"""
    return not name.strip() or any(
        name == phrase("menu.seat", lang, n=seat + 1) for lang in LANGUAGES
    )


# ------------------------------------------------------------------------------ notices


def notice_title(
    notice: Notice, names: Sequence[str], lang: str = DEFAULT_LANGUAGE, *, name: str | None = None
) -> str:
    """Whose press and which button: "Bob : Retour", a seat's button by the label its
    game declares (the console's own buttons have no seat: "Console : Annonce"). `name`,
    if given, stands for the seat's name."""
    if name is None:
        seat = notice.seat
        name = phrase("notice.console", lang) if seat is None else seat_name(names, seat, lang)
    try:
        control = phrase(f"control.{notice.control}", lang)
    except KeyError:  # a control this game does not use
        control = sanitize(notice.control.capitalize()) or "?"
    return phrase("notice.title", lang, s=name, control=control)


def notice_reason(notice: Notice, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the press could not count, in one sentence."""
    return phrase(f"notice.{notice.reason}", lang)
