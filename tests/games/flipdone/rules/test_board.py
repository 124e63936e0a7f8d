"""Flip Done's board (companion/games/flipdone/rules/board.py) by its own terms: what a
flip does to one line (`flip_outcome`, FD-5..FD-8), the tables the board plays by
(`OUTCOMES`, `ALIGNED`, `COMPLETIONS`) agreeing with it and with FD-4 for every line
state, and a board played in place and forked giving the engine's games.

A line is given as the states of its 3 squares, each "" (no element), "R"/"B" (a red or
black element) or "r"/"b" (one that was flipped), with its owner (-1: none)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from companion.games.flipdone.rules import State, apply, legal_actions, make_config, new_game
from companion.games.flipdone.rules.board import (
    ALIGNED,
    ALIGNS_THIRD,
    BLACK,
    BREAKS_LINE,
    CODES,
    COMPLETIONS,
    DISCARD,
    EMPTY,
    FLIP,
    HOLDS,
    KEEPS_OWN,
    KEEPS_THIRD,
    LINE_SQUARES,
    LOSES_OWN,
    LOSES_THIRD,
    MAKES,
    NOTHING,
    OUTCOMES,
    RED,
    VALUE,
    WEIGHTS,
    Board,
    Watcher,
    flip_outcome,
)
from companion.games.flipdone.rules.config import MANCHE_BONUS, PLAYERS

STATES = {"": EMPTY, "R": RED, "B": BLACK, "r": RED + 3, "b": BLACK + 3}


def code(*squares: str) -> int:
    """A line's board code from its squares' states."""
    return sum(STATES[s] * w for s, w in zip(squares, WEIGHTS, strict=True))


COLOUR = {"R": RED, "B": BLACK}

CASES = [
    # (squares, owner, flipping seat, place flipped, colour turned up, outcome, ruling)
    (("R", "R", "B"), -1, 0, 2, "R", MAKES, "FD-5: the flip aligns an unowned line"),
    (("R", "R", "B"), -1, 0, 2, "B", NOTHING, "FD-5: still not aligned"),
    (("R", "", "B"), -1, 0, 2, "R", NOTHING, "FD-4: a square with no element"),
    (("R", "R", "R"), 1, 0, 0, "B", BREAKS_LINE, "FD-6: another's line broken"),
    (("R", "R", "R"), 1, 0, 0, "R", HOLDS, "FD-6: another's line stays aligned"),
    (("r", "R", "R"), 1, 0, 1, "R", HOLDS, "FD-6: one flipped element before is no third"),
    (("R", "R", "R"), 0, 0, 0, "B", LOSES_OWN, "FD-7: one's own line broken"),
    (("R", "R", "R"), 0, 0, 2, "R", KEEPS_OWN, "FD-7: one's own line kept, no score"),
    (("r", "r", "R"), 1, 0, 2, "B", LOSES_THIRD, "FD-8: a third flip breaks: owner lost"),
    (("r", "r", "R"), 1, 0, 2, "R", KEEPS_THIRD, "FD-8: a third flip keeps: no bonus"),
    (("r", "b", "R"), -1, 0, 2, "B", NOTHING, "FD-8: nothing was aligned, nothing is"),
    (("r", "r", "B"), -1, 2, 2, "R", ALIGNS_THIRD, "FD-8: a third flip aligns: no owner"),
]


@pytest.mark.parametrize(
    ("squares", "owner", "seat", "place", "turned_up", "outcome"),
    [case[:6] for case in CASES],
    ids=[case[6] for case in CASES],
)
def test_what_a_flip_does_to_a_line(squares, owner, seat, place, turned_up, outcome):
    assert flip_outcome(code(*squares), owner, seat, place, COLOUR[turned_up]) == outcome


def _line_codes() -> list[tuple[int, int]]:
    """(code, owner) of every line state a game can reach: an owned line is aligned."""
    codes = []
    for squares in itertools.product(STATES, repeat=3):
        c = code(*squares)
        codes.append((c, -1))
        if ALIGNED[c]:
            codes += [(c, owner) for owner in range(PLAYERS)]
    return codes


def test_the_board_plays_by_flip_outcome_for_every_line_state():
    """OUTCOMES is `flip_outcome` for every reachable line, seat, flipped element and
    colour: what the board plays and what the journal's reader asks are one rule."""
    checked = 0
    for c, owner in _line_codes():
        full = c + CODES * (owner + 1)
        for seat, place, colour in itertools.product(range(PLAYERS), range(3), (RED, BLACK)):
            state = c // WEIGHTS[place] % 6
            if state % 3 == EMPTY or state >= 3:  # only an element never flipped flips
                continue
            index = (full * 3 + place) * 2 + colour - 1
            assert OUTCOMES[seat][index] == flip_outcome(c, owner, seat, place, colour)
            checked += 1
    assert checked > 1000


