"""The page's replay list survives a journal whose referee raised on a line (the service
sets such a file aside in archive/, docs/journal.md): the list shows it, its replay ends
before that input with the result of the inputs before it, and the exception's text (a
tag's UID here) never reaches the page."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from companion.web.replay import Journals
from tests.cli.test_journal_not_applied import faulty, journal  # noqa: F401 (fixture)


def test_a_journal_the_referee_raised_on_is_replayed_up_to_that_input(
    tmp_path: Path,
    faulty: ModuleType,  # noqa: F811
) -> None:
    (tmp_path / "archive").mkdir()
    journal(tmp_path / "archive" / "2026-11-26-faulty.jsonl", faulty)
    journals = Journals(tmp_path)
    (listed,) = journals.listing()
    assert listed["name"] == "2026-11-26-faulty.jsonl" and "error" not in listed
    assert listed["stopped"] == 3  # the third input, `boom`
    path = journals.find(listed["name"])
    assert path is not None
    document = journals.get(path).document()
    assert document["result"] is None  # the game was not over before it
    replay = journals.get(path)
    assert replay.scores == (1, 0)  # Ana's pebble only: not the half-changed referee's
    assert faulty.SECRET not in json.dumps(document) + json.dumps(listed)
