"""Swiped's words, in French and English: on the OLED (its screens' phrases, under `sw.`
in the shared catalogue `companion/screens/text.py`, and its ready prompt), its
descriptor's `words`, which the registry adds when it loads the game; in a
transcript and the status line (`LINES`: its referee's `describe` and `where`).
"""

from __future__ import annotations

from companion.transcript import EngineWords

SCREEN_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "colour.rouge": "Rouge", "colour.orange": "Orange", "colour.jaune": "Jaune",
        "colour.vert": "Vert", "colour.bleu": "Bleu", "colour.violet": "Violet",
        "colour.rose": "Rose", "colour.blanc": "Blanc", "colour.noir": "Noir",
        "short.rouge": "Rge", "short.orange": "Org", "short.jaune": "Jne", "short.vert": "Vrt",
        "short.bleu": "Blu", "short.violet": "Vio", "short.rose": "Ros", "short.blanc": "Blc",
        "short.noir": "Noi",
        "spot": "case {n}", "spots": "cases {n}", "pad": "le pad", "and": "et",
        "item": "{n} {colour}",
        "where": "M{m} P{p}", "claims": "Annonces",
        "recorded": "Carte de {s} notée.",
        "verdict.matches.true": "{s} : 5 cases ! Vrai.",
        "verdict.matches.false": "{s} : 5 cases ? Faux.",
        "verdict.card.true": "{s} connaît la carte !",
        "verdict.card.false": "{s} : mauvaise carte.",
        "over.won": "{s} gagne !", "over.drawn": "Match nul",
        "over.limit": "{n} manches jouées.",
        "over.card": "{s} : carte {n}",
        "say.layout": "Tirez une carte, face visible, posez-la sur le pad.",
        "say.place": "Placez les gros cubes comme la carte {card}.",
        "say.target": "{s} : pose ta carte secrète sur le pad.",
        "say.program": "Programmez 3 échanges, révélez. {s} commence.",
        "say.swap": "{s} : ton échange.",
        "say.swap_or_skip": "{s} : ton échange. Même paire : pousse.",
        "say.swapping": "{s} échange... ({where})",
        "say.swapping.claim": "{s} échange... Annonce de {c} ensuite.",
        "say.guess": "{s} : tourne jusqu'à ta carte et pousse (ou pose-la).",
        "say.naming": "{s} nomme la carte {card} : pousse.",
        "say.wait_table": "Remettez {where} comme avant.",
        "say.put_back": "Remettez : {items}.",
        "say.same_pair": "Même paire : une seule fois. Remettez : {items}, puis poussez.",
        "say.guess_first": "{s} nomme une carte d'abord. Remettez les cubes.",
        "say.unknown_tag": "{Where} : ce tag n'est pas du jeu. Retirez-le.",
        "say.card_on_square": "{Where} : une carte sur la case. Retirez-la.",
        "say.two_cards": "Deux cartes sur le pad : une seule à la fois.",
        "say.card_taken": "Carte déjà prise. Retirez-la, tirez-en une autre.",
        "say.reader_silent": "{Where} : le lecteur ne répond plus.",
        "say.across_spots": "{Where} : un tag à cheval sur les deux. Posez-le sur une.",
        "say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
    },
    "en": {
        "colour.rouge": "Red", "colour.orange": "Orange", "colour.jaune": "Yellow",
        "colour.vert": "Green", "colour.bleu": "Blue", "colour.violet": "Purple",
        "colour.rose": "Pink", "colour.blanc": "White", "colour.noir": "Black",
        "short.rouge": "Red", "short.orange": "Ora", "short.jaune": "Yel", "short.vert": "Grn",
        "short.bleu": "Blu", "short.violet": "Pur", "short.rose": "Pnk", "short.blanc": "Wht",
        "short.noir": "Blk",
        "spot": "square {n}", "spots": "squares {n}", "pad": "the pad", "and": "and",
        "item": "{n} {colour}",
        "where": "M{m} P{p}", "claims": "Claims",
        "recorded": "{s}'s card recorded.",
        "verdict.matches.true": "{s}: 5 matches! True.",
        "verdict.matches.false": "{s}: 5 matches? False.",
        "verdict.card.true": "{s} knows the card!",
        "verdict.card.false": "{s}: wrong card.",
        "over.won": "{s} wins!", "over.drawn": "A draw",
        "over.limit": "{n} rounds played.",
        "over.card": "{s}: card {n}",
        "say.layout": "Draw a card face up, put it on the pad.",
        "say.place": "Place the big cubes as card {card} shows.",
        "say.target": "{s}: put your secret card on the pad.",
        "say.program": "Program 3 swaps, reveal. {s} starts.",
        "say.swap": "{s}: your swap.",
        "say.swap_or_skip": "{s}: your swap. Same pair: push.",
        "say.swapping": "{s} swapping... ({where})",
        "say.swapping.claim": "{s} swapping... {c}'s claim next.",
        "say.guess": "{s}: turn to the card you name and push, or put it on the pad.",
        "say.naming": "{s} names card {card}: push.",
        "say.wait_table": "Put {where} back as before.",
        "say.put_back": "Put back: {items}.",
        "say.same_pair": "Same pair: applied once. Put back: {items}, then push.",
        "say.guess_first": "{s} names a card first. Put the cubes back.",
        "say.unknown_tag": "{Where}: this tag is not of the game. Take it off.",
        "say.card_on_square": "{Where}: a card on the square. Take it off.",
        "say.two_cards": "Two cards on the pad: one at a time.",
        "say.card_taken": "That card is taken. Take it off, draw another.",
        "say.reader_silent": "{Where}: the reader stopped answering.",
        "say.across_spots": "{Where}: a tag lies across both. Put it on one.",
        "say.off_mat": "Reader {spot}: no square of this game. Take off what lies on it.",
    },
}  # fmt: skip
"""The OLED's words of Swiped's screens, by the keys its screens name them."""

