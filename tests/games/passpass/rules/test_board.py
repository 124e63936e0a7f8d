"""The board (the engine's core, played in place by the lab and the bots) plays the
engine's game, and a board rebuilt from a position's facts is the one that reached it."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from companion.games.passpass.rules import (
    Action,
    Announce,
    Designate,
    Pass,
    State,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from companion.games.passpass.rules.board import Board
from companion.games.passpass.rules.config import PTIPASSPASS
from companion.games.passpass.rules.tables import FULL, SEAT_BITS, SEAT_MASK, UNIT

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


def _play_on(board: Board, *actions: Action) -> None:
    """Play actions on a board in place, each by the legal code that says it."""
    for action in actions:
        [code] = [c for c in board.legal() if board.action(c) == action]
        board.play(code)


def test_pti_4_a_masked_placement_is_known_to_its_placer_alone():
    """PTI-4, PTI-6: in a Masqué turn only the Magicien sees the animal dropped. Six seats
    (the most, PTI-1) drop into one hat in turn, nobody calling: each seat's memory of the
    hat (its field of `secret`, read as the bots read it) holds its own animal and no
    other seat's, and what no seat saw shown is nobody's public knowledge."""
    board = Board(make_config("ptipasspass", 6))
    tokens = board.names  # the kinds, in their codes' order
    for seat in range(6):
        animal = tokens[seat % 3]
        others = [Pass((seat + k) % 6) for k in range(1, 6)]
        _play_on(board, Designate(seat, 1, animal), Announce(seat, animal), *others)
    assert board.seen[0] == 0 and board.hats[0] == 2 * FULL
    for seat in range(6):
        known = board.secret[0] >> SEAT_BITS * seat & SEAT_MASK
        assert known == UNIT[seat % 3], seat


@pytest.mark.parametrize(
    "tokens",
    [("lapin", "colombe", "souris"), ("colombe", "lapin"), ("colombe", "lapin", "souris", "x")],
)
def test_an_edition_of_other_than_three_kinds_in_alphabetical_order_is_refused(tokens):
    """PTI-1, PHI-1: three kinds of token, each edition its names. The board counts them
    in three fields, in alphabetical order (the order of a sorted hand): an edition it
    cannot count is refused when its board is made, never counted wrong."""
    rules = dataclasses.replace(PTIPASSPASS, name="variante", tokens=tokens)
    with pytest.raises(ValueError, match="three tokens in alphabetical order"):
        Board(make_config(rules, 3))
