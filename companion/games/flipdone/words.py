"""Flip Done's words, in French and English: on the OLED (the `fd.*` keys and its ready
prompt), in the shared catalogue (`companion/screens/text.py`) through its descriptor's
`words`, which the registry adds when it loads the game; in a transcript and the status
line (`TEXTS`, `REASONS`: its referee's `describe` and `where`), and the French of its
undone steps in the transcript's shared lines.
"""

from __future__ import annotations

from companion.transcript import EngineWords

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "fd.manche": "Manche",
        "fd.pad": "Pad",
        "fd.the_pad": "pad",
        "fd.spot": "Case {n}",
        "fd.spots": "Cases {n}",
        "fd.and": "et",
        "fd.red": "R",
        "fd.black": "N",
        "fd.line.column": "col{n}",
        "fd.line.row": "rang{n}",
        "fd.line.diagonal": "diag{slant}",
        "fd.tie_phase": "Égalité",
        "fd.phase_over": "Fin de la phase",
        "fd.manche_won": "Manche {m} : {s} +{n}",
        "fd.tie": "Égalité : une phase de plus.",
        "fd.news.made": "{s} +{n} {line}",
        "fd.news.broken": "{s} +{n} de {o}",
        "fd.news.held": "{o} +{n} tenue",
        "fd.news.lost": "{o} perd {line}",
        "fd.say.deal_down": "Donne : {n} cartes face cachée, une par case.",
        "fd.say.deal_up": "Carte du centre face visible.",
        "fd.say.place_first": "Pose la carte visible sur la case de ton choix.",
        "fd.say.play": "Joue une carte.",
        "fd.say.pad": "Retourne un élément, ou pousse : défausse.",
        "fd.say.turning": "Repose la case {spot} retournée.",
        "fd.say.gather": "Ramassez tout : {left}",
        "fd.say.wait_table": "{Spots} : remettez comme avant.",
        "fd.say.extra_tag": "{Spot} : une carte en trop. Retirez-la.",
        "fd.say.missing_tag": "{Spot} : une carte manque. Remettez-la.",
        "fd.say.unknown_tag": "{Spot} : ce tag n’est pas une carte du jeu. Retirez-le.",
        "fd.say.two_tags": "{Spot} : deux cartes d’un coup. Une seule à la fois.",
        "fd.say.stacked": "{Spot} est déjà un élément, pas d’empilement. Retirez la carte.",
        "fd.say.flipped_twice": "{Spot} : élément déjà retourné. Remettez-le comme avant.",
        "fd.say.not_element": "{Spot} n’est pas un élément. Reposez sa carte face cachée.",
        "fd.say.one_flip": "{Spots} : un seul élément par tour. Remettez-les comme avant.",
        "fd.say.in_play": "{Spot} : cette carte est déjà en jeu. Remettez-la à sa place.",
        "fd.say.out_of_turn": "{Spot} : une carte à la fois, attendez votre tour. Reprenez-la.",
        "fd.say.deal_first": "{Spot} : la donne n’est pas finie. Reprenez cette carte.",
        "fd.say.discard_first": (
            "{Spot} : d’abord une carte sur le pad. Reposez l’élément tel qu’il était."
        ),
        "fd.say.reader_silent": "{Spot} : le lecteur ne répond plus. Vérifiez son câble.",
        "fd.say.across_spots": "{Spots} : une carte à cheval sur les deux. Posez-la sur une.",
        "fd.say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
        "fd.say.restore": "{Spots} : pas comme attendu. Remettez-les comme avant.",
    },
    "en": {
        "fd.manche": "Round",
        "fd.pad": "Pad",
        "fd.the_pad": "pad",
        "fd.spot": "Spot {n}",
        "fd.spots": "Spots {n}",
        "fd.and": "and",
        "fd.red": "R",
        "fd.black": "B",
        "fd.line.column": "col{n}",
        "fd.line.row": "row{n}",
        "fd.line.diagonal": "diag{slant}",
        "fd.tie_phase": "Tie",
        "fd.phase_over": "End of the phase",
        "fd.manche_won": "Round {m}: {s} +{n}",
        "fd.tie": "Tie: one more phase.",
        "fd.news.made": "{s} +{n} {line}",
        "fd.news.broken": "{s} +{n} from {o}",
        "fd.news.held": "{o} +{n} held",
        "fd.news.lost": "{o} loses {line}",
        "fd.say.deal_down": "Deal: {n} cards face down, one per spot.",
        "fd.say.deal_up": "Centre card face up.",
        "fd.say.place_first": "Lay the face-up card on the spot you choose.",
        "fd.say.play": "Play a card.",
        "fd.say.pad": "Flip an element, or push: discard.",
        "fd.say.turning": "Put spot {spot} back turned over.",
        "fd.say.gather": "Gather all: {left}",
        "fd.say.wait_table": "{Spots}: put back as before.",
        "fd.say.extra_tag": "{Spot}: one card too many. Take it off.",
        "fd.say.missing_tag": "{Spot}: a card is missing. Put it back.",
        "fd.say.unknown_tag": "{Spot}: that tag is no card of the game. Take it off.",
        "fd.say.two_tags": "{Spot}: two cards at once. One at a time.",
        "fd.say.stacked": "{Spot} is already an element, no stacking. Take the card off.",
        "fd.say.flipped_twice": "{Spot}: element already flipped. Put it back as it was.",
        "fd.say.not_element": "{Spot} is not an element. Put its card back face down.",
        "fd.say.one_flip": "{Spots}: one element a turn. Put them back as they were.",
        "fd.say.in_play": "{Spot}: that card is already in play. Put it back in its place.",
        "fd.say.out_of_turn": "{Spot}: one card at a time, wait for your turn. Take it back.",
        "fd.say.deal_first": "{Spot}: the deal is not finished. Take that card back.",
        "fd.say.discard_first": "{Spot}: first a card on the pad. Put the element back as it was.",
        "fd.say.reader_silent": "{Spot}: its reader stopped answering. Check its cable.",
        "fd.say.across_spots": "{Spots}: a card lies across both. Lay it on one.",
        "fd.say.off_mat": "Reader {spot}: no square of this game. Take off what lies on it.",
        "fd.say.restore": "{Spots}: not as expected. Put them back as before.",
    },
}
"""Flip Done's phrases in the shared catalogue."""


