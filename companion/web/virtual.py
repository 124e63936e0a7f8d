"""The virtual table: a game with tokens played on the web page (`companion run --virtual`).

What a seat's hands do on its paired phone (a token dropped into a hat, two hats slid, a
card played, two cubes swapped) becomes what the readers of a real table would report,
one reader report per hand movement, journaled and judged by the game's own referee like
any table's input (docs/web.md, "The virtual table"). The table's buttons (each seat's
the game declares, announce, the encoder, back) are the page's presses (`POST /api/act`), as for
any paired phone. So the referee, the no-peek rule, undo, faults and the journal are a
real table's, and a journal of a virtual game replays like any other.

Each game brings its kit (`Game.virtual`): where the tokens are that no reader sees (a
hand, the deck), which moves a seat's hands may make now (judged from the paired seat and
the referee's state, never from what the page claims), and what only that seat sees (its
hand, its secret card). The core knows no game: it checks a request's shape, runs the kit
in the referee loop's thread, keeps what the kit holds in the data directory (0600: it
holds hidden facts) so a restart goes on with the same hands, and hands each paired phone
its own facts (`seat_view`), never another seat's (`companion.web.server.Hub`).
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games.virtual_kit import Kit, Report, Touch
from companion.journal import Input, PressInput, Setup, SpotInput
from companion.screens.text import check_lang
from companion.web.errors import Refused

if TYPE_CHECKING:
    from companion.contract.game import Game, TableReferee

log = logging.getLogger("companion")

STATE_FILE = "virtual.json"
"""In the data directory: what the kit holds that no journal line says (the hands)."""
MOVES_PER_SECOND = 4.0
"""How fast one seat's hands may go, on average (people move one token at a time)..."""
MOVES_AT_ONCE = 8
"""...with this many moves and presses at once (a slide and its presses, a quick deal)."""


# ------------------------------------------------------------------ refusals

_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "off": "Cette table n’est pas virtuelle : ses jetons sont sur la table.",
        "none": "Ce jeu n’a pas de table virtuelle.",
        "move": "Mouvement inconnu {move} : les mouvements sont {moves}.",
        "keys": "Ce mouvement prend {keys}.",
        "spot": "Pas d’emplacement {spot} : ils vont de {first} à {last}.",
        "number": "{name} doit être un nombre entier.",
        "flag": "{name} doit être true ou false.",
        "turn": "Ce n’est pas à vos mains de faire ce mouvement maintenant.",
        "not_now": "Pas maintenant.",
        "empty": "Rien à reprendre là.",
        "hand": "Vous n’avez pas cela en main.",
        "same": "Choisissez deux emplacements différents.",
        "token": "Ce n’est pas un jeton de ce jeu.",
        "table": "Remettez d’abord la table comme l’écran le demande.",
        "slide_back": "Faites glisser les chapeaux à leur place : rien ne sort d’un chapeau ici.",
        "rate": "Une main à la fois : réessayez dans {seconds} s.",
    },
    "en": {
        "off": "This table is not virtual: its tokens are on the table.",
        "none": "This game has no virtual table.",
        "move": "Unknown move {move}: the moves are {moves}.",
        "keys": "This move takes {keys}.",
        "spot": "No spot {spot}: they go from {first} to {last}.",
        "number": "{name} must be a whole number.",
        "flag": "{name} must be true or false.",
        "turn": "It is not your hands' move to make now.",
        "not_now": "Not now.",
        "empty": "Nothing to take back there.",
        "hand": "You do not hold that.",
        "same": "Choose two different spots.",
        "token": "That is none of this game's tokens.",
        "table": "Put the table right first, as the screen says.",
        "slide_back": "Slide the hats back: nothing comes out of a hat now.",
        "rate": "One hand at a time: try again in {seconds} s.",
    },
}


def said(key: str, lang: str, **fields: object) -> str:
    """The virtual table's sentence `key` in `lang`, filled in."""
    return _WORDS[check_lang(lang)][key].format(**fields)


def refused(status: int, key: str, *, retry_after: int | None = None, **fields: object) -> Refused:
    """A move refused, said in the table's language (the sentences above; English in the
    log)."""
    english = said(key, "en", **fields)
    return Refused(status, english, key=key, fields=fields, retry_after=retry_after, words=said)


def only_keys(move: Mapping[str, Any], keys: Sequence[str]) -> None:
    """The move has exactly `keys` besides its name ("move")."""
    if set(move) != {"move", *keys}:
        raise refused(400, "keys", keys=", ".join(keys) or "-")


def spot_of(move: Mapping[str, Any], key: str, first: int, last: int) -> int:
    """`move[key]` as a spot first..last (the pad is 0), or a refusal naming the range."""
    value = move.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise refused(400, "number", name=key)
    if not first <= value <= last:
        raise refused(400, "spot", spot=value, first=first, last=last)
    return value


