"""The engine contract of ARCHITECTURE.md, checked the same way on every game.

Seeded playouts end within a bound, some action is legal until the game is over (and none
after), states and actions round-trip through JSON, replaying the actions gives the same
state, and the public view has no field for a hidden fact. Each engine's own tests go
further; this suite keeps them all to one contract.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from companion.games.flipdone import bots as flipdone_bot
from companion.games.flipdone import rules as flipdone
from companion.games.passpass import rules as passpass
from companion.games.passpass.bots import make_bot
from companion.games.passpass.selfplay import choose
from companion.games.swiped import bots as swiped_bot
from companion.games.swiped import rules as swiped
from companion.games.vnp import bots as vnp_bot
from companion.games.vnp import rules as vnp


@dataclass(frozen=True)
class Player:
    choose: Callable[[Any], Any]
    observe: Callable[[Any], None] = lambda events: None


@dataclass(frozen=True)
class Game:
    name: str
    engine: ModuleType
    start: Callable[[int], Any]
    over: Callable[[Any], bool]
    policy: Callable[[Any, random.Random], Player]
    """(first state, rng) -> a player choosing one legal action per state."""
    hidden: frozenset[str]
    bound: int


def uniform(_state: Any, rng: random.Random) -> Player:
    return Player(lambda s: rng.choice(passpass.legal_actions(s)))


def heuristic_table(state: passpass.State, rng: random.Random) -> Player:
    """PhiPassPass played uniformly at random almost never ends (anyone may call, two
    windows a turn), so its playouts use the heuristic bots with random seeds."""
    cfg = state.config
    bots = [
        make_bot("heuristic", random.Random(rng.random()), seat, cfg.layout)
        for seat in range(cfg.players)
    ]

    def observe(events: Any) -> None:
        for bot in bots:
            bot.observe(events)

    return Player(lambda s: choose(s, bots), observe)


def _pass_start(game: str, seed: int) -> passpass.State:
    low = 2 if game == "ptipasspass" else 3
    players = low + seed % (7 - low)
    return passpass.new_game(passpass.make_config(game, players, first=seed % players))


PASSPASS_HIDDEN = frozenset({"hats", "hands", "holding"})
FLIPDONE_HIDDEN = frozenset({"under", "hands", "deck", "discards", "played"})
GAMES = [
    Game(
        "ptipasspass", passpass, lambda seed: _pass_start("ptipasspass", seed),
        lambda s: s.phase is passpass.Phase.OVER, uniform, PASSPASS_HIDDEN, 60_000,
    ),
    Game(
        "phipasspass", passpass, lambda seed: _pass_start("phipasspass", seed),
        lambda s: s.phase is passpass.Phase.OVER, heuristic_table, PASSPASS_HIDDEN, 20_000,
    ),
    Game(
        "flipdone", flipdone,
        lambda seed: flipdone.new_game(flipdone.make_config(tie_phase_limit=4), seed),
        lambda s: s.stage is flipdone.Stage.OVER,
        lambda _s, rng: Player(lambda s: flipdone_bot.random_action(s, rng)),
        FLIPDONE_HIDDEN, 5_000,
    ),
    Game(  # FD-2: a real table deals; the random player deals too (any unseen card, square)
        "flipdone-observed", flipdone,
        lambda seed: flipdone.new_game(
            flipdone.make_config(
                tie_phase_limit=4, deal="observed", first=seed % 3,
                first_element=("centre", "chosen")[seed % 2],
            ),
            seed,
        ),
        lambda s: s.stage is flipdone.Stage.OVER,
        lambda _s, rng: Player(lambda s: flipdone_bot.random_action(s, rng)),
        FLIPDONE_HIDDEN, 5_000,
    ),
    Game(
        "swiped", swiped,
        lambda seed: swiped.new_game(swiped.make_config(manche_limit=8), seed),
        lambda s: s.phase is swiped.Phase.OVER,
        lambda _s, rng: Player(lambda s: swiped_bot.random_action(s, rng)),
        frozenset({"targets", "secret_programs"}), 5_000,
    ),
    Game(  # SW-2: a real table draws; the random player draws any card and swaps any pair
        "swiped-observed", swiped,
        lambda seed: swiped.new_game(
            swiped.make_config(manche_limit=8, deal="observed", first=seed % 2), seed
        ),
        lambda s: s.phase is swiped.Phase.OVER,
        lambda _s, rng: Player(lambda s: swiped_bot.random_action(s, rng)),
        frozenset({"targets", "secret_programs"}), 5_000,
    ),
    Game(
        "vnp", vnp,
        lambda seed: vnp.new_game(vnp.make_config(mode=("four", "two", "teams")[seed % 3])),
        lambda s: s.over,
        lambda _s, rng: Player(lambda s: vnp_bot.random_action(s, rng)),
        frozenset(), 200,  # nothing is hidden; at most 4 x 24 placements and 4 passes
    ),
]  # fmt: skip


def playout(game: Game, seed: int) -> tuple[Any, list[Any], Any]:
    """First state, the actions played, and the last state, checking every step."""
    engine = game.engine
    first = state = game.start(seed)
    player = game.policy(first, random.Random(seed))
    actions = []
    for step in range(game.bound):
        legal = engine.legal_actions(state)
        if game.over(state):
            assert legal == (), f"{game.name}: legal actions after the end"
            return first, actions, state
        assert legal, f"{game.name}: no legal action in an unfinished game"
        action = player.choose(state)
        assert action in legal
        assert engine.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        state, events = engine.apply(state, action)
        player.observe(events)
        json.dumps([e.to_json() for e in events])
        if step % 13 == 0:
            again = engine.State.from_json(json.loads(json.dumps(state.to_json())))
            assert again == state, f"{game.name}: JSON round trip changed the state"
        actions.append(action)
    raise AssertionError(f"{game.name}: seed {seed} did not end within {game.bound} actions")


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_playouts_end_and_replay_to_the_same_state(game: Game, seed: int) -> None:
    first, actions, last = playout(game, seed)
    state = first
    for action in actions:
        state, _ = game.engine.apply(state, action)
    assert state == last  # replaying the record rebuilds the game


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_public_view_has_no_field_for_a_hidden_fact(game: Game) -> None:
    state = game.start(1)
    state_fields = {f.name for f in dataclasses.fields(state)}
    view_fields = {f.name for f in dataclasses.fields(game.engine.PublicView)}
    assert game.hidden <= state_fields
    assert not view_fields & game.hidden
    assert type(game.engine.public_view(state)) is game.engine.PublicView
