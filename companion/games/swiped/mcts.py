"""The thinking bot of Swiped: what a seat knows, and how to draw a whole position
consistent with it (companion/lab/mcts.py searches over the draws).

A seat knows the public view (the grid, the revealed programs, the claims made), its own
target card and its own program, and what the public history says of both cards: the
deducing bot's evidence (`bots.Evidence`, kept by a `DeducingBot` at the seat: the
revealed programs and the grids they were planned on, the grids let pass unclaimed, the
cards it named that were refused). A draw deals the opponent a target card by the
posterior that evidence gives (never the face-up card nor the seat's own), draws whether
it is a player raising its matches or one swapping at random by the odds its swaps so far
give (`bots.rationality`), and, while the programs are secret, fills the opponent's
entered swaps accordingly (swaps raising its drawn card's matches, or random ones).

The tree weighs the seat's program swaps (a few raising its matches most, a few telling
little of its card, and the deducing bot's choice) and its claims ("I know your card"
on the likeliest cards, or not claiming yet). Playouts are a cheap deducing player at
both seats, to the end of the game or `HORIZON` manches: it programs the swap raising
its matches most, claims "5 matches" when its card says so and names the opponent's
card once its posterior reaches `SURE` (each seat's posterior updated at every reveal);
an opponent drawn as a random swapper swaps at random and names no card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from companion.games.swiped.bots import (
    Bot,
    DeducingBot,
    DeducingParams,
    Evidence,
    add_program,
    make_bot,
    posterior,
    rationality,
    rule_out,
    seat_actions,
    swap_gains,
    swapped,
)
from companion.games.swiped.rules.actions import Action, ClaimCard, ClaimMatches, Program, Swap
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
    Pair,
    Phase,
    swap_order,
)
from companion.games.swiped.rules.deck import make_deck
from companion.games.swiped.rules.engine import PAIRS, apply, may_claim
from companion.games.swiped.rules.events import Event, ProgramsRevealed
from companion.games.swiped.rules.state import PlayerView, State, next_swap
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values
from companion.lab.model import GameRecord, ThinkingTable, Variant
from companion.rules.jsonable import TaggedAction

BETA = DeducingParams().beta
"""The deducing model's taste for swaps raising one's matches (as `DeducingBot` has it)."""
RATIONAL = 0.8
"""The prior weight of an opponent raising its matches against one swapping at random,
in the deduction the search draws cards by."""
HORIZON = 2
"""Playout manches at most after the one being played, when no claim ends it first."""
SURE = 0.9
"""A playout seat names the opponent's card once its posterior reaches this (the
deducing bot's `claim_threshold`)."""
WIDTH = 6
"""Program swaps weighed at a node, at most (half raising the seat's matches most, half
leaving them as they are: `_options`)."""
CLAIMS = 2
"""Cards the seat may name at the root: its likeliest ones..."""
CLAIM_FLOOR = 0.5
"""...when their posterior reaches this (a lesser guess is not worth a search)."""
TEMPERATURE = 1.5
"""An unfinished playout's value: a softmax of each seat's matches plus five times its
posterior of the opponent's card (a lead of this much is worth e to 1)."""


@dataclass(frozen=True, slots=True)
class Wait(TaggedAction):
    """The search's name for a seat letting a moment pass without a claim (the bots'
    `None`): the game goes on as the other seat or the next swap makes it."""

    name: ClassVar[str] = "wait"
    seat: int


Move = Action | Wait


@dataclass(frozen=True)
class Knowledge:
    """All one seat knows: no field holds the other seat's hidden facts."""

    config: Config
    view: PlayerView
    """The public view, the seat's own target card and its own program."""
    opponent: Evidence
    """What the public history says of the opponent's card (`DeducingBot.opponent`)."""
    exposure: Evidence
    """What the same history tells the opponent of this seat's card."""


@dataclass(frozen=True)
class Position:
    """A determinized position: the engine's state and each seat's evidence of the other's
    card, with the card it would name and how sure it is."""

    state: State
    evidence: tuple[Evidence, Evidence]
    tops: tuple[tuple[int, float], tuple[int, float]]
    blind: int | None = None
    """The seat drawn as a player swapping at random (by the odds its swaps so far give,
    `bots.rationality`): it programs at random and never names a card."""