def exchange(referee: Any, a: int, b: int) -> list[Touch]:
    """Two spots' contents lifted, then each put down on the other's spot (hats slid past
    each other, two cubes swapped): both readers see nothing, then the other's tags."""
    first, second = on_spot(referee, a), on_spot(referee, b)
    return [Report(a, frozenset()), Report(b, frozenset()), Report(a, second), Report(b, first)]


def on_spot(referee: Any, spot: int) -> frozenset[str]:
    """What lies on `spot` now: what its reader last reported. On a virtual table the
    readers report exactly what the kit put there, so the referee's observed table is
    where the tokens are."""
    uids: frozenset[str] = referee.observed.uids.get(spot, frozenset())
    return uids


# ------------------------------------------------------------------ the runner


class VirtualTable:
    """The kit of the game being played, as the referee loop uses it: a move of a seat
    becomes journal inputs (`act`), each seat's own facts are ready for its phone
    (`views`), and what the kit holds is saved after every move (`save`)."""

    def __init__(self, game: Game, referee: TableReferee, data_dir: Path, key: str) -> None:
        if game.virtual is None:
            raise ValueError(f"{game.title} has no virtual table")
        self.referee = referee
        self.kit: Kit = game.virtual(referee.setup)
        self.path = data_dir / STATE_FILE
        self.key = key
        """The game the saved state belongs to (another game's is not taken)."""
        self.moved = False
        """A move was made since the seats' views were last made."""
        self._load()

    def _load(self) -> None:
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("%s cannot be read (%s): the virtual kit starts afresh", self.path, exc)
            return
        if not isinstance(saved, dict) or saved.get("game") != self.key:
            return  # another game's
        try:
            self.kit.restore(saved["kit"])
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s is not a kit's state (%s): it starts afresh", self.path, exc)

    def act(self, seat: int, move: object, now: float) -> list[Input]:
        """The journal inputs of `seat`'s `move` at time `now`, after the kit judged it
        (`Refused` otherwise); a press made with it must be that seat's to make (the
        referee's `seat_refusal`), or nothing happens."""
        if not isinstance(move, dict) or not isinstance(move.get("move"), str):
            raise refused(400, "keys", keys="move")
        before = self.kit.to_json()
        touches = list(self.kit.act(self.referee, seat, move))
        inputs: list[Input] = []
        for touch in touches:
            if isinstance(touch, Report):
                inputs.append(SpotInput(now, touch.spot, touch.uids))
            elif self.referee.seat_refusal(seat, touch.control, touch.value) is None:
                inputs.append(PressInput(now, touch.control, seat, touch.value))
            else:
                self.kit.restore(before)  # the whole move is refused
                raise refused(403, "turn")
        self.moved = True
        return inputs

    def views(self, seats: int) -> dict[int, bytes]:
        """Each seat's own facts, as compact JSON (the seat's paired phone only)."""
        return {
            seat: json.dumps(self.kit.seat_view(self.referee, seat), separators=(",", ":")).encode()
            for seat in range(seats)
        }

    def save(self) -> None:
        """What the kit holds, 0600, replaced whole (a cut leaves the old or the new)."""
        data = json.dumps({"game": self.key, "kit": self.kit.to_json()}, separators=(",", ":"))
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


class HandPace:
    """How fast each seat's hands may go (`MOVES_PER_SECOND`, `MOVES_AT_ONCE`): a token
    bucket per seat, so a flood from one phone is refused (429) while the others play."""

    def __init__(
        self,
        clock: Callable[[], float],
        rate: float = MOVES_PER_SECOND,
        burst: int = MOVES_AT_ONCE,
    ) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = float(burst)
        self._buckets: dict[int, tuple[float, float]] = {}

    def take(self, seat: int) -> None:
        """One move or press of `seat`, or a refusal saying how long to wait."""
        now = self.clock()
        level, then = self._buckets.get(seat, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        if level < 1.0:
            wait = max(1, math.ceil((1.0 - level) / self.rate))
            raise refused(429, "rate", retry_after=wait, seconds=wait)
        self._buckets[seat] = (level - 1.0, now)


# ------------------------------------------------------------------ the setup


def made_up_tags(
    game: Game, setup_seats: int, rules: Mapping[str, Any] | None, seed: int
) -> dict[str, str]:
    """A tag for every token of the game (`Game.tokens`), its UID made up from `seed`:
    a virtual table enrols nothing. NTAG-like 7-byte UIDs, as a box of stickers gives."""
    rng = random.Random(f"virtual tags:{seed}")
    tags: dict[str, str] = {}
    for _, kind in game.tokens(setup_seats, rules):
        uid = "04" + rng.randbytes(6).hex().upper()
        while uid in tags:
            uid = "04" + rng.randbytes(6).hex().upper()
        tags[uid] = kind
    return tags


def virtual_setup(setup: Setup, game: Game) -> Setup:
    """`setup` as a virtual table plays it: its tokens' tags made up (`made_up_tags`),
    marked `virtual` (docs/journal.md)."""
    from dataclasses import replace

    tags = made_up_tags(game, len(setup.seats), setup.rules, setup.seed)
    return replace(setup, tags=tags, virtual=True)
