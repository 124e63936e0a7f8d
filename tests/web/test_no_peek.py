"""No hidden fact leaves the server through the page (the same rule as the OLED's).

Each simulated game is replayed twice through the production path of the page
(`Publisher`, as the referee loop runs it): once as played, once with two hidden tokens'
tags exchanged, so every physical act is identical but what lies under the cups (or in a
player's hand) differs. Every public snapshot, frame included, must be identical as long
as the game's public events are (they part when the game itself shows a hidden token: a
verdict, a reveal, a Visible drop, a claim; the referees' own no-peek tests check that
nothing earlier does).
"""

from __future__ import annotations

import dataclasses

import pytest

from companion import games
from companion.journal import Setup
from companion.web.public import Publisher


def exchanged(setup: Setup, a: str, b: str) -> Setup:
    swap = {a: b, b: a}
    return dataclasses.replace(
        setup, tags={uid: swap.get(kind, kind) for uid, kind in setup.tags.items()}
    )


def compare(game: str, setup: Setup, a: str, b: str) -> int:
    """Feed the game's inputs to both twins; the number of snapshots compared."""
    played = games.get(game).simulate(setup)
    twins = [games.get(game).referee(s) for s in (setup, exchanged(setup, a, b))]
    publishers = [Publisher(r) for r in twins]
    compared = 0
    for record in played.inputs:
        for twin in twins:
            twin.feed(record)
        if twins[0].events != twins[1].events:
            break
        one, two = (p.snapshot() for p in publishers)
        assert (one is None) == (two is None)
        if one is not None and two is not None:
            assert one.view == two.view, record
            assert one.frame.tobytes() == two.frame.tobytes(), record
            compared += 1
    return compared


@pytest.mark.parametrize("game", ["ptipasspass", "phipasspass"])
def test_passpass_pages_do_not_depend_on_what_is_under_the_cups(game):
    compared = 0
    for seed in range(60):  # PassPass shows tokens early: many games, few steps each
        setup = games.get(game).simulated_setup(3 + seed % 3, seed)
        kinds = sorted({k for k in setup.tags.values() if not k.startswith("challenge")})
        a, b = kinds[seed % len(kinds)], kinds[(seed + 1) % len(kinds)]
        compared += compare(game, setup, a, b)
    assert compared > 250


def test_swiped_pages_do_not_depend_on_the_cards_in_hand():
    compared = 0
    for seed in range(12):
        setup = games.get("swiped").simulated_setup(2, seed)
        played = games.get("swiped").simulate(setup)
        targets = played.referee.state.targets
        unused = {played.referee.state.layout_card, *targets}
        other = next(c for c in range(1, 25) if c not in unused)
        compared += compare("swiped", setup, f"layout:{targets[seed % 2]}", f"layout:{other}")
    assert compared > 200
