"""The thinking bot of Vous ne passerez pas !: UCT on the engine's board (rules/board.py).

Nothing is hidden in this game (the engine's `hidden` is empty): what a seat knows is the
board, so the search's knowledge is the board itself and a draw is a fork of it, played
in place. Its playouts are the largest-piece-first bot to the end, and a finished playout
is worth the win (VNP-6: the lowest side score) to each side. A colour may place hundreds
of pieces at a turn: the tree weighs at most `WIDTH` of them, spread over the placements
of the largest piece it can place, and as many of the next size (and of the smallest, for
the agent restricted to it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.vnp.bots import BOTS, Bot, Choice, largest_placement
from companion.games.vnp.rules.board import PASS, Board, Ids
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think

MARGIN = 5.0
"""A playout's value is a softmax of the sides' scores: a lead of this many segments is
worth e to 1 (a smoother guide than win or lose, for the few playouts a decision gets)."""
WIDTH = 5
"""Placements weighed at a node, at most, for each size class kept."""


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows: the whole board (nothing is hidden, VNP-1 to VNP-7)."""

    board: Board


def _sample(knowledge: Knowledge, rng: random.Random) -> Board:
    return knowledge.board.fork()


def _spread(bits: int) -> list[int]:
    ids = Ids(bits)
    step = max(1, len(ids) // WIDTH)
    return [ids[k] for k in range(0, len(ids), step)][:WIDTH]


def _classes(board: Board, keep: Callable[[list[int]], list[int]]) -> Sequence[int]:
    if board.over:
        return ()
    legal = board.legal(board.turn)
    if not legal:
        return (PASS,)
    classes = [legal & size for size in board.tables.by_size if legal & size]
    return [pid for bits in keep(classes) for pid in _spread(bits)]


def _legal(board: Board) -> Sequence[int]:
    """The placements weighed: of the two largest pieces the colour can place."""
    return _classes(board, lambda classes: classes[:2])


def _legal_small(board: Board) -> Sequence[int]:
    """The same and the smallest piece's (for the restricted agent's tree)."""
    return _classes(board, lambda classes: classes[:2] + classes[2:][-1:])


def _step(board: Board, pid: int) -> Board:
    """Plays in place: each iteration plays on its own fork (`_sample`)."""
    board.play(pid)
    return board


def _mover(board: Board, pid: int) -> int:
    """The side whose decision it is (VNP-7: a side may play two colours)."""
    return board.config.side_of(board.turn)


def _playout(board: Board, rng: random.Random) -> tuple[float, ...]:
    """The largest-piece-first bot to the end (in place), then each side's value."""
    while not board.over:
        legal = board.legal(board.turn)
        board.play(largest_placement(board, legal, rng), legal)
    return estimate_values([-t for t in board.side_scores()], MARGIN)


THINKING: Thinking[Knowledge, Board, int] = Thinking(
    sample=_sample, legal=_legal, step=_step, mover=_mover, playout=_playout
)
RESTRICTED: Thinking[Knowledge, Board, int] = Thinking(
    sample=_sample, legal=_legal_small, step=_step, mover=_mover, playout=_playout
)


def _smallest_first(board: Board, pid: int) -> bool:
    """Restricted play: a placement of the smallest piece the colour can place."""
    legal = board.legal(board.turn)
    if pid == PASS or not legal:
        return True
    smallest = next(size for size in reversed(board.tables.by_size) if legal & size)
    return bool(smallest >> pid & 1)


RESTRICTIONS: Mapping[str, tuple[str, Callable[[Board, int], bool]]] = {
    "smallest-first": ("places its smallest piece first", _smallest_first),
}


def thinking_bot(spec: Spec) -> Bot:
    """The thinking bot under the bots' contract (bots.py: the board, the legal placements,
    the seat's rng -> a placement id or PASS, and how many were legal); the whole board
    is what the seat sees, since the game hides nothing."""
    allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]
    thinking = THINKING if allowed is None else RESTRICTED

    def bot(board: Board, legal: int, rng: random.Random) -> Choice:
        knowledge = Knowledge(board.fork())
        options = thinking.legal(knowledge.board)
        side = board.config.side_of(board.turn)
        pid = think(thinking, knowledge, side, options, spec.iterations, rng, allowed)
        return pid, legal.bit_count()

    return bot


def seat_bot(kind: str) -> Bot:
    spec = parse_kind(kind)
    return BOTS[kind] if spec is None else thinking_bot(spec)
