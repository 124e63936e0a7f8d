"""Pairing on a LAN of strangers, over a real socket: guessing the code is slowed per
client and for the whole table, while whoever reads the code off the OLED pairs at once
(a stale code is told so, never counted); a wrong guess never changes the code; a
pairing ends with its game (and after the hours the config gives); every refusal is one
sentence in the table's language. The attacks themselves: test_pairing_attacks.py."""

from __future__ import annotations

import time

import pytest

from companion import games
from companion.config.model import WebConfig
from companion.run.items import Scripted
from companion.run.journal_file import archive
from companion.screens.pairing import PairingScreen
from companion.web import pairing
from companion.web.errors import Refused, said
from companion.web.pairing import (
    FIRST_WAIT,
    FREE_TRIES,
    SHOW_EVERY_CLIENT,
    SHOW_SECONDS,
    TABLE_BURST,
    TABLE_EVERY,
    CodeCard,
    Pairings,
)

from .guessing import guess, paced_table, wrong
from .table import LiveTable


@pytest.fixture
def paced(tmp_path):
    table, clock = paced_table(tmp_path)
    yield table, clock
    table.close()


@pytest.fixture
def table(paced):
    return paced[0]


@pytest.fixture
def clock(paced):
    return paced[1]


def test_a_guessing_client_is_slowed_while_another_pairs_at_once(table, clock):
    code = table.web.pairings.code
    guesser = table.client()
    answers = [guess(guesser, wrong(table)) for _ in range(FREE_TRIES + 5)]
    assert [a.status for a in answers] == [403] * FREE_TRIES + [429] * 5
    assert answers[0].json()["error"] == said("pair.wrong", "fr")
    late = answers[-1]
    assert late.headers["Retry-After"] == str(int(FIRST_WAIT))
    assert late.json()["error"] == said("pair.wait", "fr", seconds=int(FIRST_WAIT))
    # Each wait, once over, buys one more try, and doubles: under one try a second.
    waits = []
    for _ in range(4):
        clock.now += int(guess(guesser, wrong(table)).headers["Retry-After"])
        assert guess(guesser, wrong(table)).status == 403
        waits.append(int(guess(guesser, wrong(table)).headers["Retry-After"]))
    assert waits == [4, 8, 16, 32]
    # Meanwhile the code on the OLED is the same, and whoever reads it pairs at once.
    assert table.web.pairings.code == code
    player = table.client("127.0.0.2")
    assert player.pair(table, 1).status == 200
    assert guess(guesser, table.web.pairings.code).status == 429  # still waiting


def test_past_their_free_tries_addresses_take_turns_in_the_order_they_were_wrong(table, clock):
    """The table hears `TABLE_BURST` tries at once from addresses past their free tries,
    then one every `TABLE_EVERY` seconds: each wrong code books its address's next turn,
    so the last address to be wrong is heard at its turn even while the others ask then.
    Whoever has been wrong fewer than `FREE_TRIES` times is never in that line."""
    guessers = [table.client(f"127.0.1.{i}") for i in range(1, TABLE_BURST + 2)]
    for g in guessers:
        assert [guess(g, wrong(table)).status for _ in range(FREE_TRIES)] == [403] * FREE_TRIES
    mistaken = table.client("127.0.0.3")
    assert guess(mistaken, wrong(table)).status == 403
    last = guess(guessers[-1], wrong(table))
    assert last.status == 429 and last.headers["Retry-After"] == str(int(TABLE_EVERY))
    assert last.json()["error"] == said("pair.table", "fr", seconds=int(TABLE_EVERY))
    clock.now += FIRST_WAIT  # the first ones' own wait is over: heard, each booking a turn
    assert all(guess(g, wrong(table)).status == 403 for g in guessers[:-1])
    first = guess(guessers[0], wrong(table))  # its turn: after the last one's
    wait = int(2 * TABLE_EVERY - FIRST_WAIT)
    assert first.status == 429 and first.json()["error"] == said("pair.table", "fr", seconds=wait)
    clock.now += TABLE_EVERY - FIRST_WAIT
    assert guess(guessers[0], wrong(table)).status == 429
    assert guess(guessers[-1], wrong(table)).status == 403  # the last one's turn
    assert mistaken.pair(table, 1).status == 200  # wrong once: heard at once
    assert table.client("127.0.0.2").pair(table, 2).status == 200  # never wrong: at once


def test_a_stale_code_is_told_so_and_never_counts_as_wrong(table, clock):
    """A QR code photographed before someone paired, or a page left open on an old code,
    sends a code that served: the player is told the screen has a new one, as often as
    they send it, and still pairs at once with the new one."""
    player = table.client("127.0.0.2")
    stale = table.web.pairings.code
    assert table.client().pair(table, 0).status == 200
    for _ in range(FREE_TRIES + 2):
        answer = guess(player, stale, seat=1)
        assert answer.status == 403 and answer.json()["error"] == said("pair.used", "fr")
    assert player.pair(table, 1).status == 200


def test_the_last_16_codes_are_recognised_and_never_drawn_again(table, clock, monkeypatch):
    """The last 16 codes that served (docs/web.md) are told apart from guesses; an older
    one is a wrong code like any; a new code is never one of them (it would pair a stale
    QR code)."""
    served = []
    for seat in range(16 + 1):
        served.append(table.web.pairings.code)
        assert table.client().pair(table, seat % 4).status == 200
    client = table.client("127.0.0.2")
    assert guess(client, served[0]).json()["error"] == said("pair.wrong", "fr")
    assert guess(client, served[1]).json()["error"] == said("pair.used", "fr")
    draws = iter([int(served[-1]), 424242])
    monkeypatch.setattr(pairing.secrets, "randbelow", lambda _: next(draws))
    assert table.client().pair(table, 0).status == 200
    assert table.web.pairings.code == "424242"