def _top(evidence: Evidence) -> tuple[int, float]:
    belief = posterior(evidence, RATIONAL)
    card = max(belief, key=lambda c: (belief[c], -c))
    return card, belief[card]


def _position(state: State, evidence: tuple[Evidence, Evidence], blind: int | None) -> Position:
    return Position(state, evidence, (_top(evidence[0]), _top(evidence[1])), blind)


def _greedy(grid: tuple[str, ...], card: tuple[str, ...], rng: random.Random) -> Pair:
    """A swap raising the card's matches most (ties at random)."""
    gains = swap_gains(grid, card)
    top = max(gains)
    return PAIRS[rng.choice([i for i, g in enumerate(gains) if g == top])]


def _planned(grid: tuple[str, ...], program: Sequence[Pair]) -> tuple[str, ...]:
    """The grid as a seat's own program so far would leave it (how it plans, SW-3)."""
    for swap in program:
        grid = swapped(grid, swap)
    return grid


def sample(knowledge: Knowledge, rng: random.Random) -> Position:
    """A whole position consistent with what the seat knows: the opponent's card drawn by
    its posterior, the opponent a random swapper or not by the odds of its swaps, its
    secret swaps so far (their count is public) drawn as that player would make them."""
    view, public, config = knowledge.view, knowledge.view.public, knowledge.config
    seat, other = view.seat, 1 - view.seat
    belief = posterior(knowledge.opponent, RATIONAL)
    cards = list(belief)
    card = rng.choices(cards, weights=[belief[c] for c in cards])[0]
    blind = other if rng.random() >= rationality(knowledge.opponent, RATIONAL) else None
    targets = [view.target, view.target]
    targets[other] = card
    secret: list[tuple[Pair, ...]] = [(), ()]
    if public.revealed is None:
        deck = make_deck(config.deck_size, config.deck_seed)
        theirs: list[Pair] = []
        for _ in range(public.programmed[other]):
            grid = _planned(public.grid, theirs)
            theirs.append(
                rng.choice(PAIRS) if blind is not None else _greedy(grid, deck[card - 1], rng)
            )
        secret[seat], secret[other] = view.program, tuple(theirs)
    state = State(
        config=config, seed=0, manche=public.manche, phase=public.phase,
        layout_card=public.layout_card, grid=public.grid, revealed=public.revealed,
        step=public.step, claims=public.claims, winner=public.winner, drawn=public.drawn,
        targets=tuple(targets), secret_programs=tuple(secret), phase_pair=public.phase_pair,
    )  # fmt: skip
    evidence = [knowledge.opponent, knowledge.opponent]
    evidence[other] = rule_out(knowledge.exposure, card)  # it knows its card is not ours
    return _position(state, (evidence[0], evidence[1]), blind)


def _advance(position: Position, action: Move) -> Position:
    """The position after an action: at a reveal each seat's evidence takes in the other's
    program; a refused claim rules its card out."""
    if isinstance(action, Wait):
        return position
    state, events = apply(position.state, action)
    evidence = position.evidence
    if any(isinstance(e, ProgramsRevealed) for e in events):
        deck = make_deck(state.config.deck_size, state.config.deck_seed)
        programs = state.revealed
        assert programs is not None
        evidence = (
            add_program(evidence[0], state.grid, programs[1], deck, BETA),
            add_program(evidence[1], state.grid, programs[0], deck, BETA),
        )
    elif isinstance(action, ClaimCard) and state.phase is not Phase.OVER:
        ruled = rule_out(evidence[action.seat], action.card)
        evidence = (ruled, evidence[1]) if action.seat == 0 else (evidence[0], ruled)
    else:
        return replace(position, state=state)
    return _position(state, evidence, position.blind)