def test_aligned_is_three_elements_of_one_colour():
    """FD-4, for every line state."""
    for squares in itertools.product(STATES, repeat=3):
        colours = {STATES[s] % 3 for s in squares}
        assert ALIGNED[code(*squares)] == (len(colours) == 1 and EMPTY not in colours)


def test_completions_are_the_builds_that_make_an_unowned_line():
    """FD-5: for every unowned line state, the one build that makes the line (its empty
    square, the colour of the other two, the line's value), or none."""
    for line in range(len(LINE_SQUARES)):
        for squares in itertools.product(STATES, repeat=3):
            c = code(*squares)
            makes = [
                (LINE_SQUARES[line][place], colour, VALUE[line])
                for place, colour in itertools.product(range(3), (RED, BLACK))
                if squares[place] == "" and ALIGNED[c + colour * WEIGHTS[place]]
            ]
            assert [COMPLETIONS[line][c]] == (makes or [None]), (line, squares)
            assert all(COMPLETIONS[line][c + CODES * (o + 1)] is None for o in range(PLAYERS))


@pytest.mark.parametrize("rules", [{}, {"first_element": "chosen", "manches": 1}])
def test_a_board_played_in_place_is_the_engines_game(rules):
    """The lab's and the bots' way (one board, played in place; forks left behind) and
    the table's (`apply`, a new State each step) play one game: at every step the same
    position, and a fork taken before the step unchanged by it."""
    for seed in range(3):
        config = make_config(first=seed, **rules)
        state, _ = new_game(config, seed)
        board = Board(config, seed)
        rng = random.Random(seed)
        while legal := legal_actions(state):
            plays = board.legal()  # (kind, card, square): a discard names no square (-1)
            assert all((square == -1) == (kind == DISCARD) for kind, _, square in plays)
            before = board.fork()
            play = board.legal()[legal.index(action := rng.choice(legal))]
            board.play(play)
            state, _ = apply(state, action)
            assert State.of(board.fork()) == state
            assert State.of(before) != state


@pytest.mark.parametrize("rules", [{}, {"manches": 2, "phases": 1, "manche_tie": "extra_only"}])
def test_a_board_rebuilt_from_its_facts_is_the_board_that_reached_it(rules):
    """A journal resumes a game from its position's facts (State as JSON, no board kept):
    the board rebuilt from them is, slot for slot, the one played in place to that point,
    down to what the bots count (cards seen, red cards paid, the lines' codes), so a
    resumed table plays and decides as the live one would have."""
    slots = [slot for slot in Board.__slots__ if slot != "watch"]
    for seed in range(4):
        config = make_config(first=seed % 3, **rules)
        board, rng = Board(config, seed), random.Random(seed)
        while not board.over:
            facts = State.from_json(json.loads(json.dumps(State.of(board.fork()).to_json())))
            rebuilt = facts.fork()
            differ = [s for s in slots if getattr(rebuilt, s) != getattr(board, s)]
            assert not differ, (seed, differ)
            board.play(rng.choice(board.legal()))


