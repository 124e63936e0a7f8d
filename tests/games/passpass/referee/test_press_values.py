"""A press's value is read as the journal defines it, never guessed (docs/journal.md,
"press"): PassPass's line to reveal is three whole spot numbers, `[4, 5, 6]`. A phone, a
file or a bug may send anything; what is not a line is refused (`not_a_line`), never read
as one (the string "123" is not the line 1-2-3, nor 1.9 spot 1)."""

from __future__ import annotations

from typing import Any

import pytest

from companion import games
from companion.games.passpass.referee import PassPassReferee
from companion.games.passpass.rules import Phase
from companion.journal import PressInput


def revealing() -> PassPassReferee:
    """A PtiPassPass game at its first reveal, the table judged and nothing pending."""
    game = games.get("ptipasspass")
    setup = game.simulated_setup(3, 1)
    referee = PassPassReferee(setup)
    for record in game.simulate(setup).inputs:
        referee.feed(record)
        quiet = not referee.unjudged and referee.fault is None and referee.pending is None
        if referee.state.phase is Phase.REVEAL and quiet:
            return referee
    raise AssertionError("no reveal")


@pytest.mark.parametrize(
    "value", ["123", [1.9, 2.2, 3.7], [True, True, False], ["1", "2", "3"], [1, 2], {"1": 2}]
)
def test_a_value_that_is_not_three_whole_spots_is_no_line(value: Any) -> None:
    referee = revealing()
    state, t = referee.state, referee.now + 0.1
    referee.feed(PressInput(t, "aim", referee.state.magician, value))
    assert referee.aim is None
    (refused,) = referee.feed(PressInput(t, "choose", referee.state.magician, value))
    assert (refused["kind"], refused["reason"]) == ("ignored", "not_a_line")
    assert referee.state == state


def test_three_whole_spots_are_the_line_revealed() -> None:
    referee = revealing()
    line = next(iter(referee.state.config.layout.lines))
    events = referee.feed(PressInput(referee.now + 0.1, "choose", None, list(line)))
    assert [e["spots"] for e in events if e["kind"] == "reveal"] == [list(line)]
