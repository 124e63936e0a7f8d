"""The thinking bot of Swiped: what a seat knows, and how to draw a whole position
consistent with it (companion/lab/mcts.py searches over the draws), on the engine's board.

A seat knows the public view (the grid, the revealed programs, the claims made), its own
target card and its own program, and what the public history says of both cards: the
game's evidence (deduce.py: the revealed programs and the grids they were planned on, the
grids let pass unclaimed) and the cards it named that were refused (SW-5). A draw deals
the opponent a target card by the posterior that evidence gives (never the face-up card
nor the seat's own), draws whether it is a player raising its matches or one swapping at
random by the odds its swaps so far give (`deduce.rationality`), and, while the programs
are secret, fills the opponent's entered swaps accordingly (swaps raising its drawn card's
matches, or random ones). The drawn position is a board (`Board.of`), played in place.

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
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from companion.games.swiped.bots import (
    CLAIM_CARD,
    CLAIM_MATCHES,
    PROGRAM_SWAP,
    SWAP,
    Bot,
    DeducingBot,
    Offer,
    action_of,
    make_bot,
)
from companion.games.swiped.deduce import SWAP_INDICES, Deck, Evidence, posterior, rationality
from companion.games.swiped.deduce import swapped as swapped_grid
from companion.games.swiped.rules.actions import Action, ClaimCard, ClaimMatches, Program, Swap
from companion.games.swiped.rules.board import (
    COLOUR_INDEX,
    EXECUTE,
    OVER,
    PROGRAM,
    SWAP_OF,
    Board,
    Grid,
)
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    PAIRS,
    PLAYERS,
    SWAPS_PER_PROGRAM,
    Config,
)
from companion.games.swiped.rules.state import PlayerView, State, player_view
from companion.lab.mcts import Spec, Thinking, estimate_values, parse_kind, think, win_values
from companion.rules.jsonable import TaggedAction

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


@dataclass(frozen=True, eq=False)
class Knowledge:
    """All one seat knows at one decision: no field holds the other seat's hidden facts."""

    config: Config
    view: PlayerView
    """The public view, the seat's own target card and its own program."""
    evidence: Evidence
    """The public history as evidence of both cards (the game's; read, never changed)."""
    ruled: frozenset[int]
    """The cards the seat named in refused claims (SW-5): not the opponent's."""


class Position:
    """A drawn position, played in place: the board, the evidence, and each seat's belief
    in the other's card (the cards it may be, those it ruled out, its top card and how
    sure it is)."""

    __slots__ = ("board", "evidence", "candidates", "ruled", "tops", "blind")

    def __init__(
        self,
        board: Board,
        evidence: Evidence,
        candidates: tuple[tuple[int, ...], tuple[int, ...]],
        ruled: tuple[set[int], set[int]],
        tops: list[tuple[int, float]],
        blind: int | None,
    ) -> None:
        self.board = board
        self.evidence = evidence
        self.candidates = candidates
        self.ruled = ruled
        self.tops = tops
        self.blind = blind
        """The seat drawn as a player swapping at random (by the odds its swaps so far
        give, `deduce.rationality`): it programs at random and never names a card."""

    def rank(self) -> None:
        """Each seat's top card again, after the evidence or its ruled-out cards moved."""
        self.tops = [_top(self.evidence, self.candidates[s], s, self.ruled[s]) for s in (0, 1)]


def _top(
    evidence: Evidence, candidates: Sequence[int], seat: int, ruled: set[int]
) -> tuple[int, float]:
    belief = posterior(evidence, candidates, 1 - seat, ruled)
    card = max(belief, key=lambda c: (belief[c], -c))
    return card, belief[card]


def _greedy(grid: Grid, card: int, deck: Deck, rng: random.Random) -> int:
    """A swap raising the card's matches most (ties at random)."""
    gains = deck.rows(grid)[card - 1].gains
    top = max(gains)
    return rng.choice([i for i, g in enumerate(gains) if g == top])


