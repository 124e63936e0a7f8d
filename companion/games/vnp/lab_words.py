"""Vous ne passerez pas !'s words in the lab's report, in French and English: the names
of its figures, sections, rulings and restrictions (`companion.lab.words.shown`), a colour
named in the report's language, and the facts its board's arithmetic makes certain
(`note`)."""

from __future__ import annotations

from companion.lab.model import LabWords

COLOUR_WORDS = {"jaune": ("jaune", "yellow"), "bleu": ("bleu", "blue"),
                "rouge": ("rouge", "red"), "vert": ("vert", "green")}  # fmt: skip
"""Each colour (its name in the figures' names) as French and English say it."""

PER_COLOUR = (
    ("side of {c}", "camp de {c}", "side of {c}"),
    ("score, {c}", "score, {c}", "score, {c}"),
    ("side sum, side of {c} (VNP-7)", "somme du camp, camp de {c} (VNP-7)",
     "side sum, side of {c} (VNP-7)"),
    ("pieces left, {c}", "pièces restantes, {c}", "pieces left, {c}"),
    ("{c} passed", "{c} a passé", "{c} passed"),
    ("{c} placed all", "{c} a tout posé", "{c} placed all"),
)  # fmt: skip
"""A colour's figures: (name, French, English)."""

NAMES: dict[str, tuple[str, str]] = {
    # sections
    "Length": ("Durée", "Length"),
    "Wins by side (lowest side score, VNP-6, VNP-7)": (
        "Victoires par camp (plus petit score de camp, VNP-6, VNP-7)",
        "Wins by side (lowest side score, VNP-6, VNP-7)"),
    "Scores (VNP-6: segments left, -10 if all placed)": (
        "Scores (VNP-6 : segments restants, -10 si tout est posé)",
        "Scores (VNP-6: segments left, -10 if all placed)"),
    "Pieces left": ("Pièces restantes", "Pieces left"),
    "Passes (VNP-5)": ("Passes (VNP-5)", "Passes (VNP-5)"),
    "All pieces placed (-10, VNP-6)": ("Toutes les pièces posées (-10, VNP-6)",
                                       "All pieces placed (-10, VNP-6)"),
    # figures
    "placements per game": ("poses par partie", "placements per game"),
    "passes per game (VNP-5)": ("passes par partie (VNP-5)", "passes per game (VNP-5)"),
    "lowest score shared (a tie)": ("plus petit score partagé (une égalité)",
                                    "lowest score shared (a tie)"),
    "winning side's score": ("score du camp gagnant", "winning side's score"),
    "margin: next side's score minus the winner's": (
        "écart : score du camp suivant moins celui du gagnant",
        "margin: next side's score minus the winner's"),
    "score of the seat's colours": ("score des couleurs de la place",
                                    "score of the seat's colours"),
    "score of the seat's side": ("score du camp de la place", "score of the seat's side"),
    "pieces left, the seat's colours": ("pièces restantes, couleurs de la place",
                                        "pieces left, the seat's colours"),
    "passed before its first piece (VNP-3)": ("a passé avant sa première pièce (VNP-3)",
                                              "passed before its first piece (VNP-3)"),
    "passes": ("passes", "passes"),
    "any colour (share of colours)": ("une couleur (part des couleurs)",
                                      "any colour (share of colours)"),
    **{
        name.format(c=colour): (fr.format(c=words[0]), en.format(c=words[1]))
        for name, fr, en in PER_COLOUR
        for colour, words in COLOUR_WORDS.items()
    },
    # rulings
    "a colour's turn skipped: it is out": ("le tour d’une couleur passé : elle est sortie",
                                           "a colour's turn skipped: it is out"),
    "a first piece touched another colour's": ("une première pièce a touché celle d’une "
                                               "autre couleur",
                                               "a first piece touched another colour's"),
    "met inside a piece (strict forbids)": ("rencontre au milieu d’une pièce (la lecture "
                                            "stricte l’interdit)",
                                            "met inside a piece (strict forbids)"),
    "a colour passed, pieces left": ("une couleur a passé, avec des pièces en main",
                                     "a colour passed, pieces left"),
    "a colour placed all its pieces (-10)": ("une couleur a posé toutes ses pièces (-10)",
                                             "a colour placed all its pieces (-10)"),
    "the best colour's side lost on the sum": ("le camp de la meilleure couleur a perdu sur "
                                               "la somme",
                                               "the best colour's side lost on the sum"),
    # restrictions (`companion.games.vnp.mcts`)
    "places its smallest piece first": ("pose d’abord sa plus petite pièce",
                                        "places its smallest piece first"),
}  # fmt: skip

NOTES: dict[str, tuple[str, str]] = {
    "room": ("le plateau de {size} × {size} a {room} segments unité pour les {pieces} des "
             "pièces des quatre couleurs : au moins {left} segments restent à poser dans "
             "chaque partie",
             "the {size} x {size} board has {room} unit segments for the {pieces} of the four "
             "colours' pieces: at least {left} segments stay unplaced in every game"),
    "undo": ("undo_placement ne change rien ici : les robots ne reprennent jamais une pose",
             "undo_placement changes nothing here: bots never take back a placement"),
}  # fmt: skip
"""The facts of `lab.notes`, under ``cli.lab.vnp.``."""

WORDS = LabWords("vnp", NAMES, NOTES)
"""Vous ne passerez pas !'s words in the lab (its `LabGame.words`)."""
note = WORDS.say
"""A fact of the report (its key, its fields), in the command line's language."""
