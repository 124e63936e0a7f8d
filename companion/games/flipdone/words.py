"""Flip Done's words on the OLED, in French and English (the `fd.*` keys and its ready
prompt), registered in the shared catalogue (`companion/screens/text.py`) when this module
is imported (the game's descriptor and screens import it), and the French of its undone
steps in the shared transcript.
"""

from __future__ import annotations

from companion.screens.text import register_words
from companion.transcript import register_engine_words

PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "fd.manche": "Manche",
        "menu.title.ready.cards": "Cartes hors du tapis, pad vide.",
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
        "fd.say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
        "fd.say.restore": "{Spots} : pas comme attendu. Remettez-les comme avant.",
    },
    "en": {
        "fd.manche": "Round",
        "menu.title.ready.cards": "Cards off the mat, the pad empty.",
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
        "fd.say.off_mat": "Reader {spot}: no square of this game. Take off what lies on it.",
        "fd.say.restore": "{Spots}: not as expected. Put them back as before.",
    },
}
"""Flip Done's phrases in the shared catalogue."""

register_words("flipdone", PHRASES)
register_engine_words("step", {"build": "la carte posée", "discard": "la défausse"})
# The steps `back` takes back, as a transcript's shared undo line says them in French.
