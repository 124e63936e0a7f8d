"""One readable line per referee event, for `companion replay`, `companion demo` and the
web page's history, in English (the command line's) or French (the table's default).

Events are public by construction (the engine's events and the referee's faults), so a
transcript can be shown to the whole table. A game's own events get their lines from its
referee module (`register_describer`); the lines here are PtiPassPass's and PhiPassPass's,
and those every game shares (a fault, an undo, a refused press...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from companion.games.passpass.rules import DEAD_MANCHE, RULESETS, TURN_LIMIT
from companion.screens.text import check_lang, phrase, place, token_name, words

Describer = Callable[[dict[str, Any], Sequence[str], str], "str | None"]
"""A game's own describer: (event, seat names, language) -> a line or None."""
_GAME_DESCRIBERS: dict[str, Describer] = {}


def register_describer(game: str, describer: Describer) -> None:
    """A game's own sentences for its own event kinds (its referee module calls this once).
    Asked first for that game's events only, so two games may share a kind ("swap"); it
    returns None for an event the shared lines below describe."""
    _GAME_DESCRIBERS[game] = describer


# ------------------------------------------------------------------------------ words

_LINES: dict[str, dict[str, str]] = {
    "en": {
        "turn": "{s} is the Magicien (tour {tour}, {mode}) and {what}",
        "turn.masque": "Masqué",
        "turn.visible": "Visible",
        "turn.place": "places",
        "turn.reveal": "must reveal",
        "designate": "{s} drops {a_token} into hat {spot}",
        "drop.shown": "{s} drops a {token} into hat {spot}",
        "announce": "{s} announces {token}",
        "place": "nobody challenges: the {token} stays in hat {spot}",
        "verdict": "{s} calls {call} on {m}: {fact}, so {s} is {result}",
        "verdict.doublon": "Doublon !",
        "verdict.menteur": "Menteur !",
        "verdict.hat": "hat {spot} held {tokens}",
        "verdict.empty": "hat {spot} held nothing",
        "verdict.shown": "it was a {token}",
        "verdict.right": "right",
        "verdict.wrong": "wrong",
        "reward.token": "{s} takes a Challenge token from the Magicien",
        "reward.none": "{s} can take no reward",
        "swap": "{s} swaps hats {a} and {b}",
        "reveal": "{s} reveals hats {line}: {hats} - {result}",
        "reveal.line": "[{a}, {b}, {c}]",
        "reveal.empty": "nothing",
        "reveal.won": "wins the manche",
        "reveal.missed": "fails",
        "semicolon": "; ",
        "manche_won": "{s} takes victory token {victories}",
        "game_won": "{s} wins the game!",
        "manche_void": "the manche is void: {reason}",
        "manche_void.dead": DEAD_MANCHE,
        "manche_void.limit": TURN_LIMIT,
        "manche_start": "manche {manche} starts with {s}",
        "fault": "STOP: {why} at {where}",
        "fault.table": "the table",
        "fault.reader": "reader {spot}",
        "fixed": "the table matches again: play goes on",
        "undo": "back: the {step} is taken back",
        "resume": "resumed after a cut",
        "calls_together": "{seats} call together: {s}'s call counts (first clockwise)",
        "held": "announced {token} before the drop: held until it",
        "ignored": "{whose}{control} refused: {why}",
        "ignored.seat": "{s}'s ",
        "ignored.unseated": "seat {n}'s ",
        "where.over": "game over: {winner} won ({score})",
        "where.play": "manche {manche}, {s} is Magicien, {what} ({score})",
        "where.stopped": "stopped: {prompt}",
        "where.waiting": "waiting: {prompt}",
    },
    "fr": {
        "turn": "{s} est le Magicien (tour {tour}, {mode}) et {what}",
        "turn.masque": "Masqué",
        "turn.visible": "Visible",
        "turn.place": "doit placer",
        "turn.reveal": "doit révéler",
        "designate": "{s} glisse {a_token} dans le chapeau {spot}",
        "drop.shown": "{s} glisse {token} dans le chapeau {spot}, à la vue de tous",
        "announce": "{s} annonce {token}",
        "place": "personne ne défie : le chapeau {spot} garde son {token}",
        "verdict": "{s} dit « {call} » à {m} : {fact} ; {s} a {result}",
        "verdict.doublon": "Doublon !",
        "verdict.menteur": "Menteur !",
        "verdict.hat": "le chapeau {spot} contenait {tokens}",
        "verdict.empty": "le chapeau {spot} était vide",
        "verdict.shown": "c’était {token}",
        "verdict.right": "raison",
        "verdict.wrong": "tort",
        "reward.token": "{s} prend un jeton Challenge au Magicien",
        "reward.none": "{s} ne peut prendre aucune récompense",
        "swap": "{s} échange les chapeaux {a} et {b}",
        "reveal": "{s} révèle la ligne {line} : {hats} — {result}",
        "reveal.line": "{a}-{b}-{c}",
        "reveal.empty": "vide",
        "reveal.won": "manche gagnée",
        "reveal.missed": "raté",
        "semicolon": " ; ",
        "manche_won": "{s} remporte un jeton de victoire (victoires : {victories})",
        "game_won": "{s} gagne la partie !",
        "manche_void": "manche nulle : {reason}",
        "manche_void.dead": "plus personne ne peut gagner",
        "manche_void.limit": "limite de {limit} tours atteinte",
        "manche_start": "la manche {manche} commence avec {s}",
        "fault": "STOP : {where} : {why}",
        "fault.table": "la table",
        "fault.reader": "lecteur {spot}",
        "fixed": "la table est de nouveau comme attendu : le jeu reprend",
        "undo": "retour : on annule {step}",
        "resume": "reprise après une coupure",
        "calls_together": (
            "{seats} appellent ensemble : {s} l’emporte, en premier dans le sens horaire"
        ),
        "held": "annonce {token} avant le placement : elle compte dès le placement",
        "ignored": "bouton {control} refusé{whose} : {why}",
        "ignored.seat": " pour {s}",
        "ignored.unseated": " pour le joueur {n}",
        "where.over": "partie terminée : {winner} a gagné ({score})",
        "where.play": "manche {manche}, {s} est Magicien, {what} ({score})",
        "where.stopped": "STOP : {prompt}",
        "where.waiting": "en attente : {prompt}",
    },
}
"""The shared lines and PassPass's status line (`PassPassReferee.where`), per language:
English for the command line and the logs (unchanged), French for the table's web page,
in the OLED's words (`companion/screens/text.py`: Magicien, chapeau, jeton Challenge,
"Doublon !", comme attendu...) and the rule books' (défier, sens horaire, remporter un
jeton de victoire). Every key has the same fields in both languages."""

