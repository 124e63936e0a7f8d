"""People against bots: a playtest's figures beside the lab's on the same game.

`companion report JOURNAL... --against LAB.toml` plays the lab file's variants and sets
each group of real games beside the variants of its game and seat count: the report's
tables then show them column by column, and for each figure where people and bots differ
beyond chance (a two-sample test at the 5 % level: pooled two-proportion for a share, z for
a mean) one sentence says which way and by how much. A difference the test cannot tell
from chance says nothing either way: few journals leave only large differences to show.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.lab.stats import differ
from companion.lab.summary import DECISIONS, INTEREST, Figure, VariantFigures


def beside(
    people: Sequence[VariantFigures], bots: Sequence[VariantFigures]
) -> list[VariantFigures]:
    """Every group of real games followed by the lab's variants of its game and seat
    count, each people's group told where it differs from them (`differences`); then the
    lab's variants no group matched."""
    placed: list[VariantFigures] = []
    used: set[int] = set()
    for group in people:
        placed.append(group)
        if _played_by_bots(group):
            continue
        for number, variant in enumerate(bots):
            if (variant.variant.game, variant.variant.players) == (
                group.variant.game,
                group.variant.players,
            ):
                group.differences += differences(group, variant)
                pairs = _apart_figures(group, variant)
                group.apart += [(f, b, variant.variant.name) for f, b in pairs]
                if number not in used:
                    placed.append(variant)
                    used.add(number)
    placed += [v for number, v in enumerate(bots) if number not in used]
    return placed


def _played_by_bots(group: VariantFigures) -> bool:
    return "people" not in group.variant.bots


def differences(people: VariantFigures, bots: VariantFigures) -> list[str]:
    """One sentence per figure where people and bots differ beyond chance (`stats.differ`)."""
    from companion.lab.report import interval

    said = []
    for f, b in _apart_figures(people, bots):
        way = "more" if f.estimate.value > b.estimate.value else "less"
        said.append(
            f"{name(f)}: people {interval(f)}, bots ({bots.variant.name}) {interval(b)}; "
            f"people {way}, beyond chance (5 % test)"
        )
    if not said:
        said.append(
            f"no figure of {people.games:,} real games differs from the bots' "
            f"({bots.variant.name}) beyond chance (5 % test)"
        )
    return said


def _apart_figures(people: VariantFigures, bots: VariantFigures) -> list[tuple[Figure, Figure]]:
    """(people's figure, the bots' same figure) wherever they differ beyond chance."""
    found = []
    for f in people.figures:
        if (f.section, f.label) == (INTEREST, DECISIONS):
            continue  # the Game section's figure, said there
        try:
            b = bots.find(f.section, f.label, f.seat)
        except KeyError:
            continue
        if differ(f.estimate, b.estimate, f.rate):
            found.append((f, b))
    return found


def name(f: Figure) -> str:
    what = f.label if f.seat is None else f"{f.label}, seat {f.seat + 1}"
    return f"{what} ({f.section})"
