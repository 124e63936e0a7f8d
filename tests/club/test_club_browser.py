"""The club's page in a browser (Debian's Chromium, as tests/web): every table drawn with
its game's own page view, its OLED and status line; the standings and results after a
game; in the club's language; and one table's bad state or undrawable game touching its
own card only."""

from __future__ import annotations

import json

import pytest

from companion.club.board import Board
from companion.club.page import ClubServer
from companion.club.words import WORDS
from tests.club.test_club_page import counted, live_table, result
from tests.web.table import drawn

GAMES = {"table-a": "ptipasspass", "table-b": "flipdone", "table-c": "vnp"}


@pytest.fixture
def served(browser, request):
    """(board, page) of the club's page in ``request.param``'s language (default fr)."""
    lang = getattr(request, "param", "fr")
    board = Board()
    server = ClubServer(board, lang, "127.0.0.1", 0)
    port = server.start()
    context = browser.new_context()
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    try:
        yield board, page, port
    finally:
        context.close()
        server.stop()


@pytest.mark.parametrize("served", ["fr", "en"], indirect=True)
def test_every_table_is_drawn_with_its_games_own_view(served):
    board, page, port = served
    states = {name: live_table(board, name, game) for name, game in GAMES.items()}
    board.apply("table-c", "availability", b"offline")
    board.apply("table-a", "page", b"192.0.2.7:8080")
    page.goto(f"http://127.0.0.1:{port}/")
    lang = page.locator("html").get_attribute("lang")
    for name, state in states.items():
        card = page.locator(f'.table[data-table="{name}"]')
        card.locator(".game-view > *").first.wait_for()  # the game's own view, mounted
        assert state["language"] == "fr"  # the board's language, whatever the table's
        assert card.locator(".status").inner_text() == state["statuses"][lang]
        drawn(page, f'.table[data-table="{name}"] img')
    assert "offline" in page.locator('.table[data-table="table-c"]').get_attribute("class")
    link = page.locator('.table[data-table="table-a"] a.page')
    assert link.get_attribute("href") == "http://192.0.2.7:8080/"
    assert link.inner_text() == WORDS[lang]["page"]
    assert page.locator('.table[data-table="table-b"] a').count() == 0  # no page said
    counted(board, "table-b", result("table-b", "r1", ["Ana", "Bob", "Cy"], [1, 4, 0], 1))
    page.locator("#standings tr:nth-child(2) td").first.wait_for()
    first = page.locator("#standings tr:nth-child(2) td").all_inner_texts()
    assert first[:3] == ["Bob", "1", "1"]
    heading = page.locator("#h-standings").inner_text()
    assert heading == {"fr": "Classement", "en": "Standings"}[lang]
    # Each game by its title; a game whose lowest score wins says so (VNP-6).
    vnp = result("table-c", "r2", ["Ana", "Bob"], [31, 12], 1, game="vnp")
    counted(board, "table-c", vnp)
    ana = page.locator("#standings tr", has_text="Ana").first
    ana.locator("td", has_text="Vous ne passerez pas").wait_for()
    lowest = {"fr": "le plus bas gagne", "en": "lowest wins"}[lang]
    assert f"Vous ne passerez pas ! 31 ({lowest})" in ana.inner_text()
    assert "Flip Done 1" in page.locator("#standings").inner_text()
    replay = page.locator('.table[data-table="table-a"] a.replay')
    counted(board, "table-a", result("table-a", "r3", ["Ana", "Bob"], [2, 0], 0, "ptipasspass"))
    replay.wait_for()  # once its game is over, its replays
    assert replay.get_attribute("href") == "http://192.0.2.7:8080/replay"
    assert page.errors == []


