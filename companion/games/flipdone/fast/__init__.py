"""Flip Done's fast path for the lab: a mutable engine (`core`), today's bots on it
(`bots`), and the counters (`tally`) that both it and the reader of a game's events
(`reader`, for the readable engine's games and refereed journals) fill.

`play_game` plays the very game `companion.games.flipdone.bots.play_game` plays with the same
config, seed and bots' random generators, and returns its tally. The readable engine in
`companion.games.flipdone.rules` stays the reference: tests/lab/test_flipdone.py checks this
path against it game by game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.flipdone.fast.bots import KINDS
from companion.games.flipdone.fast.core import FastGame
from companion.games.flipdone.fast.tally import Tally
from companion.games.flipdone.rules.config import SQUARES, Config


def play_game(
    config: Config, seed: int, kinds: Sequence[str], rngs: Sequence[random.Random]
) -> Tally:
    """One whole game: seat s plays bot `kinds[s]` drawing from `rngs[s]`."""
    game = FastGame(config, seed)
    bots = [KINDS[kind] for kind in kinds]
    tally = game.tally
    while not game.over:
        seat = game.turn
        tally.mark(game.tokens)
        tally.choices[0] += _choices(game)
        tally.choices[1] += 1
        game.play(bots[seat](game, rngs[seat]))
    tally.mark(game.tokens)
    return tally


def _choices(game: FastGame) -> int:
    """How many plays `game.legal()` lists, without listing them (the lab counts them at
    every play: the branching factor)."""
    if game.placing:
        return SQUARES
    return len(game.hands[game.turn]) * (len(game.free) + len(game.flippable) + 1)
