"""The thinking bot of Vous ne passerez pas !: UCT on the fast path's positions.

Nothing is hidden in this game (the engine's `hidden` is empty): what a seat knows is the
board, so the search's knowledge is the position itself and a draw is a copy of it.
The search runs on the fast path (`rules/fast.py`: legal placements as bitsets), its
playouts are the largest-piece-first bot to the end, and a finished playout is worth the
win (VNP-6: the lowest side score) to each side. A colour may place hundreds of pieces
at a turn: the tree weighs at most `WIDTH` of them, spread over the placements of the
largest piece it can place, and as many of the next size (and of the smallest, for the
agent restricted to it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.vnp.bots import BOTS
from companion.games.vnp.rules.actions import Action, Place
from companion.games.vnp.rules.config import ALL_PLACED_BONUS, COLOURS
from companion.games.vnp.rules.engine import legal_actions
from companion.games.vnp.rules.fast import PASS, Ids, Position, largest_bot
from companion.games.vnp.rules.pieces import PIECES
from companion.games.vnp.rules.state import State
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think
from companion.lab.model import GameRecord, Variant
from companion.lab.thinking import ThinkingTable

MARGIN = 5.0
"""A playout's value is a softmax of the sides' scores: a lead of this many segments is
worth e to 1 (a smoother guide than win or lose, for the few playouts a decision gets)."""
WIDTH = 5
"""Placements weighed at a node, at most, for each size class kept."""

Bot = Callable[[State, random.Random], Action]


class Play:
    """A position being searched (mutable, copied at each step) and each colour's side."""

    __slots__ = ("position", "sides")

    def __init__(self, position: Position, sides: tuple[int, ...]) -> None:
        self.position = position
        self.sides = sides

    def copy(self) -> Play:
        p, twin = self.position, Position.__new__(Position)
        twin.rules, twin.free, twin.turn, twin.over = p.rules, p.free, p.turn, p.over
        twin.candidates, twin.unused = list(p.candidates), list(p.unused)
        twin.reach, twin.placed, twin.passed = list(p.reach), list(p.placed), list(p.passed)
        return Play(twin, self.sides)


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows: the whole board (nothing is hidden, VNP-1 to VNP-7)."""

    board: Play


def knowledge_of(state: State) -> Knowledge:
    config = state.config
    sides = tuple(config.side_of(c) for c in range(len(COLOURS)))
    return Knowledge(Play(Position.of(state), sides))


def _sample(knowledge: Knowledge, rng: random.Random) -> Play:
    return knowledge.board.copy()


def _spread(bits: int) -> list[int]:
    ids = Ids(bits)
    step = max(1, len(ids) // WIDTH)
    return [ids[k] for k in range(0, len(ids), step)][:WIDTH]


def _classes(play: Play, keep: Callable[[list[int]], list[int]]) -> Sequence[int]:
    p = play.position
    if p.over:
        return ()
    legal = p.legal(p.turn)
    if not legal:
        return (PASS,)
    classes = [legal & size for size in p.rules.by_size if legal & size]
    return [pid for bits in keep(classes) for pid in _spread(bits)]


def _legal(play: Play) -> Sequence[int]:
    """The placements weighed: of the two largest pieces the colour can place."""
    return _classes(play, lambda classes: classes[:2])


def _legal_small(play: Play) -> Sequence[int]:
    """The same and the smallest piece's (for the restricted agent's tree)."""
    return _classes(play, lambda classes: classes[:2] + classes[2:][-1:])


def _step(play: Play, pid: int) -> Play:
    twin = play.copy()
    if pid == PASS:
        twin.position.pass_turn()
    else:
        twin.position.place(pid)
    return twin


def _mover(play: Play, pid: int) -> int:
    return play.sides[play.position.turn]


def scores(play: Play) -> tuple[int, ...]:
    """VNP-6, VNP-7: each side's score, the segments of its colours' unplaced pieces
    (-10 for a colour that placed them all)."""
    p = play.position
    totals = [0] * (max(play.sides) + 1)
    for colour, unused in enumerate(p.unused):
        left = [k for k, keep in enumerate(p.rules.keep_piece) if unused & ~keep]
        totals[play.sides[colour]] += (
            sum(PIECES[k].size for k in left) if left else ALL_PLACED_BONUS
        )
    return tuple(totals)


def _playout(play: Play, rng: random.Random) -> tuple[float, ...]:
    play = play.copy()
    p, rules = play.position, play.position.rules
    while not p.over:
        pid = largest_bot(p.legal(p.turn), rules, rng)
        if pid == PASS:
            p.pass_turn()
        else:
            p.place(pid)
    return estimate_values([-t for t in scores(play)], MARGIN)


THINKING: Thinking[Knowledge, Play, int] = Thinking(
    sample=_sample, legal=_legal, step=_step, mover=_mover, playout=_playout
)
RESTRICTED: Thinking[Knowledge, Play, int] = Thinking(
    sample=_sample, legal=_legal_small, step=_step, mover=_mover, playout=_playout
)


def _smallest_first(play: Play, pid: int) -> bool:
    """Restricted play: a placement of the smallest piece the colour can place."""
    p = play.position
    legal = p.legal(p.turn)
    if pid == PASS or not legal:
        return True
    smallest = next(size for size in reversed(p.rules.by_size) if legal & size)
    return bool(smallest >> pid & 1)


RESTRICTIONS: Mapping[str, tuple[str, Callable[[Play, int], bool]]] = {
    "smallest-first": ("places its smallest piece first", _smallest_first),
}


def thinking_bot(spec: Spec) -> Bot:
    """The thinking bot under the VNP bots' contract ((state, the seat's rng) -> action);
    the whole state is what the seat sees, since the game hides nothing."""
    allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]

    def bot(state: State, rng: random.Random) -> Action:
        legal = legal_actions(state)
        knowledge = knowledge_of(state)
        thinking = THINKING if allowed is None else RESTRICTED
        options = thinking.legal(knowledge.board)
        side = knowledge.board.sides[state.turn]
        pid = think(thinking, knowledge, side, options, spec.iterations, rng, allowed)
        return next(a for a in legal if not isinstance(a, Place) or a.placement == pid)

    return bot


def seat_bot(kind: str) -> Bot:
    spec = parse_kind(kind)
    return BOTS[kind] if spec is None else thinking_bot(spec)


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of a variant seating thinking bots, on the readable engine."""
    from companion.games.vnp.lab import record_of, reference_events

    events = reference_events(variant, index, bot_of=seat_bot)
    return record_of(variant.players, index % variant.players, [e.to_json() for e in events])


TABLE = ThinkingTable(
    restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
    stand_in="largest",
    play=play,
)
