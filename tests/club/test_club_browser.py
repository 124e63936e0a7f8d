"""The club's page in a browser (Debian's Chromium, as tests/web): every table drawn with
its game's own page view, its OLED and status line; the standings and results after a
game; in the club's language."""

from __future__ import annotations

import pytest

from companion.club.board import Board
from companion.club.page import ClubServer
from tests.club.test_club_page import live_table, result

GAMES = {"table-a": "ptipasspass", "table-b": "flipdone", "table-c": "vnp"}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_table_is_drawn_with_its_games_own_view(browser, lang):
    board = Board()
    states = {name: live_table(board, name, game) for name, game in GAMES.items()}
    board.apply("table-c", "availability", b"offline")
    server = ClubServer(board, lang, "127.0.0.1", 0)
    port = server.start()
    context = browser.new_context()
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://127.0.0.1:{port}/")
        for name, state in states.items():
            card = page.locator(f'.table[data-table="{name}"]')
            card.locator(".game-view > *").first.wait_for()  # the game's own view, mounted
            assert card.locator(".status").inner_text() == state["status"]
            assert card.locator("img").evaluate("i => i.complete && i.naturalWidth") == 128
        assert "offline" in page.locator('.table[data-table="table-c"]').get_attribute("class")
        board.apply(
            "table-b", "result", result("table-b", "r1", ["Ana", "Bob", "Cy"], [1, 4, 0], 1)
        )
        page.locator("#standings tr:nth-child(2) td").first.wait_for()
        first = page.locator("#standings tr:nth-child(2) td").all_inner_texts()
        assert first[:3] == ["Bob", "1", "1"]
        heading = page.locator("#h-standings").inner_text()
        assert heading == {"fr": "Classement", "en": "Standings"}[lang]
        assert errors == []
    finally:
        context.close()
        server.stop()
