"""A club night under load: N simulated tables on one Mosquitto, one `companion club`.

`.venv/bin/python bench/club_load.py [--tables 50] [--seconds 60] [--pace 2]` starts
Debian's Mosquitto (the config and ACL of docs/club.md, one user per table, on a free
loopback port), a club process (the board, its reader and its page, as `companion club`
runs them, with a service's 1,024 open files) and, in this process, N simulated tables
(the real referee loop, journal and `TableLink` of `companion run` with [club]), of the
four games in turn. Each table plays its simulated game at one act every PACE seconds
(the tables staggered). For every state the club receives, the delay is taken from the
moment the act that made it was handed to its table's referee loop to the moment the
club's board has it (both clocks are this machine's wall clock). At the end: the median
and p99 delay, and the memory (RSS, peak) of the broker and of the club process.

`--attack` (issue 37) adds, after a few seconds, while the tables play: one more table's
credentials sending a FRAME_MIB MiB frame, then RESULTS valid results in ATTACK_SECONDS
(`tests/club/flood.py`, a process of its own), and IDLE idle connections to the club's page
from 40 addresses (kept open: one the club closes is opened again a second later), while the bench
polls ``/api/board`` every half second as a page does. It prints the polls' times and
sizes, the club's memory before and after (RSS and peak), its log's growth, what the
board counted of the attacker, and the other tables' delays during the attack.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("ptipasspass", "flipdone", "swiped", "vnp")
FILES = 1024
"""The club process's open files: a service's default (systemd's soft limit)."""
ROGUE = "table-rogue"
"""The table whose credentials the attack uses."""


def key(payload: bytes) -> str:
    return hashlib.blake2b(payload, digest_size=8).hexdigest()


def club_child(port: int, folder: str) -> None:
    """The club process: prints ``ready PAGE_PORT``, then ``TABLE KEY TIME`` for every
    state its board applies; logs to its stderr as `companion club` does."""
    import logging

    from companion.club.board import Board
    from companion.club.page import ClubServer
    from companion.club.reader import ClubReader
    from tests.club.conftest import CLUB, password

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, hard))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    board = Board()
    apply = board.apply

    def timed(table: str, kind: str, payload: bytes) -> list[dict[str, Any]]:
        if kind == "state":
            print(table, key(payload), f"{time.time():.6f}", flush=True)
        return apply(table, kind, payload)

    board.apply = timed  # type: ignore[method-assign]
    server = ClubServer(board, "fr", "127.0.0.1", 0)
    page = server.start()
    ca = Path(folder) / "broker" / "club-ca.crt"  # the broker speaks TLS, as docs/club.md
    reader = ClubReader(board, Path(folder) / "night.jsonl", "127.0.0.1", port, CLUB,
                        password(CLUB), ca, retry=1)  # fmt: skip
    reader.start()
    reader.connected.wait(10)
    print("ready", page, flush=True)
    sys.stdin.read()  # until the parent closes it
    reader.stop()
    server.stop()


def idle_child(port: int, count: int) -> None:
    """``count`` idle connections to the page from 40 addresses of 127/8, each opened
    again a second after the page closed it, until stdin closes; prints ``held``."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    chosen = selectors.DefaultSelector()  # epoll: no limit on file numbers
    closed: list[tuple[float, int]] = []

    def open_one(i: int) -> None:
        s = socket.socket()
        s.bind((f"127.0.0.{2 + i % 40}", 0))
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        chosen.register(s, selectors.EVENT_READ, i)

    for i in range(count):
        open_one(i)
    print("held", flush=True)

    def until_stdin_closes() -> None:
        sys.stdin.read()
        chosen.close()

    threading.Thread(target=until_stdin_closes, daemon=True).start()
    while True:
        try:  # stdin closed: the selector is, and whatever it was doing fails
            ready = chosen.select(0.1)
            for held, _ in ready:  # closed by the page (or refused): opened again in a second
                chosen.unregister(held.fileobj)
                held.fileobj.close()  # type: ignore[union-attr]
                closed.append((time.monotonic() + 1.0, held.data))
            while closed and closed[0][0] <= time.monotonic():
                open_one(closed.pop(0)[1])
        except (OSError, ValueError, KeyError):
            return


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


def cpu(pid: int) -> float:
    """CPU seconds (user and system) a process has spent."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Attack:
    """Issue 37's attacks on the club, started `after` seconds into the night."""

    results: int = 250_000
    seconds: float = 25.0
    frame_mib: int = 100
    idle: int = 1100
    after: float = 10.0


