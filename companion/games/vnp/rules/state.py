"""The game position (State) and the public view of it.

Nothing is hidden in this game, so `PublicView` carries every fact of the state; it is
still the only way facts leave the engine, as the contract asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.vnp.rules.config import ALL_PLACED_BONUS, COLOURS, Colour, Config
from companion.games.vnp.rules.pieces import PIECES, geometry
from companion.rules.errors import BadInput
from companion.rules.jsonable import plain as _plain


@dataclass(frozen=True, slots=True)
class State:
    """A whole game position. Immutable; `apply` returns a new one.

    Only `config`, `turn`, `placed` and `passed` are facts; the other fields are derived
    from them when the state is built (and are left out of equality and JSON).
    """

    config: Config
    turn: int
    """The index in COLOURS of the colour to play (meaningless once `over`)."""
    placed: tuple[tuple[int, ...], ...]
    """Per colour, the placement ids it put on the board, in order."""
    passed: tuple[bool, ...]
    """Per colour: it passed (VNP-5), so it never plays again."""
    left: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    """Per colour, the indexes in PIECES of its pieces not placed yet."""
    over: bool = field(init=False, compare=False, repr=False)
    """VNP-6: every colour has passed or placed all its pieces. The game-over predicate."""
    segments: int = field(init=False, compare=False, repr=False)
    """Mask of the unit segments covered by any piece."""
    straight: int = field(init=False, compare=False, repr=False)
    """Mask of the intersections some piece goes straight through."""
    touched: int = field(init=False, compare=False, repr=False)
    """Mask of the intersections some piece touches."""
    inner: int = field(init=False, compare=False, repr=False)
    """Mask of the intersections inside some piece (two or more of its segments meet)."""
    reach: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """Per colour, the mask of the intersections its pieces touch."""

    def __post_init__(self) -> None:
        g = geometry(self.config.size)
        n = len(COLOURS)
        if not (
            isinstance(self.turn, int)
            and 0 <= self.turn < n
            and len(self.placed) == n
            and len(self.passed) == n
            and all(isinstance(p, int) and 0 <= p < len(g.placements) for ids in self.placed
                    for p in ids)
        ):  # fmt: skip
            raise BadInput("not a Vous ne passerez pas position")
        segments = straight = touched = inner = 0
        reach = []
        left = []
        for ids in self.placed:
            mine = 0
            for pid in ids:
                segments |= g.segment_masks[pid]
                straight |= g.straight_masks[pid]
                inner |= g.inner_masks[pid]
                mine |= g.point_masks[pid]
            touched |= mine
            reach.append(mine)
            used = {g.piece_of[pid] for pid in ids}
            left.append(tuple(p.index for p in PIECES if p.index not in used))
        put = object.__setattr__
        put(self, "left", tuple(left))
        put(self, "over", all(p or not k for p, k in zip(self.passed, left, strict=True)))
        put(self, "segments", segments)
        put(self, "straight", straight)
        put(self, "touched", touched)
        put(self, "inner", inner)
        put(self, "reach", tuple(reach))

    def out(self, colour: int) -> bool:
        """The colour plays no more: it passed or placed all its pieces."""
        return self.passed[colour] or not self.left[colour]

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
    return tuple(
        sum(PIECES[k].size for k in left) if left else ALL_PLACED_BONUS for left in state.left
    )


def side_scores(state: State) -> tuple[int, ...]:
    """VNP-7: per side (a player, or a team), the sum of its colours' scores."""
    totals = [0] * state.config.sides
    for colour, score in enumerate(colour_scores(state)):
        totals[state.config.side_of(colour)] += score
    return tuple(totals)


def winners(state: State) -> tuple[int, ...]:
    """VNP-6: the sides with the lowest score, once the game is over (else empty)."""
    if not state.over:
        return ()
    totals = side_scores(state)
    best = min(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


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
        scores=colour_scores(state),
        side_scores=side_scores(state),
        winners=winners(state),
    )
