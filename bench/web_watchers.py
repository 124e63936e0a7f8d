"""A room of phones watching one table: what each placement costs the page.

`.venv/bin/python bench/web_watchers.py [--watchers 1,10,50,200] [--changes C]` starts a
live table of "Vous ne passerez pas !" (two seats, 13 x 13: the real referee loop, journal
and web page in threads, as `companion run` has them) in a child process, opens W
server-sent event streams (`GET /api/live`, unpaired, as a watching phone's page does) on
loopback sockets from this process, and plays C placements through a paired seat
(`POST /api/act`). For each placement it times, from the request to the moment the last
of the W streams has received its whole new `state` event, and reads the child's CPU time
(`time.process_time`) before and after: the referee's step, the snapshot and every
stream's event, everything the service spends on it.

Its README section (`readme`, bench/readme.py) runs every count of watchers three times,
interleaved, and holds 200 watchers' CPU per placement against twice one watcher's
(bench/verdict.py), the figures before issue 30 kept as history.
"""

from __future__ import annotations

import argparse
import json
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from verdict import judge  # noqa: E402

TARGET = 2.0
"""200 watchers may cost at most this many times one watcher's CPU per placement."""
HISTORY = """History (measured then, not regenerated): "before" is this bench run on the code
before issue 30 (commit fe98f88: each stream's state, 28 to 35 KB here, rebuilt and
serialized for it alone), "after" on issue 30's change (recorded in commits ac0104c
and, for the second pair, 2a9ad67), back to back on the shared 2-core machine. Last
stream median / p99 ms, CPU ms per placement:

| watchers | before: median / p99 | before: CPU | after: median / p99 | after: CPU |
|---|---|---|---|---|
| 1 | 26.4 / 156 | 8.6 | 11.4 / 65 | 8.3 |
| 10 | 46.9 / 140 | 23.9 | 22.5 / 195 | 10.7 |
| 50 | 154.5 / 563 | 77.9 | 28.2 / 1,030 (one outlier: a busy machine) | 12.8 |
| 200 | 473.0 / 965 | 259.5 | 40.4 / 95 | 14.5 |

A second interleaved pair, before then after:

| watchers | before: median / p99 | before: CPU | after: median / p99 | after: CPU |
|---|---|---|---|---|
| 1 | 9.3 / 75 | 7.7 | 19.0 / 91 | 10.2 |
| 10 | 35.6 / 186 | 19.4 | 25.5 / 85 | 12.8 |
| 50 | 102.6 / 473 | 67.9 | 19.5 / 121 | 12.8 |
| 200 | 435.9 / 936 | 272.6 | 56.7 / 159 | 21.4 |

Before, 200 watchers cost 29x to 35x one watcher's CPU."""