# --------------------------------------------------------------------------- transcript

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        # describe(): one line per event kind (fields: the event's, seats by name)
        "phase_start": (
            "round {manche}, phase {phase}{extra}: {first} starts; the face-up card is the {card}"
        ),
        "first_element": "{seat} lays the {card}, the first element, on square {square}",
        "first_element.centre": "the {card} is the first element, on the centre",
        "build": "{seat} builds the {card} on square {square}",
        "flip": "{seat} discards a card and flips square {square}: {shown} up, {hidden} down",
        "discard": "{seat} discards a card",
        "line_made": "{seat} aligns {line}: +{value}",
        "line_broken": (
            "{seat} breaks {owner}'s {line} and takes {value} "
            "({from_owner} from {owner}, {from_bank} from the bank)"
        ),
        "line_held": "{line} stays aligned: {owner} takes {bonus} from the bank",
        "line_lost": "{owner} loses {line} ({ruling})",
        "phase_end": "the phase is over: cards left {cards_left}, {paid} tokens paid",
        "manche_won": ("{seat} wins round {manche} (gains {gains}) and takes {bonus} more tokens"),
        "tie": "{seats} tie for {what}: one more phase",
        "tie_stands": "{seats} tie for {what}, and the tie stands",
        "game_over": "{winners} wins the game! ({tokens})",
        "fault": "STOP: {reason} at {place}",
        # words inside those lines
        "word.tie_break": " (to break a tie)",
        "word.and": " and ",
        "word.game": "the game",
        "word.manche": "the round",
        "word.pad": "the pad",
        "word.spot": "spot {spot}",
        "word.line.column": "column {n}",
        "word.line.row": "row {n}",
        "word.line.diagonal": "diagonal {squares}",
        "word.seat_count": "{seat} {n}",
        # where(): the status line
        "where": "round {manche}, phase {phase}, {what} ({tokens})",
        "where.over": "game over: {winners} won ({tokens})",
        "where.turn": "{seat} to play",
        "where.fault": "stopped: {reason}",
        "where.waiting": "waiting: {reason}",
        "where.gather": "gathering the cards",
        "where.deal": "dealing",
    },
    "fr": {
        "phase_start": (
            "manche {manche}, phase {phase}{extra} : {first} commence ; la carte visible est {card}"
        ),
        "first_element": "{seat} pose {card}, le premier élément, sur la case {square}",
        "first_element.centre": "{card} est le premier élément, au centre",
        "build": "{seat} pose {card} sur la case {square}",
        "flip": (
            "{seat} défausse une carte et retourne la case {square} : "
            "{shown} face visible, {hidden} face cachée"
        ),
        "discard": "{seat} défausse une carte",
        "line_made": "{seat} aligne {line} : +{value}",
        "line_broken": (
            "{seat} casse {line} de {owner} et prend {value} "
            "({from_owner} de {owner}, {from_bank} de la pioche)"
        ),
        "line_held": "{line} reste de la même couleur : {owner} prend {bonus} dans la pioche",
        "line_lost": "{owner} perd {line} ({ruling})",
        "phase_end": "fin de la phase : cartes restantes {cards_left}, jetons payés {paid}",
        "manche_won": (
            "{seat} remporte la manche {manche} (gains {gains}) "
            "et prend {bonus} jetons supplémentaires"
        ),
        "tie": "{seats} à égalité pour {what} : une phase de plus",
        "tie_stands": "{seats} restent à égalité pour {what} : pas de phase de plus",
        "game_over": "partie gagnée par {winners} ! ({tokens})",
        "fault": "STOP : {reason} ({place})",
        "word.tie_break": " (pour départager l’égalité)",
        "word.and": " et ",
        "word.game": "la partie",
        "word.manche": "la manche",
        "word.pad": "pad",
        "word.spot": "case {spot}",
        "word.line.column": "la colonne {n}",
        "word.line.row": "la rangée {n}",
        "word.line.diagonal": "la diagonale {squares}",
        "word.seat_count": "{seat} {n}",
        "where": "manche {manche}, phase {phase}, {what} ({tokens})",
        "where.over": "partie gagnée par {winners} ({tokens})",
        "where.turn": "à {seat} de jouer",
        "where.fault": "STOP : {reason}",
        "where.waiting": "en attente : {reason}",
        "where.gather": "ramassage des cartes",
        "where.deal": "donne en cours",
    },
}
"""The transcript's lines and the status line, per language. English is the command line's
(`companion replay`, `demo`, the logs: unchanged); French is the table's, in the OLED's
words (`fd.*` above) and the rule book's ("pioche" for the bank)."""

