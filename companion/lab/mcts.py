"""A bot that thinks: determinized UCT over what one seat knows (information-set MCTS).

The search never receives the true state of a game. Its input is a seat's knowledge `K`
(each game defines it in `companion/games/<game>/mcts.py`: the public view, the seat's own
private facts and what it remembers having seen), and the game's `Thinking` says how to
draw a whole state consistent with that knowledge from the bot's own seeded RNG (a
determinization). Each iteration draws one, walks down one shared tree by UCB among the
actions legal in that draw (single-observer ISMCTS: a child's prior chances count only the
iterations where it was legal), adds one node, plays the game on with the game's playout
policy to a horizon, and credits every seat on the path with its value of the end
(1 for a win, a share of the estimate otherwise).

A game whose decisions offer many moves of close worth may search `paired` instead: each
iteration draws one world and plays every move of the seat out in it, with the same
playout luck (common random numbers: the moves are compared on the same hidden cards and
the same draws, so a few worlds tell them apart where independent playouts would need
hundreds). The tree's first iterations, by contrast, try the others' moves at random.

Strength is `iterations` per decision; a decision with one legal action is not thought
about. Given the game's heuristic choice (`prior`), it keeps it unless the search found
better beyond its noise. `allowed` restricts the thinking seat's own actions, at the
root and in the tree (restricted play, Jaffe et al. 2012: an agent that may not bluff
against one that may).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K")
S = TypeVar("S")
A = TypeVar("A", bound=Hashable)

EXPLORATION = 0.7
"""UCB's exploration constant for values in [0, 1]."""


@dataclass(frozen=True)
class Thinking(Generic[K, S, A]):
    """One game's part of the search: the rules on a determinized state, and the sampler."""

    sample: Callable[[K, random.Random], S]
    """A whole state consistent with the seat's knowledge, drawn with the bot's RNG."""
    legal: Callable[[S], Sequence[A]]
    """The actions legal in a state, in a fixed order (none once the game is over)."""
    step: Callable[[S, A], S]
    """The state after an action (the rules' own `apply`; a fast path may change the state
    it is given: every iteration draws its own, and `fork` copies it)."""
    mover: Callable[[S, A], int]
    """The seat whose decision an action is (it is credited with its outcome)."""
    playout: Callable[[S, random.Random], tuple[float, ...]]
    """Plays on from a state with the game's playout policy, to the end or a horizon:
    each seat's value of what it reached, in [0, 1]."""
    paired: bool = False
    """Compare the seat's moves in each drawn world (`_paired`), not down a tree."""
    fork: Callable[[S], S] | None = None
    """A copy of a state to play on apart, for a game whose `step` changes the state it is
    given (a paired search plays every move from one draw); None: states never change."""
    measured_noise: bool = False
    """Whether the search judges its noise by the spread of its own playouts' values (their
    variance pooled over the root's actions) rather than by the widest any values in
    [0, 1] can have: for a game whose playouts are worth shares of a win, seldom 0 or 1
    (with three seats or more), that bound would hide every gain behind the noise."""


@dataclass
class _Node(Generic[A]):
    children: dict[A, _Node[A]] = field(default_factory=dict)
    visits: int = 0
    value: float = 0.0
    """The sum of the values of the seat that chose the action leading here."""
    squares: float = 0.0
    """The sum of their squares (for the spread of the values)."""
    available: int = 0
    """Iterations in which the action leading here was legal (ISMCTS's prior count)."""


def think(
    thinking: Thinking[K, S, A],
    knowledge: K,
    seat: int,
    legal: Sequence[A],
    iterations: int,
    rng: random.Random,
    allowed: Callable[[S, A], bool] | None = None,
    prior: A | None = None,
) -> A:
    """The seat's choice among `legal` (its own legal actions, as the table offers them),
    after `iterations` determinized UCT iterations from what it knows. Deterministic for
    a given knowledge, legal list, iterations and state of `rng`.

    `prior` is the game's heuristic choice: kept unless the search found an action better
    by more than its noise (one standard error of the difference: from the widest variance
    values in [0, 1] can have, or the one measured if the game says so), so that few
    iterations of noisy playouts do not make a worse player than the playout policy itself."""
    options = list(legal)
    if allowed is not None and len(options) > 1:
        # A restriction reads only the seat's own facts (its token, its hand), which every
        # draw of what it knows holds alike: one draw judges its legal actions.
        probe = thinking.sample(knowledge, rng)
        options = [a for a in legal if allowed(probe, a)] or options
    if len(options) == 1 or iterations <= 0:
        return options[0]
    if thinking.paired:
        return _paired(thinking, knowledge, seat, options, iterations, rng, prior)
    root: _Node[A] = _Node()
    for _ in range(iterations):
        state = thinking.sample(knowledge, rng)
        _iterate(thinking, root, state, options, seat, rng, allowed)
    best = _best(root, options)
    if prior is None or prior == best or prior not in root.children:
        return best
    b, p = root.children[best], root.children[prior]
    if p.visits == 0:
        return best
    variance = _variance(root) if thinking.measured_noise else WIDEST
    noise = math.sqrt(variance / b.visits + variance / p.visits)
    return best if b.value / b.visits - p.value / p.visits > noise else prior


PAIRED_MARGIN = 2.0
"""A paired search leaves the heuristic's choice for a move better in the mean by more than
this many standard errors of the paired differences."""


