"""PassPass's events read into the lab's counts: the record of any game.

`Reader` reads the engine's events as `Event.to_json()` writes them: a refereed table's
journal, in `companion report` (and a game played through the engine's `apply`). The
events carry every public fact, which is all the counts need: it follows the Challenge
tokens (PTI-7: who may call), how many tokens each hat holds (PTI-6) and which turn is
Masqué (PTI-4) from the events alone, and fills the same `Tally` a lab game's board fills
as it plays (tally.py), through the same counting methods. Other kinds are skipped, and
an `undo` takes back the counts of the step it takes back (a step that made no public
fact, docs/table.md "Undo").

Engine actions are counted from the events they make. Two leave none: a timed window
closed by the clock with nobody calling (CloseWindow) is the `place` of a window where
someone could have called and nobody said OK, or, in PhiPassPass, the `announce` that
follows a Doublon window nobody spoke in (PHI-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from companion.games.passpass.rules import RuleSet
from companion.games.passpass.tally import (
    REWARDS,
    SWAPS,
    TOGETHER,
    Edition,
    Tally,
    to_record,
)
from companion.lab.model import GameRecord, Lead

CALLS_TOGETHER = "calls_together"
"""Not an engine event: the referee journals it, and the lab's table path writes it, when
several seats call in one timed window, before the verdict of the call that counts
(PTI-7, PHI-2)."""

BARRIERS = frozenset(("verdict", "place", "reveal", "manche_won", "manche_void", "game_won"))
"""Public facts: an undo never takes back the step that made one, nor anything before."""

_Snapshot = tuple[str, Tally, list[int], dict[int, int], int, bool, int, bool, int, int]


class Reader:
    """Feed it a game's events in order, then ask for the record."""

    def __init__(self, rules: RuleSet, edition: Edition, players: int, first: int) -> None:
        self.rules = rules
        self.edition = edition
        self.first = first
        self.players = players
        self.tally = Tally(players)
        self.tokens = [rules.challenge_tokens] * players
        self.hats: dict[int, int] = {}
        """Tokens in each hat (1-based spot), as every seat can count them."""
        self.magician = first
        self.masque = True  # the first turn, which has no event, is Masqué (PTI-4)
        self.turns = 1  # ... and is a turn of the first manche
        self.swapped = False
        self.oks = 0
        """Seats that said OK in the open window."""
        self.actions = 0
        self.winner: int | None = None
        self.undo: list[_Snapshot] = []
        self.leads: list[Lead] = []
        """Manches won by each seat after each manche won, at the actions played by then
        (kept apart from the tally, whose own a lab game's self-play marks)."""

    def feed(self, events: Iterable[Mapping[str, Any]]) -> Reader:
        for event in events:
            kind = event.get("kind")
            if kind in BARRIERS:
                self.undo.clear()
            handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
            if handler is not None:
                handler(self, event)
        return self

    def record(self) -> GameRecord:
        record = to_record(self.edition, self.tally, self.first, self.winner, self.actions)
        return replace(record, leads=tuple(self.leads))

    # Undo (a referee's journal only)

    def _save(self, step: str) -> None:
        self.undo.append(
            (step, self.tally.copy(), list(self.tokens), dict(self.hats), self.magician,
             self.masque, self.turns, self.swapped, self.oks, self.actions)
        )  # fmt: skip

    def _undo(self, e: Mapping[str, Any]) -> None:
        if not self.undo or self.undo[-1][0] != e.get("step"):
            return  # a held announcement cancelled: nothing was counted
        _, self.tally, self.tokens, self.hats, self.magician, self.masque, self.turns, \
            self.swapped, self.oks, self.actions = self.undo.pop()  # fmt: skip

    # The engine's events

    def _turn(self, e: Mapping[str, Any]) -> None:
        self.turns += 1
        self.magician = e["seat"]
        self.masque = e["masque"]
        self.swapped = False

    def _designate(self, e: Mapping[str, Any]) -> None:
        self._save("designate")
        self.actions += 1
        self.tally.count_designation(self.masque, bool(self.hats.get(e["spot"], 0)))
        self.oks = 0

    def _announce(self, e: Mapping[str, Any]) -> None:
        self._save("announce")
        self.actions += 1
        if self.rules.split_windows and not self.oks:
            self.actions += 1  # PHI-2: the clock closed window 1 (CloseWindow)
        self.oks = 0

    def _ok(self, e: Mapping[str, Any]) -> None:
        self.actions += 1
        self.oks += 1

    def _place(self, e: Mapping[str, Any]) -> None:
        if not self.oks and self._someone_may_call(e["seat"]):
            self.actions += 1  # the clock closed a timed window (CloseWindow)
        spot = e["spot"]
        self.hats[spot] = self.hats.get(spot, 0) + 1

    def _someone_may_call(self, magician: int) -> bool:
        """PTI-7: a seat other than the Magicien with a Challenge token; PHI-1: anyone."""
        if not self.rules.challenge_tokens:
            return self.players > 1
        return any(t > 0 for s, t in enumerate(self.tokens) if s != magician)

    def _verdict(self, e: Mapping[str, Any]) -> None:
        seat, success = e["seat"], bool(e["success"])
        doublon = e["challenge"] == "doublon"
        self.actions += 1
        self.tally.count_verdict(seat, doublon, success, self.masque)
        if doublon and success:
            self.hats[e["spot"]] = 0  # PTI-8: the Magicien takes the hat back
        if not success and self.rules.challenge_tokens:  # PTI-8: the Challenger pays
            self.tokens[seat] -= 1
            self.tokens[e["magician"]] += 1

    def _reward(self, e: Mapping[str, Any]) -> None:
        choice = e["choice"]
        if choice == "none":
            self.tally.counts[REWARDS[choice]] += 1  # part of the verdict's step, not an action
            return
        self._save("reward")
        self.actions += 1
        self.tally.counts[REWARDS[choice]] += 1
        if choice == "drop":
            self.hats[e["spot"]] = self.hats.get(e["spot"], 0) + 1
        else:
            self.tokens[self.magician] -= 1
            self.tokens[e["seat"]] += 1

    def _swap(self, e: Mapping[str, Any]) -> None:
        self._save("swap")
        self.actions += 1
        self.tally.counts[SWAPS] += 1
        a, b = e["spots"]
        self.hats[a], self.hats[b] = self.hats.get(b, 0), self.hats.get(a, 0)
        self.swapped = True

    def _reveal(self, e: Mapping[str, Any]) -> None:
        self.actions += 1
        rich = any(len(hat) > 1 for hat in e["hats"])
        self.tally.count_reveal(bool(e["success"]), self.swapped, rich)

    def _manche_won(self, e: Mapping[str, Any]) -> None:
        wins = self.tally.manche_wins
        wins[e["seat"]] += 1
        self.leads.append(Lead(self.actions, tuple(map(float, wins))))

    def _game_won(self, e: Mapping[str, Any]) -> None:
        self.tally.manches.append(self.turns)
        self.winner = e["seat"]

    def _manche_void(self, e: Mapping[str, Any]) -> None:
        self.tally.count_void(str(e.get("reason", "")).startswith("turn limit"))

    def _manche_start(self, e: Mapping[str, Any]) -> None:
        """PTI-12, PTI-15: hats emptied, everything dealt again, a Masqué first turn."""
        self.tally.manches.append(self.turns)
        self.turns = 0  # its first turn has its own event
        self.hats = {}
        self.tokens = [self.rules.challenge_tokens] * self.players
        self.magician = e["starter"]
        self.masque = True

    def _together(self, e: Mapping[str, Any]) -> None:
        self.tally.counts[TOGETHER] += 1


_HANDLERS = {
    "turn": Reader._turn,
    "designate": Reader._designate,
    "announce": Reader._announce,
    "ok": Reader._ok,
    "place": Reader._place,
    "verdict": Reader._verdict,
    "reward": Reader._reward,
    "swap": Reader._swap,
    "reveal": Reader._reveal,
    "manche_won": Reader._manche_won,
    "game_won": Reader._game_won,
    "manche_void": Reader._manche_void,
    "manche_start": Reader._manche_start,
    "undo": Reader._undo,
    CALLS_TOGETHER: Reader._together,
}
