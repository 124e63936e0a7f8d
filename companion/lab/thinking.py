"""The thinking bot in the lab: variants may seat ``mcts`` bots in any game that has one.

A game offers its thinking bot by building its lab with `extend(lab, table)`, `table`
giving its `ThinkingTable` on demand: the restrictions it knows (restricted play) and how
it plays a game whose seats include thinking bots. Those games are played on the
readable engine, as the table's referee plays them (the search dominates the time
anyway), and measured from their events by the game's own `record_of`, so their figures
are the lab's usual ones; games with no thinking bot keep the fast path. Game i still
depends on (seed, i) alone: each thinking bot draws from its own RNG, seeded like the
seat's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache

from companion.lab.mcts import parse_kind
from companion.lab.model import GameRecord, LabGame, ThinkingTable, Variant


def thinks(variant: Variant) -> bool:
    """Whether a variant seats a thinking bot."""
    return _thinks(variant.bots)


@cache
def _thinks(bots: tuple[str, ...]) -> bool:
    """`thinks`, asked at every game of a variant: its seats' answer kept."""
    return any(parse_kind(kind) is not None for kind in bots)


def extend(lab: LabGame, load: Callable[[], ThinkingTable]) -> LabGame:
    """The game's lab, its variants allowed to seat thinking bots (the game's thinking
    module is imported only when a variant names one)."""

    def check(variant: Variant) -> None:
        if not thinks(variant):
            lab.check(variant)
            return
        table = load()
        for kind in variant.bots:
            spec = parse_kind(kind)
            restriction = None if spec is None else spec.restriction
            if restriction is not None and restriction not in table.restrictions:
                from companion.cli_words import said
                from companion.report_words import THINKING_SAYS

                known = ", ".join(table.restrictions) or said("cli.none")
                raise ValueError(THINKING_SAYS.say("unknown", kind=repr(kind),
                                                   restriction=repr(restriction),
                                                   game=variant.game, known=known))  # fmt: skip
        plain = tuple(table.stand_in if parse_kind(k) else k for k in variant.bots)
        lab.check(dataclasses.replace(variant, bots=plain))

    def play(variant: Variant, index: int) -> GameRecord:
        return load().play(variant, index) if thinks(variant) else lab.play(variant, index)

    return dataclasses.replace(lab, check=check, play=play, thinking=load)
