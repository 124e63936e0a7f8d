"""A whole Flip Done game on the virtual table, in a real browser (Debian's Chromium): three
seats, each in its own browser context (its own phone), play with virtual cards through
Flip Done's page view while a shared screen watches: the deal one card at a time then the
rest (FD-2), builds, flips after a discard and discards with no flip (FD-3), a build on an
element (a fault, the card taken back), a discard taken back with the back button (undo),
the cards gathered at each phase's end (FD-9), phases until the game's end (FD-10). Every
answer and stream message each page received is checked: no card a seat held and nobody
ever saw face up reaches another seat's page or the shared screen, in any form (the
card's code or as the table writes it). The journal, marked virtual, replays to the same
result."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from companion import games
from companion.games.flipdone.rules import public_view
from companion.journal import read_journal
from companion.session import replay
from tests.web.table import LiveTable
from tests.web.virtual_pages import check_own_facts_only, payloads, seated, strings, until

WRITTEN_RANKS = {"fr": {"J": "V", "Q": "D", "K": "R"}, "en": {}}
SUITS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def written(card: str, lang: str) -> str:
    """A card as the table writes it (R♠ in French)."""
    rank = card[:-1]
    return WRITTEN_RANKS[lang].get(rank, rank) + SUITS[card[-1]]


@pytest.fixture
def fd(tmp_path):
    setup = games.get("flipdone").simulated_setup(3, 5, first=0)
    rules = {**(setup.rules or {}), "phases": 2, "manches": 1}
    table = LiveTable(tmp_path, dataclasses.replace(setup, settle=0.2, rules=rules), virtual=True)
    yield table
    table.close()


def test_three_phones_play_a_whole_game(fd, browser):
    table = fd
    referee = table.session.referee
    kit: Any = table.web.virtual.kit
    shared, pages = seated(browser, table, 3)
    held: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}  # every card each seat held
    faults = {"build_on_element": 0, "undo": 0}

    def settled() -> bool:
        return referee.fault is None and referee.waiting is None and not referee.unjudged

    def where() -> tuple[int, int, int]:
        """Whose turn, which deal, how many cards in hands: a turn played changes it."""
        state = referee.state
        return state.turn, state.deal, sum(public_view(state).hand_sizes)

    def square(page: Any, n: int, mark: str) -> None:
        page.click(f".fd-square.{mark}[data-square='{n}']")

    def play_turn() -> None:
        until(lambda: settled() and (referee.gather or referee.finished or (
            referee.state.stage == "play" and referee.pad is None)), what="a turn")  # fmt: skip
        if referee.gather or referee.finished:
            return
        seat = referee.state.turn
        page = pages[seat]
        hand = sorted(referee.cards[uid] for uid in kit.hands[seat])
        held[seat] |= set(hand)
        view = public_view(referee.state)
        down = [n for n in range(1, 10) if view.dealt[n - 1] and not view.faces[n - 1]]
        unflipped = [n for n in range(1, 10) if view.faces[n - 1] and not view.flipped[n - 1]]
        turn = where()

        def moved() -> bool:
            return where() != turn and settled()

        page.click(f".fd-hand-card[data-card='{hand[0]}']")
        if down and unflipped and not faults["build_on_element"]:
            # A card laid on an element: the referee stops the table; it is taken back.
            square(page, unflipped[0], "reachable")
            until(lambda: referee.fault is not None, what="the build on an element's fault")
            square(page, unflipped[0], "takeable")
            until(settled, what="the card taken back")
            faults["build_on_element"] += 1
            page.click(f".fd-hand-card[data-card='{hand[0]}']")
        if down:
            square(page, down[0], "reachable")  # a build
        elif unflipped and faults["undo"]:
            page.click("[data-discard]")  # a flip: the discard, then the element turned
            until(lambda: referee.pad is not None, what="the card on the pad")
            square(page, unflipped[0], "reachable")
        else:
            page.click("[data-discard]")
            until(lambda: referee.pad is not None, what="the card on the pad")
            page.click("[data-no-flip]")
            if not faults["undo"]:  # the discard taken back (back): its card waits on the
                until(moved, what="the discard")  # pad for the same seat's choice again
                page.click("[data-back]")
                until(lambda: referee.state.turn == seat and referee.pad is not None
                      and settled(), what="the discard undone")  # fmt: skip
                page.click("[data-no-flip]")
                faults["undo"] += 1
        until(moved, what=f"seat {seat}'s turn played")

    deals = 0
    while not referee.finished:
        until(lambda: settled() and (referee.finished or referee.gather or referee.state.stage in (
            "deal", "play")), what="a phase")  # fmt: skip
        if referee.finished:
            break
        if referee.gather:
            pages[deals % 3].click("[data-gather]")
            until(lambda: not referee.gather, what="the cards gathered")
            continue
        if referee.state.stage == "deal":
            dealer = pages[deals % 3]
            for _ in range(3):  # the first cards one at a time, as a dealer lays them
                dealer.click("[data-deal='one']")
            dealer.click("[data-deal='all']")
            until(lambda: referee.state.stage == "play", what="the deal")
            deals += 1
        while referee.state.stage == "play" and not referee.gather:
            play_turn()
    assert deals >= 2 and faults == {"build_on_element": 1, "undo": 1}
    shared.wait_for_selector("#result:visible")

    # What each page received: its own seat's facts only; the shared screen none.
    check_own_facts_only(pages, shared)
    # Public: what the shared screen was shown (whole states and their changes).
    public = set().union(*(strings(p) for p in payloads(shared)))
    lang = referee.setup.language
    texts = {s: [json.dumps(p, ensure_ascii=False) for p in payloads(page)]
             for s, page in pages.items()}  # fmt: skip
    texts[-1] = [json.dumps(p, ensure_ascii=False) for p in payloads(shared)]
    for seat, cards in held.items():
        secret = cards - public
        assert secret, "some card stayed hidden"
        for other, received in texts.items():
            if other == seat:
                continue
            for card in secret:
                for text in received:
                    assert f'"{card}"' not in text and written(card, lang) not in text, (
                        f"seat {seat}'s {card} reached page {other}"
                    )
    # The journal: a virtual game, replayed to the same result.
    path = table.data_dir / "game.jsonl"
    assert read_journal(path).setup.virtual
    assert replay(path).referee.result() == referee.result()
    for page in (shared, *pages.values()):
        page.context.close()
