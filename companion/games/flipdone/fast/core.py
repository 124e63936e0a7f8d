"""A fast, mutable Flip Done for self-play: the readable engine's game, move for move.

The readable engine (`companion.games.flipdone.rules`) stays the referee's engine and the
reference; this is a second implementation of the same rules, kept equal to it by the
contract test, step by step (tests/lab/test_fast_equals_engine.py), and the differential
test in tests/lab/test_flipdone.py, game by game. It plays only what bots play: a SEEDED
deal (FD-2), builds, flips and discards (FD-3) and, with the FD-2 variant, the first
element's square. What makes it fast:

- Only a card's colour matters to the rules (FD-1), so a card is its colour: RED or
  BLACK; a hand is a list of colours in the order the engine sorts the cards' names, so a
  bot's choice among "the same" cards is the very card the readable engine picks.
- Each line's state (the 3 squares' face colours and flipped marks, and its owner) is one
  small integer kept up to date, so scoring a line, and a bot weighing a flip, is a table
  lookup (`OUTCOMES`, built from `flip_outcome`, which is FD-5..FD-8 line by line).
- The game counts what the lab reports as it plays (`Tally`), with no event objects.

Chance is the engine's: each phase is shuffled by Random(f"{seed}:{deal}") (FD-2), and a
shuffle's permutation depends only on the list's length, so the same cards land in the
same places.
"""

from __future__ import annotations

import random
from bisect import insort

from companion.games.flipdone.fast.tally import (
    BANK_BREAKS,
    BANK_TOKENS,
    BREAKS,
    BROKEN,
    BROKEN_POINTS,
    BUILDS,
    CARDS_LEFT,
    DISCARDS,
    FLIPS,
    HELD,
    HELD_POINTS,
    KEPT,
    KIND_OF_LINE,
    LOST,
    MADE,
    MADE_POINTS,
    MANCHE_BONUS,
    MANCHES_WON,
    MULTI,
    OVERTIME_PHASES,
    OWN_BROKEN,
    OWN_KEPT,
    PENALISED,
    PENALTY_CUT,
    PENALTY_PAID,
    PHASES,
    PHASES_LEFT,
    PLACED,
    PLAYS,
    SEAT_BROKE,
    SEAT_MADE,
    SEAT_MANCHES,
    SKIPS,
    THIRD_BROKEN,
    THIRD_KEPT,
    THIRD_UNOWNED,
    TIE_PHASES,
    TIES_STANDING,
    TOKENS,
    Tally,
)
from companion.games.flipdone.rules.config import (
    CENTRE,
    DECK,
    HAND_SIZE,
    LINES,
    LINES_THROUGH,
    PLAYERS,
    SQUARES,
    Config,
    Deal,
    FirstElement,
    MancheTie,
    is_red,
)
from companion.games.flipdone.rules.config import MANCHE_BONUS as BONUS

EMPTY, RED, BLACK = 0, 1, 2
"""A square's face (EMPTY: no element yet) and a card, by colour (FD-1)."""

_SORTED = sorted(DECK)
SHUFFLED: tuple[int, ...] = tuple(_SORTED.index(card) for card in DECK)
"""The deck in DECK order, each card named by its rank among the sorted card names: the
engine shuffles DECK, and a hand sorted by these numbers is sorted by name."""
COLOUR: tuple[int, ...] = tuple(RED if is_red(card) else BLACK for card in _SORTED)
"""The colour of each card, by its rank among the sorted names."""

_DRAW_BITS = tuple((i + 1).bit_length() for i in range(len(DECK)))


def _shuffle_inline(seed: str) -> list[int]:
    """`random.Random(seed).shuffle(list(SHUFFLED))` with its draws inlined (CPython's
    Fisher-Yates over getrandbits, as random.py writes it): a fifth of a lab game's time
    went to the calls of the library's shuffle."""
    cards = list(SHUFFLED)
    bits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = _DRAW_BITS[i]
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _shuffle_library(seed: str) -> list[int]:
    cards = list(SHUFFLED)
    random.Random(seed).shuffle(cards)
    return cards


shuffled = (
    _shuffle_inline
    if all(_shuffle_inline(f"check:{n}") == _shuffle_library(f"check:{n}") for n in range(8))
    else _shuffle_library
)
"""The deal's shuffle: the inlined one where it is this Python's own (checked once here),
else the library's."""

