"""A whole Swiped game on the virtual table, in a real browser (Debian's Chromium): two
seats, each in its own browser context (its own phone), draw the face-up card, place the
cubes and draw their secret cards (SW-2), swap cubes at their turn (SW-4; one swap taken
back with the back button), name a wrong card (a false claim, refused by this table's
rule, SW-5) and win with a true "5 matches". Each phone shows its own secret card, and no
page (the other seat's, the shared screen) ever receives it before the game is over. The
journal, marked virtual, replays to the same result."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion import games
from companion.games.swiped.rules import next_swap
from companion.journal import read_journal
from companion.session import replay
from tests.web.table import LiveTable
from tests.web.virtual_pages import check_own_facts_only, payloads, seated, until


def keys(data: Any) -> set[str]:
    """Every key of a JSON document, at any depth."""
    if isinstance(data, dict):
        return set(data).union(*(keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(v) for v in data))
    return set()


@pytest.fixture
def sw(tmp_path):
    setup = games.get("swiped").simulated_setup(2, 3, first=0)
    rules = {**(setup.rules or {}), "false_claim": "refused"}
    table = LiveTable(tmp_path, dataclasses.replace(setup, settle=0.2, rules=rules), virtual=True)
    yield table
    table.close()


def test_two_phones_play_a_whole_game(sw, browser):
    table = sw
    referee = table.session.referee
    shared, pages = seated(browser, table, 2)
    state = lambda: referee.state  # noqa: E731

    def settled() -> bool:
        return referee.fault is None and referee.waiting is None and not referee.unjudged

    pages[1].click("[data-move='draw_layout']")
    until(lambda: state().layout_card is not None and settled(), what="the face-up card")
    pages[0].click("[data-move='place_cubes']")
    until(lambda: referee.placed and settled(), what="the cubes placed")
    for seat in (0, 1):
        pages[seat].click("[data-move='draw_target']")
        until(lambda: state().targets[seat] is not None and settled(), what="a target")  # noqa: B023
    targets = list(state().targets)
    for seat, page in pages.items():
        page.wait_for_selector(f".sw-target:has-text('{targets[seat]}')")

    def mine(seat: int) -> dict[str, Any]:
        """What `seat`'s phone is shown now (its kit's view)."""
        view: dict[str, Any] = table.web.virtual.kit.seat_view(referee, seat)
        return view

    def swap(seat: int, a: int, b: int) -> None:
        page = pages[seat]
        step = state().step, state().manche
        page.click(f".sw-cube.reachable[data-square='{a}']")
        page.click(f".sw-cube.reachable[data-square='{b}']")
        page.click("[data-move='swap']")
        until(lambda: (state().step, state().manche) != step and settled(), what="the swap")

    def next_pair(seat: int) -> tuple[int, int]:
        """Ana's swap puts one more cube where her card wants it; Bob's moves two cubes
        neither of which is where Ana's card wants it (never the pair just swapped)."""
        grid = list(state().grid)
        want = mine(0)["target_grid"]
        wrong = [i for i in range(9) if grid[i] != want[i]]
        just = set(state().phase_pair or ())
        if seat == 0:
            pairs = ((i, grid.index(want[i])) for i in wrong)
            a, b = next((a, b) for a, b in pairs if {grid[a], grid[b]} != just)
            return a + 1, b + 1
        a, b = next((a, b) for a in wrong for b in wrong if a < b and {grid[a], grid[b]} != just)
        return a + 1, b + 1

    # The wrong card named: refused (this table's rule), the game goes on.
    other_card = next(c for c in range(1, 25) if c not in targets)
    pages[0].click("[data-call='menteur']")
    until(lambda: referee.guess == 0, what="the claim waiting for its card")
    pages[0].fill("input[data-name]", str(other_card))
    pages[0].click("[data-name-card]")
    shared.wait_for_selector(".sw-claims li[data-correct='false']")
    undone = False
    swaps = 0
    while not referee.finished:
        until(lambda: settled() and (referee.finished or state().phase == "execute"))
        if referee.finished:
            break
        seat = next_swap(state())
        assert seat is not None
        if mine(seat)["matches"] >= 5:
            pages[seat].click("[data-call='doublon']")
            until(lambda: referee.finished, what="the true claim's win")
            break
        a, b = next_pair(seat)
        swap(seat, a, b)
        swaps += 1
        if not undone:  # taken back, then made again
            page = pages[seat]
            page.click("[data-back]")  # the cubes are to go back: the table waits for it
            until(lambda: next_swap(state()) == seat and referee.waiting is not None)  # noqa: B023
            page.click(f".sw-cube.reachable[data-square='{a}']")
            page.click(f".sw-cube.reachable[data-square='{b}']")
            page.click("[data-move='swap']")
            until(settled, what="the cubes put back")
            swap(seat, a, b)
            undone = True
        assert swaps < 30, "no one got 5 matches"
    assert state().winner is not None

    # Each seat's card on its own page only (until the game's end names them).
    own = check_own_facts_only(pages, shared)
    for seat, snapshots in own.items():
        assert {s["mine"]["target"] for s in snapshots} <= {None, targets[seat]}
    for page in (shared, *pages.values()):
        for p in payloads(page):
            if (p.get("board") or {}).get("winner") is None:
                assert "target" not in keys({k: v for k, v in p.items() if k != "mine"})
    path = table.data_dir / "game.jsonl"
    assert read_journal(path).setup.virtual
    assert replay(path).referee.result() == referee.result()
    for page in (shared, *pages.values()):
        page.context.close()
