"""A phone acts only for its own seat, in every game that takes presses from the page: the
referee says whose act a press is (`seat_refusal`), from the paired seat, never from what
the page sends. Another seat's act is answered 403 with a sentence in the table's
language, and nothing is journaled; the seat whose act it is goes through as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion import games
from companion.games.swiped.rules import next_swap
from companion.games.vnp.page import segments_of
from companion.journal import PressInput, read_journal
from companion.run.items import Scripted
from companion.screens.text import phrase

from .table import Client, LiveTable

Check = tuple[int, int, str, Any]
"""(intruder seat, the seat whose act it is, control, value)."""


def presses(table: LiveTable) -> list[tuple[str, int | None]]:
    journal = read_journal(table.data_dir / "game.jsonl").inputs
    return [(r.control, r.seat) for r in journal if isinstance(r, PressInput)]


def phones(table: LiveTable) -> list[Client]:
    out = []
    for seat in range(len(table.session.referee.names)):
        phone = table.client()
        assert phone.pair(table, seat).status == 200
        out.append(phone)
    return out


def passpass(table: LiveTable) -> list[Check]:
    """The attack: Cy announces while Dee is the Magicien, then takes Dee's announcement
    back. The announce buttons are the Magicien's console; back takes back one's own step."""
    referee = table.session.referee
    magician = referee.state.magician
    intruder = (magician + 1) % len(referee.names)
    token = referee.announce_values[1]
    return [(intruder, magician, "announce", token), (intruder, magician, "back", None)]


def flipdone(table: LiveTable) -> list[Check]:
    """The encoder's "no flip" is the seat to play's (FD-3)."""
    turn = table.session.referee.state.turn
    return [((turn + 1) % 2, turn, "choose", "discard")]


def swiped(table: LiveTable) -> list[Check]:
    """During the swaps (SW-4), "same pair, skip" is the swapper's push."""
    game = games.get("swiped")
    setup = table.session.referee.setup
    local = game.referee(setup)
    for record in game.simulate(setup).inputs:
        local.feed(record)
        table.put(Scripted(record))
        if next_swap(local.state) is not None:
            break
    table.settle()
    swapper = next_swap(table.session.referee.state)
    assert swapper is not None
    return [(1 - swapper, swapper, "choose", "skip")]


def vnp(table: LiveTable) -> list[Check]:
    """Back takes back only one's own placement; a hint is the seat to play's."""
    board = table.client().get("/api/state").json()["board"]
    seat, colour = board["seat"], board["turn"]
    segments = segments_of(board["size"], board["legal"][0])
    placer = phones(table)[seat]
    assert placer.act("place", {"colour": colour, "segments": segments}).status == 200
    return [(1 - seat, seat, "back", None), (1 - seat, seat, "hint", None)]


SCENARIOS: dict[str, tuple[int, Callable[[LiveTable], list[Check]]]] = {
    "ptipasspass": (4, passpass),
    "phipasspass": (3, passpass),
    "flipdone": (2, flipdone),
    "swiped": (2, swiped),
    "vnp": (2, vnp),
}
"""Each game's seats and how to bring it where a control is one seat's and not another's."""

ON_THE_PAGE = [name for name in games.names() if games.get(name).controls]


@pytest.mark.parametrize("name", ON_THE_PAGE)
def test_another_seats_act_is_refused_and_nothing_is_journaled(tmp_path, name):
    assert name in SCENARIOS, f"{name} takes presses from the page: give it a scenario here"
    seats, scenario = SCENARIOS[name]
    table = LiveTable(tmp_path, games.get(name).simulated_setup(seats, 3), script_clock=True)
    try:
        checks = scenario(table)
        phone = phones(table)
        lang = table.session.referee.setup.language
        sentences = {phrase("notice.not_your_turn", lang), phrase("notice.not_your_step", lang),
                     phrase("notice.not_your_colour", lang)}  # fmt: skip
        for intruder, owner, control, value in checks:
            before, events = presses(table), len(table.session.referee.events)
            answer = phone[intruder].act(control, value)
            assert answer.status == 403, (control, answer.body)
            assert answer.json()["error"] in sentences
            table.settle()
            assert presses(table) == before, control  # nothing journaled
            assert len(table.session.referee.events) == events
            answer = phone[owner].act(control, value)
            assert answer.status in (200, 409), (control, answer.body)  # judged as a press
            assert presses(table) == [*before, (control, owner)]
    finally:
        table.close()
