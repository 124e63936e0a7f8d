"""PtiPassPass's and PhiPassPass's words in the lab's report, in French and English: the
names of their figures, sections, rulings and restrictions (`companion.lab.words.shown`),
and the facts their rules' arithmetic makes certain (`note`)."""

from __future__ import annotations

from companion.lab.model import LabWords

TOGETHER = ("appels faits ensemble dans une fenêtre chronométrée : le premier dans le sens "
            "horaire à partir de la gauche ", "calls made together in a timed window, the "
            "first clockwise from the ")  # fmt: skip

NAMES: dict[str, tuple[str, str]] = {
    # sections
    "Placements": ("Placements", "Placements"),
    "Challenges": ("Challenges", "Challenges"),
    "Rewards (PTI-10)": ("Récompenses (PTI-10)", "Rewards (PTI-10)"),
    "Reveals": ("Révélations", "Reveals"),
    "Manches": ("Manches", "Rounds"),
    # figures
    "placements": ("placements", "placements"),
    "placements into an occupied hat (PTI-6)": ("placements dans un chapeau déjà occupé (PTI-6)",
                                                "placements into an occupied hat (PTI-6)"),
    "placements challenged": ("placements challengés", "placements challenged"),
    "Doublon calls": ("appels Doublon", "Doublon calls"),
    "Doublon succeeds": ("Doublon réussit", "Doublon succeeds"),
    "Menteur calls": ("appels Menteur", "Menteur calls"),
    "Menteur succeeds": ("Menteur réussit", "Menteur succeeds"),
    "Masqué placements challenged": ("placements Masqués challengés",
                                     "Masqué placements challenged"),
    "challenges of a Masqué placement succeed": ("challenges d’un placement Masqué réussis",
                                                 "challenges of a Masqué placement succeed"),
    "Visible placements challenged": ("placements Visibles challengés",
                                      "Visible placements challenged"),
    "challenges of a Visible placement succeed": ("challenges d’un placement Visible réussis",
                                                  "challenges of a Visible placement succeed"),
    "calls": ("appels", "calls"),
    "successful calls": ("appels réussis", "successful calls"),
    "a token dropped": ("un animal mis dans un chapeau", "a token dropped"),
    "a Challenge token taken": ("un jeton Challenge pris", "a Challenge token taken"),
    "nothing possible": ("rien de possible", "nothing possible"),
    "reveals tried": ("révélations tentées", "reveals tried"),
    "reveals won": ("révélations gagnantes", "reveals won"),
    "reveals win": ("part des révélations gagnantes", "reveals win"),
    "swaps (PTI-5)": ("chapeaux intervertis (PTI-5)", "swaps (PTI-5)"),
    "reveals after a swap win": ("révélations gagnantes après une interversion",
                                 "reveals after a swap win"),
    "dead manches (PTI-15)": ("manches bloquées (PTI-15)", "dead rounds (PTI-15)"),
    "manches void at the turn limit (PTI-15)": ("manches annulées à la limite de tours (PTI-15)",
                                                "rounds void at the turn limit (PTI-15)"),
    "manches won": ("manches gagnées", "rounds won"),
    # rulings
    "a Visible turn's placement: the animal shown, only Doublon may be called": (
        "un placement d’un tour Visible : l’animal montré, seul Doublon peut être appelé",
        "a Visible turn's placement: the animal shown, only Doublon may be called"),
    "a Magicien swapped two contiguous hats before revealing": (
        "un Magicien a interverti deux chapeaux contigus avant de révéler",
        "a Magicien swapped two contiguous hats before revealing"),
    "a token dropped into a hat that already held one": (
        "un animal mis dans un chapeau qui en avait déjà un",
        "a token dropped into a hat that already held one"),
    TOGETHER[1] + "Magicien's left counts": (TOGETHER[0] + "du Magicien compte",
                                             TOGETHER[1] + "Magicien's left counts"),
    TOGETHER[1] + "active player's left counts": (TOGETHER[0] + "du joueur actif compte",
                                                  TOGETHER[1] + "active player's left counts"),
    "a successful Challenger with nothing to drop and no token to take: no reward": (
        "un Challenger qui a eu raison, sans animal à mettre ni jeton à prendre : pas de "
        "récompense",
        "a successful Challenger with nothing to drop and no token to take: no reward"),
    "a winning reveal with several tokens in a lifted hat: the best pick taken": (
        "une révélation gagnante avec plusieurs animaux dans un chapeau levé : le meilleur "
        "choix pris",
        "a winning reveal with several tokens in a lifted hat: the best pick taken"),
    "a void manche (no three hats can win, or the turn limit): dealt again": (
        "une manche annulée (plus aucun trio de chapeaux ne peut gagner, ou la limite de "
        "tours) : on redonne",
        "a void round (no three hats can win, or the turn limit): dealt again"),
    # restrictions (`companion.games.passpass.mcts`)
    "announces the token it placed, always": ("annonce toujours l’animal qu’il a placé",
                                              "announces the token it placed, always"),
    "never calls Menteur": ("n’appelle jamais Menteur", "never calls Menteur"),
    "never calls Doublon": ("n’appelle jamais Doublon", "never calls Doublon"),
    "never challenges: always OK": ("ne challenge jamais : toujours OK",
                                    "never challenges: always OK"),
}  # fmt: skip

NOTES: dict[str, tuple[str, str]] = {
    "layout": ("{spots} chapeaux, {lines} lignes de trois (PTI-2, PTI-3) ; {tokens} animaux, "
               "un de chaque sorte par place (PTI-1)",
               "{spots} hats, {lines} lines of three (PTI-2, PTI-3); {tokens} tokens, one of "
               "each kind a seat (PTI-1)"),
    "no_reward": ("aucune manche n’est gagnée en moins de {turns} tours : une main ne se vide "
                  "que par ses propres placements (PHI-5 : pas d’animal en récompense), et une "
                  "place ne révèle que la main vide (PTI-5)",
                  "no round is won in fewer than {turns} turns: a hand empties only by its own "
                  "placements (PHI-5: no reward drop), and a seat reveals only with an empty "
                  "hand (PTI-5)"),
    "turn_limit": ("une manche est annulée après {turns} tours (PTI-15)",
                   "a round is void after {turns} turns (PTI-15)"),
    "spoken": ("les appels ne peuvent venir ensemble ({together}) dans le tour de OK parlé du "
               "livre : seule une fenêtre chronométrée (window = \"timed\", comme à la table) "
               "le permet",
               "calls cannot come together ({together}) in the book's spoken round of OKs: "
               "only a timed window (window = \"timed\", as at the table) lets them"),
}  # fmt: skip
"""The facts of `lab._notes`, under ``cli.lab.passpass.``."""

REFUSALS: dict[str, tuple[str, str]] = {
    "clock": ("`rules` : {keys} règle l’horloge d’une table ; le labo joue sans horloge (une "
              "fenêtre chronométrée s’y ferme quand chaque place a répondu) : retirez-le",
              "rules: {keys} sets a table's clock; the lab plays without a clock (a timed "
              "window closes there once every seat has answered): leave it out"),
}  # fmt: skip
"""What PassPass's lab refuses that only it says, under ``cli.lab.passpass.``."""

WORDS = LabWords("passpass", NAMES, {**NOTES, **REFUSALS})
"""PtiPassPass's and PhiPassPass's words in the lab (its `LabGame.words`)."""
note = WORDS.say
"""A fact of the report (its key, its fields), in the command line's language."""
