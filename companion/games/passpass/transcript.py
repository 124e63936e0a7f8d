"""PtiPassPass's and PhiPassPass's lines in a transcript (`companion replay`, `demo`, the
web page's history) and their status line (`PassPassReferee.where`), in English (the
command line's) or French (the table's): each edition's descriptor gives its lines
(`describer`) to the shared transcript (`companion/transcript.py`), with its French for
the engine's names (`ENGINE_WORDS`, their `engine_words`). The lines every game shares (a
fault, an undo, a refused press...) stay there; PassPass gives them its words for a token
and a hat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.passpass.rules import DEAD_MANCHE, TURN_LIMIT
from companion.games.passpass.words import place, token_name, words
from companion.referee.event_log import TableEvent
from companion.screens.text import check_lang
from companion.transcript import Describer, EngineWords, pieces, shared_line

LINES: dict[str, dict[str, str]] = {
    "en": {
        "turn": "{s} is the Magician (turn {tour}, {mode}) and {what}",
        "turn.masque": "Masked",
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
        "reward.token": "{s} takes a Challenge token from the Magician",
        "reward.none": "{s} can take no reward",
        "swap": "{s} swaps hats {a} and {b}",
        "reveal": "{s} reveals the line {line}: {hats} - {result}",
        "reveal.line": "{a}-{b}-{c}",
        "reveal.empty": "nothing",
        "reveal.won": "wins the round",
        "reveal.missed": "fails",
        "semicolon": "; ",
        "manche_won": "{s} takes victory token {victories}",
        "manche_void": "the round is void: {reason}",
        "manche_void.dead": DEAD_MANCHE,
        "manche_void.limit": TURN_LIMIT,
        "manche_start": "round {manche} starts with {s}",
        "calls_together": "{seats} call together: {s}'s call counts (first clockwise)",
        "held": "{s} announces {token} before the drop: it counts from the drop",
        "where.over": "game over: {winner} won ({score})",
        "where.play": "round {manche}, {s} is the Magician, {what} ({score})",
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
        "manche_void": "manche nulle : {reason}",
        "manche_void.dead": "plus personne ne peut gagner",
        "manche_void.limit": "limite de {limit} tours atteinte",
        "manche_start": "la manche {manche} commence avec {s}",
        "calls_together": (
            "{seats} appellent ensemble : {s} l’emporte, en premier dans le sens horaire"
        ),
        "held": "{s} annonce {token} avant le placement : elle compte dès le placement",
        "where.over": "partie terminée : {winner} a gagné ({score})",
        "where.play": "manche {manche}, {s} est Magicien, {what} ({score})",
        "where.stopped": "STOP : {prompt}",
        "where.waiting": "en attente : {prompt}",
    },
}
"""PassPass's lines and its status line (`PassPassReferee.where`), per language, in the
OLED's words of that language (`words.py`: Magician, round, Rabbit in English; Magicien,
chapeau, jeton Challenge, comme attendu... in French; the calls keep the books' names,
"Doublon !", "Menteur !") and the rule books' (défier, sens horaire, remporter un jeton
de victoire). A list of hats is words ("4-5-6"), and every line names its seat.
Every key has the same fields in both languages."""

ENGINE_WORDS: EngineWords = {
    "fault": {
        "not_yours": "{a_token} que le joueur n’a pas",
        "not_contiguous": "les chapeaux échangés ne sont pas voisins",
        "one_swap": "un seul échange par tour",
        "designated_gone": "le chapeau désigné a perdu son {token}",
    },
    "step": {
        "designate": "le placement",
        "announce": "l’annonce",
        "swap": "l’échange",
        "reward": "la récompense",
    },
    "phase": {
        "place": "placement",
        "announce": "annonce",
        "window": "fenêtre de challenge",
        "reward": "récompense du Challenger",
        "reveal": "révélation",
    },
}
"""PassPass's faults as the OLED words them (`say.*` of `words.py`, without the place and
the instruction), its undone steps and the phases of its status line, in French (its
descriptors' `engine_words`)."""

_TURN_LIMIT = re.compile(re.escape(TURN_LIMIT).replace(re.escape("{limit}"), r"(\d+)"))
"""The engine's turn-limit reason, its limit captured."""


def line(key: str, lang: str, **fields: object) -> str:
    """PassPass's line (or part of a line) `key` in `lang` ("en" or "fr"), filled in."""
    return LINES[check_lang(lang)][key].format(**fields)


def _token(kind: str, lang: str) -> str:
    """A token's name as the OLED says it in `lang` (`token_name`: "Lapin", "Rabbit")."""
    try:
        return token_name(kind, lang)
    except ValueError:  # not a PassPass token: its name as the engine spells it
        return kind.capitalize()


def _tokens(kinds: Sequence[str], lang: str) -> str:
    """Several tokens, "Lapin, Souris"; "" for none."""
    return ", ".join(_token(k, lang) for k in kinds)


def _void_reason(reason: str, lang: str) -> str:
    """Why a manche is void (PTI-15), from the engine's English reason."""
    limit = _TURN_LIMIT.fullmatch(reason)
    if limit:
        return line("manche_void.limit", lang, limit=limit[1])
    if reason == DEAD_MANCHE:
        return line("manche_void.dead", lang)
    return reason


# ------------------------------------------------------------------------------ lines


def describe(game: str, event: TableEvent, names: Sequence[str], lang: str = "en") -> str | None:
    """A sentence for `event` of `game` (PtiPassPass or PhiPassPass) in `lang`: PassPass's
    own lines, else the shared ones in PassPass's words ("un animal", "Chapeau 3")."""
    own = words(game, lang) if check_lang(lang) == "fr" else None
    found = _key_and_fields(event, names, lang, pieces(lang, own))
    if found is None:
        return shared_line(event, names, lang, words=own, place=place, engine_words=ENGINE_WORDS)
    key, fields = found
    return line(key, lang, **fields)


def _key_and_fields(
    event: Mapping[str, Any], names: Sequence[str], lang: str, piece: dict[str, str]
) -> tuple[str, dict[str, object]] | None:
    """Which line tells `event`, and its fields in `lang`: the same facts in every
    language, only the words change. None for an event that is not PassPass's own."""

    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event["kind"]
    fields: dict[str, object] = {"s": who(), **piece}
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
    elif kind == "calls_together":
        fields["seats"] = ", ".join(names[s] for s in event["seats"] if 0 <= s < len(names))
        fields["s"] = who("counted")
    else:
        return None
    return key, fields


def _verdict(event: Mapping[str, Any], lang: str) -> dict[str, object]:
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


def _reveal(event: Mapping[str, Any], lang: str) -> dict[str, object]:
    """A reveal (PTI-11): the line of hats, what each held (the table saw them) and whether
    it won the manche."""
    a, b, c = event["spots"]
    hats = (_tokens(hat, lang) or line("reveal.empty", lang) for hat in event["hats"])
    return {
        "line": line("reveal.line", lang, a=a, b=b, c=c),
        "hats": line("semicolon", lang).join(hats),
        "result": line("reveal.won" if event["success"] else "reveal.missed", lang),
    }


def describer(game: str) -> Describer:
    """The lines of one edition's events (its descriptor's `describe`)."""

    def describe_game(event: TableEvent, names: Sequence[str], lang: str) -> str | None:
        return describe(game, event, names, lang)

    return describe_game