def _planned(grid: Grid, program: Sequence[int]) -> Grid:
    """The grid as a seat's own program so far would leave it (how it plans, SW-3)."""
    for swap in program:
        grid = swapped_grid(grid, swap)
    return grid


@dataclass(frozen=True)
class _Root:
    """What every draw from one knowledge shares: the seat's belief in the other's card,
    the odds the other deduces, and the seat's own top card."""

    candidates: tuple[int, ...]
    cards: list[int]
    weights: list[float]
    rational: float
    top: tuple[int, float]


@lru_cache(maxsize=4)  # a decision draws many times from one knowledge
def _root(knowledge: Knowledge) -> _Root:
    view, evidence = knowledge.view, knowledge.evidence
    other, ruled = 1 - view.seat, set(knowledge.ruled)
    candidates = tuple(c for c in evidence.others if c != view.target)
    belief = posterior(evidence, candidates, other, ruled)
    cards = list(belief)
    top = max(cards, key=lambda c: (belief[c], -c))
    return _Root(
        candidates,
        cards,
        [belief[c] for c in cards],
        rationality(evidence, candidates, other, ruled),
        (top, belief[top]),
    )


def sample(knowledge: Knowledge, rng: random.Random) -> Position:
    """A whole position consistent with what the seat knows: the opponent's card drawn by
    its posterior, the opponent a random swapper or not by the odds of its swaps, its
    secret swaps so far (their count is public) drawn as that player would make them."""
    view, public, evidence = knowledge.view, knowledge.view.public, knowledge.evidence
    seat, other = view.seat, 1 - view.seat
    root = _root(knowledge)
    card = rng.choices(root.cards, weights=root.weights)[0]
    blind = other if rng.random() >= root.rational else None
    targets: list[int | None] = [view.target, view.target]
    targets[other] = card
    grid = tuple(COLOUR_INDEX[c] for c in public.grid)
    programs: list[tuple[int, ...]] = [(), ()]
    if public.revealed is None:
        theirs: list[int] = []
        for _ in range(public.programmed[other]):
            planned = _planned(grid, theirs)
            theirs.append(
                rng.choice(SWAP_INDICES)
                if blind is not None
                else _greedy(planned, card, evidence.deck, rng)
            )
        programs[seat] = tuple(SWAP_OF[p] for p in view.program)
        programs[other] = tuple(theirs)
    revealed = None
    if public.revealed is not None:
        revealed = tuple(tuple(SWAP_OF[p] for p in program) for program in public.revealed)
    board = Board.of(
        config=knowledge.config, seed=0, manche=public.manche, phase=public.phase,
        layout=public.layout_card, targets=tuple(targets), grid=grid,
        programs=(programs[0], programs[1]),
        revealed=revealed,
        step=public.step, gap_claims=public.claims, winner=public.winner, drawn=public.drawn,
        phase_pair=None if public.phase_pair is None else SWAP_OF[public.phase_pair],
    )  # fmt: skip
    candidates = [root.candidates, root.candidates]
    candidates[other] = evidence.others  # it knows its card is not ours: ruled out below
    ruled = [set(knowledge.ruled), set(knowledge.ruled)]
    ruled[other] = {card}
    tops = [root.top, root.top]
    tops[other] = _top(evidence, evidence.others, other, ruled[other])
    return Position(
        board, evidence.copy(), (candidates[0], candidates[1]), (ruled[0], ruled[1]), tops, blind
    )


def _advance(position: Position, move: Move) -> Position:
    """The position after a move, played on its board: at a reveal each seat's evidence
    takes in the other's program; a refused claim rules its card out (SW-5)."""
    board = position.board
    if isinstance(move, Program):
        if board.program(move.seat, SWAP_OF[(move.a, move.b)]):
            _revealed(position)
    elif isinstance(move, Swap):
        board.swap(move.seat, SWAP_OF[(move.a, move.b)])
    elif isinstance(move, ClaimMatches | ClaimCard):
        _claimed(position, move.seat, move.card if isinstance(move, ClaimCard) else None)
    return position


