"""The fast path and the readable engine in one form, for the contract test that holds one
to the other step by step (tests/lab/test_fast_equals_engine.py, docs/lab.md).

The common form of an action is the fast path's (seat, offer) (`offer_of` reads a readable
action so); the common form of a position is the readable `State` (`to_state` builds the
fast position's).
"""

from __future__ import annotations

from companion.games.swiped.fast.game import (
    CLAIM_CARD,
    CLAIM_MATCHES,
    EXECUTE,
    OVER,
    PROGRAM,
    PROGRAM_SWAP,
    SWAP,
    Offer,
    Table,
)
from companion.games.swiped.fast.tables import COLOUR_INDEX, SWAPS
from companion.games.swiped.rules.actions import Action, ClaimCard, ClaimMatches, Program, Swap
from companion.games.swiped.rules.config import COLOURS, Config, Pair, Phase
from companion.games.swiped.rules.engine import PAIRS
from companion.games.swiped.rules.state import State

PHASES = {PROGRAM: Phase.PROGRAM, EXECUTE: Phase.EXECUTE, OVER: Phase.OVER}


def offer_of(action: Action) -> tuple[int, Offer]:
    """The fast path's (seat, offer) of a readable action (a SEEDED deal: the fast path
    draws its own cards and skips repeated pairs itself, so it has no draw and no
    SkipSwap)."""
    if isinstance(action, Program | Swap):
        kind = PROGRAM_SWAP if isinstance(action, Program) else SWAP
        return action.seat, (kind, SWAPS.index((COLOUR_INDEX[action.a], COLOUR_INDEX[action.b])))
    if isinstance(action, ClaimMatches):
        return action.seat, (CLAIM_MATCHES, 0)
    if isinstance(action, ClaimCard):
        return action.seat, (CLAIM_CARD, action.card)
    raise ValueError(f"the fast path draws its own cards: no {action.name} (SW-2, seeded)")


def to_state(table: Table, config: Config, seed: int) -> State:
    """The readable State of a fast position (`config` and `seed`: the game's, which the
    fast path keeps as its Settings and its draw)."""
    revealed = table.revealed
    phase_pair: Pair | None = None
    if revealed is not None and table.step % 2 == 1:  # SW-4: a phase's first swap is done
        seat, phase = table.order[table.step - 1]
        phase_pair = PAIRS[revealed[seat][phase - 1]]
    return State(
        config=config,
        seed=seed,
        manche=table.manche,
        phase=PHASES[table.phase],
        layout_card=table.layout,
        grid=tuple(COLOURS[c] for c in table.cells),
        revealed=None if revealed is None else _pairs(revealed),
        step=table.step,
        claims=tuple(table.gap_claims),
        winner=table.tally.winner,
        drawn=table.tally.finished and table.tally.winner is None,
        targets=table.targets,
        secret_programs=_pairs(table.programs),
        phase_pair=phase_pair,
    )


def _pairs(programs: tuple[tuple[int, ...], ...] | list[list[int]]) -> tuple[tuple[Pair, ...], ...]:
    return tuple(tuple(PAIRS[k] for k in program) for program in programs)