def _more_files() -> None:
    """Room for a few hundred sockets."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))


def serve(folder: str) -> None:
    """The child: a live VNP table whose page admits many streams; answers `code` (the
    pairing code) and `cpu` (its CPU seconds) on stdin."""
    import dataclasses

    from companion import games
    from companion.web.gate import Limits
    from tests.web.table import LiveTable

    _more_files()
    setup = games.get("vnp").simulated_setup(2, 1)
    setup = dataclasses.replace(setup, rules={**(setup.rules or {}), "size": 13})
    limits = Limits(connections=1000, per_client=1000, streams=1000, streams_per_client=1000)
    table = LiveTable(Path(folder), setup, limits=limits)
    print(table.port, flush=True)
    for line in sys.stdin:
        if line.strip() == "code":
            print(table.web.pairings.code, flush=True)
        elif line.strip() == "cpu":
            print(time.process_time(), flush=True)
    table.close()


class Watchers:
    """W streams read by one thread: the arrival time of each whole `state` event."""

    def __init__(self, port: int, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.buffers: list[bytearray] = []
        self.arrivals: list[list[float]] = []
        self.last: bytes = b""
        """Stream 0's latest event data: the board to play on."""
        self.lock = threading.Lock()
        for index in range(count):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)
            self.buffers.append(bytearray())
            self.arrivals.append([])
        self.running = True
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while self.running:
            for key, _ in self.selector.select(0.1):
                index = key.data
                chunk = key.fileobj.recv(1 << 20)  # type: ignore[union-attr]
                now = time.perf_counter()
                buffer = self.buffers[index]
                buffer += chunk
                while (end := buffer.find(b"\n\n")) >= 0:
                    event = bytes(buffer[:end])
                    del buffer[: end + 2]
                    if b"event: state" in event:
                        with self.lock:
                            self.arrivals[index].append(now)
                            if index == 0:
                                self.last = event.split(b"data: ", 1)[1]

    def counts(self) -> list[int]:
        with self.lock:
            return [len(a) for a in self.arrivals]

    def wait(self, before: list[int], timeout: float = 30.0) -> float:
        """Until every stream has a new event; the time of the last arrival."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            with self.lock:
                if all(len(a) > n for a, n in zip(self.arrivals, before, strict=True)):
                    return max(a[n] for a, n in zip(self.arrivals, before, strict=True))
            time.sleep(0.0005)
        raise SystemExit("a stream got no event within 30 s")

    def board(self) -> dict[str, Any]:
        with self.lock:
            return dict(json.loads(self.last)["board"])

    def close(self) -> None:
        self.running = False
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


def ask(child: subprocess.Popen[str], what: str) -> str:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(what + "\n")
    child.stdin.flush()
    return child.stdout.readline().strip()


def run(count: int, changes: int) -> tuple[list[float], list[float]]:
    """Delays (ms) of the last stream and CPU (ms) of the child, per placement."""
    import tempfile

    from tests.web.table import Client

    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            port = int(ask(child, ""))
            phones = []
            for seat in (0, 1):
                phone = Client("127.0.0.1", port)
                answer = phone.post("/api/pair", {"code": ask(child, "code"), "seat": seat})
                phone.csrf = answer.json()["csrf"]
                phones.append(phone)
            watchers = Watchers(port, count)
            watchers.wait([0] * count)
            time.sleep(0.3)  # the pairings' events have all arrived
            delays: list[float] = []
            cpus: list[float] = []
            while len(delays) < changes:
                board = watchers.board()
                if board["over"]:
                    break
                phone = phones[board["seat"]]
                before = watchers.counts()
                if not board["legal"]:
                    phone.act("pass", {"colour": board["turn"]})
                    watchers.wait(before)
                    continue
                _, _, segments = max(board["legal"], key=lambda p: (len(p[2]), -p[0]))
                cpu0 = float(ask(child, "cpu"))
                t0 = time.perf_counter()
                answer = phone.act("place", {"colour": board["turn"], "segments": segments})
                if answer.status != 200:
                    raise SystemExit(f"placement refused ({answer.status}): {answer.body!r}")
                last = watchers.wait(before)
                time.sleep(0.02)  # anything the placement still costs the child
                cpus.append((float(ask(child, "cpu")) - cpu0) * 1000)
                delays.append((last - t0) * 1000)
            watchers.close()
        finally:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(10)
    return delays, cpus


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def readme(quick: bool) -> str:
    """bench/README.md's section: 1, 10, 50 and 200 watchers, 3 runs interleaved of 30
    placements (quick: 2 runs of 15)."""
    runs, changes, counts = (2, 15, (1, 10, 50, 200)) if quick else (3, 30, (1, 10, 50, 200))
    _more_files()
    got: dict[int, list[tuple[list[float], list[float]]]] = {c: [] for c in counts}
    for _ in range(runs):
        for count in counts:
            got[count].append(run(count, changes))
    rows = []
    for count in counts:
        medians = [statistics.median(d) for d, _ in got[count]]
        tails = [p99(d) for d, _ in got[count]]
        cpus = [statistics.median(c) for _, c in got[count]]
        rows.append(
            f"| {count} | {statistics.median(medians):.1f} ({min(medians):.1f}–"
            f"{max(medians):.1f}) | {statistics.median(tails):.0f} ({min(tails):.0f}–"
            f"{max(tails):.0f}) | {statistics.median(cpus):.1f} ({min(cpus):.1f}–"
            f"{max(cpus):.1f}) |"
        )
    most, one = max(counts), min(counts)
    ratios = [
        statistics.median(a[1]) / statistics.median(b[1])
        for a, b in zip(got[most], got[one], strict=True)
    ]
    verdict = judge(ratios, TARGET, unit="x", digits=2)
    return f"""## web_watchers.py — a room of phones on one table's page

`.venv/bin/python bench/web_watchers.py [--watchers 1,10,50,200] [--changes C]` starts a
live two-seat "Vous ne passerez pas !" table (13 x 13; the real referee loop, journal and
page, as `companion run` has them) in a child process, opens W server-sent event streams
(`/api/live`, unpaired, as watching phones) on loopback sockets, and plays {changes}
placements through a paired seat. Per placement: from `POST /api/act` to the moment the
last of the W streams has its whole new event (median, p99), and the child's CPU time
(the referee's step, the snapshot and every stream's event). {runs} runs of every count,
interleaved: the median of the runs' figures (min–max).

| watchers | last stream: median ms | p99 ms | CPU ms per placement |
|---|---|---|---|
{chr(10).join(rows)}

Target: {most} watchers at most {TARGET:g}x one watcher's CPU per placement, run by run:
{verdict}.

The public state is serialized once per change (and per change of the open seats), and
every unpaired watcher is written the very same bytes; a paired phone's event is the
same bytes with its `you` (seat, name, csrf) spliced in before the closing brace. What is
left per watcher is waking its stream and one socket write of the whole event (on
loopback the kernel's copy and the receiving side's work are charged to the sender). The
next lever is the event's size (the 200 lines of history and VNP's legal placements are
sent whole at every change).

{HISTORY}
"""


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", default="1,10,50,200")
    parser.add_argument("--changes", type=int, default=30)
    args = parser.parse_args()
    _more_files()
    print("| watchers | placements | last stream: median ms | p99 ms | CPU ms per placement |")
    print("|---|---|---|---|---|")
    for count in (int(w) for w in args.watchers.split(",")):
        delays, cpus = run(count, args.changes)
        print(f"| {count} | {len(delays)} | {statistics.median(delays):.1f} | {p99(delays):.1f} | "
              f"{statistics.median(cpus):.1f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
