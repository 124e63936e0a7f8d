"""What the page serves of a game's page view (`Game.page_assets`): the files of its
folder with a plain name of a served kind, and nothing else of it."""

from __future__ import annotations

import dataclasses

import pytest

from companion import games
from companion.web.assets import page_file, page_files
from companion.web.errors import Refused
from tests.games import registered

SERVED = ("icon.png", "icon.svg", "pieces.json", "view.css", "view.js", "view_2-b.js")
NOT_SERVED = ("README.md", "page.html", "game.py", ".hidden.js", "View.js", "a b.js", "x.js~")


def test_only_plain_names_of_served_kinds_are_a_games_page_files(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    for name in SERVED + NOT_SERVED:
        (folder / name).write_text(name, encoding="utf-8")
    (folder / "sub.js").mkdir()  # a folder is no file, whatever its name
    with registered("tests.games.tally") as found:
        game = dataclasses.replace(found["tally"], name="tally-files", page_assets=folder)
        games.register(game)
        assert page_files("tally-files") == SERVED
        assert page_file("tally-files", "pieces.json") == (b"pieces.json", "application/json")
        assert page_file("tally-files", "view.js")[1] == "text/javascript; charset=utf-8"
        for name in (*NOT_SERVED, "sub.js", "nothing.js", "../static/view.js"):
            with pytest.raises(Refused) as refused:
                page_file("tally-files", name)
            assert refused.value.status == 404, name


def test_a_game_without_a_page_view_has_no_page_files():
    with registered("tests.games.tally") as found:
        games.register(dataclasses.replace(found["tally"], name="tally-plain", page_assets=None))
        assert page_files("tally-plain") == ()
    with pytest.raises(Refused) as refused:
        page_file("nosuch", "view.js")
    assert refused.value.status == 404
