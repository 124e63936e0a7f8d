"""The words of a rule setting's check, shared by a table's setup and the lab: a players
count, a rules key or value refused is worded once, for `companion run`, `config check`
and a lab file alike. Phrase books (`companion.phrasebook.Book`) that
`companion.cli_words.books` declares with the core's others: importing this module adds
nothing to any catalogue."""

from __future__ import annotations

from companion.phrasebook import Book

CHECK: dict[str, tuple[str, str]] = {
    "other_game": ("ce labo est celui de {title}, pas de {game}",
                   "this is the lab of {title}, not of {game}"),
    "players": ("`players` : {title} se joue à {players}, pas à {n}",
                "players: {title} is for {players}, not {n}"),
    "bots_count": ("`bots` : une sorte de robot par place ({n}), pas {given}",
                   "bots: one bot kind a seat ({n}), not {given}"),
    "unknown_bot": ("`bots` : robot inconnu {kind} ; les robots de {title} sont {kinds}",
                    "bots: unknown bot {kind}; the bots of {title} are {kinds}"),
    "unknown_rule": ("`rules` : réglage inconnu {keys} ; les réglages de {title} sont {known}",
                     "rules: unknown setting {keys}; the settings of {title} are {known}"),
    "whole": ("`rules` : `{key}` est un nombre entier, pas {value}",
              "rules: `{key}` is a whole number, not {value}"),
    "whole_least": ("`rules` : `{key}` est un nombre entier d’au moins {least}, pas {value}",
                    "rules: `{key}` is a whole number of at least {least}, not {value}"),
    "whole_between": ("`rules` : `{key}` est un nombre entier de {least} à {most}, pas {value}",
                      "rules: `{key}` is a whole number from {least} to {most}, not {value}"),
    "one_of": ("`rules` : `{key}` vaut {choices}, pas {value}",
               "rules: `{key}` is {choices}, not {value}"),
    "or": (" ou ", " or "),
    "true_or_false": ("`rules` : `{key}` vaut `true` ou `false`, pas {value}",
                      "rules: `{key}` is `true` or `false`, not {value}"),
}  # fmt: skip
"""What a game's lab refuses in a variant (`companion.lab.checks`), under
``cli.lab.check.``."""

SETUP_WORDS: dict[str, tuple[str, str]] = {
    "first": ("`first` : le premier joueur est une place de 0 à {last}, pas {first}",
              "first: the first player is a seat 0 to {last}, not {first}"),
    "own_mat": ("{title} se joue sur son propre tapis de 3 x 3 : retirez `layout`",
                "{title} is played on its own 3 x 3 mat: leave out layout"),
    "no_rule": ("`rules` : réglage inconnu {keys} ; {title} n’a pas de réglages",
                "rules: unknown setting {keys}; {title} has no settings"),
}  # fmt: skip
"""What every game's referee refuses in a setup, under ``cli.setup.``; the refusals a
game's lab shares with it (a players count, a rules key or value) are the lab's words,
``cli.lab.check.``, so a rule check is worded once."""

CHECK_BOOK = Book("cli.lab.check.", CHECK)
SETUP_BOOK = Book("cli.setup.", SETUP_WORDS)
