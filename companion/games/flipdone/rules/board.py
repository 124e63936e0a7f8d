"""A game of Flip Done as it stands: the engine's core, mutable.

One `Board` is played in place and copied with `fork`; the table sees it only through the
frozen `State` (state.py), which the engine's `apply` builds from a fork, and the lab, the
bots and the thinking bot play on it directly. What happens is told as it happens to the
board's `Watcher`: the engine turns it into events, the lab counts it (tally.py).

How the board holds a game:

- A card is a number: its rank among the cards' names sorted (`NAMES`), so a hand kept in
  ascending order is in the order of the names; `NO_CARD` is an empty place. Only a card's
  colour matters to the rules (FD-1): `COLOUR[card]` is RED or BLACK (EMPTY for NO_CARD).
- Squares are 0..8 here (the rule book's 1..9 less one); lines are indexes into LINES.
- Each line is one small integer kept up to date (its `code`: the colour and flipped mark
  of its 3 squares, plus its owner), so what a flip does to a line (FD-5..FD-8,
  `flip_outcome`) is one table lookup (`OUTCOMES`), as is a build that makes it
  (`ALIGNED`).

Chance comes only from the seed: each phase is dealt from Random(f"{seed}:{deal}") (FD-2).
"""

from __future__ import annotations

import random
from bisect import insort
from operator import sub

from companion.games.flipdone.rules.config import (
    CENTRE,
    DECK,
    HAND_SIZE,
    LINES,
    LINES_THROUGH,
    MANCHE_BONUS,
    PLAYERS,
    SQUARES,
    Config,
    Deal,
    FirstElement,
    MancheTie,
    Stage,
    is_red,
)
from companion.rules.errors import IllegalAction

NAMES: tuple[str, ...] = tuple(sorted(DECK))
"""Card c is NAMES[c]: the numbers sort as the names do."""
CARD: dict[str, int] = {name: c for c, name in enumerate(NAMES)}
NO_CARD = len(NAMES)
"""No card (an empty square, a face-down card not dealt yet)."""
EMPTY, RED, BLACK = 0, 1, 2
"""A square's face (EMPTY: no element yet) and a card, by colour (FD-1)."""
COLOUR: tuple[int, ...] = (*(RED if is_red(name) else BLACK for name in NAMES), EMPTY)
"""The colour of each card, EMPTY for NO_CARD."""
DEAL, PLACE_FIRST, PLAY, OVER = Stage.DEAL, Stage.PLACE_FIRST, Stage.PLAY, Stage.OVER
"""The stages by short names (read at every step of a lab game)."""

_SHUFFLED: tuple[int, ...] = tuple(CARD[name] for name in DECK)
"""The deck in DECK order, as numbers: what each phase's shuffle permutes (FD-2)."""
_DRAW_BITS = tuple((i + 1).bit_length() for i in range(len(DECK)))


def _shuffle_inline(seed: str) -> list[int]:
    """`random.Random(seed).shuffle(list(_SHUFFLED))` with its draws inlined (CPython's
    Fisher-Yates over getrandbits, as random.py writes it): a fifth of a lab game's time
    went to the calls of the library's shuffle."""
    cards = list(_SHUFFLED)
    bits = random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = _DRAW_BITS[i]
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _shuffle_library(seed: str) -> list[int]:
    cards = list(_SHUFFLED)
    random.Random(seed).shuffle(cards)
    return cards


shuffled = (
    _shuffle_inline
    if all(_shuffle_inline(f"check:{n}") == _shuffle_library(f"check:{n}") for n in range(8))
    else _shuffle_library
)
"""FD-2: the whole deck shuffled for one phase, from its seed string: the inlined shuffle
where it is this Python's own (checked once here), else the library's."""

