"""A whole PtiPassPass game on the virtual table, in a real browser (Debian's Chromium):
three seats, each in its own browser context (its own phone), play with virtual tokens
through PtiPassPass's page view while a shared screen watches: drops one token at a time,
the announce button before or after its drop, a Menteur and a Doublon that succeed and a
Doublon that fails (PTI-8, PTI-9) with their instructions carried out and the rewards
(PTI-10), a designation taken back (undo), a slide of hats that are not contiguous (a
fault, slid back), two reveals that win (PTI-11) and the hats emptied in between (PTI-12).
Every snapshot and answer each page received is checked: a seat's own facts reach its own
page only. The journal, marked virtual, replays to the same result."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion import games
from companion.journal import read_journal
from companion.session import replay
from tests.web.table import LiveTable
from tests.web.virtual_pages import check_own_facts_only, seated, until

WINDOW = 2.0
"""Seconds of a challenge window: time enough to call it from a page."""


@pytest.fixture
def pti(tmp_path):
    setup = games.get("ptipasspass").simulated_setup(3, 11, first=0, window=WINDOW)
    table = LiveTable(tmp_path, dataclasses.replace(setup, settle=0.2), virtual=True)
    yield table
    table.close()


class Hands:
    """One seat's phone at the virtual table."""

    def __init__(self, page: Any, table: LiveTable) -> None:
        self.page = page
        self.table = table

    def drop(self, token: str, spot: int) -> None:
        self.page.click(f".pp-token[data-token='{token}']")
        self.page.click(f".pp-hat.droppable[data-spot='{spot}']")  # once the page has it

    def announce(self, token: str) -> None:
        self.page.click(f"[data-announce='{token}']")

    def call(self, challenge: str) -> None:
        self.page.click(f"[data-call='{challenge}']")

    def take(self, spot: int) -> None:
        count = self.table.session.referee.observed.uids[spot]
        self.page.click(f".pp-hat.takeable[data-spot='{spot}']")
        until(lambda: self.table.session.referee.observed.uids[spot] != count, what=f"take {spot}")

    def hats(self, *spots: int) -> None:
        self.page.wait_for_selector("#pp-reveal")  # the page shows the reveal
        for spot in spots:
            self.page.click(f".pp-hat[data-spot='{spot}']")


