"""PtiPassPass's and PhiPassPass's words on the OLED, in French and English: their
sentences and prompts, their tokens' and labels' names, which their descriptors give the
shared catalogue (`companion/screens/text.py`) through the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from companion.games.passpass.prompt import Param, Prompt, Say
from companion.games.passpass.rules import Challenge, PublicView, Verdict
from companion.screens.model import Reason
from companion.screens.text import (
    DEFAULT_LANGUAGE,
    check_lang,
    phrase,
    seat_name,
)

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


# ------------------------------------------------------------------------------ refusals


class PassPassRefusal(Reason):
    """PassPass's own reasons for a press that cannot count (the core's are `Refusal`),
    said by the phrases ``notice.<value>`` below."""

    VISIBLE_TURN = "visible_turn"
    """PTI-4/PTI-9: a Visible turn shows the animal: no announcement, no Menteur."""
    NO_TOKEN = "no_token"
    """PTI-7: a seat with no Challenge token can only say OK."""
    MAGICIAN = "magician"
    """The Magicien cannot challenge their own placement."""
    NO_ANNOUNCEMENT = "no_announcement"
    """PTI-9: Menteur before there is an announcement."""
    WRONG_WINDOW = "wrong_window"
    """PHI-2: Menteur in window 1, or Doublon in window 2."""
    NOT_A_LINE = "not_a_line"
    """The encoder's choice is not a line of three hats (PTI-3)."""


# ------------------------------------------------------------------------------ phrases

# Template fields: {m} the Magicien, {s} a seat, {to}/{f} other seats, {spot}/{a}/{b}
# hat numbers, {Spot} a place at the start of a sentence, and the game's words for its
# tokens ({a_token}, {token}, {tokens}, {this_token}).
PHRASES: dict[str, dict[str, str]] = {
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
            "Manche nulle : personne ne peut plus gagner. Reprenez vos {tokens} ; on "
            "redistribue quand les chapeaux sont vides."
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
        "say.across_spots": "{Spots} : {a_token} à cheval sur les deux. Mets-le dans un seul.",
        "say.off_mat": "Lecteur {spot} : hors du jeu. Retirez ce qui est posé dessus.",
        "say.restore": "{Spots} : remettez comme avant.",
        "notice.visible_turn": "Tour Visible : l’animal est montré, pas d’annonce ni de Menteur.",
        "notice.no_token": "Plus de jeton Challenge : on ne peut que dire OK.",
        "notice.magician": "Le Magicien ne défie pas son propre placement.",
        "notice.no_announcement": "Pas encore d’annonce : Menteur attend l’annonce.",
        "notice.wrong_window": "Pas dans cette fenêtre : Doublon avant l’annonce, Menteur après.",
        "notice.not_a_line": "Ce n’est pas une ligne de trois chapeaux.",
        "reveal.missed": "Raté !",
        "reveal.hat": "{spot} : {tokens}",
        "reveal.empty": "vide",
        "reveal.back": "{m}, repose-les tels quels.",
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
        "game.victories": "{n} jetons de victoire",
        "game.bravo": "Bravo !",
        "menu.game.ptipasspass": "PtiPassPass",
        "menu.game.phipasspass": "PhiPassPass",
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
        "say.across_spots": "{Spots}: {a_token} lies across both. Put it in one.",
        "say.off_mat": "Reader {spot}: no spot of this game. Take off what lies on it.",
        "say.restore": "{Spots}: put back as before.",
        "notice.visible_turn": "Visible turn: the animal is shown, no announcement, no Menteur.",
        "notice.no_token": "No Challenge token left: you can only say OK.",
        "notice.magician": "The Magician cannot challenge their own placement.",
        "notice.no_announcement": "Nothing announced yet: Menteur waits for the announcement.",
        "notice.wrong_window": (
            "Not in this window: Doublon before the announcement, Menteur after."
        ),
        "notice.not_a_line": "That is not a line of three hats.",
        "reveal.missed": "Missed!",
        "reveal.hat": "{spot}: {tokens}",
        "reveal.empty": "empty",
        "reveal.back": "{m}, put them back as they were.",
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
        "game.victories": "{n} victory tokens",
        "game.bravo": "Well done!",
        "menu.game.ptipasspass": "PtiPassPass",
        "menu.game.phipasspass": "PhiPassPass",
    },
}
"""PassPass's phrases in the shared catalogue."""

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