@dataclass
class Attacked:
    """What the attacks did."""

    polls: list[tuple[float, float, int, int]]
    """Each ``/api/board`` poll during the attacks: (when it began, wall clock; seconds;
    status or 0; bytes)."""
    calm_polls: list[tuple[float, float, int, int]]
    """Those before the attacks."""
    club_rss_before: tuple[float, float]
    flood_seconds: float
    """How long the flood took to publish (the broker had every message)."""
    log_bytes: int
    """The club's log during the attacks."""
    club_cpu: float
    """CPU seconds the club process spent during the attacks."""
    board: dict[str, Any]
    """The board's JSON at the end."""
    window: tuple[float, float]
    """The attacks' start and end (wall clock)."""
    baseline: list[float] = field(default_factory=list)
    """The other tables' delays before the attacks, in ms, sorted."""


@dataclass(frozen=True)
class Load:
    """What one run measured."""

    tables: int
    seconds: float
    acts: int
    delays: list[float]
    """Each timed state's delay, act to club, in ms, sorted (with an attack: the states of
    the acts made while it lasted)."""
    broker_rss: tuple[float, float]
    club_rss: tuple[float, float]
    """(RSS, peak) in MB."""
    attacked: Attacked | None = None

    @property
    def p99(self) -> float:
        return percentile(self.delays, 0.99)


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))] if values else float("nan")


def measure(count: int, seconds: float, pace: float, attack: Attack | None = None) -> Load:
    """`count` tables playing for `seconds`, one act each every `pace` seconds; with
    `attack`, attacked meanwhile."""
    from companion.run.items import Scripted
    from tests.club.conftest import Mosquitto, SimTable

    names = tuple(f"table-{i + 1}" for i in range(count))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "broker").mkdir()
        users = (*names, ROGUE) if attack else names
        broker = Mosquitto("/usr/sbin/mosquitto", "mosquitto_passwd", folder / "broker", users)
        broker.start()
        log = folder / "club.log"
        with open(log, "w") as err:
            club = subprocess.Popen(
                [sys.executable, __file__, "--club-child", str(broker.port), tmp],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
            )  # fmt: skip
        assert club.stdin is not None and club.stdout is not None
        page = int(club.stdout.readline().split()[1])
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
        attacks: list[Attacked] = []
        if attack is not None:
            threading.Thread(
                target=lambda: attacks.append(run_attack(attack, broker, club.pid, page, log)),
                daemon=True,
            ).start()
        start = time.monotonic()
        acts = 0
        step = pace / len(tables)
        while time.monotonic() - start < seconds or (attack is not None and not attacks):
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
    attacked = attacks[0] if attacks else None
    begin, end = attacked.window if attacked else (0.0, float("inf"))
    first: dict[tuple[str, str], float] = {}
    for name, k, t in received:  # a state again (the club's refresh) is not a delay
        first.setdefault((name, k), t)
    timed = [(stamps[at], (t - stamps[at]) * 1000)
             for at, t in first.items() if stamps.get(at, 0) > 0]  # fmt: skip
    delays = sorted(d for acted, d in timed if begin <= acted <= end)
    if attacked is not None:
        attacked.baseline = sorted(d for acted, d in timed if acted < begin)
    return Load(count, seconds, acts, delays, broker_rss, club_rss, attacked)


