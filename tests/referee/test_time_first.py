"""People's pace, the two rules every game shares (docs/table.md): time first, then the
input, so a deadline due at the very moment of an input fires before it; and a press held
while the table settles takes effect before a game deadline that falls after it. Played
by the test game (Tally) given deadlines of its own: a game's window, its end at a time."""

from __future__ import annotations

from typing import Any

from companion.journal import Input, PressInput, Setup, SpotInput, TickInput
from companion.referee.pace import LOOP_GUARD
from tests.games.tally.referee import TallyReferee

SETUP = Setup("tally", ("Ana", "Bob"), {}, settle=0.5)


class Timed(TallyReferee):
    """Tally with deadlines (a window closing at each of `ends`) and presses that count."""

    def __init__(self, *ends: float) -> None:
        super().__init__(SETUP)
        self.ends = sorted(ends)

    def deadline(self) -> float | None:
        return self.ends[0] if self.ends else None

    def on_deadline(self) -> None:
        self.emit({"kind": "window_closed", "due": self.ends.pop(0)})

    def press(self, press: PressInput) -> None:
        self.emit({"kind": "pressed", "pressed": press.t})


def events(referee: Timed, inputs: list[Input]) -> list[tuple[Any, ...]]:
    """(time, kind, when it was due or pressed) of the windows closed and the presses."""
    fed = [e for record in inputs for e in referee.feed(record)]
    return [
        (e["t"], e["kind"], e.get("due", e.get("pressed")))
        for e in fed
        if e["kind"] in ("window_closed", "pressed")
    ]


def test_a_window_closing_at_the_moment_of_a_press_closes_first() -> None:
    """Due at or before t: a press at the very end of a window comes after it."""
    assert events(Timed(5.0), [PressInput(5.0, "menteur", 1)]) == [
        (5.0, "window_closed", 5.0),
        (5.0, "pressed", 5.0),
    ]
    assert events(Timed(5.0), [PressInput(4.999, "menteur", 1), TickInput(6.0)]) == [
        (4.999, "pressed", 4.999),
        (5.0, "window_closed", 5.0),
    ]


def test_a_press_held_while_the_table_settles_counts_before_a_window_closing_after_it() -> None:
    """A pebble dropped at 4.8 settles until 5.3; a press at 4.9 is held meanwhile, and the
    window closing at 5.0 waits for it: the press is applied (once the table is judged)
    before the window closes, as pressed in time."""
    inputs: list[Input] = [
        SpotInput(4.8, 1, frozenset({"P1"})),
        PressInput(4.9, "menteur", 1),
        TickInput(6.0),
    ]
    assert events(Timed(5.0), inputs) == [(5.3, "pressed", 4.9), (5.3, "window_closed", 5.0)]
    # Pressed after the window's end, the window closes first (time first), then the
    # press is applied at the judgment.
    late: list[Input] = [inputs[0], PressInput(5.1, "menteur", 1), inputs[2]]
    assert events(Timed(5.0), late) == [(5.0, "window_closed", 5.0), (5.3, "pressed", 5.1)]
    # Pressed at the very moment the window ends, the table settling: the window closes
    # first (time first), as it would with the table still; the press counts at 5.3.
    at_the_end: list[Input] = [inputs[0], PressInput(5.0, "menteur", 1), inputs[2]]
    assert events(Timed(5.0), at_the_end) == [(5.0, "window_closed", 5.0), (5.3, "pressed", 5.0)]


def test_a_judgment_due_at_the_moment_of_a_press_comes_first() -> None:
    """The settle's end is a deadline like any other: a pebble dropped at 4.5 is judged at
    5.0, so a press at exactly 5.0 finds the table judged and counts at once (not held)."""
    inputs: list[Input] = [SpotInput(4.5, 1, frozenset({"P1"})), PressInput(5.0, "menteur", 1)]
    assert events(Timed(), inputs) == [(5.0, "pressed", 5.0)]


def test_an_event_is_timed_to_the_millisecond() -> None:
    """docs/journal.md: every event's `t` is the time it happened, rounded to the
    millisecond."""
    assert events(Timed(), [PressInput(4.98765, "menteur", 1)]) == [(4.988, "pressed", 4.98765)]


def wakes_at(referee: Timed, inputs: list[Input]) -> float:
    """When the live loop, having fed `inputs`, would wake (`next_due`), checked against
    what happens: a tick a moment before it changes nothing, a tick then fires something."""
    for record in inputs:
        referee.feed(record)
    due = referee.next_due()
    assert due is not None
    assert referee.feed(TickInput(due - 0.01)) == []
    assert referee.feed(TickInput(due)) != []
    return due


def test_the_loop_wakes_when_the_next_thing_happens_a_held_press_first() -> None:
    """The live loop sleeps until the referee's next deadline (`next_due`). A press held
    while the table settles makes the window closing before the judgment wait for it: the
    loop wakes at the judgment (5.3), not at the window's end. With nothing held, the
    window closes on time: the loop wakes at 5.0, not at the judgment."""
    drop = SpotInput(4.8, 1, frozenset({"P1"}))
    assert wakes_at(Timed(5.0), [drop, PressInput(4.9, "menteur", 1)]) == 5.3
    assert wakes_at(Timed(5.0), [drop]) == 5.0
    assert wakes_at(Timed(6.0), [drop, PressInput(4.9, "menteur", 1)]) == 5.3


def test_a_deadline_that_never_moves_is_a_bug_said_as_such() -> None:
    """A game whose deadline does not move when it fires would fire it forever: the
    referee raises (journaled as a crash) after `LOOP_GUARD` of them."""

    class Stuck(Timed):
        def on_deadline(self) -> None:
            self.emit({"kind": "window_closed", "due": self.ends[0]})  # never removed

    stuck = Stuck(5.0)
    try:
        stuck.feed(TickInput(6.0))
    except RuntimeError as exc:
        assert "deadlines do not advance at t=5.0" in str(exc)
    else:
        raise AssertionError("a stuck deadline went unnoticed")
    assert sum(e["kind"] == "window_closed" for e in stuck.events) == LOOP_GUARD