def words(game: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The game's words for its tokens ("animal" in PtiPassPass, "jeton" in PhiPassPass;
    PtiPassPass's when the game is not named)."""
    by_game = _WORDS[check_lang(lang)]
    return dict(by_game.get(game, by_game["ptipasspass"]))


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
    """Several hats in one phrase: "Chapeau 2", "Chapeaux 2 et 6", "Hats 2, 5 and 6"; the
    pad by its name: "Pad et Chapeau 1"."""
    if len(spots) == 1:
        return place(spots[0], lang)
    and_ = "et" if lang == "fr" else "and"
    if 0 in spots:
        named = [place(s, lang) for s in spots]
        return f"{', '.join(named[:-1])} {and_} {named[-1]}"
    numbers = [str(s) for s in spots]
    joined = f"{', '.join(numbers[:-1])} {and_} {numbers[-1]}"
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
    template = PHRASES[lang][key]
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


SETUP_WORDS = {
    "fr": {
        "passpass.setup.layout": "`layout` : une table de positions (positions = [[rangée, "
                                 "colonne], ...]), pas {value}",
        "passpass.setup.seconds": "`{key}` : {value} ne va pas : {fix}",
        "passpass.setup.round_window": "`rules` : `window` vaut `\"timed\"` à une table, pas "
                                       "{value} : une table joue toujours ses fenêtres de défi "
                                       "chronométrées (PTI-7) ; le tour de parole (`\"round\"`) "
                                       "est pour le labo",
        "passpass.setup.tags": "des étiquettes de sortes {kinds} ne sont pas de ce jeu (ses "
                               "jetons : {tokens})",
        "passpass.setup.layout_few": "`layout` : {n} chapeaux, il en faut au moins 3",
        "passpass.setup.layout_twice": "`layout` : deux chapeaux à la même position",
        "passpass.setup.layout_order": "`layout` : les positions se numérotent dans l’ordre de "
                                       "lecture (rangée par rangée, de gauche à droite)",
        "passpass.setup.layout_no_line": "`layout` : aucune ligne de trois chapeaux voisins "
                                         "(PTI-3)",
        "passpass.setup.layout_positions": "`layout` : `positions` est une liste de paires "
                                           "[rangée, colonne] dans l’ordre de lecture",
        "passpass.setup.layout_no_grid": "pas de disposition des chapeaux pour {players} joueurs "
                                         "(PTI-2 va de 2 à 6) : donnez `layout`",
        "passpass.setup.layout_fix": "{why} ; écrivez [game.layout] avec positions = [[rangée, "
                                     "colonne], ...] dans l’ordre de lecture, ou retirez-la pour "
                                     "la grille du livre",
    },
    "en": {
        "passpass.setup.layout": "layout: a table of positions (positions = [[row, col], "
                                 "...]), not {value}",
        "passpass.setup.seconds": "{key}: {value} will not do: {fix}",
        "passpass.setup.round_window": "rules: `window` is `\"timed\"` at a table, not {value}: "
                                       "a table always plays timed challenge windows (PTI-7); "
                                       "each seat speaking in turn (`\"round\"`) is for the lab",
        "passpass.setup.tags": "tags of kinds {kinds} do not belong to this game (its "
                               "tokens: {tokens})",
        "passpass.setup.layout_few": "layout: {n} hats, it takes 3 at least",
        "passpass.setup.layout_twice": "layout: two hats on one position",
        "passpass.setup.layout_order": "layout: the positions are numbered in reading order "
                                       "(row by row, left to right)",
        "passpass.setup.layout_no_line": "layout: no line of three neighbouring hats (PTI-3)",
        "passpass.setup.layout_positions": "layout: `positions` is a list of [row, column] "
                                           "pairs in reading order",
        "passpass.setup.layout_no_grid": "no hat layout for {players} players (PTI-2 covers 2 "
                                         "to 6): give `layout`",
        "passpass.setup.layout_fix": "{why}; write [game.layout] with positions = [[row, "
                                     "col], ...] in reading order, or leave it out for the "
                                     "book's grid",
    },
}  # fmt: skip
"""What its referee refuses in a setup (the checks every game shares are the core's)."""

CLI_WORDS = {
    "fr": {
        "passpass.cli.turn_limit": "annuler une manche après tant de tours (PTI-15 ; le livre "
                                   "n’en fixe pas)",
        "passpass.console.help": """\
Gestes (places : leur numéro 1..N ou leur nom ; chapeaux : 1..N ; jetons : leur
nom, en français ou en anglais) :
  drop CHAPEAU JETON    glisser un jeton dans un chapeau  ex.  drop 5 lapin
  take CHAPEAU JETON    sortir un jeton d’un chapeau      ex.  take 5 lapin
  slide A B             faire glisser deux chapeaux       ex.  slide 2 5
  lift CHAPEAU          soulever un chapeau et regarder (les jetons restent)
  stray CHAPEAU         mettre un tag non enregistré dans un chapeau (une faute)
  unstray CHAPEAU       l’en retirer
Console :
  announce JETON        le bouton d’annonce               ex.  announce souris
  doublon PLACE / menteur PLACE   le bouton d’une place   ex.  doublon Bob
  aim A B C / choose A B C        l’encodeur : viser / valider une ligne
  back                  annuler la dernière étape
Temps :
  wait SECONDES         laisser passer le temps (une fenêtre de défi dure {window} s)
  ok                    personne ne défie : la fenêtre se ferme
Autres : table (ce qui est où, pour vous seul), hands (ce que tient chaque
place), help, quit""",
        "passpass.console.tokens": "les jetons sont {tokens}",
        "passpass.console.nothing": "rien",
        "passpass.console.under": "sous le chapeau {spot} : {kinds}",
        "passpass.console.hat": "chapeau {spot} : {kinds}",
        "passpass.console.slide": "? faites glisser deux chapeaux différents, par exemple "
                                  "slide {example}",
        "passpass.console.no_window.pti": "rien ne se ferme maintenant : aucune fenêtre de "
                                          "défi n’est ouverte",
        "passpass.console.no_window.phi": "rien ne se ferme maintenant : une fenêtre de "
                                          "Doublon se ferme avec l’annonce",
        "ptipasspass.hands.challenge_tokens": "jetons de défi",
        "ptipasspass.hands.victories": "victoires",
        "phipasspass.hands.victories": "victoires",
    },
    "en": {
        "passpass.cli.turn_limit": "void a round after this many turns (PTI-15; the book has "
                                   "no limit)",
        "passpass.console.help": """\
Physical acts (seats are numbers 1..N or names; hats are 1..N; tokens by name,
in French or English):
  drop HAT TOKEN        drop a token into a hat          e.g.  drop 5 lapin
  take HAT TOKEN        take a token out of a hat        e.g.  take 5 lapin
  slide A B             slide two hats past each other   e.g.  slide 2 5
  lift HAT              lift a hat and look (the tokens stay on the reader)
  stray HAT             put an unenrolled tag in a hat (to see a fault)
  unstray HAT           take it out again
Console:
  announce TOKEN        the announce button              e.g.  announce souris
  doublon SEAT / menteur SEAT   a seat's button          e.g.  doublon Bob
  aim A B C / choose A B C      the encoder: point at / confirm a line
  back                  undo the last step
Time:
  wait SECONDS          let time pass (a challenge window lasts {window} s)
  ok                    nobody calls: let the window run out
Other: table (what lies where, for you only), hands (what each seat holds),
help, quit""",
        "passpass.console.tokens": "tokens are {tokens}",
        "passpass.console.nothing": "nothing",
        "passpass.console.under": "under hat {spot}: {kinds}",
        "passpass.console.hat": "hat {spot}: {kinds}",
        "passpass.console.slide": "? slide two different hats, e.g. slide {example}",
        "passpass.console.no_window.pti": "nothing runs out now: no challenge window is open",
        "passpass.console.no_window.phi": "nothing runs out now: a Doublon window ends with "
                                          "the announcement",
        "ptipasspass.hands.challenge_tokens": "challenge tokens",
        "ptipasspass.hands.victories": "victories",
        "phipasspass.hands.victories": "victories",
    },
}  # fmt: skip
"""The command line's words of both editions (`companion selfplay --turn-limit`, the typed
table of `companion play --sim`)."""


def prompt_said(prompt: object, names: Sequence[str], lang: str, screen: object) -> str:
    """A prompt of PassPass's screens, said in the words of the screen's game (its view's):
    its descriptors' `say`."""
    if not isinstance(prompt, Prompt):
        raise TypeError(f"PassPass says no {type(prompt).__name__}")
    return say(prompt, names, lang, view=getattr(screen, "view", None))


TOKEN_NAME = "passpass.cli.token.{word}"
"""The phrase naming a token to the command line (`companion enroll`: "tap seat 1's
Rabbit"), as the OLED names it."""
TOKEN_NAMES = {
    lang: {TOKEN_NAME.format(word=kind): name for kind, name in names.items()}
    for lang, names in _TOKENS.items()
}
"""Those phrases, one per token (drawn by no screen: the OLED names tokens by `token_name`)."""
