"""The deducing bot's arithmetic, exactly as `companion/games/swiped/bots.py` does it, faster.

Today's bot keeps, per seat, an `Evidence` over the cards: the log-likelihood of that seat's
revealed programs under each card, how many swaps were seen, the cards some passed grid
gave 5 matches (missed), and the cards it named in refused claims (ruled out). Both bots
derive theirs from the same public history, so the fast path keeps one `Knowledge` a game:
seat s's program evidence serves as the other seat's belief and as seat s's own exposure.

Same floats, same order: each value below is the bots' expression with the same operands
(a posterior, a leak, a score), summed in the same order, so ties and thresholds fall
exactly as they do today. The speed comes from elsewhere: gains and normalisers come from
cached `Row`s, a leak's 36 x n log-sum-exp terms take the 5 values a gain can have, the
columns of leaks that cannot reach the best score are never summed, and the first
manche's plans (which depend on the face-up card and one's own card only) are memoised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import repeat
from operator import sub

from companion.games.swiped.rules.config import MATCHES_TO_WIN
from companion.games.swiped.selfplay.tables import (
    LOG_MISSED,
    LOG_PAIRS,
    LOG_RANDOM_PRIOR,
    LOG_RATIONAL,
    PARAMS,
    SWAP_INDICES,
    Deck,
    Grid,
    Row,
    swapped,
)

# The bots' logaddexp(x, y), for finite x and y, is max + log(exp(x - max) + exp(y - max))
# where the larger one's term is exp(0.0), exactly 1.0: it is written out inline below.

TIE = 1e-9
"""Scores this close to the best are ties (the bots' own tolerance)."""


class Knowledge:
    """The public history of one game, as evidence about each seat's card."""

    __slots__ = ("deck", "others", "log_greedy", "swaps", "missed", "version")

    def __init__(self, deck: Deck, layout: int) -> None:
        self.deck = deck
        self.others: tuple[int, ...] = tuple(c for c in range(1, deck.size + 1) if c != layout)
        """SW-2: the cards a target may be (never the face-up card)."""
        self.log_greedy: list[list[float]] = [[0.0] * (deck.size + 1) for _ in range(2)]
        """By seat, by card: log P(its revealed programs | that card, raising its matches)."""
        self.swaps = [0, 0]
        self.missed = [False] * (deck.size + 1)
        """By card: a grid that gave it 5 matches was let pass unclaimed."""
        self.version = 0
        """Moves on whenever the evidence changes (beliefs are recomputed then)."""

    def reveal(self, grid: Grid, programs: Sequence[Sequence[int]]) -> None:
        """SW-3: both programs, planned on `grid` (`add_program` of both seats)."""
        for seat in (0, 1):
            totals = program_totals(self.deck, grid, tuple(programs[seat]))
            log_greedy = self.log_greedy[seat]
            for card in self.others:
                log_greedy[card] = log_greedy[card] + totals[card - 1]
            self.swaps[seat] += len(programs[seat])
        self.version += 1

    def passed(self, grid_mask: int) -> None:
        """A grid either seat could claim on, followed by a swap (`add_passed_grid`)."""
        deck, missed = self.deck, self.missed
        for card in self.others:
            if not missed[card] and deck.agreement(grid_mask, card) >= MATCHES_TO_WIN:
                missed[card] = True
                self.version += 1


_TOTALS: dict[tuple[int, int, Grid, tuple[int, ...]], tuple[float, ...]] = {}
TOTALS_CACHE = 20_000
"""Programs kept: a first manche's (face-up card, program) comes back game after game."""


def program_totals(deck: Deck, grid: Grid, program: tuple[int, ...]) -> tuple[float, ...]:
    """Per card (card n at n - 1): `program_log_likelihood(grid, program, card)`."""
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
    knowledge: Knowledge, candidates: Sequence[int], opponent: int, ruled: set[int]
) -> dict[int, float]:
    """`posterior(Evidence)`: P(the opponent's card) over `candidates`."""
    y = -knowledge.swaps[opponent] * LOG_PAIRS + LOG_RANDOM_PRIOR
    log_greedy = knowledge.log_greedy[opponent]
    missed = knowledge.missed
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
    knowledge: Knowledge, candidates: Sequence[int], opponent: int, ruled: set[int]
) -> float:
    """`rationality(Evidence)`: P(the opponent raises its matches | its swaps)."""
    log_greedy = knowledge.log_greedy[opponent]
    logs = [LOG_RATIONAL + log_greedy[c] for c in candidates if c not in ruled]
    if not logs:
        return 0.0
    top = max(logs)
    log_greedy_model = top + math.log(sum(math.exp(x - top) for x in logs) / len(logs))
    log_random = LOG_RANDOM_PRIOR - knowledge.swaps[opponent] * LOG_PAIRS
    return 1 / (1 + math.exp(min(700.0, log_random - log_greedy_model)))


