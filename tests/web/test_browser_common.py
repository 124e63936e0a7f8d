"""The page in a real browser, for a game played with tokens and buttons (PtiPassPass):
the live view follows the table, the replay viewer steps through the journal, and a phone
guessing the pairing code is told to wait."""

from __future__ import annotations

import pytest

from companion import games
from companion.run.items import Scripted
from companion.web.errors import said
from companion.web.pairing import FIRST_WAIT, FREE_TRIES

from .table import LiveTable, drawn


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
    drawn(page, "#frame")
    assert page.locator("#view .pp-hat").count() == 12  # the game's own table: PTI-2's hats


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
    drawn(page, "#replay-frame")


def test_a_phone_guessing_the_code_is_told_to_wait_in_the_tables_language(game_table, phone):
    """Wrong codes: the referee's French sentences on the page, then the lockout's, and
    the button waits as long; another phone (another address) with the OLED's code pairs
    at once."""
    table, _ = game_table
    code = table.web.pairings.code
    guesser = phone()
    guesser.goto(f"http://{table.host}:{table.port}/")
    guesser.locator("#pair-open").click()
    guesser.select_option("#pair-seat", "1")
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(FREE_TRIES):
        guesser.fill("#pair-code", wrong)
        guesser.locator("#pair-submit").click()
        guesser.wait_for_function(
            "(text) => document.getElementById('message').textContent === text",
            arg=said("pair.wrong", "fr"),
        )
        guesser.evaluate("document.getElementById('message').textContent = ''")
    guesser.fill("#pair-code", wrong)
    guesser.locator("#pair-submit").click()
    guesser.wait_for_function(
        "(text) => document.getElementById('message').textContent === text",
        arg=said("pair.wait", "fr", seconds=int(FIRST_WAIT)),
    )
    assert guesser.locator("#pair-submit").is_disabled()
    assert table.web.pairings.code == code  # guesses never change it
    assert table.client("127.0.0.2").pair(table, 2).status == 200  # another phone
