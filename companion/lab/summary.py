"""From games to the figures of a variant: what the report shows and exports. A lab run
gives each variant's tally (`companion.lab.tally`, counted in the workers); journals and
tests give records, tallied here."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from companion.cli_words import numeral
from companion.lab.model import GameRecord, LabGame, Variant
from companion.lab.stats import Estimate, Samples, clustered_rate, mean_ci, ratio_ci, wilson
from companion.lab.tally import (
    BRANCHING,
    COMEBACKS,
    DECIDED,
    DECISIONS,
    GAME,
    INTEREST,
    LEAD_CHANGES,
    Slot,
    Tally,
    Value,
    slots,
    tally,
)
from companion.lab.words import say, shown

__all__ = [  # the figures' names, said where the report reads them
    "BRANCHING", "COMEBACKS", "DECIDED", "DECISIONS", "GAME", "INTEREST", "LEAD_CHANGES",
]  # fmt: skip


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


# ------------------------------------------------------------------ numbers in words


def number(value: float, rate: bool = False) -> str:
    """A figure's value as the report shows it ("26.1 %", "3.42"; in French "26,1 %")."""
    if math.isnan(value):
        return "–"
    if rate:
        small = 1e-12 < value < 0.01  # "0.04 %", not "0.0 %": the upper bound of a rare case
        return numeral(100 * value, ".2f" if small else ".1f") + " %"
    return numeral(value, ",.2f" if abs(value) < 100 else ",.1f")


def interval(figure: Figure) -> str:
    """ "26.1 % [25.2–27.0]": the value and its 95 % interval."""
    e = figure.estimate
    value = number(e.value, figure.rate)
    if math.isnan(e.value) or e.low == e.high:
        return value
    return f"{value} [{number(e.low, figure.rate)}–{number(e.high, figure.rate)}]"


def figure_name(f: Figure) -> str:
    """The figure as the comparisons name it: "wins, seat 1 (Seats)"."""
    label = shown(f.label)
    what = label if f.seat is None else say("seat", label=label, seat=f.seat + 1)
    return say("figure_name", what=what, section=shown(f.section))


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
    lengths: Counter[int]
    """Decisions per game (`decisions_of`), for the distribution plot."""
    manche_turns: Counter[int]
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
    """The figures of a variant from its games' records (with their samples, game by
    game, in the records' order)."""
    return figures_of(lab, variant, tally(lab, variant.players, records, ordered=True), source)


def figures_of(lab: LabGame, variant: Variant, counted: Tally, source: str = "") -> VariantFigures:
    """The figures of a variant from its games' tally (`companion.lab.tally`): a figure's
    `samples` are kept where the tally is `ordered`."""
    found = slots(lab, variant.players)
    figures: list[Figure] = []
    interest: list[Figure] = []
    lengths: Counter[int] = Counter()
    decided: list[float] = []
    scored = False  # a game keeps a score: the lead's figures
    for number, slot in enumerate(found):
        values = counted.of(number)
        if slot.section == INTEREST:
            scored = scored or (slot.label == LEAD_CHANGES and bool(values))
            if not (values if slot.label == BRANCHING else scored):
                continue
            interest.append(_figure(slot, values, counted.ordered))
            if slot.label == DECIDED:
                decided = [float(v) for v in values]  # type: ignore[arg-type]
            continue
        figure = _figure(slot, values, counted.ordered)
        figures.append(figure)
        if (slot.section, slot.label) == (GAME, DECISIONS):
            lengths = Counter(round(v) for v in values)  # type: ignore[arg-type]
            length = figure
    if interest:
        figures += [*interest, replace(length, section=INTEREST)]
    n = counted.games
    rulings = [
        RulingFigure(ruling, meaning, wilson(games, n), times)
        for ruling, meaning in lab.rulings.items()
        for games, times in [counted.rulings.get(ruling, (0, 0))]
    ]
    return VariantFigures(
        variant=variant,
        games=n,
        finished=counted.finished,
        figures=figures,
        rulings=rulings,
        notes=list(lab.notes(variant)),
        lengths=lengths,
        manche_turns=counted.manche_turns,
        manche=lab.manche,
        source=source or say("bot_games", n=n),
        decided=decided,
    )


def _figure(slot: Slot, values: Sequence[Value], ordered: bool) -> Figure:
    """A slot's figure from its games' values (its samples kept when in game order)."""
    if slot.kind in ("rate", "ratio"):
        pairs = cast(Sequence[tuple[float, float]], values)
        parts = Samples(tuple(h for h, _ in pairs), tuple(t for _, t in pairs))
        if slot.kind == "rate":
            estimate, rate = clustered_rate(parts.values, parts.trials or ()), True
        else:
            estimate, rate = ratio_ci(parts.values, parts.trials or ()), False
    else:
        parts = Samples(cast(tuple[float, ...], tuple(values)))
        if slot.kind == "share":
            estimate, rate = wilson(math.fsum(parts.values), len(parts.values)), True
        else:
            estimate, rate = mean_ci(parts.values), slot.percent
    return Figure(slot.section, slot.label, estimate, slot.seat, rate,
                  parts if ordered else None)  # fmt: skip


NEVER_BOUND = 0.05
"""A ruling that never applied is a finding once the games bound it below 5 % of games
(about 75 games); in fewer, "never" says nothing."""


def never_applied(figures: VariantFigures) -> list[RulingFigure]:
    """The rulings whose special case never applied, in enough games to say so."""
    return [r for r in figures.rulings if r.times == 0 and r.games.high < NEVER_BOUND]
