"""Flip Done: the pure rules engine of the three-player card game.

The rule book is the French Flip Done; where it is silent the rulings FD-1..FD-10
(docs/rulings.md) decide, and each rule below cites the one it implements.

A phase, as the engine sees it (one action at a time, so a real table can feed it):

    DEAL         (OBSERVED deal only, FD-2) the deal as the readers see it:
                 DealDown(square, card) for each of the 9 face-down cards, in any order,
                 then DealUp(card) for the face-up centre card
    PLACE_FIRST  (variant of FD-2) the phase's first player: PlaceFirst(seat, square), or
                 with an OBSERVED deal PlaceFirst(seat, square, card)
    PLAY         the seat to play: Build(seat, card, square), Flip(seat, card, square)
                 or Discard(seat, card) (FD-3); seats with no card are skipped
    OVER         the game is over (FD-10)

Squares are 1..9 in reading order; lines are the indexes 0..7 of LINES (FD-4). Cards are
strings "QH", "10S", "AD" (rank + suit H D S C); only the colour matters (FD-1).

Who deals is `Config.deal` (FD-2); one engine serves both:

- SEEDED (the default: a simulated table, bots, tests): the engine shuffles and deals.
  Chance comes only from `random.Random(f"{seed}:{deal}")`, the seed and deal counter
  being in the state. It knows every card, hands included.
- OBSERVED (a real table): people shuffle and deal, and each phase starts in stage DEAL,
  waiting for the cards the readers see land. The engine never sees a hand: it counts
  `hand_sizes` (4 each after the deal) and learns each hand card when it is played. A
  Build, Flip or Discard names that card; it is legal if the seat holds a card and the
  card is not in play this phase (`seen`: face down, face up or discarded), else
  IllegalAction("FD-2", "the QH is already in play this phase"). The face-down cards are
  known from the deal, so a flip turns one up as in SEEDED mode; lines, owners,
  transfers, the bank, FD-9's penalties (from the hand sizes) and FD-10 are computed
  alike, and the events are the same but for one DealtDown(square) per face-down card
  (PhaseStarted comes once the face-up card is seen). `legal_actions` lists the deal and
  the plays over the cards not yet seen this phase (`unseen`), so it stays finite.

Hidden facts (the face-down cards, the hands, the deck order, the discards, what each
seat played) live in `State` and leave the engine only through `player_view()` (a seat's
own hand as far as the engine knows it, its hand size, the cards it played this phase);
the `PublicView` type has no field for them.
"""

from companion.games.flipdone.rules.actions import (
    ACTIONS,
    Action,
    Build,
    DealDown,
    DealUp,
    Discard,
    Flip,
    PlaceFirst,
    action_from_json,
)
from companion.games.flipdone.rules.config import (
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
    Deal,
    FirstElement,
    Hand,
    Line,
    MancheTie,
    Stage,
    is_red,
    make_config,
)
from companion.games.flipdone.rules.contract import ENGINE
from companion.games.flipdone.rules.engine import (
    actors,
    aligned,
    apply,
    is_over,
    legal_actions,
    new_game,
    phase_over,
    seen,
    unseen,
)
from companion.games.flipdone.rules.events import (
    Built,
    DealtDown,
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
from companion.games.flipdone.rules.state import (
    PlayerView,
    PublicView,
    State,
    player_view,
    public_view,
)

__all__ = [
    "ACTIONS", "CARDS", "CENTRE", "DECK", "ENGINE", "HAND_SIZE", "LINES", "LINES_THROUGH",
    "MANCHE_BONUS", "PLAYERS", "SQUARES", "Action", "Build", "Built", "Config", "Deal",
    "DealDown", "DealUp", "DealtDown", "Discard", "Discarded", "Event", "FirstElement",
    "FirstPlaced", "Flip", "Flipped", "GameOver", "Hand", "Line", "LineBroken", "LineHeld",
    "LineLost", "LineMade", "MancheTie", "MancheWon", "PhaseEnded", "PhaseStarted",
    "PlaceFirst", "PlayerView", "PublicView", "Stage", "State", "TieStands", "Tied",
    "action_from_json", "actors", "aligned", "apply", "is_over", "is_red", "legal_actions",
    "make_config", "new_game", "phase_over", "player_view", "public_view", "seen", "unseen",
]  # fmt: skip
