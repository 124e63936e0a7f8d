"""The lab's fast paths held to their readable engines, step by step, by one contract.

For every registered game with a fast path (docs/lab.md, "Fast paths and the engine"),
seeded random legal games are played on the readable engine, and the fast path is driven
with the very same actions. After every step both must have

- the same legal actions, in a common form (as a set; and in the same order where the fast
  bots draw by the engine's order),
- the same position, in a common form (each fast path's projection of its own, or of the
  engine's),
- said the same: the same events, and the same figures the lab counts from the engine's
  events.

A divergence fails naming the game, the case, the seed and the step. Seeds and lengths
keep each game to a few seconds; `COMPANION_FAST_SEEDS=N` plays N seeds of every case.
"""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from importlib.util import find_spec
from typing import Any

import pytest

from companion import games
from companion.games.passpass import rules as pp
from companion.games.passpass.fast.core import FastGame as PassPassGame
from companion.games.passpass.fast.tally import Tally as PassPassTally
from companion.games.passpass.lab import EDITIONS

SEEDS = int(os.environ.get("COMPANION_FAST_SEEDS", "0"))
"""Seeds per case when set; else each case's own count."""

Json = dict[str, Any]


def engine_new_game(game: str, config: Any, seed: int) -> tuple[Any, tuple[Any, ...]]:
    """The engine's opening position and events, by the engine contract. PassPass's fast
    core counts no fact of its opening (the first manche and turn), so it starts without."""
    engine = games.get(game).engine
    assert engine is not None, game
    state, opening = engine.new_game(config, seed)
    return state, () if game in ("ptipasspass", "phipasspass") else opening


# ---------------------------------------------------------------- each game's lockstep


@dataclass(frozen=True)
class Case:
    """A setting of one game: its engine config for a seed, how many seeds, and the steps
    after which a game is cut (random seats can call or claim for long)."""

    name: str
    config: Callable[[int], Any]
    seeds: int
    steps: int = 2000


class Lockstep(ABC):
    """One game's fast path driven beside its readable engine (one game at a time)."""

    game: str
    cases: tuple[Case, ...]
    ordered = False
    """The fast path lists its legal actions in the engine's order (its bots rely on it)."""
    engine: Any
    """The engine module: `legal_actions`, `apply`."""

    @abstractmethod
    def start(self, config: Any, seed: int) -> None:
        """The fast path at the engine's opening of the same game."""
        ...

    @abstractmethod
    def legal(self) -> Sequence[Hashable]:
        """The fast path's legal actions, in the common form."""
        ...

    @abstractmethod
    def legal_of(self, state: Any, actions: Sequence[Any]) -> Sequence[Hashable]:
        """The engine's legal actions, in the common form."""
        ...

    @abstractmethod
    def play(self, state: Any, action: Any) -> None:
        """Drive the fast path with the engine's action (`state`: before it)."""
        ...

    @abstractmethod
    def view(self) -> Hashable:
        """The fast path's position, in the common form."""
        ...

    @abstractmethod
    def view_of(self, state: Any) -> Hashable:
        """The engine's position, in the common form."""
        ...

    @abstractmethod
    def said(self) -> Any:
        """What the fast path said so far: its events of the last step, or its figures."""
        ...

    @abstractmethod
    def said_of(self, events: list[Json], step: list[Json]) -> Any:
        """The same of the engine's events (`events` so far, `step` the last step's)."""
        ...

    def choose(self, rng: random.Random, actions: Sequence[Any]) -> Any:
        """The next action of the random game."""
        return rng.choice(actions)


class PassPassLockstep(Lockstep):
    """The fast core's codes read as readable actions (`FastGame.action`); its position
    as the readable State (`to_state`); its events as `Event.to_json()` (`log`), and its
    figures as the lab's `Tally` counts them from the engine's events."""

    ordered = True  # random playouts draw by index (`play.random_playout`)
    engine = pp

    def __init__(self, game: str, seats: Sequence[int]) -> None:
        self.game = game
        options: list[tuple[str, dict[str, Any]]] = [
            ("round", {}),
            ("timed", {"window": "timed"}),
            ("limit-winner", {"turn_limit": 9, "next_starter": "winner"}),
        ]
        self.cases = tuple(
            Case(f"{players}p-{name}", _passpass_config(game, players, opts), 3, 600)
            for players in seats
            for name, opts in options
        )

    def start(self, config: pp.Config, seed: int) -> None:
        self.log: list[Json] = []
        self.fast = PassPassGame(config, self.log)
        edition = EDITIONS[config.rules.name]
        self.tally = PassPassTally(config.rules, edition, config.players, config.first)

    def legal(self) -> Sequence[Hashable]:
        return tuple(self.fast.action(code) for code in self.fast.legal())

    def legal_of(self, state: pp.State, actions: Sequence[Any]) -> Sequence[Hashable]:
        return tuple(actions)

    def play(self, state: pp.State, action: pp.Action) -> None:
        self.log.clear()
        self.fast.apply(self.fast.code(action))

    def view(self) -> Hashable:
        return self.fast.to_state()

    def view_of(self, state: pp.State) -> Hashable:
        return state

    def said(self) -> Any:
        return list(self.log), self.fast.figures

    def said_of(self, events: list[Json], step: list[Json]) -> Any:
        return step, self.tally.feed(step).figures


