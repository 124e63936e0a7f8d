"""The board (the engine's core, played in place by the lab and the bots) plays the
engine's game, and a board rebuilt from a position's facts is the one that reached it."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.passpass.rules import State, apply, legal_actions, make_config, new_game
from companion.games.passpass.rules.board import Board

SETUPS = [
    ("ptipasspass", 3, "round"),
    ("ptipasspass", 4, "timed"),
    ("phipasspass", 5, "timed"),
]


@pytest.mark.parametrize(("rules", "players", "window"), SETUPS)
def test_a_board_played_in_place_is_the_engines_game(rules, players, window):
    """The lab's and the bots' way (one board, played in place by legal codes) and the
    table's (`apply`, a new State each step) play one game: at every step the same
    position, the same legal actions, and a fork taken before the step unchanged by it."""
    for seed in range(3):
        config = make_config(rules, players, first=seed % players, window=window)
        state, _ = new_game(config, seed)
        board = Board(config)
        rng = random.Random(seed)
        for _ in range(400):
            legal = legal_actions(state)
            if not legal:
                break
            assert tuple(map(board.action, board.legal())) == legal
            before = board.fork()
            action = rng.choice(legal)
            board.play(board.legal()[legal.index(action)])
            state, _ = apply(state, action)
            assert State.of(board.fork()) == state
            assert State.of(before) != state


@pytest.mark.parametrize(("rules", "players", "window"), SETUPS)
def test_a_board_rebuilt_from_its_facts_is_the_board_that_reached_it(rules, players, window):
    """A journal resumes a game from its position's facts (State as JSON, no board kept):
    the board rebuilt from them is, slot for slot, the one played in place to that point
    (down to which hats hold a token, what the bots read), so a resumed table plays and
    decides as the live one would have. What the seats saw of the hats is memory, not a
    fact of the position: it starts empty, and an empty hat leaves nothing to remember."""
    memory = {"watch", "seen", "secret"}
    slots = [slot for slot in Board.__slots__ if slot not in memory]
    for seed in range(3):
        config = make_config(rules, players, first=seed % players, window=window)
        board, rng = Board(config), random.Random(seed)
        for _ in range(400):
            facts = State.from_json(json.loads(json.dumps(State.of(board.fork()).to_json())))
            rebuilt = facts.fork()
            differ = [s for s in slots if getattr(rebuilt, s) != getattr(board, s)]
            assert not differ, (seed, differ)
            for spot, hat in enumerate(board.hats):  # memory of a hat is of its tokens
                assert hat or not board.seen[spot] | board.secret[spot], (seed, spot)
            legal = board.legal()
            if not legal:
                break
            board.play(rng.choice(legal))