@contextmanager
def process(*args: str) -> Iterator[subprocess.Popen[str]]:
    """A helper process of the bench (``args`` after the interpreter), stopped after."""
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        yield proc
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def poll(page: int, polls: list[tuple[float, float, int, int]], done: threading.Event) -> None:
    """``/api/board`` every half second on a new connection each time (a new viewer, the
    worst case: a page keeps its connection), until ``done``: (when, wall clock; seconds;
    status or 0 when there was no answer; bytes) each."""
    while not done.wait(0.5):
        at, began = time.time(), time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", page, timeout=30)
            connection.request("GET", "/api/board")
            answer = connection.getresponse()
            polls.append((at, time.monotonic() - began, answer.status, len(answer.read())))
            connection.close()
        except OSError:
            polls.append((at, time.monotonic() - began, 0, 0))


def run_attack(attack: Attack, broker: Any, club: int, page: int, log: Path) -> Attacked:
    """The attacks at once, ``/api/board`` polled every half second meanwhile."""
    from tests.club.conftest import password

    polls: list[tuple[float, float, int, int]] = []
    done = threading.Event()
    threading.Thread(target=poll, args=(page, polls, done), daemon=True).start()
    time.sleep(attack.after)
    calm = len(polls)
    before = rss(club)
    log_before = log.stat().st_size
    cpu_before = cpu(club)
    flood = ("-m", "tests.club.flood", "--port", str(broker.port), "--table", ROGUE,
             "--password", password(ROGUE), "--tls-ca", str(broker.tls_ca))  # fmt: skip
    window_start = time.time()
    with (
        process(__file__, "--idle-child", str(page), str(attack.idle)) as idle,
        process(*flood, "--frame", str(attack.frame_mib << 20), "--results",
                str(attack.results), "--seconds", str(attack.seconds)) as flooding,
    ):  # fmt: skip
        assert idle.stdout is not None and flooding.stdout is not None
        idle.stdout.readline()
        flooding.stdout.readline()  # frame sent
        said = flooding.stdout.readline().split()  # published N results in T s
        flood_seconds = float(said[4]) if len(said) > 4 else float("nan")
        time.sleep(5.0)  # what the club still has to read
    window_end = time.time()
    done.set()
    connection = http.client.HTTPConnection("127.0.0.1", page, timeout=30)
    connection.request("GET", "/api/board")
    board = json.loads(connection.getresponse().read())
    grew = log.stat().st_size - log_before
    return Attacked(polls[calm:], polls[:calm], before, flood_seconds, grew,
                    cpu(club) - cpu_before, board, (window_start, window_end))  # fmt: skip


def attack_lines(got: Load) -> list[str]:
    """The attack's figures, as lines."""
    a = got.attacked
    assert a is not None
    times = sorted(t for _, t, status, _ in a.polls if status == 200)
    calm = sorted(t for _, t, status, _ in a.calm_polls if status == 200) or [float("nan")]
    failed = Counter(status for _, _, status, _ in a.polls if status != 200)
    slow = [f"+{at - a.window[0]:.1f} s" for at, t, _, _ in a.polls if t > 1]
    rogue = [t for t in a.board.get("tables", []) if t["name"] == ROGUE]
    counted = a.board.get("results_total", len(a.board.get("results", [])))
    median = statistics.median(times) * 1000 if times else float("nan")
    largest = max((n for *_, n in a.polls), default=0) / 1024
    return [
        f"/api/board polled {len(a.polls)} times during the attacks: "
        f"{sum(failed.values())} failed {dict(failed)} (0: no answer), "
        f"{len(slow)} answered after 1 s {slow}, median {median:.0f} ms, "
        f"max {times[-1] * 1000 if times else float('nan'):.0f} ms, largest {largest:.0f} KiB "
        f"(before the attacks: {len(calm)} polls, median {statistics.median(calm) * 1000:.0f} "
        f"ms, max {calm[-1] * 1000:.0f} ms)",
        f"flood published in {a.flood_seconds:.1f} s; the club's CPU during the attacks "
        f"{a.club_cpu:.1f} s; the board counted {counted} results in all; the attacker's "
        f"card: refused {rogue[0].get('refused', '?') if rogue else '?'}",
        f"club RSS {a.club_rss_before[0]:.1f} MB before -> {got.club_rss[0]:.1f} MB after "
        f"(peak {got.club_rss[1]:.1f} MB); broker RSS {got.broker_rss[0]:.1f} MB (peak "
        f"{got.broker_rss[1]:.1f})",
        f"club log grew {a.log_bytes / 1024:.1f} KiB during the attacks",
        f"the {got.tables} other tables' states during the attacks: {len(got.delays)} timed, "
        f"median {statistics.median(got.delays) if got.delays else float('nan'):.0f} ms, "
        f"p99 {got.p99:.0f} ms, max {got.delays[-1] if got.delays else float('nan'):.0f} ms "
        f"(before the attacks: {len(a.baseline)} timed, median "
        f"{statistics.median(a.baseline) if a.baseline else float('nan'):.0f} ms, p99 "
        f"{percentile(a.baseline, 0.99):.0f} ms)",
    ]


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
the club's board applying the state it made (the snapshot, the link's thread, paho, the
broker, the club's paho thread and its intake).

