"""PtiPassPass and PhiPassPass under the engine contract (`companion/games/engine.py`).

One engine serves both rule sets; each game gets its own `Engine` (in `ENGINES`, by the
game's name) because their sample games differ: a seat count in the rule set's range,
and, for PhiPassPass, a sample player that calls now and then only.
"""

from __future__ import annotations

import random

from companion.games.engine import Engine
from companion.games.passpass.rules.actions import Action, Call, action_from_json
from companion.games.passpass.rules.config import (
    PHIPASSPASS,
    PTIPASSPASS,
    Config,
    RuleSet,
    make_config,
)
from companion.games.passpass.rules.engine import (
    actors,
    apply,
    is_over,
    legal_actions,
    new_game,
)
from companion.games.passpass.rules.events import Event
from companion.games.passpass.rules.state import PublicView, State, public_view

PassPassEngine = Engine[Config, State, Action, Event, PublicView]

HIDDEN = frozenset({"hats", "hands", "holding"})
"""What lies under the hats, what each seat holds, the animal in flight."""

CALL_RATE = 0.05
"""How often PhiPassPass's sample player calls when it may do something else."""


def rare_calls(state: State, rng: random.Random) -> Action:
    """PhiPassPass's sample player: any legal action, but a call only now and then.

    Played uniformly at random, PhiPassPass almost never ends: anyone may call, in two
    windows a turn (PHI-2), and a random call sets the game back far more often than a
    reveal moves it on. Calling one time in twenty, games end within about 2,000 actions."""
    legal = legal_actions(state)
    calls = [a for a in legal if isinstance(a, Call)]
    others = [a for a in legal if not isinstance(a, Call)]
    if calls and (not others or rng.random() < CALL_RATE):
        return rng.choice(calls)
    return rng.choice(others)


def _engine(rules: RuleSet, bound: int, policy: bool) -> PassPassEngine:
    def sample_config(seed: int) -> Config:
        """Every number of players the rule set allows and every first seat, in turn."""
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        return make_config(rules, players, first=seed % players)

    return Engine(
        name=rules.name,
        new_game=new_game,
        legal_actions=legal_actions,
        apply=apply,
        is_over=is_over,
        actors=actors,
        public_view=public_view,
        hidden=HIDDEN,
        state_from_json=State.from_json,
        action_from_json=action_from_json,
        sample_config=sample_config,
        playout_bound=bound,
        sample_policy=rare_calls if policy else None,
    )


ENGINES: dict[str, PassPassEngine] = {
    # uniform random PtiPassPass games end, though some take tens of thousands of actions
    "ptipasspass": _engine(PTIPASSPASS, 60_000, policy=False),
    "phipasspass": _engine(PHIPASSPASS, 20_000, policy=True),
}
"""Each rule set's engine under the contract, by game name."""
