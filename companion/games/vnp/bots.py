"""The Vous ne passerez pas ! bots, written once on the engine's board (rules/board.py):
uniformly random and greedy largest piece first. The lab and the thinking bot's playouts
call them on the board they play; the table's bot seats (the simulated table, scenario
scripts, tests) call them on a State through `at_the_table`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from companion.games.vnp.rules.actions import Action, Pass, Place
from companion.games.vnp.rules.board import PASS, Board, Ids
from companion.games.vnp.rules.config import COLOURS, Config
from companion.games.vnp.rules.state import State

Choice = tuple[int, int]
"""A bot's decision: (a placement id among the legal ones, or PASS when there is none
(VNP-5); how many placements were legal). A bot counts the legal placements as it draws
among them, so the lab's branching figure (`Played.choices`) costs no count of its own."""

Bot = Callable[[Board, int, random.Random], Choice]
"""(the board, the legal placements of the colour to play as a bitset, the seat's rng) ->
its `Choice`."""

TableBot = Callable[[State, random.Random], Action]
"""(the position, the seat's rng) -> the action of the colour to play."""

_PASS_ONLY = (PASS,)
"""Choosing from this when only a pass is legal draws what choosing among the legal actions
(the lone Pass) draws, so a seeded game is the same whichever way a bot is called."""


def random_bot(board: Board, legal: int, rng: random.Random) -> Choice:
    """Any legal placement, uniformly (by id order); PASS when there is none."""
    if not legal:
        return rng.choice(_PASS_ONLY), 0
    ids = Ids(legal)
    return rng.choice(ids), ids.length


def _largest(board: Board, legal: int, rng: random.Random) -> tuple[int, int, int]:
    """The greedy draw: (a placement of one of the largest pieces the colour can place,
    uniformly among those (by id order), or PASS when there is none; how many such
    placements; the first id of their size, below which lie the smaller pieces')."""
    for first in board.tables.first_of_size:
        # A size's ids run from `first` up to the next larger size's, and the larger
        # sizes were found empty: the legal ids from `first` up are of this size alone.
        largest = Ids(legal, first)
        if largest.length:
            return rng.choice(largest), largest.length, first
    return rng.choice(_PASS_ONLY), 0, 0


@cache
def _below(first: int) -> int:
    """The ids below `first`, as a bitset."""
    return (1 << first) - 1


def largest_bot(board: Board, legal: int, rng: random.Random) -> Choice:
    """Greedy: a placement of one of the largest pieces it can place (VNP-6 counts the
    segments left), uniformly among those (by id order); PASS when there is none."""
    pid, counted, first = _largest(board, legal, rng)
    return pid, counted + (legal & _below(first)).bit_count()  # and the smaller pieces'


def largest_placement(board: Board, legal: int, rng: random.Random) -> int:
    """`largest_bot`'s placement alone, the smaller pieces' placements left uncounted (the
    thinking bot's playouts)."""
    return _largest(board, legal, rng)[0]


BOTS: dict[str, Bot] = {"largest": largest_bot, "random": random_bot}
"""The bot kinds, by the names `companion lab`, the simulated table and tests use."""


def at_the_table(bot: Bot) -> TableBot:
    """The bot choosing the action of the colour to play in a State (ValueError once the
    game is over)."""

    def choose(state: State, rng: random.Random) -> Action:
        if state.over:
            raise ValueError("the game is over: no action is legal")
        board = state.fork()
        pid, _ = bot(board, board.legal(board.turn), rng)
        colour = COLOURS[state.turn]
        return Pass(colour) if pid == PASS else Place(colour, pid)

    return choose


random_action = at_the_table(random_bot)
largest_first = at_the_table(largest_bot)


def make_bot(kind: str) -> TableBot:
    """The bot of a kind, at a table seat; ValueError naming the kinds for an unknown one."""
    if kind not in BOTS:
        raise ValueError(f"unknown Vous ne passerez pas ! bot {kind!r}; bots are {', '.join(BOTS)}")
    return at_the_table(BOTS[kind])


# ---------------------------------------------------------------------- a whole game


@dataclass(frozen=True, slots=True)
class Played:
    """A whole game played by bots on one board."""

    board: Board
    """The board at the end (VNP-6)."""
    turns: tuple[tuple[int, int], ...]
    """Every action in order: (colour index, placement id, or PASS)."""
    choices: tuple[int, int]
    """(legal placements summed, placements chosen): a forced pass is no choice."""


def play_game(config: Config, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Played:
    """One whole game: the bot of each colour (by colour index, with its rng: the two
    colours of a seat share the seat's) chooses its action until no colour can play
    (VNP-6)."""
    board = Board(config)
    turns: list[tuple[int, int]] = []
    choices = moves = 0
    while not board.over:
        colour = board.turn
        legal = board.legal(colour)
        pid, count = bots[colour](board, legal, rngs[colour])
        if legal:
            choices += count
            moves += 1
        turns.append((colour, pid))
        board.play(pid, legal)
    return Played(board, tuple(turns), (choices, moves))
