"""Vous ne passerez pas !: the pure rules engine of the polystick Blokus (like Nexos).

The rule book is the French "Vous ne passerez pas !"; where it is silent the rulings
VNP-1..VNP-7 (docs/rulings.md) decide, and each rule below cites the one it
implements.

Each of the four colours (jaune, bleu, rouge, vert, in playing order, VNP-2) owns the 24
free polysticks of 1..4 unit segments (VNP-1, generated in `pieces`). On its turn a colour
either places a piece, `Place(colour, placement)` where `placement` is the id of one of the
placements precomputed for the board size (`geometry(size).placements`), or, only when no
placement is legal, passes, `Pass(colour)` (VNP-5); a colour that passed or placed all its
pieces is skipped. `State.over` tells that the game is over (VNP-6). Nothing is hidden:
`PublicView` carries every fact.
"""

from companion.games.vnp.rules.actions import ACTIONS, Action, Pass, Place, action_from_json
from companion.games.vnp.rules.board import PASS, Board
from companion.games.vnp.rules.config import (
    ALL_PLACED_BONUS,
    BOARD_SIZE,
    COLOURS,
    Colour,
    Config,
    Crossing,
    Mode,
    default_starts,
    make_config,
)
from companion.games.vnp.rules.contract import ENGINE
from companion.games.vnp.rules.engine import (
    actors,
    apply,
    can_place,
    is_over,
    legal_actions,
    legal_placements,
    new_game,
)
from companion.games.vnp.rules.events import AllPlaced, Event, GameOver, Passed, Placed
from companion.games.vnp.rules.pieces import (
    PIECE_NAMES,
    PIECES,
    TOTAL_SEGMENTS,
    Geometry,
    Piece,
    Placement,
    free_polysticks,
    geometry,
)
from companion.games.vnp.rules.state import (
    PublicView,
    State,
    colour_scores,
    public_view,
    side_scores,
    winners,
)

__all__ = [
    "ACTIONS", "ALL_PLACED_BONUS", "BOARD_SIZE", "COLOURS", "ENGINE", "PASS", "PIECES",
    "PIECE_NAMES", "TOTAL_SEGMENTS", "Action", "AllPlaced", "Board", "Colour", "Config",
    "Crossing", "Event", "GameOver", "Geometry", "Mode", "Pass", "Passed", "Piece", "Place",
    "Placed", "Placement", "PublicView", "State", "action_from_json", "actors", "apply",
    "can_place", "colour_scores", "default_starts", "free_polysticks", "geometry", "is_over",
    "legal_actions", "legal_placements", "make_config", "new_game", "public_view", "side_scores",
    "winners",
]  # fmt: skip
