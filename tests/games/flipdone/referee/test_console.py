"""`companion play --sim --game flipdone`: a Flip Done table operated by typing, and the
setup's `rules` (fewer phases and manches, the chosen first element)."""

from __future__ import annotations

import io
import json

import pytest

from companion.games import make_referee
from companion.games.flipdone.console import run_console
from companion.games.flipdone.game import simulate
from companion.games.flipdone.sim import make_setup
from companion.journal import Setup, dump_lines, parse_setup, read_lines
from companion.referee.pace import SetupError
from companion.session import Session
from tests.games.helpers import replayed_events as events
from tests.games.helpers import typed_play

DEAL = [f"deal {square} {card}H" for square, card in enumerate("A23456789", start=1)]


def play(journal, commands, *more):
    return typed_play("flipdone", journal, commands, *more)


def test_a_typed_phase_deals_builds_a_line_and_the_journal_replays_it(tmp_path):
    journal = tmp_path / "fd.jsonl"
    commands = ["help", *DEAL, "up 10H", "build 1 JH", "build 2 QH", "build 3 KH", "table"]
    run = play(journal, [*commands, "quit"])
    assert run.returncode == 0, run.stderr
    assert "> build 3 KH" in run.stdout  # echoed: not typed live
    assert "  a card face down on square 1" in run.stdout  # the deal says each card
    assert "the face-up card is the 10♥" in run.stdout
    assert "Cy aligns row 1: +2" in run.stdout
    assert "square 1: A♥, J♥" in run.stdout and "pad: -" in run.stdout  # as the table writes
    assert "┌" in run.stdout  # the OLED, drawn as text
    _, made = events(journal)
    kinds = [e["kind"] for e in made]
    assert kinds.count("dealt_down") == 9 and kinds.count("build") == 3
    assert {"kind": "line_made", "seat": 2, "line": 3, "value": 2} in made
    assert "fault" not in kinds
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert records[0]["game"] == "flipdone" and "rules" not in records[0]

    # --resume carries on: Ana discards a card and flips the centre, Bob discards
    again = play(journal, ["table", "pad 2C", "flip 5", "pad 3C", "noflip", "quit"], "--resume")
    assert again.returncode == 0, again.stderr
    assert "square 3: 3♥, K♥" in again.stdout
    assert "Ana discards a card and flips square 5: 5♥ up, 10♥ down" in again.stdout
    assert "Bob discards a card" in again.stdout
    referee, made = events(journal)
    assert [e["kind"] for e in made].count("resume") == 1
    assert referee.state.turn == 2
    assert "fault" not in [e["kind"] for e in made]


@pytest.mark.parametrize(
    ("lang", "faces", "refused", "lies"),
    [
        ("fr", ("V♥", "dh", "R♥"), ("KX", "QS!", "JZ"), "  case 1 : A♥, V♥"),
        ("en", ("J♥", "qh", "K♥"), ("RH", "DH", "VH"), "  square 1: A♥, J♥"),
    ],
)
def test_the_typed_table_takes_and_writes_cards_as_the_table_writes_them(
    lang, faces, refused, lies, tmp_path
):
    """A card is typed as the table writes it (its rank in the table's language: Valet,
    Dame, Roi at a French table; its suit's sign), or by its tag's letters (10S, TS, KC),
    and written back as the table writes it; a rank of the other language is no card."""
    session = Session.start(tmp_path / "fd.jsonl", make_setup(1, first=0))
    out = io.StringIO()
    deal = [f"deal {square} {rank}{suit}" for square, (rank, suit) in
            enumerate(zip("A23456789", "♥H♥h♥H♥H♥", strict=True), start=1)]  # fmt: skip
    builds = [f"build {square} {face}" for square, face in enumerate(faces, start=1)]
    commands = [*deal, "up T♥", *builds, "table", *(f"build 4 {c}" for c in refused), "quit"]
    assert run_console(session, commands, out, lang) == 0
    text = out.getvalue()
    assert lies in text.splitlines()
    no_card = {"fr": "pas de carte {!r}", "en": "no card {!r}"}[lang]
    assert all(no_card.format(c) in text for c in refused), text
    _, made = events(tmp_path / "fd.jsonl")
    assert {"kind": "line_made", "seat": 2, "line": 3, "value": 2} in made  # row 1 of hearts
    assert "KH" not in text and "JH" not in text  # the deck's codes never shown