RANKS: dict[str, dict[str, str]] = {"en": {}, "fr": {"J": "V", "Q": "D", "K": "R"}}
"""A card's rank as the table writes it, where it is not the deck's letter: Valet, Dame,
Roi in French (the page writes the cards so too)."""
SUIT_SIGNS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def card_text(card: str, lang: str) -> str:
    """A card ("KS") as the table writes it in `lang`: R♠ in French, K♠ in English."""
    rank, suit = card[:-1], card[-1:]
    return RANKS[lang].get(rank, rank) + SUIT_SIGNS.get(suit, suit)


def card_typed(text: str, lang: str) -> str | None:
    """The deck's code ("KS") of a card typed at the console in `lang`: as the table
    writes it (R♠ in French, K♠ in English), or with the deck's letters its tags are
    enrolled by (KS, 10S or TS); None for no card of the deck's shape. A rank of the
    other language (R, D, V at an English table) is none."""
    word = text.strip().upper()
    rank, suit = word[:-1], word[-1:]
    deck = {v: k for k, v in RANKS[lang].items()}
    rank = "10" if rank == "T" else deck.get(rank, rank)
    suit = next((letter for letter, sign in SUIT_SIGNS.items() if sign == suit), suit)
    ranks = {"A", "J", "Q", "K", *map(str, range(2, 11))}
    other = {v for lang_ranks in RANKS.values() for v in lang_ranks.values()} - deck.keys()
    if rank not in ranks or rank in other or suit not in SUIT_SIGNS:
        return None
    return rank + suit


