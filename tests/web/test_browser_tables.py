"""Each game's table on the page, in a real browser (Debian's Chromium): the drawing
follows a simulated game on a live table and shows what the engine's public view says
(the hats and their counts, the cards and the bâtonnets, the big cubes); the replay
draws every step as the live page drew it, with the history up to that step and the
result only at the end; and the replay list tells each game's date, title, seats, steps
and winner, with its record to download.

One live table per game, shared by its tests; one browser for all (`browser`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

import pytest

from companion import games
from companion.games.flipdone.rules import public_view as flipdone_view
from companion.games.passpass.rules import public_view as passpass_view
from companion.games.swiped.rules import public_view as swiped_view
from companion.games.vnp.rules import PIECES, geometry
from companion.run.items import Scripted

from .conftest import PHONE
from .table import LiveTable, archive_game

GAMES = {"ptipasspass": (4, 5), "flipdone": (3, 2), "swiped": (2, 3), "vnp": (2, 1)}
"""Each game played: (seats, seed)."""
VIEW_ROOT = {"ptipasspass": ".pp-hat", "flipdone": ".fd-square", "swiped": ".sw-cube",
             "vnp": "g.placed, svg#board circle.point"}  # fmt: skip

INTERESTING: dict[str, Callable[[dict[str, Any]], bool]] = {
    "ptipasspass": lambda b: b["in_flight"] is not None and sum(b["hats"]) >= 3,
    "flipdone": lambda b: any(x["owner"] is not None for x in b["lines"]) and any(b["flipped"]),
    "swiped": lambda b: b["phase"] == "execute" and b["step"] >= 2,
    "vnp": lambda b: sum(len(p) for p in b["placed"]) >= 6,
}
"""A moment of the game worth stopping at: a token in flight, an owned line and a flipped
card, swaps done, pieces on the board."""


@dataclasses.dataclass
class Stop:
    """The live page at one moment of the game."""

    step: int
    """The replay's step of that moment (the journal's last step then)."""
    html: str
    """The game's view, as drawn."""
    dom: dict[str, Any]
    """What the drawing says, read off its elements."""
    public: dict[str, Any]
    """What the engine's public view says then."""
    finished: bool


@dataclasses.dataclass
class Played:
    name: str
    table: LiveTable
    stops: list[Stop]


def stops_of(name: str, setup: Any, inputs: list[Any]) -> list[int]:
    """Where to stop: the first interesting moment past a third of the game, and its end."""
    game = games.get(name)
    assert game.page_view is not None
    referee = game.referee(setup)
    for n, record in enumerate(inputs, start=1):
        referee.feed(record)
        if n >= len(inputs) // 3 and INTERESTING[name](game.page_view(referee)):
            return [n, len(inputs)]
    raise AssertionError(f"{name}: no interesting moment")


@pytest.fixture(scope="module", params=list(GAMES))
def played(request, browser, tmp_path_factory):
    name = request.param
    seats, seed = GAMES[name]
    game = games.get(name)
    setup = game.simulated_setup(seats, seed)
    inputs = game.simulate(setup).inputs
    table = LiveTable(tmp_path_factory.mktemp(name), setup, script_clock=True)
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"http://{table.host}:{table.port}/")
        page.wait_for_selector(f"#view {VIEW_ROOT[name]}", state="attached")
        stops, fed = [], 0
        for stop in stops_of(name, setup, inputs):
            for record in inputs[fed:stop]:
                table.put(Scripted(record))
            fed = stop
            table.settle()
            page.wait_for_function(
                "(v) => Number(document.body.dataset.version) >= v",
                arg=table.web.publisher.version,
            )
            steps = table.client().get("/api/journals").json()["journals"][0]["steps"]
            referee = table.session.referee
            stops.append(
                Stop(
                    steps - 1,
                    page.inner_html("#view"),
                    read(page, name),
                    public(name, referee),
                    referee.finished,
                )  # fmt: skip
            )
        assert not [e for e in errors if "ERR_INCOMPLETE_CHUNKED_ENCODING" not in e], errors
        yield Played(name, table, stops)
    finally:
        context.close()
        table.close()


# ------------------------------------------------------------------ what the drawing says