def test_faults_and_undo_at_the_typed_table(tmp_path):
    session = Session.start(tmp_path / "fd.jsonl", make_setup(1, first=0))
    out = io.StringIO()
    commands = [*DEAL, "pad 2C", "take pad", "up 10H", "build 5 JH", "take 5 JH",
                "build 4 JH", "back", "take 4 JH", "build 6 JS", "up", "deal 99 AH",
                "frob", "wait -1", "build '4", "quit"]  # fmt: skip
    assert run_console(session, commands, out, "en") == 0
    text = out.getvalue()
    assert "STOP: deal first at the pad" in text
    assert "STOP: stacked at spot 5" in text
    assert "Ana builds the J♥ on square 4" in text
    assert "Ana builds the J♠ on square 6" in text
    assert "? a word is missing" in text and "? no square '99'" in text
    assert "? unknown command 'frob'" in text and "time only goes forward" in text
    assert "? no closing quotation" in text  # a typed line never stops the table
    _, made = events(tmp_path / "fd.jsonl")
    assert {"kind": "undo", "step": "build"} in made


def test_the_first_player_chooses_the_first_element(tmp_path):
    setup = Setup(**{**vars_of(make_setup(2, first=1)), "rules": {"first_element": "chosen"}})
    session = Session.start(tmp_path / "fd.jsonl", setup)
    out = io.StringIO()
    run_console(session, [*DEAL, "up 7 QS", "quit"], out, "en")
    assert "Bob lays the Q♠, the first element, on square 7" in out.getvalue()
    line = (tmp_path / "fd.jsonl").read_text().splitlines()[0]
    assert json.loads(line)["rules"] == {"first_element": "chosen"}


def vars_of(setup):
    return {name: getattr(setup, name) for name in Setup.__dataclass_fields__}


def test_rules_one_phase_one_manche_ends_after_one_phase():
    setup = Setup(**{**vars_of(make_setup(5)), "rules": {"phases": 1, "manches": 1}})
    played = simulate(setup)
    lines = list(dump_lines(setup, played.inputs))
    assert json.loads(lines[0])["rules"] == {"phases": 1, "manches": 1}
    journal = read_lines(lines)
    assert journal.setup.rules == {"phases": 1, "manches": 1}
    referee = make_referee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    assert referee.finished
    kinds = [e["kind"] for e in referee.events]
    assert kinds.count("phase_start") == kinds.count("phase_end") == 1
    assert "game_over" in kinds
    assert kinds.count("manche_won") + kinds.count("tie") >= 1


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"players": 4}, "unknown setting `players`; the settings of Flip Done"),
        ({"phases": "2"}, '`phases` is a whole number of at least 1, not `"2"`'),
        ({"manches": 0}, "`manches` is a whole number of at least 1, not `0`"),
        ({"first_element": "middle"}, '`first_element` is `"centre"` or'),
        (
            {"tie_phase_limit": True},
            "`tie_phase_limit` is a whole number of at least 0, not `true`",
        ),
    ],
)
def test_bad_rules_are_refused_with_what_to_fix(rules, message):
    data = {**make_setup(1).to_json(), "rules": rules}
    with pytest.raises(SetupError, match=message):
        make_referee(parse_setup(data))


def test_rules_must_be_an_object():
    from companion.journal import JournalError

    with pytest.raises(JournalError, match="'rules' must be an object"):
        parse_setup({**make_setup(1).to_json(), "rules": [1]})
