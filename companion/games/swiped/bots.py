"""Swiped's bots, written once on the engine's board (rules/board.py): the lab plays them on
the board it plays in place (lab.py), the thinking bot seats one as its twin (mcts.py),
and a table that keeps the engine's State asks them through a `Decider` (the simulated
table, tests), which hands them a fork of the State.

- `random` (`RandomBot`): random swaps; claims "5 matches" as soon as its own card says
  so; with false claims only refused (SW-5), names a random card between two swaps once
  the programs are shown.
- `deducing` (`DeducingBot`): keeps a belief over the opponent's card, deduced from the
  public history (deduce.py: the revealed programs, the grids let pass unclaimed, the
  cards it named in refused claims), claims as soon as a claim is sure enough, and
  programs swaps that raise its own matches without telling too much about its card.

Both play a SEEDED deal (the engine draws the cards and the seats enter their programs,
SW-2, SW-3). A bot reads on the board only what its seat may know: the public facts, its
own card and its own program, never the other seat's. It answers with an `Offer`, or
None when it has nothing to do now: a program's swap, the next swap (SW-4: the swap its
seat programmed for this phase), or a claim (SW-5). The public history reaches the
deducing bot as one `Evidence` a game, which the lab's board feeds as it plays and a
`Decider` feeds from the events it is told.

`random_action` is the engine's sample player (rules/contract.py): one random legal action
for whichever seat, in either deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from companion.games.swiped.deduce import (
    PARAMS,
    SWAP_INDICES,
    Evidence,
    Planner,
    deck_of,
    posterior,
    rationality,
    swapped,
)
from companion.games.swiped.rules.actions import Action, ClaimCard, ClaimMatches, Program, Swap
from companion.games.swiped.rules.board import EXECUTE, OVER, SWAP_OF, Board, Grid, mask
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    PAIRS,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    FalseClaim,
)
from companion.games.swiped.rules.contract import random_action as random_action
from companion.games.swiped.rules.events import ClaimChecked, Event, ProgramsRevealed, Swapped
from companion.games.swiped.rules.state import State

BOTS = ("deducing", "random")
"""The bot kinds, by the names `companion lab`, the simulated table and tests use."""

# An offer is (kind, value): a program's swap (its index in PAIRS), the next swap, or a
# claim ("5 matches", or a card named).
PROGRAM_SWAP, SWAP, CLAIM_MATCHES, CLAIM_CARD = 0, 1, 2, 3
Offer = tuple[int, int]


class Bot(Protocol):
    """One seat's player on a board: `act` offers what its seat does now (None: nothing),
    `refused` hears that its "I know your card" claim was refused (SW-5)."""

    seat: int

    def act(self, board: Board) -> Offer | None: ...

    def refused(self) -> None: ...


BotFactory = Callable[[str, int, Board, Evidence, random.Random], Bot]
"""(kind, seat, the board, the game's evidence, the seat's rng) -> the seat's bot."""