LINE_SQUARES: tuple[tuple[int, int, int], ...] = tuple(
    (a - 1, b - 1, c - 1) for a, b, c in (line.squares for line in LINES)
)
"""Each line's squares, 0-based, in the order of LINES (FD-4)."""
VALUE: tuple[int, ...] = tuple(line.value for line in LINES)
HOLD_BONUS: tuple[int, ...] = tuple(2 if line.diagonal else 1 for line in LINES)  # FD-6

CODES = 216
"""A line's board code: each square's state (face + 3 if flipped: 0..5) in base 6, the
line's first square lowest. Its full code adds CODES * (owner + 1), owner -1 for none."""
WEIGHTS = (1, 6, 36)
THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((line, LINE_SQUARES[line].index(sq), WEIGHTS[LINE_SQUARES[line].index(sq)])
          for line in LINES_THROUGH[sq])
    for sq in range(SQUARES)
)  # fmt: skip
"""THROUGH[square]: (line, the square's place in it, its weight in the code), for each
line through the square, in the engine's order (ascending line index)."""

# What a flip does to one line through the flipped square (FD-5..FD-8). The KEEPS_* and
# ALIGNS_THIRD cases change nothing (no event either); they are told apart to count them.
NOTHING, MAKES, BREAKS_LINE, HOLDS, LOSES_OWN, LOSES_THIRD = range(6)
KEEPS_OWN, KEEPS_THIRD, ALIGNS_THIRD = range(6, 9)


