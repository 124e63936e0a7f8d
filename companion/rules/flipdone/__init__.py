"""Flip Done: the pure rules engine of the three-player card game.

The rule book is the French Flip Done; where it is silent the rulings FD-1..FD-10
(docs/rulings.md) decide, and each rule below cites the one it implements.

A phase, as the engine sees it (one action at a time, so a real table can feed it):

    PLACE_FIRST  (variant of FD-2) the phase's first player: PlaceFirst(seat, square)
    PLAY         the seat to play: Build(seat, card, square), Flip(seat, card, square)
                 or Discard(seat, card) (FD-3); seats with no card are skipped
    OVER         the game is over (FD-10)

Squares are 1..9 in reading order; lines are the indexes 0..7 of LINES (FD-4). Cards are
strings "QH", "10S", "AD" (rank + suit H D S C); only the colour matters (FD-1). Chance
comes only from `random.Random(f"{seed}:{deal}")`, the seed and deal counter being in the
state. Hidden facts (the face-down cards, the hands, the deck order, the discards) live in
`State` and leave the engine only through `player_view()` (a seat's own hand); the
`PublicView` type has no field for them.
"""

from companion.rules.flipdone.actions import (
    ACTIONS,
    Action,
    Build,
    Discard,
    Flip,
    PlaceFirst,
    action_from_json,
)
from companion.rules.flipdone.config import (
    CARDS,
    CENTRE,
    DECK,
    HAND_SIZE,
    LINES,
    LINES_THROUGH,
    MANCHE_BONUS,
    PLAYERS,
    SQUARES,
    Config,
    FirstElement,
    Hand,
    Line,
    MancheTie,
    Stage,
    is_red,
    make_config,
)
from companion.rules.flipdone.engine import (
    actors,
    aligned,
    apply,
    legal_actions,
    new_game,
    phase_over,
)
from companion.rules.flipdone.events import (
    Built,
    Discarded,
    Event,
    FirstPlaced,
    Flipped,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheWon,
    PhaseEnded,
    PhaseStarted,
    Tied,
    TieStands,
)
from companion.rules.flipdone.state import (
    PlayerView,
    PublicView,
    State,
    player_view,
    public_view,
)

__all__ = [
    "ACTIONS", "CARDS", "CENTRE", "DECK", "HAND_SIZE", "LINES", "LINES_THROUGH",
    "MANCHE_BONUS", "PLAYERS", "SQUARES", "Action", "Build", "Built", "Config", "Discard",
    "Discarded", "Event", "FirstElement", "FirstPlaced", "Flip", "Flipped", "GameOver", "Hand",
    "Line", "LineBroken", "LineHeld", "LineLost", "LineMade", "MancheTie", "MancheWon",
    "PhaseEnded", "PhaseStarted", "PlaceFirst", "PlayerView", "PublicView", "Stage", "State",
    "TieStands", "Tied", "action_from_json", "actors", "aligned", "apply", "is_red",
    "legal_actions", "make_config", "new_game", "phase_over", "player_view", "public_view",
]  # fmt: skip
