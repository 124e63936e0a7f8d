"""The words of Vous ne passerez pas !, in French and English: on the OLED (its screens'
phrases, under `vnp.` in the shared catalogue `companion/screens/text.py`, its ready
prompt, refused presses and buttons; the French of the engine's sentences), its
descriptor's `words`, which the registry adds when it loads the game; in a
transcript and the status line (`LINES`: its referee's `describe` and `where`).
"""

from __future__ import annotations

from companion.screens.model import Reason


class VnpRefusal(Reason):
    """Vous ne passerez pas !'s own reasons for a press that cannot count (the core's are
    `Refusal`), said by the phrases ``notice.<value>`` of `PHRASES`."""

    NOT_YOUR_COLOUR = "not_your_colour"
    """VNP-7: the seat does not play the colour named."""
    MAY_NOT_PASS = "may_not_pass"
    """VNP-5: a pass while a legal placement exists."""
    ILLEGAL_PLACEMENT = "illegal_placement"
    """VNP-1, VNP-3, VNP-4: the rules forbid that placement (the event names the ruling)."""
    BAD_VALUE = "bad_value"
    """The press's value is not one the game reads (not a colour, not a placement)."""
    REPEATED = "repeated"
    """The same placement sent again: it already counts."""
    UNDO_OFF = "undo_off"
    """The table setting `undo_placement` turned undo off."""


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

PAGE_REFUSALS: dict[str, dict[str, str]] = {
    "fr": {
        "no_value": "« {control} » ne prend pas de valeur.",
        "needs_colour": "« {control} » demande une valeur : {{\"colour\": ...}}.",
        "colour": "La couleur est l’une de : {colours}.",
        "not_your_colour": "Vous ne jouez pas le {colour}.",
        "pass_keys": "Une passe ne porte que la couleur.",
        "place_keys": "Une pose est {{\"colour\": ..., \"segments\": [[x1, y1, x2, y2], ...]}}.",
        "no_board": "Pas encore de plateau.",
        "segments": "Une pièce a de 1 à 4 segments.",
        "segment": "Un segment est [x1, y1, x2, y2], en intersections entières.",
        "not_unit": "{segment} n’est pas un segment unité du plateau.",
        "not_piece": "Ces segments ne forment pas une pièce (VNP-1).",
    },
    "en": {
        "no_value": "\"{control}\" takes no value.",
        "needs_colour": "\"{control}\" needs a value: {{\"colour\": ...}}.",
        "colour": "The colour is one of: {colours}.",
        "not_your_colour": "You do not play {colour}.",
        "pass_keys": "A pass carries only the colour.",
        "place_keys": "A placement is {{\"colour\": ..., \"segments\": [[x1, y1, x2, y2], ...]}}.",
        "no_board": "No board yet.",
        "segments": "A piece has 1 to 4 segments.",
        "segment": "A segment is [x1, y1, x2, y2] in whole intersections.",
        "not_unit": "{segment} is not a unit segment of the board.",
        "not_piece": "These segments are not one piece (VNP-1).",
    },
}  # fmt: skip
"""The page's refusals of a phone's action that is not one the game reads
(`companion/games/vnp/page.py`), under `PREFIX + "page."`: what a phone reads, so "vous"."""

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
    },
}
"""Vous ne passerez pas !'s phrases in the shared catalogue, its screens' under `PREFIX`."""


# ---------------------------------------------------------------- the engine's sentences

FEMININE = {"jaune": "jaune", "bleu": "bleue", "rouge": "rouge", "vert": "verte"}
"""A colour as the adjective of "une pièce" (French)."""
WHY_FR: tuple[tuple[str, str], ...] = (
    (r"(?P<c>\w+) already placed piece (?P<p>\w+)", "{C} a déjà posé la pièce {p}."),
    (r"pieces never share a unit segment", "Deux pièces ne partagent jamais un segment."),
    (
        r"\(strict reading\) an intersection inside a piece is that piece's alone",
        "(lecture stricte) Une intersection au milieu d’une pièce n’est qu’à elle.",
    ),
    (
        r"pieces never cross: both would go straight through",
        "Les pièces ne se croisent pas : les deux passeraient tout droit.",
    ),
    (
        r"(?P<c>\w+)'s first piece must touch its start intersection",
        "La première pièce {f} doit toucher son point de départ.",
    ),
    (
        r"the piece must share an intersection with a (?P<c>\w+) piece",
        "La pièce doit toucher une pièce {f} déjà posée.",
    ),
    (
        r"(?P<c>\w+) may not pass: it can place a piece",
        "{C} ne peut pas passer : une pièce se pose.",
    ),
)
"""The engine's sentences (English; `c` a colour, `p` a piece) and their French, for the
OLED; a sentence not listed is shown as the engine says it."""

