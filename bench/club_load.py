"""A club night under load: N simulated tables on one Mosquitto, one `companion club`.

`.venv/bin/python bench/club_load.py [--tables 50] [--seconds 60] [--pace 2]` starts
Debian's Mosquitto (the config and ACL of docs/club.md, one user per table, on a free
loopback port), a club process (the board, its reader and its page, as `companion club`
runs them) and, in this process, N simulated tables (the real referee loop, journal and
`TableLink` of `companion run` with [club]), of the four games in turn. Each table plays
its simulated game at one act every PACE seconds (the tables staggered). For every state
the club receives, the delay is taken from the moment the act that made it was handed to
its table's referee loop to the moment the club's reader has it (both clocks are this
machine's wall clock). At the end: the median and p99 delay, and the memory (RSS, peak)
of the broker and of the club process.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("ptipasspass", "flipdone", "swiped", "vnp")


def key(payload: bytes) -> str:
    return hashlib.blake2b(payload, digest_size=8).hexdigest()


def club_child(port: int, folder: str) -> None:
    """The club process: prints ``TABLE KEY TIME`` for every state its reader applies."""
    from companion.club.board import Board
    from companion.club.page import ClubServer
    from companion.club.reader import ClubReader
    from tests.club.conftest import CLUB, password

    board = Board()
    apply = board.apply

    def timed(table: str, kind: str, payload: bytes) -> list[dict[str, Any]]:
        if kind == "state":
            print(table, key(payload), f"{time.time():.6f}", flush=True)
        return apply(table, kind, payload)

    board.apply = timed  # type: ignore[method-assign]
    server = ClubServer(board, "fr", "127.0.0.1", 0)
    server.start()
    ca = Path(folder) / "broker" / "club-ca.crt"  # the broker speaks TLS, as docs/club.md
    reader = ClubReader(board, Path(folder) / "night.jsonl", "127.0.0.1", port, CLUB,
                        password(CLUB), ca, retry=1)  # fmt: skip
    reader.start()
    reader.connected.wait(10)
    print("ready", flush=True)
    sys.stdin.read()  # until the parent closes it
    reader.stop()
    server.stop()


class Stamped:
    """A table's publisher that notes, for each snapshot, when its act was handed over."""

    def __init__(self, publisher: Any, name: str, stamps: dict[tuple[str, str], float]) -> None:
        self.publisher = publisher
        self.name = name
        self.stamps = stamps
        self.acted_at = 0.0

    def snapshot(self) -> Any:
        from companion.club.topics import state_payload

        snapshot = self.publisher.snapshot()
        if snapshot is not None:
            self.stamps[(self.name, key(state_payload(snapshot.view)))] = self.acted_at
        return snapshot


def rss(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) of a process, in MB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


@dataclass(frozen=True)
class Load:
    """What one run measured."""

    tables: int
    seconds: float
    acts: int
    delays: list[float]
    """Each timed state's delay, act to club, in ms, sorted."""
    broker_rss: tuple[float, float]
    club_rss: tuple[float, float]
    """(RSS, peak) in MB."""

    @property
    def p99(self) -> float:
        return self.delays[min(len(self.delays) - 1, int(len(self.delays) * 0.99))]