@pytest.mark.parametrize("code", ["٠١٢٣٤٥", "１２３４５６", "12345", "1234567", "12 456", 123456])
def test_a_malformed_code_is_refused_and_counts_as_a_try(table, clock, code):
    """Arabic-Indic or full-width digits pass `str.isdigit()`: still not the code."""
    client = table.client()
    for _ in range(FREE_TRIES):
        answer = guess(client, code)
        assert answer.status == 400, answer.body
        assert answer.json()["error"] == said("pair.code", "fr")
    assert guess(client, table.web.pairings.code).status == 429


def show(client):
    return client.post("/api/pair/show", {})


def test_no_stranger_keeps_the_pairing_card_on_the_tables_screen(table, clock):
    """The card shows for `SHOW_SECONDS` when asked; asking again extends nothing; the
    game's screen then stays as long; one client starts a card once per
    `SHOW_EVERY_CLIENT`: a stranger asking in a loop holds the screen a fifth of the time."""
    table.web.hub.code_card = CodeCard(clock)
    stranger, player = table.client("127.0.0.9"), table.client("127.0.0.2")
    first = show(stranger)
    assert (first.status, first.json()["seconds"]) == (200, SHOW_SECONDS)
    table.settle()
    assert isinstance(table.web.overlay(), PairingScreen)
    clock.now += 40
    again = show(stranger)
    assert (again.status, again.json()["seconds"]) == (200, SHOW_SECONDS - 40)
    assert show(player).json()["seconds"] == SHOW_SECONDS - 40  # the same card, read it now
    clock.now += SHOW_SECONDS - 40
    assert table.web.overlay() is None  # over: the game's screen is back
    rest = show(player)
    assert rest.status == 429 and rest.headers["Retry-After"] == str(int(SHOW_SECONDS))
    assert rest.json()["error"] == said("pair.shown", "fr", seconds=int(SHOW_SECONDS))
    clock.now += SHOW_SECONDS
    assert show(player).status == 200  # the game's screen stayed a minute: a new card
    clock.now += 2 * SHOW_SECONDS
    late = show(stranger)  # the screen has rested, but this client started a card lately
    assert late.status == 429
    wait = int(SHOW_EVERY_CLIENT - 4 * SHOW_SECONDS)
    assert late.headers["Retry-After"] == str(wait)
    clock.now += wait
    assert show(stranger).status == 200


def feed_whole_game(table, name):
    game = games.get(name)
    for record in game.simulate(table.session.referee.setup).inputs:
        table.put(Scripted(record))
    table.settle()
    assert table.session.referee.finished


def test_a_pairing_ends_with_its_game(tmp_path):
    table = LiveTable(tmp_path, games.get("phipasspass").simulated_setup(3, 3), script_clock=True)
    phone = table.client()
    try:
        assert phone.pair(table, 1).status == 200
        feed_whole_game(table, "phipasspass")
        lines = (tmp_path / "game.jsonl").read_text().count("\n")
        answer = phone.act("doublon")
        assert answer.status == 409 and answer.json()["error"] == said("pair.over", "fr")
        assert (tmp_path / "game.jsonl").read_text().count("\n") == lines
        assert table.client().pair(table, 0).status == 409  # no new pairing either
        names, game = tuple(table.session.referee.names), table.web.pairings.game
        restarted = Pairings(names, tmp_path / "pairings.json", game=game)
        with pytest.raises(Refused) as over:  # a restart of the table keeps it over
            restarted.pair(restarted.code, 0)
        assert over.value.status == 409
        assert phone.get("/api/state").json()["you"] is None
        assert table.client().post("/api/pair/show").status == 200
        table.settle()
        assert table.web.overlay() is None  # no code on the OLED: nothing to pair
    finally:
        table.close()


def test_a_new_game_starts_unpaired_even_with_the_same_seats_and_seed(tmp_path):
    """A game left unfinished for a new one (the power-on menu's "new game"): the new
    journal is another game, whatever its setup."""
    setup = games.get("ptipasspass").simulated_setup(4, 3)
    table = LiveTable(tmp_path, setup)
    phone = table.client()
    try:
        assert phone.pair(table, 1).status == 200
    finally:
        table.close()
    archive(tmp_path / "game.jsonl")
    table = LiveTable(tmp_path, setup)
    phone.port = table.port  # the same browser, with its cookie of the last game
    try:
        answer = phone.act("doublon")
        assert answer.status == 401 and answer.json()["error"] == said("unpaired", "fr")
        assert table.client().get("/api/state").json()["pairing"]["open_seats"] == [0, 1, 2, 3]
    finally:
        table.close()


def test_a_pairing_lasts_the_hours_the_config_gives(tmp_path):
    config = WebConfig(host="127.0.0.1", port=0, pairing_hours=2)
    table = LiveTable(tmp_path, games.get("ptipasspass").simulated_setup(4, 3), config=config)
    try:
        now = time.time()
        table.web.pairings.clock = lambda: now
        phone = table.client()
        assert phone.pair(table, 1).status == 200
        table.web.pairings.clock = lambda: now + 2 * 3600 - 0.001
        assert phone.act("doublon").status == 409  # paired: the referee judges it
        before = table.client().get("/api/state").json()
        assert before["pairing"]["open_seats"] == [0, 2, 3]
        table.web.pairings.clock = lambda: now + 2 * 3600  # two hours, to the second
        answer = phone.act("doublon")
        assert answer.status == 401 and answer.json()["error"] == said("unpaired", "fr")
        state = table.client().get("/api/state").json()
        assert state["pairing"]["open_seats"] == [0, 1, 2, 3]  # the seat is free again
    finally:
        table.close()