READERS = {
    "ptipasspass": """() => ({
        hats: [...document.querySelectorAll('#view .pp-hat')].map((h) => [
            Number(h.dataset.spot), Number(h.dataset.count), h.classList.contains('in-flight')]),
        seats: [...document.querySelectorAll('#view .pp-seats tbody tr')].map((r) => ({
            magician: r.classList.contains('magician'),
            hand: Number(r.querySelector('.pp-hand').dataset.count),
            challenge: Number(r.querySelector('.pp-challenge').dataset.count),
            victories: Number(r.querySelector('.pp-victories').dataset.count)})),
        face: document.querySelector('#view .pp-face').dataset.face,
        faceText: document.querySelector('#view .pp-face').textContent,
    })""",
    "flipdone": """() => ({
        squares: [...document.querySelectorAll('#view .fd-square')].map((g) => [
            g.dataset.face, g.dataset.colour || null, g.dataset.flipped === 'true']),
        owners: [...document.querySelectorAll('#view .fd-baton')].map(
            (l) => (l.dataset.owner === undefined ? null : Number(l.dataset.owner))),
        ownerColours: [...document.querySelectorAll('#view .fd-baton.owned')].map(
            (l) => getComputedStyle(l).stroke),
        tokens: [...document.querySelectorAll('#view .fd-tokens')].map(
            (c) => Number(c.dataset.count)),
        turn: [...document.querySelectorAll('#view .fd-seats tbody tr')].map(
            (r) => r.classList.contains('turn')),
    })""",
    "swiped": """() => ({
        cubes: [...document.querySelectorAll('#view .sw-cube')].map((c) => [
            c.dataset.colour || null, getComputedStyle(c).backgroundColor, c.textContent]),
        done: [...document.querySelectorAll('#view .sw-swap.done')].map((s) => s.dataset.colours),
        claims: [...document.querySelectorAll('#view .sw-claims li[data-correct]')].map(
            (c) => [Number(c.dataset.seat), c.dataset.correct === 'true']),
    })""",
    "vnp": """() => ({
        placed: [...document.querySelectorAll('#view g.placed')].map(
            (g) => [g.dataset.colour, g.dataset.piece]),
    })""",
}


def read(page: Any, name: str) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(READERS[name])
    return result


def public(name: str, referee: Any) -> dict[str, Any]:
    """What the engine's public view says now (never the page's own `page_view`)."""
    if name == "ptipasspass":
        v = passpass_view(referee.state)
        return {"view": v, "in_flight": v.spot if v.phase in ("announce", "window") else None}
    if name == "flipdone":
        return {"view": flipdone_view(referee.state)}
    if name == "swiped":
        claims = [[e["seat"], e["correct"]] for e in referee.events if e["kind"] == "claim"]
        return {"view": swiped_view(referee.state), "claims": claims}
    board = referee.board_view()
    piece_of = geometry(board["size"]).piece_of
    return {"placed": sorted((c, PIECES[piece_of[pid]].name) for c, ids in zip(
        board["colours"], board["placed"], strict=True) for pid in ids)}  # fmt: skip


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


# ------------------------------------------------------------------ the live page


def check_passpass(stop: Stop) -> None:
    v, dom = stop.public["view"], stop.dom
    assert [count for _, count, _ in dom["hats"]] == list(v.hat_counts)  # PTI-2's grid, 1..N
    assert [spot for spot, _, _ in dom["hats"]] == list(range(1, len(v.hat_counts) + 1))
    assert [spot for spot, _, flying in dom["hats"] if flying] == (
        [stop.public["in_flight"]] if stop.public["in_flight"] else []
    )
    assert [s["hand"] for s in dom["seats"]] == list(v.hand_counts)
    assert [s["challenge"] for s in dom["seats"]] == list(v.challenge_tokens)
    assert [s["victories"] for s in dom["seats"]] == list(v.victories)
    magician = [] if v.winner is not None else [v.magician]
    assert [i for i, s in enumerate(dom["seats"]) if s["magician"]] == magician
    assert dom["face"] == ("masque" if v.masque else "visible")  # PTI-4
    assert dom["faceText"] == ("Masqué" if v.masque else "Visible")  # the table's language


def check_flipdone(stop: Stop) -> None:
    v, dom = stop.public["view"], stop.dom
    for (face, colour, flipped), up, dealt, was in zip(
        dom["squares"], v.faces, v.dealt, v.flipped, strict=True
    ):
        assert face == (up or ("down" if dealt else "none"))
        assert colour == (None if up is None else "red" if up[-1] in "HD" else "black")  # FD-1
        assert flipped == was
    assert dom["owners"] == list(v.owners)  # FD-5's bâtonnets, in their owner's colour
    seat_colours = {0: "rgb(201, 154, 0)", 1: "rgb(31, 95, 209)", 2: "rgb(31, 157, 58)"}
    assert dom["ownerColours"] == [seat_colours[o] for o in v.owners if o is not None]
    assert dom["tokens"] == list(v.tokens)
    assert dom["turn"] == [v.stage != "over" and s == v.turn for s in range(3)]


