"""The lab's fast paths held to their readable engines, step by step, by one contract.

For every registered game with a fast path (docs/lab.md, "Fast paths and the engine"),
seeded random legal games are played on the readable engine, and the fast path is driven
with the very same actions. After every step both must have

- the same legal actions, in a common form (as a set; and in the same order where the fast
  bots draw by the engine's order),
- the same position, in a common form (each fast path's projection of its own, or of the
  engine's),
- said the same: the same events where the fast path makes them (PassPass), else the same
  figures the lab counts from the engine's events (Flip Done: the counters).

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
from companion.games.flipdone import rules as fd
from companion.games.flipdone.fast import common as fd_common
from companion.games.flipdone.fast.core import FastGame as FlipDoneGame
from companion.games.flipdone.fast.reader import tally_of as flipdone_tally
from companion.games.flipdone.fast.tally import PLAYS, SEAT_MANCHES
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


class FlipDoneLockstep(Lockstep):
    """Plays as the fast path's (kind, hand index, square) and positions as a `View`, cards
    by colour (`fast/common.py`); the fast path makes no events: its counters are held to
    those the lab's reader counts from the engine's events."""

    game = "flipdone"
    ordered = True  # the fast bots draw among plays in the engine's order
    engine = fd
    cases = (
        Case("as ruled", lambda seed: fd.make_config(first=seed % 3), 10),
        Case("one phase", lambda seed: fd.make_config(first=seed % 3, manches=1, phases=1), 40),
        Case(
            "chosen first element, extra-only ties, cap 1",
            lambda seed: fd.make_config(
                first=seed % 3,
                manches=2,
                phases=1,
                first_element="chosen",
                manche_tie="extra_only",
                tie_phase_limit=1,
            ),
            20,
        ),
        Case(
            "no tie phase",
            lambda seed: fd.make_config(first=seed % 3, manches=1, phases=2, tie_phase_limit=0),
            20,
        ),
    )

    def start(self, config: fd.Config, seed: int) -> None:
        self.fast = FlipDoneGame(config, seed)

    def legal(self) -> Sequence[Hashable]:
        return self.fast.legal()

    def legal_of(self, state: fd.State, actions: Sequence[Any]) -> Sequence[Hashable]:
        return tuple(fd_common.play_of(state, a) for a in actions)

    def play(self, state: fd.State, action: fd.Action) -> None:
        self.fast.play(fd_common.play_of(state, action))

    def view(self) -> Hashable:
        return fd_common.view(self.fast)

    def view_of(self, state: fd.State) -> Hashable:
        return fd_common.view_of(state)

    def said(self) -> Any:
        tally, fast = self.fast.tally, self.fast
        plays = list(tally.phase_plays)
        if not fast.over:  # the reader counts the phase under way too
            plays.append(fast.counts[PLAYS] - fast.phase_start_plays)
        return tally.counts, tally.seats[SEAT_MANCHES:], plays, tally.finished, tally.winners

    def said_of(self, events: list[Json], step: list[Json]) -> Any:
        tally = flipdone_tally(3, events)
        return (
            tally.counts,
            tally.seats[SEAT_MANCHES:],
            tally.phase_plays,
            tally.finished,
            (tally.winners),
        )


LOCKSTEPS: dict[str, Callable[[], Lockstep]] = {
    "ptipasspass": lambda: PassPassLockstep("ptipasspass", range(2, 7)),
    "phipasspass": lambda: PassPassLockstep("phipasspass", range(3, 7)),
    "flipdone": FlipDoneLockstep,
}
"""Every registered game with a fast path, by name (`test_every_fast_path_is_held`).
Swiped and Vous ne passerez pas ! have none: their engine is their fast path (each
`rules/board.py`)."""


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


REGRESSIONS = [
    # (game, case, seed): where a fast path once left the engine.
    ("flipdone", "as ruled", 9),  # the game won after an overtime phase kept its tie
]


@pytest.mark.parametrize(("name", "case_name", "seed"), REGRESSIONS)
def test_the_fast_path_follows_the_engine_where_it_once_left_it(
    name: str, case_name: str, seed: int
) -> None:
    lock = LOCKSTEPS[name]()
    (case,) = [case for case in lock.cases if case.name == case_name]
    lockstep(lock, case, seed)


def _fast_path_of(name: str) -> str | None:
    """The module of a registered game's fast path, found where a game keeps it: a `fast`
    package, or `rules/fast.py`, beside the module that registers it."""
    package = games.get(name).referee.__module__.rpartition(".")[0]
    for module in (f"{package}.fast", f"{package}.rules.fast"):
        if find_spec(module) is not None:
            return module
    return None


def test_every_fast_path_is_held_to_its_engine() -> None:
    """A game with a fast path (today's PassPass and Flip Done, or a new one) is in this
    contract."""
    with_fast = {name for name in games.names() if _fast_path_of(name)}
    assert with_fast == set(LOCKSTEPS)
