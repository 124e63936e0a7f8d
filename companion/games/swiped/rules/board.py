"""A game of Swiped as it stands: the engine's core, mutable.

One `Board` is played in place and copied with `fork`; the table sees it only through the
frozen `State` (state.py), which the engine's `apply` builds from a fork, and the lab plays
on it directly. Colours are 0..8 in COLOURS order, a swap is its index 0..35 in PAIRS, a
grid is the colour on each square (square i + 1 holds cells[i]).

What happens is told as it happens to the board's `Watcher`: the engine's `apply` turns it
into events, the lab counts it (tally.py) and feeds the deducing bots' evidence.
"""

from __future__ import annotations

import random
from functools import lru_cache

from companion.games.swiped.rules.config import (
    COLOURS,
    MATCHES_TO_WIN,
    PAIRS,
    SWAPS_PER_PROGRAM,
    Config,
    Deal,
    FalseClaim,
    Phase,
    swap_order,
)
from companion.games.swiped.rules.deck import make_deck
from companion.rules.errors import IllegalAction

Grid = tuple[int, ...]

COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
SWAPS: tuple[tuple[int, int], ...] = tuple((COLOUR_INDEX[a], COLOUR_INDEX[b]) for a, b in PAIRS)
"""Swap k exchanges colours SWAPS[k] (a < b), as PAIRS[k] names them."""
SWAP_OF: dict[tuple[str, str], int] = {p: k for k, p in enumerate(PAIRS)}
DRAW, PROGRAM, EXECUTE, OVER = Phase.DRAW, Phase.PROGRAM, Phase.EXECUTE, Phase.OVER
"""The phases by short names (read at every step of a lab game)."""
NO_SWAP = -1
"""A "swap" of one colour with itself, where a swap index is expected: refused (SW-3)."""
_BIT = tuple(1 << k for k in range(81))
"""The bit of (square, colour) in a grid mask (`mask`)."""


def positions(grid: Grid) -> tuple[int, ...]:
    """The square of each colour."""
    where = [0] * len(COLOURS)
    for square, colour in enumerate(grid):
        where[colour] = square
    return tuple(where)


def mask(grid: Grid) -> int:
    """The grid as a set of (square, colour) bits: two grids agree on the popcount of their
    masks' AND (SW-5's matches)."""
    return sum(1 << (9 * square + colour) for square, colour in enumerate(grid))


@lru_cache(maxsize=16)
def cards_of(size: int, seed: int) -> tuple[tuple[Grid, ...], tuple[int, ...]]:
    """The deck of SW-1 (`make_deck`): each card as colours, and as a grid mask."""
    cards = tuple(tuple(COLOUR_INDEX[c] for c in card) for card in make_deck(size, seed))
    return cards, tuple(mask(card) for card in cards)


class Watcher:
    """Hears what happens on a board, as it happens. Every hook does nothing here."""

    def layout_drawn(self, board: Board, card: int) -> None:
        """SW-2: the face-up card gives the grid."""

    def target_drawn(self, board: Board, seat: int) -> None:
        """SW-2: a seat's target card is recorded (which card stays hidden)."""

    def programmed(self, board: Board, seat: int) -> None:
        """SW-3: a seat entered one more swap."""

    def revealed(self, board: Board) -> None:
        """SW-3: both programs are shown (`board.revealed`)."""

    def swapped(self, board: Board, seat: int, phase: int, swap: int, left: int) -> None:
        """SW-4: the swap was made; `left` is the mask of the grid it left (`mask`)."""

    def skipped(self, board: Board, seat: int, phase: int, swap: int) -> None:
        """SW-4: a phase's second swap repeated the first: it is not applied again."""

    def manche_ended(self, board: Board, manche: int) -> None:
        """SW-4: the manche's six swaps are done; the small cubes go back to the stocks."""

    def manche_started(self, board: Board) -> None:
        """SW-4: a manche starts (`board.manche`, `board.order`)."""

    def drawn(self, board: Board) -> None:
        """SW-6: the manche limit is reached: the game is a draw."""

    def claimed(self, board: Board, seat: int, card: int | None, correct: bool) -> None:
        """SW-5: a claim was checked ("5 matches" when `card` is None)."""

    def won(self, board: Board, seat: int) -> None:
        """SW-5: the game is won."""


UNWATCHED = Watcher()


