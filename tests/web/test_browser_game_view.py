"""A game's own page view in a real browser (Debian's Chromium): the page knows no game,
yet it mounts the view a game ships in its package (`Game.page_assets`) and hands it every
snapshot. The game is the test game (tests/games/tally/static/), which no file of the
page's core can name."""

from __future__ import annotations

import pytest

from companion.run.items import Scripted
from tests.games import registered

from .table import LiveTable


@pytest.fixture
def tally_table(tmp_path):
    with registered("tests.games.tally") as found:
        game = found["tally"]
        setup = game.simulated_setup(3, 3)
        played = game.simulate(setup)
        table = LiveTable(tmp_path, setup, script_clock=True)
        yield table, played.inputs
        table.close()


def rows(page):
    return page.locator(".tally-seats li").all_inner_texts()


def test_the_page_mounts_the_games_own_view_and_gives_it_every_snapshot(tally_table, phone):
    table, inputs = tally_table
    names = table.session.referee.names
    page = phone()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"http://{table.host}:{table.port}/")

    # Its own words (French, the table's language), its own style sheet (the row of the
    # seat to play is bold), in the page's container.
    page.wait_for_selector("#view .tally-seats li", state="visible")
    assert page.locator("#view h2").inner_text() == "Cailloux dans le chapeau"
    assert rows(page) == [f"{names[0]} ○○ · à jouer", f"{names[1]} ○○", f"{names[2]} ○○"]
    bold = page.locator(".tally-seats li.turn").evaluate("li => getComputedStyle(li).fontWeight")
    assert bold == "700"

    # The whole game: the view follows it to the end, and says so with the page's own word
    # ("finished"), which it does not have.
    for record in inputs:
        table.put(Scripted(record))
    table.settle()
    assert table.session.referee.finished
    page.wait_for_function(
        "() => document.querySelector('#view h2').textContent === 'Partie terminée'"
    )
    dropped = table.session.referee.state.dropped
    pebbles = [f"{name} {'●' * d}{'○' * (2 - d)}" for name, d in zip(names, dropped, strict=True)]
    assert rows(page) == pebbles
    assert errors == []
