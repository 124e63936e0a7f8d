"""Every refusal of the page, over a real socket, is said in the table's language: a
French table's page reads French for each kind (pairing, malformed request, unknown
address...), an English table's English; the sentence is the page's, never aiohttp's."""

from __future__ import annotations

import dataclasses
import json

import pytest

from companion import games
from companion.games.vnp.rules import COLOURS
from companion.games.vnp.words import PAGE_REFUSALS
from companion.journal import PressInput
from companion.web.errors import Refused, said
from companion.web.server import MAX_BODY

from .table import LiveTable, archive_game


@pytest.fixture(scope="module", params=["fr", "en"])
def table(request, tmp_path_factory):
    data = tmp_path_factory.mktemp(f"table-{request.param}")
    archive_game(data, "old.jsonl", "ptipasspass", 3, 2)
    setup = games.get("ptipasspass").simulated_setup(4, 3)
    live = LiveTable(data, dataclasses.replace(setup, language=request.param))
    yield live
    live.close()


def json_post(client, path, body, content_type="application/json", **headers):
    sent = {"Content-Type": content_type, **headers}
    if client.csrf is not None:
        sent.setdefault("X-CSRF-Token", client.csrf)
    return client.request("POST", path, body, sent)


def paired(table):
    phone = table.client()
    assert phone.pair(table, 1).status == 200
    return phone


def stale(phone):
    phone.csrf = "x" + (phone.csrf or "")
    return phone


def wrong(table):
    return f"{(int(table.web.pairings.code) + 1) % 10**6:06d}"


# Each kind: (what the page asks, its status, the sentence's key and fields).
KINDS = {
    "host": (lambda t: t.client().request("GET", "/api/state", None, {"Host": "evil.example"}),
             403, "host", {}),
    "origin": (lambda t: t.client().post("/api/pair", {"code": "1", "seat": 0},
                                         Origin="http://evil.example"), 403, "origin", {}),
    "json": (lambda t: json_post(t.client(), "/api/pair", b"{}", "text/plain"), 415, "json", {}),
    "large": (lambda t: json_post(t.client(), "/api/pair", b"x" * (MAX_BODY + 1)),
              413, "large", {"limit": MAX_BODY}),
    "json.bad": (lambda t: json_post(t.client(), "/api/pair", b"{no"), 400, "json.bad", {}),
    "json.object": (lambda t: json_post(t.client(), "/api/pair", b"[1]"), 400, "json.object", {}),
    "json.unknown": (lambda t: t.client().post("/api/pair", {"code": "1", "seat": 0, "x": 1}),
                     400, "json.unknown", {"unknown": "x", "keys": "code, seat"}),
    "json.missing": (lambda t: t.client().post("/api/pair", {"code": "1"}),
                     400, "json.missing", {"missing": "seat"}),
    "pair.seat": (lambda t: t.client().post("/api/pair", {"code": "123456", "seat": 9}),
                  400, "pair.seat", {}),
    "pair.code": (lambda t: t.client().post("/api/pair", {"code": "12", "seat": 0}),
                  400, "pair.code", {}),
    "pair.wrong": (lambda t: t.client("127.0.0.9").post("/api/pair", {"code": wrong(t), "seat": 0}),
                   403, "pair.wrong", {}),
    "unpaired": (lambda t: t.client().act("doublon"), 401, "unpaired", {}),
    "csrf": (lambda t: stale(paired(t)).act("doublon"), 403, "csrf", {}),
    "control": (lambda t: paired(t).act("fly"), 400, "control", None),
    "not_code": (lambda t: t.client().get("/P/abc"), 404, "not_code", {}),
    "admin.token": (lambda t: t.client().post("/api/admin/unpair", {"seat": "all"},
                                              **{"X-Admin-Token": "x"}), 403, "admin.token", {}),
    "no.file": (lambda t: t.client().get("/static/nothing.js"), 404, "no.file",
                {"name": "nothing.js"}),
    "no.game": (lambda t: t.client().get("/games/chess/view.js"), 404, "no.game", {}),
    "no.data": (lambda t: t.client().get("/api/ptipasspass/nothing"), 404, "no.data", {}),
    "no.journal": (lambda t: t.client().get("/api/journals/nothing.jsonl"), 404, "no.journal",
                   {}),
    "no.step": (lambda t: t.client().get("/api/journals/old.jsonl/frames/x.png"), 404, "no.step",
                {}),
    "no.report": (lambda t: t.client().get("/reports/nothing/"), 404, "no.report", {}),
    "no.page": (lambda t: t.client().get("/nothing"), 404, "no.page", {}),
    "method": (lambda t: t.client().get("/api/pair"), 405, "method", {}),
}  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_each_refusal_is_said_in_the_tables_language(table, kind):
    ask, status, key, fields = KINDS[kind]
    lang = table.session.referee.setup.language
    if fields is None:  # the game's own title and controls
        game = table.web.hub.game
        fields = {"game": game.title, "control": "'fly'", "controls": ", ".join(game.controls)}
    answer = ask(table)
    assert answer.status == status, answer.body
    assert answer.json()["error"] == said(key, lang, **fields)


def test_a_step_past_the_end_names_the_steps_in_the_tables_language(table):
    lang = table.session.referee.setup.language
    steps = len(table.client().get("/api/journals/old.jsonl").json()["steps"])
    answer = table.client().get(f"/api/journals/old.jsonl/frames/{steps}.png")
    assert answer.status == 404
    assert answer.json()["error"] == said("no.step_range", lang, step=steps, last=steps - 1)


