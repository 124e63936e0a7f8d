"""The command line's words, in French and English: every command's help, argparse's own
words (``usage:``, ``error:``...) and the commands' messages, in one language a run.

The language is the table's, as the OLED's (`companion.phrasebook`): ``--lang`` where a
command has it, else ``$COMPANION_LANG``, else the configuration's ``[game] language`` (a
file found as every command finds it), else the environment's locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``: ``fr...`` or ``en...``), else French, as a table is
(`command_language`). `main` chooses it once per run (`speaking`), like a process's
locale; the commands then say everything with `said`.

The words are books (`companion.phrasebook.Book`), declared once in `books`: the
commands' own here (`WORDS`, under ``cli.``), and those of the parts with words of their
own (the configuration's checks, the kit builder, enrolment, the doctor). Importing a
module adds no word anywhere. A game's words for the command line (its printables, its
options) are its own phrases, in the OLED's catalogue (`companion/screens/text.py`),
which `text_of` says when a descriptor names one.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
from collections.abc import Iterator, Mapping

from companion.phrasebook import (
    LANG_ENV,
    LOCALE_ENV,
    Book,
    environment_language,
    language,
    locale_language,
    spoken,
)
from companion.screens.text import number, phrase, register_words

__all__ = [
    "LANG_ENV", "LOCALE_ENV", "WORDS", "add_words", "books", "check_words",
    "environment_language", "language", "locale_language", "numeral", "os_error", "said",
    "said_in", "speaking", "text_of",
]  # fmt: skip
"""The command line's language is `companion.phrasebook`'s, named here with its words."""


def said(key: str, /, **fields: object) -> str:
    """The phrase `key` in the command line's language, filled in (`said_in`)."""
    return said_in(key, language(), **fields)


def said_in(key: str, lang: str, /, **fields: object) -> str:
    """The phrase `key` in `lang`, filled in: one of the core's books' (`books`), else the
    OLED's catalogue's (a game's phrase, the lab's). An unknown key is a KeyError."""
    found = _keyed().get(key)
    if found is None:
        return phrase(key, lang, **fields)
    book, name = found
    return book.said_in(name, lang, **fields)


def numeral(value: float, spec: str = "g") -> str:
    """`value` as the command line's language writes numbers (French: 0,5)."""
    return number(value, spec, language())


def text_of(text: str, /, **fields: object) -> str:
    """A text a game or a part gives the command line (an option's help, what it prints, a
    value's fix): the phrase it names, said in the command line's language, or the text
    itself when it names none (a game that speaks one language); `fields` filled in
    either way."""
    try:
        return said(text, **fields)
    except KeyError:
        return text.format(**fields) if fields else text


def os_error(exc: OSError, lang: str | None = None) -> str:
    """Why the system refused, in `lang` (None: the command line's language): its usual
    refusals in our words ("no such file or folder"), another one as the system says it."""
    name = errno.errorcode.get(exc.errno or 0, "")
    try:
        return said_in(f"cli.errno.{name}", lang or language())
    except KeyError:
        return str(exc.strerror or exc)


# ------------------------------------------------------------------ the books


@functools.cache
def books() -> tuple[Book, ...]:
    """The core's phrase books for the command line, declared once: the commands' own
    (`WORDS`), the configuration's checks, a file that is no TOML, the kit builder's,
    enrolment's, the doctor's and its walk's, a rule setting's check, and the lab's own
    (its report, skill ladder, restricted play, variants file, cluster, thinking bots, and
    the names of its figures and sections). Each part says its own through its book; a
    phrase named by its key (a value's fix, a game's text) is looked up here first. Their
    modules are imported when a phrase is first looked up, never to fill anything."""
    from companion import report_words as lab
    from companion.config.syntax import BOOK as TOML
    from companion.config.words import BOOK as CONFIG
    from companion.devices.words import DOCTOR_SAYS, ENROLL_SAYS, WALK_SAYS
    from companion.kit.words import BOOK as KIT
    from companion.rule_words import CHECK_BOOK, SETUP_BOOK

    return (COMMANDS, CONFIG, TOML, KIT, ENROLL_SAYS, DOCTOR_SAYS, WALK_SAYS, CHECK_BOOK,
            SETUP_BOOK, lab.REPORT_SAYS, lab.LADDER_SAYS, lab.RESTRICTED_SAYS, lab.FILE_SAYS,
            lab.CLUSTER_SAYS, lab.THINKING_SAYS, lab.NAMES_SHOWN)  # fmt: skip


@functools.cache
def _keyed() -> dict[str, tuple[Book, str]]:
    """Each key of the books -> its book and its name there."""
    return {key: (book, name) for book in books() for key, name in book.keyed().items()}


def check_words(owner: str, table: Mapping[str, Mapping[str, str]]) -> None:
    """A ValueError when `table` (a game's phrases, by language then key) says a key of
    the core's books otherwise: a game never changes the command line's words."""
    for lang, phrases in table.items():
        for key, text in phrases.items():
            if key in _keyed() and said_in(key, lang) != text:
                raise ValueError(f"{owner}: phrase {key!r} is already said otherwise")


# ------------------------------------------------------------------ speaking


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """The command line speaks `lang` meanwhile, argparse's own words included (its
    ``usage:``, ``error:``, ``options``... through its gettext hook, from this catalogue)."""
    before = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = _argparse_word  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_words  # type: ignore[attr-defined]
    try:
        with spoken(lang):
            yield
    finally:
        argparse._, argparse.ngettext = before  # type: ignore[attr-defined]


def _argparse_word(message: str) -> str:
    key = _ARGPARSE.get(message)
    return message if key is None else said(key)


def _argparse_words(singular: str, plural: str, count: int) -> str:
    return _argparse_word(singular if count == 1 else plural)


# ------------------------------------------------------------------ the words

_ARGPARSE = {
    "usage: ": "cli.argparse.usage",
    "positional arguments": "cli.argparse.positionals",
    "options": "cli.argparse.options",
    "show this help message and exit": "cli.argparse.help",
    "%(prog)s: error: %(message)s\n": "cli.argparse.error",
    "argument %(argument_name)s: %(message)s": "cli.argparse.argument",
    "unrecognized arguments: %s": "cli.argparse.unrecognized",
    "the following arguments are required: %s": "cli.argparse.required",
    "one of the arguments %s is required": "cli.argparse.one_required",
    "not allowed with argument %s": "cli.argparse.not_with",
    "ignored explicit argument %r": "cli.argparse.ignored",
    "expected one argument": "cli.argparse.one",
    "expected at most one argument": "cli.argparse.at_most_one",
    "expected at least one argument": "cli.argparse.at_least_one",
    "expected %s argument": "cli.argparse.expected",
    "expected %s arguments": "cli.argparse.expected_many",
    "ambiguous option: %(option)s could match %(matches)s": "cli.argparse.ambiguous",
    "unexpected option string: %s": "cli.argparse.unexpected",
    "invalid %(type)s value: %(value)r": "cli.argparse.invalid",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.argparse.choice",
    "can't open '%(filename)s': %(error)s": "cli.argparse.open",
}
"""argparse's own words (its gettext message ids, Python 3.11 to 3.13) and their keys."""

