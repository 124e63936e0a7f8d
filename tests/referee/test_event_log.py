"""A referee's events as its readers use them: a count from the game's start and the new
ones since a cursor, whether the log keeps every event or only the last ones."""

from __future__ import annotations

import pytest

from companion.referee.event_log import EventLog


def test_unbounded_it_is_a_list() -> None:
    log: EventLog[int] = EventLog(range(5))
    assert len(log) == 5 and log == [0, 1, 2, 3, 4] and list(reversed(log)) == [4, 3, 2, 1, 0]
    assert log[2:] == [2, 3, 4] and log[-1] == 4 and log[1:3] == [1, 2] and log[:0] == []


def test_bounded_it_counts_every_event_and_keeps_the_last() -> None:
    log: EventLog[int] = EventLog(keep=10)
    seen = 0
    news: list[int] = []
    for i in range(1000):
        log.append(i)
        news.extend(log[seen:])  # a reader's cursor, as the web page and consoles keep
        seen = len(log)
    assert news == list(range(1000)) and len(log) == 1000
    assert 10 <= len(list(log)) < 20 and list(log)[-1] == 999 and log[-1] == 999
    assert log[995] == 995 and log[990:993] == [990, 991, 992]
    assert log[0:] == list(log)  # what is gone is gone: the slice starts at the oldest kept
    with pytest.raises(IndexError):
        log[0]


def test_a_bound_set_later_trims_at_once() -> None:
    log: EventLog[int] = EventLog(range(100))
    log.bound(10)
    assert log.first == 90 and len(log) == 100 and log[-10:] == list(range(90, 100))
    with pytest.raises(ValueError):
        log.bound(0)
