"""The Flip Done bots, written once on the engine's board (rules/board.py): uniformly
random, and the heuristic. The lab and the thinking bot's playouts call them on the board
they play; the table's bot seats (the simulated table, tests, the screens' samples) call
them on a State through `at_the_table`.

- `random`: a uniformly random legal action.
- `heuristic`: the play with the best expected token balance for itself against the
  others (its gain minus the mean of the others'), from public facts and its own hand
  only: a build's outcome is known; a flip's depends on the face-down card, so it is
  weighed over the colours of the cards it has not seen (FD-1: only the colour matters).
  Builds come before flips and flips before discards when they are worth the same; its
  random draw chooses among the best plays in the engine's order of legal actions (cards
  by name, then squares).

The heuristic weighs every play in one pass over the 8 lines, each looked up in
`LINE_EFFECTS` (what the line offers a build or a flip, from `OUTCOMES`, FD-5..FD-8). The
last play of a phase can also end the manche (its bonus, FD-10) and bring FD-9's penalty:
for those few plays the balance is worked out in full (`exact_balance`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import inf
from operator import getitem, sub

from companion.games.flipdone.rules.actions import Action, Build, Discard, Flip, PlaceFirst
from companion.games.flipdone.rules.board import (
    ALIGNED,
    BLACK,
    BREAKS_LINE,
    BUILD,
    CODES,
    COMPLETIONS,
    DISCARD,
    EMPTY,
    FLIP,
    HOLD_BONUS,
    HOLDS,
    LINE_SQUARES,
    MAKES,
    NAMES,
    OUTCOMES,
    PLACE,
    PLACE_FIRST,
    RED,
    THROUGH,
    VALUE,
    WEIGHTS,
    Board,
    Play,
)
from companion.games.flipdone.rules.config import (
    DECK,
    LINES,
    MANCHE_BONUS,
    PLAYERS,
    SQUARES,
    Stage,
)
from companion.games.flipdone.rules.engine import legal_actions
from companion.games.flipdone.rules.state import State

BoardBot = Callable[[Board, random.Random], Play]
"""(the board, the seat's rng) -> the play of the seat to play (`board.turn`)."""
Bot = Callable[[State], Action]
"""A bot at a table seat: the seat to act is `state.turn`; it reads only public facts and
that seat's hand."""

CARDS = len(DECK)
REDS = CARDS // 2
HELD: tuple[tuple[int, ...], ...] = ((), (RED,), (BLACK,), (RED, BLACK))
"""HELD[(RED in hand) + 2 * (BLACK in hand)]: the colours a hand holds, red first."""


def _draw_inline(rng: random.Random, n: int) -> int:
    """`rng.choice(range(n))` with its draw inlined (CPython's `_randbelow` over
    getrandbits, as random.py writes it): a lab game makes about 110 of them, and the
    library's calls cost 3 % of its instructions."""
    if n <= 0:
        raise IndexError("no play to draw from")  # as the library's: never a loop for ever
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _draw_library(rng: random.Random, n: int) -> int:
    return rng.choice(range(n))


def _same_draws(n: int) -> bool:
    inline, library = random.Random(f"check:{n}"), random.Random(f"check:{n}")
    return all(_draw_inline(inline, k) == _draw_library(library, k) for k in range(1, 40))


draw = _draw_inline if all(_same_draws(n) for n in range(8)) else _draw_library
"""A bot's draw among n plays (n > 0): the inlined one where it is this Python's own
(checked once here, as the deal's shuffle is), else the library's."""


Completion = tuple[int, int, int]
"""(square, colour, value): building that colour there makes the line (FD-5)."""
FlipBalance = tuple[int, float, float]
"""(square, balance if red, balance if black) of flipping that square, from one line."""
Effect = tuple[Completion | None, tuple[FlipBalance, ...]] | None


def _balance_of(outcome: int, line: int) -> float:
    """A flip's balance from one line: the flipper's gain minus half the others'. A broken
    line's owner pays its whole value (an owner always holds at least its lines' values:
    it took each on making it, and only losing that line costs it back)."""
    if outcome == MAKES:
        return float(VALUE[line])
    if outcome == BREAKS_LINE:  # the flipper takes the value, the owner loses it
        return VALUE[line] + VALUE[line] / 2
    if outcome == HOLDS:  # the owner's bonus
        return -HOLD_BONUS[line] / 2
    return 0.0


def _effect(seat: int, line: int, full: int) -> Effect:
    """What a line in state `full` offers `seat`: a build that makes it, and the balance of
    flipping each of its elements never flipped; None when it offers nothing."""
    flips = []
    for place, weight in enumerate(WEIGHTS):
        state = full % CODES // weight % 6
        if state % 3 != EMPTY and state < 3:  # an element, never flipped
            index = (full * 3 + place) * 2
            red = _balance_of(OUTCOMES[seat][index + RED - 1], line)
            black = _balance_of(OUTCOMES[seat][index + BLACK - 1], line)
            if red or black:
                flips.append((LINE_SQUARES[line][place], red, black))
    build = COMPLETIONS[line][full]
    return None if build is None and not flips else (build, tuple(flips))


LINE_EFFECTS: tuple[tuple[tuple[Effect, ...], ...], ...] = tuple(
    tuple(
        tuple(_effect(seat, line, full) for full in range(CODES * (PLAYERS + 1)))
        for line in range(len(LINES))
    )
    for seat in range(PLAYERS)
)
"""LINE_EFFECTS[seat][line][full code]: `_effect`, by table."""


def exact_balance(
    board: Board, kind: int, square: int, colour: int, memo: dict[tuple[int, ...], float]
) -> float:
    """The balance of the current seat's play as playing it would leave the tokens: its
    line scores, then, if it ends the phase, FD-9's penalties and FD-10's manche bonus.
    `colour` is the built card's, or for a flip the colour turned up. `memo` keeps the
    balance of each outcome of the lines, for one decision."""
    seat = board.turn
    tokens = list(board.tokens)
    lines = board.lines
    ends = board.cards == 1
    if kind == BUILD:
        for line, _, weight in THROUGH[square]:
            full = lines[line] + colour * weight
            if full < CODES and ALIGNED[full]:  # FD-5
                tokens[seat] += VALUE[line]
    elif kind == FLIP:
        outcomes = OUTCOMES[seat]
        for line, place, _ in THROUGH[square]:
            full = lines[line]
            outcome = outcomes[(full * 3 + place) * 2 + colour - 1]
            owner = full // CODES - 1
            if outcome == MAKES:
                tokens[seat] += VALUE[line]
            elif outcome == BREAKS_LINE:
                taken = min(VALUE[line], tokens[owner])
                tokens[owner] -= taken
                tokens[seat] += VALUE[line]
            elif outcome == HOLDS:
                tokens[owner] += HOLD_BONUS[line]
        ends = ends or board.flips_done + 1 == SQUARES
    key = (*tokens, ends)
    balance = memo.get(key)
    if balance is None:
        if ends:
            left = list(board.hand_sizes)
            left[seat] -= 1
            tokens = list(map(sub, tokens, map(min, left, tokens)))  # FD-9, FD-1
            if board.settles_manche():
                top = board.manche_top(tokens)
                if len(top) == 1:
                    tokens[top[0]] += MANCHE_BONUS
        gains = list(map(sub, tokens, board.tokens))
        others = [g for s, g in enumerate(gains) if s != seat]
        balance = memo[key] = gains[seat] - sum(others) / len(others)
    return balance


def _line_values(
    board: Board, seat: int
) -> tuple[dict[tuple[int, int], float], dict[int, tuple[float, float]]]:
    """One pass over the lines: (colour, square) -> what a build gains, for the builds
    that make a line; square -> a flip's balance if red, if black, for the flips that
    change some line's tokens. Plays not named change no tokens through a line."""
    builds: dict[tuple[int, int], float] = {}
    flips: dict[int, tuple[float, float]] = {}
    for effect in map(getitem, LINE_EFFECTS[seat], board.lines):  # each line's effect
        if effect is not None:
            build, balances = effect
            if build is not None:
                sq, colour, value = build
                builds[colour, sq] = builds.get((colour, sq), 0) + value
            for sq, red, black in balances:
                if sq in flips:
                    was = flips[sq]
                    flips[sq] = (was[0] + red, was[1] + black)
                else:
                    flips[sq] = (red, black)
    return builds, flips


def heuristic_play(board: Board, rng: random.Random) -> Play:
    """The play `companion.games.flipdone.bots.heuristic_action` chooses, with the same draw."""
    if board.stage is PLACE_FIRST:  # PlaceFirst: every square is worth 0 before anything is built
        return (PLACE, 0, draw(rng, SQUARES))
    seat = board.turn
    hand = board.colours[seat]
    free = board.free
    flippable = board.flippable
    builds, flips = _line_values(board, seat)
    exact = board.cards == 1 or (not free and len(flippable) == 1)
    if not (builds or flips or exact):  # every play is worth 0: the best rank, all of it
        if free:
            k = draw(rng, len(hand) * len(free))
            return (BUILD, k // len(free), free[k % len(free)])
        if flippable:
            k = draw(rng, len(hand) * len(flippable))
            return (FLIP, k // len(flippable), flippable[k % len(flippable)])
        return (DISCARD, draw(rng, len(hand)), -1)
    best = 0.0  # a discard's value
    colours = HELD[(RED in hand) + 2 * (BLACK in hand)]
    if exact:  # the play may end the phase, the manche or the game: value every play
        memo: dict[tuple[int, ...], float] = {}
        best = exact_balance(board, DISCARD, -1, EMPTY, memo)
        flips = {
            sq: (
                (
                    exact_balance(board, FLIP, sq, RED, memo),
                    exact_balance(board, FLIP, sq, BLACK, memo),
                )
                if sq in flips or board.cards > 1
                else (best, best)  # no line changes: it ends the phase as a discard does
            )
            for sq in flippable
        }
        builds = {
            (c, sq): exact_balance(board, BUILD, sq, c, memo) if (c, sq) in builds else best
            for c in colours
            for sq in free
        }  # a build that makes no line ends the phase as a discard does
    rank = 0  # discard, then flip 1, build 2: the better rank wins a tie
    if flippable:
        reds = REDS - board.board_red - hand.count(RED) - board.paid_red[seat]
        blacks = CARDS - board.board_seen - len(hand) - board.paid_seen[seat] - reds
        top = -inf
        tops_flips: list[int] = []  # the squares of the best flips so far
        for sq in flippable:
            if sq not in flips or not reds + blacks:
                value = 0.0
            else:
                red, black = flips[sq]
                # The expectation over the unseen colours, red first.
                value = 0.0
                if reds:
                    value += reds * red
                if blacks:
                    value += blacks * black
                value /= reds + blacks
            if value > top:
                top = value
                tops_flips = [sq]
            elif value == top:
                tops_flips.append(sq)
        if top >= best:
            best, rank = top, 1
    if free:
        # Exact: every build is in `builds`. Otherwise those there gain, the rest are 0.
        found: float | None = None
        for (c, _), v in builds.items():
            if c in colours and (found is None or v > found):
                found = v
        top = 0.0 if found is None else found
        if top >= best:
            best, rank = top, 2
    if rank == 2:  # the best builds, card by card in hand order, then square by square
        if not builds:  # every build is worth 0
            k = draw(rng, len(hand) * len(free))
            return (BUILD, k // len(free), free[k % len(free)])
        tops = {c: [sq for sq in free if builds.get((c, sq), 0) == best] for c in colours}
        k = draw(rng, sum(len(tops[c]) for c in hand))
        for index, c in enumerate(hand):
            if k < len(tops[c]):
                return (BUILD, index, tops[c][k])
            k -= len(tops[c])
    if rank == 1:
        k = draw(rng, len(hand) * len(tops_flips))
        return (FLIP, k // len(tops_flips), tops_flips[k % len(tops_flips)])
    return (DISCARD, draw(rng, len(hand)), -1)


def random_play(board: Board, rng: random.Random) -> Play:
    """The play `companion.games.flipdone.bots.random_action` chooses: one draw over the legal
    actions in the engine's order (builds, flips, discards; cards by name, then squares)."""
    if board.stage is PLACE_FIRST:
        return (PLACE, 0, draw(rng, SQUARES))
    hand = board.colours[board.turn]
    free = board.free
    flippable = board.flippable
    builds = len(hand) * len(free)
    flips = len(hand) * len(flippable)
    k = draw(rng, builds + flips + len(hand))
    if k < builds:
        return (BUILD, k // len(free), free[k % len(free)])
    k -= builds
    if k < flips:
        return (FLIP, k // len(flippable), flippable[k % len(flippable)])
    return (DISCARD, k - flips, -1)


BOTS: dict[str, BoardBot] = {"heuristic": heuristic_play, "random": random_play}
"""The bot kinds, by the names `companion lab`, the simulated table and tests use."""
BOT_KINDS = tuple(BOTS)


def action_of(board: Board, move: Play) -> Action:
    """The engine's action of a SEEDED board's play."""
    kind, index, square = move
    seat = board.turn
    if kind == PLACE:
        return PlaceFirst(seat, square + 1)
    card = NAMES[board.hands[seat][index]]
    if kind == BUILD:
        return Build(seat, card, square + 1)
    if kind == FLIP:
        return Flip(seat, card, square + 1)
    return Discard(seat, card)


def at_the_table(bot: BoardBot) -> Callable[[State, random.Random], Action]:
    """The bot choosing the action of the seat to play in a SEEDED State (ValueError once
    the game is over)."""

    def choose(state: State, rng: random.Random) -> Action:
        if state.stage is Stage.OVER:
            raise ValueError("the game is over: no action is legal")
        board = state.fork()
        return action_of(board, bot(board, rng))

    return choose


heuristic_action = at_the_table(heuristic_play)


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`, in either deal (the draw `random_play` makes on a
    SEEDED board); ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)


def make_bot(kind: str, rng: random.Random) -> Bot:
    """The bot of a kind at a table seat, drawing from `rng`; ValueError naming the kinds
    for an unknown one."""
    if kind == "random":
        return lambda state: random_action(state, rng)
    if kind == "heuristic":
        return lambda state: heuristic_action(state, rng)
    raise ValueError(f"unknown Flip Done bot {kind!r}; bots are {', '.join(BOT_KINDS)}")