class RandomBot:
    """Random swaps; "5 matches" when true; with false claims refused, a random card (not
    its own, not the face-up one) in every gap once the programs are shown."""

    __slots__ = ("seat", "rng", "cards")

    def __init__(self, seat: int, board: Board, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        own, layout = board.targets[seat], board.layout
        self.cards = tuple(c for c in range(1, len(board.cards) + 1) if c not in (own, layout))

    def act(self, board: Board) -> Offer | None:
        seat = self.seat
        if board.may_claim(seat):
            if board.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            only_refused = board.config.false_claim is FalseClaim.REFUSED
            if only_refused and board.revealed is not None and self.cards:
                return (CLAIM_CARD, self.rng.choice(self.cards))
        if board.phase is EXECUTE:
            return (SWAP, 0) if board.swapper() == seat else None
        if len(board.programs[seat]) < SWAPS_PER_PROGRAM:
            return (PROGRAM_SWAP, self.rng.choice(SWAP_INDICES))
        return None

    def refused(self) -> None:
        pass


class DeducingBot:
    """Believes (deduce.posterior), claims when sure enough, programs greedily
    (deduce.Planner): "5 matches" as soon as its card says so; else its top card once its
    posterior reaches `claim_threshold` (with false claims only refused, in every gap once
    the programs are shown: a card named while programming would use the gap's claim
    before the reveal tells anything new); else the next swap when it is its own, or the
    next swap of the program it planned for the manche."""

    __slots__ = ("seat", "rng", "evidence", "candidates", "ruled", "named", "belief_at",
                 "belief_of", "top", "plan", "plan_manche")  # fmt: skip

    def __init__(self, seat: int, board: Board, evidence: Evidence, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.evidence = evidence
        own = board.targets[seat]
        self.candidates = tuple(c for c in evidence.others if c != own)
        """SW-2: the cards the opponent may hold (never the face-up card nor its own)."""
        self.ruled: set[int] = set()
        """Cards it named in refused claims (SW-5): not the opponent's."""
        self.named: int | None = None
        """The card of its last "I know your card" offer (ruled out if refused)."""
        self.belief_at = -1
        self.belief_of: dict[int, float] = {}
        self.top = (0, 0.0)
        self.plan: tuple[int, ...] = ()
        self.plan_manche = 0

    def belief(self) -> dict[int, float]:
        """P(the opponent's card), recomputed when the evidence moved."""
        version = self.evidence.version + len(self.ruled) * (1 << 40)
        if version != self.belief_at:
            self.belief_at = version
            belief = posterior(self.evidence, self.candidates, 1 - self.seat, self.ruled)
            self.belief_of = belief
            card = max(belief, key=lambda c: (belief[c], -c))
            self.top = (card, belief[card])
        return self.belief_of

    def act(self, board: Board) -> Offer | None:
        seat = self.seat
        if board.may_claim(seat):
            if board.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            self.belief()
            card, p = self.top
            threshold = PARAMS.claim_threshold
            if board.config.false_claim is FalseClaim.REFUSED and board.revealed is not None:
                threshold = min(threshold, PARAMS.refused_threshold)
            if not (p <= 0 or p < threshold):
                self.named = card
                return (CLAIM_CARD, card)
        if board.phase is EXECUTE:
            return (SWAP, 0) if board.swapper() == seat else None
        programmed = board.programs[seat]
        done = len(programmed)
        if done >= SWAPS_PER_PROGRAM:
            return None
        if self.plan_manche != board.manche or list(self.plan[:done]) != programmed:
            self.plan = self._plan(board, programmed)
            self.plan_manche = board.manche
        return (PROGRAM_SWAP, self.plan[done])

    def refused(self) -> None:
        """Its "I know your card" was refused: the card it named is not it (SW-5)."""
        if self.named is not None:
            self.ruled.add(self.named)
            self.named = None

    def _plan(self, board: Board, programmed: list[int]) -> tuple[int, ...]:
        """Three swaps, each drawn among the best for the grid as the swaps before it
        leave it (SW-3: planned on the grid while programming), from those its seat has
        programmed already (its own plan's, or another's when a thinking bot chose)."""
        evidence = self.evidence
        first = board.manche == 1 and not self.ruled and evidence.version == 0
        own = board.targets[self.seat]
        assert own is not None  # a SEEDED deal
        planner = Planner(evidence, self.seat, own, board.grid, first)
        planner.chosen = list(programmed)
        known = False
        for _ in range(len(programmed), SWAPS_PER_PROGRAM):
            if not known and planner.needs_belief():
                planner.belief = {c: w for c, w in self.belief().items() if w > 0.01}
                opponent = 1 - self.seat
                planner.watcher = rationality(evidence, self.candidates, opponent, self.ruled)
                known = True
            planner.choose(self.rng.choice(planner.best()))
        return tuple(planner.chosen)


def make_bot(
    kind: str, seat: int, board: Board, evidence: Evidence, rng: random.Random
) -> RandomBot | DeducingBot:
    """The bot of a kind at `seat` of `board`; ValueError naming the kinds for another."""
    _check_kind(kind)
    if kind == "random":
        return RandomBot(seat, board, rng)
    return DeducingBot(seat, board, evidence, rng)


def _check_kind(kind: str) -> None:
    if kind not in BOTS:
        raise ValueError(f"unknown Swiped bot {kind!r}; bots are {', '.join(BOTS)}")


def evidence_of(board: Board) -> Evidence:
    """The evidence of a SEEDED game, before any reveal (fed as the game goes)."""
    config = board.config
    assert board.layout is not None  # a SEEDED deal
    deck = deck_of(config.deck_size, config.deck_seed)
    return Evidence(deck, board.layout)


def action_of(board: Board, seat: int, offer: Offer) -> Action:
    """The engine's action of a seat's offer on `board`."""
    kind, value = offer
    if kind == PROGRAM_SWAP:
        return Program(seat, *PAIRS[value])
    if kind == SWAP:
        return Swap(seat, *PAIRS[board.next_swap()])
    if kind == CLAIM_MATCHES:
        return ClaimMatches(seat)
    return ClaimCard(seat, value)


class Decider:
    """The bots of a table that keeps the engine's State: `decide(state, seat)` is the
    seat's next action, or None when it has nothing to do now (its three swaps programmed
    and no claim wanted, or the other seat's swap is next).

    The bots get a fork of `state` (and read on it only what their seat may know), and the
    public history from the events the table tells `observe`: a table feeds it every event
    of the game, and asks at any moment from the first (before any swap: the programs are
    the bots'). Contract: an action it returns is legal in that state."""

    def __init__(self, kinds: Sequence[str], config: Config, rngs: Sequence[random.Random]) -> None:
        """Bot `kinds[seat % len(kinds)]` at each seat, drawing from `rngs[seat]`."""
        if not kinds:
            raise ValueError(f"no bot kind given; bots are {', '.join(BOTS)}")
        if config.deal is not Deal.SEEDED:
            raise ValueError(
                "Swiped bots play a SEEDED deal (a simulated table keeps one and asks them); "
                f"not {config.deal}"
            )
        for kind in kinds:
            _check_kind(kind)
        self.kinds = [kinds[s % len(kinds)] for s in range(PLAYERS)]
        self.rngs = rngs
        self.bots: list[RandomBot | DeducingBot] = []
        self.evidence: Evidence | None = None
        self.grid: Grid = ()
        """The grid as the events left it (the grid before the next swap)."""

    def __call__(self, state: State, seat: int) -> Action | None:
        board = state.fork()
        if board.phase is OVER:
            return None
        if not self.bots:
            self.evidence = evidence_of(board)
            self.grid = board.grid
            self.bots = [
                make_bot(kind, s, board, self.evidence, rng)
                for s, (kind, rng) in enumerate(zip(self.kinds, self.rngs, strict=True))
            ]
        offer = self.bots[seat].act(board)
        return None if offer is None else action_of(board, seat, offer)

    def observe(self, events: Sequence[Event]) -> None:
        """The public history: the grids let pass, the programs shown, the claims refused."""
        evidence = self.evidence
        if evidence is None:
            return  # nothing is planned yet: no swap before the first question
        for event in events:
            if isinstance(event, Swapped):
                evidence.passed(mask(self.grid))
                self.grid = swapped(self.grid, SWAP_OF[event.colours])
            elif isinstance(event, ProgramsRevealed):
                programs = [[SWAP_OF[p] for p in program] for program in event.programs]
                evidence.reveal(self.grid, programs)
            elif isinstance(event, ClaimChecked) and event.claim == "card" and not event.correct:
                self.bots[event.seat].refused()


def make_decider(kinds: Sequence[str], config: Config, seed: int) -> Decider:
    """A `Decider` with bot `kinds[seat % len(kinds)]` at each seat, seeded from `seed`."""
    return Decider(kinds, config, [random.Random(f"{seed}:bot:{s}") for s in range(PLAYERS)])
