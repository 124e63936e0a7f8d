"""Flip Done's bots (companion/games/flipdone/bots.py) against what they promise, worked
out by playing each play on a fork of the engine's board rather than by the bots' tables:
the heuristic chooses a play of the best expected token balance, from what its seat may
know, builds before flips before discards; the random bot draws among the legal plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.flipdone.bots import (
    _draw_inline,
    draw,
    exact_balance,
    heuristic_play,
    random_play,
)
from companion.games.flipdone.rules.board import (
    BLACK,
    BUILD,
    COLOUR,
    DISCARD,
    EMPTY,
    FLIP,
    NO_CARD,
    OVER,
    PLACE,
    PLACE_FIRST,
    RED,
    Board,
    Play,
)
from companion.games.flipdone.rules.config import DECK, make_config


def _balance(board: Board, play: Play, turned_up: int = NO_CARD) -> float:
    """What the seat gains against the mean of the others by `play`, played on a fork
    (a flip turning up `turned_up`): the line scores, and FD-9's penalties and FD-10's
    manche bonus when it ends the phase."""
    fork = board.fork()
    if turned_up != NO_CARD:
        fork.under[play[2]] = turned_up
    fork.play(play)
    gains = [a - b for a, b in zip(fork.tokens, board.tokens, strict=True)]
    others = [g for s, g in enumerate(gains) if s != board.turn]
    return gains[board.turn] - sum(others) / len(others)


def _unseen(board: Board) -> list[int]:
    """The cards the seat to play has not seen this phase (FD-1: a flip turns one of
    them up): all but the elements, what lay under the flipped ones, its hand and its
    plays."""
    seat = board.turn
    seen = {f for f in board.faces if f != NO_CARD}
    seen |= {u for u, f in zip(board.under, board.flipped, strict=True) if f}
    seen |= {*board.hands[seat], *board.played[seat]}
    return [c for c in range(len(DECK)) if c not in seen]


def _worth(board: Board, play: Play) -> float:
    """A play's expected balance: a flip's over the colours of the unseen cards."""
    if play[0] != FLIP:
        return _balance(board, play)
    unseen = _unseen(board)
    reds = [c for c in unseen if COLOUR[c] == RED]
    blacks = [c for c in unseen if COLOUR[c] != RED]
    if not unseen:
        return 0.0
    total = 0.0
    if reds:
        total += len(reds) * _balance(board, play, reds[0])
    if blacks:
        total += len(blacks) * _balance(board, play, blacks[0])
    return total / len(unseen)


RULES = [
    {},
    {"first_element": "chosen"},
    {"manches": 1, "phases": 1},
    {"manches": 2, "phases": 1, "manche_tie": "extra_only", "tie_phase_limit": 1},
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ", ".join(map(str, r.items())) or "as ruled")
def test_the_heuristic_plays_a_best_play_builds_first_then_flips(rules):
    """At every decision of whole games (two heuristic seats, one random one, so that
    positions vary), the heuristic's play is worth the most of all legal plays, each
    played on a fork; among equals a build if one is best, else a flip, else a discard.
    The phase's last plays, where a play may end the phase or the manche, are among them."""
    decisions = choices = last = 0
    for seed in range(6):
        board = Board(make_config(first=seed % 3, **rules), seed)
        rng = random.Random(seed)
        while board.stage is not OVER:
            if board.turn == seed % 3 and board.stage is not PLACE_FIRST:
                board.play(random_play(board, rng))
                continue
            chosen = heuristic_play(board, rng)
            legal = board.legal()
            assert chosen in legal
            if board.stage is not PLACE_FIRST:
                worth = {play: _worth(board, play) for play in legal}
                best = max(worth.values())
                assert worth[chosen] == best, (seed, chosen, worth)
                kind = next(k for k in (BUILD, FLIP, DISCARD) if best in _of(worth, k))
                assert chosen[0] == kind, (seed, chosen, worth)
                decisions += 1
                choices += len(set(worth.values())) > 1
                last += board.cards == 1 or (not board.free and len(board.flippable) == 1)
            board.play(chosen)
    assert decisions >= 40 and choices > decisions / 2 and last >= 6


def _of(worth: dict[Play, float], kind: int) -> list[float]:
    return [value for play, value in worth.items() if play[0] == kind]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ", ".join(map(str, r.items())) or "as ruled")
def test_the_last_plays_of_a_phase_are_weighed_as_the_board_plays_them(rules):
    """Where a play may end the phase (its last card, or its last element to flip), the
    heuristic works out its balance in full (`exact_balance`): FD-9's penalties and
    FD-10's manche bonus included, as a fork of the board plays it, for every play and
    colour turned up."""
    weighed = 0
    for seed in range(6):
        board = Board(make_config(first=seed % 3, **rules), seed)
        rng = random.Random(seed)
        while board.stage is not OVER:
            last = board.cards == 1 or (not board.free and len(board.flippable) == 1)
            if last and board.stage is not PLACE_FIRST:
                memo: dict[tuple[int, ...], float] = {}
                hand = board.hands[board.turn]
                for kind, index, square in board.legal():
                    if kind == FLIP:
                        for card in (ANY[RED], ANY[BLACK]):
                            got = exact_balance(board, FLIP, square, COLOUR[card], memo)
                            assert got == _balance(board, (kind, index, square), card)
                    else:
                        colour = COLOUR[hand[index]] if kind == BUILD else EMPTY
                        got = exact_balance(board, kind, square, colour, memo)
                        assert got == _balance(board, (kind, index, square))
                    weighed += 1
            board.play(random_play(board, rng))
    assert weighed >= 30


ANY = {RED: COLOUR.index(RED), BLACK: COLOUR.index(BLACK)}
"""A card of each colour, to turn up in a flip weighed by colour (FD-1)."""


def test_the_random_bot_draws_every_legal_play_alike():
    """One uniform draw among the legal plays, in the engine's order (builds, flips,
    discards): over many draws from one position every play comes up, none far more."""
    board = Board(make_config(first=0), 5)
    rng = random.Random(1)
    for _ in range(7):
        board.play(random_play(board, rng))
    legal = board.legal()
    drawn = Counter(random_play(board, rng) for _ in range(200 * len(legal)))
    assert set(drawn) == set(legal)
    assert max(drawn.values()) < 2 * min(drawn.values())
    assert all(kind != PLACE for kind, _, _ in legal)


def test_a_bots_draw_is_the_librarys_choice_among_the_plays_and_never_of_none():
    """The bots draw as `rng.choice(range(n))` does, draw after draw (the inlined draw is
    this Python's own), and a draw among no play is refused, never a loop for ever."""
    assert draw is _draw_inline
    ours, library = random.Random(3), random.Random(3)
    for n in [*range(1, 70), 2**20 + 1, 3, 1]:
        assert draw(ours, n) == library.choice(range(n))
    assert ours.random() == library.random()  # as many bits drawn
    with pytest.raises(IndexError):
        _draw_inline(ours, 0)
