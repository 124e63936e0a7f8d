"""Today's Flip Done bots (`companion.games.flipdone.bots`) on the fast engine: the same choices
from the same random draws.

The heuristic bot weighs each distinct play by its token balance (its gain minus the mean
of the others'), a flip over the colours of the cards it has not seen, prefers builds to
flips to discards on equal value, and lets its random draw choose among the best plays in
the engine's order of legal actions (cards by name, then squares). Here one pass over the
8 lines, each looked up in `LINE_EFFECTS`, gives every build's value and every flip's
balance per colour; the floating-point sums are the very numbers the readable bot
computes (every balance is a small multiple of one half, so they add exactly). The last
play of a phase can also end the manche (its bonus, FD-10) and bring FD-9's penalty: for
those few plays the balance is worked out in full (`exact_balance`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.games.flipdone.fast.core import (
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
    OUTCOMES,
    PLACE,
    RED,
    THROUGH,
    VALUE,
    WEIGHTS,
    FastGame,
    Play,
)
from companion.games.flipdone.rules.config import DECK, LINES, MANCHE_BONUS, PLAYERS, SQUARES

SQUARE_RANGE = range(SQUARES)
CARDS = len(DECK)
REDS = CARDS // 2

Build = tuple[int, int, int]
"""(square, colour, value): building that colour there makes the line (FD-5)."""
FlipBalance = tuple[int, float, float]
"""(square, balance if red, balance if black) of flipping that square, from one line."""
Effect = tuple[Build | None, tuple[FlipBalance, ...]] | None


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
    game: FastGame, kind: int, square: int, colour: int, memo: dict[tuple[int, ...], float]
) -> float:
    """The balance of the current seat's play as the readable bot finds it by applying it:
    its line scores, then, if it ends the phase, FD-9's penalties and FD-10's manche bonus.
    `colour` is the built card's, or for a flip the colour turned up. `memo` keeps the
    balance of each outcome of the lines, for one decision."""
    seat = game.turn
    tokens = list(game.tokens)
    lines = game.lines
    ends = game.cards == 1
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
        ends = ends or game.flips_done + 1 == SQUARES
    key = (*tokens, ends)
    balance = memo.get(key)
    if balance is None:
        if ends:
            left = [len(hand) for hand in game.hands]
            left[seat] -= 1
            tokens = [t - min(k, t) for t, k in zip(tokens, left, strict=True)]  # FD-9, FD-1
            if game.settles_manche():
                top = game.manche_top(tokens)
                if len(top) == 1:
                    tokens[top[0]] += MANCHE_BONUS
        gains = [a - b for a, b in zip(tokens, game.tokens, strict=True)]
        others = [g for s, g in enumerate(gains) if s != seat]
        balance = memo[key] = gains[seat] - sum(others) / len(others)
    return balance


def _line_values(
    game: FastGame, seat: int
) -> tuple[dict[tuple[int, int], float], dict[int, tuple[float, float]]]:
    """One pass over the lines: (colour, square) -> what a build gains, for the builds
    that make a line; square -> a flip's balance if red, if black, for the flips that
    change some line's tokens. Plays not named change no tokens through a line."""
    builds: dict[tuple[int, int], float] = {}
    flips: dict[int, tuple[float, float]] = {}
    lines = game.lines
    for line, effects in enumerate(LINE_EFFECTS[seat]):
        effect = effects[lines[line]]
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