def _passpass_config(game: str, players: int, options: dict[str, Any]) -> Callable[[int], Any]:
    return lambda seed: pp.make_config(game, players, first=seed % players, **options)


LOCKSTEPS: dict[str, Callable[[], Lockstep]] = {
    "ptipasspass": lambda: PassPassLockstep("ptipasspass", range(2, 7)),
    "phipasspass": lambda: PassPassLockstep("phipasspass", range(3, 7)),
}
"""Every registered game with a fast path, by name (`test_every_fast_path_is_held`).
Swiped, Flip Done and Vous ne passerez pas ! have none: their engine is their fast path
(each `rules/board.py`)."""


# ---------------------------------------------------------------------------- the test


def _same(where: str, what: str, fast: Any, engine: Any) -> None:
    if fast == engine:
        return
    pairs = [(name, getattr(fast, name), getattr(engine, name)) for name in _fields(fast)]
    differ = [(name, f, e) for name, f, e in pairs if f != e] or [("", fast, engine)]
    said = "".join(f"\n  {name}\n    fast:   {f!r}\n    engine: {e!r}" for name, f, e in differ)
    pytest.fail(f"{where}: {what} differ{said}")


def _fields(value: Any) -> tuple[str, ...]:
    """The fields of a dataclass or a named tuple, to name the ones that differ."""
    if is_dataclass(value):
        return tuple(f.name for f in fields(value))
    return tuple(getattr(value, "_fields", ()))


def _same_legal(
    lock: Lockstep, where: str, fast: Sequence[Hashable], engine: Sequence[Hashable]
) -> None:
    if set(fast) != set(engine):
        only_fast = sorted(map(repr, set(fast) - set(engine)))[:5]
        only_engine = sorted(map(repr, set(engine) - set(fast)))[:5]
        pytest.fail(
            f"{where}: legal actions differ\n  only fast:   {only_fast}\n"
            f"  only engine: {only_engine}"
        )
    if lock.ordered:
        _same(where, "legal actions' order", tuple(fast), tuple(engine))


def lockstep(lock: Lockstep, case: Case, seed: int) -> int:
    """One random game on both; the steps played."""
    config = case.config(seed)
    state, opening = engine_new_game(lock.game, config, seed)
    lock.start(config, seed)
    events: list[Json] = [e.to_json() for e in opening]
    rng = random.Random(f"{lock.game}:{case.name}:{seed}")
    step = 0
    while True:
        where = f"{lock.game} [{case.name}] seed {seed} step {step}"
        _same(where, "positions", lock.view(), lock.view_of(state))
        actions = lock.engine.legal_actions(state)
        _same_legal(lock, where, lock.legal(), lock.legal_of(state, actions))
        if not actions or step == case.steps:
            return step
        action = lock.choose(rng, actions)
        state_before = state
        state, happened = lock.engine.apply(state, action)
        lock.play(state_before, action)
        step += 1
        said = [e.to_json() for e in happened]
        events += said
        where = f"{lock.game} [{case.name}] seed {seed} step {step} ({action!r})"
        _same(where, "events or figures", lock.said(), lock.said_of(events, said))


CASES = [
    pytest.param(name, case, id=f"{name}-{case.name}")
    for name in games.names()
    if name in LOCKSTEPS
    for case in LOCKSTEPS[name]().cases
]


@pytest.mark.parametrize(("name", "case"), CASES)
def test_the_fast_path_equals_the_engine_step_by_step(name: str, case: Case) -> None:
    lock = LOCKSTEPS[name]()
    played = [lockstep(lock, case, seed) for seed in range(SEEDS or case.seeds)]
    assert sum(played) > 10 * len(played)  # whole games (or long stretches), not a step


def _fast_path_of(name: str) -> str | None:
    """The module of a registered game's fast path, found where a game keeps it: a `fast`
    package, or `rules/fast.py`, beside the module that registers it."""
    package = games.get(name).referee.__module__.rpartition(".")[0]
    for module in (f"{package}.fast", f"{package}.rules.fast"):
        if find_spec(module) is not None:
            return module
    return None


def test_every_fast_path_is_held_to_its_engine() -> None:
    """A game with a fast path (today's PassPass, or a new one) is in this contract."""
    with_fast = {name for name in games.names() if _fast_path_of(name)}
    assert with_fast == set(LOCKSTEPS)
