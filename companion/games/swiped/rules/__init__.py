"""Swiped: the pure rules engine of the 2-player colour-swapping game.

The rule book is the French Swiped; where it is silent the rulings SW-1..SW-6
(docs/rulings.md) decide, and each rule below cites the one it implements. Where
the rulings are silent too, the choice is a field of `Config` (see its docstrings).

Seats are 0 and 1; `Config.first` is "player 1" of the book. Squares are 1..9 in reading
order; cards are numbered 1..deck size. A swap is named by its two colours.

Hidden facts (each seat's target card, a program before both are revealed) live in
`State` and leave the engine only through `public_view()` / `player_view()`; the public
type has no field for them, and no event names a card: a claim's verdict says only
whether it was true (SW-5).
"""

from companion.games.swiped.rules.actions import (
    ACTIONS,
    Action,
    ClaimCard,
    ClaimMatches,
    DrawLayout,
    DrawTarget,
    Program,
    SkipSwap,
    Swap,
    action_from_json,
)
from companion.games.swiped.rules.config import (
    COLOURS,
    MATCHES_TO_WIN,
    PLAYERS,
    SQUARES,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    FalseClaim,
    Pair,
    Phase,
    make_config,
    pair,
    swap_order,
)
from companion.games.swiped.rules.contract import ENGINE
from companion.games.swiped.rules.deck import (
    Card,
    agreement,
    format_deck,
    make_deck,
    print_deck,
)
from companion.games.swiped.rules.engine import (
    PAIRS,
    actors,
    apply,
    is_over,
    legal_actions,
    may_claim,
    new_game,
)
from companion.games.swiped.rules.events import (
    ClaimChecked,
    Event,
    GameDrawn,
    GameWon,
    LayoutDrawn,
    MancheEnded,
    MancheStarted,
    Programmed,
    ProgramsRevealed,
    Swapped,
    SwapSkipped,
    TargetDrawn,
)
from companion.games.swiped.rules.state import (
    PlayerView,
    PublicView,
    State,
    next_swap,
    player_view,
    public_view,
)

__all__ = [
    "ACTIONS", "COLOURS", "ENGINE", "MATCHES_TO_WIN", "PAIRS", "PLAYERS", "SQUARES",
    "SWAPS_PER_PROGRAM", "Action", "Card", "ClaimCard", "ClaimChecked", "ClaimMatches",
    "Config", "Deal", "DrawLayout", "DrawTarget", "Event", "FalseClaim", "GameDrawn",
    "GameWon", "LayoutDrawn", "MancheEnded", "MancheStarted", "Pair", "Phase", "PlayerView",
    "Program", "Programmed", "ProgramsRevealed", "PublicView", "SkipSwap", "State", "Swap",
    "SwapSkipped", "Swapped", "TargetDrawn", "action_from_json", "actors", "agreement",
    "apply", "format_deck", "is_over", "legal_actions", "make_config", "make_deck",
    "may_claim", "new_game", "next_swap", "pair", "player_view", "print_deck",
    "public_view", "swap_order",
]  # fmt: skip
