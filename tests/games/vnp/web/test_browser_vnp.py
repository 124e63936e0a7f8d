"""Vous ne passerez pas ! played on the page, in a real browser (Debian's Chromium):
two phones pair (one by the QR code's address, one by typing the code), play a whole
two-player game on a small board, see a refused pass (VNP-5) and a refused placement
(VNP-3) said beside the button pressed, while a third page watches the board change
live."""

from __future__ import annotations

import dataclasses

import pytest

from companion import games
from companion.journal import PressInput, read_journal
from companion.screens.pairing import PairingScreen
from tests.web.table import LiveTable

SIZE = 7
"""VNP-2's board is configurable; a 7 x 7 board makes a whole game short."""


@pytest.fixture
def vnp_table(tmp_path):
    setup = games.get("vnp").simulated_setup(2, 1)
    setup = dataclasses.replace(setup, rules={**(setup.rules or {}), "size": SIZE})
    table = LiveTable(tmp_path, setup)
    table.unhurried()  # the test confirms a hint as soon as it shows
    yield table
    table.close()


def pair(page, table, seat, *, by_qr):
    code = table.web.pairings.code
    base = f"http://{table.host}:{table.port}"
    if by_qr:
        page.goto(f"{base}/P/{code}")  # what the OLED's QR code opens
        assert page.locator("#pair-code").input_value() == code
        assert "pair=" not in page.url  # the code leaves the address bar
    else:
        page.goto(base)
        page.wait_for_selector("#pair-form:visible")
        page.fill("#pair-code", code)
    page.select_option("#pair-seat", str(seat))
    page.click("#pair-submit")
    page.wait_for_selector("#you:visible")
    assert table.session.referee.names[seat] in page.locator("#you").inner_text()


def state(table):
    return table.client().get("/api/state").json()


def test_two_phones_play_a_game_a_third_page_watches(vnp_table, phone, tmp_path):
    table = vnp_table
    names = table.session.referee.names
    watcher = phone()
    watcher.goto(f"http://{table.host}:{table.port}/")
    watcher.wait_for_selector("svg#board circle.point", state="attached")
    assert watcher.locator("circle.point").count() == SIZE * SIZE

    # VNP-2, VNP-7: jaune starts, played by seat 1 in two-player mode; the OLED asks it
    # to pair a phone, with the code and the QR code.
    card = table.web.overlay()
    assert isinstance(card, PairingScreen) and card.seat == names[1]
    phones = {1: phone(), 0: phone()}
    pair(phones[1], table, 1, by_qr=True)
    pair(phones[0], table, 0, by_qr=False)
    table.settle()
    assert table.web.overlay() is None

    # VNP-5: a pass while a placement exists is refused, and said beside the button (the
    # top of the page is out of sight on a phone).
    bob = phones[1]
    bob.click("#pass")
    note = bob.locator(".actions:has(#pass) + p.refusal")
    note.wait_for()
    assert note.inner_text() and bob.locator("#message").inner_text() == ""
    table.settle()
    assert table.session.referee.events[-1]["reason"] == "may_not_pass"

    # Bob picks a piece, turns it, sees where it may go, taps there and confirms.
    bob.click(".tray-piece[data-piece='4a']")
    bob.click("#rotate")
    legal = bob.locator("circle.point.legal")
    assert legal.count() > 0
    legal.first.click()
    assert bob.locator(".ghost:not(.illegal)").count() == 1
    bob.click("#confirm")
    watcher.wait_for_selector("g.placed[data-colour='jaune'][data-piece='4a']", state="attached")
    assert watcher.locator("#message").inner_text() == ""

    # VNP-3: Ana's first bleu piece must touch bleu's start; elsewhere it is refused.
    ana = phones[0]
    ana.wait_for_selector(".tray-piece[data-piece='1a']")
    ana.click(".tray-piece[data-piece='1a']")
    ana.click(f"circle.point[data-x='{SIZE // 2}'][data-y='{SIZE - 1}']")
    assert ana.locator(".ghost.illegal").count() == 1
    ana.click("#confirm")
    ana.locator(".actions:has(#confirm) + p.refusal", has_text="VNP-3").wait_for()
    assert watcher.locator("g.placed[data-colour='bleu']").count() == 0

    # The rest of the game: each seat asks for a hint and confirms it, or passes.
    for _ in range(200):
        now = state(table)
        if now["finished"]:
            break
        board = now["board"]
        page = phones[board["seat"]]
        placed = sum(len(p) for p in board["placed"])
        if board["legal"]:
            page.click("#hint")
            page.wait_for_selector(".ghost:not(.illegal)", state="attached")
            page.click("#confirm")
            watcher.wait_for_function(
                f"() => document.querySelectorAll('g.placed').length > {placed}"
            )
        else:
            page.click("#pass")
            watcher.wait_for_function(f"() => document.body.dataset.version > {now['version']}")
        if placed == 8:
            watcher.screenshot(path=str(tmp_path / "board.png"))
    else:
        pytest.fail("the game did not end")

    # VNP-6, VNP-7: the end, the side scores (with the -10 bonus where it applies).
    watcher.wait_for_selector("#result:visible")
    final = table.session.referee.result()
    lowest = min(final["side_scores"])
    assert final["winners"] == [i for i, s in enumerate(final["side_scores"]) if s == lowest]
    text = watcher.locator("#side-scores").inner_text()
    for name, score in zip(final["sides"], final["side_scores"], strict=True):
        assert name in text and str(score) in text
    # Every act came from a paired phone, as that phone's seat.
    presses = [r for r in read_journal(table.data_dir / "game.jsonl").inputs
               if isinstance(r, PressInput)]  # fmt: skip
    assert presses and all(p.seat in (0, 1) for p in presses)
