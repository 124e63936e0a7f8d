"""Whole games on the fast core: bots' self-play (the lab's) and uniformly random playouts.

`play_bots` is `selfplay.play_game` with its bots made by `make_bot` and seeded
`random.Random(f"{seed}:{index}:{seat}")`: the same seat is asked the same question, with
the same draws, at the same moment. A TIMED window asks every seat that may call; of the
calls that come together the first clockwise from the Magicien's left counts (PTI-7,
PHI-2), and silence closes the window.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.passpass.fast import figures as F
from companion.games.passpass.fast.bots import make_fast_bot
from companion.games.passpass.fast.core import (
    ANNOUNCE,
    OVER,
    PLACE,
    REVEAL,
    WINDOW,
    FastGame,
)
from companion.games.passpass.fast.tally import TOGETHER
from companion.games.passpass.rules import Config

MAX_ACTIONS = 1_000_000
"""A game still going after this many actions is unfinished (random seats can call for
ever)."""


def play_bots(
    config: Config,
    kinds: tuple[str, ...],
    seed: int,
    index: int,
    max_actions: int = MAX_ACTIONS,
    log: list[dict[str, Any]] | None = None,
) -> tuple[FastGame, int]:
    """Game `index` of a self-play run: the final position and the actions played. `log`
    receives the events as JSON, with a `calls_together` record where calls came together
    (as `play_reference` writes them)."""
    g = FastGame(config, log)
    bots = [
        make_fast_bot(kind, random.Random(f"{seed}:{index}:{seat}"), seat)
        for seat, kind in enumerate(kinds)
    ]
    actions = 0
    choices = g.figures.choices
    manche_wins = g.figures.manche_wins
    while g.phase != OVER and actions < max_actions:
        phase = g.phase
        if phase == WINDOW:
            speaker = g.speaker
            if speaker >= 0:  # ROUND: the seat whose turn it is to speak
                challenge = bots[speaker].window(g, speaker)
                if challenge:
                    g.call(speaker, challenge)
                else:
                    g.ok()
            else:  # TIMED: everyone who may call is asked; each draws from its own rng
                calls = [(s, c) for s in g.eligible() if (c := bots[s].window(g, s))]
                if not calls:
                    g.close()
                else:
                    if len(calls) > 1:
                        g.figures.counts[F.TOGETHER] += 1
                        if log is not None:
                            seats = sorted(s for s, _ in calls)
                            log.append({"kind": TOGETHER, "seats": seats, "counted": calls[0][0]})
                    g.call(*calls[0])  # eligible() is clockwise from the Magicien's left
        else:
            choices[0] += len(g.legal())
            choices[1] += 1
            if phase == PLACE:
                code = bots[g.magician].place(g)
                g.designate(code // 3, code % 3)
            elif phase == ANNOUNCE:
                g.announce(bots[g.magician].announce(g))
            elif phase == REVEAL:
                m = g.magician
                won = manche_wins[m]
                g.apply(bots[m].reveal(g))
                if manche_wins[m] != won:
                    g.figures.manche_won(actions + 1)
            else:
                g.apply(bots[g.challenger].reward(g))
        actions += 1
    return g, actions


def random_playout(g: FastGame, rng: random.Random, max_actions: int = MAX_ACTIONS) -> int:
    """Play `rng.choice(legal)` until the game ends; returns the actions played. The same
    draws as the readable `apply(state, rng.choice(legal_actions(state)))` loop."""
    getrandbits = rng.getrandbits
    legal = g.legal
    apply = g.apply
    steps = 0
    while g.phase != OVER and steps < max_actions:
        codes = legal()
        n = len(codes)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        apply(codes[r])
        steps += 1
    return steps


__all__ = ["MAX_ACTIONS", "play_bots", "random_playout"]