PREFIX = "sw."
"""Where the screens' phrases sit in the shared catalogue."""

SETUP_WORDS = {
    "fr": {"swiped.setup.tag": "l’étiquette {uid} est un {kind} : celles de Swiped sont "
                               "`layout:1` ... `layout:{n}` et `cube:rouge` ... `cube:noir`"},
    "en": {"swiped.setup.tag": "tag {uid} is a {kind}: Swiped's tags are `layout:1` ... "
                               "`layout:{n}` and `cube:rouge` ... `cube:noir`"},
}  # fmt: skip
"""What its referee refuses in a setup (the checks every game shares are the core's)."""

PHRASES: dict[str, dict[str, str]] = {"fr": {}, "en": {}}
"""Swiped's phrases in the shared catalogue, its screens' under `PREFIX` (the menu's in
`facts.py`)."""


# --------------------------------------------------------------------------- transcript

LINES: dict[str, dict[str, str]] = {
    "en": {
        "layout": "card {card} is the face-up card: the cubes go {grid}",
        "target": "{who}'s secret target card is recorded",
        "placed": "the cubes stand as the face-up card shows",
        "manche_start": "round {manche} starts; the swaps go {order}",
        "programmed": "{who} programs swap {count}",
        "programs_revealed": "the programs are revealed: {programs}",
        "swap": "{who} swaps squares {i} and {j} ({a} and {b})",
        "swap_skipped": "{who} skips: {a}-{b} is the pair just swapped (SW-4)",
        "guess": '{who} says "I know your card" and is naming a card',
        "claim.matches": "{who} claims 5 matches: {verdict}",
        "claim.card": "{who} names {other}'s card: {verdict}",
        "verdict.true": "right",
        "verdict.false": "wrong",
        "manche_end": "round {manche} is over",
        "game_drawn": "no winner after {manches} rounds: the game is a draw (SW-6)",
        "targets": "the game is over; the secret target cards were: {cards}",
        "targets.card": "{who} card {card}",
        "fault": "STOP at {where}: {why}",
        "fault.pad": "the pad",
        "fault.square": "square {spot}",
        "fault.table": "the table",
        "fault.put_back": "cubes out of place: put them back as they were",
        "fault.same_pair": (
            "the pair just swapped, swapped again (SW-4): put it back; swap another or skip"
        ),
        "fault.guess_first": "a swap while a card is being named: put the cubes back, tap the card",
        "fault.card_on_square": "a card on a square: take it off",
        "fault.two_cards": "two new cards on the pad at once: one at a time",
        "fault.card_taken": "a card already drawn: take it off",
        "undo": "back: {what}",
        "undo.layout": "the face-up card is taken back",
        "undo.target": "the target card is taken back",
        "undo.swap": "the swap is taken back",
        "undo.skip": "the skip is taken back",
        "undo.guess": "the card being named is taken back",
        "semicolon": "; ",
        "where": "round {manche}, {what}",
        "where.drawn": "game over after {manches} rounds: a draw",
        "where.won": "game over: {name} won",
        "where.stopped": "stopped: {fault}",
        "where.draw": "drawing the cards",
        "where.swap": "{name} to swap",
        "where.between": "between swaps",
    },
    "fr": {
        "layout": "la carte {card} est tirée face visible ; les gros cubes, cases 1 à 9 : {grid}",
        "target": "la carte secrète de {who} est notée",
        "placed": "les gros cubes sont placés comme la carte face visible",
        "manche_start": "la manche {manche} commence ; ordre des échanges : {order}",
        "programmed": "{who} programme l'échange {count}",
        "programs_revealed": "les programmes sont révélés : {programs}",
        "swap": "{who} échange les cases {i} et {j} ({a} et {b})",
        "swap_skipped": "{who} passe : même paire {a}-{b}, appliquée une seule fois (SW-4)",
        "guess": "{who} annonce « je connais ta carte » et nomme une carte",
        "claim.matches": "{who} annonce 5 cases : {verdict}",
        "claim.card": "{who} nomme la carte de {other} : {verdict}",
        "verdict.true": "vrai",
        "verdict.false": "faux",
        "manche_end": "la manche {manche} est finie",
        "game_drawn": "aucun gagnant après {manches} manches : match nul (SW-6)",
        "targets": "la partie est terminée ; les cartes secrètes étaient : {cards}",
        "targets.card": "{who} la carte {card}",
        "fault": "STOP {where} : {why}",
        "fault.pad": "sur le pad",
        "fault.square": "sur la case {spot}",
        "fault.table": "sur la table",
        "fault.put_back": "gros cubes mal placés ; remettez-les comme avant",
        "fault.same_pair": (
            "même paire échangée deux fois (SW-4) ; remettez-la, échangez-en une autre ou poussez"
        ),
        "fault.guess_first": (
            "un échange pendant qu'une carte est nommée ; remettez les cubes, posez la carte"
        ),
        "fault.card_on_square": "une carte sur la case ; retirez-la",
        "fault.two_cards": "deux cartes sur le pad ; une seule à la fois",
        "fault.card_taken": "carte déjà prise ; retirez-la",
        "undo": "retour : {what}",
        "undo.layout": "la carte face visible est annulée",
        "undo.target": "la carte secrète est annulée",
        "undo.swap": "l'échange est annulé",
        "undo.skip": "le passage est annulé",
        "undo.guess": "l'annonce « je connais ta carte » est annulée",
        "semicolon": " ; ",
        "where": "manche {manche}, {what}",
        "where.drawn": "partie terminée après {manches} manches : match nul",
        "where.won": "partie terminée : {name} a gagné",
        "where.stopped": "STOP : {fault}",
        "where.draw": "tirage des cartes",
        "where.swap": "à {name} d'échanger",
        "where.between": "entre deux échanges",
    },
}
"""The transcript's and status line's sentences (`describe`, `SwipedReferee.where`), per
language: English for the command line and the logs, French for the table's web page, in
the words of the OLED (`SCREEN_PHRASES` above: case, gros cubes, échange, carte
secrète, même paire, match nul) and of the rule book. The faults are only those Swiped
alone has (unknown_tag and reader_silent read the same in every game's transcript);
rulings (SW-4) keep their ids, as docs/rulings.md names them."""


