"""People against bots: a playtest's figures beside the lab's on the same game.

`companion report JOURNAL... --against LAB.toml` plays the lab file's variants and sets
each group of real games beside the variants of its game and seat count: the report's
tables show them column by column, and one sentence says each figure where people and bots
differ beyond chance. How a difference is told, so that the report does not cry wolf:

- The game is the unit. Each figure is compared game by game (a rate of events, such as
  the share of challenges that succeed, by its events' sums per game: events of one game
  go together), by a permutation test of Welch's statistic (`stats.permutation_test`),
  which holds its level at any number of games.
- The report compares many figures, so it controls the false discovery rate over all the
  figures it compares (Benjamini and Hochberg 1995, at `FDR`): of the differences it
  says, at most 5 % are expected to be chance; with no real difference at all, a report
  says one with a chance of 5 % at most.
- Few games can only show large differences. The stated size is one standard deviation of
  a game's figure among the bots' games (a difference that large is the table playing
  another game; half of it would need four times the games): below the games that would
  see it 4 times in 5 at the strictest level the correction may ask (5 % over the number of
  figures), the report says the games are too few to tell, rather than "no difference".
- Only real games are people: journals of bot games (`companion demo`) or typed at the
  simulated table (`companion play --sim`) are shown in groups of their own, not compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.lab.stats import (
    RESAMPLES,
    benjamini_hochberg,
    detectable,
    games_needed,
    permutation_test,
    relabellings,
)
from companion.lab.summary import (
    DECISIONS,
    INTEREST,
    Figure,
    VariantFigures,
    figure_name,
    interval,
)
from companion.lab.words import say

FDR = 0.05
"""The false discovery rate the report keeps over the figures it compares."""
SIZE = 1.0
"""The stated difference, in standard deviations of a game's figure among the bots' games."""
SEED = 0
"""The permutations' seed: the same journals and lab file give the same report."""


@dataclass
class Comparison:
    """One group of real games against one variant of bots: the figures both have."""

    people: VariantFigures
    bots: VariantFigures
    pairs: list[tuple[Figure, Figure]]
    """(people's figure, the bots' same figure), each with its games' samples."""
    pvalues: list[float]


def beside(
    people: Sequence[VariantFigures], bots: Sequence[VariantFigures]
) -> list[VariantFigures]:
    """Every group of real games followed by the lab's variants of its game and seat
    count, each people's group told where it differs from them (`differences`); then the
    lab's variants no group matched."""
    placed: list[VariantFigures] = []
    used: set[int] = set()
    comparisons = []
    for group in people:
        placed.append(group)
        if not of_people(group):
            continue
        for number, variant in enumerate(bots):
            if (variant.variant.game, variant.variant.players) == (
                group.variant.game,
                group.variant.players,
            ):
                comparisons.append(compare(group, variant))
                if number not in used:
                    placed.append(variant)
                    used.add(number)
    tell(comparisons)
    placed += [v for number, v in enumerate(bots) if number not in used]
    return placed


def of_people(group: VariantFigures) -> bool:
    """Whether a group's games were played by people at a real table."""
    return "people" in group.variant.bots


def compare(people: VariantFigures, bots: VariantFigures, resamples: int = RESAMPLES) -> Comparison:
    """Each figure both sides have, tested game by game (`stats.permutation_test`)."""
    import numpy as np

    draws = relabellings(np.random.default_rng(SEED), resamples)
    pairs, pvalues = [], []
    for f in people.figures:
        if (f.section, f.label) == (INTEREST, DECISIONS):
            continue  # the Game section's figure, said there
        try:
            b = bots.find(f.section, f.label, f.seat)
        except KeyError:
            continue
        if f.samples is None or b.samples is None:
            continue
        pairs.append((f, b))
        pvalues.append(permutation_test(f.samples, b.samples, draws))
    return Comparison(people, bots, pairs, pvalues)


def tell(comparisons: Sequence[Comparison]) -> None:
    """The differences found over all `comparisons` at once (one false-discovery
    correction for the whole report), said in each people's group: a sentence per
    figure that differs, then what the games could and could not tell."""
    tested = sum(len(c.pvalues) for c in comparisons)
    found = iter(benjamini_hochberg([p for c in comparisons for p in c.pvalues], FDR))
    strictest = FDR / max(tested, 1)
    for c in comparisons:
        apart = [(f, b, p) for (f, b), p in zip(c.pairs, c.pvalues, strict=True) if next(found)]
        c.people.differences += [_differs(f, b, p, c.bots, tested) for f, b, p in apart]
        c.people.differences.append(_the_rest(c, bool(apart), strictest))
        c.people.apart += [(f, b, c.bots.variant.name) for f, b, _ in apart]


def _differs(f: Figure, b: Figure, p: float, bots: VariantFigures, tested: int) -> str:
    way = say("more" if f.estimate.value > b.estimate.value else "less")
    return say("differs", figure=figure_name(f), people=interval(f), bots=bots.variant.name,
               theirs=interval(b), way=way, p=p, fdr=round(100 * FDR),
               tested=tested)  # fmt: skip


def _the_rest(c: Comparison, some: bool, level: float) -> str:
    """What the figures not said to differ mean: no difference of the stated size, or too
    few games to tell."""
    m, n = c.people.games, c.bots.games
    other = say("other") if some else ""
    bots = c.bots.variant.name
    needed = games_needed(n, level, SIZE)
    if needed is None:
        return say("bots_too_few", n=n, bots=bots)
    if m < needed:
        said = say("too_few" if m > 1 else "too_few_one", m=m, bots=bots, other=other,
                   needed=needed)  # fmt: skip
        if m < 2:
            return said
        return say("seen_only", said=said, m=m, seen=detectable(1.0, m, n, level))
    return say("no_difference", other=other, m=m, bots=bots)
