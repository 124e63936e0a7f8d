"""One readable line per referee event, for `companion replay`, `companion demo` and the
web page's history, in English (the command line's) or French (the table's default).

Events are public by construction (the engine's events and the referee's faults), so a
transcript can be shown to the whole table. A game's own events get their lines from its
descriptor (`Game.describe`); the lines here are those every game shares (a fault, a
fixed table, an undo, a refused press, a won game...), and know no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from companion import games
from companion.contract.game import Describer, EngineWords
from companion.referee.event_log import TableEvent
from companion.screens.text import check_lang, phrase

__all__ = [
    "Describer",
    "EngineWords",
    "Place",
    "describe",
    "engine_word",
    "line",
    "pieces",
    "shared_line",
]

Place = Callable[[int, str], str]
"""How a game names one of its spots in a line: (spot, language) -> "Chapeau 3"."""


# ------------------------------------------------------------------------------ words

_LINES: dict[str, dict[str, str]] = {
    "en": {
        "game_won": "{s} wins the game!",
        "fault": "STOP: {why} at {where}",
        "fault.table": "the table",
        "fault.reader": "reader {spot}",
        "fixed": "the table matches again: play goes on",
        "undo": "back: the {step} is taken back",
        "resume": "resumed after a cut",
        "ignored": "{whose}{control} refused: {why}",
        "ignored.seat": "{s}'s ",
        "ignored.unseated": "seat {n}'s ",
    },
    "fr": {
        "game_won": "{s} gagne la partie !",
        "fault": "STOP : {where} : {why}",
        "fault.table": "la table",
        "fault.reader": "lecteur {spot}",
        "fixed": "la table est de nouveau comme attendu : le jeu reprend",
        "undo": "retour : on annule {step}",
        "resume": "reprise après une coupure",
        "ignored": "bouton {control} refusé{whose} : {why}",
        "ignored.seat": " pour {s}",
        "ignored.unseated": " pour le joueur {n}",
    },
}
"""The shared lines, per language: English for the command line and the logs (unchanged),
French for the table's web page, in the OLED's words (`companion/screens/text.py`: comme
attendu, Retour...). Every key has the same fields in both languages."""

_FRENCH: dict[str, dict[str, str]] = {
    "fault": {
        "extra_tag": "{a_token} en trop",
        "missing_tag": "{a_token} a disparu",
        "unknown_tag": "jeton inconnu",
        "two_tags": "deux {tokens} à la fois",
        "reader_silent": "lecteur muet",
        "across_spots": "{a_token} à cheval sur deux lecteurs",
        "off_mat": "quelque chose hors du jeu",
        "restore": "pas comme attendu",
        "wait_table": "pas comme attendu",
    },
    "step": {
        "step": "la dernière étape",
        "last step": "la dernière étape",
    },
}
"""Engine names that an English line shows as they are ("extra tag", "last step"), in
French: a shared fault as the OLED words it (the fix's sentence without the place and the
instruction), an undone step. A game gives its own (its descriptor's `engine_words`)."""

_EN_PIECES = {"a_token": "a token", "token": "token", "tokens": "tokens"}
"""What an English line calls a game piece, whatever the game (as it always has)."""
_TAG_PIECES = {"a_token": "un tag", "token": "tag", "tokens": "tags"}
"""What a French line calls a game's piece when the game gives no word: the tag it carries."""


def line(key: str, lang: str, **fields: object) -> str:
    """The shared line (or part of a line) `key` in `lang` ("en" or "fr"), filled in."""
    return _LINES[check_lang(lang)][key].format(**fields)


def engine_word(group: str, name: str, lang: str, own: EngineWords | None = None) -> str:
    """An engine's name of `group` ("fault", "step", "phase") as `lang` says it: as the
    engine spells it in English ("extra tag", what the logs have always shown), in the
    table's words in French, the core's or else the game's (`own`, its descriptor's
    `engine_words`), the name itself when there are none."""
    if check_lang(lang) == "fr":
        for words in (_FRENCH, own or {}):
            if name in words.get(group, {}):
                return words[group][name]
    return name.replace("_", " ")


def pieces(lang: str, french: Mapping[str, str] | None = None) -> dict[str, str]:
    """How a line names a game piece: "a token" in English; in French the game's own words
    (`french`, e.g. "un animal"), else "tag"."""
    if check_lang(lang) == "en":
        return dict(_EN_PIECES)
    return dict(french or _TAG_PIECES)


def _spot(spot: int | None, lang: str, place: Place | None) -> str:
    """Where a fault is: "hat 3" in English for every spot of every game (as it always was);
    in French the game's name for it (`place`), else "Pad" or a board's "Case 3"."""
    if spot is None:
        return line("fault.table", lang)
    if check_lang(lang) == "en":
        return f"hat {spot}"
    if place is not None:
        return place(spot, lang)
    return phrase("place.pad", lang) if spot == 0 else phrase("place.spot", lang, n=spot)


def _control(control: str, lang: str) -> str:
    """A button: the press's control in English ("back", as the logs show it), the
    OLED's label in French ("Retour", a seat button's as its game declares it)."""
    if check_lang(lang) == "fr":
        try:
            return phrase(f"control.{control}", lang)
        except KeyError:  # a control the catalogue has no label for
            return control.capitalize()
    return control


# ------------------------------------------------------------------------------ lines


def describe(
    event: TableEvent, names: Sequence[str], game: str | None = None, lang: str = "en"
) -> str | None:
    """A sentence for `event` of `game` in `lang` ("en" or "fr"), or None for bookkeeping
    events not worth a line: the game's own line (its descriptor's `describe`), else the
    line every game shares."""
    known = games.known(game)
    own = known.describe if known is not None else None
    result = own(event, names, lang) if own else None
    if result is not None:
        return result
    return shared_line(event, names, lang, engine_words=known.engine_words if known else None)


def shared_line(
    event: TableEvent,
    names: Sequence[str],
    lang: str,
    *,
    words: Mapping[str, str] | None = None,
    place: Place | None = None,
    engine_words: EngineWords | None = None,
) -> str | None:
    """The line every game shares for `event` in `lang`, or None for an event it has no
    line for. A game's describer may give its French words for a piece (`words`: a_token,
    token, tokens) and for a spot (`place`); else a piece is a tag and a spot a case. Its
    engine's names are said in its `engine_words` (its descriptor's)."""

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event["kind"]
    fields: dict[str, object] = {"s": who(), **pieces(lang, words)}
    if kind == "fault":
        why = engine_word("fault", str(event["reason"]), lang, engine_words).format(**fields)
        where = _spot(event.get("spot"), lang, place)
        if event["reason"] == "off_mat":  # a reader where the game has no spot
            where = line("fault.reader", lang, spot=event.get("spot"))
        fields.update(why=why, where=where)
    elif kind == "undo":
        step = str(event.get("step", "last step"))
        fields["step"] = engine_word("step", step, lang, engine_words)
    elif kind == "ignored":
        fields.update(_ignored(event, names, who(), lang))
    elif kind not in ("game_won", "fixed", "resume"):
        return None
    return line(kind, lang, **fields)


def _ignored(event: TableEvent, names: Sequence[str], name: str, lang: str) -> dict[str, object]:
    """A press that could not count: whose (a seat's name, a seat nobody sits at, or the
    console's own button), which button, and why, as the OLED said it."""
    seat = event.get("seat")
    whose = ""
    if isinstance(seat, int):
        whose = (
            line("ignored.seat", lang, s=name)
            if 0 <= seat < len(names)
            else line("ignored.unseated", lang, n=seat + 1)
        )
    try:
        why = phrase(f"notice.{event['reason']}", lang)
    except KeyError:
        why = str(event["reason"])
    return {"whose": whose, "control": _control(str(event["control"]), lang), "why": why}