def _paired(
    thinking: Thinking[K, S, A],
    knowledge: K,
    seat: int,
    options: Sequence[A],
    worlds: int,
    rng: random.Random,
    prior: A | None,
) -> A:
    """The move of best mean value over `worlds` drawn worlds, every move played out in
    each world with the same playout draws; the `prior` unless the best beats it clearly
    (its paired differences' mean above `PAIRED_MARGIN` standard errors)."""
    values: dict[A, list[float]] = {a: [] for a in options}
    fork = thinking.fork or (lambda state: state)
    for _ in range(worlds):
        drawn, luck = thinking.sample(knowledge, rng), rng.getrandbits(64)
        for action in options:
            state = thinking.step(fork(drawn), action)
            values[action].append(thinking.playout(state, random.Random(luck))[seat])
    best = max(options, key=lambda a: sum(values[a]))
    if prior not in values or prior == best:
        return best
    if worlds < 2:  # one world cannot tell the move's worth from its luck
        return prior
    gains = [b - p for b, p in zip(values[best], values[prior], strict=True)]
    mean = sum(gains) / worlds
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (worlds - 1) / worlds)
    return best if mean > PAIRED_MARGIN * spread else prior


WIDEST = 0.25
"""The widest variance of values in [0, 1] (half of them 0, half 1)."""


def _variance(root: _Node[A]) -> float:
    """The variance of a playout's value around its action's mean, pooled over the root's
    actions (the widest when too few iterations to measure it)."""
    searched = [c for c in root.children.values() if c.visits > 0]
    freedom = sum(c.visits for c in searched) - len(searched)
    if freedom <= 0:
        return WIDEST
    spread = sum(c.squares - c.value * c.value / c.visits for c in searched)
    return min(max(spread, 0.0) / freedom, WIDEST)


def _best(root: _Node[A], options: Sequence[A]) -> A:
    """The best mean among the actions searched at least half as often as the most
    searched one (the most visited alone is a coin toss when the values are close)."""
    visits = {a: root.children[a].visits if a in root.children else 0 for a in options}
    most = max(visits.values())
    sure = [a for a in options if visits[a] > 0 and 2 * visits[a] >= most]
    return max(sure, key=lambda a: root.children[a].value / root.children[a].visits)


def _iterate(
    thinking: Thinking[K, S, A],
    root: _Node[A],
    state: S,
    options: Sequence[A],
    seat: int,
    rng: random.Random,
    allowed: Callable[[S, A], bool] | None,
) -> None:
    path: list[tuple[_Node[A], int]] = []
    node = root
    legal: Sequence[A] = options
    while legal:
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
        untried = [a for a in legal if a not in node.children]
        if untried:
            action = rng.choice(untried)
            mover = thinking.mover(state, action)
            child = _Node(available=1)
            node.children[action] = child
            state = thinking.step(state, action)
            path.append((child, mover))
            break
        action = _select(node, legal)
        path.append((node.children[action], thinking.mover(state, action)))
        state = thinking.step(state, action)
        node = node.children[action]
        legal = _own(thinking.legal(state), thinking, state, seat, allowed)
    values = thinking.playout(state, rng)
    for child, mover in path:
        child.visits += 1
        value = values[mover]
        child.value += value
        child.squares += value * value


def _own(
    legal: Sequence[A],
    thinking: Thinking[K, S, A],
    state: S,
    seat: int,
    allowed: Callable[[S, A], bool] | None,
) -> Sequence[A]:
    """The legal actions, those of the thinking seat kept to what it allows itself."""
    if allowed is None:
        return legal
    kept = [a for a in legal if thinking.mover(state, a) != seat or allowed(state, a)]
    return kept or legal


def _select(node: _Node[A], legal: Sequence[A]) -> A:
    best, best_score = legal[0], -math.inf
    for action in legal:
        child = node.children[action]
        if child.visits == 0:
            return action
        score = child.value / child.visits + EXPLORATION * math.sqrt(
            math.log(max(child.available, 1)) / child.visits
        )
        if score > best_score:
            best, best_score = action, score
    return best


@dataclass(frozen=True)
class Spec:
    """A thinking bot kind as a variant names it: ``mcts``, ``mcts:200``,
    ``mcts:200/never-bluff`` (iterations per decision, and a restriction of the game's)."""

    iterations: int
    restriction: str | None = None

    @property
    def kind(self) -> str:
        base = f"{KIND}:{self.iterations}"
        return base if self.restriction is None else f"{base}/{self.restriction}"


KIND = "mcts"
DEFAULT_ITERATIONS = 100
MAX_ITERATIONS = 100_000


def parse_kind(kind: str) -> Spec | None:
    """The thinking bot a kind names, None for another kind; ValueError (one sentence)
    for a malformed one."""
    head, _, restriction = kind.partition("/")
    name, colon, count = head.partition(":")
    if name != KIND:
        return None
    iterations = DEFAULT_ITERATIONS
    if colon:
        if not count.isdigit() or not 1 <= int(count) <= MAX_ITERATIONS:
            raise ValueError(_say("iterations", kind=repr(kind), most=MAX_ITERATIONS))
        iterations = int(count)
    if "/" in kind and not restriction:
        raise ValueError(_say("no_restriction", kind=repr(kind)))
    return Spec(iterations, restriction or None)


def _say(key: str, /, **fields: object) -> str:
    """What is wrong with a thinking bot's kind, in the command line's language."""
    from companion.report_words import THINKING_SAYS

    return THINKING_SAYS.say(key, **fields)


def win_values(players: int, winners: Sequence[int]) -> tuple[float, ...]:
    """Each seat's value of a finished game: the win shared among its winners."""
    if not winners:
        return tuple(1.0 / players for _ in range(players))
    share = 1.0 / len(winners)
    return tuple(share if s in winners else 0.0 for s in range(players))


def estimate_values(scores: Sequence[float], temperature: float = 1.0) -> tuple[float, ...]:
    """Each seat's value of an unfinished game from its standing (higher is better): its
    share of the win by a softmax of the scores, so that a small lead is a small edge
    (a lead of `temperature` is worth e to 1 against a trailing seat)."""
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)