# --------------------------------------------------------------------------- transcript

LINES: dict[str, dict[str, str]] = {
    "en": {
        "placed": "{who} ({colour}) places {piece}",
        "passed": "{who} ({colour}) passes: no legal placement (VNP-5)",
        "all_placed": "{who} ({colour}) has placed every piece: {bonus} points (VNP-6)",
        "game_over": "game over: {won} (VNP-6); scores {scores}",
        "game_over.sides": "{line}; sides {sums} (VNP-7)",
        "won": "{names} wins",
        "won.many": "{names} win",
        "and": " and ",
        "hint": "hint for {whose}: piece {piece}",
        "hint.pass": "hint for {whose}: no placement is left, pass (VNP-5)",
        "undo": "back: {who}'s {piece} ({colour}) is taken back",
        "ignored": "{who}'s {control} refused: {ruling}: {why}",
        "where.turn": "{colour} ({name}) to play; scores {scores}",
        "where.over": "game over: {won}; scores {scores}",
        "where.sides": "{scores}; {sums}",
    },
    "fr": {
        "placed": "{who} ({colour}) pose la pièce {piece}",
        "passed": "{who} ({colour}) passe : aucune pièce ne peut être posée (VNP-5)",
        "all_placed": "{who} ({colour}) a posé toutes ses pièces : {bonus} points (VNP-6)",
        "game_over": "partie terminée : {won} (VNP-6) ; scores {scores}",
        "game_over.sides": "{line} ; camps {sums} (VNP-7)",
        "won": "{names} gagne",
        "won.many": "{names} gagnent",
        "and": " et ",
        "hint": "indice pour {whose} : pièce {piece}",
        "hint.pass": "indice pour {whose} : aucune pièce ne peut être posée, passez (VNP-5)",
        "undo": "retour : coup annulé, la pièce {piece} revient à {colour} ({who})",
        "ignored": "{control} refusée pour {who} : {ruling} : {why}",
        "where.turn": "au tour de {colour} ({name}) ; scores {scores}",
        "where.over": "partie terminée : {won} ; scores {scores}",
        "where.sides": "{scores} ; {sums}",
    },
}
"""The transcript's and status line's sentences (`describe`, `VnpReferee.where`), per
language: English for the command line and the logs, French for the table's web page, in
the words the page (i18n.js), the OLED (`PHRASES` above) and the rule book use. A colour
is named in the line's language (`screens.colour_word`: "yellow", "jaune"); a piece is
named (4a), never by a placement's internal number; rulings (VNP-5) keep their ids, as
docs/rulings.md names them."""


for _lang, _table in SCREEN_PHRASES.items():
    PHRASES[_lang].update((PREFIX + key, text) for key, text in _table.items())
    PHRASES[_lang].update((PREFIX + "page." + k, t) for k, t in PAGE_REFUSALS[_lang].items())

