"""The page when the table refuses it a live stream (issue 37), in a real browser (Debian's
Chromium): it says so in the table's language, keeps up by polling the state, and goes
live again once a stream is free."""

from __future__ import annotations

import dataclasses
import socket

import pytest

from companion import games
from companion.run.items import Scripted
from companion.web.errors import said
from companion.web.gate import Limits

from .table import LiveTable

NOTE = {
    "fr": (
        "Cette page se met à jour toutes les 2 s, et repasse en direct dès qu’une place se libère."
    ),
    "en": "This page updates every 2 s, and goes live again as soon as a stream is free.",
}
"""i18n.js's `poll.note` (POLL_SECONDS = 2, live.js)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_page_refused_a_stream_polls_says_so_and_goes_live_again(tmp_path, phone, lang):
    game = games.get("ptipasspass")
    setup = dataclasses.replace(game.simulated_setup(4, 5), language=lang)
    inputs = game.simulate(setup).inputs
    table = LiveTable(tmp_path, setup, script_clock=True, limits=Limits(streams=1))
    hog = socket.create_connection((table.host, table.port), source_address=("127.0.0.2", 0))
    try:  # the only stream, another address's: the page (127.0.0.1) is refused one
        hog.sendall(f"GET /api/live HTTP/1.1\r\nHost: {table.host}:{table.port}\r\n\r\n".encode())
        assert hog.recv(200).startswith(b"HTTP/1.1 200")
        page = phone()
        page.goto(f"http://{table.host}:{table.port}/")
        page.wait_for_selector("#conn[data-state=polling]", state="attached")
        note = page.locator("#polling")
        assert note.is_visible()
        assert note.inner_text() == f"{said('streams.all', lang)} {NOTE[lang]}"
        version = int(page.evaluate("document.body.dataset.version"))
        for record in inputs[:40]:
            table.put(Scripted(record))
        table.settle()
        where = table.session.referee.where(lang)
        page.wait_for_function(  # by polling: no stream was had meanwhile
            "(where) => document.getElementById('status').textContent === where", arg=where
        )
        assert int(page.evaluate("document.body.dataset.version")) > version
        assert page.locator("#conn").get_attribute("data-state") == "polling"
        assert page.locator("#history li").last.inner_text() == table.web.publisher.history[-1]
        hog.close()  # a stream is free: the page has it at its next try (Retry-After, 5 s)
        page.wait_for_selector("#conn[data-state=live]", state="attached", timeout=15_000)
        assert not note.is_visible()
        for record in inputs[40:60]:
            table.put(Scripted(record))
        table.settle()
        where = table.session.referee.where(lang)
        page.wait_for_function(
            "(where) => document.getElementById('status').textContent === where", arg=where
        )
    finally:
        hog.close()
        table.close()
