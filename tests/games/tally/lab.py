"""Tally's part of `companion lab`: a rule `pebbles` (how many each seat drops) and one
figure, played by the engine itself, so the lab is shown to run a game it has never heard
of."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.lab.model import GameRecord, LabGame, Mean, Section, Variant

from .rules.engine import NAME, PEBBLES, Config, apply, legal_actions, new_game


def pebbles(variant: Variant) -> int:
    value = variant.rules.get("pebbles", PEBBLES)
    if set(variant.rules) - {"pebbles"} or not isinstance(value, int) or value < 1:
        raise ValueError(f"{NAME}'s only rule is pebbles, a whole number from 1")
    return value


def check_variant(variant: Variant) -> None:
    pebbles(variant)
    if set(variant.bots) - {"any"}:
        raise ValueError(f"{NAME}'s only bot is any")


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index`: the engine's only legal drop, until someone wins."""
    first = index % variant.players
    state, opening = new_game(Config(variant.players, first, pebbles(variant)), index)
    events = [e.to_json() for e in opening]
    while actions := legal_actions(state):
        state, happened = apply(state, actions[0])
        events += [e.to_json() for e in happened]
    return record_of(variant.players, first, events)


def record_of(players: int, first: int, events: Iterable[Mapping[str, Any]]) -> GameRecord:
    events = list(events)
    dropped = [e for e in events if e.get("kind") == "pebble"]
    won = [e["seat"] for e in events if e.get("kind") == "game_won"]
    return GameRecord(players, first, tuple(won), bool(won), len(dropped),
                      (len(dropped),), {"pebbles": len(dropped)}, {},
                      {"TALLY-1": len(won)})  # fmt: skip


def lab() -> LabGame:
    return LabGame(
        game=NAME,
        rulings={"TALLY-1": "a seat drops its last pebble"},
        sections=(Section("Pebbles", (Mean("pebbles dropped per game", "pebbles"),)),),
        check=check_variant,
        play=play,
        record_of=record_of,
        turn_kinds=frozenset({"pebble", "passed"}),
        decision_kinds=frozenset({"pebble", "passed"}),
    )