def check_swiped(stop: Stop) -> None:
    from companion.games.swiped.page import HEX

    v, dom = stop.public["view"], stop.dom
    squares = zip(dom["cubes"], v.grid, strict=True)
    for i, ((colour, background, text), square) in enumerate(squares, start=1):
        assert colour == square and background == rgb(HEX[square])  # SW-1, in its colour
        assert text == f"{i}{square.capitalize()}"  # its whole name in French, not "Bla"
    assert len(dom["done"]) == v.step  # SW-4: the swaps done this manche
    assert dom["claims"] == stop.public["claims"]  # SW-5, with their verdicts


def check_vnp(stop: Stop) -> None:
    assert sorted(map(tuple, stop.dom["placed"])) == stop.public["placed"]


CHECKS = {"ptipasspass": check_passpass, "flipdone": check_flipdone, "swiped": check_swiped,
          "vnp": check_vnp}  # fmt: skip


def test_the_table_drawn_follows_the_game_and_shows_its_public_state(played):
    assert len(played.stops) == 2 and played.stops[-1].finished
    for stop in played.stops:
        CHECKS[played.name](stop)
    assert played.stops[0].html != played.stops[1].html


# ------------------------------------------------------------------ the replay


def show_step(page: Any, k: int) -> None:
    page.evaluate(
        """(k) => { const s = document.getElementById('step');
                    s.value = String(k); s.dispatchEvent(new Event('input')); }""",
        k,
    )
    page.wait_for_selector(f'body[data-step="{k}"]', state="attached")


def test_the_replay_draws_each_step_as_the_live_page_did(played, browser):
    """Step k of the replay: the same table as the live page at that moment, the history
    up to it, and the result only at the last step."""
    table = played.table
    document = table.client().get("/api/journals/game.jsonl").json()
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"http://{table.host}:{table.port}/replay?journal=game.jsonl")
        page.wait_for_selector('body[data-step="0"]', state="attached")
        assert page.locator("#replay-result").is_hidden()  # not at step 0
        for stop in played.stops:
            show_step(page, stop.step)
            assert page.inner_html("#replay-view") == stop.html
            told = [line for s in document["steps"][: stop.step + 1] for line in s["lines"]]
            assert page.locator("#step-lines li").all_inner_texts() == told
            last = stop.step == len(document["steps"]) - 1
            assert page.locator("#replay-result").is_visible() == (last and stop.finished)
        show_step(page, 1)
        assert page.locator("#replay-result").is_hidden()
        assert page.locator("#step-lines li").count() == len(document["steps"][1]["lines"]) + len(
            document["steps"][0]["lines"]
        )
    finally:
        context.close()


# ------------------------------------------------------------------ the list


def test_the_replay_list_tells_date_game_seats_steps_winner_and_offers_the_record(
    browser, tmp_path
):
    setup = games.get("swiped").simulated_setup(2, 3)
    table = LiveTable(tmp_path, setup)
    context = browser.new_context(**PHONE, accept_downloads=True)
    try:
        referee = archive_game(tmp_path, "game-20260101-101500.jsonl", "flipdone", 3, 2)
        os.utime(tmp_path / "archive" / "game-20260101-101500.jsonl", (1767262500,) * 2)
        page = context.new_page()
        page.goto(f"http://{table.host}:{table.port}/replay")
        page.wait_for_selector("#journals li a.download")
        live, done = page.locator("#journals li").all()
        assert live.locator("strong").inner_text() == "Swiped"
        assert live.locator(".meta").inner_text() == "Ana, Bob · 1 étape · en cours"
        assert done.locator("strong").inner_text() == "Flip Done"
        assert "2026" in done.locator(".date").inner_text()
        winner = referee.names[referee.result()["winner"]]
        listed = table.client().get("/api/journals").json()["journals"][1]
        seats = ", ".join(referee.names)
        assert done.locator(".meta").inner_text() == (
            f"{seats} · {listed['steps']} étapes · Gagnant : {winner}"
        )
        with page.expect_download() as download:
            done.locator("a.download").click()
        assert download.value.suggested_filename == "game-20260101-101500.txt"
        text = open(download.value.path(), encoding="utf-8").read()  # noqa: SIM115
        assert text.startswith("Flip Done\n") and text.endswith(f"Gagnant : {winner}\n")
        for uid in referee.setup.tags:
            assert uid not in text  # which tag is which card never leaves the table
    finally:
        context.close()
        table.close()
