"""The tables the games' page views draw (`Game.page_view`), checked against the rules
from public facts alone: PassPass's tokens are all somewhere (PTI-14), Flip Done's lines
are owned only while aligned (FD-4, FD-5), and Swiped's swaps of the manche, as the page
lists them, make the grid it shows (SW-4), even when a swap was taken back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.journal import read_journal

SWIPED_SCENARIOS = Path(__file__).parents[1] / "games" / "swiped" / "referee" / "scenarios"


def boards(name: str, seats: int, seed: int) -> list[dict[str, Any]]:
    """The page's table after each input of a simulated game."""
    game = games.get(name)
    setup = game.simulated_setup(seats, seed)
    referee = game.referee(setup)
    assert game.page_view is not None
    out = []
    for record in game.simulate(setup).inputs:
        referee.feed(record)
        out.append(game.page_view(referee))
    return out


@pytest.mark.parametrize(("name", "seats"), [("ptipasspass", 4), ("phipasspass", 3)])
def test_every_passpass_token_is_in_a_hat_in_a_hand_or_in_flight(name: str, seats: int) -> None:
    """PTI-14: each seat's three tokens are always somewhere; the page counts the token in
    flight over its hat (dropped at a table) until nobody challenged it."""
    flights = 0
    for board in boards(name, seats, 2):
        in_flight = board["in_flight"]
        total = sum(board["hats"]) + sum(board["hands"]) + (in_flight is not None)
        assert total == seats * len(board["tokens"]), board
        if in_flight is not None:
            flights += 1
            assert in_flight == board["spot"] and board["phase"] in ("announce", "window")
    assert flights


def test_flip_done_lines_are_owned_only_while_aligned() -> None:
    """FD-4, FD-5: a bâtonnet marks an aligned line (its three cards face up, one colour)."""
    owned = 0
    for board in boards("flipdone", 3, 4):
        for line in board["lines"]:
            if line["owner"] is None:
                continue
            owned += 1
            faces = [board["faces"][s - 1] for s in line["squares"]]
            assert all(faces), line
            assert len({face[-1] in "HD" for face in faces}) == 1, (line, faces)
    assert owned


def swaps_checked(board: dict[str, Any], start: list[str]) -> int:
    """The grid at the manche's start (`start`), with the page's swaps done in order, is
    the grid the page shows; the swaps done are the manche's first `step`. Returns how many
    swaps were checked."""
    grid = list(start)
    done = [s for s in board["swaps"] if s["done"]]
    for slot in done:
        assert "colours" in slot, slot
        if not slot["skipped"]:
            a, b = (grid.index(c) for c in slot["colours"])
            grid[a], grid[b] = grid[b], grid[a]
    assert grid == board["grid"], board["swaps"]
    assert [s["done"] for s in board["swaps"]] == [i < board["step"] for i in range(6)]
    return len(done)


def test_swiped_swaps_on_the_page_make_the_grid_even_after_an_undo() -> None:
    """SW-4, and undo (docs/table.md): a swap taken back is off the page's list, the one
    made instead is on it."""
    game = games.get("swiped")
    assert game.page_view is not None
    undone = read_journal(SWIPED_SCENARIOS / "undo.jsonl")
    assert sum(getattr(r, "control", None) == "back" for r in undone.inputs) > 3
    journals = [read_journal(p) for p in sorted(SWIPED_SCENARIOS.glob("*.jsonl"))]
    setup = game.simulated_setup(2, 5)
    played = [(j.setup, j.inputs) for j in journals] + [(setup, game.simulate(setup).inputs)]
    checked = 0
    for setup, inputs in played:
        referee = game.referee(setup)
        start: dict[int, list[str]] = {}
        for record in inputs:
            referee.feed(record)
            board = game.page_view(referee)
            if board["phase"] == "execute" and board["step"] == 0:
                start[board["manche"]] = board["grid"]
            if board["swaps"] and board["manche"] in start:
                checked += swaps_checked(board, start[board["manche"]])
    assert checked > 20
