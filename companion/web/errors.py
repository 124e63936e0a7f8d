"""The one error type of the web port: a refused request, with its HTTP status, and the
sentences a player reads on the page, in the table's language."""

from __future__ import annotations

from collections.abc import Mapping

from companion.screens.text import check_lang

_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "pair.seat": "Choisissez votre place.",
        "pair.code": "Le code, ce sont les 6 chiffres affichés par l’écran de la table.",
        "pair.wrong": "Code faux : relisez-le sur l’écran de la table.",
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
        "no_answer": "La table n’a pas répondu : la partie est-elle finie ou arrêtée ?",
    },
    "en": {
        "pair.seat": "Choose your seat.",
        "pair.code": "The code is the 6 digits the table's screen shows.",
        "pair.wrong": "Wrong code: read it again on the table's screen.",
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
        "no_answer": "The table did not answer: is the game over or stopped?",
    },
}


def said(key: str, lang: str, **fields: object) -> str:
    """The page's sentence `key` in `lang`, filled in."""
    return _WORDS[check_lang(lang)][key].format(**fields)


class Refused(Exception):
    """A request the table refuses; the message is the sentence the page shows (in the
    table's language when the refusal has a `key`), `retry_after` the seconds to wait
    before trying again, if that is why."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        key: str | None = None,
        fields: Mapping[str, object] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.key = key
        self.fields = dict(fields or {})
        self.retry_after = retry_after

    def sentence(self, lang: str) -> str:
        """What the page shows, in the table's language `lang`."""
        return str(self) if self.key is None else said(self.key, lang, **self.fields)


def told(status: int, key: str, *, retry_after: int | None = None, **fields: object) -> Refused:
    """A refusal the page shows in the table's language (English in the log)."""
    return Refused(
        status, said(key, "en", **fields), key=key, fields=fields, retry_after=retry_after
    )