def test_french_and_english_sentences_differ_for_every_refusal():
    """No sentence is left untranslated (the same words in both languages)."""
    from companion.web.errors import _WORDS

    assert _WORDS["fr"].keys() == _WORDS["en"].keys()
    same = [k for k in _WORDS["fr"] if _WORDS["fr"][k] == _WORDS["en"][k]]
    assert same == []


# --------------------------------------------------------------- a game's own refusals

HOSTILE = [None, 0, -1, True, "x", "", [], [0], {}, {"x": 1}, [[0, 0, 0, 1]], 10**9]
"""Values a page may send whatever its game reads."""


def page_values(game):
    """(control, value, seat) a phone may send to `game`: every value its simulated game
    journaled, as JSON, from every seat (another seat's colour...); each with one of its
    keys given a hostile value, or an unknown key added; and every control with a hostile
    value."""
    setup = game.simulated_setup(game.default_seats, 1)
    journaled = [
        (r.control, json.loads(json.dumps(r.value)))
        for r in game.simulate(setup).inputs
        if isinstance(r, PressInput)
    ]
    values = {(c, json.dumps(v, sort_keys=True)) for c, v in journaled}
    for control, value in journaled:
        if isinstance(value, dict):
            for key in value:
                for bad in HOSTILE:
                    values.add((control, json.dumps({**value, key: bad}, sort_keys=True)))
            values.add((control, json.dumps({**value, "x": 1}, sort_keys=True)))
    for control in (*game.controls, "fly"):
        for bad in HOSTILE:
            values.add((control, json.dumps(bad)))
    return [
        (control, json.loads(value), seat)
        for control, value in sorted(values)
        for seat in range(len(setup.seats))
    ]


def refusals_of(game, extra=()):
    """Every refusal of `game`'s `page_value` over `page_values` (and `extra`), against
    its page view at the start of a game."""
    setup = game.simulated_setup(game.default_seats, 1)
    board = game.page_view(games.make_referee(setup)) if game.page_view else {}
    found = []
    for control, value, seat in [*page_values(game), *extra]:
        try:
            game.page_value(control, value, seat, board)
        except Refused as refusal:
            found.append(refusal)
    return found


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).page_value])
def test_every_refusal_of_a_games_page_is_said_in_both_languages(name):
    """A game's own refusal of what a phone sent (issue 37: "you do not play bleu" on a
    French table) is a sentence of its words, in French and in English, never one
    language for both."""
    found = refusals_of(games.get(name))
    assert found
    for refusal in found:
        assert refusal.key is not None, str(refusal)
        assert refusal.sentence("fr") != refusal.sentence("en"), refusal.key
        assert str(refusal) == refusal.sentence("en")  # the log's


def test_every_vnp_page_refusal_is_reached():
    """The corpus reaches each of Vous ne passerez pas !'s page refusals, the ones of the
    shapes only its page sends (segments) included."""
    game = games.get("vnp")
    shapes = [[], [[0, 0]], [[0, 0, 0, 1]] * 5, [[0, 0, 5, 1]], [[2, 2, 2, 3], [9, 9, 9, 10]]]
    extra = [("place", {"colour": "jaune", "segments": s}, 0) for s in shapes]
    keys = {refusal.key for refusal in refusals_of(game, extra)}
    assert keys == set(PAGE_REFUSALS["en"]) - {"no_board"}
    with pytest.raises(Refused) as refused:  # the page view's board before the game's
        game.page_value("place", {"colour": "jaune", "segments": [[0, 0, 0, 1]]}, 0, {})
    assert refused.value.key == "no_board"


@pytest.fixture(scope="module", params=["fr", "en"])
def vnp_table(request, tmp_path_factory):
    setup = games.get("vnp").simulated_setup(2, 1)
    live = LiveTable(
        tmp_path_factory.mktemp(f"vnp-{request.param}"),
        dataclasses.replace(setup, language=request.param),
    )
    yield live
    live.close()


def test_a_colour_the_seat_does_not_play_is_refused_in_the_tables_language(vnp_table):
    """Over a real socket: the issue's "you do not play bleu", on a French table."""
    phone = paired(vnp_table)  # seat 1: a colour of seat 0 is not its own (VNP-7)
    seats = vnp_table.web.hub.snapshot.view["board"]["colour_seats"]
    colour = COLOURS[seats.index(0)]
    answer = phone.act("place", {"colour": colour, "segments": [[2, 1, 2, 2]]})
    english = {"jaune": "yellow", "bleu": "blue", "rouge": "red", "vert": "green"}[colour]
    expected = {"fr": f"Vous ne jouez pas le {colour}.", "en": f"You do not play {english}."}
    assert answer.status == 403
    assert answer.json()["error"] == expected[vnp_table.session.referee.setup.language]


def test_a_phone_may_name_a_colour_as_the_engine_or_either_language_does():
    """The refusal lists the colours in the table's language ("yellow, blue..."): a phone
    that names one so is understood, as one that sends the engine's name."""
    game = games.get("vnp")
    setup = game.simulated_setup(4, 1)
    board = game.page_view(games.make_referee(setup))
    seat = board["colour_seats"][COLOURS.index("jaune")]
    for word in ("jaune", "Jaune", "yellow", "YELLOW"):
        assert game.page_value("pass", {"colour": word}, seat, board) == {"colour": "jaune"}
    with pytest.raises(Refused) as refused:
        game.page_value("pass", {"colour": "gelb"}, seat, board)
    assert refused.value.sentence("en") == "The colour is one of: yellow, blue, red, green."
    assert refused.value.sentence("fr") == "La couleur est l’une de : jaune, bleu, rouge, vert."
