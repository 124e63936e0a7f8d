"""Every word the console shows, in French (the default, the rule books' language) and
English.

Screens never hold sentences: they hold a `Prompt` (a `Say` key and its parameters) and
public engine facts, and this catalogue turns them into text for one language. Seat
numbers in parameters are 0-based seats; the text shows the seat's name. Everything here
is checked by the tests against the bitmap font, so a sentence can always be drawn.

French typography keeps its space before ":", ";", "!" and "?"; the font's `wrap` never
breaks a line there.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from companion.games.passpass.prompt import Param, Prompt, Say
from companion.games.passpass.rules import Challenge, PublicView, Verdict
from companion.screens.font import sanitize
from companion.screens.model import Notice

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


def check_lang(lang: str) -> str:
    """`lang` itself if the catalogue speaks it, else a ValueError naming the ones it does."""
    if lang not in LANGUAGES:
        supported = ", ".join(f'"{code}"' for code in LANGUAGES)
        raise ValueError(f"unknown language {lang!r}; supported languages: {supported}")
    return lang


# ------------------------------------------------------------------- tokens and labels

_TOKENS: dict[str, dict[str, str]] = {
    "fr": {
        "colombe": "Colombe",
        "lapin": "Lapin",
        "souris": "Souris",
        "bleu": "Bleu",
        "vert": "Vert",
        "orange": "Orange",
    },
    "en": {
        "colombe": "Dove",
        "lapin": "Rabbit",
        "souris": "Mouse",
        "bleu": "Blue",
        "vert": "Green",
        "orange": "Orange",
    },
}


def token_name(kind: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The shown name of a token kind: "lapin" -> "Lapin" (fr) or "Rabbit" (en)."""
    names = _TOKENS[check_lang(lang)]
    if kind not in names:
        raise ValueError(f"unknown token kind {kind!r}; known: {', '.join(names)}")
    return names[kind]