def _faces(code: int) -> tuple[list[int], int]:
    """The face of each square of a line's board code, and how many are flipped."""
    states = [code // w % 6 for w in WEIGHTS]
    return [s % 3 for s in states], sum(s // 3 for s in states)


def _aligned(faces: list[int]) -> bool:
    """FD-4: three elements of one colour."""
    return faces[0] != EMPTY and faces[0] == faces[1] == faces[2]


def flip_outcome(code: int, owner: int, seat: int, place: int, new: int) -> int:
    """What `seat`'s flip of the square at `place` of a line, turning up a card of colour
    `new`, does to that line (owner -1: none). Mirrors the engine's `score_flip`."""
    faces, flipped = _faces(code)
    was = _aligned(faces)
    faces[place] = new
    now = _aligned(faces)
    if flipped >= 2:  # FD-8: the third flip scores nothing; a break still removes the owner
        if was and owner >= 0:
            return KEEPS_THIRD if now else LOSES_THIRD
        return ALIGNS_THIRD if not was and now else NOTHING
    if was and owner >= 0:
        if owner == seat:  # FD-7
            return KEEPS_OWN if now else LOSES_OWN
        return HOLDS if now else BREAKS_LINE  # FD-6
    return MAKES if not was and now and owner < 0 else NOTHING  # FD-5


ALIGNED: tuple[bool, ...] = tuple(_aligned(_faces(code)[0]) for code in range(CODES))
OUTCOMES: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        flip_outcome(full % CODES, full // CODES - 1, seat, place, new)
        for full in range(CODES * (PLAYERS + 1))
        for place in range(3)
        for new in (RED, BLACK)
    )
    for seat in range(PLAYERS)
)
"""OUTCOMES[seat][(full code * 3 + place) * 2 + new - 1]: `flip_outcome` by table."""


def _completion(line: int, code: int) -> tuple[int, int, int] | None:
    """(square, colour, value) when building that colour on that square makes the
    unowned line (FD-5): it is the line's one empty square and the other two match."""
    faces, _ = _faces(code)
    if faces.count(EMPTY) != 1:
        return None
    place = faces.index(EMPTY)
    a, b = (f for i, f in enumerate(faces) if i != place)
    return (LINE_SQUARES[line][place], a, VALUE[line]) if a == b else None


COMPLETIONS: tuple[tuple[tuple[int, int, int] | None, ...], ...] = tuple(
    tuple(
        _completion(line, full) if full < CODES else None for full in range(CODES * (PLAYERS + 1))
    )
    for line in range(len(LINES))
)
"""COMPLETIONS[line][full code]: `_completion`, None for an owned line (it is full)."""

PLACE, BUILD, FLIP, DISCARD = range(4)
Play = tuple[int, int, int]
"""(PLACE, 0, square), (BUILD, hand index, square), (FLIP, hand index, square) or
(DISCARD, hand index, -1); squares 0-based."""


class FastGame:
    """One seeded Flip Done game for bots, mutable, counting as it goes.

    A bot reads `turn`, `placing`, `hands`, `free`, `flippable`, `lines`, `tokens` and the
    counts of seen cards, and returns a `Play`; `play` applies it. Seats 0..2, squares
    0..8."""

    __slots__ = (
        "seed", "deal", "manche", "phase", "extra", "overtime", "tied", "first", "turn",
        "over", "placing", "pending", "tokens", "baseline", "face", "flipped", "under",
        "lines", "free", "flippable", "hands", "cards", "flips_done", "board_seen",
        "board_red", "paid_seen", "paid_red", "tally", "counts", "seats", "phases",
        "manches", "start", "chosen", "extra_only", "limit", "phase_start_plays",
    )  # fmt: skip

    def __init__(self, config: Config, seed: int, *, deal: bool = True) -> None:
        """The game at its first phase's deal; with `deal` False, before it (a position
        to be set field by field: `common.resume`)."""
        if config.deal is not Deal.SEEDED:
            raise ValueError("the fast engine deals its own cards: deal must be seeded")
        self.phases = config.phases
        self.manches = config.manches
        self.start = config.first
        self.chosen = config.first_element is FirstElement.CHOSEN
        self.extra_only = config.manche_tie is MancheTie.EXTRA_ONLY
        self.limit = config.tie_phase_limit
        self.seed = seed
        self.deal = 0
        self.manche = 1
        self.phase = 1
        self.extra = 0
        self.overtime = False
        self.tied: tuple[int, ...] = ()
        self.first = self.turn = config.first
        self.over = False
        self.placing = False
        self.pending = EMPTY
        self.tokens = [0] * PLAYERS
        self.baseline = [0] * PLAYERS
        self.face = [EMPTY] * SQUARES
        self.flipped = [False] * SQUARES
        self.under = [EMPTY] * SQUARES
        self.lines = [0] * len(LINES)
        """Each line's full code (board code + CODES * (owner + 1))."""
        self.free: list[int] = []
        """The squares with no element yet, in order (a build's squares)."""
        self.flippable: list[int] = []
        """The elements never flipped, in order (a flip's squares)."""
        self.hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.cards = 0
        """Cards in all hands."""
        self.flips_done = 0
        self.board_seen = 0
        """Cards everyone has seen on the grid this phase: the elements' faces and, under
        the flipped ones, the face they had."""
        self.board_red = 0
        self.paid_seen = [0] * PLAYERS
        """Cards each seat discarded or paid for a flip this phase (it saw them)."""
        self.paid_red = [0] * PLAYERS
        self.phase_start_plays = 0
        """The plays made before this phase (GameRecord.manches counts each phase's)."""
        self.tally = Tally()
        self.counts = self.tally.counts
        self.seats = self.tally.seats
        if deal:
            self._start_phase()

    _LISTS = (
        "tokens", "baseline", "face", "flipped", "under", "lines", "free", "flippable",
        "paid_seen", "paid_red",
    )  # fmt: skip

    def fork(self) -> FastGame:
        """A copy that plays on apart (the thinking bot plays every move from one drawn
        position), counting from nothing but the seats' figures."""
        game = FastGame.__new__(FastGame)
        for name in self.__slots__:
            setattr(game, name, getattr(self, name))
        for name in self._LISTS:
            setattr(game, name, list(getattr(self, name)))
        game.hands = [list(hand) for hand in self.hands]
        game.tally = Tally(
            seats=[list(values) for values in self.seats], winners=self.tally.winners
        )
        game.counts, game.seats = game.tally.counts, game.tally.seats
        return game

    # ------------------------------------------------------------------ plays

    def legal(self) -> tuple[Play, ...]:
        """Every legal play, in the readable `legal_actions` order: builds, flips, then
        discards, each card by name (its hand index), then square by square. The bots
        draw among these without listing them; the contract test checks this list."""
        if self.over:
            return ()
        if self.placing:
            return tuple((PLACE, 0, sq) for sq in range(SQUARES))
        cards = range(len(self.hands[self.turn]))
        return (
            *((BUILD, i, sq) for i in cards for sq in self.free),
            *((FLIP, i, sq) for i in cards for sq in self.flippable),
            *((DISCARD, i, -1) for i in cards),
        )

    def play(self, move: Play) -> None:
        kind, index, square = move
        if kind == BUILD:
            self._build(index, square)
        elif kind == FLIP:
            self._flip(index, square)
        elif kind == DISCARD:
            self._discard(index)
        else:
            self._place(square)

    def _place(self, square: int) -> None:
        """FD-2 variant: the phase's first player puts the face-up card on `square`."""
        self._show(square, self.pending)
        self.pending = EMPTY
        self.placing = False
        self.counts[PLACED] += 1

    def _show(self, square: int, colour: int) -> None:
        """A new element on `square` (the first one, or a build)."""
        self.face[square] = colour
        self.free.remove(square)
        insort(self.flippable, square)
        self.board_seen += 1
        self.board_red += colour == RED
        lines = self.lines
        for line, _, weight in THROUGH[square]:
            lines[line] += colour * weight

    def _build(self, index: int, square: int) -> None:
        seat = self.turn
        colour = self.hands[seat].pop(index)
        self.cards -= 1
        self._show(square, colour)
        made = 0
        lines = self.lines
        for line, _, _ in THROUGH[square]:  # a new element: no line was aligned (FD-5)
            full = lines[line]
            if full < CODES and ALIGNED[full]:
                self._make(seat, line)
                made += 1
        self._played(BUILDS, made)

    def _flip(self, index: int, square: int) -> None:
        seat = self.turn
        paid = self.hands[seat].pop(index)
        self.cards -= 1
        self.paid_seen[seat] += 1
        self.paid_red[seat] += paid == RED
        old = self.face[square]
        new = self.under[square]
        self.face[square], self.under[square] = new, old
        self.flipped[square] = True
        self.flippable.remove(square)
        self.flips_done += 1
        self.board_seen += 1
        self.board_red += new == RED
        step = new + 3 - old
        outcomes = OUTCOMES[seat]
        lines = self.lines
        counts = self.counts
        made = 0
        for line, place, weight in THROUGH[square]:
            full = lines[line]
            outcome = outcomes[(full * 3 + place) * 2 + new - 1]
            lines[line] = full + step * weight
            if outcome == NOTHING:
                continue
            kind = KIND_OF_LINE[line]
            if outcome == MAKES:
                self._make(seat, line)
                made += 1
            elif outcome == BREAKS_LINE:  # FD-6: the flipper takes the value from the owner
                owner = full // CODES - 1
                value = VALUE[line]
                taken = min(value, self.tokens[owner])  # FD-1: the bank makes up the rest
                self.tokens[owner] -= taken
                self.tokens[seat] += value
                lines[line] -= CODES * (owner + 1)
                counts[BROKEN + kind] += 1
                counts[BROKEN_POINTS + kind] += value
                counts[BREAKS] += 1
                self.seats[SEAT_BROKE][seat] += 1
                if taken < value:
                    counts[BANK_BREAKS] += 1
                    counts[BANK_TOKENS] += value - taken
            elif outcome == HOLDS:  # FD-6: the owner takes a bonus from the bank
                owner = full // CODES - 1
                self.tokens[owner] += HOLD_BONUS[line]
                counts[HELD + kind] += 1
                counts[HELD_POINTS + kind] += HOLD_BONUS[line]
                counts[KEPT] += 1
            elif outcome in (LOSES_OWN, LOSES_THIRD):  # FD-7, FD-8
                lines[line] -= CODES * (full // CODES)
                counts[LOST + kind] += 1
                counts[OWN_BROKEN if outcome == LOSES_OWN else THIRD_BROKEN] += 1
            elif outcome == KEEPS_OWN:
                counts[OWN_KEPT] += 1
            elif outcome == KEEPS_THIRD:
                counts[THIRD_KEPT] += 1
            else:
                counts[THIRD_UNOWNED] += 1
        self._played(FLIPS, made)

    def _discard(self, index: int) -> None:
        seat = self.turn
        paid = self.hands[seat].pop(index)
        self.cards -= 1
        self.paid_seen[seat] += 1
        self.paid_red[seat] += paid == RED
        self._played(DISCARDS, 0)

    def _make(self, seat: int, line: int) -> None:
        """FD-5: the actor takes the line's value and owns it."""
        value = VALUE[line]
        self.tokens[seat] += value
        self.lines[line] += CODES * (seat + 1)
        kind = KIND_OF_LINE[line]
        self.counts[MADE + kind] += 1
        self.counts[MADE_POINTS + kind] += value
        self.seats[SEAT_MADE][seat] += 1

    def _played(self, kind: int, made: int) -> None:
        """Count a play, then end the turn (FD-3) or the phase (FD-9)."""
        counts = self.counts
        counts[kind] += 1
        counts[PLAYS] += 1
        if made > 1:
            counts[MULTI] += 1
        if not self.cards or self.flips_done == SQUARES:
            self._end_phase()
            return
        hands = self.hands
        seat = (self.turn + 1) % PLAYERS
        while not hands[seat]:  # FD-3: a player with no card is skipped
            seat = (seat + 1) % PLAYERS
            counts[SKIPS] += 1
        self.turn = seat

    # ------------------------------------------------------- phases and manches

    def _start_phase(self) -> None:
        """FD-2: the full deck shuffled (as the engine shuffles it); 9 face down, 1 face up,
        4 cards each from the phase's first player on."""
        self.deal += 1
        self.first = self.turn = (self.start + self.deal - 1) % PLAYERS
        cards = shuffled(f"{self.seed}:{self.deal}")
        self.under = [COLOUR[card] for card in cards[:SQUARES]]
        for i in range(PLAYERS):
            dealt = cards[SQUARES + 1 + HAND_SIZE * i : SQUARES + 1 + HAND_SIZE * (i + 1)]
            self.hands[(self.first + i) % PLAYERS] = [COLOUR[card] for card in sorted(dealt)]
        self.cards = HAND_SIZE * PLAYERS
        self.face = [EMPTY] * SQUARES
        self.flipped = [False] * SQUARES
        self.lines = [0] * len(LINES)
        self.free = list(range(SQUARES))
        self.flippable = []
        self.flips_done = self.board_seen = self.board_red = 0
        self.paid_seen = [0] * PLAYERS
        self.paid_red = [0] * PLAYERS
        self.counts[PHASES] += 1
        self.phase_start_plays = self.counts[PLAYS]
        face = COLOUR[cards[SQUARES]]
        if self.chosen:
            self.pending = face
            self.placing = True
        else:
            self._show(CENTRE - 1, face)

    def _end_phase(self) -> None:
        """FD-9: one token per card still in hand, never below zero (FD-1)."""
        counts = self.counts
        self.tally.phase_plays.append(counts[PLAYS] - self.phase_start_plays)
        tokens = self.tokens
        if self.cards:
            for seat, hand in enumerate(self.hands):
                if hand:
                    paid = min(len(hand), tokens[seat])
                    tokens[seat] -= paid
                    counts[CARDS_LEFT] += len(hand)
                    counts[PENALTY_PAID] += paid
                    counts[PENALISED] += 1
                    counts[PENALTY_CUT] += paid < len(hand)
            counts[PHASES_LEFT] += 1
        if self.overtime:
            self._settle_game()
        elif self.extra == 0 and self.phase < self.phases:
            self.phase += 1
            self._start_phase()
        else:
            self._settle_manche()

    def manche_top(self, tokens: list[int]) -> tuple[int, ...]:
        """FD-10: the seats with the best net gain of the manche (with MancheTie
        EXTRA_ONLY, in an extra phase, among the tied seats only)."""
        contenders = self.tied if self.extra and self.extra_only else range(PLAYERS)
        gains = [t - b for t, b in zip(tokens, self.baseline, strict=True)]
        best = max(gains[s] for s in contenders)
        return tuple(s for s in contenders if gains[s] == best)

    def settles_manche(self) -> bool:
        """The phase being played is the last of its manche unless a tie prolongs it."""
        return not self.overtime and (self.extra > 0 or self.phase >= self.phases)

    def _limit_reached(self) -> bool:
        return self.limit is not None and self.extra >= self.limit

    def _settle_manche(self) -> None:
        """FD-10: the best net gain of the manche takes 2 more; a tie plays one more phase."""
        top = self.manche_top(self.tokens)
        if len(top) > 1 and not self._limit_reached():
            if self.extra == 0 and self.extra_only:
                self.baseline = list(self.tokens)
            self.extra += 1
            self.tied = top
            self.phase += 1
            self.counts[TIE_PHASES] += 1
            self._start_phase()
            return
        if len(top) == 1:
            self.tokens[top[0]] += BONUS
            self.counts[MANCHE_BONUS] += BONUS
            self.counts[MANCHES_WON] += 1
            self.seats[SEAT_MANCHES][top[0]] += 1
        else:
            self.counts[TIES_STANDING] += 1
        self.extra = 0
        self.tied = ()
        if self.manche < self.manches:
            self.manche += 1
            self.phase = 1
            self.baseline = list(self.tokens)
            self._start_phase()
        else:
            self._settle_game()

    def _settle_game(self) -> None:
        """FD-10: most tokens wins; a tie plays one more phase, until it is gone."""
        best = max(self.tokens)
        top = tuple(s for s, t in enumerate(self.tokens) if t == best)
        if len(top) > 1 and not self._limit_reached():
            self.overtime = True
            self.extra += 1
            self.tied = top
            self.phase += 1
            self.counts[OVERTIME_PHASES] += 1
            self._start_phase()
            return
        if len(top) > 1:
            self.counts[TIES_STANDING] += 1
        self.over = True
        self.tied = ()
        self.tally.finished = True
        self.tally.winners = top
        self.seats[TOKENS] = list(self.tokens)