REASONS: dict[str, dict[str, str]] = {
    "en": {
        "extra_tag": "one card too many",
        "missing_tag": "a card is missing",
        "unknown_tag": "that tag is no card of the game",
        "two_tags": "two cards at once",
        "stacked": "no stacking",
        "flipped_twice": "element already flipped",
        "not_element": "not an element",
        "one_flip": "one element a turn",
        "in_play": "card already in play",
        "out_of_turn": "one card at a time",
        "deal_first": "the deal is not over",
        "discard_first": "a card on the pad first",
        "reader_silent": "the reader no longer answers",
        "across_spots": "a card across two spots",
        "off_mat": "something off the game",
        "restore": "not as expected",
        "wait_table": "put it back as it was",
    },
    "fr": {
        "extra_tag": "une carte en trop",
        "missing_tag": "une carte manque",
        "unknown_tag": "ce tag n’est pas une carte du jeu",
        "two_tags": "deux cartes d’un coup",
        "stacked": "pas d’empilement",
        "flipped_twice": "élément déjà retourné",
        "not_element": "pas un élément",
        "one_flip": "un seul élément par tour",
        "in_play": "carte déjà en jeu",
        "out_of_turn": "une carte à la fois",
        "deal_first": "la donne n’est pas finie",
        "discard_first": "d’abord une carte sur le pad",
        "reader_silent": "le lecteur ne répond plus",
        "across_spots": "une carte à cheval sur deux cases",
        "off_mat": "quelque chose hors du jeu",
        "restore": "pas comme attendu",
        "wait_table": "remettez comme avant",
    },
}
"""A stop's reason (an `FdSay` key), short, in each language: the OLED's own fault
sentences (the status line says them)."""