class Board:
    """A game of Swiped in progress, mutable: the grid of big cubes (SW-1), the cards drawn
    (SW-2), the programs (SW-3), the manche's swaps (SW-4), the claims (SW-5) and the end
    (SW-5, SW-6). Play it in place, copy it with `fork`; never share one between games."""

    __slots__ = (
        "config", "seed", "cards", "masks", "manche", "phase", "layout", "targets", "cells",
        "where", "grid_mask", "programs", "revealed", "step", "order", "gap_claims",
        "winner", "drawn", "phase_pair", "watch", "_grid", "_matches",
    )  # fmt: skip

    config: Config
    seed: int
    """The seed of the draw (SW-2, a SEEDED deal)."""
    cards: tuple[Grid, ...]
    """The deck (SW-1): card n is cards[n - 1]."""
    masks: tuple[int, ...]
    """Each card's grid mask."""
    manche: int
    phase: Phase
    layout: int | None
    """The face-up card (SW-2; None until an OBSERVED deal reads it)."""
    targets: list[int | None]
    """Each seat's secret target card (None until an OBSERVED deal reads it)."""
    cells: list[int]
    """The colour on each square (empty until the layout)."""
    where: list[int]
    """The square of each colour."""
    grid_mask: int
    programs: list[list[int]]
    """SW-3: the swaps each seat entered, while programming (secret)."""
    revealed: tuple[tuple[int, ...], ...] | None
    """SW-3: both programs once shown, until the manche ends."""
    step: int
    """SW-4: how many of the manche's six swaps are done (or skipped)."""
    order: tuple[tuple[int, int], ...]
    """SW-4: the manche's swaps as (seat, phase 1..3), in order (`swap_order`)."""
    gap_claims: list[int]
    """SW-5: the claims each seat made since the last swap."""
    winner: int | None
    drawn: bool
    phase_pair: int | None
    """SW-4: the swap of the current phase's first swap, until its second."""
    watch: Watcher

    def __init__(self, config: Config, seed: int, watch: Watcher = UNWATCHED) -> None:
        """SW-2: a SEEDED deal draws the face-up card and the two targets from `seed`;
        an OBSERVED one waits for the table's cards."""
        self.config = config
        self.seed = seed
        self.cards, self.masks = cards_of(config.deck_size, config.deck_seed)
        self.manche = 1
        self.order = swap_order(config, 1)
        self.programs = [[], []]
        self.revealed = None
        self.step = 0
        self.gap_claims = [0, 0]
        self.winner = None
        self.drawn = False
        self.phase_pair = None
        self.watch = watch
        self._grid: Grid | None = None
        self._matches: list[int] | None = None
        if config.deal is Deal.OBSERVED:
            self.phase = DRAW
            self.layout = None
            self.targets = [None, None]
            self._lay(())
            return
        layout, *targets = random.Random(seed).sample(range(1, config.deck_size + 1), 3)
        self.phase = PROGRAM
        self.layout = layout
        self.targets = list(targets)
        self._lay(self.cards[layout - 1])

    @classmethod
    def of(
        cls,
        config: Config,
        seed: int,
        manche: int,
        phase: Phase,
        layout: int | None,
        targets: tuple[int | None, ...],
        grid: Grid,
        programs: tuple[tuple[int, ...], ...],
        revealed: tuple[tuple[int, ...], ...] | None,
        step: int,
        gap_claims: tuple[int, ...],
        winner: int | None,
        drawn: bool,
        phase_pair: int | None,
    ) -> Board:
        """The board of a position given by its facts (a State's), unchecked."""
        board = cls.__new__(cls)
        board.config, board.seed, board.watch = config, seed, UNWATCHED
        board.cards, board.masks = cards_of(config.deck_size, config.deck_seed)
        board.manche, board.phase, board.layout, board.targets = manche, phase, layout, [*targets]
        board._lay(grid)
        board.programs = [list(p) for p in programs]
        board.revealed, board.step, board.order = revealed, step, swap_order(config, manche)
        board.gap_claims, board.winner, board.drawn = list(gap_claims), winner, drawn
        board.phase_pair = phase_pair
        return board

    def _lay(self, grid: Grid) -> None:
        self.cells = list(grid)
        self.where = list(positions(grid)) if grid else []
        self.grid_mask = mask(grid)
        self._grid = None
        self._matches = None

    def fork(self, watch: Watcher = UNWATCHED) -> Board:
        """An independent copy to play on (told to `watch`), this one unchanged."""
        twin = Board.__new__(Board)
        twin.config, twin.seed, twin.cards, twin.masks = (
            self.config, self.seed, self.cards, self.masks
        )  # fmt: skip
        twin.manche, twin.phase, twin.layout, twin.targets = (
            self.manche, self.phase, self.layout, list(self.targets)
        )  # fmt: skip
        twin.cells, twin.where, twin.grid_mask = list(self.cells), list(self.where), self.grid_mask
        twin.programs = [list(p) for p in self.programs]
        twin.revealed, twin.step, twin.order = self.revealed, self.step, self.order
        twin.gap_claims, twin.winner, twin.drawn = list(self.gap_claims), self.winner, self.drawn
        twin.phase_pair, twin.watch = self.phase_pair, watch
        twin._grid, twin._matches = self._grid, self._matches
        return twin

    # ------------------------------------------------------------------ what is known

    @property
    def grid(self) -> Grid:
        if self._grid is None:
            self._grid = tuple(self.cells)
        return self._grid

    def matches(self, seat: int) -> int:
        """SW-5: how many big cubes stand where `seat`'s own card puts them."""
        if self._matches is None:
            masks, grid_mask = self.masks, self.grid_mask
            self._matches = [
                0 if t is None else (grid_mask & masks[t - 1]).bit_count() for t in self.targets
            ]
        return self._matches[seat]

    def swapper(self) -> int | None:
        """SW-4: the seat whose swap is next, None while programming, drawing or over."""
        return self.order[self.step][0] if self.phase is EXECUTE else None

    def next_swap(self) -> int:
        """SEEDED: the swap the next seat programmed for this phase (SW-4)."""
        assert self.revealed is not None
        seat, phase = self.order[self.step]
        return self.revealed[seat][phase - 1]

    def may_claim(self, seat: int) -> bool:
        """SW-5: `seat` may claim now: between two swaps (from the first swap of the game
        unless the config lets a claim come before it), within the claims a gap allows."""
        phase = self.phase
        if phase is OVER or phase is DRAW:
            return False
        cfg = self.config
        if self.step == 0 and self.manche == 1 and not cfg.claim_before_first_swap:
            return False
        limit = cfg.claims_per_gap
        return limit is None or self.gap_claims[seat] < limit

    def claim_refusal(self, seat: int) -> str | None:
        """Why `seat` may not claim now (`may_claim`), or None."""
        if self.may_claim(seat):
            return None
        if self.phase is OVER:
            return "the game is over"
        if self.phase is DRAW:
            return "the cards are not all drawn yet"
        cfg = self.config
        if self.step == 0 and self.manche == 1 and not cfg.claim_before_first_swap:
            return "no claim before the first swap of the game"
        return f"seat {seat} already made {cfg.claims_per_gap} claim(s) since the last swap"

    # ------------------------------------------------------------------ the deal, SW-2

    def draw_layout(self, card: int) -> None:
        """OBSERVED: the face-up card read on the pad; the big cubes go as it shows."""
        if self.phase is not DRAW:
            raise IllegalAction("SW-2", "the cards are drawn once, at the start of the game")
        if self.layout is not None:
            raise IllegalAction("SW-2", f"the layout card is already card {self.layout}")
        self.layout = card
        self._lay(self.cards[card - 1])
        self.watch.layout_drawn(self, card)

    def draw_target(self, seat: int, card: int) -> None:
        """OBSERVED: `seat` taps its secret target card on the pad; the first manche starts
        once both are read."""
        if self.phase is not DRAW:
            raise IllegalAction("SW-2", "the cards are drawn once, at the start of the game")
        if self.layout is None:
            raise IllegalAction("SW-2", "the layout card is drawn first")
        if self.targets[seat] is not None:
            raise IllegalAction("SW-2", f"seat {seat}'s target card is already recorded")
        if card == self.layout:
            raise IllegalAction("SW-2", "the face-up layout card is not a target")
        if card in self.targets:
            raise IllegalAction("SW-2", "both players' targets are different cards")
        self.targets[seat] = card
        self._matches = None
        self.watch.target_drawn(self, seat)
        if None not in self.targets:
            self.phase = EXECUTE
            self.watch.manche_started(self)

    # ------------------------------------------------------------- programs, SW-3

    def program(self, seat: int, swap: int) -> bool:
        """SEEDED: `seat` secretly adds a swap to its program; when both have three, both
        programs are shown together and the swaps begin (then True)."""
        if self.phase is not PROGRAM:
            raise IllegalAction("SW-3", "the programs are revealed: they are played, not changed")
        if swap == NO_SWAP:
            raise IllegalAction("SW-3", "a swap pairs two different colours")
        mine = self.programs[seat]
        if len(mine) >= SWAPS_PER_PROGRAM:
            raise IllegalAction("SW-3", f"seat {seat} has already programmed 3 swaps")
        mine.append(swap)
        self.watch.programmed(self, seat)
        programs = self.programs
        if len(programs[0]) < SWAPS_PER_PROGRAM or len(programs[1]) < SWAPS_PER_PROGRAM:
            return False
        self.revealed = (tuple(programs[0]), tuple(programs[1]))
        self.programs = [[], []]
        self.phase = EXECUTE
        self.step = 0
        self.watch.revealed(self)
        return True

    # --------------------------------------------------------------- the swaps, SW-4

    def swap(self, seat: int, swap: int) -> None:
        """`seat` exchanges the big cubes of the swap's two colours: the seat whose swap is
        next, with (SEEDED) the swap it programmed for this phase, or (OBSERVED) any other
        than the phase's first. A SEEDED phase's second swap repeating the first is skipped
        at once; after the sixth the manche ends."""
        if self.phase is not EXECUTE:
            ruling = "SW-2" if self.phase is DRAW else "SW-3"
            raise IllegalAction(ruling, "no swap before the manche's swaps begin")
        expected, phase = self.order[self.step]
        if seat != expected:
            raise IllegalAction("SW-4", f"the next swap is seat {expected}'s")
        if self.config.deal is Deal.SEEDED:
            if swap != self.next_swap():
                a, b = PAIRS[self.next_swap()]
                raise IllegalAction("SW-4", f"seat {seat}'s programmed swap is {a} + {b}")
        elif swap == NO_SWAP:
            raise IllegalAction("SW-3", "a swap pairs two different colours")
        elif self.phase_pair == swap:
            raise IllegalAction("SW-4", "the same pair as this phase's first swap is applied once")
        self._swap(seat, phase, swap)

    def play_next_swap(self) -> None:
        """SEEDED: the next swap, as programmed (what `swap` would check)."""
        seat, phase = self.order[self.step]
        self._swap(seat, phase, self.next_swap())

    def _swap(self, seat: int, phase: int, swap: int) -> None:
        a, b = SWAPS[swap]
        cells, where, left = self.cells, self.where, self.grid_mask
        i, j = where[a], where[b]
        cells[i], cells[j] = b, a
        where[a], where[b] = j, i
        moved = _BIT[9 * i + a] | _BIT[9 * j + b] | _BIT[9 * i + b] | _BIT[9 * j + a]
        self.grid_mask = left ^ moved
        self._grid = None
        self._matches = None
        self.watch.swapped(self, seat, phase, swap, left)
        if self.step % 2 == 1:
            self._next_step()
            return
        self.phase_pair = swap
        self._next_step()
        if self.config.deal is Deal.SEEDED:
            other = self.order[self.step][0]
            assert self.revealed is not None
            if self.revealed[other][phase - 1] == swap:
                self.watch.skipped(self, other, phase, swap)
                self._next_step()

    def skip(self, seat: int) -> None:
        """OBSERVED: the seat whose swap is next says its pair is the one just applied in
        this phase (SW-4): it is not applied again."""
        if self.config.deal is Deal.SEEDED:
            raise IllegalAction("SW-4", "the engine skips a repeated pair itself")
        if self.phase is not EXECUTE or self.phase_pair is None:
            raise IllegalAction("SW-4", "only the second swap of a phase can repeat the first")
        expected, phase = self.order[self.step]
        if seat != expected:
            raise IllegalAction("SW-4", f"the next swap is seat {expected}'s")
        self.watch.skipped(self, seat, phase, self.phase_pair)
        self._next_step()

    def _next_step(self) -> None:
        """One swap of the manche is done (or skipped): claims reopen, the manche may end."""
        self.step += 1
        self.gap_claims = [0, 0]
        if self.step % 2 == 0:
            self.phase_pair = None
        if self.step < len(self.order):
            return
        self.watch.manche_ended(self, self.manche)
        self.revealed = None
        self.step = 0
        limit = self.config.manche_limit
        if limit is not None and self.manche >= limit:  # SW-6
            self.phase = OVER
            self.drawn = True
            self.watch.drawn(self)
            return
        # The small cubes go back to the stocks; the grid and the targets stay.
        self.manche += 1
        self.order = swap_order(self.config, self.manche)
        self.phase = EXECUTE if self.config.deal is Deal.OBSERVED else PROGRAM
        self.watch.manche_started(self)

    # ------------------------------------------------------------------ claims, SW-5

    def claim(self, seat: int, card: int | None) -> bool:
        """`seat` claims "5 matches" (`card` None) or names the other seat's card; a true
        claim wins, a false one loses (or, as configured, is only refused). True when it
        was refused and the game goes on."""
        refusal = self.claim_refusal(seat)
        if refusal is not None:
            raise IllegalAction("SW-5", refusal)
        if card is None:
            correct = self.matches(seat) >= MATCHES_TO_WIN
        else:
            correct = card == self.targets[1 - seat]
        self.watch.claimed(self, seat, card, correct)
        if correct or self.config.false_claim is FalseClaim.LOSES:
            self.phase = OVER
            self.winner = seat if correct else 1 - seat
            self.watch.won(self, self.winner)
            return False
        self.gap_claims[seat] += 1
        return True


__all__ = [
    "COLOUR_INDEX", "DRAW", "EXECUTE", "NO_SWAP", "OVER", "PROGRAM", "SWAPS", "SWAP_OF",
    "UNWATCHED", "Board", "Grid", "Watcher", "cards_of", "mask", "positions",
]  # fmt: skip