def _options(grid: tuple[str, ...], card: tuple[str, ...]) -> list[Pair]:
    """`WIDTH` swaps: half the swaps raising the card's matches most, half spread over
    those leaving them as they are (a swap that tells the other seat little of the
    card: the search weighs gaining against hiding)."""
    gains = swap_gains(grid, card)
    ranked = sorted(range(len(PAIRS)), key=lambda i: -gains[i])
    best = ranked[: WIDTH // 2]
    neutral = [i for i in range(len(PAIRS)) if gains[i] == 0 and i not in best]
    step = max(1, len(neutral) // (WIDTH - len(best)))
    return [PAIRS[i] for i in best + neutral[::step][: WIDTH - len(best)]]


def legal(position: Position) -> Sequence[Move]:
    """The decisions the tree weighs: each seat's program swaps, seat 0's first (the
    swaps and claims that follow the reveal are the playout's)."""
    state = position.state
    if state.phase is not Phase.PROGRAM:
        return ()
    deck = make_deck(state.config.deck_size, state.config.deck_seed)
    for seat in range(PLAYERS):
        mine = state.secret_programs[seat]
        if len(mine) < SWAPS_PER_PROGRAM:
            grid = _planned(state.grid, mine)
            return [Program(seat, a, b) for a, b in _options(grid, deck[state.target(seat) - 1])]
    return ()


def mover(position: Position, action: Move) -> int:
    seat: int = action.seat  # type: ignore[union-attr]  # every searched action's own
    return seat


def _claim(position: Position, seat: int) -> Action | None:
    """The playout player's claim, if it makes one now."""
    state = position.state
    if not may_claim(state, seat):
        return None
    if state.matches(seat) >= MATCHES_TO_WIN:
        return ClaimMatches(seat)
    if seat == position.blind:
        return None
    card, p = position.tops[seat]
    return ClaimCard(seat, card) if p >= SURE else None


def playout(position: Position, rng: random.Random) -> tuple[float, ...]:
    """The cheap deducing player at both seats to the end or `HORIZON` more manches."""
    last = position.state.manche + HORIZON
    deck = make_deck(position.state.config.deck_size, position.state.config.deck_seed)
    for _ in range(200):
        state = position.state
        if state.phase is Phase.OVER or state.manche > last:
            break
        seats = [0, 1] if rng.random() < 0.5 else [1, 0]
        action = next((c for c in (_claim(position, s) for s in seats) if c), None)
        if action is None and state.phase is Phase.PROGRAM:
            seat = next(s for s in seats if len(state.secret_programs[s]) < SWAPS_PER_PROGRAM)
            mine = state.secret_programs[seat]
            grid, card = _planned(state.grid, mine), deck[state.target(seat) - 1]
            a, b = rng.choice(PAIRS) if seat == position.blind else _greedy(grid, card, rng)
            action = Program(seat, a, b)
        elif action is None:
            assert state.revealed is not None
            seat = _swapper(state)
            action = Swap(seat, *_next_pair(state))
        position = _advance(position, action)
    state = position.state
    if state.phase is Phase.OVER:
        return win_values(PLAYERS, () if state.winner is None else (state.winner,))
    return estimate_values(
        [state.matches(s) + 5.0 * position.tops[s][1] for s in range(PLAYERS)], TEMPERATURE
    )


def _swapper(state: State) -> int:
    seat = next_swap(state)
    assert seat is not None
    return seat


def _next_pair(state: State) -> Pair:
    assert state.revealed is not None
    seat, phase = swap_order(state.config, state.manche)[state.step]
    return state.revealed[seat][phase - 1]


THINKING: Thinking[Knowledge, Position, Move] = Thinking(
    sample=sample, legal=legal, step=_advance, mover=mover, playout=playout
)


# ------------------------------------------------------------------ restricted play


def _never_claim_by_card(position: Position, action: Move) -> bool:
    return not isinstance(action, ClaimCard)


def _any(position: Position, action: Move) -> bool:
    return True


RESTRICTIONS: Mapping[str, tuple[str, Callable[[Position, Move], bool]]] = {
    "programs-at-random": ("programs its swaps at random", _any),
    "never-claim-by-card": (
        'never claims "I know your card", only "5 matches"',
        _never_claim_by_card,
    ),
}
"""Restricted play: name -> (what the agent may not do, in words; what it may do). The
agent programming at random draws each swap of its program at random (not searched)."""


class MctsBot:
    """The thinking bot at one seat, under the Swiped bots' contract (`bots.Bot`): it is
    given its seat's view and the public events, never a State. A `DeducingBot` of the
    same seat keeps its evidence and gives the search its prior choice."""

    def __init__(self, spec: Spec, seat: int, config: Config, rng: random.Random) -> None:
        self.spec = spec
        self.seat = seat
        self.config = config
        self.rng = rng
        self.twin = DeducingBot(seat, config, random.Random(rng.random()))
        self.random_programs = spec.restriction == "programs-at-random"
        self.allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]
        self._decided: tuple[tuple[object, ...], Action | None] | None = None

    def observe(self, events: Sequence[Event]) -> None:
        self.twin.observe(events)

    def act(self, view: PlayerView, legal_now: Sequence[Action]) -> Action | None:
        mine = seat_actions(legal_now, self.seat)
        if not mine:
            return None
        prior = self.twin.act(view, legal_now)
        if ClaimMatches(self.seat) in mine and view.matches >= MATCHES_TO_WIN:
            return self._named(ClaimMatches(self.seat))
        public = view.public  # the other seat's count of programmed swaps left out
        key = (public.manche, public.phase, public.step, public.claims, view.program)
        if self._decided is not None and self._decided[0] == key:
            return self._decided[1]  # asked again on the same view (the other seat acted)
        options = self._options(view, mine, prior)
        choice: Move = options[0]
        if len(options) > 1 and self.twin.opponent is not None:
            assert self.twin.exposure is not None
            knowledge = Knowledge(self.config, view, self.twin.opponent, self.twin.exposure)
            chosen = prior if prior in options else None
            choice = think(
                THINKING, knowledge, self.seat, options, self.spec.iterations, self.rng,
                self.allowed, chosen,
            )  # fmt: skip
        action = None if isinstance(choice, Wait) else choice
        self._decided = (key, action)
        return self._named(action)

    def _options(
        self, view: PlayerView, mine: Sequence[Action], prior: Action | None
    ) -> list[Move]:
        """The root's options: the seat's swap (forced), program swaps or waiting; then
        naming its likeliest cards."""
        base: list[Move]
        programs = [a for a in mine if isinstance(a, Program)]
        swaps = [a for a in mine if isinstance(a, Swap)]
        if swaps:
            base = [swaps[0]]
        elif programs and self.random_programs:
            base = [self.rng.choice(programs)]
        elif programs:
            assert view.target is not None
            grid = _planned(view.public.grid, view.program)
            deck = self.twin.deck
            base = [Program(self.seat, a, b) for a, b in _options(grid, deck[view.target - 1])]
            if isinstance(prior, Program) and prior not in base:
                base.append(prior)
        else:
            base = [Wait(self.seat)]
        claims: list[Move] = []
        belief = self.twin.belief()
        for card in sorted(belief, key=lambda c: (-belief[c], c))[:CLAIMS]:
            claim = ClaimCard(self.seat, card)
            if belief[card] >= CLAIM_FLOOR and claim in mine:
                claims.append(claim)
        return base + claims

    def _named(self, action: Action | None) -> Action | None:
        """Tells the twin which card, if any, this seat named (it learns from the verdict)."""
        self.twin.named(action.card if isinstance(action, ClaimCard) else None)
        return action


def seat_bot(kind: str, seat: int, config: Config, rng: random.Random) -> Bot:
    """The bot of a kind a variant names: a thinking one (`mcts...`) or the game's own."""
    spec = parse_kind(kind)
    return make_bot(kind, seat, config, rng) if spec is None else MctsBot(spec, seat, config, rng)


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of a variant seating thinking bots, on the readable engine (the other
    seats play as `play_reference` seats them)."""
    from companion.games.swiped.lab import play_reference

    return play_reference(variant, index, factory=seat_bot)


TABLE = ThinkingTable(
    restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
    stand_in="deducing",
    play=play,
)