for _lang, _table in SCREEN_PHRASES.items():
    PHRASES[_lang].update((PREFIX + key, text) for key, text in _table.items())

CLI_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "swiped.cli.deck": "ses cartes de disposition (SW-1), numérotées comme le moteur "
                           "des règles les numérote",
        "swiped.cli.deck.description": (
            "Disposer les cartes de disposition de Swiped sur des pages A4 au format des "
            "cartes à jouer (63 x 88 mm, 9 par page) avec des traits de coupe, et écrire un "
            "PDF à imprimer à 100 %, ou des PNG à regarder (FICHIER.png est la page 1, "
            "FICHIER-2.png la page 2...) : les cartes numérotées comme le moteur des règles "
            "les numérote, chacune avec le nom de la couleur sur chaque case et un cercle où "
            "va son autocollant NFC. Comment l’imprimer et la découper : docs/games.md ; la "
            "règle du jeu de cartes (SW-1) : docs/rulings.md."),
        "swiped.cli.size": "nombre de cartes, de {low} à {high} (24 par défaut, comme livré)",
        "swiped.cli.seed": "graine du jeu de cartes (0 par défaut, comme livré)",
        "swiped.cli.suffix": "--out {out} : donnez un .pdf (à imprimer) ou un .png (à regarder)",
        "swiped.cli.written": "{cards} cartes sur {pages}{also}",
        "swiped.cli.page": "{n} page",
        "swiped.cli.pages": "{n} pages",
        "swiped.cli.also": " (pages 2 et suivantes : {files})",
        "swiped.console.help": """\
Gestes (cases 1..9 dans l’ordre de lecture ; le pad est 0 ou « pad » ; une
carte par son numéro, par exemple 7, un gros cube par sa couleur ; vous jouez
les deux places et choisissez chaque carte ; les couleurs :
{colours}) :
  tap CARTE             poser une carte sur le pad, puis la reprendre  ex. tap 7
                        (la carte visible, la carte secrète d’une place, une
                        carte nommée)
  put CASE TAG          poser une carte ou un cube sur une case (déplacé)
                                                                ex. put 5 rouge
  take CASE [TAG]       reprendre un tag (ou tous) d’une case     ex. take pad 7
  place                 mettre chaque cube où le montre la carte visible
  swap A B              échanger les cubes des cases A et B       ex. swap 2 7
Console (places : 1, 2 ou le nom des joueurs) :
  doublon PLACE         le bouton Doublon de la place : « 5 cases »
                                                              ex. doublon Ana
  menteur PLACE [CARTE] son bouton Menteur : « je connais ta carte », puis la
                        carte nommée (ici, ou avec name CARTE ou tap CARTE)
                                                           ex. menteur Bob 12
  name CARTE            tourner l’encodeur jusqu’à une carte et pousser
  skip                  pousser l’encodeur : « même paire, on passe » (SW-4)
  back                  annuler la dernière étape
Temps :
  wait SECONDES         laisser passer le temps
Autres : table (ce qui est où, pour vous seul), hands, screen (l’OLED de
nouveau), help, quit""",
        "swiped.console.card": "carte {n}",
        "swiped.console.no_tag": "pas de tag {word} : le numéro d’une carte, ou une couleur : "
                                 "{colours}",
        "swiped.console.small_deck": "la carte {n} n’a pas de tag dans cette partie (son jeu "
                                     "de cartes est plus petit)",
        "swiped.console.cube": "{word} est un cube : tapez le numéro d’une carte",
        "swiped.console.cubes": "la case {square} a {n} cubes, pas un seul",
        "swiped.console.no_layout": "pas encore de carte visible : tapez-la d’abord (tap "
                                    "CARTE)",
        "swiped.console.same": "échangez deux cases différentes",
        "swiped.hands.programmed": "échanges programmés",
    },
    "en": {
        "swiped.cli.deck": "its layout cards (SW-1), numbered as the rules engine numbers them",
        "swiped.cli.deck.description": (
            "Lay out Swiped's layout cards on A4 pages at playing-card size (63 x 88 mm, 9 "
            "per page) with cut marks, and write a PDF to print at 100 %, or PNGs to look at "
            "(FILE.png is page 1, FILE-2.png page 2...): the cards numbered as the rules "
            "engine numbers them, each with the colour's name on every square and a circle "
            "where its NFC sticker goes. How to print and cut it: docs/games.md; the deck's "
            "ruling (SW-1): docs/rulings.md."),
        "swiped.cli.size": "number of cards, {low} to {high} (default 24, as shipped)",
        "swiped.cli.seed": "seed of the deck (default 0, as shipped)",
        "swiped.cli.suffix": "--out {out}: give a .pdf (to print) or a .png (to look at)",
        "swiped.cli.written": "{cards} cards on {pages}{also}",
        "swiped.cli.page": "{n} page",
        "swiped.cli.pages": "{n} pages",
        "swiped.cli.also": " (pages 2 on: {files})",
        "swiped.console.help": """\
Physical acts (squares are 1..9 in reading order; the pad is 0 or "pad"; a card
by its number, e.g. 7, a big cube by its colour; you play both seats, choosing
each card yourself; the colours:
{colours}):
  tap CARD              lay a card on the pad, then take it back    e.g. tap 7
                        (the face-up card, a seat's secret card, a named card)
  put SPOT TAG          lay a card or a cube on a spot (moved from where it was)
                                                                e.g. put 5 red
  take SPOT [TAG]       take a tag (or every tag) off a spot     e.g. take pad 7
  place                 put every cube where the face-up card shows it
  swap A B              exchange the cubes of squares A and B      e.g. swap 2 7
Console (seats are 1, 2 or the players' names):
  doublon SEAT          the seat's Doublon button: "5 matches"  e.g. doublon Ana
  menteur SEAT [CARD]   its Menteur button: "I know your card", then the card
                        named (here, or with name CARD or tap CARD)
                                                             e.g. menteur Bob 12
  name CARD             turn the encoder to a card and push: the card named
  skip                  push the encoder: "same pair, skip" (SW-4)
  back                  undo the last step
Time:
  wait SECONDS          let time pass
Other: table (what lies where, for you only), hands, screen (the OLED again),
help, quit""",
        "swiped.console.card": "card {n}",
        "swiped.console.no_tag": "no tag {word}: a card's number, or a colour: {colours}",
        "swiped.console.small_deck": "card {n} has no tag in this game's setup (its deck is "
                                     "smaller)",
        "swiped.console.cube": "{word} is a cube: tap a card's number",
        "swiped.console.cubes": "square {square} holds {n} cubes, not one",
        "swiped.console.no_layout": "no face-up card yet: tap it first (tap CARD)",
        "swiped.console.same": "swap two different squares",
        "swiped.hands.programmed": "programmed swaps",
    },
}  # fmt: skip
"""The command line's words (`companion deck swiped`, the typed table of `play --sim`)."""

ENROLL_WORDS = {
    "fr": {"swiped.cli.card": "la carte", "swiped.cli.cube": "le cube",
           "swiped.cli.layout_kinds": "layout:<numéro>"},
    "en": {"swiped.cli.card": "card", "swiped.cli.cube": "cube",
           "swiped.cli.layout_kinds": "layout:<number>"},
}  # fmt: skip
"""What `companion enroll` calls a layout card ("tap card 3 (3 of 24)") and a cube, and the
layout cards' kinds."""

OWN_FAULTS = ("put_back", "same_pair", "guess_first", "card_on_square", "two_cards", "card_taken")
"""Swiped's own faults (the shared ones, an extra or missing tag, are the core's)."""
ENGINE_WORDS: EngineWords = {"fault": {f: LINES["fr"][f"fault.{f}"] for f in OWN_FAULTS}}
"""Its descriptor's `engine_words`: its own faults by kind, as the playtest report says
them in French."""
