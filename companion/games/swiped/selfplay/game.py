"""One seeded self-play game of Swiped in the lab: the engine's board (rules/board.py),
both bots and the tally in one loop, with the very draws and choices of today's self-play.

Today (`companion.games.swiped.bots.selfplay_report` and `play_game`): game i of seed S draws
from random.Random(f"{S}:{i}") the seed of each seat's bot, then the deal's seed; player 1
is seat i mod 2. At each moment both seats are asked, in an order drawn from that random;
a claim goes first, else the first action offered. Here the same happens on the engine's
board played in place: the bots read it directly (only what their seat may know), and
the lab hears what happens (`Lab`) to count the figures and keep the public evidence the
deducing bots reason from. tests/lab/test_swiped.py plays the readable bots on the engine
and wants the same records.
"""

from __future__ import annotations

import random

from companion.games.swiped.rules.board import EXECUTE, OVER, Board, Watcher
from companion.games.swiped.rules.config import (
    MATCHES_TO_WIN,
    SWAPS_PER_PROGRAM,
    Config,
    FalseClaim,
)
from companion.games.swiped.selfplay.deduce import Knowledge, Planner, posterior, rationality
from companion.games.swiped.selfplay.tables import PARAMS, SWAP_INDICES, Deck, deck_of
from companion.games.swiped.selfplay.tally import BELIEF_MANCHES, Tally
from companion.lab.model import GameRecord

MAX_ACTIONS = 100_000
"""play's guard: a game this long is a bug (it raises, as today's does)."""

# An offer is (kind, value): a program's swap, the next swap, or a claim.
PROGRAM_SWAP, SWAP, CLAIM_MATCHES, CLAIM_CARD = 0, 1, 2, 3
Offer = tuple[int, int]


class Table(Watcher):
    """One lab game: the engine's board and what the lab keeps beside it, hearing what
    happens on the board: the tally of the figures, the public evidence of the deducing
    bots (kept only when one plays) and the card each of them named last."""

    __slots__ = ("board", "deck", "knowledge", "deducing", "seen", "layout_mask", "loses",
                 "tally", "named")  # fmt: skip

    def __init__(self, config: Config, seed: int, deducing: bool) -> None:
        self.board = Board(config, seed, self)
        self.deck: Deck = deck_of(config.deck_size, config.deck_seed)
        layout = self.board.layout
        assert layout is not None  # a SEEDED deal
        self.knowledge = Knowledge(self.deck, layout)
        self.deducing = deducing
        """A deducing seat plays: the evidence is kept (random seats never read it)."""
        self.seen = config.claim_before_first_swap
        """Whether a grid equal to the face-up card's can be let pass: not when no claim
        may come before the first swap (the bots' `_passed_grids` leave it out)."""
        self.layout_mask = self.board.grid_mask
        self.loses = config.false_claim is FalseClaim.LOSES
        """SW-5: a false claim loses (else it is only refused)."""
        self.tally = Tally(config.first)
        self.named: list[int | None] = [None, None]
        """The card each deducing seat named last (learnt when its claim is refused)."""

    def programmed(self, board: Board, seat: int) -> None:
        self.tally.actions += 1

    def revealed(self, board: Board) -> None:
        if self.deducing:
            assert board.revealed is not None
            self.knowledge.reveal(board.grid, board.revealed)

    def swapped(self, board: Board, seat: int, phase: int, swap: int, left: int) -> None:
        if self.deducing and (self.seen or left != self.layout_mask):
            self.knowledge.passed(left)  # a grid let pass (add_passed_grid)
        self.tally.swapped()

    def skipped(self, board: Board, seat: int, phase: int, swap: int) -> None:
        self.tally.skipped(False)

    def manche_started(self, board: Board) -> None:
        self.tally.manche_started(board.manche)

    def drawn(self, board: Board) -> None:
        self.tally.drawn()

    def claimed(self, board: Board, seat: int, card: int | None, correct: bool) -> None:
        self.tally.claimed(seat, card is not None, correct)

    def won(self, board: Board, seat: int) -> None:
        self.tally.won(seat)


