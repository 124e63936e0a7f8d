"""Whose act a phone's press is (`TableReferee.seat_refusal`), through whole simulated
games of every game: at any moment a console control (the announce buttons, the encoder, a
hint) is at most one seat's, and so is `back` while there is a step to take back; a seat's
own buttons (Doublon, Menteur) are always its own. The web page's side is in
tests/web/test_seats.py."""

from __future__ import annotations

import pytest

from companion import games
from companion.games import TableReferee
from companion.screens.model import Refusal

OWN_BUTTONS = {"doublon", "menteur"}
VALUES = {"announce": None, "choose": "skip", "aim": [1, 2, 3], "hint": None, "back": None}


def allowed(referee: TableReferee, control: str) -> list[int]:
    value = referee.announce_values[0] if control == "announce" else VALUES.get(control)
    seats = range(len(referee.names))
    return [s for s in seats if referee.seat_refusal(s, control, value) is None]


@pytest.mark.parametrize("name", games.names())
def test_a_console_control_and_back_are_one_seats_at_a_time(name):
    game = games.get(name)
    setup = game.simulated_setup(game.default_seats, 5)
    referee = game.referee(setup)
    seen: dict[str, set[int]] = {c: set() for c in game.controls}
    for record in game.simulate(setup).inputs:
        referee.feed(record)
        for control in game.controls:
            seats = allowed(referee, control)
            seen[control] |= set(seats)
            if control in OWN_BUTTONS:
                assert seats == list(range(len(referee.names))), control
            elif control == "back":
                history = getattr(referee, "history", None)
                step = history.last() if history is not None else None
                if step is not None and step[1] != "layout":  # Swiped's layout: everyone's
                    assert len(seats) <= 1, (control, step[1], seats)
            elif control not in ("place", "pass"):  # VNP: a colour's, checked on the page
                assert len(seats) <= 1, (control, seats, record)
    for control in game.controls:  # every control is someone's at some point
        assert seen[control], control


def test_the_console_is_the_magiciens_in_passpass():
    """PTI: the announcement is the Magicien's; the others are told it is not their turn."""
    game = games.get("ptipasspass")
    referee = game.referee(game.simulated_setup(4, 3))
    magician = referee.state.magician
    for seat in range(4):
        why = referee.seat_refusal(seat, "announce", "lapin")
        assert why is (None if seat == magician else Refusal.NOT_YOUR_TURN)