def heuristic_play(game: FastGame, rng: random.Random) -> Play:
    """The play `companion.games.flipdone.bots.heuristic_action` chooses, with the same draw."""
    if game.placing:  # PlaceFirst: every square is worth 0 before anything is built
        return (PLACE, 0, rng.choice(SQUARE_RANGE))
    seat = game.turn
    hand = game.hands[seat]
    free = game.free
    flippable = game.flippable
    builds, flips = _line_values(game, seat)
    exact = game.cards == 1 or (not free and len(flippable) == 1)
    if not (builds or flips or exact):  # every play is worth 0: the best rank, all of it
        if free:
            k = rng.choice(range(len(hand) * len(free)))
            return (BUILD, k // len(free), free[k % len(free)])
        if flippable:
            k = rng.choice(range(len(hand) * len(flippable)))
            return (FLIP, k // len(flippable), flippable[k % len(flippable)])
        return (DISCARD, rng.choice(range(len(hand))), -1)
    best = 0.0  # a discard's value
    colours = [c for c in (RED, BLACK) if c in hand]
    if exact:  # the play may end the phase, the manche or the game: value every play
        memo: dict[tuple[int, ...], float] = {}
        best = exact_balance(game, DISCARD, -1, EMPTY, memo)
        flips = {
            sq: (
                (
                    exact_balance(game, FLIP, sq, RED, memo),
                    exact_balance(game, FLIP, sq, BLACK, memo),
                )
                if sq in flips or game.cards > 1
                else (best, best)  # no line changes: it ends the phase as a discard does
            )
            for sq in flippable
        }
        builds = {
            (c, sq): exact_balance(game, BUILD, sq, c, memo) if (c, sq) in builds else best
            for c in colours
            for sq in free
        }  # a build that makes no line ends the phase as a discard does
    rank = 0  # discard, then flip 1, build 2: the better rank wins a tie
    values: list[float] = []
    if flippable:
        reds = REDS - game.board_red - hand.count(RED) - game.paid_red[seat]
        blacks = CARDS - game.board_seen - len(hand) - game.paid_seen[seat] - reds
        for sq in flippable:
            if sq not in flips or not reds + blacks:
                values.append(0.0)
                continue
            red, black = flips[sq]
            # The expectation over the unseen colours, summed in the readable bot's order.
            total = 0.0
            if reds:
                total += reds * red
            if blacks:
                total += blacks * black
            values.append(total / (reds + blacks))
        top = max(values)
        if top >= best:
            best, rank = top, 1
    if free:
        # Exact: every build is in `builds`. Otherwise those there gain, the rest are 0.
        top = max((v for (c, _), v in builds.items() if c in colours), default=0.0)
        if top >= best:
            best, rank = top, 2
    if rank == 2:  # the best builds, card by card in hand order, then square by square
        if not builds:  # every build is worth 0
            k = rng.choice(range(len(hand) * len(free)))
            return (BUILD, k // len(free), free[k % len(free)])
        tops = {c: [sq for sq in free if builds.get((c, sq), 0) == best] for c in colours}
        k = rng.choice(range(sum(len(tops[c]) for c in hand)))
        for index, c in enumerate(hand):
            if k < len(tops[c]):
                return (BUILD, index, tops[c][k])
            k -= len(tops[c])
    if rank == 1:
        tops_flips = [sq for sq, value in zip(flippable, values, strict=True) if value == best]
        k = rng.choice(range(len(hand) * len(tops_flips)))
        return (FLIP, k // len(tops_flips), tops_flips[k % len(tops_flips)])
    return (DISCARD, rng.choice(range(len(hand))), -1)


def random_play(game: FastGame, rng: random.Random) -> Play:
    """The play `companion.games.flipdone.bots.random_action` chooses: one draw over the legal
    actions in the engine's order (builds, flips, discards; cards by name, then squares)."""
    if game.placing:
        return (PLACE, 0, rng.choice(SQUARE_RANGE))
    hand = game.hands[game.turn]
    free = game.free
    flippable = game.flippable
    builds = len(hand) * len(free)
    flips = len(hand) * len(flippable)
    k = rng.choice(range(builds + flips + len(hand)))
    if k < builds:
        return (BUILD, k // len(free), free[k % len(free)])
    k -= builds
    if k < flips:
        return (FLIP, k // len(flippable), flippable[k % len(flippable)])
    return (DISCARD, k - flips, -1)


KINDS: dict[str, Callable[[FastGame, random.Random], Play]] = {
    "heuristic": heuristic_play,
    "random": random_play,
}
"""The fast bot of each kind `companion.games.flipdone.bots.make_bot` knows."""
