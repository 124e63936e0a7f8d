"""The one error type of the web port: a refused request, with its HTTP status, and the
sentences a player reads on the page, in the table's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.screens.text import check_lang

_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "pair.seat": "Choisissez votre place.",
        "pair.code": "Le code, ce sont les 6 chiffres affichés par l’écran de la table.",
        "pair.wrong": "Code faux : relisez-le sur l’écran de la table.",
        "pair.used": "Ce code a déjà servi : l’écran de la table en montre un nouveau.",
        "pair.wait": "Trop de codes faux depuis cet appareil : réessayez dans {seconds} s.",
        "pair.table": "Trop de codes faux à cette table : réessayez dans {seconds} s.",
        "pair.over": "La partie est finie : plus aucun téléphone n’y joue.",
        "pair.shown": (
            "Le code vient d’être affiché : l’écran de la table revient au jeu. "
            "Redemandez-le dans {seconds} s."
        ),
        "unpaired": (
            "Ce téléphone n’est pas associé : entrez le code affiché par l’écran de la table."
        ),
        "csrf": "Cette page n’est plus à jour : rechargez-la.",
        "origin": "Refusé : la demande vient de la page d’un autre site.",
        "host": "Refusé : cette adresse n’est pas celle de la table.",
        "slow": "La demande est arrivée trop lentement : réessayez.",
        "full": "La table a trop de connexions ouvertes : réessayez dans un instant.",
        "streams": "Trop de pages suivent la partie en direct depuis cet appareil.",
        "streams.all": "Toutes les places du direct sont prises.",
        "no_answer": "La table n’a pas répondu : la partie est-elle finie ou arrêtée ?",
        "starting": "La table démarre : pas encore d’image.",
        "json": "Envoyez du JSON (Content-Type: application/json).",
        "large": "La demande est trop grande : {limit} octets au plus.",
        "json.bad": "Le corps de la demande n’est pas du JSON valide.",
        "json.object": "Le corps de la demande doit être un objet JSON.",
        "json.unknown": "Clés inconnues {unknown} : les clés sont {keys}.",
        "json.missing": "Il manque {missing}.",
        "control": "{game} n’a pas de commande {control} : {controls}.",
        "not_code": "Ce n’est pas un code d’association.",
        "admin.here": "Les associations se révoquent à la console de la table seulement.",
        "admin.token": "Jeton d’administration faux.",
        "admin.seat": "Nommez une place ({seats}) ou all.",
        "admin.unpaired": "Téléphones dissociés : {count}.",
        "no.file": "Fichier inconnu : {name}.",
        "no.game": "Jeu inconnu.",
        "no.data": "Donnée inconnue.",
        "no.journal": "Partie inconnue.",
        "no.step": "Étape inconnue.",
        "no.step_range": "Pas d’étape {step} : les étapes vont de 0 à {last}.",
        "no.report": "Rapport inconnu.",
        "no.page": "Page inconnue.",
        "method": "Cette adresse ne prend pas cette méthode.",
        "refused": "Demande refusée.",
        "gone": "Le client est parti.",
        "failed": "La table n’a pas pu répondre : voyez son journal.",
    },
    "en": {
        "pair.seat": "Choose your seat.",
        "pair.code": "The code is the 6 digits the table's screen shows.",
        "pair.wrong": "Wrong code: read it again on the table's screen.",
        "pair.used": "This code was used already: the table's screen shows a new one.",
        "pair.wait": "Too many wrong codes from this device: try again in {seconds} s.",
        "pair.table": "Too many wrong codes at this table: try again in {seconds} s.",
        "pair.over": "The game is over: no phone plays it any more.",
        "pair.shown": (
            "The code was just shown: the table's screen is back to the game. "
            "Ask again in {seconds} s."
        ),
        "unpaired": "This phone is not paired: enter the code the table's screen shows.",
        "csrf": "This page is out of date (X-CSRF-Token): reload it.",
        "origin": "Refused: the request comes from another site's page.",
        "host": "Refused: that address is not the table's.",
        "slow": "The request came too slowly: try again.",
        "full": "The table has too many open connections: try again in a moment.",
        "streams": "Too many pages follow the game live from this device.",
        "streams.all": "Every live stream is taken.",
        "no_answer": "The table did not answer: is the game over or stopped?",
        "starting": "The table is starting: no frame yet.",
        "json": "Send JSON (Content-Type: application/json).",
        "large": "The request is too large: at most {limit} bytes.",
        "json.bad": "The body is not valid JSON.",
        "json.object": "The body must be a JSON object.",
        "json.unknown": "Unknown keys {unknown}: the keys are {keys}.",
        "json.missing": "Missing {missing}.",
        "control": "{game} has no control {control}: {controls}.",
        "not_code": "Not a pairing code.",
        "admin.here": "Pairings are revoked at the table's console only.",
        "admin.token": "Wrong admin token.",
        "admin.seat": "Name a seat ({seats}) or all.",
        "admin.unpaired": "Phones unpaired: {count}.",
        "no.file": "No such file: {name}.",
        "no.game": "No such game.",
        "no.data": "No such data.",
        "no.journal": "No such journal.",
        "no.step": "No such step.",
        "no.step_range": "No step {step}: the steps are 0 to {last}.",
        "no.report": "No such report.",
        "no.page": "No such page.",
        "method": "This address does not take that method.",
        "refused": "Refused.",
        "gone": "The client went away.",
        "failed": "The table could not answer: see its log.",
    },
}


def said(key: str, lang: str, **fields: object) -> str:
    """The page's sentence `key` in `lang`, filled in."""
    return _WORDS[check_lang(lang)][key].format(**fields)


Words = Callable[..., str]
"""(key, lang, **fields) -> a sentence: `said`, or a game's own words for its refusals
(`Game.page_value`'s)."""


class Refused(Exception):
    """A request the table refuses; the message is the sentence the page shows (in the
    table's language when the refusal has a `key`, said by `words`), `retry_after` the
    seconds to wait before trying again, if that is why. Made by `told`: a refusal without
    a key would be one language on every table."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        key: str | None = None,
        fields: Mapping[str, object] | None = None,
        retry_after: int | None = None,
        words: Words = said,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.key = key
        self.fields = dict(fields or {})
        self.retry_after = retry_after
        self.words = words

    def sentence(self, lang: str) -> str:
        """What the page shows, in the table's language `lang`."""
        return str(self) if self.key is None else self.words(self.key, lang, **self.fields)


def told(
    status: int,
    key: str,
    *,
    retry_after: int | None = None,
    words: Words = said,
    **fields: object,
) -> Refused:
    """A refusal the page shows in the table's language (English in the log): sentence
    `key` of `words` (the page's own by default), filled in with `fields`."""
    return Refused(
        status,
        words(key, "en", **fields),
        key=key,
        fields=fields,
        retry_after=retry_after,
        words=words,
    )
