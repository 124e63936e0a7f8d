"""The fast path and the readable engine in one form, for the contract test that holds one
to the other step by step (tests/lab/test_fast_equals_engine.py, docs/lab.md).

The fast path knows a card by its colour only (FD-1), so the common form is the readable
one read down to colours: `play_of` is an engine action as the `Play` that plays it, and
`view` / `view_of` give a fast or a readable position as the same `View`, and `resume`
sets a fast game at a position given in that form (the thinking bot searches on the fast
path from the positions it draws).
"""

from __future__ import annotations

from typing import NamedTuple

from companion.games.flipdone.fast.core import (
    BLACK,
    BUILD,
    CODES,
    DISCARD,
    EMPTY,
    FLIP,
    LINE_SQUARES,
    PLACE,
    RED,
    WEIGHTS,
    FastGame,
    Play,
)
from companion.games.flipdone.fast.tally import SEAT_MANCHES
from companion.games.flipdone.rules.actions import Action, Build, Discard, Flip, PlaceFirst
from companion.games.flipdone.rules.config import SQUARES, Config, Stage, is_red
from companion.games.flipdone.rules.state import State


class View(NamedTuple):
    """What the rules and the bots read of a position, cards by colour."""

    stage: Stage
    deal: int
    manche: int
    phase: int
    extra: int
    overtime: bool
    tied: tuple[int, ...]
    first: int
    turn: int
    tokens: tuple[int, ...]
    baseline: tuple[int, ...]
    manche_wins: tuple[int, ...]
    owners: tuple[int | None, ...]
    faces: tuple[int, ...]
    flipped: tuple[bool, ...]
    under: tuple[int, ...]
    pending: int
    hands: tuple[tuple[int, ...], ...]
    paid: tuple[tuple[int, int], ...]
    """Per seat, the cards it discarded or paid for a flip this phase, and the red ones
    (what the heuristic bot knows it holds no more)."""
    board: tuple[int, int]
    """The cards turned face up on the grid this phase, and the red ones."""
    winners: tuple[int, ...]


def colour(card: str | None) -> int:
    """FD-1: a card as the fast path holds it (EMPTY for none)."""
    if card is None:
        return EMPTY
    return RED if is_red(card) else BLACK


def play_of(state: State, action: Action) -> Play:
    """The fast path's play of a readable action legal in `state` (a SEEDED deal: the fast
    path deals its own cards, so it has no DealDown or DealUp)."""
    if isinstance(action, PlaceFirst):
        return (PLACE, 0, action.square - 1)
    if isinstance(action, Build | Flip | Discard):
        index = state.hands[action.seat].index(action.card)  # the hand is sorted by name
        if isinstance(action, Discard):
            return (DISCARD, index, -1)
        return (BUILD if isinstance(action, Build) else FLIP, index, action.square - 1)
    raise ValueError(f"the fast path deals its own cards: no {action.name} (FD-2, seeded)")


def view(game: FastGame) -> View:
    """A fast position in the common form."""
    stage = Stage.OVER if game.over else Stage.PLACE_FIRST if game.placing else Stage.PLAY
    return View(
        stage=stage,
        deal=game.deal,
        manche=game.manche,
        phase=game.phase,
        extra=game.extra,
        overtime=game.overtime,
        tied=tuple(game.tied),
        first=game.first,
        turn=game.turn,
        tokens=tuple(game.tokens),
        baseline=tuple(game.baseline),
        manche_wins=tuple(game.seats[SEAT_MANCHES]),
        owners=tuple(None if full < CODES else full // CODES - 1 for full in game.lines),
        faces=tuple(game.face),
        flipped=tuple(game.flipped),
        under=tuple(game.under),
        pending=game.pending,
        hands=tuple(tuple(hand) for hand in game.hands),
        paid=tuple(zip(game.paid_seen, game.paid_red, strict=True)),
        board=(game.board_seen, game.board_red),
        winners=game.tally.winners if game.over else (),
    )


def view_of(state: State) -> View:
    """A readable position (SEEDED deal) in the common form."""
    faces = [colour(card) for card in state.faces]
    under = [colour(card) for card in state.under]
    shown = [f for f in faces if f] + [u for u, f in zip(under, state.flipped, strict=True) if f]
    discarded = set(state.discards)
    paid = tuple(
        (
            sum(card in discarded for card in played),
            sum(card in discarded and is_red(card) for card in played),
        )
        for played in state.played
    )
    return View(
        stage=state.stage,
        deal=state.deal,
        manche=state.manche,
        phase=state.phase,
        extra=state.extra,
        overtime=state.overtime,
        tied=state.tied,
        first=state.first,
        turn=state.turn,
        tokens=state.tokens,
        baseline=state.baseline,
        manche_wins=state.manche_wins,
        owners=state.owners,
        faces=tuple(faces),
        flipped=state.flipped,
        under=tuple(under),
        pending=colour(state.pending),
        hands=tuple(tuple(colour(card) for card in hand) for hand in state.hands),
        paid=paid,
        board=(len(shown), shown.count(RED)),
        winners=state.winners,
    )


def resume(config: Config, seed: int, at: View) -> FastGame:
    """A fast game at the position `at` (its phases to come dealt from `seed`, FD-2): the
    same game from there as the readable engine's at that position with that seed."""
    game = FastGame(config, seed, deal=False)
    game.deal, game.manche, game.phase, game.extra = at.deal, at.manche, at.phase, at.extra
    game.overtime, game.tied, game.first, game.turn = at.overtime, at.tied, at.first, at.turn
    game.over, game.placing = at.stage is Stage.OVER, at.stage is Stage.PLACE_FIRST
    game.pending, game.tokens, game.baseline = at.pending, list(at.tokens), list(at.baseline)
    game.seats[SEAT_MANCHES] = list(at.manche_wins)
    game.face, game.flipped, game.under = list(at.faces), list(at.flipped), list(at.under)
    states = [face + 3 * flipped for face, flipped in zip(at.faces, at.flipped, strict=True)]
    game.lines = [
        sum(states[sq] * w for sq, w in zip(squares, WEIGHTS, strict=True))
        + CODES * (0 if owner is None else owner + 1)
        for squares, owner in zip(LINE_SQUARES, at.owners, strict=True)
    ]
    game.free = [sq for sq in range(SQUARES) if at.faces[sq] == EMPTY]
    game.flippable = [sq for sq in range(SQUARES) if at.faces[sq] and not at.flipped[sq]]
    game.hands = [list(hand) for hand in at.hands]
    game.cards = sum(len(hand) for hand in at.hands)
    game.flips_done = sum(at.flipped)
    game.board_seen, game.board_red = at.board
    game.paid_seen = [seen for seen, _ in at.paid]
    game.paid_red = [red for _, red in at.paid]
    if game.over:
        game.tally.finished, game.tally.winners = True, at.winners
    return game