class _Manches(Watcher):
    """Each manche's tokens at its start, and what its winner was told it gained."""

    def __init__(self) -> None:
        self.start: dict[int, list[int]] = {1: [0, 0, 0]}
        self.won: list[tuple[int, int, tuple[int, ...], list[int]]] = []

    def phase_started(self, board: Board, card: int) -> None:
        self.start.setdefault(board.manche, list(board.tokens))

    def manche_won(self, board: Board, seat: int, gains: tuple[int, ...]) -> None:
        tokens = list(board.tokens)
        tokens[seat] -= MANCHE_BONUS  # taken just before it is told
        self.won.append((board.manche, seat, gains, tokens))


def test_a_manches_net_gains_count_from_its_start():
    """FD-10: the manche's winner is who gained the most during the manche (net): the
    gains counted from the tokens each held when the manche began (0 for the first)."""
    won = 0
    for seed in range(6):
        manches = _Manches()
        board, rng = Board(make_config(first=seed % 3), seed, manches), random.Random(seed)
        while not board.over:
            board.play(rng.choice(board.legal()))
        for manche, seat, gains, tokens in manches.won:
            start = manches.start[manche]
            assert gains == tuple(t - s for t, s in zip(tokens, start, strict=True))
            assert sorted(gains)[-2] < gains[seat] == max(gains)
            won += 1
    assert won >= 10


class _LinesTold(Watcher):
    """The lines a play told the watcher of, whatever the outcome."""

    def __init__(self) -> None:
        self.lines: list[int] = []

    def line_made(self, board: Board, seat: int, line: int) -> None:
        self.lines.append(line)

    def line_broken(self, board: Board, seat: int, owner: int, line: int, taken: int) -> None:
        self.lines.append(line)

    def line_held(self, board: Board, seat: int, owner: int, line: int) -> None:
        self.lines.append(line)

    def line_lost(self, board: Board, seat: int, owner: int, line: int, outcome: int) -> None:
        self.lines.append(line)

    def line_unscored(self, board: Board, seat: int, line: int, outcome: int) -> None:
        self.lines.append(line)


def test_a_flip_tells_the_watcher_every_line_it_found_or_left_aligned():
    """FD-5..FD-8: a flip is told, line by line, for each line through its square that
    was aligned before it or is after it, the ones that score nothing too (FD-7, FD-8: a
    line kept, or aligned by a third flip): the lab counts them all."""
    told = _LinesTold()
    checked = 0
    for seed in range(6):
        board, rng = Board(make_config(first=seed % 3), seed, told), random.Random(seed)
        while not board.over:
            move = rng.choice(board.legal())
            before = board.fork()
            told.lines.clear()
            board.play(move)
            if move[0] != FLIP or (board.manche, board.phase) != (before.manche, before.phase):
                continue
            square = move[2]
            expected = [
                line
                for line, squares in enumerate(LINE_SQUARES)
                if square in squares
                and (ALIGNED[before.lines[line] % CODES] or ALIGNED[board.lines[line] % CODES])
            ]
            assert sorted(told.lines) == expected, (seed, square)
            checked += bool(expected)
    assert checked > 20


def test_a_phase_settles_its_manche_when_it_is_the_last_unless_a_tie_prolongs_it():
    """FD-2, FD-10: the bots ask whether the phase being played settles its manche; when
    it says no, the phase ends into the next of the same manche; when it says yes, into
    the next manche, the end of the game, or an extra phase for a tie."""
    ends = {False: 0, True: 0}
    for seed in range(6):
        board, rng = Board(make_config(first=seed % 3), seed), random.Random(seed)
        while not board.over:
            before = (board.manche, board.phase, board.extra)
            settles = board.settles_manche()
            board.play(rng.choice(board.legal()))
            after = (board.manche, board.phase, board.extra)
            if after == before and not board.over:
                continue
            ends[settles] += 1
            if not settles:
                assert after == (before[0], before[1] + 1, 0)
            else:
                assert board.over or after[0] == before[0] + 1 or after[2] == before[2] + 1
    assert ends[False] >= 6 and ends[True] >= 6
