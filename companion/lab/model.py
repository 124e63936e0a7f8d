"""What the designer's lab knows of a game: the contract each game's lab module fulfils.

A lab run plays variants (a game, its engine settings, the seats and their bots) for many
seeded games and reports figures. The runtime of the lab knows no game: each game gives a
`LabGame` (its descriptor's `lab`), which plays one seeded game on the game's fast path and
turns it into a `GameRecord`, and which reads the same record out of the events a refereed
game journaled, so a lab run and a report of real games show the very same figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.cli_words import said

Said = Mapping[str, tuple[str, str]]
"""Phrases by key, each (French, English)."""


class Lead(NamedTuple):
    """The seats' scores at one moment of a game: where the lead stands (the more, the
    better: a game where less is better gives its scores negated)."""

    at: int
    """The game's actions played by then (`GameRecord.actions` is the whole game's)."""
    scores: tuple[float, ...]
    """One a seat."""


@dataclass(frozen=True)
class Variant:
    """One set of rules and seats to play many games of."""

    name: str
    game: str
    players: int
    bots: tuple[str, ...]
    """The bot kind at each seat (one per seat)."""
    games: int
    seed: int
    rules: Mapping[str, Any] = field(default_factory=dict)
    """Engine settings by the names a table's `[game.rules]` uses; unset ones keep the
    rule book's (or our rulings') values."""


@dataclass
class GameRecord:
    """What one game contributes to the figures. Plain data: equal records mean equal
    games as far as the report can tell. A lab run tallies each record in the worker that
    played it (`companion.lab.tally`) and drops it; `runner.run` sends records back whole."""

    players: int
    first: int
    """The seat that played first."""
    winners: tuple[int, ...]
    """The seats sharing the win; () for a draw or a game that did not finish."""
    finished: bool
    actions: int
    """Engine actions from the deal to the end (every decision of every seat)."""
    manches: tuple[int, ...]
    """Turns in each manche, in order (a game without manches has one)."""
    counts: dict[str, float] = field(default_factory=dict)
    """The game's own figures, by the keys its `sections` name; a missing key is 0."""
    seat_counts: dict[str, tuple[float, ...]] = field(default_factory=dict)
    """Figures kept per seat (challenge calls per seat, pieces left per colour)."""
    rulings: dict[str, int] = field(default_factory=dict)
    """Ruling id (docs/rulings.md) -> times its special case applied in this game; a missing id
    never applied."""
    leads: tuple[Lead, ...] = ()
    """The scores each time they changed, in order (manches won, tokens...): the lead's
    story, which the interest figures read (`companion.lab.interest`). Empty: the game
    keeps no score the lab follows."""
    choices: tuple[int, int] = (0, 0)
    """(legal choices summed over the moves counted, moves counted): the branching factor
    is their quotient. (0, 0) where they were not counted (a journal: the events do not
    say what else a seat could have done)."""

    def share(self, seat: int) -> float:
        """The seat's part of the win: 1, a part of a shared win, or 0 (a draw: 0 to all)."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


@dataclass(frozen=True)
class Mean:
    """A figure's mean per game, with a 95 % confidence interval over games."""

    label: str
    key: str


@dataclass(frozen=True)
class Rate:
    """A proportion pooled over all games (hits / trials), with a Wilson 95 % interval."""

    label: str
    hits: str
    trials: str


@dataclass(frozen=True)
class PerSeat:
    """A per-seat figure's mean per game, for each seat (`GameRecord.seat_counts`)."""

    label: str
    key: str


Row = Mean | Rate | PerSeat


@dataclass(frozen=True)
class Section:
    """A titled group of figures in the report (e.g. "Challenges")."""

    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class ThinkingTable:
    """One game's thinking bot, as the lab plays it."""

    restrictions: Mapping[str, str]
    """Restricted play: name (``mcts:200/never-bluff``) -> what that agent may not do."""
    stand_in: str
    """A kind of the game's own bots, for which the game's `check` reads a thinking seat."""
    play: Callable[[Variant, int], GameRecord]
    """Game `index` of a variant seating thinking bots, on the readable engine."""