_FRENCH: dict[str, dict[str, str]] = {
    "fault": {
        "extra_tag": "{a_token} en trop",
        "missing_tag": "{a_token} a disparu",
        "unknown_tag": "jeton inconnu",
        "two_tags": "deux {tokens} à la fois",
        "not_yours": "{a_token} que le joueur n’a pas",
        "not_contiguous": "les chapeaux échangés ne sont pas voisins",
        "one_swap": "un seul échange par tour",
        "designated_gone": "le chapeau désigné a perdu son {token}",
        "reader_silent": "lecteur muet",
        "off_mat": "quelque chose hors du jeu",
        "restore": "pas comme attendu",
        "wait_table": "pas comme attendu",
    },
    "step": {
        "designate": "le placement",
        "announce": "l’annonce",
        "swap": "l’échange",
        "reward": "la récompense",
        "step": "la dernière étape",
        "last step": "la dernière étape",
        "build": "la carte posée",
        "discard": "la défausse",
    },
    "phase": {
        "place": "placement",
        "announce": "annonce",
        "window": "fenêtre de challenge",
        "reward": "récompense du Challenger",
        "reveal": "révélation",
    },
}
"""Engine names that an English line shows as they are ("extra tag", "designate"), in
French: a fault as the OLED words it (`say.*` of the catalogue, without the place and the
instruction), an undone step, a phase of the status line."""

_EN_PIECES = {"a_token": "a token", "token": "token", "tokens": "tokens"}
"""What an English line calls a game piece, whatever the game (as it always has)."""
_TAG_PIECES = {"a_token": "un tag", "token": "tag", "tokens": "tags"}
"""What a French line calls a piece of a game that is not PassPass: the tag it carries."""

