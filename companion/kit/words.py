"""What the kit builder (``python -m companion.kit``) says, in French and English: its
help, what it wrote or found different, and why a pin map or a game's mat cannot be
drawn, under ``cli.kit.`` of the command line's books (`companion.cli_words.books`), said
in the command line's language. The kit itself (the BOM, the wiring, the mats' notes) is the
repository's documentation, written in English as the rest of hardware/ and docs/."""

from __future__ import annotations

from companion.phrasebook import Book

WORDS: dict[str, tuple[str, str]] = {
    "description": ("Écrit le kit du constructeur (nomenclature, schémas de câblage, netlist "
                    "de la carte, gabarits des tapis) d’après une carte des broches et les "
                    "tapis des jeux (docs/build.md).",
                    "Generate the builder's kit (BOM, wiring diagrams, board netlist, mat "
                    "templates) from a pin map and the games' mats (docs/build.md)."),
    "pins": ("la carte des broches (par défaut : hardware/pins.toml du dépôt)",
             "the pin map (default: the repository's hardware/pins.toml)"),
    "out": ("le dossier sous lequel écrire hardware/ et docs/ (par défaut : le dépôt)",
            "the folder to write hardware/ and docs/ under (default: the repository)"),
    "only": ("n’écrire que ce que contient ce dossier, un de {folders} (peut être répété)",
             "write only this folder's artifacts, one of {folders} (may be repeated)"),
    "check": ("ne rien écrire ; lister les fichiers de --out qui diffèrent (sortie 1)",
              "write nothing; list the files of --out that differ (exit 1)"),
    "lang": ("la langue de ce que la commande dit (par défaut : $COMPANION_LANG, sinon la "
             "langue de la configuration, sinon celle du système, sinon fr)",
             "the language of what the command says (default: $COMPANION_LANG, else the "
             "configuration's, else the system's, else fr)"),
    "fail": ("python -m companion.kit : {message}", "python -m companion.kit: {message}"),
    "warning": ("python -m companion.kit : attention : {message}",
                "python -m companion.kit: warning: {message}"),
    "wrote": ("écrit : {path}", "wrote {path}"),
    "matches": ("le kit est conforme à sa description", "the kit matches its description"),
    "differ": ("{n} fichier(s) diffèrent : lancez python -m companion.kit",
               "{n} file(s) differ: run python -m companion.kit"),
    "missing": ("{name} : absent (générez-le)", "{name}: missing (generate it)"),
    "gone": ("{name} : plus généré (supprimez-le)", "{name}: no longer generated (delete it)"),
    "changed": ("{name} : {why}", "{name}: {why}"),
    "bytes": ("diffère de ce que donne la description",
              "differs from what the description gives"),
    "pages": ("{have} pages, la description en donne {want}",
              "{have} pages, the description gives {want}"),
    "page_size": ("page {n} : une autre taille de page", "page {n}: another page size"),
    "page_drawing": ("page {n} : un autre dessin", "page {n}: another drawing"),
    "size": ("{have} pixels, la description donne {want}",
             "{have} pixels, the description gives {want}"),
    "pixels": ("d’autres pixels", "other pixels"),
    "unreadable": ("{path} : impossible de lire la carte des broches : {why}",
                   "{path}: cannot read the pin map: {why}"),
    "few_cs": ("{path} : pico.readers.cs a {cs} sélections de puce (le pad et {spots} cases) "
               "mais un jeu demande {most} cases : ajoutez des sélections de puce",
               "{path}: pico.readers.cs has {cs} chip selects (the pad and {spots} spots) but "
               "a game needs {most} spots: add chip selects"),
    "gpio": ("{path} : {where}.{key} = {value} : doit être un GPIO du Pico, de 0 à 29",
             "{path}: {where}.{key} = {value}: must be a Pico GPIO, 0 to 29"),
    "no_pico": ("{path} : pas de tables [pico] : le kit dessine les lecteurs du Pico",
                "{path}: no [pico] tables: the kit draws the Pico's readers"),
    "cs_list": ("{path} : pico.readers.cs doit lister une sélection de puce par lecteur",
                "{path}: pico.readers.cs must list one chip select per reader"),
    "no_spi1": ("{path} : pico.readers.spi1 liste des lecteurs mais il n’y a pas de "
                "[pico.spi1]",
                "{path}: pico.readers.spi1 lists readers but there is no [pico.spi1]"),
    "spi1_readers": ("{path} : pico.readers.spi1 doit nommer des lecteurs distincts de 0 à "
                     "{last}",
                     "{path}: pico.readers.spi1 must name distinct readers 0..{last}"),
    "twice": ("{path} : GPIO du Pico {pins} utilisé(s) deux fois dans [pico]",
              "{path}: Pico GPIO {pins} used twice in [pico]"),
    "kit_table": ("{path} : kit doit être une table : écrivez [kit] sur une ligne à part",
                  "{path}: kit must be a table: write [kit] on a line of its own"),
    "kit_key": ("{path} : kit.{key} : clé inconnue (connues : {known})",
                "{path}: kit.{key}: unknown key (known: {known})"),
    "kit_value": ("{path} : kit.{key} = {value} : doit être un nombre de {low:g} à {high:g}",
                  "{path}: kit.{key} = {value}: must be a number from {low:g} to {high:g}"),
    "mat_cells": ("{game} à {seats} places : son tapis a {cells} cellules pour {spots} cases",
                  "{game} with {seats} seats: its mat has {cells} cells for {spots} spots"),
    "erc": ("la carte échoue à sa vérification des règles électriques :\n{erc}",
            "the board fails its electrical rule check:\n{erc}"),
}  # fmt: skip
"""What the kit builder says, each (French, English), under ``cli.kit.``."""

BOOK = Book("cli.kit.", WORDS)
"""The kit builder's book (`companion.cli_words.books`)."""


def kit_says(name: str, /, **fields: object) -> str:
    """The kit builder's phrase ``name`` in the command line's language."""
    return BOOK.say(name, **fields)
