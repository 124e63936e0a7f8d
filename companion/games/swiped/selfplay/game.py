"""One seeded self-play game of Swiped on the fast path: the engine, both bots and the tally
in one mutable loop, with the very draws and choices of today's self-play.

Today (`companion.games.swiped.bots.selfplay_report` and `play_game`): game i of seed S draws
from random.Random(f"{S}:{i}") the seed of each seat's bot, then the deal's seed; player 1
is seat i mod 2. At each moment both seats are asked, in an order drawn from that random;
a claim goes first, else the first action offered. Here the same happens on a mutable
position with integer colours and swaps, bots that read the position directly (only what
their seat may know), and knowledge updated as swaps land instead of re-read from views.
The readable engine (`companion/games/swiped/rules/`) stays the referee's and the reference;
tests/lab/test_fast_equals_engine.py holds the two equal step by step, and
tests/lab/test_swiped.py plays both and wants the same records.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.swiped.fast.deduce import Knowledge, Planner, posterior, rationality
from companion.games.swiped.fast.tables import (
    PARAMS,
    SWAP_INDICES,
    SWAPS,
    Deck,
    Grid,
    deck_of,
    mask,
    positions,
)
from companion.games.swiped.fast.tally import BELIEF_MANCHES, Tally
from companion.games.swiped.rules.config import MATCHES_TO_WIN, SWAPS_PER_PROGRAM
from companion.lab.model import GameRecord

PROGRAM, EXECUTE, OVER = 0, 1, 2
_BIT = tuple(1 << k for k in range(81))
"""The bit of (square, colour) in a grid mask (tables.mask)."""
MAX_ACTIONS = 100_000
"""play_game's guard: a game this long is a bug (it raises, as today's does)."""

# An offer is (kind, value): a program's swap, the next swap, or a claim.
PROGRAM_SWAP, SWAP, CLAIM_MATCHES, CLAIM_CARD = 0, 1, 2, 3
Offer = tuple[int, int]


@dataclass(frozen=True)
class Settings:
    """The engine Config fields the lab varies (SW-5, SW-6 and the deck of SW-1)."""

    deck_size: int = 24
    deck_seed: int = 0
    loses: bool = True
    """SW-5: a false claim loses (else it is only refused)."""
    manche_limit: int | None = None
    claims_per_gap: int | None = 1
    claim_before_first_swap: bool = True


def _orders(first: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """SW-4 (`swap_order`): (seat, phase) of the six swaps, for odd and even manches."""
    out = []
    for even in (False, True):
        p1, p2 = (1 - first, first) if even else (first, 1 - first)
        leads = (p1, p2, p1)
        out.append(tuple((s, ph) for ph, lead in enumerate(leads, 1) for s in (lead, 1 - lead)))
    return tuple(out)


class Table:
    """The position: public facts, the two hidden targets, the programs, the tally."""

    __slots__ = (
        "settings", "deck", "layout", "targets", "phase", "manche", "step", "cells", "where",
        "grid_mask", "layout_mask", "seen", "programs", "revealed", "order", "orders",
        "gap_claims", "knowledge", "tally", "named", "deducing", "_grid", "_matches",
    )  # fmt: skip

    def __init__(
        self, settings: Settings, deck: Deck, seed: int, first: int, deducing: bool
    ) -> None:
        self.settings = settings
        self.deck = deck
        layout, *targets = random.Random(seed).sample(range(1, deck.size + 1), 3)  # SW-2
        self.layout: int = layout
        self.targets: tuple[int, ...] = tuple(targets)
        self.phase = PROGRAM
        self.manche = 1
        self.step = 0
        grid = deck.cards[layout - 1]
        self.cells = list(grid)
        """The colour on each square (the grid, mutable)."""
        self.where = list(positions(grid))
        """The square of each colour."""
        self.grid_mask = self.layout_mask = mask(grid)
        self._grid: Grid | None = grid
        self._matches: list[int] | None = None
        self.seen = settings.claim_before_first_swap
        """Whether a grid equal to the face-up card's can be let pass: not when no claim
        may come before the first swap (the bots' `_passed_grids` leave it out)."""
        self.programs: list[list[int]] = [[], []]
        self.revealed: tuple[tuple[int, ...], ...] | None = None
        self.orders = _orders(first)
        self.order = self.orders[0]
        self.gap_claims = [0, 0]
        self.knowledge = Knowledge(deck, layout)
        self.deducing = deducing
        """A deducing seat plays: the evidence is kept (random seats never read it)."""
        self.tally = Tally(first)
        self.named: list[int | None] = [None, None]
        """The card each deducing seat named last (learnt when its claim is refused)."""

    def may_claim(self, seat: int) -> bool:
        """SW-5: between two swaps, within the configured limits (`may_claim`)."""
        if self.phase == OVER:
            return False
        cfg = self.settings
        if not cfg.claim_before_first_swap and self.manche == 1 and self.step == 0:
            return False
        return cfg.claims_per_gap is None or self.gap_claims[seat] < cfg.claims_per_gap

    def legal(self) -> tuple[tuple[int, Offer], ...]:
        """Every legal (seat, offer), in the readable `legal_actions` order: each seat's
        36 swaps while it programs (or the next swap, naming its programmed pair, where
        the bots offer (SWAP, 0)), then each seat's claims: "5 matches", then every card.
        The bots never list them; the contract test checks this list."""
        out: list[tuple[int, Offer]] = []
        if self.phase == PROGRAM:
            for seat in (0, 1):
                if len(self.programs[seat]) < SWAPS_PER_PROGRAM:
                    out += [(seat, (PROGRAM_SWAP, k)) for k in SWAP_INDICES]
        elif self.phase == EXECUTE:
            assert self.revealed is not None
            seat, phase = self.order[self.step]
            out.append((seat, (SWAP, self.revealed[seat][phase - 1])))
        for seat in (0, 1):
            if self.may_claim(seat):
                out.append((seat, (CLAIM_MATCHES, 0)))
                out += [(seat, (CLAIM_CARD, card)) for card in range(1, self.deck.size + 1)]
        return tuple(out)

    def act(self, seat: int, offer: Offer) -> None:
        """Play one legal offer of `seat` (the self-play loop does the same, with its
        bots' bookkeeping around it)."""
        kind, value = offer
        if kind == SWAP:
            self.swap()
        elif kind == PROGRAM_SWAP:
            self.program(seat, value)
        else:
            self.claim(seat, value if kind == CLAIM_CARD else None)

    def swapper(self) -> int | None:
        return self.order[self.step][0] if self.phase == EXECUTE else None

    @property
    def grid(self) -> Grid:
        if self._grid is None:
            self._grid = tuple(self.cells)
        return self._grid

    def matches(self, seat: int) -> int:
        """SW-5: how many big cubes stand where `seat`'s card puts them."""
        if self._matches is None:
            deck, grid_mask = self.deck, self.grid_mask
            self._matches = [deck.agreement(grid_mask, target) for target in self.targets]
        return self._matches[seat]

    # ------------------------------------------------------------------ transitions

    def program(self, seat: int, swap: int) -> bool:
        """SW-3; True when both programs are complete and revealed."""
        self.tally.actions += 1
        programs = self.programs
        programs[seat].append(swap)
        if len(programs[0]) < SWAPS_PER_PROGRAM or len(programs[1]) < SWAPS_PER_PROGRAM:
            return False
        self.revealed = (tuple(programs[0]), tuple(programs[1]))
        self.programs = [[], []]
        self.phase = EXECUTE
        self.step = 0
        if self.deducing:
            self.knowledge.reveal(self.grid, self.revealed)
        return True

    def swap(self) -> None:
        """SW-4: the next programmed swap; the second of a phase repeating the first is
        skipped; after the sixth the manche ends."""
        assert self.revealed is not None
        seat, phase = self.order[self.step]
        swap = self.revealed[seat][phase - 1]
        self._apply(swap)
        if self.step % 2 == 1:
            self._next_step()
            return
        self._next_step()
        other = self.order[self.step][0]
        if self.revealed[other][phase - 1] == swap:
            self.tally.skipped(False)
            self._next_step()

    def _apply(self, swap: int) -> None:
        if self.deducing and (self.seen or self.grid_mask != self.layout_mask):
            self.knowledge.passed(self.grid_mask)  # a grid let pass (add_passed_grid)
        a, b = SWAPS[swap]
        cells, where = self.cells, self.where
        i, j = where[a], where[b]
        cells[i], cells[j] = b, a
        where[a], where[b] = j, i
        self.grid_mask ^= _BIT[9 * i + a] | _BIT[9 * j + b] | _BIT[9 * i + b] | _BIT[9 * j + a]
        self._grid = None
        self._matches = None
        self.tally.swapped()

    def _next_step(self) -> None:
        self.step += 1
        self.gap_claims = [0, 0]
        if self.step < len(self.order):
            return
        limit = self.settings.manche_limit
        if limit is not None and self.manche >= limit:  # SW-6
            self.phase = OVER
            self.step = 0  # the engine leaves a drawn game at no swap, programs put away
            self.revealed = None
            self.tally.drawn()
            return
        self.manche += 1
        self.order = self.orders[1 - self.manche % 2]
        self.phase = PROGRAM
        self.revealed = None
        self.step = 0
        self.tally.manche_started(self.manche)

    def claim(self, seat: int, card: int | None) -> bool:
        """SW-5: "5 matches" (card None) or "I know your card"; True when refused."""
        if card is None:
            correct = self.matches(seat) >= MATCHES_TO_WIN
        else:
            correct = card == self.targets[1 - seat]
        self.tally.claimed(seat, card is not None, correct)
        if correct or self.settings.loses:
            self.phase = OVER
            self.tally.won(seat if correct else 1 - seat)
            return False
        self.gap_claims[seat] += 1
        return True


# ----------------------------------------------------------------------------- bots


class RandomSeat:
    """`RandomBot`: random swaps; "5 matches" when true; with false claims refused, a
    random card (not its own, not the face-up one) in every gap once programs are shown."""

    __slots__ = ("seat", "rng", "cards")

    def __init__(self, seat: int, table: Table, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        own, layout = table.targets[seat], table.layout
        self.cards = tuple(c for c in range(1, table.deck.size + 1) if c not in (own, layout))

    def act(self, table: Table) -> Offer | None:
        seat = self.seat
        if table.may_claim(seat):
            if table.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            if not table.settings.loses and table.revealed is not None and self.cards:
                return (CLAIM_CARD, self.rng.choice(self.cards))
        if table.phase == EXECUTE:
            return (SWAP, 0) if table.swapper() == seat else None
        if len(table.programs[seat]) < SWAPS_PER_PROGRAM:
            return (PROGRAM_SWAP, self.rng.choice(SWAP_INDICES))
        return None

    def refused(self) -> None:
        pass


class DeducingSeat:
    """`DeducingBot`: believes, claims when sure enough, programs greedily (see deduce)."""

    __slots__ = ("seat", "rng", "table", "candidates", "ruled", "belief_at", "belief_of",
                 "top", "plan", "plan_manche")  # fmt: skip

    def __init__(self, seat: int, table: Table, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.table = table
        own = table.targets[seat]
        self.candidates = tuple(c for c in table.knowledge.others if c != own)
        self.ruled: set[int] = set()
        """Cards it named in refused claims (SW-5): not the opponent's."""
        self.belief_at = -1
        self.belief_of: dict[int, float] = {}
        self.top = (0, 0.0)
        self.plan: tuple[int, ...] = ()
        self.plan_manche = 0

    def belief(self) -> dict[int, float]:
        """P(the opponent's card), recomputed when the evidence moved."""
        version = self.table.knowledge.version + len(self.ruled) * (1 << 40)
        if version != self.belief_at:
            self.belief_at = version
            belief = posterior(self.table.knowledge, self.candidates, 1 - self.seat, self.ruled)
            self.belief_of = belief
            card = max(belief, key=lambda c: (belief[c], -c))
            self.top = (card, belief[card])
        return self.belief_of

    def act(self, table: Table) -> Offer | None:
        seat = self.seat
        if table.may_claim(seat):
            if table.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            self.belief()
            card, p = self.top
            threshold = PARAMS.claim_threshold
            # With refused claims a named card costs only the gap's claim: once the
            # programs are shown the bot names its top card in every gap (`_claim`).
            if not table.settings.loses and table.revealed is not None:
                threshold = min(threshold, PARAMS.refused_threshold)
            if not (p <= 0 or p < threshold):
                table.named[seat] = card
                return (CLAIM_CARD, card)
        if table.phase == EXECUTE:
            return (SWAP, 0) if table.swapper() == seat else None
        programmed = len(table.programs[seat])
        if programmed >= SWAPS_PER_PROGRAM:
            return None
        if self.plan_manche != table.manche:
            self.plan = self._plan()
            self.plan_manche = table.manche
        return (PROGRAM_SWAP, self.plan[programmed])

    def refused(self) -> None:
        """Its "I know your card" was refused: the card it named is not it (SW-5)."""
        table = self.table
        card = table.named[self.seat]
        if card is not None:
            self.ruled.add(card)
            table.named[self.seat] = None

    def _plan(self) -> tuple[int, ...]:
        """`plan_program`: three swaps, each drawn among the best for the grid as the
        swaps before it leave it."""
        table = self.table
        knowledge = table.knowledge
        first = table.manche == 1 and not self.ruled and knowledge.version == 0
        planner = Planner(knowledge, self.seat, table.targets[self.seat], table.grid, first)
        known = False
        for _ in range(SWAPS_PER_PROGRAM):
            if not known and planner.needs_belief():
                planner.belief = {c: w for c, w in self.belief().items() if w > 0.01}
                opponent = 1 - self.seat
                planner.watcher = rationality(knowledge, self.candidates, opponent, self.ruled)
                known = True
            planner.choose(self.rng.choice(planner.best()))
        return tuple(planner.chosen)


Seat = RandomSeat | DeducingSeat
KINDS: dict[str, type[RandomSeat] | type[DeducingSeat]] = {
    "random": RandomSeat,
    "deducing": DeducingSeat,
}


def play(
    settings: Settings,
    kinds: tuple[str, str],
    seed: int,
    index: int,
    trace: list[tuple[int, Offer | None]] | None = None,
) -> GameRecord:
    """Game `index` of `seed`, as `selfplay_report` plays it; `trace` gets every seat
    asked and its offer, in order (for the differential test)."""
    rng = random.Random(f"{seed}:{index}")
    first = index % 2
    seat_rngs = [random.Random(rng.random()) for _ in range(2)]
    deck = deck_of(settings.deck_size, settings.deck_seed)
    table = Table(settings, deck, rng.randrange(2**31), first, "deducing" in kinds)
    bots: list[Seat] = [KINDS[kinds[s]](s, table, seat_rngs[s]) for s in (0, 1)]
    tally = table.tally
    draw = rng.random
    for _ in range(MAX_ACTIONS):
        if table.phase == OVER:
            break
        asked = (0, 1) if draw() < 0.5 else (1, 0)
        one = bots[asked[0]].act(table)
        two = bots[asked[1]].act(table)
        if trace is not None:
            trace += [(asked[0], one), (asked[1], two)]
        if one is not None and one[0] >= CLAIM_MATCHES:
            seat, offer = asked[0], one
        elif two is not None and two[0] >= CLAIM_MATCHES:
            seat, offer = asked[1], two
        elif one is not None:
            seat, offer = asked[0], one
        elif two is not None:
            seat, offer = asked[1], two
        else:
            raise RuntimeError(f"no bot acts in manche {table.manche}")
        kind = offer[0]
        if kind == SWAP:
            table.swap()
        elif kind == PROGRAM_SWAP:
            if table.program(seat, offer[1]) and table.manche <= BELIEF_MANCHES:
                _snapshot(table, bots)
        elif table.claim(seat, offer[1] if kind == CLAIM_CARD else None) and kind == CLAIM_CARD:
            bots[seat].refused()
    else:  # pragma: no cover - a manche limit or the bots end every game
        raise RuntimeError("a self-play game did not end")
    return tally.record()


def _snapshot(table: Table, bots: list[Seat]) -> None:
    """The deducing bots' belief in the true card after a reveal (today's report)."""
    for seat, bot in enumerate(bots):
        if isinstance(bot, DeducingSeat):
            belief = bot.belief()
            p = belief.get(table.targets[1 - seat], 0.0)
            table.tally.belief(table.manche, p, 1 + sum(w > p for w in belief.values()))


__all__ = ["KINDS", "SWAPS", "Settings", "play"]