_TURN_LIMIT = re.compile(re.escape(TURN_LIMIT).replace(re.escape("{limit}"), r"(\d+)"))
"""The engine's turn-limit reason, its limit captured."""


def line(key: str, lang: str, **fields: object) -> str:
    """The line (or part of a line) `key` in `lang` ("en" or "fr"), filled in."""
    return _LINES[check_lang(lang)][key].format(**fields)


def engine_word(group: str, name: str, lang: str) -> str:
    """An engine's name of `group` ("fault", "step", "phase") as `lang` says it: as the
    engine spells it in English ("extra tag", what the logs have always shown), in the
    table's words in French (the name itself when there are none)."""
    if check_lang(lang) == "fr" and name in _FRENCH[group]:
        return _FRENCH[group][name]
    return name.replace("_", " ")


def _is_passpass(game: str | None) -> bool:
    """A PassPass game, or none named (the shared lines were PassPass's first)."""
    return not game or game in RULESETS


def _pieces(game: str | None, lang: str) -> dict[str, str]:
    """How a line names a game piece: "a token" in English; in French the OLED's word of
    a PassPass game ("un animal" in PtiPassPass, "un jeton" in PhiPassPass), else "tag"."""
    if check_lang(lang) == "en":
        return _EN_PIECES
    return words(game or "", lang) if _is_passpass(game) else _TAG_PIECES


def _token(kind: str, lang: str) -> str:
    """A token's name: the engine's name capitalised in English ("Colombe", as the English
    lines have always said), the OLED's name in French (`token_name`)."""
    if check_lang(lang) == "fr":
        try:
            return token_name(kind, lang)
        except ValueError:  # not a PassPass token: its name as the engine spells it
            pass
    return kind.capitalize()


def _tokens(kinds: Sequence[str], lang: str) -> str:
    """Several tokens, "Lapin, Souris"; "" for none."""
    return ", ".join(_token(k, lang) for k in kinds)


def _spot(spot: int | None, game: str | None, lang: str) -> str:
    """Where a fault is: "hat 3" in English for every spot of every game (as it always was);
    in French the OLED's name, "Chapeau 3" or "Pad", or a board's "Case 3"."""
    if spot is None:
        return line("fault.table", lang)
    if check_lang(lang) == "en":
        return f"hat {spot}"
    if _is_passpass(game) or spot == 0:
        return place(spot, lang)
    return phrase("fd.spot", lang, n=spot)


def _void_reason(reason: str, lang: str) -> str:
    """Why a manche is void (PTI-15), from the engine's English reason."""
    limit = _TURN_LIMIT.fullmatch(reason)
    if limit:
        return line("manche_void.limit", lang, limit=limit[1])
    if reason == DEAD_MANCHE:
        return line("manche_void.dead", lang)
    return reason


def _control(control: str, lang: str) -> str:
    """A button: the press's control in English ("menteur", as the logs show it), the
    OLED's label in French ("Menteur", "Retour")."""
    if check_lang(lang) == "fr":
        try:
            return phrase(f"control.{control}", lang)
        except KeyError:  # a control the catalogue has no label for
            return control.capitalize()
    return control


# ------------------------------------------------------------------------------ lines


def describe(
    event: dict[str, Any], names: Sequence[str], game: str | None = None, lang: str = "en"
) -> str | None:
    """A sentence for `event` of `game` in `lang` ("en" or "fr"), or None for bookkeeping
    events not worth a line."""
    own = _GAME_DESCRIBERS.get(game or "")
    result = own(event, names, lang) if own else None
    if result is not None:
        return result
    found = _key_and_fields(event, names, game, lang)
    if found is None:
        return None
    key, fields = found
    return line(key, lang, **fields)


