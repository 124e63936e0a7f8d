"""Swiped bots for self-play (companion/games/swiped/lab.py), the simulated table and tests.

- `random_action`: one random legal action for whichever seat (engine property tests;
  it is the sample player of Swiped's engine contract, `rules/contract.py`).
- `random` (`RandomBot`): random swaps; claims "5 matches" as soon as its own card says
  so; with false claims only refused (SW-5), names a random card between two swaps.
- `deducing` (`DeducingBot`): keeps a belief over the opponent's target card, deduced from
  the public history (the revealed programs and the grids they were played on), claims as
  soon as a claim is sure enough, and programs swaps that raise its own matches without
  telling too much about its card.

A seat's bot sees what its seat may know and nothing else: `act(view, legal)` gets the
seat's `PlayerView` (public view, its own card and program) and the seat's legal actions
(`legal_actions` of the state, kept to the seat: they depend on public facts only); it
returns one of them, or None when it has nothing to do now. `observe(events)` hears the
public events; bots work from views alone too (see `DeducingBot`).

A table that keeps the seeded engine `State` asks through `make_decider(kinds, config,
seed)`: `decide(state, seat) -> Action | None` (see `Decider`).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Protocol

from companion.games.swiped.rules.actions import Action, ClaimCard, ClaimMatches, Program, Swap
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    FalseClaim,
    Pair,
    Phase,
    swap_order,
)
from companion.games.swiped.rules.contract import random_action as random_action
from companion.games.swiped.rules.deck import Card, agreement, make_deck
from companion.games.swiped.rules.engine import PAIRS, apply, is_over, legal_actions, new_game
from companion.games.swiped.rules.events import ClaimChecked, Event, GameWon, ProgramsRevealed
from companion.games.swiped.rules.state import PlayerView, PublicView, State, player_view

BOTS = ("deducing", "random")
"""The bot kinds of `make_bot`, `make_decider` and `selfplay_report`."""

Grid = tuple[str, ...]
Programs = tuple[tuple[Pair, ...], ...]
PAIR_INDEX: dict[Pair, int] = {p: i for i, p in enumerate(PAIRS)}
LOG_PAIRS = math.log(len(PAIRS))


# ------------------------------------------------------------------ swaps and gains (pure)


def swapped(grid: Grid, swap: Pair) -> Grid:
    """SW-4: the grid after exchanging the big cubes of the two colours."""
    a, b = swap
    return tuple(b if c == a else a if c == b else c for c in grid)


@lru_cache(maxsize=8192)
def swap_gains(grid: Grid, card: Card) -> tuple[int, ...]:
    """For each of the 36 swaps (PAIRS order): how many more squares agree with `card`
    after it (-2..2)."""
    where = {colour: square for square, colour in enumerate(grid)}
    gains = []
    for a, b in PAIRS:
        at_a, at_b = card[where[a]], card[where[b]]
        gains.append((at_a == b) + (at_b == a) - (at_a == a) - (at_b == b))
    return tuple(gains)


@lru_cache(maxsize=8192)
def swap_log_likelihoods(grid: Grid, card: Card, beta: float) -> tuple[float, ...]:
    """log P(swap | card) for each of the 36 swaps, for a player who tends to raise its
    own matches: softmax(beta * gain) over the swaps."""
    gains = swap_gains(grid, card)
    counts = Counter(gains)
    log_z = math.log(sum(n * math.exp(beta * g) for g, n in counts.items()))
    return tuple(beta * g - log_z for g in gains)


def program_log_likelihood(grid: Grid, program: Sequence[Pair], card: Card, beta: float) -> float:
    """log P(program | card): its swaps one after the other from `grid`, as their player
    planned them (it cannot know the other seat's swaps)."""
    total = 0.0
    for swap in program:
        total += swap_log_likelihoods(grid, card, beta)[PAIR_INDEX[swap]]
        grid = swapped(grid, swap)
    return total


def _logaddexp(x: float, y: float) -> float:
    if x == -math.inf:
        return y
    if y == -math.inf:
        return x
    top = max(x, y)
    return top + math.log(math.exp(x - top) + math.exp(y - top))


# ----------------------------------------------------------------- deduction (pure)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the public history says about one seat's target card.

    Two models of that seat: a player who tends to raise its matches (softmax(beta * gain)
    over the 36 swaps, `log_greedy`) and a player who swaps at random (1/36 a swap); the
    posterior mixes them, so a random opponent does not make the bot sure of a wrong card.
    """

    candidates: tuple[int, ...]
    """The cards it may be (SW-2: never the face-up card, never the other seat's card)."""
    log_greedy: tuple[float, ...]
    """Per candidate: log P(its revealed swaps | that card, a player raising its matches)."""
    swaps: int
    """How many of its swaps were seen (log P under the random model is -swaps * log 36)."""
    missed: tuple[bool, ...]
    """Per candidate: some grid gave it 5 matches and the seat let the grid pass unclaimed."""
    ruled_out: tuple[bool, ...]
    """Per candidate: named in a refused claim (SW-5), so not it."""


def start_evidence(candidates: Sequence[int]) -> Evidence:
    n = len(candidates)
    return Evidence(tuple(candidates), (0.0,) * n, 0, (False,) * n, (False,) * n)


def add_program(
    evidence: Evidence, grid: Grid, program: Sequence[Pair], deck: Sequence[Card], beta: float
) -> Evidence:
    """The seat's revealed program, planned on `grid` (the grid while programming)."""
    log_greedy = tuple(
        ll + program_log_likelihood(grid, program, deck[card - 1], beta)
        for card, ll in zip(evidence.candidates, evidence.log_greedy, strict=True)
    )
    return replace(evidence, log_greedy=log_greedy, swaps=evidence.swaps + len(program))


def add_passed_grid(evidence: Evidence, grid: Grid, deck: Sequence[Card]) -> Evidence:
    """A grid the seat could claim "5 matches" on and let pass: its card is unlikely to be
    one with 5 matches there."""
    missed = tuple(
        was or agreement(grid, deck[card - 1]) >= MATCHES_TO_WIN
        for card, was in zip(evidence.candidates, evidence.missed, strict=True)
    )
    return replace(evidence, missed=missed)


def rule_out(evidence: Evidence, card: int) -> Evidence:
    """SW-5 with false claims refused: a named card that left the game going is not it."""
    ruled = tuple(
        was or c == card for c, was in zip(evidence.candidates, evidence.ruled_out, strict=True)
    )
    return replace(evidence, ruled_out=ruled)


def posterior(
    evidence: Evidence, rational: float = 0.8, missed_claim: float = 0.2
) -> dict[int, float]:
    """P(card | evidence) over the candidates, from a uniform prior. `rational` is the prior
    weight of the player raising its matches (against one swapping at random);
    `missed_claim` the likelihood that a player lets pass a grid giving it 5 matches."""
    log_random = -evidence.swaps * LOG_PAIRS + (
        math.log(1 - rational) if rational < 1 else -math.inf
    )
    log_rational = math.log(rational) if rational > 0 else -math.inf
    log_missed = math.log(missed_claim) if missed_claim > 0 else -math.inf
    logs: list[float] = []
    for ll, missed, ruled in zip(
        evidence.log_greedy, evidence.missed, evidence.ruled_out, strict=True
    ):
        if ruled:
            logs.append(-math.inf)
            continue
        value = _logaddexp(log_rational + ll, log_random)
        logs.append(value + (log_missed if missed else 0.0))
    top = max(logs, default=-math.inf)
    if top == -math.inf:  # every model ruled everything out: fall back on what is left
        left = [c for c, r in zip(evidence.candidates, evidence.ruled_out, strict=True) if not r]
        left = left or list(evidence.candidates)
        return {c: (1 / len(left) if c in left else 0.0) for c in evidence.candidates}
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    return {c: w / total for c, w in zip(evidence.candidates, weights, strict=True)}


def rationality(evidence: Evidence, rational: float = 0.8) -> float:
    """P(the seat is the player raising its matches, not a random one | its swaps)."""
    if rational <= 0 or rational >= 1:
        return rational
    logs = [
        math.log(rational) + ll
        for ll, ruled in zip(evidence.log_greedy, evidence.ruled_out, strict=True)
        if not ruled
    ]
    if not logs:
        return 0.0
    top = max(logs)
    log_greedy = top + math.log(sum(math.exp(x - top) for x in logs) / len(logs))
    log_random = math.log(1 - rational) - evidence.swaps * LOG_PAIRS
    return 1 / (1 + math.exp(min(700.0, log_random - log_greedy)))


# ------------------------------------------------------------ the public history (pure)


def executed_swaps(public: PublicView, config: Config) -> list[Pair]:
    """The swaps of this manche done so far, in order (SW-4: a skipped one left out), from
    the public view alone."""
    revealed = public.revealed
    if revealed is None:
        return []
    order = swap_order(config, public.manche)
    done: list[Pair] = []
    for index in range(public.step):
        seat, phase = order[index]
        swap = revealed[seat][phase - 1]
        if index % 2 == 1 and revealed[order[index - 1][0]][phase - 1] == swap:
            continue
        done.append(swap)
    return done


def manche_grids(
    start: Grid, programs: Programs, config: Config, manche: int, steps: int
) -> list[Grid]:
    """The grid at the reveal, then after each swap done within the first `steps` (SW-4)."""
    order = swap_order(config, manche)
    grids = [start]
    for index in range(min(steps, len(order))):
        seat, phase = order[index]
        swap = programs[seat][phase - 1]
        if index % 2 == 1 and programs[order[index - 1][0]][phase - 1] == swap:
            continue
        grids.append(swapped(grids[-1], swap))
    return grids


def reveal_grid(public: PublicView, config: Config) -> Grid:
    """The grid the revealed programs were planned on: the swaps done so far, undone."""
    grid = public.grid
    for swap in reversed(executed_swaps(public, config)):
        grid = swapped(grid, swap)
    return grid


# ------------------------------------------------------------------------------ bots


def seat_actions(legal: Sequence[Action], seat: int) -> tuple[Action, ...]:
    """The actions of `legal` that are `seat`'s."""
    return tuple(a for a in legal if getattr(a, "seat", None) == seat)


def _require_seeded(config: Config) -> None:
    if config.deal is not Deal.SEEDED:
        raise ValueError(
            "Swiped bots play a SEEDED deal (a simulated table keeps one and asks them); "
            f"not {config.deal}"
        )


class Bot(Protocol):
    """One seat's player: `act` returns one of `legal` (the seat's legal actions) or None
    when it has nothing to do now; `observe` hears every public event."""

    seat: int

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action | None: ...

    def observe(self, events: Sequence[Event]) -> None: ...


class RandomBot:
    """Random swaps; "5 matches" as soon as its own card says so; with false claims only
    refused, a random card (not its own, not the face-up one) between two swaps."""

    def __init__(self, seat: int, config: Config, rng: random.Random) -> None:
        _require_seeded(config)
        self.seat = seat
        self.config = config
        self.rng = rng

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        mine = seat_actions(legal, self.seat)
        if not mine:
            return None
        claim = ClaimMatches(self.seat)
        if view.matches >= MATCHES_TO_WIN and claim in mine:
            return claim
        if self.config.false_claim is FalseClaim.REFUSED and view.public.revealed is not None:
            cards = [
                a
                for a in mine
                if isinstance(a, ClaimCard) and a.card not in (view.target, view.public.layout_card)
            ]
            if cards:
                return self.rng.choice(cards)
        for action in mine:
            if isinstance(action, Swap):
                return action
        programs = [a for a in mine if isinstance(a, Program)]
        return self.rng.choice(programs) if programs else None

    def observe(self, events: Sequence[Event]) -> None:
        pass


@dataclass(frozen=True, slots=True)
class DeducingParams:
    """The deducing bot's knobs."""

    beta: float = 1.5
    """How strongly a player is assumed to prefer swaps raising its matches (softmax)."""
    rational: float = 0.8
    """Prior weight of "the opponent raises its matches" against "it swaps at random"."""
    missed_claim: float = 0.2
    """Likelihood that the opponent lets a grid giving it 5 matches pass unclaimed."""
    claim_threshold: float = 0.9
    """Name the top card when its posterior reaches this (a false claim loses)."""
    refused_threshold: float = 0.0
    """The same when false claims are only refused (SW-5, configurable): a refused claim
    costs nothing but the gap's claim, so by default the bot names its top card in every
    gap once the programs are revealed (and learns that card was not it)."""
    leak_weight: float = 1.0
    """Programming: cost per unit of what a swap would tell the opponent of its card."""
    harm_weight: float = 0.5
    """Programming: cost per match a swap is expected to give the opponent (over the
    belief)."""
    leak_top: bool = True
    """A swap's leak is the top posterior the opponent's deduction could reach (True), or
    the posterior it would give this seat's true card (False)."""
    leak_safe: float = 0.0
    """The part of a leak that costs nothing."""
    min_gain: int = -2
    """Programming never picks a swap losing more matches than this, unless all do."""
    adaptive: bool = True
    """Weigh the leak by how much the opponent plays like a deducer (against at random)."""


class DeducingBot:
    """Deduces the opponent's card from the public history; claims; programs greedily.

    Everything comes from the `PlayerView`s it is shown: at each view it records the
    programs of a manche once they are revealed, and the grid they were planned on (the
    view's grid with the swaps done so far undone, so it need not see every step), then
    the grids the opponent let pass without claiming. Events are optional: when
    `observe` is fed, a refused "I know your card" claim of its own is learnt from the
    ClaimChecked verdict; when not, the bot assumes the action it returned was applied, so
    a card it named while the game went on was not the opponent's.
    """

    def __init__(
        self,
        seat: int,
        config: Config,
        rng: random.Random,
        params: DeducingParams | None = None,
    ) -> None:
        _require_seeded(config)
        self.seat = seat
        self.config = config
        self.rng = rng
        self.params = params or DeducingParams()
        self.deck = make_deck(config.deck_size, config.deck_seed)
        self.opponent: Evidence | None = None
        """What the public history says of the opponent's card."""
        self.exposure: Evidence | None = None
        """What the same history tells the opponent of this seat's card."""
        self._history: dict[int, tuple[Grid, Programs]] = {}
        self._passed: set[Grid] = set()
        self._plan: tuple[int, tuple[Pair, ...]] | None = None
        self._named: int | None = None
        self._hears_events = False
        self._belief: dict[int, float] | None = None

    # ------------------------------------------------------------------ knowledge

    def belief(self) -> dict[int, float]:
        """P(the opponent's card), from what it has seen so far (empty before any view)."""
        if self.opponent is None:
            return {}
        if self._belief is None:
            p = self.params
            self._belief = posterior(self.opponent, p.rational, p.missed_claim)
        return self._belief

    def update(self, view: PlayerView) -> None:
        """Learn from one view (idempotent: `act` calls it; a harness may too)."""
        public = view.public
        if public.layout_card is None or view.target is None:
            return  # nothing is drawn yet
        if self.opponent is None or self.exposure is None:
            others = [c for c in range(1, self.config.deck_size + 1) if c != public.layout_card]
            self.opponent = start_evidence([c for c in others if c != view.target])
            self.exposure = start_evidence(others)
        if self._named is not None and not self._hears_events and public.phase is not Phase.OVER:
            self._rule_out(self._named)
        before = (self.opponent, self.exposure)
        if public.revealed is not None and public.manche not in self._history:
            grid = reveal_grid(public, self.config)
            self._history[public.manche] = (grid, public.revealed)
            beta = self.params.beta
            opp = 1 - self.seat
            self.opponent = add_program(self.opponent, grid, public.revealed[opp], self.deck, beta)
            self.exposure = add_program(
                self.exposure, grid, public.revealed[self.seat], self.deck, beta
            )
        for grid in self._passed_grids(public):
            if grid not in self._passed:
                self._passed.add(grid)
                self.opponent = add_passed_grid(self.opponent, grid, self.deck)
                self.exposure = add_passed_grid(self.exposure, grid, self.deck)
        if (self.opponent, self.exposure) != before:
            self._belief = None

    def _passed_grids(self, public: PublicView) -> list[Grid]:
        """Grids both seats could claim on, already followed by a swap."""
        grids: list[Grid] = []
        finished = public.manche - 1 if public.phase is Phase.PROGRAM else public.manche
        for manche in (finished, public.manche):
            if manche not in self._history:
                continue
            start, programs = self._history[manche]
            steps = public.step if manche == public.manche and public.revealed else 6
            grids += manche_grids(start, programs, self.config, manche, steps)[:-1]
        if not self.config.claim_before_first_swap and 1 in self._history:
            grids = [g for g in grids if g != self._history[1][0]]
        return grids

    def _rule_out(self, card: int) -> None:
        assert self.opponent is not None
        self.opponent = rule_out(self.opponent, card)
        self._named = None
        self._belief = None

    def observe(self, events: Sequence[Event]) -> None:
        self._hears_events = True
        for event in events:
            if (
                isinstance(event, ClaimChecked)
                and event.seat == self.seat
                and event.claim == "card"
                and not event.correct
                and self._named is not None
            ):
                self._rule_out(self._named)

    def named(self, card: int | None) -> None:
        """The card this seat's table really named with the action just returned, if any
        (a player using this bot's deduction to decide on its own says so)."""
        self._named = card

    # --------------------------------------------------------------------- acting

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        self.update(view)
        mine = seat_actions(legal, self.seat)
        if not mine:
            return None
        claim = self._claim(view, mine)
        if claim is not None:
            return claim
        for action in mine:
            if isinstance(action, Swap):
                return action  # SW-4: the next swap is this seat's revealed pair
        if any(isinstance(a, Program) for a in mine):
            plan = self._program(view)
            a, b = plan[len(view.program)]
            action = Program(self.seat, a, b)
            assert action in mine
            return action
        return None

    def _claim(self, view: PlayerView, mine: Sequence[Action]) -> Action | None:
        matches = ClaimMatches(self.seat)
        if matches not in mine:
            return None
        if view.matches >= MATCHES_TO_WIN:
            return matches
        belief = self.belief()
        if not belief:
            return None
        card = max(belief, key=lambda c: (belief[c], -c))
        threshold = self.params.claim_threshold
        # With refused claims, a card named while programming would use the gap's claim
        # before the reveal tells anything new: it waits for the reveal.
        if self.config.false_claim is FalseClaim.REFUSED and view.public.revealed is not None:
            threshold = min(threshold, self.params.refused_threshold)
        if belief[card] <= 0 or belief[card] < threshold:
            return None
        action = ClaimCard(self.seat, card)
        if action not in mine:
            return None
        self._named = card
        return action

    def _program(self, view: PlayerView) -> tuple[Pair, ...]:
        manche = view.public.manche
        if (
            self._plan is None
            or self._plan[0] != manche
            or self._plan[1][: len(view.program)] != view.program
        ):
            self._plan = (manche, self.plan_program(view))
        return self._plan[1]

    def plan_program(self, view: PlayerView) -> tuple[Pair, ...]:
        """Three swaps chosen one after the other on the grid as its own swaps leave it:
        each maximises its gain in matches, less what it is expected to give the
        opponent (over the belief) and less what it would tell the opponent of its card
        (the posterior the opponent's deduction would give its true card)."""
        assert self.exposure is not None and view.target is not None
        p = self.params
        plan = list(view.program)
        grid = view.public.grid
        exposure = self.exposure
        for swap in plan:
            exposure = add_program(exposure, grid, (swap,), self.deck, p.beta)
            grid = swapped(grid, swap)
        belief = {c: w for c, w in self.belief().items() if w > 0.01}
        mass = sum(belief.values()) or 1.0
        watcher = rationality(self.opponent, p.rational) if self.opponent and p.adaptive else 1.0
        while len(plan) < SWAPS_PER_PROGRAM:
            gains = swap_gains(grid, view.target_layout)
            floor = min(p.min_gain, max(gains))
            scores = [float(g) if g >= floor else -math.inf for g in gains]
            if p.harm_weight and belief:
                for card, weight in belief.items():
                    factor = p.harm_weight * weight / mass
                    for i, g in enumerate(swap_gains(grid, self.deck[card - 1])):
                        scores[i] -= factor * g
            if p.leak_weight and watcher > 0.01:
                weight = p.leak_weight * watcher
                leaks = self._leaks(exposure, grid, view.target)
                scores = [s - weight * leak for s, leak in zip(scores, leaks, strict=True)]
            top = max(scores)
            best = [i for i, s in enumerate(scores) if s >= top - 1e-9]
            swap = PAIRS[self.rng.choice(best)]
            plan.append(swap)
            exposure = add_program(exposure, grid, (swap,), self.deck, p.beta)
            grid = swapped(grid, swap)
        return tuple(plan)

    def _leaks(self, exposure: Evidence, grid: Grid, own: int) -> list[float]:
        """For each swap: the posterior the opponent would give this seat's true card."""
        p = self.params
        log_rational = math.log(p.rational) if p.rational > 0 else -math.inf
        log_random = -(exposure.swaps + 1) * LOG_PAIRS + (
            math.log(1 - p.rational) if p.rational < 1 else -math.inf
        )
        log_missed = math.log(p.missed_claim) if p.missed_claim > 0 else -math.inf
        rows: list[tuple[float, ...]] = []
        bases: list[float] = []
        own_row = -1
        for card, ll, missed, ruled in zip(
            exposure.candidates,
            exposure.log_greedy,
            exposure.missed,
            exposure.ruled_out,
            strict=True,
        ):
            if ruled:
                continue
            if card == own:
                own_row = len(rows)
            rows.append(swap_log_likelihoods(grid, self.deck[card - 1], p.beta))
            bases.append(log_rational + ll + (log_missed if missed else 0.0))
        leaks = []
        for i in range(len(PAIRS)):
            logs = [
                _logaddexp(base + row[i], log_random) for base, row in zip(bases, rows, strict=True)
            ]
            top = max(logs)
            total = sum(math.exp(x - top) for x in logs)
            if p.leak_top:
                leaks.append(max(0.0, 1 / total - p.leak_safe))
            else:
                leaks.append(math.exp(logs[own_row] - top) / total if own_row >= 0 else 0.0)
        return leaks


def make_bot(
    kind: str, seat: int, config: Config, rng: random.Random, params: DeducingParams | None = None
) -> Bot:
    if kind == "random":
        return RandomBot(seat, config, rng)
    if kind == "deducing":
        return DeducingBot(seat, config, rng, params)
    raise ValueError(f"unknown Swiped bot {kind!r}; bots are {', '.join(BOTS)}")


class Decider:
    """`decide(state, seat)`: the seat's next action, or None when it has nothing to do now
    (its three swaps programmed and no claim wanted, or the other seat's swap is next).

    From `state` it takes only `player_view(state, seat)` and the seat's share of
    `legal_actions(state)` (which depends on public facts only). Contract: an action it
    returns is legal in that state and the table applies it; a table that may drop one
    should feed every event to `observe` (the bots then learn claim verdicts from the
    events instead). While programs are revealed, a table should ask at least once a
    manche (it asks at every step anyway, for the claims and the forced swap)."""

    def __init__(
        self, kinds: Sequence[str], config: Config, seed: int, params: DeducingParams | None = None
    ) -> None:
        if not kinds:
            raise ValueError(f"no bot kind given; bots are {', '.join(BOTS)}")
        self.config = config
        self.bots: list[Bot] = [
            make_bot(kinds[s % len(kinds)], s, config, random.Random(f"{seed}:bot:{s}"), params)
            for s in range(PLAYERS)
        ]

    def __call__(self, state: State, seat: int) -> Action | None:
        legal = seat_actions(legal_actions(state), seat)
        return self.bots[seat].act(player_view(state, seat), legal)

    def observe(self, events: Sequence[Event]) -> None:
        for bot in self.bots:
            bot.observe(events)


def make_decider(
    kinds: Sequence[str], config: Config, seed: int, params: DeducingParams | None = None
) -> Decider:
    """A `Decider` with bot `kinds[seat % len(kinds)]` at each seat, seeded from `seed`."""
    return Decider(kinds, config, seed, params)


# ---------------------------------------------------------------------------- self-play

SNAPSHOT_MANCHES = 3
"""The report gives the deducing bot's belief after the reveal of manches 1..3."""


@dataclass
class Totals:
    """What the games of a self-play run add up to."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    """By seat."""
    wins_as_first: list[int] = field(default_factory=lambda: [0, 0])
    """By seat, in the games where that seat was player 1."""
    games_as_first: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    manches: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    card_claims: Counter[tuple[int, bool]] = field(default_factory=Counter)
    """(seat, correct) of every "I know your card" claim."""
    truth: dict[int, list[float]] = field(default_factory=dict)
    """Per manche: the posterior the deducing bot gave the true card after the reveal."""
    ranks: dict[int, list[int]] = field(default_factory=dict)


def _snapshot(state: State, bots: Sequence[Bot], totals: Totals) -> None:
    for seat, bot in enumerate(bots):
        if not isinstance(bot, DeducingBot):
            continue
        bot.update(player_view(state, seat))
        belief = bot.belief()
        true = state.target(1 - seat)
        p = belief.get(true, 0.0)
        totals.truth.setdefault(state.manche, []).append(p)
        totals.ranks.setdefault(state.manche, []).append(1 + sum(w > p for w in belief.values()))


def play_game(
    config: Config, seed: int, bots: Sequence[Bot], totals: Totals, rng: random.Random
) -> State:
    """One whole game. At each moment both seats are asked, in a random order (`rng`): a
    claim goes first (SW-5: between two swaps either player may speak), else the first
    action offered (a programmed swap, or the forced swap of SW-4). Every event goes to
    both bots."""
    state, opening = new_game(config, seed)
    for bot in bots:
        bot.observe(opening)
    for _ in range(100_000):
        if is_over(state):
            break
        legal = legal_actions(state)
        order = [0, 1] if rng.random() < 0.5 else [1, 0]
        offers = [bots[s].act(player_view(state, s), seat_actions(legal, s)) for s in order]
        claims = [a for a in offers if isinstance(a, ClaimMatches | ClaimCard)]
        moves = [a for a in offers if a is not None]
        if not moves:
            raise RuntimeError(f"no bot acts in manche {state.manche}, phase {state.phase}")
        action = claims[0] if claims else moves[0]
        state, events = apply(state, action)
        for bot in bots:
            bot.observe(events)
        _count(events, totals)
        if (
            any(isinstance(e, ProgramsRevealed) for e in events)
            and state.manche <= SNAPSHOT_MANCHES
        ):
            _snapshot(state, bots, totals)
    else:  # pragma: no cover - a manche limit or the bots end every game
        raise RuntimeError("a self-play game did not end")
    totals.games += 1
    totals.manches += state.manche
    first = config.first
    totals.games_as_first[first] += 1
    if state.drawn:
        totals.draws += 1
        totals.endings["draw (manche limit)"] += 1
    elif state.winner is not None:
        totals.wins[state.winner] += 1
        if state.winner == first:
            totals.wins_as_first[first] += 1
    return state


def _count(events: Sequence[Event], totals: Totals) -> None:
    for event in events:
        if isinstance(event, ClaimChecked) and event.claim == "card":
            totals.card_claims[(event.seat, event.correct)] += 1
        if isinstance(event, GameWon):
            checked = next(e for e in events if isinstance(e, ClaimChecked))
            if not checked.correct:
                totals.endings["false claim, lost"] += 1
            elif checked.claim == "matches":
                totals.endings["5 matches"] += 1
            else:
                totals.endings["card named"] += 1


ENDINGS = ("5 matches", "card named", "false claim, lost", "draw (manche limit)")