# ----------------------------------------------------------------------------- bots


class RandomSeat:
    """`RandomBot`: random swaps; "5 matches" when true; with false claims refused, a
    random card (not its own, not the face-up one) in every gap once programs are shown."""

    __slots__ = ("seat", "rng", "cards")

    def __init__(self, seat: int, table: Table, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        own, layout = table.board.targets[seat], table.board.layout
        self.cards = tuple(c for c in range(1, table.deck.size + 1) if c not in (own, layout))

    def act(self, table: Table) -> Offer | None:
        seat, board = self.seat, table.board
        if board.may_claim(seat):
            if board.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            if not table.loses and board.revealed is not None and self.cards:
                return (CLAIM_CARD, self.rng.choice(self.cards))
        if board.phase is EXECUTE:
            return (SWAP, 0) if board.swapper() == seat else None
        if len(board.programs[seat]) < SWAPS_PER_PROGRAM:
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
        own = table.board.targets[seat]
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
        seat, board = self.seat, table.board
        if board.may_claim(seat):
            if board.matches(seat) >= MATCHES_TO_WIN:
                return (CLAIM_MATCHES, 0)
            self.belief()
            card, p = self.top
            threshold = PARAMS.claim_threshold
            # With refused claims a named card costs only the gap's claim: once the
            # programs are shown the bot names its top card in every gap (`_claim`).
            if not table.loses and board.revealed is not None:
                threshold = min(threshold, PARAMS.refused_threshold)
            if not (p <= 0 or p < threshold):
                table.named[seat] = card
                return (CLAIM_CARD, card)
        if board.phase is EXECUTE:
            return (SWAP, 0) if board.swapper() == seat else None
        programmed = len(board.programs[seat])
        if programmed >= SWAPS_PER_PROGRAM:
            return None
        if self.plan_manche != board.manche:
            self.plan = self._plan()
            self.plan_manche = board.manche
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
        table, board = self.table, self.table.board
        knowledge = table.knowledge
        first = board.manche == 1 and not self.ruled and knowledge.version == 0
        own = board.targets[self.seat]
        assert own is not None
        planner = Planner(knowledge, self.seat, own, board.grid, first)
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
    config: Config,
    kinds: tuple[str, str],
    seed: int,
    index: int,
    trace: list[tuple[int, Offer | None]] | None = None,
) -> GameRecord:
    """Game `index` of `seed`, as `selfplay_report` plays it (`config.first`: player 1,
    index mod 2); `trace` gets every seat asked and its offer, in order (for the
    differential test)."""
    rng = random.Random(f"{seed}:{index}")
    seat_rngs = [random.Random(rng.random()) for _ in range(2)]
    table = Table(config, rng.randrange(2**31), "deducing" in kinds)
    board = table.board
    bots: list[Seat] = [KINDS[kinds[s]](s, table, seat_rngs[s]) for s in (0, 1)]
    draw = rng.random
    for _ in range(MAX_ACTIONS):
        if board.phase is OVER:
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
            raise RuntimeError(f"no bot acts in manche {board.manche}")
        kind = offer[0]
        if kind == SWAP:
            board.play_next_swap()
        elif kind == PROGRAM_SWAP:
            if board.program(seat, offer[1]) and board.manche <= BELIEF_MANCHES:
                _snapshot(table, bots)
        elif board.claim(seat, offer[1] if kind == CLAIM_CARD else None) and kind == CLAIM_CARD:
            bots[seat].refused()
    else:  # pragma: no cover - a manche limit or the bots end every game
        raise RuntimeError("a self-play game did not end")
    return table.tally.record()


def _snapshot(table: Table, bots: list[Seat]) -> None:
    """The deducing bots' belief in the true card after a reveal (today's report)."""
    for seat, bot in enumerate(bots):
        if isinstance(bot, DeducingSeat):
            belief = bot.belief()
            target = table.board.targets[1 - seat]
            assert target is not None  # a SEEDED deal
            p = belief.get(target, 0.0)
            table.tally.belief(table.board.manche, p, 1 + sum(w > p for w in belief.values()))


__all__ = ["KINDS", "Table", "play"]
