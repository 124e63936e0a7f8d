"""The club's intake (`companion.club.intake`): whatever one table sends, the board gets
each of its kinds at a bounded pace, the latest of each, a bounded share of results, and
another table's message within one turn."""

from __future__ import annotations

import threading
import time

from companion.club.board import Bounds
from companion.club.intake import LATEST, Intake, Rates
from tests.club.conftest import wait_for


class Handed:
    """What the intake hands the board, and the results it dropped, by table."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[tuple[str, str, bytes]] = []
        self.dropped: dict[str, int] = {}

    def hand(self, table: str, kind: str, payload: bytes) -> None:
        with self.lock:
            self.items.append((table, kind, payload))

    def refused(self, table: str, count: int) -> None:
        with self.lock:
            self.dropped[table] = self.dropped.get(table, 0) + count

    def of(self, table: str, kind: str) -> list[bytes]:
        with self.lock:
            return [p for t, k, p in self.items if (t, k) == (table, kind)]


def test_a_flooding_table_delays_another_by_one_turn_and_gets_its_latest_only() -> None:
    handed = Handed()
    rates = Rates(results_burst=20, results_every=3600)
    intake = Intake(handed.hand, handed.refused, rates=rates)
    for i in range(10_000):
        intake.offer("t1", "result", b"r%d" % i)
        intake.offer("t1", "state", b"s%d" % i)
        intake.offer("t1", "games", b"g%d" % i)
    intake.offer("t2", "state", b"mine")
    intake.start()
    try:
        wait_for(lambda: handed.of("t2", "state"))
        wait_for(lambda: handed.dropped)
        position = handed.items.index(("t2", "state", b"mine"))
        assert position <= len(LATEST) + rates.results_burst  # t1's turn, then t2's
        assert handed.of("t1", "state") == [b"s9999"] and handed.of("t1", "games") == [b"g9999"]
        assert handed.of("t1", "result") == [b"r%d" % i for i in range(20)]
        kinds = [k for t, k, _ in handed.items if t == "t1"]
        assert kinds.index("games") < kinds.index("result")  # a result finds its game
        assert handed.dropped == {"t1": 10_000 - 20}
    finally:
        intake.stop()


def test_a_tables_states_reach_the_board_at_a_bounded_pace_the_latest_last() -> None:
    handed = Handed()
    rates = Rates(every=0.2)
    intake = Intake(handed.hand, handed.refused, rates=rates)
    intake.start()
    try:
        sent = 0
        begin = time.monotonic()
        while time.monotonic() - begin < 1.0:
            sent += 1
            intake.offer("t1", "state", b"s%d" % sent)
        wait_for(lambda: handed.of("t1", "state")[-1:] == [b"s%d" % sent])
        took = time.monotonic() - begin
        states = handed.of("t1", "state")
        assert sent > 1000 and len(states) <= took / rates.every + 2
    finally:
        intake.stop()


def test_a_payload_over_its_bound_is_kept_as_its_bound_and_one_byte() -> None:
    handed = Handed()
    bounds = Bounds()
    intake = Intake(handed.hand, handed.refused, bounds=bounds)
    intake.offer("t1", "frame", b"x" * (10 * bounds.frame))
    intake.offer("t1", "result", b"y" * (bounds.result + 5))
    intake.offer("t1", "nonsense", b"z")
    intake.start()
    try:
        wait_for(lambda: handed.of("t1", "result"))
        assert [len(p) for p in handed.of("t1", "frame")] == [bounds.frame + 1]
        assert [len(p) for p in handed.of("t1", "result")] == [bounds.result + 1]
        assert handed.of("t1", "nonsense") == []
    finally:
        intake.stop()


def test_a_message_the_board_fails_on_never_stops_the_next(caplog) -> None:
    handed = Handed()

    def hand(table: str, kind: str, payload: bytes) -> None:
        if payload == b"boom":
            raise ValueError("a defect")
        handed.hand(table, kind, payload)

    intake = Intake(hand, handed.refused)
    intake.start()
    try:
        intake.offer("t1", "state", b"boom")
        wait_for(lambda: intake.failed == 1)
        intake.offer("t2", "state", b"fine")
        wait_for(lambda: handed.of("t2", "state") == [b"fine"])
        assert [r.getMessage() for r in caplog.records] == [
            "club: a message could not be read (1 so far)"
        ]
    finally:
        intake.stop()