def _revealed(position: Position) -> None:
    board = position.board
    assert board.revealed is not None
    position.evidence.reveal(board.grid, board.revealed)
    position.rank()


def _claimed(position: Position, seat: int, card: int | None) -> None:
    if position.board.claim(seat, card) and card is not None:
        position.ruled[seat].add(card)
        position.rank()


def _options(grid: Grid, card: int, deck: Deck) -> list[int]:
    """`WIDTH` swaps: half the swaps raising the card's matches most, half spread over
    those leaving them as they are (a swap that tells the other seat little of the
    card: the search weighs gaining against hiding)."""
    gains = deck.rows(grid)[card - 1].gains  # gain + 2
    ranked = sorted(range(len(PAIRS)), key=lambda i: -gains[i])
    best = ranked[: WIDTH // 2]
    neutral = [i for i in range(len(PAIRS)) if gains[i] == 2 and i not in best]
    step = max(1, len(neutral) // (WIDTH - len(best)))
    return best + neutral[::step][: WIDTH - len(best)]


def legal(position: Position) -> Sequence[Move]:
    """The decisions the tree weighs: each seat's program swaps, seat 0's first (the
    swaps and claims that follow the reveal are the playout's)."""
    board = position.board
    if board.phase is not PROGRAM:
        return ()
    for seat in range(PLAYERS):
        mine = board.programs[seat]
        if len(mine) < SWAPS_PER_PROGRAM:
            target = board.targets[seat]
            assert target is not None
            grid = _planned(board.grid, mine)
            deck = position.evidence.deck
            return [Program(seat, *PAIRS[k]) for k in _options(grid, target, deck)]
    return ()


def mover(position: Position, action: Move) -> int:
    seat: int = action.seat  # type: ignore[union-attr]  # every searched action's own
    return seat


def _claim(position: Position, seat: int) -> tuple[int, int | None] | None:
    """The playout player's claim, if it makes one now: (seat, the card named or None
    for "5 matches")."""
    board = position.board
    if not board.may_claim(seat):
        return None
    if board.matches(seat) >= MATCHES_TO_WIN:
        return (seat, None)
    if seat == position.blind:
        return None
    card, p = position.tops[seat]
    return (seat, card) if p >= SURE else None


def playout(position: Position, rng: random.Random) -> tuple[float, ...]:
    """The cheap deducing player at both seats to the end or `HORIZON` more manches."""
    board = position.board
    last = board.manche + HORIZON
    deck = position.evidence.deck
    for _ in range(200):
        if board.phase is OVER or board.manche > last:
            break
        seats = (0, 1) if rng.random() < 0.5 else (1, 0)
        claim = _claim(position, seats[0]) or _claim(position, seats[1])
        if claim is not None:
            _claimed(position, *claim)
        elif board.phase is PROGRAM:
            seat = seats[0] if len(board.programs[seats[0]]) < SWAPS_PER_PROGRAM else seats[1]
            target = board.targets[seat]
            assert target is not None
            grid = _planned(board.grid, board.programs[seat])
            swap = (
                rng.choice(SWAP_INDICES)
                if seat == position.blind
                else _greedy(grid, target, deck, rng)
            )
            if board.program(seat, swap):
                _revealed(position)
        else:
            board.play_next_swap()
    if board.phase is OVER:
        return win_values(PLAYERS, () if board.winner is None else (board.winner,))
    return estimate_values(
        [board.matches(s) + 5.0 * position.tops[s][1] for s in range(PLAYERS)], TEMPERATURE
    )


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
    """The thinking bot at one seat of a board, under the Swiped bots' contract
    (`bots.Bot`): it reads only what its seat may know, and hands the search its seat's
    view and the public evidence, never the board. A `DeducingBot` of the same seat (its
    twin) keeps its belief and gives the search its prior choice."""

    def __init__(
        self, spec: Spec, seat: int, board: Board, evidence: Evidence, rng: random.Random
    ) -> None:
        self.spec = spec
        self.seat = seat
        self.rng = rng
        self.twin = DeducingBot(seat, board, evidence, random.Random(rng.random()))
        self.random_programs = spec.restriction == "programs-at-random"
        self.allowed = None if spec.restriction is None else RESTRICTIONS[spec.restriction][1]
        self._decided: tuple[tuple[object, ...], Offer | None] | None = None

    def refused(self) -> None:
        self.twin.refused()

    def act(self, board: Board) -> Offer | None:
        seat = self.seat
        may_claim = board.may_claim(seat)
        swapping = board.phase is EXECUTE and board.swapper() == seat
        programming = board.phase is PROGRAM and len(board.programs[seat]) < SWAPS_PER_PROGRAM
        if not (may_claim or swapping or programming):
            return None
        offered = self.twin.act(board)
        if may_claim and board.matches(seat) >= MATCHES_TO_WIN:
            return self._named((CLAIM_MATCHES, 0))
        program = board.programs[seat] if board.revealed is None else board.revealed[seat]
        key = (board.manche, board.phase, board.step, tuple(board.gap_claims), tuple(program))
        if self._decided is not None and self._decided[0] == key:
            return self._decided[1]  # asked again on the same view (the other seat acted)
        prior = None if offered is None else action_of(board, seat, offered)
        options = self._options(board, may_claim, swapping, programming, prior)
        choice: Move = options[0]
        if len(options) > 1:
            view = player_view(State.of(board.fork()), seat)
            knowledge = Knowledge(
                board.config, view, self.twin.evidence, frozenset(self.twin.ruled)
            )
            chosen = prior if prior in options else None
            choice = think(
                THINKING, knowledge, seat, options, self.spec.iterations, self.rng,
                self.allowed, chosen,
            )  # fmt: skip
        offer = _offer(choice)
        self._decided = (key, offer)
        return self._named(offer)

    def _options(
        self,
        board: Board,
        may_claim: bool,
        swapping: bool,
        programming: bool,
        prior: Action | None,
    ) -> list[Move]:
        """The root's options: the seat's swap (forced), program swaps or waiting; then
        naming its likeliest cards."""
        seat = self.seat
        base: list[Move]
        if swapping:
            base = [Swap(seat, *PAIRS[board.next_swap()])]
        elif programming and self.random_programs:
            base = [Program(seat, *PAIRS[self.rng.choice(SWAP_INDICES)])]
        elif programming:
            target = board.targets[seat]
            assert target is not None
            grid = _planned(board.grid, board.programs[seat])
            deck = self.twin.evidence.deck
            base = [Program(seat, *PAIRS[k]) for k in _options(grid, target, deck)]
            if isinstance(prior, Program) and prior not in base:
                base.append(prior)
        else:
            base = [Wait(seat)]
        claims: list[Move] = []
        belief = self.twin.belief()
        for card in sorted(belief, key=lambda c: (-belief[c], c))[:CLAIMS]:
            if belief[card] >= CLAIM_FLOOR and may_claim:
                claims.append(ClaimCard(seat, card))
        return base + claims

    def _named(self, offer: Offer | None) -> Offer | None:
        """Tells the twin which card, if any, this seat named (it learns from the verdict)."""
        self.twin.named = offer[1] if offer is not None and offer[0] == CLAIM_CARD else None
        return offer


def _offer(move: Move) -> Offer | None:
    """The bots' offer of a move the search chose."""
    if isinstance(move, Program):
        return (PROGRAM_SWAP, SWAP_OF[(move.a, move.b)])
    if isinstance(move, Swap):
        return (SWAP, 0)
    if isinstance(move, ClaimMatches):
        return (CLAIM_MATCHES, 0)
    if isinstance(move, ClaimCard):
        return (CLAIM_CARD, move.card)
    return None


def seat_bot(kind: str, seat: int, board: Board, evidence: Evidence, rng: random.Random) -> Bot:
    """The bot of a kind a variant names: a thinking one (`mcts...`) or the game's own."""
    spec = parse_kind(kind)
    if spec is None:
        return make_bot(kind, seat, board, evidence, rng)
    return MctsBot(spec, seat, board, evidence, rng)
