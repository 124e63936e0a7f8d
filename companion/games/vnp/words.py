"""The OLED's words of Vous ne passerez pas !, in French and English, registered in the shared
catalogue (`companion/screens/text.py`) when this module is imported (the game's descriptor
and screens import it): its screens' phrases, under `vnp.` there, and the shared screens'
sentences that are its own (its ready prompt, its refused presses, its buttons).
"""

from __future__ import annotations

from companion.screens.text import register_words

SCREEN_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "colour.jaune": "Jaune", "colour.bleu": "Bleu", "colour.rouge": "Rouge",
        "colour.vert": "Vert",
        "short.jaune": "Jau", "short.bleu": "Ble", "short.rouge": "Rou", "short.vert": "Ver",
        "turn": "{c} : {s}",
        "placed": "{c} : {p}",
        "passed": "{c} passe",
        "hint": "Indice : {p}",
        "hint.pass": "Doit passer",
        "out": "fini",
        "over": "Fin de partie",
        "won": "{s} gagne !",
        "won.many": "{s} gagnent !",
        "and": " et ",
        "all_placed": "tout posé {n}",
        "bonus": "* tout posé : {n}",
        "tie": "Égalité !",
        "rule": "{r} : {why}",
    },
    "en": {
        "colour.jaune": "Yellow", "colour.bleu": "Blue", "colour.rouge": "Red",
        "colour.vert": "Green",
        "short.jaune": "Yel", "short.bleu": "Blu", "short.rouge": "Red", "short.vert": "Grn",
        "turn": "{c}: {s}",
        "placed": "{c}: {p}",
        "passed": "{c}: pass",
        "hint": "Hint: {p}",
        "hint.pass": "Must pass",
        "out": "out",
        "over": "Game over",
        "won": "{s} wins!",
        "won.many": "{s} win!",
        "and": " and ",
        "all_placed": "all placed {n}",
        "bonus": "* all placed: {n}",
        "tie": "A tie!",
        "rule": "{r}: {why}",
    },
}  # fmt: skip
"""The OLED's words of Vous ne passerez pas !'s screens, by the keys its screens name them."""

PREFIX = "vnp."
"""Where the screens' phrases sit in the shared catalogue."""

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "notice.not_your_colour": "Tu ne joues pas cette couleur.",
        "notice.may_not_pass": "Pas de passe : une pièce peut encore être posée.",
        "notice.illegal_placement": "La règle interdit ce placement.",
        "notice.bad_value": "Action illisible : rien n’est joué.",
        "notice.repeated": "Déjà joué : ce placement compte une fois.",
        "notice.undo_off": "L’annulation est désactivée à cette table.",
        "control.place": "Pose",
        "control.pass": "Passe",
        "control.hint": "Indice",
        "menu.title.ready.page": "Pad vide : la partie se joue sur les téléphones.",
    },
    "en": {
        "notice.not_your_colour": "You do not play that colour.",
        "notice.may_not_pass": "No pass: a piece can still be placed.",
        "notice.illegal_placement": "The rules forbid that placement.",
        "notice.bad_value": "Unreadable action: nothing is played.",
        "notice.repeated": "Already played: that placement counts once.",
        "notice.undo_off": "Undo is turned off at this table.",
        "control.place": "Place",
        "control.pass": "Pass",
        "control.hint": "Hint",
        "menu.title.ready.page": "Pad empty: the game is played on the phones.",
    },
}
"""Vous ne passerez pas !'s phrases in the shared catalogue, its screens' under `PREFIX`."""

for _lang, _table in SCREEN_PHRASES.items():
    PHRASES[_lang].update((PREFIX + key, text) for key, text in _table.items())

register_words("vnp", PHRASES)
