"""Setup lines written before a game's own settings moved under its `rules`
(docs/journal.md, "The setup line"): PassPass's `window`, `doublon_min` and `layout` were
top-level keys of every game's line. An old journal must replay to exactly the same events;
a new one of the same game and settings is the same game; the others drop what they never
used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.journal import parse_setup, with_checksum
from companion.lab.journals import replay, report
from companion.referee.pace import SetupError
from companion.session import replay as replay_session

HERE = Path(__file__).parent
PHI = HERE.parent / "games" / "passpass" / "referee" / "scenarios" / "phipasspass_two_windows.jsonl"
FLIPDONE = HERE / "regressions" / "flipdone-3-seed1-off-mat.jsonl"
SWIPED = HERE.parent / "games" / "swiped" / "referee" / "scenarios" / "matches_true.jsonl"


def rewritten(source: Path, out: Path, change: dict[str, Any], drop: tuple[str, ...]) -> Path:
    """`source` with its setup line changed (keys in `drop` removed, `change` over it)."""
    first, *rest = source.read_text(encoding="utf-8").splitlines()
    setup = {k: v for k, v in json.loads(first).items() if k not in drop} | change
    out.write_text("\n".join([json.dumps(setup), *rest]) + "\n", encoding="utf-8")
    return out


def test_an_old_passpass_line_and_its_new_form_replay_to_the_same_events(tmp_path: Path) -> None:
    """The old line's window (9 s here, so that it matters) and doublon_min (PHI-2) become
    the new line's `rules`: the same game, event for event, and one report group."""
    old = rewritten(PHI, tmp_path / "old.jsonl", {"window": 9, "doublon_min": 3}, ())
    new = rewritten(
        PHI,
        tmp_path / "new.jsonl",
        {"rules": {"window_seconds": 9.0, "doublon_min": 3.0}},  # as the companion writes
        ("window", "doublon_min"),
    )
    before, after = replay(old), replay(new)
    assert before.rules == after.rules == {"window_seconds": 9.0, "doublon_min": 3.0}
    assert before.events == after.events
    default = replay(PHI).events  # a 6 s window: the windows close sooner
    assert [e["t"] for e in default] != [e["t"] for e in before.events]
    (group,) = report([old, new])
    assert group.games == 2
    assert group.variant.name == "PhiPassPass, 3 players (window_seconds = 9.0, doublon_min = 3.0)"


def test_an_old_line_with_a_layout_moves_it_into_passpass_rules() -> None:
    layout = {"name": "row", "positions": [[0, c] for c in range(9)]}
    setup = parse_setup(
        {"type": "setup", "game": "ptipasspass", "seats": ["Ana", "Bob", "Cy"], "layout": layout}
    )
    assert setup.rules == {"layout": layout}
    assert "layout" not in setup.to_json() and setup.to_json()["rules"] == {"layout": layout}


@pytest.mark.parametrize("source", [FLIPDONE, SWIPED], ids=["flipdone", "swiped"])
def test_an_old_line_of_another_game_drops_window_and_doublon_min(
    tmp_path: Path, source: Path
) -> None:
    """Every old line carried window and doublon_min, whatever the game: Flip Done and
    Swiped never used them, so they are dropped and the game replays as without them."""
    old = rewritten(source, tmp_path / "old.jsonl", {"window": 7.5, "doublon_min": 1.0}, ())
    bare = rewritten(source, tmp_path / "bare.jsonl", {}, ("window", "doublon_min"))
    played = replay(old)
    assert played.events == replay(bare).events and played.events
    assert "window" not in played.rules and "window_seconds" not in played.rules
    old_line, bare_line = (json.loads(p.read_text().splitlines()[0]) for p in (old, bare))
    assert parse_setup(old_line) == parse_setup(bare_line)


def test_an_old_line_of_a_game_this_table_does_not_know_still_reads() -> None:
    """A journal of a game not installed here (a designer's draft): its setup line reads,
    keeping the old layout no game's setting took and dropping the settings every old line
    carried; the replay then names the unknown game."""
    layout = {"name": "row", "positions": [[0, c] for c in range(9)]}
    old = {"type": "setup", "game": "draft", "seats": ["Ana", "Bob"], "window": 9, "layout": layout}
    setup = parse_setup(old)
    assert (setup.game, setup.rules) == ("draft", {"layout": layout})


def test_an_old_layout_is_still_refused_by_a_game_on_its_own_mat() -> None:
    line = json.loads(FLIPDONE.read_text(encoding="utf-8").splitlines()[0])
    setup = parse_setup(line | {"layout": {"positions": [[0, 0]]}})
    from companion import games

    with pytest.raises(SetupError, match="layout"):
        games.make_referee(setup)


def test_a_checksummed_old_journal_is_checked_as_written_then_replays(tmp_path: Path) -> None:
    """The companion's own journals carry `seq` and `crc` over the line's bytes: the old
    top-level keys are moved only after the line is checked."""
    lines = PHI.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0]) | {"window": 9.0, "doublon_min": 2.0}
    body = [json.dumps(first, separators=(",", ":")), *lines[1:]]
    path = tmp_path / "game.jsonl"
    path.write_text(
        "".join(with_checksum(line, seq) + "\n" for seq, line in enumerate(body, start=1)),
        encoding="utf-8",
    )
    replayed = replay_session(path)
    assert replayed.referee.setup.rules == {"window_seconds": 9.0, "doublon_min": 2.0}
    plain = rewritten(PHI, tmp_path / "plain.jsonl", {"window": 9.0, "doublon_min": 2.0}, ())
    assert list(replayed.referee.events) == replay(plain).events
