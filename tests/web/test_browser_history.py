"""The history box keeps its newest line in view, in a real browser (Debian's Chromium):
on a desktop, where the game's view mounts beside it once its module has loaded (the box
narrows, its lines wrap, and its content grows under a scroll set before), on a phone,
and while the game goes on; a reader who scrolled up to read an old line is left there
until the next line comes (issue 43: a finished PtiPassPass showed line 121 of 126,
hiding the winning reveal)."""

from __future__ import annotations

import pytest

from companion import games
from companion.run.items import Scripted

from .table import LiveTable

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
AT_BOTTOM = """() => { const h = document.getElementById('history');
  return h.children.length > 0 && h.scrollHeight > h.clientHeight + 20
    && Math.abs(h.scrollHeight - h.clientHeight - h.scrollTop) <= 2; }"""


@pytest.fixture(scope="module")
def finished_table(tmp_path_factory):
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 5)
    table = LiveTable(tmp_path_factory.mktemp("history"), setup, script_clock=True)
    inputs = game.simulate(setup).inputs
    yield table, inputs
    table.close()


def newest_line_in_view(page) -> bool:
    """The last line's box lies within the history box's."""
    return bool(
        page.evaluate(
            """() => { const h = document.getElementById('history');
            const last = h.lastElementChild.getBoundingClientRect();
            const box = h.getBoundingClientRect();
            return last.bottom <= box.bottom + 1 && last.top >= box.top - 1; }"""
        )
    )


def test_the_newest_line_stays_in_view_as_the_game_goes_on_and_ends(finished_table, browser):
    table, inputs = finished_table
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"http://{table.host}:{table.port}/")
        page.wait_for_selector("#view .pp-hat")
        for record in inputs:
            table.put(Scripted(record))
        table.settle()
        assert table.session.referee.finished
        page.wait_for_selector("#result:visible")
        page.wait_for_function(AT_BOTTOM)
        assert newest_line_in_view(page)
        last = table.web.publisher.history[-1]
        assert page.locator("#history li").last.inner_text() == last

        # A finished game opened afresh on a desktop: the view mounts after the history
        # is drawn, and narrows it.
        fresh = context.new_page()
        fresh.goto(f"http://{table.host}:{table.port}/")
        fresh.wait_for_selector("#view .pp-hat")
        fresh.wait_for_function(AT_BOTTOM)
        assert newest_line_in_view(fresh)
        # Scrolled up to read: left there, until the view's width changes nothing.
        fresh.evaluate("document.getElementById('history').scrollTop = 0")
        fresh.set_viewport_size({"width": 1100, "height": 900})
        fresh.wait_for_timeout(200)
        assert fresh.evaluate("document.getElementById('history').scrollTop") == 0
    finally:
        context.close()


def test_on_a_phone_too(finished_table, phone):
    table, inputs = finished_table
    for record in inputs:
        table.put(Scripted(record))
    table.settle()
    page = phone()
    page.goto(f"http://{table.host}:{table.port}/")
    page.wait_for_selector("#view .pp-hat")
    page.wait_for_function(AT_BOTTOM)
    assert newest_line_in_view(page)