LINE_SQUARES: tuple[tuple[int, int, int], ...] = tuple(
    (a - 1, b - 1, c - 1) for a, b, c in (line.squares for line in LINES)
)
"""Each line's squares, 0-based, in the order of LINES (FD-4)."""
VALUE: tuple[int, ...] = tuple(line.value for line in LINES)
"""FD-4: a column is worth 1, a row 2, a diagonal 3."""
HOLD_BONUS: tuple[int, ...] = tuple(2 if line.diagonal else 1 for line in LINES)
"""FD-6: what an owner takes when another's flip leaves its line aligned."""

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
line through the square, in ascending line order."""

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
    """What `seat`'s flip of the square at `place` of a line (board code `code`, `owner`
    -1 for none), turning up a card of colour `new`, does to that line:

    - FD-8: the line's third flip scores nothing; if it breaks an owned line, the owner
      loses it (LOSES_THIRD); a kept or newly aligned line stays as it is.
    - FD-7: a flip in one's own aligned line scores nothing; if it breaks it, it is lost.
    - FD-6: a flip that breaks another's line takes its value from the owner; one that
      leaves it aligned gives the owner a bonus.
    - FD-5: a flip that aligns an unowned line makes it: its value, and the line."""
    faces, flipped = _faces(code)
    was = _aligned(faces)
    faces[place] = new
    now = _aligned(faces)
    if flipped >= 2:  # FD-8
        if was and owner >= 0:
            return KEEPS_THIRD if now else LOSES_THIRD
        return ALIGNS_THIRD if not was and now else NOTHING
    if was and owner >= 0:
        if owner == seat:  # FD-7
            return KEEPS_OWN if now else LOSES_OWN
        return HOLDS if now else BREAKS_LINE  # FD-6
    return MAKES if not was and now and owner < 0 else NOTHING  # FD-5


ALIGNED: tuple[bool, ...] = tuple(_aligned(_faces(code)[0]) for code in range(CODES))
"""ALIGNED[board code]: the line is aligned (FD-4)."""
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
"""A SEEDED seat's decision, as the lab and the bots make it: (PLACE, 0, square),
(BUILD, hand index, square), (FLIP, hand index, square) or (DISCARD, hand index, -1)."""


class Watcher:
    """Hears what happens on a board, as it happens. Every hook does nothing here."""

    def dealt_down(self, board: Board, square: int) -> None:
        """FD-2, OBSERVED deal: a face-down card is on `square` (which one stays hidden)."""

    def phase_started(self, board: Board, card: int) -> None:
        """FD-2: a phase is dealt; `card` is its face-up card."""

    def first_placed(self, board: Board, seat: int | None, square: int, card: int) -> None:
        """FD-2: the phase's first element (on the centre: `seat` None; or where the
        phase's first player chose)."""

    def built(self, board: Board, seat: int, square: int, card: int) -> None:
        """FD-3: `seat` built `card` on `square`."""

    def flipped(self, board: Board, seat: int, square: int, shown: int, hidden: int) -> None:
        """FD-3: `seat` paid a card and turned the element on `square` over."""

    def discarded(self, board: Board, seat: int) -> None:
        """FD-3: `seat` discarded a card, nothing else."""

    def line_made(self, board: Board, seat: int, line: int) -> None:
        """FD-5: `seat` aligned the unowned `line`, took its value and owns it."""

    def line_broken(self, board: Board, seat: int, owner: int, line: int, taken: int) -> None:
        """FD-6: `seat`'s flip broke `owner`'s line: `taken` tokens came from the owner,
        the rest of its value from the bank (FD-1)."""

    def line_held(self, board: Board, seat: int, owner: int, line: int) -> None:
        """FD-6: `seat`'s flip left `owner`'s line aligned: the owner takes its bonus."""

    def line_lost(self, board: Board, seat: int, owner: int, line: int, outcome: int) -> None:
        """FD-7 (LOSES_OWN) or FD-8 (LOSES_THIRD): the line broke with no points."""

    def line_unscored(self, board: Board, seat: int, line: int, outcome: int) -> None:
        """FD-7 or FD-8: a flip kept a line aligned, or aligned one (FD-8), and nothing
        changed (KEEPS_OWN, KEEPS_THIRD, ALIGNS_THIRD): the rules say so, no event does."""

    def skipped(self, board: Board, seat: int) -> None:
        """FD-3: `seat` holds no card: its turn is passed over."""

    def phase_ended(self, board: Board, left: tuple[int, ...], paid: tuple[int, ...]) -> None:
        """FD-9: nobody can build or flip: each seat paid a token per card left, as far
        as it had tokens (FD-1)."""

    def tied(self, board: Board, seats: tuple[int, ...]) -> None:
        """FD-10: a tie for the manche (or, `board.overtime`, the game): one more phase."""

    def manche_won(self, board: Board, seat: int, gains: tuple[int, ...]) -> None:
        """FD-10: the manche's best net gain takes MANCHE_BONUS tokens more."""

    def tie_stands(self, board: Board, seats: tuple[int, ...], overtime: bool) -> None:
        """The config's tie_phase_limit is reached: the tie stands."""

    def game_over(self, board: Board) -> None:
        """FD-10: most tokens wins (`board.winners`)."""