def measure(count: int, seconds: float, pace: float) -> Load:
    """`count` tables playing for `seconds`, one act each every `pace` seconds."""
    from companion.run.items import Scripted
    from tests.club.conftest import Mosquitto, SimTable

    names = tuple(f"table-{i + 1}" for i in range(count))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "broker").mkdir()
        broker = Mosquitto("/usr/sbin/mosquitto", "mosquitto_passwd", folder / "broker", names)
        broker.start()
        club = subprocess.Popen(
            [sys.executable, __file__, "--club-child", str(broker.port), tmp],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert club.stdin is not None and club.stdout is not None
        assert club.stdout.readline().strip() == "ready"
        received: list[tuple[str, str, float]] = []

        def read() -> None:
            assert club.stdout is not None
            for line in club.stdout:
                table, k, t = line.split()
                received.append((table, k, float(t)))

        threading.Thread(target=read, daemon=True).start()
        stamps: dict[tuple[str, str], float] = {}
        tables = []
        for i, name in enumerate(names):
            table = SimTable(name, GAMES[i % len(GAMES)], broker, folder / name, seed=i + 1)
            stamped = Stamped(table.link.publisher, name, stamps)
            table.link.publisher = stamped  # type: ignore[assignment]
            tables.append((table, stamped))
        time.sleep(2.0)  # every table connected and its first state delivered
        start = time.monotonic()
        acts = 0
        step = pace / len(tables)
        while time.monotonic() - start < seconds:
            for table, stamped in tables:
                if table.fed < len(table.inputs) and not table.session.referee.finished:
                    stamped.acted_at = time.time()
                    table.inbox.put(Scripted(table.inputs[table.fed]))
                    table.fed += 1
                    acts += 1
                time.sleep(step)
        time.sleep(2.0)  # the last states arrive
        broker_rss = rss(broker.process.pid) if broker.process else (0.0, 0.0)
        club_rss = rss(club.pid)
        for table, _ in tables:
            table.close()
        club.stdin.close()
        club.wait(10)
        broker.kill()
    delays = sorted(
        (t - stamps[(table, k)]) * 1000
        for table, k, t in received
        if (table, k) in stamps and stamps[(table, k)] > 0
    )
    return Load(count, seconds, acts, delays, broker_rss, club_rss)


def readme(quick: bool) -> str:
    """bench/README.md's section: 50 tables for 60 s (quick: 10 tables for 15 s)."""
    got = measure(10, 15.0, 2.0) if quick else measure(50, 60.0, 2.0)
    d = got.delays
    return f"""## club_load.py — a club night: {got.tables} tables on one broker

`.venv/bin/python bench/club_load.py [--tables 50] [--seconds 60] [--pace 2]` starts
Debian's Mosquitto (docs/club.md's config and ACL, one user per table, loopback), a club
process (board, reader and page, as `companion club` runs them) and, in the bench's own
process, N simulated tables (the real referee loop, journal and `TableLink` of `companion
run` with [club]; the four games in turn), each playing its simulated game at one act every
PACE seconds, staggered. The delay runs from the act handed to its table's referee loop to
the club's reader applying the state it made (the snapshot, the link's thread, paho, the
broker, the club's paho thread).

| tables | acts/s | states timed | median ms | p99 ms | max ms | broker RSS | club process RSS |
|---|---|---|---|---|---|---|---|
| {got.tables} | {got.acts / got.seconds:.0f} | {len(d):,} | {statistics.median(d):.1f} | {got.p99:.1f} | {d[-1]:.1f} | {got.broker_rss[0]:.1f} MB | {got.club_rss[0]:.1f} MB |

No target. The tail is partly the bench's own: the tables share one Python process (three
threads each under one GIL: referee loop, link worker, paho loop), where on a club night
each has its own Pi. The broker holds each table's retained state and frame (a few KB
each); the club process is mostly its Python, aiohttp and the games' modules.
"""  # noqa: E501


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between acts")
    parser.add_argument("--club-child", nargs=2, metavar=("PORT", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.club_child:
        club_child(int(args.club_child[0]), args.club_child[1])
        return 0
    got = measure(args.tables, args.seconds, args.pace)
    d = got.delays
    print(f"{got.tables} tables, {got.acts} acts in {got.seconds:g} s "
          f"({got.acts / got.seconds:.1f}/s), {len(d)} states timed")  # fmt: skip
    print(f"delay act -> club: median {statistics.median(d):.1f} ms, p99 {got.p99:.1f} ms, "
          f"max {d[-1]:.1f} ms")  # fmt: skip
    print(f"broker RSS {got.broker_rss[0]:.1f} MB (peak {got.broker_rss[1]:.1f}); club "
          f"process RSS {got.club_rss[0]:.1f} MB (peak {got.club_rss[1]:.1f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
