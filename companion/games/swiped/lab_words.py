"""Swiped's words in the lab's report, in French and English: the names of its figures,
sections, rulings and restrictions (`companion.lab.words.shown`), and the facts its deck's
arithmetic makes certain (`note`)."""

from __future__ import annotations

from companion.games.swiped.tally import BELIEF_MANCHES
from companion.lab.model import LabWords

NAMES: dict[str, tuple[str, str]] = {
    # sections
    "Claims (SW-5)": ("Annonces (SW-5)", "Claims (SW-5)"),
    "How games ended": ("Comment les parties ont fini", "How games ended"),
    "Manche of the win (share of won games)": ("Manche de la victoire (part des parties "
                                               "gagnées)",
                                               "Round of the win (share of won games)"),
    "Swaps (SW-4)": ("Échanges (SW-4)", "Swaps (SW-4)"),
    "Deducing bot: its opponent's card after each reveal (bot games only)": (
        "Robot qui déduit : la carte de son adversaire après chaque révélation (parties entre "
        "robots seulement)",
        "Deducing bot: its opponent's card after each reveal (bot games only)"),
    # claims
    "claims per game": ("annonces par partie", "claims per game"),
    '"I know your card": right': ("« je connais ta carte » : juste", '"I know your card": right'),
    '"5 matches": right': ("« 5 cases » : juste", '"5 matches": right'),
    "false claims per game": ("annonces fausses par partie", "false claims per game"),
    "false claims that lost the game": ("annonces fausses qui ont perdu la partie",
                                        "false claims that lost the game"),
    "false claims only refused": ("annonces fausses seulement refusées",
                                  "false claims only refused"),
    "refused, the claimant won after all": ("refusée, son auteur a gagné quand même",
                                            "refused, the claimant won after all"),
    "refused, the claimant lost": ("refusée, son auteur a perdu", "refused, the claimant lost"),
    '"I know your card" claims': ("annonces « je connais ta carte »",
                                  '"I know your card" claims'),
    '"5 matches" claims': ("annonces « 5 cases »", '"5 matches" claims'),
    "false claims": ("annonces fausses", "false claims"),
    # how games ended
    'won by "5 matches"': ("gagnées par « 5 cases »", 'won by "5 matches"'),
    "won by naming the card": ("gagnées en nommant la carte", "won by naming the card"),
    "lost by a false claim (SW-5)": ("perdues par une annonce fausse (SW-5)",
                                     "lost by a false claim (SW-5)"),
    "drawn at the manche limit (SW-6)": ("nulles à la limite de manches (SW-6)",
                                         "drawn at the round limit (SW-6)"),
    # the manche of the win
    **{f"manche {m}": (f"manche {m}", f"round {m}") for m in range(1, 4)},
    "manche 4 or later": ("manche 4 ou plus tard", "round 4 or later"),
    # swaps
    "swaps applied per game": ("échanges faits par partie", "swaps applied per game"),
    "repeated pairs applied once per game": ("paires répétées faites une fois, par partie",
                                             "repeated pairs applied once per game"),
    # the deducing bot
    **{
        label.format(m=m): (fr.format(m=m), en.format(m=m))
        for m in range(1, BELIEF_MANCHES + 1)
        for label, fr, en in (
            ("mean p(true card), manche {m}", "p(vraie carte) moyenne, manche {m}",
             "mean p(true card), round {m}"),
            ("true card on top, manche {m}", "vraie carte en tête, manche {m}",
             "true card on top, round {m}"),
        )
    },
    # rulings
    "a phase's second swap repeated the first: applied once": (
        "le second échange d’une phase répétait le premier : fait une fois",
        "a phase's second swap repeated the first: applied once"),
    "a false claim (it loses the game, or is only refused)": (
        "une annonce fausse (elle perd la partie, ou est seulement refusée)",
        "a false claim (it loses the game, or is only refused)"),
    "the manche limit was reached: a draw": ("la limite de manches atteinte : partie nulle",
                                             "the round limit was reached: a draw"),
    # restrictions (`companion.games.swiped.mcts`)
    "programs its swaps at random": ("programme ses échanges au hasard",
                                     "programs its swaps at random"),
    'never claims "I know your card", only "5 matches"': (
        "n’annonce jamais « je connais ta carte », seulement « 5 cases »",
        'never claims "I know your card", only "5 matches"'),
}  # fmt: skip

NOTES: dict[str, tuple[str, str]] = {
    "sw1": ("SW-1 : deux cartes ont au plus {most} cases en commun, donc chaque joueur part "
            "de la carte face visible avec au plus {most} des 5 cases",
            "SW-1: any two cards agree on at most {most} squares, so each player starts from "
            "the face-up card with at most {most} of the 5 matches"),
    "sw2": ("SW-2 : une carte nommée au hasard est juste 1 fois sur {chances} ({size} cartes, "
            "moins celle face visible et la sienne)",
            "SW-2: a card named at random is right 1 time in {chances} ({size} cards, less "
            "the face-up one and one's own)"),
    "sw6": ("SW-6 : une partie dure au plus {limit} manches, {swaps} échanges",
            "SW-6: a game lasts at most {limit} rounds, {swaps} swaps"),
}  # fmt: skip
"""The facts of `lab.notes`, under ``cli.lab.swiped.``."""

WORDS = LabWords("swiped", NAMES, NOTES)
"""Swiped's words in the lab (its `LabGame.words`)."""
note = WORDS.say
"""A fact of the report (its key, its fields), in the command line's language."""