WORDS: dict[str, tuple[str, str]] = {
    # argparse's own
    "argparse.usage": ("usage : ", "usage: "),
    "argparse.positionals": ("arguments", "positional arguments"),
    "argparse.options": ("options", "options"),
    "argparse.help": ("affiche cette aide et s’arrête", "show this help message and exit"),
    "argparse.error": ("%(prog)s : erreur : %(message)s\n", "%(prog)s: error: %(message)s\n"),
    "argparse.argument": ("%(argument_name)s : %(message)s",
                          "argument %(argument_name)s: %(message)s"),
    "argparse.unrecognized": ("arguments inconnus : %s", "unrecognized arguments: %s"),
    "argparse.required": ("il manque : %s", "the following arguments are required: %s"),
    "argparse.one_required": ("il faut l’un de %s", "one of the arguments %s is required"),
    "argparse.not_with": ("pas avec %s", "not allowed with argument %s"),
    "argparse.ignored": ("valeur en trop : %r", "ignored explicit argument %r"),
    "argparse.one": ("il faut une valeur", "expected one argument"),
    "argparse.at_most_one": ("une valeur au plus", "expected at most one argument"),
    "argparse.at_least_one": ("il faut au moins une valeur", "expected at least one argument"),
    "argparse.expected": ("il faut %s valeur", "expected %s argument"),
    "argparse.expected_many": ("il faut %s valeurs", "expected %s arguments"),
    "argparse.ambiguous": ("option ambiguë : %(option)s peut être %(matches)s",
                           "ambiguous option: %(option)s could match %(matches)s"),
    "argparse.unexpected": ("option inattendue : %s", "unexpected option string: %s"),
    "argparse.invalid": ("valeur refusée : %(value)r", "invalid %(type)s value: %(value)r"),
    "argparse.choice": ("%(value)r n’en est pas un : choisir parmi %(choices)s",
                        "invalid choice: %(value)r (choose from %(choices)s)"),
    "argparse.open": ("impossible d’ouvrir « %(filename)s » : %(error)s",
                      "can't open '%(filename)s': %(error)s"),
    # what every command says
    "and": (" et ", " and "),
    "semicolon": (" ; ", "; "),
    "none": ("aucun", "none"),
    "fail": ("companion {command} : {message}", "companion {command}: {message}"),
    "warning": ("companion {command} : attention : {message}",
                "companion {command}: warning: {message}"),
    "interrupted": ("companion {command} : interrompu", "companion {command}: interrupted"),
    "unexpected": (
        "companion {command} : erreur inattendue : {kind} : {error} (COMPANION_DEBUG=1 "
        "montre où ; signalez-la, s’il vous plaît)",
        "companion {command}: unexpected error: {kind}: {error} (COMPANION_DEBUG=1 shows "
        "where; please report it)"),
    "unreadable": ("impossible de lire {path} : {why}", "cannot read {path}: {why}"),
    "cannot_write": ("{option} {path} : impossible d’y écrire : {why}",
                     "{option} {path}: cannot write there: {why}"),
    "fault": ("{error} : une faute du compagnon, signalez-la, s’il vous plaît",
              "{error}: a fault of the companion, please report it"),
    "format": ("{error} (le format : {doc})", "{error} (the format: {doc})"),
    "errno.ENOENT": ("pas de tel fichier ni dossier", "no such file or folder"),
    "errno.EACCES": ("permission refusée", "permission denied"),
    "errno.EPERM": ("opération interdite", "operation not permitted"),
    "errno.EISDIR": ("c’est un dossier", "it is a folder"),
    "errno.ENOTDIR": ("un élément du chemin n’est pas un dossier",
                      "a part of the path is not a folder"),
    "errno.ENOSPC": ("plus de place sur le disque", "no space left on the disk"),
    "errno.EROFS": ("système de fichiers en lecture seule", "read-only file system"),
    "errno.EEXIST": ("il existe déjà", "it exists already"),
    "errno.ENAMETOOLONG": ("nom trop long", "name too long"),
    "errno.EIO": ("erreur d’entrée-sortie", "input/output error"),
    "players.one": ("{n} joueurs", "{n} players"),
    "players.range": ("{low} à {high} joueurs", "{low} to {high} players"),
    "players.list": ("{counts} ou {last} joueurs", "{counts} or {last} players"),
    "players.problem": ("--players {players} : {game} se joue à {range}",
                        "--players {players}: {game} is for {range}"),
    # companion --help
    "description": ("Un Raspberry Pi arbitre de jeux de table physiques.",
                    "A Raspberry Pi referee for physical game tables."),
    "summary.lab": ("jouer des variantes de règles entre robots sur tous les cœurs et dire ce "
                    "que font les règles",
                    "play rule variants between bots on every core and report what the rules "
                    "do"),
    "summary.report": ("les chiffres du labo tirés des journaux de vraies parties, avec le temps "
                       "par tour et les fautes",
                       "the lab's figures from journals of real games, with time per turn and "
                       "faults"),
    "summary.selfplay": ("jouer de nombreuses parties entre robots et afficher les chiffres du "
                         "labo (une variante)",
                         "play many games between bots and print the lab's figures (one "
                         "variant)"),
    "summary.demo": ("une partie simulée entière entre robots : transcription, images de "
                     "l’OLED, GIF et journal",
                     "a whole simulated game with bots: transcript, OLED frames, GIF and "
                     "journal"),
    "summary.replay": ("repasser un journal par l’arbitre et afficher ce qui s’est passé",
                       "feed a journal through the referee and print what happened"),
    "summary.play": ("une table simulée interactive : tapez ce que font vos mains, voyez "
                     "l’OLED",
                     "an interactive simulated table: type what your hands do, see the OLED"),
    "summary.deck": ("écrire ce qu’un jeu a à imprimer (un jeu de cartes...) dans un fichier "
                     "à imprimer ou à regarder",
                     "write what a game has to print (a deck of cards...) in a file to print "
                     "or to look at"),
    "summary.run": ("le service de la table : lecteurs, boutons et OLED (systemd le lance)",
                    "the table service: readers, buttons and OLED (systemd runs it)"),
    "summary.config": ("vérifier la configuration de la table", "check the table configuration"),
    "summary.enroll": ("apprendre au compagnon les tags de vos jetons, un passage sur le pad "
                       "chacun",
                       "teach the companion your tokens' tags, one tap on the pad each"),
    "summary.doctor": ("vérifier le Pico et chaque lecteur RFID, en montrant les tags en direct",
                       "check the Pico and every RFID reader, showing live tags"),
    "summary.unpair": ("révoquer les téléphones appairés à la page web de la table",
                       "revoke the phones paired to the table's web page"),
    "summary.club": ("le tableau de la soirée du club : chaque table en direct, résultats et "
                     "classement, depuis le broker",
                     "the club night's board: every table live, results and standings, from "
                     "the broker"),
    # metavars
    "metavar.n": ("N", "N"),
    "metavar.file": ("FICHIER", "FILE"),
    "metavar.dir": ("DOSSIER", "DIR"),
    "metavar.path": ("CHEMIN", "PATH"),
    "metavar.name": ("NOM", "NAME"),
    "metavar.names": ("NOMS", "NAMES"),
    "metavar.seconds": ("SECONDES", "SECONDS"),
    "metavar.game": ("JEU", "GAME"),
    "metavar.journal": ("JOURNAL", "JOURNAL"),
    "metavar.seat": ("PLACE", "SEAT"),
    "metavar.kinds": ("SORTE[*N]", "KIND[*N]"),
    "metavar.host": ("HÔTE", "HOST"),
    "metavar.broker": ("HÔTE[:PORT]", "HOST[:PORT]"),
    "metavar.port": ("PORT", "PORT"),
    "metavar.user": ("UTILISATEUR", "USER"),
    "metavar.rule": ("CLÉ=VALEUR", "KEY=VALUE"),
    "metavar.kinds_list": ("SORTES", "KINDS"),
    "metavar.cycles": ("CYCLES", "CYCLES"),
    "metavar.lab": ("LABO.toml", "LAB.toml"),
    "metavar.cluster": ("tcp://HÔTE:8786", "tcp://HOST:8786"),
    # the options several commands share
    "game.seats": ("nombre de places ({ranges})", "number of seats ({ranges})"),
    "game.range": ("{game} {range}, {default} par défaut", "{game} {range}, default {default}"),
    "game.lang": ("la langue de la table : OLED, transcription, messages (par défaut : "
                  "$COMPANION_LANG, sinon [game] language de la configuration, sinon la "
                  "langue du système, sinon fr)",
                  "the table's language: OLED, transcript, messages (default: "
                  "$COMPANION_LANG, else [game] language of the config, else the system's "
                  "language, else fr)"),
    "option.config": (
        "la configuration (par défaut : $COMPANION_CONFIG, sinon {system}, sinon "
        "./companion.toml, sinon les valeurs par défaut) ; docs/companion.example.toml la "
        "décrit",
        "the configuration (default: $COMPANION_CONFIG, else {system}, else ./companion.toml, "
        "else built-in defaults); docs/companion.example.toml documents it"),
    "option.data_dir": (
        "le dossier de données : le journal de la partie (game.jsonl), les parties finies "
        "(archive/) et les tags enregistrés (tags.json). Par défaut : ${env}, sinon "
        "paths.data_dir de la configuration ({default} s’il n’est pas donné ; "
        "~/.local/share/companion sans fichier de configuration) ; voir "
        "docs/companion.example.toml",
        "the data directory: the game's journal (game.jsonl), finished games (archive/) and "
        "the enrolled tags (tags.json). Default: ${env}, else paths.data_dir of the config "
        "({default} unless set; ~/.local/share/companion when there is no config file); see "
        "docs/companion.example.toml"),
    # argument types
    "type.whole": ("un nombre entier de {low} à {high}", "a whole number from {low} to {high}"),
    "type.whole_from": ("un nombre entier >= {low}", "a whole number >= {low}"),
    "type.not": ("{text} n’est pas {allowed}", "{text} is not {allowed}"),
    "type.range": ("{value} est hors limites : donnez {allowed}",
                   "{value} is out of range: give {allowed}"),
    "type.seconds": ("{text} : donnez un nombre de secondes supérieur à 0",
                     "{text}: give a number of seconds above 0"),
    "type.path": ("une chaîne vide ne nomme aucun fichier ni dossier",
                  "an empty string names no file or folder"),
    "out.folder": ("{text} est un dossier : donnez un nom de fichier",
                   "{text} is a folder: give a file name"),
    "out.no_folder": ("il n’y a pas de dossier {folder} : créez-le d’abord, ou donnez-en un "
                      "autre",
                      "there is no folder {folder}: create it first, or give another"),
    "out.not_writable": ("{path} n’est pas modifiable par cet utilisateur",
                         "{path} is not writable by this user"),
    "out.no_parent": ("{path} : il n’y a pas de dossier {parent} où le créer : créez-le "
                      "d’abord",
                      "{path}: there is no folder {parent} to create it in: create that "
                      "first"),
    # companion demo
    "demo.description": (
        "Jouer une partie entière sur une table simulée, chaque place tenue par un robot, "
        "avec le vrai arbitre et les vrais écrans. Affiche ce qui se passe et chaque nouvelle "
        "image de l’OLED, puis écrit le journal et un GIF animé de l’OLED dans le dossier de "
        "sortie. Le format du journal : {journal} ; comment se joue la table : {table}.",
        "Play a whole game on a simulated table with bot seats, through the real referee and "
        "screens. Prints what happens and every new OLED frame, and writes the journal and an "
        "animated GIF of the OLED to the output folder. The journal format: {journal}; how "
        "the table is played: {table}."),
    "demo.seed": ("graine des robots et des tags (par défaut 1)",
                  "seed of the bots and the tags (default 1)"),
    "demo.out": ("dossier de sortie, créé s’il le faut ; le dossier au-dessus doit exister (par "
                 "défaut {default})",
                 "output folder, created if needed; the folder above it must exist (default "
                 "{default})"),
    "demo.quiet": ("n’afficher que le résultat et où sont les fichiers (ni transcription, ni "
                   "images)",
                   "print only the result and where the files are (no transcript, no frames)"),
    "demo.out_problem": ("--out {problem} (il reçoit journal.jsonl et oled.gif)",
                         "--out {problem} (it gets journal.jsonl and oled.gif)"),
    "demo.winner": ("gagnant : {winner}   scores : {scores}",
                    "winner: {winner}   scores: {scores}"),
    "demo.counts": ("{inputs} entrées, {frames} images", "{inputs} inputs, {frames} frames"),
    "demo.files": ("journal : {journal}\nanimation : {gif}",
                   "journal: {journal}\nanimation: {gif}"),
    "demo.replay": ("pour la revoir : companion replay {journal}",
                    "replay it: companion replay {journal}"),
    # companion replay
    "replay.description": (
        "Repasser un journal (ou un fichier de scénario) par le même arbitre qu’une table "
        "réelle. --json affiche un seul document {{game, events, scores, winner}}. Le format "
        "des journaux et des scénarios (JSON Lines en UTF-8) : {journal} ; les règles que "
        "citent les événements : {rulings}.",
        "Replay a journal (or a scenario file) through the same referee as a live table. "
        "--json prints one document {{game, events, scores, winner}}. The journal and "
        "scenario format (UTF-8 JSON Lines): {journal}; the rulings the events cite: "
        "{rulings}."),
    "replay.file": ("un journal ou un fichier de scénario (JSON Lines en UTF-8, {journal})",
                    "a journal or scenario file (UTF-8 JSON Lines, {journal})"),
    "replay.json": ("afficher le document de la partie en JSON",
                    "print the replay document as JSON"),
    "replay.lang": ("la langue des lignes (par défaut : celle de la table, que le journal "
                    "donne)",
                    "the language of the lines (default: the table's, which the journal "
                    "gives)"),
    "replay.end": ("partie {status} ; scores : {scores}", "game {status}; scores: {scores}"),
    "replay.finished": ("finie", "finished"),
    "replay.unfinished": ("pas finie", "not finished"),
    # companion play
    "play.description": (
        "Tapez les gestes (drop, take, slide), les boutons (announce, ceux des places, "
        "choose, back) et les attentes ; l’arbitre les juge comme à une vraie table et "
        "l’OLED est dessiné après chacun. Tapez help pour les commandes. Chaque entrée est "
        "journalisée : après quit, Ctrl-C ou une panne, --resume --journal FICHIER reprend "
        "la partie. Comment se joue la table : {table} ; le format du journal : {journal} ; "
        "les règles : {rulings}.",
        "Type physical acts (drop, take, slide), presses (announce, the seats' buttons, "
        "choose, back) and waits; the referee judges them as on a real table and the OLED "
        "is drawn after each. Type help inside for the commands. Every input is journaled: "
        "after quit, Ctrl-C or a crash, --resume --journal FILE carries on. How the table "
        "is played: {table}; the journal format: {journal}; the rulings: {rulings}."),
    "play.sim": ("utiliser la table simulée", "use the simulated table"),
    "play.seed": ("graine des tags (par défaut 1)", "seed of the tags (default 1)"),
    "play.settle": ("secondes d’immobilité de la table avant qu’un changement soit jugé : "
                    "{low} à {high} (par défaut {default} ; game.settle de la configuration)",
                    "seconds the table must be still before a change is judged: {low} to "
                    "{high} (default {default}; game.settle of the config)"),
    "play.first": ("premier joueur, une place de 1 au nombre de joueurs : "
                   "celui que la règle du jeu désigne (par défaut 1)",
                   "first player, a seat from 1 to the number of players: the one the "
                   "game's rule book names (default 1)"),
    "play.journal": ("le journal à écrire, dans un dossier qui existe (par défaut {default}, "
                     "out/ créé s’il le faut)",
                     "journal file to write, in a folder that exists (default {default}, out/ "
                     "created if needed)"),
    "play.resume": ("continuer la partie du journal (--journal)",
                    "continue the game of the journal (--journal)"),
    "play.speak": ("dire à voix haute les annonces de la table avec espeak-ng (à qui le "
                   "tour, verdicts, fautes, la fin ; docs/table.md)",
                   "say the table's announcements aloud with espeak-ng (whose turn, "
                   "verdicts, faults, the end; docs/table.md)"),
    "play.width": ("les colonnes du terminal (par défaut : les siennes, ou COLUMNS) ; sous "
                   "130, l’OLED est dessiné en braille, sur 66 colonnes",
                   "the terminal's columns (default: its own, or COLUMNS); under 130 the OLED "
                   "is drawn in braille, 66 columns wide"),
    "play.setting": ("{help} (par défaut {default} ; game.{name} de la configuration ; "
                     "{games} seulement)",
                     "{help} (default {default}; game.{name} of the config; {games} only)"),
    "play.first_problem": ("--first {first} : le premier joueur est une place de 1 à "
                           "{players} (celui que la règle du jeu désigne)",
                           "--first {first}: the first player is a seat from 1 to {players} "
                           "(the one the game's rule book names)"),
    "play.only_sim": ("seul --sim existe pour l’instant (une vraie table : companion run)",
                      "only --sim exists for now (a real table: companion run)"),
    "play.no_console": ("--game {game} : pas encore de table simulée à taper (essayez : "
                        "companion demo)",
                        "--game {game}: no typed simulated table yet (try: companion demo)"),
    "play.no_console_yet": ("{game} n’a pas encore de table simulée à taper",
                            "{game} has no typed simulated table yet"),
    "play.resume_folder": ("--journal {path} est un dossier : donnez le fichier du journal à "
                           "reprendre",
                           "--journal {path} is a folder: give the journal file to resume"),
    "play.resume_special": ("--journal {path} n’est pas un fichier ordinaire : donnez le "
                            "fichier du journal à reprendre",
                            "--journal {path} is not a regular file: give the journal file "
                            "to resume"),
    "play.no_such_folder": ("--journal {path} : impossible d’y écrire : pas de tel fichier ni "
                            "dossier",
                            "--journal {path}: cannot write there: no such file or folder"),
    "play.no_journal": ("--journal {path} : pas de tel fichier (pour une nouvelle partie : "
                        "sans --resume)",
                        "--journal {path}: no such file (start a new game: leave out "
                        "--resume)"),
    "play.exists": ("--journal {error} (pour la continuer : ajoutez --resume)",
                    "--journal {error} (continue it: add --resume)"),
    "play.journal_is": ("journal : {path}\npour continuer plus tard : {resume}",
                        "journal: {path}\ncontinue later with: {resume}"),
    "play.interrupted": ("companion play : interrompu ; la partie est gardée, pour la "
                         "continuer : {resume}",
                         "companion play: interrupted; the game is saved, continue it with: "
                         "{resume}"),
    # companion deck
    "deck.description": ("Écrire ce qu’un jeu a à imprimer, dans un fichier à imprimer ou à "
                         "regarder : {offered}. Les options de chaque jeu : companion deck "
                         "JEU --help.",
                         "Write what a game has to print, in a file to print or to look at: "
                         "{offered}. Each game's own options: companion deck GAME --help."),
    "deck.offered": ("{game}, {summary}", "{game}, {summary}"),
    "deck.none": ("aucun jeu n’en a", "no game has any"),
    "deck.out": ("le fichier à écrire, dans un dossier qui existe ; son suffixe dit sa sorte "
                 "(par exemple FICHIER.pdf à imprimer)",
                 "the file to write, in a folder that exists; its suffix says its kind (e.g. "
                 "FILE.pdf to print)"),
    "deck.nothing": ("{game} n’a rien à imprimer (les jeux qui en ont : {offered})",
                     "{game} has nothing to print (games that do: {offered})"),
    "deck.wrote": ("écrit {out} : {written}", "wrote {out}: {written}"),
    # companion run
    "run.description": (
        "Arbitrer une vraie table : lire les lecteurs et les boutons, journaliser chaque "
        "entrée, dessiner l’OLED. --resume continue la partie du journal après une coupure "
        "de courant (ou en commence une nouvelle s’il n’y en a pas). Le journal et les tags "
        "enregistrés sont dans le dossier de données (--data-dir, sinon $COMPANION_DATA, "
        "sinon paths.data_dir de la configuration), celui qu’écrit `companion enroll`. La "
        "configuration : {config} ; comment se joue la table de chaque jeu : {table}. Avec "
        "--sim, ou une configuration sans matériel, la table est simulée : ses entrées sont "
        "les lignes de journal de --sim-input (JSON Lines en UTF-8 : spot, press, reader, "
        "tick, et une première ligne setup facultative ; voir {journal}).",
        "Referee a real table: read the readers and buttons, journal every input, draw the "
        "OLED. --resume continues the journal's game after a power cut (or starts a new one "
        "when there is none). The journal and the enrolled tags are in the data directory "
        "(--data-dir, else $COMPANION_DATA, else paths.data_dir of the config), the same one "
        "`companion enroll` writes. The config: {config}; how each game's table is played: "
        "{table}. With --sim, or a config without hardware, the table is simulated: its "
        "inputs are journal lines from --sim-input (UTF-8 JSON Lines: spot, press, reader, "
        "tick, and an optional first setup line; see {journal})."),
    "run.display": ("remplace le pilote de l’écran", "override the display driver"),
    "run.sound": ("remplace le backend de [sound] (une table simulée est muette sauf avec "
                  "espeak-ng ou capture : capture journalise chaque annonce)",
                  "override [sound] backend (a simulated table is silent unless given "
                  "espeak-ng or capture: capture logs each announcement)"),
    "run.exit": ("s’arrêter quand la partie est finie (simulations, tests)",
                 "stop when the game is over (simulations, tests)"),
    "run.verbose": ("journal de débogage", "debug logging"),
    "run.resume": ("continuer la partie du journal (avec le menu de démarrage : proposer de "
                   "la continuer) ; une nouvelle partie s’il n’y en a pas",
                   "continue the journal's game (with the power-on menu: offer to continue "
                   "it); a new game when there is none"),
    "run.menu": ("montrer le menu de démarrage même sans boutons GPIO (un script --sim-input "
                 "le mène avec des appuis aim/choose/back)",
                 "show the power-on menu even without GPIO controls (a --sim-input script "
                 "drives it with aim/choose/back presses)"),
    "run.no_menu": ("pas de menu de démarrage : reprendre (--resume) ou commencer tout de "
                    "suite le jeu de la configuration",
                    "no power-on menu: resume (--resume) or start the config's game at once"),
    "run.sim": ("simuler la table (sans matériel)", "simulate the table (no hardware)"),
    "run.virtual": (
        "une table virtuelle : la partie se joue sur la page web avec des jetons virtuels, "
        "chaque place depuis son propre téléphone ou navigateur appairé (sans matériel, rien "
        "à enregistrer) ; le journal donne l’adresse de la page et chaque code d’appairage. "
        "Ses parties sont gardées dans le dossier virtual/ du dossier de données, sauf avec "
        "--data-dir ({web})",
        "a virtual table: the game is played on the web page with virtual tokens, each seat "
        "from its own paired phone or browser (no hardware, nothing enrolled); the log gives "
        "the page's address and each pairing code. Its games are kept in the virtual/ folder "
        "of the data directory unless --data-dir is given ({web})"),
    "run.game": ("avec --virtual ou --sim : le jeu d’une nouvelle partie, au lieu de [game] "
                 "name de la configuration",
                 "with --virtual or --sim: the game of a new game, over the config's [game] "
                 "name"),
    "run.seats": ("avec --virtual ou --sim : les joueurs d’une nouvelle partie, séparés par "
                  "des virgules dans le sens horaire (Ana,Bob,Cy), au lieu de [game] seats de "
                  "la configuration",
                  "with --virtual or --sim: the players of a new game, comma-separated "
                  "clockwise (Ana,Bob,Cy), over the config's [game] seats"),
    "run.sim_input": ("les lignes de journal de la table simulée : un fichier, une FIFO ou - "
                      "(l’entrée standard) ; le format : {journal}",
                      "journal lines for the simulated table: a file, a FIFO or - (stdin); "
                      "the format: {journal}"),
    "run.sim_clock": ("real : les lignes arrivent quand elles sont lues ; script : le t des "
                      "lignes est l’horloge et le service s’arrête à la fin du script (il "
                      "faut --sim-input)",
                      "real: lines happen when read; script: the lines' t is the clock and "
                      "the service stops when the script ends (needs --sim-input)"),
    "run.script_input": ("--sim-clock script demande --sim-input (le t du script est "
                         "l’horloge)",
                         "--sim-clock script needs --sim-input (the script's t is the clock)"),
    "run.bad_config": ("configuration invalide (voir plus haut ; `companion config check`)",
                       "invalid configuration (see above; `companion config check`)"),
    "run.sim_only": ("--game et --seats règlent le jeu d’une table simulée ou virtuelle "
                     "(--sim, --virtual)",
                     "--game and --seats set a simulated or virtual table's game (--sim, "
                     "--virtual)"),
    "run.no_data_dir": ("impossible de créer le dossier de données {path} : {why}",
                        "cannot create the data directory {path}: {why}"),
    "run.virtual_input": ("--virtual prend ses entrées de la page web : retirez --sim-input",
                          "--virtual takes its inputs from the web page: leave out "
                          "--sim-input"),
    "run.virtual_clock": ("--virtual se joue en temps réel : retirez --sim-clock script",
                          "--virtual plays on the real clock: leave out --sim-clock script"),
    "run.virtual_menu": ("--virtual commence la partie tout de suite : retirez --menu",
                         "--virtual starts the game at once: leave out --menu"),
    "run.virtual_web": ("--virtual se joue sur la page web : mettez [web] enabled = true dans "
                        "la configuration",
                        "--virtual is played on the web page: set [web] enabled = true in the "
                        "config"),
    "run.no_virtual": ("{title} n’a pas encore de table virtuelle : choisissez un autre jeu "
                       "avec --game",
                       "{title} has no virtual table yet: choose another game with --game"),
    "run.no_game": ("--game {name} : pas de tel jeu ; les jeux sont {names}",
                    "--game {name}: no such game; games are {names}"),
    "run.seat_names": ("--seats {seats} : donnez des noms différents, séparés par des "
                       "virgules (Ana,Bob,Cy)",
                       "--seats {seats}: give different names, comma-separated (Ana,Bob,Cy)"),
    "run.seat_long": ("--seats {seats} : un nom a {n} caractères au plus",
                      "--seats {seats}: a name has at most {n} characters"),
    "run.seat_count": ("--seats {seats} : {game} se joue à {range}",
                       "--seats {seats}: {game} is for {range}"),
    "run.input_missing": ("--sim-input {path} : pas de tel fichier (donnez des lignes de "
                          "journal, voir {doc})",
                          "--sim-input {path}: no such file (give journal lines, see {doc})"),
    "run.input_folder": ("--sim-input {path} est un dossier : donnez un fichier de lignes de "
                         "journal",
                         "--sim-input {path} is a directory: give a file of journal lines"),
    "run.input_unreadable": ("--sim-input {path} : illisible pour cet utilisateur",
                             "--sim-input {path}: not readable by this user"),
    "run.input_cannot": ("--sim-input impossible de lire {path} : {why}",
                         "--sim-input cannot read {path}: {why}"),
    "run.input_format": ("--sim-input {error} (le format : {doc})",
                         "--sim-input {error} (the format: {doc})"),
    # companion config check
    "config.description": ("Les commandes de la configuration (/etc/companion/companion.toml, "
                           "décrite dans docs/companion.example.toml).",
                           "Commands about the configuration file "
                           "(/etc/companion/companion.toml, documented in "
                           "docs/companion.example.toml)."),
    "check.help": ("valider la configuration et le plan des broches ; sortie 1 au moindre "
                   "problème",
                   "validate the configuration and the pin map; exit 1 on any problem"),
    "check.description": (
        "Lire la configuration (et le plan des broches qu’elle nomme), dire chaque problème "
        "avec sa clé, sa valeur fautive et le remède, ou résumer la table et le dossier de "
        "données qu’utilisent les commandes. Chaque clé est décrite dans "
        "docs/companion.example.toml. Code de sortie : 0 valide, 1 des problèmes dans la "
        "configuration, 2 une mauvaise option.",
        "Read the configuration (and the pin map it names), report every problem with its "
        "key, its bad value and the fix, or summarise the table and the data directory the "
        "commands use. Every key is documented in docs/companion.example.toml. Exit status: "
        "0 valid, 1 problems in the configuration, 2 a bad option."),
    "check.error": ("erreur : {problem}", "error: {problem}"),
    "check.problems": ("companion config check : {n} problème(s)",
                       "companion config check: {n} problem(s)"),
    "check.note": ("note : {problem} ; le service (systemd le lance sous l’utilisateur "
                   "companion) doit pouvoir y écrire",
                   "note: {problem}; the service (systemd runs it as user companion) must be "
                   "able to write there"),
    "check.ok": ("configuration correcte", "configuration OK"),
    # companion club
    "club.description": (
        "Lire le broker MQTT du club (les tables qui ont une section [club] y publient) et "
        "servir une page en lecture seule : chaque table en direct, les résultats de la "
        "soirée et le classement par joueur, toutes tables et tous jeux, avec des exports "
        "CSV ; chaque résultat est archivé dans un fichier JSON Lines. Le mot de passe est "
        "lu dans le fichier que nomme --password-file, ou dans ${env}. Préparer une soirée "
        "de club : docs/club.md.",
        "Read the club's MQTT broker (the tables with a [club] section publish to it) and "
        "serve a read-only page: every table live, the evening's results and the standings "
        "per player across tables and games, with CSV exports; every result is archived to "
        "a JSON Lines file. The password is read from the file --password-file names, or "
        "from ${env}. Setting up a club night: docs/club.md."),
    "club.broker": ("le broker (port {tls} par défaut, {plain} avec --plain)",
                    "the broker (default port {tls}, {plain} with --plain)"),
    "club.broker_fix": ("l’adresse du broker, HÔTE ou HÔTE:PORT (par exemple "
                        "« club-pi.local »)",
                        "the broker's address, HOST or HOST:PORT (e.g. \"club-pi.local\")"),
    "club.username": ("l’utilisateur du club sur le broker ({default} par défaut)",
                      "the club's user on the broker (default {default})"),
    "club.password_file": ("un fichier qui contient le mot de passe de l’utilisateur (sa "
                           "première ligne)",
                           "a file holding the user's password (its first line)"),
    "club.tls_ca": ("le certificat de l’autorité du club (PEM), qui doit avoir signé celui "
                    "du broker",
                    "the club's CA certificate (PEM), which the broker's must be signed by"),
    "club.plain": ("MQTT en clair, sans TLS : un broker sur un réseau fermé seulement "
                   "(docs/club.md)",
                   "plain MQTT without TLS: a broker on a closed network only "
                   "(docs/club.md)"),
    "club.host": ("l’adresse où la page écoute (0.0.0.0 par défaut : le réseau)",
                  "the address the page listens on (default 0.0.0.0: the network)"),
    "club.port": ("le port TCP de la page ({default} par défaut)",
                  "the page's TCP port (default {default})"),
    "club.lang": ("la langue de la page, des tables comprises (par défaut : la langue de la "
                  "ligne de commande)",
                  "the page's language, its tables' included (default: the command line's "
                  "language)"),
    "club.archive": ("l’archive de la soirée, en JSON Lines, complétée si elle existe (par "
                     "défaut club-AAAA-MM-JJ.jsonl dans le dossier courant)",
                     "the night's archive, JSON Lines, added to when it exists (default "
                     "club-YYYY-MM-DD.jsonl in the current folder)"),
    "club.no_ca": ("--tls-ca {path} : pas de tel fichier", "--tls-ca {path}: no such file"),
    "club.password_unreadable": ("--password-file {path} : impossible de le lire : {why}",
                                 "--password-file {path}: cannot read it: {why}"),
    "club.not_utf8": ("ce n’est pas du texte UTF-8", "not UTF-8 text"),
    "club.archive_unreadable": ("--archive {path} : impossible de la lire : {why}",
                                "--archive {path}: cannot read it: {why}"),
    "club.archive_unwritable": ("--archive {path} : impossible d’y écrire : {why}",
                                "--archive {path}: cannot write it: {why}"),
    "club.archive_read": ("archive : {path}, résultats déjà là : {n}",
                          "archive: {path}, results already there: {n}"),
    "club.serving": ("page du club : http://{host}:{port}/ (lit {broker}:{broker_port})",
                     "club page: http://{host}:{port}/ (reading {broker}:{broker_port})"),
    # companion unpair
    "unpair.description": (
        "Désappairer le téléphone d’une place (par le nom de la place) ou tous les "
        "téléphones (all) de la page web du service en marche, sur le Pi lui-même. Le "
        "téléphone peut encore regarder ; pour jouer de nouveau, il doit entrer le nouveau "
        "code que montre l’OLED. Voir docs/web.md.",
        "Unpair a seat's phone (by the seat's name) or every phone (all) from the running "
        "service's web page, on the Pi itself. The phone can watch still; to act again it "
        "must enter the new code the OLED shows. See docs/web.md."),
    "unpair.seat": ("le nom de la place tel que le donne la configuration, ou all",
                    "the seat's name as the config gives it, or all"),
    "unpair.config": ("configuration : {problem}", "config: {problem}"),
    "unpair.web_off": ("la page web est coupée ([web] enabled = false)",
                       "the web page is off ([web] enabled = false)"),
    "unpair.no_token": ("impossible de lire {path} ({why}) : le service tourne-t-il, et "
                        "êtes-vous son utilisateur (ou root) ?",
                        "cannot read {path} ({why}): is the service running, and are you its "
                        "user (or root)?"),
    "unpair.no_answer": ("le service ne répond pas : {error}",
                         "the service does not answer: {error}"),
    "unpair.done": ("{n} téléphone(s) désappairé(s)", "unpaired {n} phone(s)"),
    # companion enroll
    "enroll.description": (
        "Enregistrement guidé : le compagnon nomme un jeton, vous le posez seul sur le pad "
        "(lecteur 0), il note l’UID et la sorte du tag dans le registre des tags (tags.json "
        "dans le dossier de données, où `companion run` le lit : --data-dir, sinon "
        "$COMPANION_DATA, sinon paths.data_dir de la configuration). La configuration : "
        "{config} ; les jetons de chaque jeu et le pad : {table}.",
        "Guided enrolment: the companion names a token, you put it alone on the pad (reader "
        "0), it records the tag's UID and kind in the tag registry (tags.json in the data "
        "directory, where `companion run` reads it: --data-dir, else $COMPANION_DATA, else "
        "paths.data_dir of the config). The config: {config}; the tokens of each game and "
        "the pad: {table}."),
    "enroll.kinds": ("les sortes de jetons à enregistrer, SORTE ou SORTE*N pour N d’une "
                     "sorte ({max} jetons au plus en tout) ; celles des jeux : {known}",
                     "token kinds to enrol, KIND or KIND*N for N of it (at most {max} tokens "
                     "in all); the games' kinds: {known}"),
    "enroll.game": ("enregistrer chaque jeton de ce jeu (ceux de chaque place)",
                    "enrol every token of this game (every seat's)"),
    "enroll.seats": ("nombre de places (avec --game ; par défaut celui du jeu : {each})",
                     "number of seats (with --game; default the game's: {each})"),
    "enroll.seats_of": ("{game} {default} ({range})", "{game} {default} ({range})"),
    "enroll.each": ("exemplaires de chaque jeton par place, de 1 à {max} (avec --game, 1 par "
                    "défaut)",
                    "copies of each token per seat, 1 to {max} (with --game, default 1)"),
    "enroll.timeout": ("secondes d’attente d’un tag à chaque étape (30 par défaut)",
                       "seconds to wait for a tag at each step (default 30)"),
    "enroll.forget": ("retirer ces tags et s’arrêter", "remove these tags and exit"),
    "enroll.list": ("afficher le registre et s’arrêter", "print the registry and exit"),
    "reader.port": ("le port série du Pico (par défaut : trouvé par son identifiant USB)",
                    "serial device of the Pico (default: found by USB id)"),
    "reader.spi": ("prendre comme pad un MFRC522 branché sur le SPI du Pi au lieu du Pico, "
                   "par exemple `0.0`",
                   "use an MFRC522 wired to the Pi's SPI as the pad instead of the Pico, e.g. "
                   "`0.0`"),
    "reader.rst": ("la broche GPIO (BCM) du reset du MFRC522, de 0 à {max} (avec --spi)",
                   "BCM GPIO of the MFRC522 reset line, 0 to {max} (with --spi)"),
    "reader.spi_fix": ("{text} : donnez le bus SPI et la sélection de puce en BUS.DEV, par "
                       "exemple `0.0` (/dev/spidev0.0)",
                       "{text}: give the SPI bus and chip select as BUS.DEV, e.g. `0.0` "
                       "(/dev/spidev0.0)"),
    # companion doctor
    "doctor.description": (
        "Dessiner une image de test sur l’OLED configuré, dire une phrase de test avec la "
        "voix configurée ([sound]), trouver le Pico sur l’USB, montrer la version de son "
        "firmware et son nombre de lecteurs, vérifier qu’il répond, et surveiller chaque "
        "lecteur quelques secondes en nommant chaque tag par la sorte que `companion enroll` "
        "a notée dans le dossier de données (--data-dir, sinon $COMPANION_DATA, sinon "
        "paths.data_dir de la configuration). Sortie 1 si l’écran, la voix ou un lecteur "
        "configuré manque, est en panne ou muet, 2 pour une mauvaise option ou "
        "configuration. Arrêtez d’abord le service companion : le port série ne sert qu’à "
        "un seul à la fois. La configuration : {config} ; le câblage : firmware/README.md et "
        "hardware/.",
        "Draw a test frame on the configured OLED, say a test sentence with the configured "
        "voice ([sound]), find the Pico on USB, show its firmware version and reader count, "
        "check that it answers, and watch every reader for a few seconds, naming each tag "
        "with the kind `companion enroll` recorded in the data directory (--data-dir, else "
        "$COMPANION_DATA, else paths.data_dir of the config). Exits 1 if the display, the "
        "voice or a configured reader is missing, faulty or silent, 2 for a bad option or "
        "config. Stop the companion service first: the serial port is used exclusively. The "
        "config: {config}; the wiring: firmware/README.md and hardware/."),
    "doctor.display_only": ("ne vérifier que l’OLED", "check only the OLED"),
    "doctor.seconds": ("combien de temps surveiller, en secondes au-dessus de 0 (3 par "
                       "défaut)",
                       "how long to watch, seconds above 0 (default 3)"),
    "doctor.readers": ("les lecteurs que la table devrait avoir, pad compris : de 1 à {max} "
                       "(par défaut : autant que le Pico en annonce)",
                       "readers the table should have, the pad included: 1 to {max} "
                       "(default: as many as the Pico reports)"),
    "doctor.settle_us": ("microsecondes laissées aux tags pour s’alimenter avant la lecture "
                         "de chaque lecteur, pour cette vérification seulement : de 0 à "
                         "20000 (par défaut : [readers] settle_us de la configuration, 300) ; "
                         "--find-settle trouve la valeur pour cette table",
                         "microseconds the tags get to power up before each reader is read, "
                         "for this check only: 0 to 20000 (default: [readers] settle_us of "
                         "the config, 300); --find-settle finds the value for this table"),
    "doctor.find_settle": (
        "avec un tag sur chaque case, après la surveillance : trouver la plus courte attente "
        "d’alimentation à laquelle chaque tag se lit à chacun de CYCLES cycles de lecture "
        "d’affilée ({cycles} par défaut, 62 au plus), de {high} us en descendant par pas de "
        "{step} us, et recommander son double pour [readers] settle_us ; gardez les tags "
        "immobiles",
        "with a tag on every spot, after the watch: find the lowest power-up wait at which "
        "every tag reads in each of CYCLES scan cycles in a row (default {cycles}, at most "
        "62), from {high} us down in {step} us steps, and recommend twice it for [readers] "
        "settle_us; keep the tags still"),
    "doctor.no_restart": ("ne pas redémarrer un Pico en marche pour lire la version de son "
                          "firmware",
                          "do not soft-restart a running Pico to read its firmware version"),
    "doctor.walk": ("parcourir le tapis case par case (posez un jeton sur chacune quand on "
                    "vous le demande) : vérifie la correspondance de chaque lecteur, ses "
                    "voisins et sa fiabilité, puis écrit le profil de la table que lit le "
                    "service (docs/build.md)",
                    "walk the mat spot by spot (put a token on each when asked): checks each "
                    "reader's mapping, its neighbours and its reliability, then writes the "
                    "table profile the service reads (docs/build.md)"),
    "doctor.hold": ("avec --walk : secondes de repos de chaque jeton sur sa case (3 par "
                    "défaut)",
                    "with --walk: seconds each token rests on its spot (default 3)"),
    "doctor.walk_timeout": ("avec --walk : secondes d’attente de chaque jeton (120 par "
                            "défaut)",
                            "with --walk: seconds to wait for each token (default 120)"),
    "doctor.no_settle": (
        "avec --walk : sauter sa dernière étape, qui demande des jetons sur les cases (autant "
        "que vous en avez, un par bus SPI au moins), trouve la plus courte attente "
        "d’alimentation qui les lit tous (comme --find-settle ; --find-settle CYCLES fixe ses "
        "cycles) et en écrit le double dans le profil de la table : le service l’utilise "
        "sauf si [readers] settle_us de la configuration en donne une",
        "with --walk: skip its last step, which asks for tokens on the spots (as many as "
        "you have, one per SPI bus at least), finds the lowest power-up wait that reads them "
        "all (as --find-settle does; --find-settle CYCLES sets its cycles) and writes twice "
        "it in the table profile: the service uses it unless [readers] settle_us of the "
        "config sets one"),
    # companion lab, report, selfplay
    "lab.description": (
        "Jouer chaque variante d’un fichier TOML (jeu, joueurs, robots, parties, graine, "
        "règles du moteur) sur tous les cœurs et dire, par variante et avec des intervalles "
        "à 95 % : les victoires par place et du premier joueur, la longueur des parties et "
        "des manches, les chiffres propres au jeu, et combien de fois le cas particulier de "
        "chaque règle s’est présenté. Une table [ladder] classe des robots de force "
        "croissante et dit combien l’habileté décide ; une table [restricted] dit ce que "
        "vaut chaque élément de stratégie pour un robot qui réfléchit (jeu restreint). Le "
        "format du fichier : {doc}. Le même fichier et la même graine donnent les mêmes "
        "chiffres, quel que soit le nombre de processus.",
        "Play every variant of a TOML file (game, players, bots, games, seed, engine rules) "
        "on every core and report, per variant and with 95 % intervals: wins by seat and for "
        "the first player, game and round length, the game's own figures, and how often "
        "each ruling's special case applied. A [ladder] table rates bots of rising strength "
        "and says how much skill decides; a [restricted] table says what each strategic "
        "element is worth to a thinking bot (restricted play). The file format: {doc}. The "
        "same file and seed give the same figures, whatever the number of workers."),
    "lab.file": ("le fichier des variantes (TOML)", "the variants file (TOML)"),
    "lab.cluster": ("jouer sur les processus de cet ordonnanceur Dask (pip install "
                    "'tabletop-companion[lab-cluster]' depuis une copie du dépôt ; "
                    "docs/lab.md dit comment en lancer un) ; les chiffres sont exactement "
                    "ceux des cœurs de cette machine",
                    "play on the workers of this Dask scheduler (pip install "
                    "'tabletop-companion[lab-cluster]' from a checkout; docs/lab.md says how "
                    "to start one); the figures are the very same as on this machine's "
                    "cores"),
    "lab.worker_wait": ("avec --cluster : s’arrêter quand l’ordonnanceur n’a plus eu de "
                        "processus depuis si longtemps ({default} par défaut) ; les chiffres "
                        "finis d’ici là sont gardés",
                        "with --cluster: stop when the scheduler has had no worker for this "
                        "long (default {default}); the figures finished by then are kept"),
    "lab.workers": ("processus où jouer (par défaut : un par cœur, {n} ici) ; les chiffres "
                    "n’en dépendent pas",
                    "processes to play in (default: one per core, {n} here); the figures do "
                    "not depend on it"),
    "lab.quiet": ("pas de barre de progression sur stderr", "no progress bar on stderr"),
    "lab.lang": ("la langue du résumé et du rapport (par défaut : celle de la table)",
                 "the language of the summary and the report (default: the table's)"),
    "lab.out": ("le dossier où écrire report.html, figures.json et figures.csv, créé s’il "
                "le faut dans un dossier qui existe (par défaut : {default} du dossier de "
                "données, que liste la page web de la table)",
                "the folder to write report.html, figures.json and figures.csv in, created if "
                "needed in a folder that exists (default: the data directory's {default}, "
                "which the table's web page lists)"),
    "lab.out_file": ("<nom du fichier>", "<file name>"),
    "lab.out_name": ("<nom>", "<name>"),
    "report.description": (
        "Repasser les journaux de parties arbitrées à une table (un dossier vaut pour ses "
        "fichiers *.jsonl, par exemple l’archive/ du dossier de données) et en donner les "
        "chiffres du labo, plus ce que seule une vraie table a : minutes par partie, "
        "secondes par tour et par décision, fautes et le temps qu’elles coûtent, appuis "
        "refusés. Les journaux du même jeu, du même nombre de places et des mêmes règles "
        "sont comptés ensemble. Voir {doc}.",
        "Replay journals of games refereed at a table (a folder stands for its *.jsonl "
        "files, e.g. the data directory's archive/) and report the lab's figures for them, "
        "plus what only a real table has: minutes per game, seconds per turn and per "
        "decision, faults and the time they cost, refused presses. Journals of the same "
        "game, seat count and rules are reported together. See {doc}."),
    "report.journals": ("fichiers de journal ou dossiers", "journal files or folders"),
    "report.name": ("le nom du rapport (playtest par défaut)",
                    "the report's name (default playtest)"),
    "report.against": (
        "un fichier de variantes du labo : ses parties entre robots sont jouées et mises à "
        "côté des vraies du même jeu et du même nombre de places, et chaque chiffre où les "
        "gens diffèrent des robots au-delà du hasard est dit en une phrase (un test de "
        "permutation partie par partie, le taux de fausses découvertes tenu à 5 %% sur tous "
        "les chiffres comparés) ; en dessous du nombre de parties qui pourrait voir une "
        "différence d’un écart type, le rapport dit qu’elles sont trop peu nombreuses pour "
        "conclure",
        "a lab variants file: its bot games are played and set beside the real ones of the "
        "same game and seat count, and every figure where people differ from the bots "
        "beyond chance is said in a sentence (a permutation test game by game, the false "
        "discovery rate kept at 5 %% over all the figures compared); below the games that "
        "could see a difference of one standard deviation, the report says they are too few "
        "to tell"),
    "selfplay.description": (
        "La forme en une ligne de `companion lab` : une variante donnée sur la ligne de "
        "commande, jouée sur tous les cœurs, ses chiffres affichés. La même graine donne la "
        "même sortie. La forme avec un fichier et les chiffres : {doc}. Les options d’un "
        "jeu : companion selfplay JEU --help.",
        "The one-line form of `companion lab`: one variant from the command line, played on "
        "every core, its figures printed. The same seed gives the same output. The "
        "file-based form and the figures: {doc}. A game's own options: companion selfplay "
        "GAME --help."),
    "selfplay.game": ("{title}, {players}", "{title}, {players}"),
    "selfplay.players": ("nombre de places (par défaut : le nombre habituel du jeu)",
                         "number of seats (default: the game's usual count)"),
    "selfplay.games": ("parties à jouer, 1 ou plus (100 par défaut)",
                       "games to play, 1 or more (default 100)"),
    "selfplay.seed": ("la graine de chaque partie (1 par défaut)",
                      "the seed of every game (default 1)"),
    "selfplay.bots": ("les sortes de robots, séparées par des virgules, réparties sur les "
                      "places à tour de rôle (par défaut : la première sorte du jeu)",
                      "comma-separated bot kinds, cycled over the seats (default: the game's "
                      "first kind)"),
    "selfplay.rule": ("un réglage du moteur, comme dans [game.rules] (à répéter pour "
                      "d’autres)",
                      "an engine setting, as in [game.rules] (repeat for more)"),
    "selfplay.rule_fix": ("{text} : écrivez CLÉ=VALEUR, par exemple turn_limit=30",
                          "{text}: write KEY=VALUE, e.g. turn_limit=30"),
    "lab.seconds_fix": ("{text} : un nombre de secondes supérieur à 0, par exemple 60",
                        "{text}: a number of seconds above 0, e.g. 60"),
    "lab.games": ("parties", "games"),
    "lab.journals": ("journaux", "journals"),
    "lab.left": ("{n} s restantes", "{n} s left"),
    "lab.report": ("rapport : {path} (chiffres : {json}, {csv})",
                   "report: {path} (figures: {json}, {csv})"),
    "lab.beside": ("{stem} : {path} (chiffres : {stem}.json)",
                   "{stem}: {path} (figures: {stem}.json)"),
    "lab.cannot_report": ("impossible d’écrire le rapport dans {out} : {why}",
                          "cannot write the report in {out}: {why}"),
    "lab.cannot_beside": ("impossible d’écrire les chiffres {stem} dans {out} : {why}",
                          "cannot write the {stem} figures in {out}: {why}"),
    "lab.kept": ("{error} ; gardé dans {out} : {kept}", "{error}; kept in {out}: {kept}"),
    "lab.nothing": ("{error} ; rien n’était fini", "{error}; nothing was finished"),
    "lab.share": ("{n} variantes sur {total}", "{n} of {total} variants"),
    "lab.kept_report": ("report.html avec {share}", "report.html with {share}"),
    "lab.stopped": ("{title} (arrêté avant la fin : {share})", "{title} (stopped early: {share})"),
    "report.no_journal": ("{path} ne contient aucun journal (*.jsonl)",
                          "{path} holds no journal (*.jsonl)"),
    "report.no_file": ("{path} : pas de tel fichier", "{path}: no such file"),
    "report.against_problem": ("--against {error} (le format : {doc})",
                               "--against {error} (the format: {doc})"),
    # the typed table (`companion play --sim`), every game's
    "console.missing": ("? il manque un mot (tapez help)", "? a word is missing (type help)"),
    "console.refused": ("? {why} (tapez help)", "? {why} (type help)"),
    "console.unknown": ("commande inconnue {verb}", "unknown command {verb}"),
    "console.quote": ("guillemet non fermé", "no closing quotation"),
    "console.no_seat": ("pas de place {word} : les places sont 1..{n} ou {names}",
                        "no seat {word}: seats are 1..{n} or {names}"),
    "console.wait": ("wait prend des secondes, par exemple wait 6, pas {word}",
                     "wait takes seconds, e.g. wait 6, not {word}"),
    "console.forward": ("le temps ne fait qu’avancer", "time only goes forward"),
    "console.no_square": ("pas de case {word} : les cases sont 1..{n}",
                          "no square {word}: squares are 1..{n}"),
    "console.lies_there": ("{tag} est déjà là", "{tag} already lies there"),
    "console.nothing_there": ("il n’y a rien là", "nothing lies there"),
    "console.not_there": ("{tag} n’est pas là", "{tag} does not lie there"),
    "console.pad": ("pad", "pad"),
    "console.square": ("case {n}", "square {n}"),
    "console.lies": ("  {where} : {what}", "  {where}: {what}"),
    "console.in_hand": ("en main", "in hand"),
    "console.empty_hands": ("rien en main : ce jeu ne garde rien devant les places",
                            "nothing in hand: this game keeps nothing before the seats"),
}  # fmt: skip
"""The command line's words under ``cli.``, each (French, English)."""


COMMANDS = Book("cli.", WORDS)
"""The commands' own book."""


def add_words(owner: str, words: Mapping[str, tuple[str, str]]) -> None:
    """More of the command line's words, each (French, English) by its whole key
    (``cli.lab.<game>.<name>``), in the OLED's catalogue: a game's names and notes in the
    lab, which its lab part gives as the lab loads it. A ValueError for a key the core's
    books or another part already say otherwise."""
    table = {
        "fr": {key: pair[0] for key, pair in words.items()},
        "en": {key: pair[1] for key, pair in words.items()},
    }
    check_words(owner, table)
    register_words(owner, table, drawn=False)
