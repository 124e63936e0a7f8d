"""The game position as the table sees it (State, a frozen snapshot of a board) and the
public view of it.

Nothing is hidden in this game, so `PublicView` carries every fact of the state; it is
still the only way facts leave the engine, as the contract asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.vnp.rules.board import Board
from companion.games.vnp.rules.config import COLOURS, Colour, Config
from companion.games.vnp.rules.pieces import PIECES, geometry
from companion.rules.errors import BadInput
from companion.rules.jsonable import plain as _plain


@dataclass(frozen=True, slots=True)
class State:
    """A whole game position, frozen: `apply` returns a new one.

    Its facts are `config`, `turn`, `placed` and `passed`; the board they make (the
    engine's core, board.py) is built with it and never handed out: `fork` gives a copy
    to play on.
    """

    config: Config
    turn: int
    """The index in COLOURS of the colour to play (once `over`, of the last to play)."""
    placed: tuple[tuple[int, ...], ...]
    """Per colour, the placement ids it put on the board, in order."""
    passed: tuple[bool, ...]
    """Per colour: it passed (VNP-5), so it never plays again."""
    _board: Board = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        count = geometry(self.config.size).count
        n = len(COLOURS)
        if not (  # a bool is an int to isinstance: `type(...) is` refuses True as turn 1
            type(self.turn) is int
            and 0 <= self.turn < n
            and len(self.placed) == n
            and len(self.passed) == n
            and all(type(p) is bool for p in self.passed)
            and all(type(p) is int and 0 <= p < count for ids in self.placed for p in ids)
        ):
            raise BadInput("not a Vous ne passerez pas position")
        board = Board.of(self.config, self.turn, self.placed, self.passed)
        object.__setattr__(self, "_board", board)

    @classmethod
    def of(cls, board: Board) -> State:
        """The snapshot of a board (which the caller must not play on afterwards)."""
        state = object.__new__(cls)
        put = object.__setattr__
        put(state, "config", board.config)
        put(state, "turn", board.turn)
        put(state, "placed", tuple(map(tuple, board.placed)))
        put(state, "passed", tuple(board.passed))
        put(state, "_board", board)
        return state

    def fork(self) -> Board:
        """A board of this position to play on (the state itself never changes)."""
        return self._board.fork()

    @property
    def over(self) -> bool:
        """VNP-6: every colour has passed or placed all its pieces. The game-over predicate."""
        return self._board.over

    @property
    def left(self) -> tuple[tuple[int, ...], ...]:
        """Per colour, the indexes in PIECES of its pieces not placed yet."""
        return tuple(self._board.left(c) for c in range(len(COLOURS)))

    @property
    def reach(self) -> tuple[int, ...]:
        """Per colour, the mask of the intersections its pieces touch (once it placed)."""
        return tuple(self._board.reach)

    def legal(self, colour: int) -> int:
        """The placements `colour` (an index) could make now, as a bitset over placement
        ids (0: it can only pass)."""
        return self._board.legal(colour)

    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.config.to_json(),
            "turn": self.turn,
            "placed": [list(ids) for ids in self.placed],
            "passed": list(self.passed),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        return cls(
            config=Config.from_json(data["config"]),
            turn=data["turn"],
            placed=tuple(tuple(ids) for ids in data["placed"]),
            passed=tuple(data["passed"]),
        )


def colour_scores(state: State) -> tuple[int, ...]:
    """VNP-6: per colour, the segments of its unplaced pieces, or -10 if it placed all."""
    return state._board.scores()


def side_scores(state: State) -> tuple[int, ...]:
    """VNP-7: per side (a player, or a team), the sum of its colours' scores."""
    return state._board.side_scores()


def winners(state: State) -> tuple[int, ...]:
    """VNP-6: the sides with the lowest score, once the game is over (else empty)."""
    return state._board.winners()


@dataclass(frozen=True, slots=True)
class PublicView:
    """All that every player may know: here, every fact of the game."""

    game: str
    size: int
    starts: tuple[tuple[int, int], ...]
    turn: Colour | None
    """The colour to play; None once the game is over."""
    seat: int | None
    """The seat playing it."""
    placed: tuple[tuple[int, ...], ...]
    left: tuple[tuple[str, ...], ...]
    """Per colour, the names of its pieces not placed yet."""
    passed: tuple[bool, ...]
    over: bool
    scores: tuple[int, ...]
    side_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return _plain(self)


def public_view(state: State) -> PublicView:
    """The only way facts leave the engine for a screen or a log."""
    cfg = state.config
    scores, sides, won = state._board.result()
    return PublicView(
        game="vnp",
        size=cfg.size,
        starts=cfg.starts,
        turn=None if state.over else COLOURS[state.turn],
        seat=None if state.over else cfg.seat_of(state.turn),
        placed=state.placed,
        left=tuple(tuple(PIECES[k].name for k in ks) for ks in state.left),
        passed=state.passed,
        over=state.over,
        scores=scores,
        side_scores=sides,
        winners=won,
    )