CONSOLE_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "vnp.console.help": """\
Ce que les joueurs entrent sur leur téléphone (couleurs :
{colours} ; pièces 1a, 2a, 2b, 3a..3e, 4a..4p ; x, y comptent les
intersections depuis 0 en haut à gauche ; places : 1.. ou leur nom) :
  place PIÈCE X,Y [oN] [COULEUR] [as PLACE]
                        la pièce dans l’orientation N (o0 par défaut), le coin
                        haut gauche de sa boîte sur X,Y  ex. place 4c 2,1 o0
  place ID [COULEUR] [as PLACE]   un placement par son id (comme la page web)
  pass [COULEUR] [as PLACE]       passer (VNP-5 : seulement si rien ne se pose)
  hint [as PLACE]       demander à l’OLED un placement de la couleur qui joue
  back [as PLACE]       reprendre le dernier placement (sans place : la console)
La couleur est celle qui joue, sauf si elle est donnée ; la place est celle qui
joue cette couleur, sauf si elle est donnée (pour voir un refus : place 1a 2,2
{other} as Ana).
Pour regarder (rien n’est envoyé) :
  board                 le plateau en texte (lettres {letters} ; un départ pas
                        encore pris : en minuscule)
  pieces [COULEUR]      les pièces qui restent
  shapes PIÈCE          les orientations de la pièce, en oN
  legal [PIÈCE]         quelques placements permis de la couleur qui joue, en
                        commandes
  view                  ce que reçoit la page web de la table (JSON)
Autres : wait SECONDES, hands, screen (l’OLED de nouveau), help, quit""",
        "vnp.console.no_piece": "pas de pièce {piece} : les pièces sont {pieces}",
        "vnp.console.orientations": "la pièce {piece} a les orientations o0..o{last}",
        "vnp.console.off_board": "{piece} o{o} en {x},{y} sort du plateau",
        "vnp.console.over": "la partie est finie : nommez la couleur (par exemple {colour}) "
                            "pour essayer quand même",
        "vnp.console.orientation": "qu’est-ce que {word} ? une orientation s’écrit oN, par "
                                   "exemple o2",
        "vnp.console.place": "une position s’écrit X,Y (par exemple 2,1), pas {where}",
        "vnp.console.all_placed": "aucune (tout est posé)",
        "vnp.console.more": "... et {n} de plus",
        "vnp.console.in_all": "{n} en tout",
        "vnp.hands.colour_seats": "",
        "vnp.hands.scores": "score",
        "vnp.hands.side_scores": "score du camp",
    },
    "en": {
        "vnp.console.help": """\
What the players enter on their phones (colours: {colours};
pieces 1a, 2a, 2b, 3a..3e, 4a..4p; x, y count intersections from 0 at the top
left; seats are 1.. or names):
  place PIECE X,Y [oN] [COLOUR] [as SEAT]
                        the piece in orientation N (default o0) with the top
                        left of its box on intersection X,Y e.g. place 4c 2,1 o0
  place ID [COLOUR] [as SEAT]   a placement by its id (as the web page sends it)
  pass [COLOUR] [as SEAT]       pass (VNP-5: only when nothing can be placed)
  hint [as SEAT]        ask the OLED for a placement of the colour to play
  back [as SEAT]        take back the last placement (no seat: the console's)
The colour is the one to play unless given; the seat is the one playing that
colour unless given (to try a refusal: place 1a 2,2 {other} as Ana).
To look (nothing is sent):
  board                 the board as text (letters {letters}; a start not used
                        yet: lower case)
  pieces [COLOUR]       the pieces left
  shapes PIECE          the piece's orientations, as oN
  legal [PIECE]         some legal placements of the colour to play, as commands
  view                  what the table's web page is sent (JSON)
Other: wait SECONDS, hands, screen (the OLED again), help, quit""",
        "vnp.console.no_piece": "no piece {piece}: pieces are {pieces}",
        "vnp.console.orientations": "piece {piece} has orientations o0..o{last}",
        "vnp.console.off_board": "{piece} o{o} at {x},{y} leaves the board",
        "vnp.console.over": "the game is over: name the colour (e.g. {colour}) to try anyway",
        "vnp.console.orientation": "what is {word}? an orientation is oN, e.g. o2",
        "vnp.console.place": "a place is X,Y (e.g. 2,1), not {where}",
        "vnp.console.all_placed": "none (all placed)",
        "vnp.console.more": "... and {n} more",
        "vnp.console.in_all": "{n} in all",
        "vnp.hands.colour_seats": "",
        "vnp.hands.scores": "score",
        "vnp.hands.side_scores": "side's score",
    },
}  # fmt: skip
"""The typed table's words (`companion play --sim --game vnp`), in each language; the
colours it names are the table's (`screens.colour_word`)."""

SETUP_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "vnp.setup.own_board": "{title} se joue sur son propre plateau : retirez `layout`",
    },
    "en": {
        "vnp.setup.own_board": "{title} is played on its own board: leave out layout",
    },
}  # fmt: skip
"""What its referee refuses in a setup (the checks every game shares are the core's)."""
for _lang, _table in SETUP_WORDS.items():
    CONSOLE_WORDS[_lang].update(_table)