CONSOLE_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "flipdone.console.help": """\
Gestes (cases 1..9 dans l’ordre de lecture, 5 au centre ; le pad est 0 ou
"pad" ; une carte comme la table l’écrit, R♠, 10♥, D♣, ou par les lettres
de son tag, KS, 10H ou TH, QC ; vous jouez chaque place et choisissez
chaque carte) :
  deal CASE CARTE       poser une carte face cachée sur une case  ex. deal 1 7H
  up CARTE              la carte visible au centre                ex. up QS
  up CASE CARTE         ... sur une case (variante du premier joueur)
  build CASE CARTE      poser une carte face visible sur une case ex. build 3 4D
  pad CARTE             poser une carte face cachée sur le pad    ex. pad 9C
  flip CASE             retourner l’élément, le reposer           ex. flip 5
  take CASE [CARTE]     reprendre les cartes (ou une)     ex. take pad 9C
  clear                 ramasser toutes les cartes (fin de phase)
Console :
  noflip (ou discard)   pousser l’encodeur : « pas de retournement » (la carte
                        du pad défaussée)
  back                  annuler la dernière étape
Temps :
  wait SECONDES         laisser passer le temps
Autres : table (ce qui est où, pour vous seul), hands, screen (l’OLED de
nouveau), help, quit""",
        "flipdone.console.no_card": "pas de carte {word} : une carte s’écrit comme la table "
                                    "l’écrit, A♥, 2♥..10♥, V♥, D♥, R♥, ... R♣, ou avec les "
                                    "lettres de ses tags (AH, 10S ou TS, KC)",
        "flipdone.console.no_tag": "{card} n’a pas de tag dans la mise en place de cette partie",
        "flipdone.console.empty_square": "rien sur la case {square}",
        "flipdone.console.empty_table": "la table est déjà vide",
        "flipdone.console.dealt": "une carte face cachée sur la case {square}",
        "flipdone.hands.tokens": "jetons",
        "flipdone.hands.gained": "gagnés",
        "flipdone.hands.manche_wins": "manches gagnées",
    },
    "en": {
        "flipdone.console.help": """\
Physical acts (squares are 1..9 in reading order, 5 the centre; the pad is 0 or
"pad"; a card as the table writes it, K♠, 10♥, Q♣, or by its tag's letters,
KS, 10H or TH, QC; you play every seat, choosing each card):
  deal SQUARE CARD      deal a card face down on a square    e.g.  deal 1 7H
  up CARD               the face-up card on the centre       e.g.  up QS
  up SQUARE CARD        ... on a square (first player chooses variant)
  build SQUARE CARD     lay a card face up on a square       e.g.  build 3 4D
  pad CARD              lay a card face down on the pad      e.g.  pad 9C
  flip SQUARE           turn the element over, put it back       e.g.  flip 5
  take SPOT [CARD]      take the cards (or one) off a spot     e.g.  take pad 9C
  clear                 gather every card (a phase's end)
Console:
  noflip (or discard)   push the encoder: "no flip" (the pad's card discarded)
  back                  undo the last step
Time:
  wait SECONDS          let time pass
Other: table (what lies where, for you only), hands, screen (the OLED again),
help, quit""",
        "flipdone.console.no_card": "no card {word}: a card is written as the table writes "
                                    "it, A♥, 2♥..10♥, J♥, Q♥, K♥, ... K♣, or with its tag's "
                                    "letters (AH, 10S or TS, KC)",
        "flipdone.console.no_tag": "the {card} has no tag in this game's setup",
        "flipdone.console.empty_square": "nothing lies on square {square}",
        "flipdone.console.empty_table": "the table is already empty",
        "flipdone.console.dealt": "a card face down on square {square}",
        "flipdone.hands.tokens": "tokens",
        "flipdone.hands.gained": "gained",
        "flipdone.hands.manche_wins": "rounds won",
    },
}  # fmt: skip
"""The typed table's words (`companion play --sim --game flipdone`), in each language."""

ENROLL_WORDS = {
    "fr": {"flipdone.cli.card": "la carte",
           "flipdone.cli.card_kinds": "card:<rang><couleur> (par exemple card:QH)"},
    "en": {"flipdone.cli.card": "card",
           "flipdone.cli.card_kinds": "card:<rank><suit> (e.g. card:QH)"},
}  # fmt: skip
"""What `companion enroll` calls a card ("tap card QH (7 of 52)"), and its kinds."""
SETUP_WORDS = {
    "fr": {"flipdone.setup.tag": "l’étiquette {uid} est un {kind} : celles de Flip Done sont "
                                 "des cartes, de `card:QH` à `card:10S`"},
    "en": {"flipdone.setup.tag": "tag {uid} is a {kind}: Flip Done's tags are cards, "
                                 "`card:QH` ... `card:10S`"},
}  # fmt: skip
"""What its referee refuses in a setup (the checks every game shares are the core's)."""
OWN_FAULTS = ("stacked", "flipped_twice", "not_element", "one_flip", "in_play", "out_of_turn",
              "deal_first", "discard_first")  # fmt: skip
"""Flip Done's own faults (the shared ones, an extra or missing card, are the core's)."""
ENGINE_WORDS: EngineWords = {
    "step": {"build": "la carte posée", "discard": "la défausse"},
    "fault": {fault: REASONS["fr"][fault] for fault in OWN_FAULTS},
}
"""Its descriptor's `engine_words`: the steps `back` takes back, as a transcript's shared undo
line says them in French, and its own faults by kind (the playtest report's faults)."""