def test_one_tables_bad_state_or_undrawable_game_touches_its_own_card_only(served):
    """Issue 37: a retained state {"seats":"abc"} left 0 cards, 0 standings and 0 results.
    Now the board refuses a state of no table page's shape (that card says so), and a
    state of the right shape whose game's own view cannot draw it (its ``board`` is the
    game's) leaves a sentence in that card's view: the other cards, the standings and the
    results are drawn all the same, at once and at every later change."""
    board, page, port = served
    words = WORDS["fr"]
    states = {name: live_table(board, name, game) for name, game in GAMES.items()}
    page.goto(f"http://127.0.0.1:{port}/")
    for name in GAMES:  # every view mounted: table-b's update now runs in the page's draw
        page.locator(f'.table[data-table="{name}"] .game-view > *').first.wait_for()
    undrawable = states["table-b"] | {"board": {"grid": "abc", "seats": 7, "lines": None}}
    board.apply("table-b", "state", json.dumps(undrawable).encode())
    board.apply("table-c", "state", b'{"seats":"abc"}')
    counted(board, "table-a", result("table-a", "r1", ["Ana", "Bob"], [3, 1], 0,
                                     "ptipasspass"))  # fmt: skip
    page.locator("#standings tr:nth-child(2) td").first.wait_for()
    assert page.locator("#results tr:nth-child(2) td").first.inner_text() == "table-a"
    assert page.locator("#standings tr:nth-child(2) td").all_inner_texts()[:3] == [
        "Ana", "1", "1"
    ]  # fmt: skip
    cards = {name: page.locator(f'.table[data-table="{name}"]') for name in GAMES}
    assert page.locator(".table").count() == 3
    b_view = cards["table-b"].locator(".game-view")
    b_view.get_by_text(words["broken"]).wait_for()
    assert cards["table-b"].locator(".status").inner_text() == undrawable["status"]
    assert cards["table-c"].locator(".status").inner_text() == words["state_shape"]
    assert cards["table-c"].locator(".refused").inner_text().startswith(words["refused"])
    a = cards["table-a"]
    assert a.locator(".status").inner_text() == states["table-a"]["status"]
    assert a.locator(".game-view > *").first.is_visible()
    # A change after the bad ones is drawn too, and a good state mends its card.
    board.apply("table-a", "availability", b"offline")
    page.wait_for_function(
        "() => document.querySelector('.table[data-table=\"table-a\"]').classList"
        ".contains('offline')"
    )
    board.apply("table-b", "state", json.dumps(states["table-b"]).encode())
    cards["table-b"].locator(".game-view svg").first.wait_for()
    assert page.errors == []


def test_the_page_fits_a_phones_width(served):
    """At 390 px (a phone) the page is no wider than the screen: a wide list of results or
    standings scrolls inside itself (it made the page 414 px wide)."""
    board, page, port = served
    for name, game in {**GAMES, "table-d": "swiped"}.items():
        live_table(board, name, game)
    seats = ["Anastasia", "Bartholomew", "Cyprienne"]
    counted(board, "table-b", result("table-b", "r1", seats, [1, 4, 0], 1))
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#results tr:nth-child(2) td").first.wait_for()
    for name in (*GAMES, "table-d"):
        page.locator(f'.table[data-table="{name}"] .game-view > *').first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []


def test_a_board_cut_off_from_the_broker_says_so_and_no_table_offline(served):
    """With its own link down the board cannot tell a table's state: the page says the
    board is cut off, each card's badge says "?" (it said every table "hors ligne")."""
    board, page, port = served
    for name, game in GAMES.items():
        live_table(board, name, game)
    board.apply("table-c", "availability", b"offline")
    board.set_linked(False)
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#cut-off:visible").wait_for()
    assert page.locator("#cut-off").inner_text() == WORDS["fr"]["cut_off"]
    badges = page.locator(".table .badge").all_inner_texts()
    assert badges == ["?"] * len(GAMES)
    assert page.locator(".table.offline").count() == 0
    board.set_linked(True)  # back: the tables' own states again
    page.locator("#cut-off").wait_for(state="hidden")
    page.locator('.table.offline[data-table="table-c"]').wait_for()
    assert page.locator('.table[data-table="table-a"] .badge').inner_text() == "en ligne"
    assert page.errors == []
