"""PtiPassPass and PhiPassPass: two rule sets of one pure engine.

The rule books are the French PtiPassPass and PhiPassPass; where they are silent the
rulings PTI-1..PTI-15 and PHI-1..PHI-5 (docs/rulings.md) decide, and each rule below
cites the one it implements.

A turn, as the engine sees it (one action at a time, so a real table can feed it):

    PLACE     the Magicien holds an animal over a hat: Designate(seat, spot, token)
    ANNOUNCE  a Masqué turn (PTI) or any turn (PHI): Announce(seat, token), possibly a lie
    WINDOW    the challenge round: Pass / Call in ROUND mode, Call / CloseWindow in TIMED mode
    REWARD    a successful Challenger's choice (PTI-10): RewardDrop or RewardToken
    REVEAL    the Magicien holds nothing (PTI-5): at most one Swap, then Reveal(line)

PhiPassPass opens a Doublon-only window right after the designation and a Menteur-only
window after the announcement (PHI-2); PtiPassPass opens one window after the announcement
(after the designation in a Visible turn, where the animal is shown, PTI-4).

Hidden facts (the contents of hats and hands, the animal in flight) live in `State` and
leave the engine only through `public_view()`, whose type has no field for them, and
through events, which carry only what the book makes public (a Doublon reveals the hat, a
Menteur shows the animal, a reveal lifts three hats).
"""

from companion.games.passpass.rules.actions import (
    ACTIONS,
    Action,
    Announce,
    Call,
    CloseWindow,
    Designate,
    Pass,
    Reveal,
    RewardDrop,
    RewardToken,
    Swap,
    action_from_json,
)
from companion.games.passpass.rules.config import (
    PHIPASSPASS,
    PTIPASSPASS,
    RULESETS,
    VICTORIES_TO_WIN,
    Challenge,
    Config,
    Hand,
    Phase,
    RuleSet,
    Starter,
    WindowMode,
    make_config,
)
from companion.games.passpass.rules.contract import ENGINES
from companion.games.passpass.rules.engine import (
    actors,
    apply,
    clockwise_first,
    is_over,
    legal_actions,
    new_game,
)
from companion.games.passpass.rules.events import (
    DEAD_MANCHE,
    TURN_LIMIT,
    Announced,
    Designated,
    Event,
    GameWon,
    MancheStarted,
    MancheVoid,
    MancheWon,
    Passed,
    Placed,
    Revealed,
    Rewarded,
    Swapped,
    TurnStarted,
    Verdict,
)
from companion.games.passpass.rules.picks import best_pick, can_still_win
from companion.games.passpass.rules.state import (
    PlayerView,
    PublicView,
    State,
    player_view,
    public_view,
)

__all__ = [
    "ACTIONS", "DEAD_MANCHE", "ENGINES", "PHIPASSPASS", "PTIPASSPASS", "RULESETS",
    "TURN_LIMIT", "VICTORIES_TO_WIN", "Action", "Announce", "Announced", "Call",
    "Challenge", "CloseWindow", "Config", "Designate", "Designated", "Event", "GameWon",
    "Hand", "MancheStarted", "MancheVoid", "MancheWon", "Pass", "Passed", "Phase", "Placed",
    "PlayerView", "PublicView", "Reveal", "Revealed", "RewardDrop", "RewardToken",
    "Rewarded", "RuleSet", "Starter", "State", "Swap", "Swapped", "TurnStarted", "Verdict",
    "WindowMode", "action_from_json", "actors", "apply", "best_pick", "can_still_win",
    "clockwise_first", "is_over", "legal_actions", "make_config", "new_game", "player_view",
    "public_view",
]  # fmt: skip
