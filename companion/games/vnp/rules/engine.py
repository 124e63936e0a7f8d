"""The engine: new_game, is_over, actors, legal_actions and apply (validate, then transition).

Each function reads the frozen `State`; `apply` plays the action on a fork of the state's
board (board.py, where the rules are) and returns the snapshot of the fork with the events
that say what happened.
"""

from __future__ import annotations

from companion.games.vnp.rules.actions import Action, Pass, Place
from companion.games.vnp.rules.board import Board, ids_of
from companion.games.vnp.rules.config import COLOURS, Colour, Config
from companion.games.vnp.rules.events import AllPlaced, Event, GameOver, Passed, Placed
from companion.games.vnp.rules.pieces import PIECES, geometry
from companion.games.vnp.rules.state import State
from companion.rules.errors import BadInput, IllegalAction


def new_game(config: Config, seed: int) -> tuple[State, tuple[Event, ...]]:
    """An empty board; jaune plays first (VNP-2). Nothing happens before the first move
    and nothing is left to chance, so there is no opening event and `seed` is unused."""
    return State.of(Board(config)), ()


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
    for pid in set(ids).difference(made):
        made[pid] = Place(COLOURS[state.turn], pid)
    return tuple(map(made.__getitem__, ids))


_PLACES: tuple[dict[int, Place], ...] = tuple({} for _ in COLOURS)
"""Place actions made so far, per colour (they are immutable values, so shared)."""


def legal_placements(state: State, colour: int) -> tuple[int, ...]:
    """The sorted ids of the placements `colour` (an index) could make now."""
    return ids_of(state.legal(colour))


def can_place(state: State, colour: int) -> bool:
    """Some placement is legal for `colour`."""
    return bool(state.legal(colour))


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
    board = state.fork()
    events: list[Event] = []
    if isinstance(action, Place):
        pid = action.placement
        g = geometry(state.config.size)
        if not (isinstance(pid, int) and not isinstance(pid, bool) and 0 <= pid < g.count):
            raise BadInput(f"no placement {pid!r}: ids are 0..{g.count - 1}")
        board.place(pid)
        segments = tuple(g.segment(s) for s in g.placement(pid).segments)
        events.append(Placed(COLOURS[colour], pid, PIECES[g.piece_of[pid]].name, segments))
        if len(board.placed[colour]) == len(PIECES):
            events.append(AllPlaced(COLOURS[colour]))
    else:
        board.pass_turn()
        events.append(Passed(COLOURS[colour]))
    if board.over:
        events.append(GameOver(*board.result()))
    return State.of(board), tuple(events)
