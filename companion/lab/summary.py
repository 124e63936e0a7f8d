"""From game records to the figures of a variant: what the report shows and exports."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.lab.interest import branching, comeback, decided_at, lead_changes
from companion.lab.model import GameRecord, LabGame, Mean, PerSeat, Rate, Variant
from companion.lab.stats import Estimate, Samples, clustered_rate, mean_ci, ratio_ci, wilson

GAME = "Game"
"""The section every game has: wins and lengths."""
DECISIONS = "decisions per game"
"""The game's length: its seats' decisions (`decisions_of`)."""
INTEREST = "Interest"
"""The section of Browne's measures (`interest_figures`)."""
LEAD_CHANGES = "lead changes per game"
DECIDED = "winner leads for good from (% of game)"
COMEBACKS = "comebacks (winner behind past the middle)"
BRANCHING = "legal choices per move"


@dataclass(frozen=True)
class Figure:
    """One line of the report: a figure of a section, for one seat or for the game."""

    section: str
    label: str
    estimate: Estimate
    seat: int | None = None
    rate: bool = False
    """A proportion (shown as a percentage) rather than a mean."""
    samples: Samples | None = field(default=None, compare=False, repr=False)
    """The figure game by game (`report --against` tests people against bots with them)."""


@dataclass(frozen=True)
class RulingFigure:
    """How often a ruling's special case applied."""

    ruling: str
    meaning: str
    games: Estimate
    """The share of games where it applied at least once."""
    times: int
    """How many times it applied, in all games."""


@dataclass
class VariantFigures:
    """Everything the report says about one variant (or one group of real games)."""

    variant: Variant
    games: int
    finished: int
    figures: list[Figure]
    rulings: list[RulingFigure]
    notes: list[str]
    lengths: list[int]
    """Decisions per game (`decisions_of`), for the distribution plot."""
    manche_turns: list[int]
    """Turns of every manche, for the distribution plot."""
    manche: str = "manche"
    source: str = ""
    """Where the games come from ("10,000 bot games", "3 journals")."""
    table: list[Figure] = field(default_factory=list)
    """What only a real table has (time per turn, faults): journal reports only."""
    differences: list[str] = field(default_factory=list)
    """Where a group of real games differs from the bots' figures on the same game
    (`companion report --against`), a sentence each."""
    apart: list[tuple[Figure, Figure, str]] = field(default_factory=list)
    """The same differences as figures: (people's, the bots', the bots' variant), for the
    plot."""
    decided: list[float] = field(default_factory=list)
    """For each game with a sole winner and a score, the share of the game after which the
    winner led for good (`interest.decided_at`), for the interest plot."""

    def find(self, section: str, label: str, seat: int | None = None) -> Figure:
        for figure in (*self.figures, *self.table):
            if (figure.section, figure.label, figure.seat) == (section, label, seat):
                return figure
        raise KeyError((section, label, seat))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name,
            "game": self.variant.game,
            "players": self.variant.players,
            "bots": list(self.variant.bots),
            "seed": self.variant.seed,
            "rules": dict(self.variant.rules),
            "source": self.source,
            "games": self.games,
            "finished": self.finished,
            "figures": [_figure_json(f) for f in (*self.figures, *self.table)],
            "rulings": [
                {
                    "ruling": r.ruling,
                    "meaning": r.meaning,
                    "games": r.games.to_json(),
                    "times": r.times,
                }  # fmt: skip
                for r in self.rulings
            ],
            "notes": self.notes,
            "differences": self.differences,
        }


def _figure_json(f: Figure) -> dict[str, Any]:
    return {"section": f.section, "label": f.label, "seat": f.seat, "rate": f.rate,
            **f.estimate.to_json()}  # fmt: skip


