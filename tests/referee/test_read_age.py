"""The settle time counts from the reading (docs/table.md, "People's pace"): a `spot`
input's `age` (how long before its `t` the reader read the change, as the Pico reports
it) starts the settle that much earlier, within `MAX_AGE`, never before a later change."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion.games.passpass.referee import PassPassReferee
from companion.journal import MAX_AGE, JournalError, SpotInput, read_journal

SCENARIO = Path(__file__).parents[1] / "games/passpass/referee/scenarios/announce_with_drop.jsonl"


def drop_fed(age: float) -> tuple[PassPassReferee, SpotInput]:
    """The scenario's first input, the drop of a token, fed with `age`."""
    journal = read_journal(SCENARIO)
    drop = journal.inputs[0]
    assert isinstance(drop, SpotInput) and drop.uids
    aged = dataclasses.replace(drop, age=age)
    referee = PassPassReferee(journal.setup)
    referee.feed(aged)
    return referee, aged


def test_a_drop_read_earlier_than_reported_is_judged_that_much_earlier() -> None:
    referee, drop = drop_fed(0.031)
    settle = referee.setup.settle
    assert referee.next_judgment() == pytest.approx(drop.t - 0.031 + settle)
    plain, _ = drop_fed(0.0)
    assert plain.next_judgment() == pytest.approx(drop.t + settle)


def test_an_absurd_age_is_held_to_the_bound_and_never_raises() -> None:
    referee, drop = drop_fed(7.0)  # only a hand-made input can say this: the link clamps
    assert referee.next_judgment() == pytest.approx(drop.t - MAX_AGE + referee.setup.settle)
    referee, drop = drop_fed(-1.0)
    assert referee.next_judgment() == pytest.approx(drop.t + referee.setup.settle)


def test_an_older_reading_reported_late_never_moves_a_later_change_back() -> None:
    referee, drop = drop_fed(0.0)
    other = SpotInput(drop.t + 0.02, 5, frozenset(["B1000001"]), age=0.2)
    referee.feed(other)  # read 0.18 s before the drop was reported: the drop is later
    assert referee.next_judgment() == pytest.approx(drop.t + referee.setup.settle)


def test_the_journal_keeps_an_age_and_refuses_one_out_of_bounds(tmp_path: Path) -> None:
    lines = SCENARIO.read_text().splitlines()
    first = json.loads(lines[1])
    good = tmp_path / "aged.jsonl"
    good.write_text("\n".join([lines[0], json.dumps(first | {"age": 0.031}), *lines[2:]]) + "\n")
    aged = read_journal(good).inputs[0]
    assert isinstance(aged, SpotInput) and aged.age == 0.031
    assert aged.to_json()["age"] == 0.031
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(first | {"age": 1.5}), *lines[2:]]) + "\n")
    with pytest.raises(JournalError, match="age"):
        read_journal(bad)
