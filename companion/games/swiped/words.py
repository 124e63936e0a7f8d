"""The OLED's words of Swiped, in French and English, registered in the shared
catalogue (`companion/screens/text.py`) when this module is imported (the game's descriptor
and screens import it): its screens' phrases, under `sw.` there, and the shared screens'
sentences that are its own (its ready prompt).
"""

from __future__ import annotations

from companion.screens.text import register_words

SCREEN_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "colour.rouge": "Rouge", "colour.orange": "Orange", "colour.jaune": "Jaune",
        "colour.vert": "Vert", "colour.bleu": "Bleu", "colour.violet": "Violet",
        "colour.rose": "Rose", "colour.blanc": "Blanc", "colour.noir": "Noir",
        "short.rouge": "Rou", "short.orange": "Ora", "short.jaune": "Jau", "short.vert": "Ver",
        "short.bleu": "Ble", "short.violet": "Vio", "short.rose": "Ros", "short.blanc": "Bla",
        "short.noir": "Noi",
        "spot": "case {n}", "spots": "cases {n}", "pad": "le pad", "item": "{n} {colour}",
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
        "say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
    },
    "en": {
        "colour.rouge": "Red", "colour.orange": "Orange", "colour.jaune": "Yellow",
        "colour.vert": "Green", "colour.bleu": "Blue", "colour.violet": "Purple",
        "colour.rose": "Pink", "colour.blanc": "White", "colour.noir": "Black",
        "short.rouge": "Red", "short.orange": "Ora", "short.jaune": "Yel", "short.vert": "Grn",
        "short.bleu": "Blu", "short.violet": "Pur", "short.rose": "Pnk", "short.blanc": "Wht",
        "short.noir": "Blk",
        "spot": "square {n}", "spots": "squares {n}", "pad": "the pad", "item": "{n} {colour}",
        "where": "M{m} P{p}", "claims": "Claims",
        "recorded": "{s}'s card recorded.",
        "verdict.matches.true": "{s}: 5 matches! True.",
        "verdict.matches.false": "{s}: 5 matches? False.",
        "verdict.card.true": "{s} knows the card!",
        "verdict.card.false": "{s}: wrong card.",
        "over.won": "{s} wins!", "over.drawn": "A draw",
        "over.limit": "{n} manches played.",
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
        "say.off_mat": "Reader {spot}: no square of this game. Take off what lies on it.",
    },
}  # fmt: skip
"""The OLED's words of Swiped's screens, by the keys its screens name them."""

PREFIX = "sw."
"""Where the screens' phrases sit in the shared catalogue."""

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "menu.title.ready.mat": "Cartes et cubes hors du tapis, pad vide.",
    },
    "en": {
        "menu.title.ready.mat": "Cards and cubes off the mat, the pad empty.",
    },
}
"""Swiped's phrases in the shared catalogue, its screens' under `PREFIX`."""

for _lang, _table in SCREEN_PHRASES.items():
    PHRASES[_lang].update((PREFIX + key, text) for key, text in _table.items())

register_words("swiped", PHRASES)