def token_list(kinds: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Token names joined by commas, in the order given: "Lapin, Souris"."""
    return ", ".join(token_name(k, lang) for k in kinds)


class Label(StrEnum):
    MANCHE = "manche"
    MASQUE = "masque"
    VISIBLE = "visible"
    MAGICIAN = "magician"
    CHALLENGE_TOKENS = "challenge_tokens"
    VICTORY_TOKENS = "victory_tokens"
    HAT = "hat"
    PAD = "pad"


_LABELS: dict[str, dict[Label, str]] = {
    "fr": {
        Label.MANCHE: "Manche",
        Label.MASQUE: "Masqué",
        Label.VISIBLE: "Visible",
        Label.MAGICIAN: "Magicien",
        Label.CHALLENGE_TOKENS: "Jetons Challenge",
        Label.VICTORY_TOKENS: "Jetons de victoire",
        Label.HAT: "Chapeau",
        Label.PAD: "Pad",
    },
    "en": {
        Label.MANCHE: "Round",
        Label.MASQUE: "Masked",
        Label.VISIBLE: "Visible",
        Label.MAGICIAN: "Magician",
        Label.CHALLENGE_TOKENS: "Challenge tokens",
        Label.VICTORY_TOKENS: "Victory tokens",
        Label.HAT: "Hat",
        Label.PAD: "Pad",
    },
}


def label(key: Label, lang: str = DEFAULT_LANGUAGE) -> str:
    return _LABELS[check_lang(lang)][key]


def place(spot: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """Where a reader sits: "Chapeau 5" for spots 1..N, "Pad" for spot 0."""
    if spot == 0:
        return label(Label.PAD, lang)
    return f"{label(Label.HAT, lang)} {spot}"


# ------------------------------------------------------------------------------ phrases

# Template fields: {m} the Magicien, {s} a seat, {to}/{f} other seats, {spot}/{a}/{b}
# hat numbers, {Spot} a place at the start of a sentence, and the game's words for its
# tokens ({a_token}, {token}, {tokens}, {this_token}).
_PHRASES: dict[str, dict[str, str]] = {
    "fr": {
        "say.place": "{m}, glisse {a_token} dans un chapeau.",
        "say.announce": "{m}, annonce ton {token} et appuie sur son bouton.",
        "say.window.both": "{m} a joué. Doublon ? Menteur ?",
        "say.window.doublon": "{m} a joué. Doublon ?",
        "say.window.menteur": "{m} a annoncé. Menteur ?",
        "say.take_back_hat": "{m}, reprends tout le chapeau {spot}.",
        "say.give_token": "{m}, ton {token} du chapeau {spot} va à {to}.",
        "say.give_token.tokens": (
            "{m}, ton {token} du chapeau {spot} va à {to}, qui te donne un jeton Challenge."
        ),
        "say.place_announced": "{m} a annoncé {announced}. Glisse ton {token} dans un chapeau.",
        "say.keep_token": "{m}, reprends ton {token} du chapeau {spot}.",
        "say.reward": "{s}, glisse un de tes {tokens}, montré, dans un chapeau.",
        "say.reward.token": (
            "{s} : {a_token} montré dans un chapeau, ou Doublon : un jeton Challenge."
        ),
        "say.take_challenge_token": "{s}, prends un jeton Challenge à {f}.",
        "say.reveal": "{m}, choisis une ligne. Avant, tu peux échanger deux chapeaux voisins.",
        "say.hats_back": "Raté ! {m}, repose les trois chapeaux tels quels.",
        "say.clear_table": (
            "Reprenez tous vos {tokens}. La manche suivante commence quand tous les "
            "chapeaux sont vides."
        ),
        "say.void": (
            "Manche nulle : plus personne ne peut gagner. Reprenez vos {tokens} ; on "
            "redistribue quand tous les chapeaux sont vides."
        ),
        "say.wait_table": "{Spots} : remettez comme attendu.",
        "say.extra_tag": "{Spot} : {a_token} en trop. Retire-le.",
        "say.missing_tag": "{Spot} : {a_token} a disparu. Remets-le.",
        "say.unknown_tag": "{Spot} : jeton inconnu. Retire-le.",
        "say.two_tags": "{Spot} : deux {tokens} à la fois. Retires-en un.",
        "say.not_yours": "{Spot} : {s} n’a pas {this_token}. Retire-le.",
        "say.not_contiguous": "Les chapeaux {a} et {b} ne sont pas voisins. Remets-les.",
        "say.one_swap": "Chapeaux {a} et {b} : un seul échange par tour. Remets-les.",
        "say.designated_gone": (
            "{Spot} : remets ton {token}, ou appuie sur Retour pour refaire le placement."
        ),
        "say.reader_silent": "{Spot} : lecteur muet. Vérifiez son câble.",
        "say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
        "say.restore": "{Spots} : remettez comme avant.",
        "notice.title": "{s} : {control}",
        "notice.not_now": "Ce bouton ne sert à rien maintenant.",
        "notice.table_first": "D’abord, remettez la table comme attendu.",
        "notice.visible_turn": "Tour Visible : l’animal est montré, pas d’annonce ni de Menteur.",
        "notice.no_token": "Plus de jeton Challenge : on ne peut que dire OK.",
        "notice.magician": "Le Magicien ne défie pas son propre placement.",
        "notice.no_announcement": "Pas encore d’annonce : Menteur attend l’annonce.",
        "notice.wrong_window": "Pas dans cette fenêtre : Doublon avant l’annonce, Menteur après.",
        "notice.not_seated": "Personne n’est assis à cette place.",
        "notice.already_called": "Déjà appelé pour ce tour.",
        "notice.not_a_line": "Ce n’est pas une ligne de trois chapeaux.",
        "notice.nothing_to_undo": "Rien à annuler.",
        "notice.public_fact": "Impossible : ce que la table a vu reste vu.",
        # Vous ne passerez pas ! (companion/games/vnp/screens.py)
        "notice.not_your_turn": "Ce n’est pas ton tour.",
        "notice.not_your_colour": "Tu ne joues pas cette couleur.",
        "notice.may_not_pass": "Pas de passe : une pièce peut encore être posée.",
        "notice.illegal_placement": "La règle interdit ce placement.",
        "notice.bad_value": "Action illisible : rien n’est joué.",
        "notice.repeated": "Déjà joué : ce placement compte une fois.",
        "notice.undo_off": "L’annulation est désactivée à cette table.",
        "notice.not_your_step": "Retour n’annule que ton propre coup.",
        "control.announce": "Annonce",
        "control.doublon": "Doublon",
        "control.menteur": "Menteur",
        "control.choose": "Choix",
        "control.aim": "Choix",
        "control.back": "Retour",
        "control.place": "Pose",
        "control.pass": "Passe",
        "control.hint": "Indice",
        "notice.console": "Console",
        "reveal.missed": "Raté !",
        "reveal.hat": "{spot} : {tokens}",
        "reveal.empty": "vide",
        "reveal.back": "{m}, repose-les tels quels.",
        "seat": "Joueur {n}",
        "countdown.hat": "Chapeau {spot}",
        "countdown.announced": "« {token} »",
        "countdown.seconds": "{n} s",
        "countdown.magician": "Magicien : {m}",
        "challenge.doublon": "Doublon ?",
        "challenge.menteur": "Menteur ?",
        "verdict.doublon": "Doublon !",
        "verdict.menteur": "Menteur !",
        "verdict.right": "{s} a raison !",
        "verdict.wrong": "{s} a tort !",
        "verdict.hat_held": "Le chapeau {spot} contenait : {tokens}.",
        "verdict.hat_empty": "Le chapeau {spot} était vide.",
        "verdict.shown": "{m} montre : {token}.",
        "reveal.choose": "Quelle ligne ?",
        "reveal.line": "Ligne {a}-{b}-{c} ?",
        "manche.won_by": "Manche gagnée par",
        "manche.hats": "Chapeaux {a}, {b}, {c} :",
        "manche.victories": "Victoires : {n} sur {of}",
        "game.won_by": "Partie gagnée par",
        "game.victories": "{n} jetons de victoire",
        "game.bravo": "Bravo !",
        "fault.stop": "STOP",
        "menu.title.resume": "Une partie n’est pas finie.",
        "menu.option.resume": "Reprendre la partie",
        "menu.option.new": "Nouvelle partie",
        "menu.title.game": "Quel jeu ?",
        "menu.game.ptipasspass": "PtiPassPass",
        "menu.game.phipasspass": "PhiPassPass",
        "menu.title.seats": "Combien de joueurs ?",
        "menu.players": "{n} joueurs",
        "menu.title.first": "Qui joue en premier ?",
        "menu.title.first.magic": "Qui a fait un tour de magie en dernier ?",
        "menu.title.ready": "Chaque jeton devant son propriétaire, chapeaux vides.",
        "menu.title.ready.cards": "Cartes hors du tapis, pad vide.",
        "menu.title.ready.mat": "Cartes et cubes hors du tapis, pad vide.",
        "menu.title.ready.page": "Pad vide : la partie se joue sur les téléphones.",
        "menu.waiting": "Pas encore vides : {places}",
        "menu.push": "Appuie pour jouer.",
        "menu.seat": "Siège {n}",
        # A damaged journal at start (companion/screens/journal_damage.py)
        "damage.title": "Journal abîmé",
        "damage.resumed": "Ligne {line} illisible, mise de côté. Partie reprise à l’entrée {n}.",
        "damage.new_game": "Ligne {line} illisible, mise de côté. Aucune partie à reprendre.",
        # Flip Done (companion/games/flipdone/screens.py)
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
        "say.place": "{m}, drop {a_token} into a hat.",
        "say.announce": "{m}, announce your {token} and press its button.",
        "say.window.both": "{m} has played. Doublon? Menteur?",
        "say.window.doublon": "{m} has played. Doublon?",
        "say.window.menteur": "{m} has announced. Menteur?",
        "say.take_back_hat": "{m}, take back all of hat {spot}.",
        "say.give_token": "{m}, take your {token} from hat {spot} to {to}.",
        "say.give_token.tokens": (
            "{m}, take your {token} from hat {spot} to {to}, who gives you a Challenge token."
        ),
        "say.place_announced": "{m} announced {announced}. Drop your {token} into a hat.",
        "say.keep_token": "{m}, take your {token} back from hat {spot}.",
        "say.reward": "{s}, drop one of your {tokens}, shown, into a hat.",
        "say.reward.token": "{s}: {a_token}, shown, into a hat, or Doublon for a Challenge token.",
        "say.take_challenge_token": "{s}, take a Challenge token from {f}.",
        "say.reveal": "{m}, choose a line. You may first swap two neighbouring hats.",
        "say.hats_back": "Missed! {m}, put the three hats back as they were.",
        "say.clear_table": (
            "Everyone takes their {tokens} back. The next round starts when every hat is empty."
        ),
        "say.void": (
            "Void round: nobody can win any more. Take your {tokens} back; they are dealt "
            "again when every hat is empty."
        ),
        "say.wait_table": "{Spots}: put back as expected.",
        "say.extra_tag": "{Spot}: one {token} too many. Take it out.",
        "say.missing_tag": "{Spot}: {a_token} disappeared. Put it back.",
        "say.unknown_tag": "{Spot}: unknown tag. Take it out.",
        "say.two_tags": "{Spot}: two {tokens} at once. Take one out.",
        "say.not_yours": "{Spot}: {s} holds no such {token}. Take it out.",
        "say.not_contiguous": "Hats {a} and {b} are not neighbours. Put them back.",
        "say.one_swap": "Hats {a} and {b}: only one swap per turn. Put them back.",
        "say.designated_gone": (
            "{Spot}: put your {token} back, or press back to redo the placement."
        ),
        "say.reader_silent": "{Spot}: reader silent. Check its cable.",
        "say.off_mat": "Reader {spot}: no spot of this game. Take off what lies on it.",
        "say.restore": "{Spots}: put back as before.",
        "notice.title": "{s}: {control}",
        "notice.not_now": "That button does nothing now.",
        "notice.table_first": "First put the table back as expected.",
        "notice.visible_turn": "Visible turn: the animal is shown, no announcement, no Menteur.",
        "notice.no_token": "No Challenge token left: you can only say OK.",
        "notice.magician": "The Magician cannot challenge their own placement.",
        "notice.no_announcement": "Nothing announced yet: Menteur waits for the announcement.",
        "notice.wrong_window": (
            "Not in this window: Doublon before the announcement, Menteur after."
        ),
        "notice.not_seated": "Nobody sits at that seat.",
        "notice.already_called": "Already called this turn.",
        "notice.not_a_line": "That is not a line of three hats.",
        "notice.nothing_to_undo": "Nothing to undo.",
        "notice.public_fact": "Cannot undo: what the table has seen stays seen.",
        # Vous ne passerez pas ! (companion/games/vnp/screens.py)
        "notice.not_your_turn": "Not your turn.",
        "notice.not_your_colour": "You do not play that colour.",
        "notice.may_not_pass": "No pass: a piece can still be placed.",
        "notice.illegal_placement": "The rules forbid that placement.",
        "notice.bad_value": "Unreadable action: nothing is played.",
        "notice.repeated": "Already played: that placement counts once.",
        "notice.undo_off": "Undo is turned off at this table.",
        "notice.not_your_step": "Back only takes back your own move.",
        "control.announce": "Announce",
        "control.doublon": "Doublon",
        "control.menteur": "Menteur",
        "control.choose": "Choose",
        "control.aim": "Choose",
        "control.back": "Back",
        "control.place": "Place",
        "control.pass": "Pass",
        "control.hint": "Hint",
        "notice.console": "Console",
        "reveal.missed": "Missed!",
        "reveal.hat": "{spot}: {tokens}",
        "reveal.empty": "empty",
        "reveal.back": "{m}, put them back as they were.",
        "seat": "Seat {n}",
        "countdown.hat": "Hat {spot}",
        "countdown.announced": '"{token}"',
        "countdown.seconds": "{n} s",
        "countdown.magician": "Magician: {m}",
        "challenge.doublon": "Doublon?",
        "challenge.menteur": "Menteur?",
        "verdict.doublon": "Doublon!",
        "verdict.menteur": "Menteur!",
        "verdict.right": "{s} is right!",
        "verdict.wrong": "{s} is wrong!",
        "verdict.hat_held": "Hat {spot} held: {tokens}.",
        "verdict.hat_empty": "Hat {spot} was empty.",
        "verdict.shown": "{m} shows: {token}.",
        "reveal.choose": "Which line?",
        "reveal.line": "Line {a}-{b}-{c}?",
        "manche.won_by": "Round won by",
        "manche.hats": "Hats {a}, {b}, {c}:",
        "manche.victories": "Victories: {n} of {of}",
        "game.won_by": "Game won by",
        "game.victories": "{n} victory tokens",
        "game.bravo": "Well done!",
        "fault.stop": "STOP",
        "menu.title.resume": "A game is unfinished.",
        "menu.option.resume": "Resume the game",
        "menu.option.new": "New game",
        "menu.title.game": "Which game?",
        "menu.game.ptipasspass": "PtiPassPass",
        "menu.game.phipasspass": "PhiPassPass",
        "menu.title.seats": "How many players?",
        "menu.players": "{n} players",
        "menu.title.first": "Who plays first?",
        "menu.title.first.magic": "Who did a magic trick most recently?",
        "menu.title.ready": "Put every token in front of its owner, hats empty.",
        "menu.title.ready.cards": "Cards off the mat, the pad empty.",
        "menu.title.ready.mat": "Cards and cubes off the mat, the pad empty.",
        "menu.title.ready.page": "Pad empty: the game is played on the phones.",
        "menu.waiting": "Not empty yet: {places}",
        "menu.push": "Push to play.",
        "menu.seat": "Seat {n}",
        # A damaged journal at start (companion/screens/journal_damage.py)
        "damage.title": "Journal damaged",
        "damage.resumed": "Line {line} unreadable, set aside. Game resumed from input {n}.",
        "damage.new_game": "Line {line} unreadable, set aside. No game to resume.",
        # Flip Done (companion/games/flipdone/screens.py)
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

# How each game names its tokens inside a sentence.
_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "fr": {
        "ptipasspass": {
            "a_token": "un animal",
            "token": "animal",
            "tokens": "animaux",
            "this_token": "cet animal",
        },
        "phipasspass": {
            "a_token": "un jeton",
            "token": "jeton",
            "tokens": "jetons",
            "this_token": "ce jeton",
        },
    },
    "en": {
        "ptipasspass": {
            "a_token": "an animal",
            "token": "animal",
            "tokens": "animals",
            "this_token": "that animal",
        },
        "phipasspass": {
            "a_token": "a token",
            "token": "token",
            "tokens": "tokens",
            "this_token": "that token",
        },
    },
}


def phrase(key: str, lang: str = DEFAULT_LANGUAGE, **fields: object) -> str:
    """One catalogue entry, filled in. An unknown key is a KeyError (a programming error)."""
    return _PHRASES[check_lang(lang)][key].format(**fields)


def phrase_keys(lang: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    return tuple(_PHRASES[check_lang(lang)])


def words(game: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The game's words for its tokens ("animal" in PtiPassPass, "jeton" in PhiPassPass)."""
    by_game = _WORDS[check_lang(lang)]
    return dict(by_game.get(game, by_game["ptipasspass"]))


def seat_name(names: Sequence[str], seat: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The configured name of a 0-based seat, mapped onto the font; "Joueur 3" if none."""
    if 0 <= seat < len(names):
        name = sanitize(names[seat])
        if name:
            return name
    return phrase("seat", lang, n=seat + 1)


# ------------------------------------------------------------------------------ prompts


def _param(prompt: Prompt, name: str) -> Param:
    params = dict(prompt.params)
    if name not in params:
        given = ", ".join(params) or "none"
        raise ValueError(f"prompt {prompt.say} needs parameter {name!r} (given: {given})")
    return params[name]


def _int(prompt: Prompt, name: str) -> int:
    value = _param(prompt, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"prompt {prompt.say}: parameter {name!r} must be an int, not {value!r}")
    return value


def _ints(prompt: Prompt, name: str) -> tuple[int, ...]:
    value = _param(prompt, name)
    if not isinstance(value, tuple) or not all(isinstance(v, int) for v in value):
        raise ValueError(f"prompt {prompt.say}: parameter {name!r} must be ints, not {value!r}")
    return tuple(int(v) for v in value)


def places(spots: Sequence[int], lang: str = DEFAULT_LANGUAGE) -> str:
    """Several hats in one phrase: "Chapeau 2", "Chapeaux 2 et 6", "Hats 2, 5 and 6"."""
    if len(spots) == 1:
        return place(spots[0], lang)
    numbers = [str(s) for s in spots]
    joined = f"{', '.join(numbers[:-1])} {'et' if lang == 'fr' else 'and'} {numbers[-1]}"
    return f"{'Chapeaux' if lang == 'fr' else 'Hats'} {joined}"


def _flag(prompt: Prompt, name: str) -> bool:
    value = _param(prompt, name)
    if not isinstance(value, bool):
        raise ValueError(f"prompt {prompt.say}: parameter {name!r} must be a bool, not {value!r}")
    return value


# Which seat parameter each template field names.
_SEAT_FIELDS = {"m": "seat", "s": "seat", "to": "to", "f": "from"}


def say(
    prompt: Prompt,
    names: Sequence[str],
    lang: str = DEFAULT_LANGUAGE,
    *,
    view: PublicView | None = None,
) -> str:
    """The sentence for a prompt. `view` (optional) names the game, for its token words,
    and the open challenges of a WINDOW prompt (both when unknown)."""
    check_lang(lang)
    key = f"say.{prompt.say}"
    if prompt.say is Say.WINDOW:
        open_ = view.open_challenges if view is not None else ()
        if set(open_) == {Challenge.DOUBLON}:
            key += ".doublon"
        elif set(open_) == {Challenge.MENTEUR}:
            key += ".menteur"
        else:
            key += ".both"
    elif prompt.say is Say.GIVE_TOKEN and _flag(prompt, "tokens"):
        key += ".tokens"
    elif prompt.say is Say.REWARD and _flag(prompt, "token"):
        key += ".token"
    template = _PHRASES[lang][key]
    fields: dict[str, object] = {**words(view.game if view is not None else "", lang)}
    for field_name, param in _SEAT_FIELDS.items():
        if "{" + field_name + "}" in template:
            fields[field_name] = seat_name(names, _int(prompt, param), lang)
    for param in ("spot", "a", "b"):
        if "{" + param + "}" in template:
            fields[param] = _int(prompt, param)
    if "{Spot}" in template:
        fields["Spot"] = place(_int(prompt, "spot"), lang)
    if "{Spots}" in template:
        fields["Spots"] = places(_ints(prompt, "spots"), lang)
    if "{announced}" in template:
        fields["announced"] = token_name(str(_param(prompt, "token")), lang)
    return template.format(**fields)


def notice_title(
    notice: Notice, names: Sequence[str], lang: str = DEFAULT_LANGUAGE, *, name: str | None = None
) -> str:
    """Whose press and which button: "Bob : Menteur" (the console's own buttons have no
    seat: "Console : Annonce"). `name`, if given, stands for the seat's name."""
    if name is None:
        seat = notice.seat
        name = phrase("notice.console", lang) if seat is None else seat_name(names, seat, lang)
    try:
        control = phrase(f"control.{notice.control}", lang)
    except KeyError:  # a control this game does not use
        control = sanitize(notice.control.capitalize()) or "?"
    return phrase("notice.title", lang, s=name, control=control)


def notice_reason(notice: Notice, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the press could not count, in one sentence."""
    return phrase(f"notice.{notice.reason}", lang)


# ----------------------------------------------------------------------------- verdicts


def verdict_title(verdict: Verdict, lang: str = DEFAULT_LANGUAGE) -> str:
    """The call that was made: "Doublon !" or "Menteur !"."""
    return phrase(f"verdict.{verdict.challenge}", lang)


def verdict_outcome(
    verdict: Verdict,
    names: Sequence[str],
    lang: str = DEFAULT_LANGUAGE,
    *,
    name: str | None = None,
) -> str:
    """Whether the Challenger was right: "Bob a raison !". `name`, if given, stands for
    the Challenger's name (a shortened one, so the line fits)."""
    key = "verdict.right" if verdict.success else "verdict.wrong"
    return phrase(key, lang, s=seat_name(names, verdict.seat, lang) if name is None else name)


def verdict_facts(verdict: Verdict, names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Exactly what the book makes public (PTI-8/9, PHI-3/4): a Doublon lifts the hat, a
    Menteur shows the Magicien's token. Nothing else of the table is told."""
    if verdict.challenge is Challenge.DOUBLON:
        if verdict.hat:
            return phrase(
                "verdict.hat_held", lang, spot=verdict.spot, tokens=token_list(verdict.hat, lang)
            )
        return phrase("verdict.hat_empty", lang, spot=verdict.spot)
    if verdict.shown is None:
        return ""
    return phrase(
        "verdict.shown",
        lang,
        m=seat_name(names, verdict.magician, lang),
        token=token_name(verdict.shown, lang),
    )


def verdict_sentence(verdict: Verdict, names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """Who was right, then the public facts: "Bob a raison ! Le chapeau 5 contenait :
    Lapin, Souris." (the verdict screen wraps it under the call)."""
    return f"{verdict_outcome(verdict, names, lang)} {verdict_facts(verdict, names, lang)}".strip()
