"""The page's snapshot keeps the latest history lines only, and counts them all: a long
game's page costs the service no more memory than a short one."""

from __future__ import annotations

import pytest

from companion import games
from companion.transcript import describe
from companion.web import public


def test_the_history_keeps_its_last_lines_and_counts_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(public, "HISTORY_LINES", 5)
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 7)
    played = game.simulate(setup)
    referee = game.referee(setup)
    publisher = public.Publisher(referee)
    for record in played.inputs:
        referee.feed(record)
        publisher.snapshot()
    lines = [describe(e, referee.names, setup.game, setup.language) for e in referee.events]
    every = [line for line in lines if line is not None]
    assert len(every) > 5
    assert list(publisher.history) == every[-5:]
    assert publisher.history_total == len(every)