| tables | acts/s | states timed | median ms | p99 ms | max ms | broker RSS | club process RSS |
|---|---|---|---|---|---|---|---|
| {got.tables} | {got.acts / got.seconds:.0f} | {len(d):,} | {statistics.median(d):.1f} | {got.p99:.1f} | {d[-1]:.1f} | {got.broker_rss[0]:.1f} MB | {got.club_rss[0]:.1f} MB |

No target. The tail is partly the bench's own: the tables share one Python process (three
threads each under one GIL: referee loop, link worker, paho loop), where on a club night
each has its own Pi. The broker holds each table's retained state and frame (a few KB
each); the club process is mostly its Python, aiohttp and the games' modules.

`--attack` runs issue 37's attacks on the club while the tables play (a 100 MiB frame,
250,000 valid results in 25 s from one table's credentials, 1,100 idle connections to the
page) and prints what they did (`/api/board`'s times and sizes, the club's memory, CPU and
log, the other tables' delays); it is run by hand, not for this section.
"""  # noqa: E501


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between acts")
    parser.add_argument("--attack", action="store_true", help="issue 37's attacks meanwhile")
    parser.add_argument("--results", type=int, default=Attack.results)
    parser.add_argument("--attack-seconds", type=float, default=Attack.seconds)
    parser.add_argument("--frame-mib", type=int, default=Attack.frame_mib)
    parser.add_argument("--idle", type=int, default=Attack.idle)
    parser.add_argument("--club-child", nargs=2, metavar=("PORT", "FOLDER"), help=argparse.SUPPRESS)
    parser.add_argument("--idle-child", nargs=2, metavar=("PORT", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.club_child:
        club_child(int(args.club_child[0]), args.club_child[1])
        return 0
    if args.idle_child:
        idle_child(int(args.idle_child[0]), int(args.idle_child[1]))
        return 0
    attack = None
    if args.attack:
        attack = Attack(args.results, args.attack_seconds, args.frame_mib, args.idle)
    got = measure(args.tables, args.seconds, args.pace, attack)
    d = got.delays
    print(f"{got.tables} tables, {got.acts} acts in {got.seconds:g} s "
          f"({got.acts / got.seconds:.1f}/s), {len(d)} states timed")  # fmt: skip
    if got.attacked is not None:
        print("\n".join(attack_lines(got)))
        return 0
    print(f"delay act -> club: median {statistics.median(d):.1f} ms, p99 {got.p99:.1f} ms, "
          f"max {d[-1]:.1f} ms")  # fmt: skip
    print(f"broker RSS {got.broker_rss[0]:.1f} MB (peak {got.broker_rss[1]:.1f}); club "
          f"process RSS {got.club_rss[0]:.1f} MB (peak {got.club_rss[1]:.1f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