def _key_and_fields(
    event: dict[str, Any], names: Sequence[str], game: str | None, lang: str
) -> tuple[str, dict[str, object]] | None:
    """Which line tells `event`, and its fields in `lang`: the same facts in every
    language, only the words change. None for an event with no line."""

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event["kind"]
    fields: dict[str, object] = {"s": who(), **_pieces(game, lang)}
    key = kind
    if kind == "turn":
        fields["tour"] = event["tour"]
        fields["mode"] = line("turn.masque" if event["masque"] else "turn.visible", lang)
        fields["what"] = line("turn.place" if event["phase"] == "place" else "turn.reveal", lang)
    elif kind == "designate":
        fields["spot"] = event["spot"]
        if event["shown"]:  # a Visible turn shows the token (PTI-4)
            key = "drop.shown"
            fields["token"] = _token(event["shown"], lang)
    elif kind in ("announce", "held"):
        fields["token"] = _token(event["token" if kind == "announce" else "value"], lang)
    elif kind == "place":
        fields["spot"] = event["spot"]
    elif kind == "verdict":
        fields.update(_verdict(event, lang), m=who("magician"))
    elif kind == "reward":
        choice = event["choice"]
        key = {"drop": "drop.shown", "token": "reward.token"}.get(choice, "reward.none")
        if choice == "drop":
            fields.update(token=_token(event["token"], lang), spot=event["spot"])
    elif kind == "swap":
        fields["a"], fields["b"] = event["spots"]
    elif kind == "reveal":
        fields.update(_reveal(event, lang))
    elif kind == "manche_won":
        fields["victories"] = event["victories"]
    elif kind == "manche_void":
        fields["reason"] = _void_reason(str(event["reason"]), lang)
    elif kind == "manche_start":
        fields.update(manche=event["manche"], s=who("starter"))
    elif kind == "fault":
        why = engine_word("fault", str(event["reason"]), lang).format(**fields)
        where = _spot(event.get("spot"), game, lang)
        if event["reason"] == "off_mat":  # a reader where the game has no spot
            where = line("fault.reader", lang, spot=event.get("spot"))
        fields.update(why=why, where=where)
    elif kind == "undo":
        fields["step"] = engine_word("step", str(event.get("step", "last step")), lang)
    elif kind == "calls_together":
        fields["seats"] = ", ".join(names[s] for s in event["seats"] if 0 <= s < len(names))
        fields["s"] = who("counted")
    elif kind == "ignored":
        fields.update(_ignored(event, names, who(), lang))
    elif kind not in ("game_won", "fixed", "resume"):
        return None
    return key, fields


def _verdict(event: dict[str, Any], lang: str) -> dict[str, object]:
    """A settled challenge: the call, exactly the facts the book makes public (PTI-8/9,
    PHI-3/4: a Doublon lifts the hat, a Menteur shows the token) and who was right."""
    spot = event["spot"]
    if event["challenge"] != "doublon":
        fact = line("verdict.shown", lang, token=_token(event["shown"], lang))
    elif event["hat"]:
        fact = line("verdict.hat", lang, spot=spot, tokens=_tokens(event["hat"], lang))
    else:
        fact = line("verdict.empty", lang, spot=spot)
    return {
        "call": line(f"verdict.{event['challenge']}", lang),
        "fact": fact,
        "result": line("verdict.right" if event["success"] else "verdict.wrong", lang),
    }


def _reveal(event: dict[str, Any], lang: str) -> dict[str, object]:
    """A reveal (PTI-11): the line of hats, what each held (the table saw them) and whether
    it won the manche."""
    a, b, c = event["spots"]
    hats = (_tokens(hat, lang) or line("reveal.empty", lang) for hat in event["hats"])
    return {
        "line": line("reveal.line", lang, a=a, b=b, c=c),
        "hats": line("semicolon", lang).join(hats),
        "result": line("reveal.won" if event["success"] else "reveal.missed", lang),
    }


def _ignored(
    event: dict[str, Any], names: Sequence[str], name: str, lang: str
) -> dict[str, object]:
    """A press that could not count: whose (a seat's name, a seat nobody sits at, or the
    console's own button), which button, and why, as the OLED said it."""
    seat = event.get("seat")
    whose = ""
    if isinstance(seat, int):
        whose = (
            line("ignored.seat", lang, s=name)
            if 0 <= seat < len(names)
            else line("ignored.unseated", lang, n=seat + 1)
        )
    try:
        why = phrase(f"notice.{event['reason']}", lang)
    except KeyError:
        why = str(event["reason"])
    return {"whose": whose, "control": _control(str(event["control"]), lang), "why": why}
