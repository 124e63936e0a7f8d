"""The typed Vous ne passerez pas ! table (`companion play --sim --game vnp`): placements
typed as a piece, an intersection and an orientation, the presses they send, the words it
answers a mistake with, and what it shows."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

from companion.games.vnp.console import (
    VnpConsole,
    board_text,
    find_placement,
    placement_words,
    run_console,
    shapes_text,
)
from companion.games.vnp.rules import PIECES, geometry, is_over
from companion.games.vnp.sim import make_setup
from companion.journal import read_journal
from companion.session import Session


def test_a_placement_is_its_piece_orientation_and_top_left_intersection() -> None:
    g = geometry(13)
    for pid in random.Random(7).sample(range(len(g.placements)), 500):
        piece, o, x, y = placement_words(13, pid)
        assert find_placement(13, piece, o, x, y, "en") == pid
        assert PIECES[g.piece_of[pid]].name == piece
        points = [p for s in g.placements[pid].segments for p in g.segment(s)]
        assert (min(p[0] for p in points), min(p[1] for p in points)) == (x, y)
    straight = find_placement(13, "4a", 0, 2, 0, "en")  # VNP-1: the straight 4, upright
    assert [g.segment(s) for s in g.placements[straight].segments] == [
        ((2, 0), (2, 1)), ((2, 1), (2, 2)), ((2, 2), (2, 3)), ((2, 3), (2, 4)),
    ]  # fmt: skip
    for words, message in (
        (("4z", 0, 0, 0), "no piece '4z'"),
        (("4a", 2, 0, 0), "orientations o0..o1"),
        (("4a", 1, 10, 0), "leaves the board"),
    ):
        with pytest.raises(ValueError, match=message):
            find_placement(13, *words, "en")


def test_shapes_draw_every_orientation() -> None:
    text = shapes_text("2b", "en")
    assert [line for line in text.splitlines() if line.startswith("o")] == [
        "o0:", "o1:", "o2:", "o3:",
    ]  # fmt: skip
    assert ".-.\n|" in text


@pytest.fixture
def console(tmp_path):
    session = Session.start(tmp_path / "p.jsonl", make_setup(1, 4, language="en"))
    out = io.StringIO()
    yield VnpConsole(session, out, "en"), out, tmp_path / "p.jsonl"
    session.close()


def test_commands_send_the_pages_presses(console) -> None:
    table, out, path = console
    for line in ("place 4a 2,0", "place 4a 2,0 o1 as Bob", "place 9 bleu", "pass", "hint as Ana",
                 "back as Bob", "back", "wait 2"):  # fmt: skip
        table.handle(line)
    presses = [r.to_json() for r in read_journal(path).inputs]
    straight = find_placement(13, "4a", 0, 2, 0, "en")
    assert presses[0] == {"t": 1.0, "type": "press", "control": "place", "seat": 0,
                          "value": {"colour": "jaune", "placement": straight}}  # fmt: skip
    assert presses[1]["seat"] == 1 and presses[1]["value"]["colour"] == "bleu"
    assert presses[2]["value"] == {"colour": "bleu", "placement": 9} and presses[2]["seat"] == 1
    assert presses[3] == {"t": 4.0, "type": "press", "control": "pass", "seat": 1,
                          "value": {"colour": "bleu"}}  # fmt: skip
    assert presses[4]["control"] == "hint" and presses[4]["seat"] == 0
    assert presses[5] == {"t": 6.0, "type": "press", "control": "back", "seat": 1}
    assert presses[6] == {"t": 7.0, "type": "press", "control": "back"}
    assert presses[7] == {"t": 9.0, "type": "tick"}
    text = out.getvalue()
    assert "Ana (yellow) places 4a" in text
    assert "Bob's place refused: VNP-3: blue's first piece must touch its start" in text
    assert "hint refused: Not your turn." in text  # Ana asked on bleu's turn
    assert "back: Ana's 4a (yellow) is taken back" in text


def test_mistakes_are_answered_in_one_line_and_send_nothing(console) -> None:
    table, out, path = console
    for line in ("place", "place 4z 1,1", "place 4a 1", "place 4a 2,0 q", "place 4a 12,0 o1",
                 "pass as Zed", "wait -1", "juggle", "place '4a"):  # fmt: skip
        assert table.handle(line)
    text = out.getvalue()  # an answer wrapped to the width goes on indented by two spaces
    answers = [" ".join(a.split("\n  ")) for a in re.findall(r"^\?.*(?:\n  \S.*)*", text, re.M)]
    assert answers == [
        "? a word is missing (type help)",
        "? no piece '4z': pieces are 1a, 2a, 2b, 3a, 3b, 3c, 3d, 3e, 4a, 4b, 4c, 4d, 4e, 4f, "
        "4g, 4h, 4i, 4j, 4k, 4l, 4m, 4n, 4o, 4p (type help)",
        "? a place is X,Y (e.g. 2,1), not '1' (type help)",
        "? what is 'q'? an orientation is oN, e.g. o2 (type help)",
        "? 4a o1 at 12,0 leaves the board (type help)",
        "? no seat 'Zed': seats are 1..4 or Ana, Bob, Cy, Dan (type help)",
        "? time only goes forward (type help)",
        "? unknown command 'juggle' (type help)",
        "? no closing quotation (type help)",
    ]
    assert read_journal(path).inputs == []


def test_looking_sends_nothing(console) -> None:
    table, out, path = console
    table.handle("place 4a 2,0")
    for line in ("board", "pieces jaune", "legal 4a", "view", "screen", "help", "shapes 1a"):
        table.handle(line)
    text = out.getvalue()
    assert "  yellow: 1a 2a 2b 3a 3b 3c 3d 3e 4b 4c" in text  # an English table's words
    assert "  place 4a 10,0 o0" in text  # bleu's straight 4 down from its start: legal
    view = json.loads(next(line for line in text.splitlines() if line.startswith("{")))
    assert view["turn"] == "bleu" and view["last"]["piece"] == "4a"
    assert view["placed"][0] == [view["last"]["placement"]]
    assert board_text(table.referee, "en").splitlines()[1] == "  0 . . . . . . . . . . . . ."
    assert board_text(table.referee, "en").splitlines()[2] == "        Y"  # yellow's 4a
    assert board_text(table.referee, "fr").splitlines()[2] == "        J"  # jaune's
    assert len(read_journal(path).inputs) == 1


def test_the_game_ends_the_console(tmp_path) -> None:
    """A two-player table played to the end by typing each bot move's words."""
    from companion.games.vnp.bots import largest_first
    from companion.games.vnp.rules import Place, apply, make_config, new_game

    state, _ = new_game(make_config(mode="two"), 0)
    rng = random.Random(2)
    lines = []
    while not is_over(state):
        action = largest_first(state, rng)
        if isinstance(action, Place):
            piece, o, x, y = placement_words(13, action.placement)
            lines.append(f"place {piece} {x},{y} o{o}")
        else:
            lines.append("pass")
        state, _ = apply(state, action)
    lines.append("board")  # never read: the game is over
    session = Session.start(tmp_path / "g.jsonl", make_setup(2, 2, language="fr"))
    out = io.StringIO()
    assert run_console(session, lines, out, "fr", echo=True) == 0
    assert session.referee.finished and session.referee.state == state
    assert "> board" not in out.getvalue() and "partie terminée : " in out.getvalue()
    assert "game over" not in out.getvalue()  # the table's language throughout
