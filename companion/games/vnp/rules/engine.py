"""The engine: new_game, is_over, actors, legal_actions and apply (validate, then transition).

Moves come from the colour's attach points x its pieces left (the Pentobi way): for each
intersection a colour's pieces touch (only its start intersection before its first piece),
the precomputed placements of each piece left touching it, kept when their masks do not
conflict with the board's (a few big-int ANDs each).
"""

from __future__ import annotations

from companion.games.vnp.rules.actions import Action, Pass, Place
from companion.games.vnp.rules.config import COLOURS, Colour, Config, Crossing
from companion.games.vnp.rules.events import AllPlaced, Event, GameOver, Passed, Placed
from companion.games.vnp.rules.pieces import PIECES, Geometry, geometry
from companion.games.vnp.rules.state import State, colour_scores, side_scores, winners
from companion.rules.errors import BadInput, IllegalAction


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """An empty board; jaune plays first (VNP-2). Nothing happens before the first move
    and nothing is left to chance, so there is no opening event and `seed` is unused."""
    n = len(COLOURS)
    return State(config=config, turn=0, placed=((),) * n, passed=(False,) * n), ()


def is_over(state: State) -> bool:
    """Whether the game is over (VNP-6: every colour has passed or placed all its pieces)."""
    return state.over


# --------------------------------------------------------------------- what is legal


def actors(state: State) -> frozenset[int]:
    """The seat playing the colour to move (none once the game is over)."""
    if state.over:
        return frozenset()
    return frozenset((state.config.seat_of(state.turn),))


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action, in a fixed order: placements by id, or the one Pass (VNP-5)."""
    if state.over:
        return ()
    ids = legal_placements(state, state.turn)
    if not ids:
        return (Pass(COLOURS[state.turn]),)
    made = _PLACES[state.turn]
    return tuple(
        made.get(pid) or made.setdefault(pid, Place(COLOURS[state.turn], pid)) for pid in ids
    )


_PLACES: tuple[dict[int, Place], ...] = tuple({} for _ in COLOURS)
"""Place actions made so far, per colour (they are immutable values, so shared)."""


def legal_placements(state: State, colour: int) -> tuple[int, ...]:
    """The sorted ids of the placements `colour` (an index) could make now."""
    return tuple(sorted(_placements(state, colour, first=False)))


def can_place(state: State, colour: int) -> bool:
    """Some placement is legal for `colour` (stops at the first one found)."""
    return bool(_placements(state, colour, first=True))


def _attach_points(state: State, colour: int, g: Geometry) -> list[int]:
    if not state.placed[colour]:
        x, y = state.config.starts[colour]
        return [g.point_id((x, y))]  # VNP-3
    points = []
    reach = state.reach[colour]
    while reach:
        low = reach & -reach
        points.append(low.bit_length() - 1)
        reach ^= low
    return points  # VNP-4


def _placements(state: State, colour: int, *, first: bool) -> set[int]:
    left = state.left[colour]
    found: set[int] = set()
    if not left or state.passed[colour]:
        return found
    g = geometry(state.config.size)
    free = ~state.segments
    strict = state.config.crossing is Crossing.STRICT
    seg_masks = g.segment_masks
    occupied = state.segments
    if strict:
        inner, touched = state.inner, state.touched
        point_masks, inner_masks = g.point_masks, g.inner_masks
    else:
        straight, straight_masks = state.straight, g.straight_masks
    for point in _attach_points(state, colour, g):
        if not g.point_segments[point] & free:
            continue  # no free segment at this intersection
        if strict and inner >> point & 1:
            continue  # inside a piece: nobody may touch it
        row = g.by_point_piece[point]
        for piece in left:
            for pid in row[piece]:
                if seg_masks[pid] & occupied:
                    continue
                if strict:
                    if point_masks[pid] & inner or inner_masks[pid] & touched:
                        continue
                elif straight_masks[pid] & straight:
                    continue
                found.add(pid)
                if first:
                    return found
    return found


# ------------------------------------------------------------------------------ apply


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Validate `action`, then return the next state and what happened.

    Raises BadInput or IllegalAction (naming the ruling) and leaves `state` as it was.
    """
    if not isinstance(action, (Place, Pass)):
        raise BadInput(f"not a Vous ne passerez pas action: {action!r}")
    try:
        colour = COLOURS.index(Colour(action.colour))
    except ValueError as exc:
        raise BadInput(f"no colour {action.colour!r}: colours are {list(COLOURS)}") from exc
    if state.over:
        raise IllegalAction("VNP-6", "the game is over: no colour can place")
    if colour != state.turn:
        raise IllegalAction("VNP-2", f"it is {COLOURS[state.turn]}'s turn, not {COLOURS[colour]}'s")
    events: list[Event] = []
    placed, passed = list(state.placed), list(state.passed)
    if isinstance(action, Place):
        pid = _check_place(state, colour, action.placement)
        g = geometry(state.config.size)
        placed[colour] = (*placed[colour], pid)
        piece = PIECES[g.piece_of[pid]]
        segs = tuple(g.segment(s) for s in g.placements[pid].segments)
        events.append(Placed(COLOURS[colour], pid, piece.name, segs))
        if len(placed[colour]) == len(PIECES):
            events.append(AllPlaced(COLOURS[colour]))
    else:
        if can_place(state, colour):
            raise IllegalAction("VNP-5", f"{COLOURS[colour]} may not pass: it can place a piece")
        passed[colour] = True
        events.append(Passed(COLOURS[colour]))
    nxt = State(state.config, state.turn, tuple(placed), tuple(passed))
    turn = _next_turn(nxt, colour)
    if turn is None:
        nxt = State(state.config, colour, nxt.placed, nxt.passed)
        events.append(GameOver(colour_scores(nxt), side_scores(nxt), winners(nxt)))
    else:
        nxt = State(state.config, turn, nxt.placed, nxt.passed)
    return nxt, tuple(events)


def _next_turn(state: State, colour: int) -> int | None:
    """VNP-2, VNP-5: the next colour in order still playing; None when none is."""
    n = len(COLOURS)
    for step in range(1, n + 1):
        other = (colour + step) % n
        if not state.out(other):
            return other
    return None


def _check_place(state: State, colour: int, pid: object) -> int:
    g = geometry(state.config.size)
    if not (isinstance(pid, int) and not isinstance(pid, bool) and 0 <= pid < len(g.placements)):
        raise BadInput(f"no placement {pid!r}: ids are 0..{len(g.placements) - 1}")
    piece = g.piece_of[pid]
    if piece not in state.left[colour]:
        raise IllegalAction("VNP-1", f"{COLOURS[colour]} already placed piece {PIECES[piece].name}")
    if g.segment_masks[pid] & state.segments:
        raise IllegalAction("VNP-4", "pieces never share a unit segment")
    if state.config.crossing is Crossing.STRICT:
        if g.point_masks[pid] & state.inner or g.inner_masks[pid] & state.touched:
            raise IllegalAction(
                "VNP-4", "(strict reading) an intersection inside a piece is that piece's alone"
            )
    elif g.straight_masks[pid] & state.straight:
        raise IllegalAction("VNP-4", "pieces never cross: both would go straight through")
    if not state.placed[colour]:
        start = g.point_id(state.config.starts[colour])
        if not g.point_masks[pid] >> start & 1:
            raise IllegalAction(
                "VNP-3", f"{COLOURS[colour]}'s first piece must touch its start intersection"
            )
    elif not g.point_masks[pid] & state.reach[colour]:
        raise IllegalAction(
            "VNP-4", f"the piece must share an intersection with a {COLOURS[colour]} piece"
        )
    return pid