def test_three_phones_play_a_whole_game(pti, browser):
    table = pti
    referee = table.session.referee
    shared, pages = seated(browser, table, 3)
    ana, bob, cy = (Hands(pages[s], table) for s in range(3))
    state = lambda: referee.state  # noqa: E731

    def turn(magician: int, phase: str = "place") -> None:
        def there() -> bool:
            now = (state().magician, str(state().phase))
            return now == (magician, phase) and not referee.pending and not referee.fault

        until(there, what=f"seat {magician} to {phase}")

    def window() -> None:
        until(lambda: str(state().phase) == "window", what="the window")

    # Manche 1, tour 1 (Masqué). Ana announces, then drops (a press before its act).
    turn(0)
    pages[0].wait_for_selector(".pp-token[data-token='colombe']")
    assert pages[1].locator(".pp-token").count() == 3  # each phone its own hand
    ana.announce("colombe")
    ana.drop("colombe", 1)
    window()
    # Bob drops his lapin in hat 2 and announces colombe after it: Ana calls Menteur.
    turn(1)
    bob.drop("lapin", 2)
    until(lambda: str(state().phase) == "announce")
    bob.announce("colombe")
    window()
    ana.call("menteur")
    until(lambda: referee.verdict is not None, what="the Menteur verdict")
    assert referee.verdict.success and referee.verdict.challenge == "menteur"
    bob.take(2)  # PTI-9: the Magicien keeps his token
    until(lambda: str(state().phase) == "reward" and not referee.pending)
    ana.drop("lapin", 2)  # PTI-10: Ana's reward, a token shown, into any hat
    # Cy drops into an empty hat; Bob's Doublon fails: Cy's token goes to Bob (PTI-8).
    turn(2)
    cy.drop("souris", 7)
    cy.announce("souris")
    window()
    bob.call("doublon")
    until(lambda: referee.verdict is not None and referee.verdict.seat == 1)
    assert not referee.verdict.success
    cy.take(7)
    # Tour 2 (Visible): drops shown, no announcement.
    turn(0)
    ana.drop("souris", 3)
    window()
    turn(1)
    assert sorted(bob.page.locator(".pp-token").all_inner_texts()) == sorted(
        ["Colombe", "Lapin", "Souris", "Souris"]
    )  # his own and the souris Cy gave him
    bob.drop("colombe", 8)
    window()
    # Cy drops, then takes it back (undo, before the window closes), and drops again.
    turn(2)
    cy.drop("colombe", 9)
    window()
    cy.page.click("[data-back]")
    until(lambda: str(state().phase) == "place" and referee.pending is not None)
    cy.take(9)
    turn(2)
    cy.drop("colombe", 9)
    window()
    # Ana holds nothing: she reveals. A slide of two hats that are not contiguous is a
    # fault (PTI-3); she slides them back, then reveals hats 1-2-3.
    turn(0, "reveal")
    ana.hats(1, 3)
    ana.page.click("#pp-slide")
    until(lambda: referee.fault is not None, what="the non-contiguous slide's fault")
    ana.hats(1, 3)
    ana.page.click("#pp-slide")
    until(lambda: referee.fault is None)
    ana.hats(1, 2, 3)
    ana.page.click("#pp-reveal")
    until(lambda: state().victories[0] == 1, what="Ana's first victory")
    # PTI-12: everyone empties the hats, then manche 2, Bob first.
    for spot in range(1, 10):
        while referee.observed.uids[spot]:
            (ana, bob, cy)[spot % 3].take(spot)
    turn(1)
    bob.drop("lapin", 1)
    bob.announce("colombe")
    window()
    ana.call("menteur")
    until(lambda: referee.verdict is not None and referee.verdict.magician == 1)
    bob.take(1)
    until(lambda: str(state().phase) == "reward" and not referee.pending)
    ana.drop("colombe", 4)
    # Cy drops on Ana's colombe: Ana's Doublon succeeds, Cy takes back the whole hat.
    turn(2)
    cy.drop("lapin", 4)
    cy.announce("lapin")
    window()
    ana.call("doublon")
    until(lambda: referee.verdict is not None and referee.verdict.magician == 2)
    assert referee.verdict.success
    cy.take(4)
    cy.take(4)
    until(lambda: str(state().phase) == "reward" and not referee.pending)
    ana.drop("lapin", 5)
    turn(0)
    ana.announce("souris")
    ana.drop("souris", 6)
    window()
    turn(1)  # tour 2, Visible
    bob.drop("colombe", 4)
    window()
    turn(2)
    cy.drop("souris", 9)
    window()
    turn(0, "reveal")
    ana.hats(4, 5, 6)
    ana.page.click("#pp-reveal")
    until(lambda: referee.finished, what="the game's end")
    assert referee.result()["winner"] == 0
    shared.wait_for_selector("#result:visible")

    # What each page received: its own seat's facts only; the shared screen none.
    own = check_own_facts_only(pages, shared)
    dropped = {
        0: {"colombe", "lapin", "souris"},
        1: {"lapin", "colombe"},
        2: {"souris", "colombe", "lapin"},
    }
    for seat, snapshots in own.items():
        assert {p["token"] for s in snapshots for p in s["mine"]["placed"]} <= dropped[seat]
    # The journal: a virtual game, replayed to the same result.
    path = table.data_dir / "game.jsonl"
    assert read_journal(path).setup.virtual
    assert replay(path).referee.result() == referee.result()
    for page in (shared, *pages.values()):
        page.context.close()
