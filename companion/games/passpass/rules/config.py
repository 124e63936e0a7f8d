"""The two rule sets (PtiPassPass, PhiPassPass) and the frozen config of one game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.passpass.rules.layouts import Layout, LayoutError, default_layout
from companion.rules.errors import BadInput

Hand = tuple[str, ...]
"""A multiset of token kinds, kept sorted so equal contents compare equal."""


class Phase(StrEnum):
    PLACE = "place"
    ANNOUNCE = "announce"
    WINDOW = "window"
    REWARD = "reward"
    REVEAL = "reveal"
    OVER = "over"


class Challenge(StrEnum):
    DOUBLON = "doublon"
    MENTEUR = "menteur"


class WindowMode(StrEnum):
    ROUND = "round"
    """PTI-7: each seat speaks once, clockwise from the Magicien's left; the first call ends it."""
    TIMED = "timed"
    """PTI-7 (configurable): silence means OK; the table's clock closes the window."""


class Starter(StrEnum):
    """Who starts the next manche (PTI-12, configurable)."""

    LEFT_OF_WINNER = "left_of_winner"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """What differs between the two editions; one frozen value, never `if game == ...`."""

    name: str
    tokens: tuple[str, ...]
    min_players: int
    max_players: int
    challenge_tokens: int
    """Challenge tokens dealt per player and manche; 0 means anyone may call, free (PHI-1)."""
    visible_turns: bool
    """PTI-4: even tours are Visible. PHI-1: every placement is hidden."""
    split_windows: bool
    """PHI-2: a Doublon window after the designation, a Menteur window after the announce."""
    reward: bool
    """PTI-10: a successful Challenger chooses a reward. PHI-5: no reward."""


PTIPASSPASS = RuleSet(
    name="ptipasspass",
    tokens=("colombe", "lapin", "souris"),
    min_players=2,
    max_players=6,
    challenge_tokens=2,
    visible_turns=True,
    split_windows=False,
    reward=True,
)
PHIPASSPASS = RuleSet(
    name="phipasspass",
    tokens=("bleu", "orange", "vert"),
    min_players=3,
    max_players=6,
    challenge_tokens=0,
    visible_turns=False,
    split_windows=True,
    reward=False,
)
RULESETS: dict[str, RuleSet] = {r.name: r for r in (PTIPASSPASS, PHIPASSPASS)}

VICTORIES_TO_WIN = 2  # PTI-1


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for a whole game. Checked once, here."""

    rules: RuleSet
    players: int
    layout: Layout
    first: int = 0
    """PTI-13: the seat the table names as first player."""
    window: WindowMode = WindowMode.ROUND
    next_starter: Starter = Starter.LEFT_OF_WINNER
    turn_limit: int | None = None
    """PTI-15 (configurable): a manche with this many turns is void. None: no limit."""

    def __post_init__(self) -> None:
        _check_players(self.rules, self.players)
        if not 0 <= self.first < self.players:
            raise BadInput(f"first player must be a seat 0..{self.players - 1}, not {self.first}")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise BadInput(f"turn_limit must be at least 1 or None, not {self.turn_limit}")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.rules.name,
            "players": self.players,
            "layout": self.layout.to_json(),
            "first": self.first,
            "window": str(self.window),
            "next_starter": str(self.next_starter),
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return make_config(
            data["game"],
            data["players"],
            layout=Layout.from_json(data["layout"]),
            first=data.get("first", 0),
            window=data.get("window", WindowMode.ROUND),
            next_starter=data.get("next_starter", Starter.LEFT_OF_WINNER),
            turn_limit=data.get("turn_limit"),
        )


def _check_players(rules: RuleSet, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise BadInput(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}"
        )


def make_config(
    game: str | RuleSet,
    players: int,
    *,
    layout: Layout | None = None,
    first: int = 0,
    window: str = WindowMode.ROUND,
    next_starter: str = Starter.LEFT_OF_WINNER,
    turn_limit: int | None = None,
) -> Config:
    """Build a Config from plain values, with a clear error for each bad one."""
    rules = game if isinstance(game, RuleSet) else RULESETS.get(game)
    if rules is None:
        raise BadInput(f"unknown game {game!r}; choose one of {', '.join(RULESETS)}")
    try:
        window_mode = WindowMode(window)
        starter = Starter(next_starter)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    _check_players(rules, players)
    try:
        chosen_layout = layout or default_layout(players)
    except LayoutError as exc:
        raise BadInput(str(exc)) from exc
    return Config(rules, players, chosen_layout, first, window_mode, starter, turn_limit)
