"""The engine contract: what every game's pure rules offer, the same way for each game.

A game's engine is pure: no I/O, no clock, chance only from a seeded RNG. It is a handful
of functions over the game's own frozen types, a config `C`, a state `S`, an action `A`,
an event `E` and a public view `V`; each rules package gathers them in one `Engine`
(`companion/games/<game>/rules/contract.py`, exported as `ENGINE`) and the game's `Game`
descriptor carries it. The generic dataclass is what lets mypy strict check the join: an
engine whose `apply` takes another state type, or a caller expecting another action type,
is a type error, where the convention used to be checked by hand.

What each part is for:

- `new_game(config, seed)` gives the first state AND the events that opened it (a deal, a
  manche announced), so no caller rebuilds them; an engine without chance ignores `seed`.
- `legal_actions(state)` lists every legal action in a fixed order (seeded bots and
  replays depend on it), and none once `is_over(state)`, the one spelling of "game over".
- `apply(state, action)` validates, then gives the next state and the events, which carry
  public facts only; it raises `BadInput`/`IllegalAction` (companion/rules/errors.py) on
  an action it refuses, and never changes `state`.
- `actors(state)` are the seats that may act now (several while a challenge window is open).
- `public_view(state)` is what anyone at the table may know; its type has no field for a
  hidden fact (`hidden` names the state's fields it must never carry).
- States, actions and events are JSON: `to_json()` on each, read back by
  `state_from_json` and `action_from_json`, so a journal or a lab record replays.
- `sample_config(seed)`, `sample_action(state, rng)` and `playout_bound` start and play a
  sample game whose end is certain: the contract suite (tests/rules/test_conformance.py)
  plays them on every registered game. `sample_config` varies the game's variants with
  the seed (both deal modes, seat counts); `sample_action` is a random player that ends
  the game (uniform over the legal actions unless the game says otherwise).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar


class Jsonable(Protocol):
    """A value that writes itself as JSON (states, actions and events)."""

    def to_json(self) -> dict[str, Any]: ...


C = TypeVar("C")
S = TypeVar("S", bound=Jsonable)
A = TypeVar("A", bound=Jsonable)
E = TypeVar("E", bound=Jsonable)
V = TypeVar("V")


@dataclass(frozen=True)
class Engine(Generic[C, S, A, E, V]):
    """One game's pure rules, as the runtime, the lab and the contract suite see them."""

    name: str
    """The game's name, as the registry knows it (for messages)."""
    new_game: Callable[[C, int], tuple[S, tuple[E, ...]]]
    """(config, seed) -> the first state and the events that opened it."""
    legal_actions: Callable[[S], tuple[A, ...]]
    """Every legal action, in a fixed order; () once the game is over."""
    apply: Callable[[S, A], tuple[S, tuple[E, ...]]]
    """(state, action) -> the next state and what happened; raises on a refused action."""
    is_over: Callable[[S], bool]
    """Whether the game is over (then no action is legal)."""
    actors: Callable[[S], frozenset[int]]
    """The seats that may act now (none once the game is over)."""
    public_view: Callable[[S], V]
    """What everyone may know: a dataclass with no field for a hidden fact."""
    hidden: frozenset[str]
    """The state's fields that hold hidden facts (never a field of the public view)."""
    state_from_json: Callable[[Mapping[str, Any]], S]
    """Reads back `state.to_json()`."""
    action_from_json: Callable[[Mapping[str, Any]], A]
    """Reads back `action.to_json()`."""
    sample_config: Callable[[int], C]
    """seed -> the config of a sample game, its variants chosen by the seed."""
    playout_bound: int
    """No sample game played by `sample_action` lasts more actions than this."""
    sample_policy: Callable[[S, random.Random], A] | None = None
    """A random player that ends sample games, when picking uniformly among the legal
    actions would not (or not within a sensible bound). None: uniform."""

    def sample_action(self, state: S, rng: random.Random) -> A:
        """One legal action of the sample player, chosen by `rng` (the game must not be over)."""
        if self.sample_policy is not None:
            return self.sample_policy(state, rng)
        return rng.choice(self.legal_actions(state))

    def sample_game(self, seed: int) -> tuple[S, tuple[E, ...]]:
        """The first state of sample game `seed`, and its opening events."""
        return self.new_game(self.sample_config(seed), seed)


AnyEngine = Engine[Any, Any, Any, Any, Any]
"""An engine of any game (what the registry holds)."""