def summarize(
    lab: LabGame, variant: Variant, records: Sequence[GameRecord], source: str = ""
) -> VariantFigures:
    """The figures of a variant from its games' records."""
    players = variant.players
    figures = [_share(GAME, "wins", [r.share(s) for r in records], s) for s in range(players)]
    figures.append(_share(GAME, "won by the first player", [r.share(r.first) for r in records]))
    figures.append(_share(GAME, "drawn or unfinished", [float(not r.winners) for r in records]))
    manche_turns = [t for r in records for t in r.manches]
    lengths = [decisions_of(lab, r) for r in records]
    turns = Samples(tuple(float(sum(r.manches)) for r in records),
                    tuple(float(len(r.manches)) for r in records))  # fmt: skip
    figures += [
        _mean(GAME, DECISIONS, lengths),
        _mean(GAME, f"{lab.manche}s per game", [len(r.manches) for r in records]),
        Figure(GAME, f"turns per {lab.manche}", ratio_ci(*_parts(turns)), samples=turns),
    ]
    for section in lab.sections:
        for row in section.rows:
            if isinstance(row, Mean):
                values = [r.counts.get(row.key, 0.0) for r in records]
                figures.append(_mean(section.title, row.label, values))
            elif isinstance(row, Rate):
                rate = Samples(tuple(r.counts.get(row.hits, 0.0) for r in records),
                               tuple(r.counts.get(row.trials, 0.0) for r in records))  # fmt: skip
                estimate = clustered_rate(*_parts(rate))
                figures.append(Figure(section.title, row.label, estimate, rate=True, samples=rate))
            elif isinstance(row, PerSeat):
                for seat in range(players):
                    values = [_seat(r, row.key, seat) for r in records]
                    figures.append(_mean(section.title, row.label, values, seat))
    figures += interest_figures(records, lengths)
    n = len(records)
    rulings = [
        RulingFigure(
            ruling,
            meaning,
            wilson(sum(r.rulings.get(ruling, 0) > 0 for r in records), n),
            sum(r.rulings.get(ruling, 0) for r in records),
        )
        for ruling, meaning in lab.rulings.items()
    ]
    return VariantFigures(
        variant=variant,
        games=n,
        finished=sum(r.finished for r in records),
        figures=figures,
        rulings=rulings,
        notes=list(lab.notes(variant)),
        lengths=lengths,
        manche_turns=manche_turns,
        manche=lab.manche,
        source=source or f"{n:,} bot games",
        decided=[d for r in records if (d := decided_at(r)) is not None],
    )


def interest_figures(records: Sequence[GameRecord], lengths: Sequence[int]) -> list[Figure]:
    """Browne's measures (`companion.lab.interest`), for games that keep a score (their
    records' `leads`) and games whose moves' choices were counted (`choices`)."""
    scored = [r for r in records if r.leads]
    figures = []
    if scored:
        decided = [d for r in scored if (d := decided_at(r)) is not None]
        comebacks = [c for r in scored if (c := comeback(r)) is not None]
        figures += [
            _mean(INTEREST, LEAD_CHANGES, [lead_changes(r.leads) for r in scored]),
            _mean(INTEREST, DECIDED, decided, rate=True),
            _share(INTEREST, COMEBACKS, [float(c) for c in comebacks]),
        ]
    branches = [b for r in records if (b := branching(r)) is not None]
    if branches:
        figures.append(_mean(INTEREST, BRANCHING, branches))
    if figures:
        figures.append(_mean(INTEREST, DECISIONS, lengths))
    return figures


def _mean(
    section: str, label: str, values: Sequence[float], seat: int | None = None, rate: bool = False
) -> Figure:
    """A figure that is a mean over games, with its normal interval."""
    samples = Samples(tuple(float(v) for v in values))
    return Figure(section, label, mean_ci(samples.values), seat, rate, samples)


def _share(section: str, label: str, values: Sequence[float], seat: int | None = None) -> Figure:
    """A share of games (a part of a shared win counted as such), with Wilson's interval."""
    samples = Samples(tuple(values))
    return Figure(section, label, wilson(math.fsum(values), len(values)), seat, True, samples)


def _parts(samples: Samples) -> tuple[Sequence[float], Sequence[float]]:
    return samples.values, samples.trials or ()


def decisions_of(lab: LabGame, record: GameRecord) -> int:
    """A game's decisions: its actions, less those the game says are none (`LabGame.decisions`:
    an OK of a spoken round, a window the clock closed)."""
    return record.actions if lab.decisions is None else lab.decisions(record)


def _seat(record: GameRecord, key: str, seat: int) -> float:
    values = record.seat_counts.get(key, ())
    return values[seat] if seat < len(values) else 0.0


NEVER_BOUND = 0.05
"""A ruling that never applied is a finding once the games bound it below 5 % of games
(about 75 games); in fewer, "never" says nothing."""


def never_applied(figures: VariantFigures) -> list[RulingFigure]:
    """The rulings whose special case never applied, in enough games to say so."""
    return [r for r in figures.rulings if r.times == 0 and r.games.high < NEVER_BOUND]
