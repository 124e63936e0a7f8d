"""What the public history of a Swiped game says about each seat's secret card, and how the
deducing bot plans its program (bots.py, and the thinking bot, mcts.py).

The model: a seat either tends to raise its own matches (each swap drawn by
softmax(beta * gain) over the 36 swaps, the gain being how many more squares agree with
its card after the swap, -2..2) or swaps at random (1/36 a swap). Seen from the other
seat, each card the seat may hold gets the log-likelihood of its revealed programs under
the first model (SW-3: both programs are shown before the swaps); the posterior mixes
the two models, so a random player does not make a bot sure of a wrong card. A grid that
gave a card 5 matches and that the seat let pass unclaimed makes that card unlikely
(SW-5), and a card named in a refused claim is not it (SW-5, false claims refused).

Colours are 0..8 in `COLOURS` order, swaps 0..35 in `PAIRS` order, a grid or a card is a
tuple of 9 colours (square i + 1 holds grid[i]), as the engine's board has them. What a
card says of the 36 swaps on a grid depends only on where the card wants each colour, so
it is one `Row`, cached per grid (`Deck.rows`), and a leak's 36 x n log-sum-exp terms
take the 5 values a gain can have.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from operator import sub
from typing import NamedTuple

from companion.games.swiped.rules.board import SWAPS, Grid, cards_of, positions
from companion.games.swiped.rules.config import MATCHES_TO_WIN


@dataclass(frozen=True, slots=True)
class DeducingParams:
    """The deducing bot's knobs (the bots play with `PARAMS`, these defaults)."""

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
    costs nothing but the gap's claim, so the bot names its top card in every gap once
    the programs are revealed (and learns that card was not it)."""
    leak_weight: float = 1.0
    """Programming: cost per unit of what a swap would tell the opponent of its card (the
    top posterior the opponent's deduction could reach), weighed by how much the opponent
    plays like a deducer (`rationality`)."""
    harm_weight: float = 0.5
    """Programming: cost per match a swap is expected to give the opponent (over the
    belief)."""
    leak_safe: float = 0.0
    """The part of a leak that costs nothing."""
    min_gain: int = -2
    """Programming never picks a swap losing more matches than this, unless all do."""


PARAMS = DeducingParams()
SWAP_INDICES: tuple[int, ...] = tuple(range(len(SWAPS)))
LOG_PAIRS = math.log(len(SWAPS))
"""-log P(a swap) for a player swapping at random."""
BETA = PARAMS.beta
LOG_RATIONAL = math.log(PARAMS.rational)
LOG_RANDOM_PRIOR = math.log(1 - PARAMS.rational)
LOG_MISSED = math.log(PARAMS.missed_claim)
TIE = 1e-9
"""Scores this close to the best are ties."""
_BETA_G = tuple(BETA * g for g in range(-2, 3))
"""beta * gain, by gain + 2 (the value log Z is subtracted from)."""
_EXP_BETA_G = tuple(math.exp(BETA * g) for g in range(-2, 3))

# logaddexp(x, y), for finite x and y, is max + log(exp(x - max) + exp(y - max)) where the
# larger one's term is exp(0.0), exactly 1.0: it is written out inline below.
assert math.isfinite(LOG_RATIONAL) and math.isfinite(LOG_RANDOM_PRIOR)  # 0 < rational < 1


# ------------------------------------------------------------------ a card on a grid

# A card's 36 gains on a grid are built as one integer, a byte per swap (gain + 2), as the
# sum of a base (each colour already in place loses a match when moved) and one term per
# colour: +1 on the swap with the colour the card wants where it stands, or, when that is
# the colour itself, a bit above the 36 bytes that marks it in place.
_FIXED_SHIFT = 8 * len(SWAPS)
_GAINS_MASK = (1 << _FIXED_SHIFT) - 1
_TERMS: tuple[int, ...] = tuple(
    1 << (_FIXED_SHIFT + a) if a == b else 1 << (8 * SWAPS.index((min(a, b), max(a, b))))
    for a in range(9)
    for b in range(9)
)
"""_TERMS[9 * a + b]: colour a stands where the card wants colour b."""
_BASES: tuple[int, ...] = tuple(
    sum((2 - ((fixed >> a) & 1) - ((fixed >> b) & 1)) << (8 * k) for k, (a, b) in enumerate(SWAPS))
    for fixed in range(512)
)
"""By the colours in place: gain + 2 of each swap if no colour moved onto its square."""
_NINES = tuple(9 * a for a in range(9))


class Row(NamedTuple):
    """What one card says of the 36 swaps on one grid."""

    gains: bytes
    """Gain + 2 (0..4) of each swap: how many more squares agree with the card after it."""
    by_gain: tuple[float, ...]
    """log P(a swap | card) for a player raising its matches, by the swap's gain + 2:
    beta * gain - log Z, Z summing exp(beta * gain) over the 36 swaps."""
    present: tuple[int, ...]
    """The gains + 2 some swap has."""

    def log_likelihood(self, swap: int) -> float:
        return self.by_gain[self.gains[swap]]


_NORMS: dict[tuple[int, ...], tuple[tuple[float, ...], tuple[int, ...]]] = {}
"""(by_gain, present) by the gains' first-seen order, fixed colours and 2-cycles, which
decide how many swaps have each gain (so log Z, summed in first-seen order)."""


def row(wanted: tuple[int, ...]) -> Row:
    """The Row of a card read through a grid (`wanted`: for each colour, the colour the
    card wants on the square where that colour stands)."""
    return _row(sum(map(_TERMS.__getitem__, map(int.__add__, _NINES, wanted))))


def _row(terms: int) -> Row:
    fixed = terms >> _FIXED_SHIFT
    gains = (_BASES[fixed] + (terms & _GAINS_MASK)).to_bytes(len(SWAPS), "little")
    order = tuple(dict.fromkeys(gains))
    key = (*order, fixed.bit_count(), gains.count(4))
    norm = _NORMS.get(key)
    if norm is None:
        counts = Counter(gains).items()  # first-seen order: the order Z is summed in
        log_z = math.log(sum(n * _EXP_BETA_G[g] for g, n in counts))
        norm = _NORMS[key] = (tuple(bg - log_z for bg in _BETA_G), tuple(sorted(order)))
    return Row(gains, *norm)


def swapped(grid: Grid, swap: int) -> Grid:
    """SW-4: the grid after exchanging the big cubes of the swap's two colours."""
    a, b = SWAPS[swap]
    return tuple(b if c == a else a if c == b else c for c in grid)


GRID_CACHE = 2048
"""Grids whose Rows a Deck keeps (about 12 kB each) before it starts over."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck of a game (SW-1) as colour tuples; card n is cards[n - 1]."""

    size: int
    seed: int
    cards: tuple[Grid, ...]
    masks: tuple[int, ...]
    """Each card as a grid mask (`mask`): agreement is a popcount."""
    wants: tuple[tuple[int, ...], ...]
    """Per card, by 9 * colour + square: 9 * colour + the colour the card wants there."""
    _rows: dict[Grid, tuple[Row, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self  # the deck never changes (its cache of rows is only a cache)

    def agreement(self, grid_mask: int, card: int) -> int:
        """On how many squares the grid puts the colour card `card` puts there."""
        return (grid_mask & self.masks[card - 1]).bit_count()

    def rows(self, grid: Grid) -> tuple[Row, ...]:
        """Every card's Row on `grid` (card n at n - 1)."""
        found = self._rows.get(grid)
        if found is None:
            at = tuple(map(int.__add__, _NINES, positions(grid)))
            terms = _TERMS.__getitem__
            found = tuple(_row(sum(map(terms, map(wants.__getitem__, at)))) for wants in self.wants)
            if len(self._rows) >= GRID_CACHE:
                self._rows.clear()
            self._rows[grid] = found
        return found


@lru_cache(maxsize=16)
def deck_of(size: int, seed: int) -> Deck:
    cards, masks = cards_of(size, seed)
    wants = tuple(tuple(9 * a + card[s] for a in range(9) for s in range(9)) for card in cards)
    return Deck(size, seed, cards, masks, wants)


# ---------------------------------------------------------------- the public history


class Evidence:
    """The public history of one game as evidence about each seat's card: what both seats
    may know alike (each seat's belief in the other's card adds only the cards it named
    in refused claims, and leaves its own card out). Fed as the game goes: `reveal` at
    each reveal of the programs, `passed` at each swap."""

    __slots__ = ("deck", "others", "log_greedy", "swaps", "missed", "version")

    def __init__(self, deck: Deck, layout: int) -> None:
        self.deck = deck
        self.others: tuple[int, ...] = tuple(c for c in range(1, deck.size + 1) if c != layout)
        """SW-2: the cards a target may be (never the face-up card)."""
        self.log_greedy: list[list[float]] = [[0.0] * (deck.size + 1) for _ in range(2)]
        """By seat, by card: log P(its revealed programs | that card, raising its matches)."""
        self.swaps = [0, 0]
        """By seat: how many of its swaps were revealed."""
        self.missed = [False] * (deck.size + 1)
        """By card: a grid that gave it 5 matches was let pass unclaimed."""
        self.version = 0
        """Moves on whenever the evidence changes (beliefs are recomputed then)."""

    def copy(self) -> Evidence:
        """An independent copy (the thinking bot's draws each go on with their own)."""
        twin = Evidence.__new__(Evidence)
        twin.deck, twin.others, twin.version = self.deck, self.others, self.version
        twin.log_greedy = [list(self.log_greedy[0]), list(self.log_greedy[1])]
        twin.swaps, twin.missed = list(self.swaps), list(self.missed)
        return twin

    def reveal(self, grid: Grid, programs: Sequence[Sequence[int]]) -> None:
        """SW-3: both programs, shown together, each planned on `grid` (the grid while
        programming: a seat plans its swaps one after the other, not knowing the other's)."""
        for seat in (0, 1):
            totals = program_totals(self.deck, grid, tuple(programs[seat]))
            log_greedy = self.log_greedy[seat]
            for card in self.others:
                log_greedy[card] = log_greedy[card] + totals[card - 1]
            self.swaps[seat] += len(programs[seat])
        self.version += 1

    def passed(self, grid_mask: int) -> None:
        """A grid either seat could claim "5 matches" on, followed by a swap (SW-5): a card
        giving 5 matches on it is unlikely to be the seat's. (The face-up card's grid,
        before the first swap, where a claim may be barred, gives none: SW-1's cards agree
        on 2 squares at most.)"""
        deck, missed = self.deck, self.missed
        for card in self.others:
            if not missed[card] and deck.agreement(grid_mask, card) >= MATCHES_TO_WIN:
                missed[card] = True
                self.version += 1


_TOTALS: dict[tuple[int, int, Grid, tuple[int, ...]], tuple[float, ...]] = {}
TOTALS_CACHE = 20_000
"""Programs kept: a first manche's (face-up card, program) comes back game after game."""


def program_totals(deck: Deck, grid: Grid, program: tuple[int, ...]) -> tuple[float, ...]:
    """Per card (card n at n - 1): log P(program | that card, a player raising its
    matches), its swaps one after the other from `grid`."""
    key = (deck.size, deck.seed, grid, program)
    found = _TOTALS.get(key)
    if found is not None:
        return found
    steps = []
    for swap in program:
        steps.append((swap, deck.rows(grid)))
        grid = swapped(grid, swap)
    totals = []
    for i in range(deck.size):
        total = 0.0
        for swap, rows in steps:
            total += rows[i].log_likelihood(swap)
        totals.append(total)
    found = tuple(totals)
    if len(_TOTALS) >= TOTALS_CACHE:
        _TOTALS.clear()
    _TOTALS[key] = found
    return found


# ----------------------------------------------------------------------- one seat's view


def posterior(
    evidence: Evidence, candidates: Sequence[int], opponent: int, ruled: set[int]
) -> dict[int, float]:
    """P(the opponent's card) over `candidates` (the cards it may hold), from a uniform
    prior: the mixture of the two models, the missed grids, the `ruled` cards out."""
    y = -evidence.swaps[opponent] * LOG_PAIRS + LOG_RANDOM_PRIOR
    log_greedy = evidence.log_greedy[opponent]
    missed = evidence.missed
    exp, log = math.exp, math.log
    logs: list[float] = []
    for card in candidates:
        if card in ruled:
            logs.append(-math.inf)
            continue
        x = LOG_RATIONAL + log_greedy[card]
        value = x + log(1.0 + exp(y - x)) if x >= y else y + log(exp(x - y) + 1.0)
        logs.append(value + (LOG_MISSED if missed[card] else 0.0))
    top = max(logs, default=-math.inf)
    if top == -math.inf:  # every model ruled everything out: fall back on what is left
        left = [c for c in candidates if c not in ruled] or list(candidates)
        return {c: (1 / len(left) if c in left else 0.0) for c in candidates}
    weights = [exp(x - top) for x in logs]
    total = sum(weights)
    return {c: w / total for c, w in zip(candidates, weights, strict=True)}


def rationality(
    evidence: Evidence, candidates: Sequence[int], opponent: int, ruled: set[int]
) -> float:
    """P(the opponent raises its matches, not swapping at random | its swaps)."""
    log_greedy = evidence.log_greedy[opponent]
    logs = [LOG_RATIONAL + log_greedy[c] for c in candidates if c not in ruled]
    if not logs:
        return 0.0
    top = max(logs)
    log_greedy_model = top + math.log(sum(math.exp(x - top) for x in logs) / len(logs))
    log_random = LOG_RANDOM_PRIOR - evidence.swaps[opponent] * LOG_PAIRS
    return 1 / (1 + math.exp(min(700.0, log_random - log_greedy_model)))


# ---------------------------------------------------------------------------- planning

_FIRST_PLANS: dict[tuple[object, ...], tuple[int, ...]] = {}
"""The best swaps of each step of a first-manche plan, by (deck, face-up card, own card,
swaps chosen so far): before the first reveal nothing else is known."""


class Planner:
    """One seat's program for one manche (SW-3), three swaps chosen one after the other on
    the grid as its own swaps leave it: each maximises its gain in matches, less what it
    is expected to give the opponent (over the `belief`) and less what it would tell the
    opponent of its card (weighed by `watcher`, how much the opponent deduces). `best()`
    is the best swaps for the next step, `choose(swap)` adds the one drawn among them."""

    __slots__ = ("evidence", "seat", "own", "start", "belief", "watcher", "chosen", "memo")

    def __init__(self, evidence: Evidence, seat: int, own: int, grid: Grid, memo: bool) -> None:
        self.evidence = evidence
        self.seat = seat
        self.own = own
        self.start = grid
        """The grid at programming: the program is planned on it."""
        self.belief: dict[int, float] = {}
        self.watcher = 1.0
        self.chosen: list[int] = []
        self.memo = memo
        """First manche: nothing is known yet but the face-up card and one's own."""

    def needs_belief(self) -> bool:
        """Whether `best()` will compute (else a memoised plan step answers)."""
        deck = self.evidence.deck
        key = (deck.size, deck.seed, self.start, self.own, *self.chosen)
        return not (self.memo and key in _FIRST_PLANS)

    def best(self) -> tuple[int, ...]:
        if not self.memo:
            return self._best()
        deck = self.evidence.deck
        key = (deck.size, deck.seed, self.start, self.own, *self.chosen)
        found = _FIRST_PLANS.get(key)
        if found is None:
            found = _FIRST_PLANS[key] = self._best()
        return found

    def choose(self, swap: int) -> None:
        self.chosen.append(swap)

    def _best(self) -> tuple[int, ...]:
        evidence = self.evidence
        deck = evidence.deck
        others = evidence.others
        # The exposure (what the history tells the other seat of this seat's card), with
        # the swaps chosen so far added one at a time.
        exposure = [evidence.log_greedy[self.seat][c] for c in others]
        grid = self.start
        for swap in self.chosen:
            rows = deck.rows(grid)
            exposure = [
                ll + (0.0 + rows[c - 1].log_likelihood(swap))
                for c, ll in zip(others, exposure, strict=True)
            ]
            grid = swapped(grid, swap)
        rows = deck.rows(grid)
        gains = rows[self.own - 1].gains
        floor = min(PARAMS.min_gain, max(gains) - 2)
        scores = [float(g - 2) if g - 2 >= floor else -math.inf for g in gains]
        belief = self.belief
        mass = sum(belief.values()) or 1.0
        if PARAMS.harm_weight and belief:
            for card, weight in belief.items():
                factor = PARAMS.harm_weight * weight / mass
                harms = [factor * g for g in range(-2, 3)]
                scores = list(map(sub, scores, map(harms.__getitem__, rows[card - 1].gains)))
        if not (PARAMS.leak_weight and self.watcher > 0.01):
            top = max(scores)
            return tuple(i for i in SWAP_INDICES if scores[i] >= top - TIE)
        swaps_seen = evidence.swaps[self.seat] + len(self.chosen)
        columns = _leak_columns(evidence, rows, exposure, swaps_seen)
        return _best_with_leaks(scores, columns, PARAMS.leak_weight * self.watcher)


def _leak_columns(
    evidence: Evidence, rows: tuple[Row, ...], exposure: list[float], swaps_seen: int
) -> list[tuple[float, ...]]:
    """Per swap, per card: logaddexp(log P(the history and that swap | the card, raising
    its matches), log P(them | a random player)). A card's value depends on the swap's
    gain only: 5 values, not 36."""
    y = -(swaps_seen + 1) * LOG_PAIRS + LOG_RANDOM_PRIOR
    missed = evidence.missed
    exp, log = math.exp, math.log
    by_card = []
    for card, ll in zip(evidence.others, exposure, strict=True):
        base = LOG_RATIONAL + ll + (LOG_MISSED if missed[card] else 0.0)
        card_row = rows[card - 1]
        by_gain = card_row.by_gain
        values = [0.0] * 5
        for g in card_row.present:
            x = base + by_gain[g]
            values[g] = x + log(1.0 + exp(y - x)) if x >= y else y + log(exp(x - y) + 1.0)
        by_card.append(map(values.__getitem__, card_row.gains))
    return list(zip(*by_card, strict=True))


def _best_with_leaks(
    scores: list[float], columns: list[tuple[float, ...]], weight: float
) -> tuple[int, ...]:
    """The best swaps by `scores[i] - weight * leak[i]`, a leak being the top posterior the
    opponent's deduction could reach after the swap (1 / the column's total, its top term
    being 1). A leak is at least 1 / n (n cards), so a swap scores at most
    scores[i] - weight / n: once that is below the best found less the tie, no later swap
    (in descending scores) can be among the best, and its column is never summed."""
    n = len(columns[0])
    safe = PARAMS.leak_safe
    least = weight * max(0.0, 1 / n - safe)
    exp = math.exp
    final: dict[int, float] = {}
    top = -math.inf
    for i in sorted(SWAP_INDICES, key=scores.__getitem__, reverse=True):
        score = scores[i]
        if score - least < top - TIE:
            break
        column = columns[i]
        peak = max(column)
        total = sum(map(exp, map(sub, column, repeat(peak))))
        value = score - weight * max(0.0, 1 / total - safe)
        final[i] = value
        if value > top:
            top = value
    return tuple(i for i in sorted(final) if final[i] >= top - TIE)


__all__ = [
    "BETA", "PARAMS", "SWAP_INDICES", "DeducingParams", "Deck", "Evidence", "Planner", "Row",
    "deck_of", "posterior", "program_totals", "rationality", "row", "swapped",
]  # fmt: skip
