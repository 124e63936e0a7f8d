"""Helpers of the pairing tests: a live table whose pace of tries runs on a clock moved by
hand (the tries are judged by it, not by the socket), and guesses from any address."""

from __future__ import annotations

from pathlib import Path

from companion import games
from companion.web.pairing import Tries

from .table import Answer, Client, LiveTable


class Clock:
    """The pace's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def paced_table(data_dir: Path) -> tuple[LiveTable, Clock]:
    """A PtiPassPass table of 4 seats whose pace of tries runs on a `Clock`."""
    table = LiveTable(data_dir, games.get("ptipasspass").simulated_setup(4, 3))
    clock = Clock()
    table.web.pairings.tries = Tries(clock)
    return table, clock


def wrong(table: LiveTable) -> str:
    """A code that is not the one the OLED shows (one digit off)."""
    return f"{(int(table.web.pairings.code) + 1) % 10**6:06d}"


def guess(client: Client, code: object, seat: int = 0) -> Answer:
    return client.post("/api/pair", {"code": code, "seat": seat})


def address(i: int) -> str:
    """The `i`-th of 65,536 loopback addresses (127.1.0.0 up), all reaching the page."""
    return f"127.1.{i // 256}.{i % 256}"