UNWATCHED = Watcher()


class Board:
    """A game of Flip Done in progress, mutable: the deal (FD-2), the grid and its lines
    (FD-4), the plays (FD-3), the lines made, broken, held and lost (FD-5..FD-8), the
    phase's end (FD-9) and the manches and the game (FD-10). Play it in place, copy it with
    `fork`; never share one between games.

    With a SEEDED deal it knows every card; with an OBSERVED one (a real table) it waits
    for the deal the readers see, counts the hands (`hand_sizes`) and learns each hand card
    as it is played."""

    __slots__ = (
        "config", "seed", "deal", "manche", "phase", "extra", "overtime", "tied", "stage",
        "turn", "first", "tokens", "manche_wins", "baseline", "lines", "faces", "flipped",
        "under", "pending", "winners", "hand_sizes", "hands", "colours", "deck", "discards",
        "played",
        "free", "flippable", "cards", "flips_done", "board_seen", "board_red", "paid_seen",
        "paid_red", "watch", "observed", "chosen",
    )  # fmt: skip

    config: Config
    seed: int
    deal: int
    """Phases dealt so far; the current phase was shuffled with Random(f"{seed}:{deal}")."""
    manche: int
    phase: int
    """The phase within the manche, 1-based; tie-break phases go on counting (FD-10)."""
    extra: int
    """Extra phases played so far for the current tie (FD-10)."""
    overtime: bool
    """The manches are over and the phases now break a tie for the game (FD-10)."""
    tied: tuple[int, ...]
    stage: Stage
    turn: int
    first: int
    """The seat that started this phase (FD-2)."""
    tokens: list[int]
    manche_wins: list[int]
    baseline: list[int]
    """The tokens from which the manche's net gains are counted (FD-10)."""
    lines: list[int]
    """Each line's full code (board code + CODES * (owner + 1))."""
    faces: list[int]
    """The face-up card of each square (NO_CARD: not an element yet)."""
    flipped: list[bool]
    under: list[int]
    """The face-down card of each square (NO_CARD: not dealt yet, OBSERVED deal)."""
    pending: int
    """FD-2 variant: the face-up card waiting for its square (SEEDED), else NO_CARD."""
    winners: tuple[int, ...]
    hand_sizes: list[int]
    hands: list[list[int]]
    """Each seat's cards, ascending, with a SEEDED deal; empty with an OBSERVED one."""
    colours: list[list[int]]
    """The colour of each card of each hand (what a bot weighs, FD-1)."""
    deck: list[int]
    """The undealt cards, in deck order (empty with an OBSERVED deal: unknown)."""
    discards: list[int]
    """The cards discarded face down this phase (FD-3)."""
    played: list[list[int]]
    """The cards each seat played this phase, in order."""
    free: list[int]
    """The squares with no element yet, ascending (a build's squares)."""
    flippable: list[int]
    """The elements never flipped, ascending (a flip's squares)."""
    cards: int
    """Cards in all hands."""
    flips_done: int
    board_seen: int
    """Cards everyone has seen on the grid this phase: the elements' faces and, under the
    flipped ones, the face they had."""
    board_red: int
    paid_seen: list[int]
    """Cards each seat discarded or paid for a flip this phase (it saw them)."""
    paid_red: list[int]
    watch: Watcher
    observed: bool
    """The deal is OBSERVED (a real table)."""
    chosen: bool
    """FD-2 variant: the phase's first player places the first element."""

    def __init__(self, config: Config, seed: int, watch: Watcher = UNWATCHED) -> None:
        """The first phase of the first manche, dealt from `seed` (FD-2), told to `watch`;
        with an OBSERVED deal, waiting for the table's deal (`seed` is then unused)."""
        n = config.players
        self._configure(config, seed, watch)
        self.deal, self.manche, self.phase, self.extra = 0, 1, 1, 0
        self.overtime, self.tied, self.stage = False, (), PLAY
        self.turn = self.first = config.first
        self.tokens, self.manche_wins, self.baseline = [0] * n, [0] * n, [0] * n
        self.winners = ()
        self.deck = []
        self._start_phase()

    def _configure(self, config: Config, seed: int, watch: Watcher) -> None:
        self.config, self.seed, self.watch = config, seed, watch
        self.observed = config.deal is Deal.OBSERVED
        self.chosen = config.first_element is FirstElement.CHOSEN

    @classmethod
    def of(
        cls,
        config: Config,
        seed: int,
        deal: int,
        manche: int,
        phase: int,
        extra: int,
        overtime: bool,
        tied: tuple[int, ...],
        stage: Stage,
        turn: int,
        first: int,
        tokens: tuple[int, ...],
        manche_wins: tuple[int, ...],
        baseline: tuple[int, ...],
        owners: tuple[int | None, ...],
        faces: tuple[int, ...],
        flipped: tuple[bool, ...],
        under: tuple[int, ...],
        pending: int,
        winners: tuple[int, ...],
        hand_sizes: tuple[int, ...],
        hands: tuple[tuple[int, ...], ...],
        deck: tuple[int, ...],
        discards: tuple[int, ...],
        played: tuple[tuple[int, ...], ...],
    ) -> Board:
        """The board of a position given by its facts (a State's, or a drawn one), unchecked."""
        board = cls.__new__(cls)
        board._configure(config, seed, UNWATCHED)
        board.deal, board.manche, board.phase, board.extra = deal, manche, phase, extra
        board.overtime, board.tied, board.stage = overtime, tied, stage
        board.turn, board.first, board.winners = turn, first, winners
        board.tokens, board.manche_wins = list(tokens), list(manche_wins)
        board.baseline = list(baseline)
        board.faces, board.flipped, board.under = list(faces), list(flipped), list(under)
        board.pending = pending
        board.hand_sizes, board.hands = list(hand_sizes), [list(h) for h in hands]
        board.colours = [[COLOUR[c] for c in h] for h in hands]
        board.deck, board.discards = list(deck), list(discards)
        board.played = [list(p) for p in played]
        states = [COLOUR[f] + 3 * f_ for f, f_ in zip(faces, flipped, strict=True)]
        board.lines = [
            sum(states[sq] * w for sq, w in zip(squares, WEIGHTS, strict=True))
            + CODES * (0 if owner is None else owner + 1)
            for squares, owner in zip(LINE_SQUARES, owners, strict=True)
        ]
        board.free = [sq for sq in range(SQUARES) if faces[sq] == NO_CARD]
        board.flippable = [sq for sq in range(SQUARES) if faces[sq] != NO_CARD and not flipped[sq]]
        board.cards = sum(hand_sizes)
        board.flips_done = sum(flipped)
        shown = [f for f in faces if f != NO_CARD]
        shown += [u for u, f in zip(under, flipped, strict=True) if f]
        board.board_seen = len(shown)
        board.board_red = sum(COLOUR[c] == RED for c in shown)
        paid = [[c for c in cards if c in discards] for cards in played]
        board.paid_seen = [len(cards) for cards in paid]
        board.paid_red = [sum(COLOUR[c] == RED for c in cards) for cards in paid]
        return board

    def fork(self, watch: Watcher = UNWATCHED) -> Board:
        """An independent copy to play on (told to `watch`), this one unchanged."""
        twin = Board.__new__(Board)
        twin.config, twin.seed, twin.watch = self.config, self.seed, watch
        twin.observed, twin.chosen = self.observed, self.chosen
        twin.deal, twin.manche, twin.phase, twin.extra = (
            self.deal, self.manche, self.phase, self.extra
        )  # fmt: skip
        twin.overtime, twin.tied, twin.stage = self.overtime, self.tied, self.stage
        twin.turn, twin.first, twin.winners = self.turn, self.first, self.winners
        twin.tokens, twin.manche_wins = list(self.tokens), list(self.manche_wins)
        twin.baseline, twin.lines = list(self.baseline), list(self.lines)
        twin.faces, twin.flipped = list(self.faces), list(self.flipped)
        twin.under, twin.pending = list(self.under), self.pending
        twin.hand_sizes, twin.hands = list(self.hand_sizes), [list(h) for h in self.hands]
        twin.colours = [list(h) for h in self.colours]
        twin.deck, twin.discards = self.deck, list(self.discards)
        twin.played = [list(p) for p in self.played]
        twin.free, twin.flippable = list(self.free), list(self.flippable)
        twin.cards, twin.flips_done = self.cards, self.flips_done
        twin.board_seen, twin.board_red = self.board_seen, self.board_red
        twin.paid_seen, twin.paid_red = list(self.paid_seen), list(self.paid_red)
        return twin

    # ------------------------------------------------------------------ what is known

    @property
    def over(self) -> bool:
        """FD-10: the game is over."""
        return self.stage is OVER

    def owner(self, line: int) -> int | None:
        """FD-5: the seat owning `line` (its bâtonnet), None for none."""
        owner = self.lines[line] // CODES - 1
        return None if owner < 0 else owner

    def aligned(self, line: int) -> bool:
        """FD-4: the line's 3 squares are elements whose face-up cards have one colour."""
        return ALIGNED[self.lines[line] % CODES]

    def seen(self) -> set[int]:
        """The cards in play this phase: face down, face up (or waiting to be) and
        discarded. FD-2: each phase is dealt from one deck, so none of them can be dealt or
        played again."""
        cards = {*self.under, *self.faces, *self.discards, self.pending}
        cards.discard(NO_CARD)
        return cards

    def undealt(self) -> list[int]:
        """OBSERVED deal: the squares still waiting for their face-down card."""
        return [sq for sq in range(SQUARES) if self.under[sq] == NO_CARD]

    def legal(self) -> tuple[Play, ...]:
        """Every SEEDED play, in the engine's order of legal actions: builds, flips, then
        discards, each card in hand order (by name), then square by square."""
        if self.stage is OVER:
            return ()
        if self.stage is PLACE_FIRST:
            return tuple((PLACE, 0, sq) for sq in range(SQUARES))
        cards = range(len(self.hands[self.turn]))
        return (
            *((BUILD, i, sq) for i in cards for sq in self.free),
            *((FLIP, i, sq) for i in cards for sq in self.flippable),
            *((DISCARD, i, -1) for i in cards),
        )

    def manche_top(self, tokens: list[int]) -> tuple[int, ...]:
        """FD-10: the seats with the best net gain of the manche, with `tokens` (with
        MancheTie EXTRA_ONLY, in an extra phase, among the tied seats only)."""
        extra_only = self.extra and self.config.manche_tie is MancheTie.EXTRA_ONLY
        contenders = self.tied if extra_only else range(len(tokens))
        gains = list(map(sub, tokens, self.baseline))
        best = max(gains[s] for s in contenders)
        return tuple(s for s in contenders if gains[s] == best)

    def settles_manche(self) -> bool:
        """The phase being played is the last of its manche unless a tie prolongs it."""
        return not self.overtime and (self.extra > 0 or self.phase >= self.config.phases)

    # ------------------------------------------------------------- the deal, FD-2

    def deal_down(self, square: int, card: int) -> None:
        """OBSERVED: the readers saw `card` land face down on `square`; with the FD-2
        variant, the first player then places the face-up card."""
        self._expect_deal()
        if self.under[square] != NO_CARD:
            raise IllegalAction("FD-2", f"square {square + 1} already has its face-down card")
        self._expect_unseen(card)
        self.under[square] = card
        self.watch.dealt_down(self, square)
        if self.chosen and NO_CARD not in self.under:
            self.stage = PLACE_FIRST

    def deal_up(self, card: int) -> None:
        """OBSERVED: the readers saw `card` land face up on the centre's face-down card, the
        phase's first element; play begins."""
        self._expect_deal()
        if self.chosen:
            raise IllegalAction(
                "FD-2", "the first player chooses where the face-up card goes: PlaceFirst names it"
            )
        if NO_CARD in self.under:  # it lies on the centre's face-down card, dealt first
            raise IllegalAction("FD-2", f"deal the 9 face-down cards first: {self.waiting_for()}")
        self._expect_unseen(card)
        self.watch.phase_started(self, card)
        self._show(CENTRE - 1, card)
        self.stage = PLAY
        self.watch.first_placed(self, None, CENTRE - 1, card)

    def place_first(self, seat: int, square: int, card: int) -> None:
        """FD-2 variant: the phase's first player puts the face-up card on `square`; with
        an OBSERVED deal `card` names it (NO_CARD when the engine dealt it)."""
        if self.stage is DEAL:
            raise IllegalAction(
                "FD-2", f"the deal of this phase is not complete: {self.waiting_for()}"
            )
        if self.stage is not PLACE_FIRST:
            raise IllegalAction("FD-2", "the first element of this phase is already placed")
        self._expect_turn(seat)
        if self.observed:
            if card == NO_CARD:
                raise IllegalAction("FD-2", "name the face-up card the readers saw placed")
            self._expect_unseen(card)
            self.watch.phase_started(self, card)
        elif card != NO_CARD:
            raise IllegalAction("FD-2", "the engine dealt this phase: PlaceFirst names no card")
        else:
            card = self.pending
        self._place(square, card)

    def _place(self, square: int, card: int) -> None:
        self._show(square, card)
        self.pending = NO_CARD
        self.stage = PLAY
        self.watch.first_placed(self, self.turn, square, card)

    def waiting_for(self) -> str:
        """What an OBSERVED deal still lacks (stage DEAL)."""
        empty = self.undealt()
        if empty:
            return f"no face-down card on square {', '.join(str(sq + 1) for sq in empty)} yet"
        return "the face-up centre card is not dealt yet"

    def _expect_deal(self) -> None:
        if not self.observed:
            raise IllegalAction("FD-2", "the engine deals this game (deal: seeded): no deal to see")
        if self.stage is not DEAL:
            raise IllegalAction("FD-2", "the deal of this phase is complete")

    def _expect_unseen(self, card: int) -> None:
        """FD-2, OBSERVED deal: a card is in play once a phase (one deck, dealt whole)."""
        if card in self.seen():
            raise IllegalAction("FD-2", f"the {NAMES[card]} is already in play this phase")

    def _expect_turn(self, seat: int) -> None:
        if seat != self.turn:
            raise IllegalAction("FD-3", f"it is seat {self.turn}'s turn, not seat {seat}'s")

    # ------------------------------------------------------------- the plays, FD-3

    def build(self, seat: int, card: int, square: int) -> None:
        """FD-3: `seat` puts `card` face up on the face-down card of `square`, which
        becomes an element (no stacking)."""
        self._expect_play(seat, card)
        if self.faces[square] != NO_CARD:
            raise IllegalAction("FD-3", f"square {square + 1} is already an element: no stacking")
        self._build(self._take(seat, card), square)

    def flip(self, seat: int, card: int, square: int) -> None:
        """FD-3: `seat` discards `card` face down, then turns over the element on `square`
        (each element once)."""
        self._expect_play(seat, card)
        if self.faces[square] == NO_CARD:
            raise IllegalAction("FD-3", f"square {square + 1} is not an element: nothing to flip")
        if self.flipped[square]:
            raise IllegalAction(
                "FD-3", f"the element on square {square + 1} was already flipped once"
            )
        self._flip(self._take(seat, card), square)

    def discard(self, seat: int, card: int) -> None:
        """FD-3: `seat` drops `card`, nothing else."""
        self._expect_play(seat, card)
        self._discard(self._take(seat, card))

    def play(self, move: Play) -> None:
        """A SEEDED seat's decision, unchecked (one of `legal()`): the lab's and the bots'."""
        kind, index, square = move
        if kind == PLACE:
            self._place(square, self.pending)
            return
        seat = self.turn
        card = self.hands[seat].pop(index)
        del self.colours[seat][index]
        self.hand_sizes[seat] -= 1
        self.cards -= 1
        self.played[seat].append(card)
        if kind == BUILD:
            self._build(card, square)
        elif kind == FLIP:
            self._flip(card, square)
        else:
            self._discard(card)

    def _expect_play(self, seat: int, card: int) -> None:
        if self.stage is DEAL:
            raise IllegalAction(
                "FD-2", f"the deal of this phase is not complete: {self.waiting_for()}"
            )
        if self.stage is PLACE_FIRST:
            raise IllegalAction("FD-2", f"seat {self.turn} must first place the first element")
        if self.observed:
            if self.hand_sizes[seat] == 0:
                raise IllegalAction("FD-3", f"seat {seat} holds no card")
            self._expect_turn(seat)
            self._expect_unseen(card)
            return
        self._expect_turn(seat)
        if card not in self.hands[seat]:
            raise IllegalAction("FD-3", f"seat {seat} holds no {NAMES[card]}")

    def _take(self, seat: int, card: int) -> int:
        """`seat` plays `card`: from its known hand (SEEDED) or, OBSERVED, from a hand the
        board only counts."""
        if not self.observed:
            index = self.hands[seat].index(card)
            del self.hands[seat][index], self.colours[seat][index]
        self.hand_sizes[seat] -= 1
        self.cards -= 1
        self.played[seat].append(card)
        return card

    def _show(self, square: int, card: int) -> None:
        """A new element on `square` (the first one, or a build)."""
        colour = COLOUR[card]
        self.faces[square] = card
        self.free.remove(square)
        insort(self.flippable, square)
        self.board_seen += 1
        self.board_red += colour == RED
        lines = self.lines
        for line, _, weight in THROUGH[square]:
            lines[line] += colour * weight

    def _build(self, card: int, square: int) -> None:
        """FD-3, then FD-5: the new element makes every unowned line it aligns (none was
        aligned before: the square was empty)."""
        seat = self.turn
        self._show(square, card)
        self.watch.built(self, seat, square, card)
        lines = self.lines
        for line, _, _ in THROUGH[square]:
            full = lines[line]
            if full < CODES and ALIGNED[full]:
                self._make(seat, line)
        self._next_turn()

    def _flip(self, card: int, square: int) -> None:
        """FD-3: the paid card goes to the discards, the element turns over; then each line
        through the square scores as `flip_outcome` says (FD-5..FD-8)."""
        seat = self.turn
        self.discards.append(card)
        self.paid_seen[seat] += 1
        self.paid_red[seat] += COLOUR[card] == RED
        old, new = self.faces[square], self.under[square]
        self.faces[square], self.under[square] = new, old
        self.flipped[square] = True
        self.flippable.remove(square)
        self.flips_done += 1
        colour, was = COLOUR[new], COLOUR[old]
        self.board_seen += 1
        self.board_red += colour == RED
        self.watch.flipped(self, seat, square, new, old)
        step = colour + 3 - was
        outcomes = OUTCOMES[seat]
        lines = self.lines
        for line, place, weight in THROUGH[square]:
            full = lines[line]
            outcome = outcomes[(full * 3 + place) * 2 + colour - 1]
            lines[line] = full + step * weight
            if outcome == NOTHING:
                continue
            if outcome == MAKES:
                self._make(seat, line)
            elif outcome == BREAKS_LINE:  # FD-6: the value, from the owner as far as it can
                owner = full // CODES - 1
                taken = min(VALUE[line], self.tokens[owner])  # FD-1: the bank, the rest
                self.tokens[owner] -= taken
                self.tokens[seat] += VALUE[line]
                lines[line] -= CODES * (owner + 1)
                self.watch.line_broken(self, seat, owner, line, taken)
            elif outcome == HOLDS:  # FD-6: the owner's bonus, from the bank
                owner = full // CODES - 1
                self.tokens[owner] += HOLD_BONUS[line]
                self.watch.line_held(self, seat, owner, line)
            elif outcome in (LOSES_OWN, LOSES_THIRD):  # FD-7, FD-8
                owner = full // CODES - 1
                lines[line] -= CODES * (owner + 1)
                self.watch.line_lost(self, seat, owner, line, outcome)
            else:
                self.watch.line_unscored(self, seat, line, outcome)
        self._next_turn()

    def _discard(self, card: int) -> None:
        seat = self.turn
        self.discards.append(card)
        self.paid_seen[seat] += 1
        self.paid_red[seat] += COLOUR[card] == RED
        self.watch.discarded(self, seat)
        self._next_turn()

    def _make(self, seat: int, line: int) -> None:
        """FD-5: the seat takes the line's value and owns it."""
        self.tokens[seat] += VALUE[line]
        self.lines[line] += CODES * (seat + 1)
        self.watch.line_made(self, seat, line)

    def phase_over(self) -> bool:
        """FD-9: no build and no flip is possible for anyone: no card left in any hand, or
        every element flipped."""
        return not self.cards or self.flips_done == SQUARES

    def _next_turn(self) -> None:
        """A play is done: the turn passes to the next seat holding a card (FD-3), or,
        when nobody can build or flip, the phase ends (FD-9)."""
        if not self.cards or self.flips_done == SQUARES:  # phase_over(), at every play
            self._end_phase()
            return
        sizes = self.hand_sizes
        n = len(sizes)
        seat = (self.turn + 1) % n
        while not sizes[seat]:
            self.watch.skipped(self, seat)
            seat = (seat + 1) % n
        self.turn = seat

    # ------------------------------------------------------- phases and manches

    def _start_phase(self) -> None:
        """FD-2: the whole deck shuffled; 9 cards face down, 1 face up, 4 to each seat from
        the phase's first player on, who moves one seat clockwise each phase. With an
        OBSERVED deal: 4 cards each, counted, and the stage DEAL waits for the rest."""
        config = self.config
        n = config.players
        self.deal += 1
        self.first = self.turn = (config.first + self.deal - 1) % n
        self.hand_sizes = [HAND_SIZE] * n
        self.cards = HAND_SIZE * n
        self.played = [[] for _ in range(n)]
        self.discards = []
        self.faces = [NO_CARD] * SQUARES
        self.flipped = [False] * SQUARES
        self.lines = [0] * len(LINES)
        self.free = list(range(SQUARES))
        self.flippable = []
        self.flips_done = self.board_seen = self.board_red = 0
        self.paid_seen = [0] * n
        self.paid_red = [0] * n
        self.pending = NO_CARD
        if self.observed:  # DealDown x 9, then DealUp or PlaceFirst
            self.under = [NO_CARD] * SQUARES
            self.hands = [[] for _ in range(n)]
            self.colours = [[] for _ in range(n)]
            self.stage = DEAL
            return
        cards = shuffled(f"{self.seed}:{self.deal}")
        self.under = cards[:SQUARES]
        self.hands = [[] for _ in range(n)]
        self.colours = [[] for _ in range(n)]
        for i in range(n):
            dealt = sorted(cards[SQUARES + 1 + HAND_SIZE * i : SQUARES + 1 + HAND_SIZE * (i + 1)])
            self.hands[(self.first + i) % n] = dealt
            self.colours[(self.first + i) % n] = [COLOUR[c] for c in dealt]
        self.deck = cards[SQUARES + 1 + HAND_SIZE * n :]
        face = cards[SQUARES]
        self.watch.phase_started(self, face)
        if self.chosen:
            self.pending = face
            self.stage = PLACE_FIRST
        else:
            self._show(CENTRE - 1, face)
            self.stage = PLAY
            self.watch.first_placed(self, None, CENTRE - 1, face)

    def _end_phase(self) -> None:
        """FD-9: one token per card still in hand, never below zero (FD-1); then the next
        phase, or the manche's or the game's settling (FD-10)."""
        left = tuple(self.hand_sizes)
        tokens = self.tokens
        paid = tuple(map(min, left, tokens))
        if self.cards:
            self.tokens = list(map(sub, tokens, paid))
        self.watch.phase_ended(self, left, paid)
        if self.overtime:
            self._settle_game()
        elif self.extra == 0 and self.phase < self.config.phases:
            self.phase += 1
            self._start_phase()
        else:
            self._settle_manche()

    def _limit_reached(self) -> bool:
        limit = self.config.tie_phase_limit
        return limit is not None and self.extra >= limit

    def _settle_manche(self) -> None:
        """FD-10: the best net gain of the manche takes MANCHE_BONUS more; a tie plays one
        more phase (`manche_top`, MancheTie)."""
        top = self.manche_top(self.tokens)
        if len(top) > 1 and not self._limit_reached():
            if self.extra == 0 and self.config.manche_tie is MancheTie.EXTRA_ONLY:
                self.baseline = list(self.tokens)
            self._break_tie(top)
            return
        if len(top) == 1:
            (winner,) = top
            gains = tuple(map(sub, self.tokens, self.baseline))
            self.tokens[winner] += MANCHE_BONUS
            self.manche_wins[winner] += 1
            self.watch.manche_won(self, winner, gains)
        else:
            self.watch.tie_stands(self, top, False)
        self.extra = 0
        self.tied = ()
        if self.manche < self.config.manches:
            self.manche += 1
            self.phase = 1
            self.baseline = list(self.tokens)
            self._start_phase()
        else:
            self._settle_game()

    def _break_tie(self, top: tuple[int, ...]) -> None:
        """FD-10: a tie (for the manche, or the game once `overtime`) plays one more phase."""
        self.extra += 1
        self.tied = top
        self.phase += 1
        self.watch.tied(self, top)
        self._start_phase()

    def _settle_game(self) -> None:
        """FD-10: most tokens wins; a tie plays one more phase, until it is gone (or the
        config's tie_phase_limit lets it stand)."""
        best = max(self.tokens)
        top = tuple(s for s, t in enumerate(self.tokens) if t == best)
        if len(top) > 1 and not self._limit_reached():
            self.overtime = True
            self._break_tie(top)
            return
        if len(top) > 1:
            self.watch.tie_stands(self, top, True)
        self.stage = OVER
        self.winners = top
        self.tied = ()
        self.watch.game_over(self)


__all__ = [
    "ALIGNED", "BLACK", "BREAKS_LINE", "BUILD", "CARD", "CODES", "COLOUR", "COMPLETIONS",
    "DISCARD", "EMPTY", "FLIP", "HOLDS", "HOLD_BONUS", "LINE_SQUARES", "LOSES_OWN",
    "LOSES_THIRD", "MAKES", "NAMES", "NO_CARD", "OUTCOMES", "PLACE", "RED", "THROUGH",
    "UNWATCHED", "VALUE", "WEIGHTS", "Board", "Play", "Watcher", "flip_outcome", "shuffled",
]  # fmt: skip
