"""The page in a real browser, for a game played with tokens and buttons (PtiPassPass):
the live view follows the table, and the replay viewer steps through the journal."""

from __future__ import annotations

import pytest

from companion import games
from companion.run.items import Scripted

from .table import LiveTable


@pytest.fixture
def game_table(tmp_path):
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 5)
    played = game.simulate(setup)
    table = LiveTable(tmp_path, setup, script_clock=True)
    yield table, played.inputs
    table.close()


def test_the_live_view_follows_the_table(game_table, phone):
    table, inputs = game_table
    page = phone()
    page.goto(f"http://{table.host}:{table.port}/")
    page.wait_for_selector("#conn[data-state=live]", state="attached")
    # The stream may open before its first snapshot lands: wait for the page to show it.
    page.wait_for_function(
        "(where) => document.getElementById('status').textContent === where",
        arg=table.session.referee.where(table.session.referee.setup.language),
    )
    version = int(page.evaluate("document.body.dataset.version"))
    for record in inputs[:60]:
        table.put(Scripted(record))
    table.settle()
    where = table.session.referee.where(table.session.referee.setup.language)
    page.wait_for_function(
        "(where) => document.getElementById('status').textContent === where", arg=where
    )
    assert int(page.evaluate("document.body.dataset.version")) > version
    lines = page.locator("#history li").all_inner_texts()
    assert lines and lines[-1] == table.web.publisher.history[-1]
    assert page.locator("#frame").evaluate("img => img.complete && img.naturalWidth") == 128
    assert page.locator("#board").is_hidden()


def test_the_replay_viewer_steps_through_a_journal(game_table, phone):
    table, inputs = game_table
    for record in inputs[:40]:
        table.put(Scripted(record))
    table.settle()
    page = phone()
    page.goto(f"http://{table.host}:{table.port}/replay")
    page.locator("#journals li a").first.click()
    page.wait_for_selector("#step-label")
    first = page.locator("#replay-frame").get_attribute("src")
    page.locator("#next").click()
    page.locator("#next").click()
    page.wait_for_function(
        "(src) => document.getElementById('replay-frame').getAttribute('src') !== src", arg=first
    )
    assert page.locator("#step-label").inner_text().startswith("2 /")
    assert page.locator("#replay-frame").evaluate("img => img.complete && img.naturalWidth") == 128