# ---------------------------------------------------------------------------- planning

_FIRST_PLANS: dict[tuple[object, ...], tuple[int, ...]] = {}
"""The best swaps of each step of a first-manche plan, by (deck, face-up card, own card,
swaps chosen so far): before the first reveal nothing else is known."""


class Planner:
    """`plan_program` of one seat for one manche: `best()` is its `best` for the next
    swap, `choose(swap)` adds the swap drawn among them."""

    __slots__ = ("knowledge", "seat", "own", "start", "belief", "watcher", "chosen", "memo")

    def __init__(self, knowledge: Knowledge, seat: int, own: int, grid: Grid, memo: bool) -> None:
        self.knowledge = knowledge
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
        deck = self.knowledge.deck
        key = (deck.size, deck.seed, self.start, self.own, *self.chosen)
        return not (self.memo and key in _FIRST_PLANS)

    def best(self) -> tuple[int, ...]:
        if not self.memo:
            return self._best()
        deck = self.knowledge.deck
        key = (deck.size, deck.seed, self.start, self.own, *self.chosen)
        found = _FIRST_PLANS.get(key)
        if found is None:
            found = _FIRST_PLANS[key] = self._best()
        return found

    def choose(self, swap: int) -> None:
        self.chosen.append(swap)

    def _best(self) -> tuple[int, ...]:
        knowledge = self.knowledge
        deck = knowledge.deck
        others = knowledge.others
        # The exposure (what the history tells the other seat of this seat's card), with
        # the swaps chosen so far added one at a time, as plan_program adds them.
        exposure = [knowledge.log_greedy[self.seat][c] for c in others]
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
        swaps_seen = knowledge.swaps[self.seat] + len(self.chosen)
        columns = _leak_columns(knowledge, rows, exposure, swaps_seen)
        return _best_with_leaks(scores, columns, PARAMS.leak_weight * self.watcher)


def _leak_columns(
    knowledge: Knowledge, rows: tuple[Row, ...], exposure: list[float], swaps_seen: int
) -> list[tuple[float, ...]]:
    """Per swap, per card (`_leaks`' `logs`): logaddexp(log P(the history and that swap |
    the card, raising its matches), log P(them | a random player)). A card's value
    depends on the swap's gain only: 5 values, not 36."""
    y = -(swaps_seen + 1) * LOG_PAIRS + LOG_RANDOM_PRIOR
    missed = knowledge.missed
    exp, log = math.exp, math.log
    by_card = []
    for card, ll in zip(knowledge.others, exposure, strict=True):
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
    """`best` of plan_program with `scores[i] - weight * leak[i]`, summing a leak's column
    only for swaps that may still reach the top. A leak is 1 / total with 1 <= total <= n
    (n cards), so a swap scores at most scores[i] - weight * (1 / n): once that is below the
    best found less the tie, no later swap (in descending scores) can be among the best."""
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


assert math.isfinite(LOG_RATIONAL) and math.isfinite(LOG_RANDOM_PRIOR)  # 0 < rational < 1

__all__ = ["Knowledge", "Planner", "posterior", "program_totals", "rationality"]