class Refusal(ValueError):
    """A variant a game's lab cannot play: one sentence in the command line's language,
    naming the setting, and the kind of mistake (its words' key: ``unknown_rule``,
    ``whole``...), which a script or a test reads whatever the language."""

    def __init__(self, kind: str, sentence: str) -> None:
        super().__init__(sentence)
        self.kind = kind


@dataclass(frozen=True)
class LabWords:
    """A game's words in the lab, each (French, English): the catalogue gets them when the
    lab loads the game's part (`companion.lab.variants.load_lab`), never on import, and
    refuses a key another game says differently."""

    owner: str
    """Its sentences' keys are ``cli.lab.<owner>.<key>`` (the editions of one game, which
    share a lab module, share an owner)."""
    names: Said = field(default_factory=dict)
    """The names of its figures, sections, rulings and restrictions as the game's lab
    gives them (English, the key figures.json writes) -> their words in the report
    (`companion.lab.words.shown`)."""
    sentences: Said = field(default_factory=dict)
    """Its facts of a variant (`LabGame.notes`) and its own refusals, by key."""

    def say(self, key: str, /, **fields: object) -> str:
        """The sentence `key`, filled in, in the command line's language."""
        return said(f"cli.lab.{self.owner}.{key}", **fields)

    def refusal(self, key: str, /, **fields: object) -> Refusal:
        """The refusal `key` of a variant, to raise."""
        return Refusal(key, self.say(key, **fields))


@dataclass(frozen=True)
class LabGame:
    """One game's part of the lab."""

    game: str
    """The game's registry name."""
    rulings: Mapping[str, str]
    """Ruling id -> its special case in a few words, for every ruling the lab counts
    (the report lists each, with how often it applied, and flags those that never did)."""
    sections: tuple[Section, ...]
    check: Callable[[Variant], None]
    """Raises ValueError (one sentence naming the setting, in the command line's language:
    a `Refusal`) for a variant the game cannot play: seat count, bot kinds, unknown or bad
    rules keys."""
    play: Callable[[Variant, int], GameRecord]
    """Game `index` of the variant, on the fast path. Seeded from (variant.seed, index)
    alone, so a game gives the same record in any process and in any order; the first
    seat rotates with the index."""
    record_of: Callable[[int, int, Iterable[Mapping[str, Any]]], GameRecord]
    """(players, first seat, JSON events) -> the record. Reads the engine's own events as
    `Event.to_json()` writes them (and as a referee journals them, with other kinds mixed
    in that it skips), so a refereed game is measured like a played one."""
    turn_kinds: frozenset[str] = frozenset()
    """Event kinds that start a turn (the journal report times turns between them)."""
    decision_kinds: frozenset[str] = frozenset()
    """Event kinds that are a person's decision (the report times the wait before each)."""
    notes: Callable[[Variant], Sequence[str]] = lambda variant: ()
    """Facts the rules' arithmetic makes certain for this variant (e.g. cards dealt against
    places to play them), shown next to the figures they explain."""
    manche: str = "manche"
    """What the game calls the unit `GameRecord.manches` counts (e.g. "phase")."""
    decisions: Callable[[GameRecord], int] | None = None
    """The decisions of a game (a choice a seat made), where its actions count more: an
    engine may count as an action a seat letting a moment go by (each OK of a spoken round,
    a window the clock closed), which would make the same game look longer under one rule
    of how that moment ends than under another. None: every action is one."""
    thinking: Callable[[], ThinkingTable] | None = None
    """The game's thinking bot (`companion.lab.thinking.extend`), loaded on demand: its
    restrictions for restricted play; None for a game with none."""
    words: LabWords | None = None
    """Its names and sentences in French and English; None: a game that speaks one
    language, whose names are shown as they are."""
