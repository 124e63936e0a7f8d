"""The table's web page under a LAN stranger's attacks (issue 24), with figures.

`.venv/bin/python bench/web_attacks.py [--seconds S] [--idle N]` starts a live table (the
real referee loop, journal and web page, as `companion run` has them) in a child process
whose limit of open files is systemd's default (1,024), then, from this process:

1. guesses pairing codes from one address as fast as it can for S seconds: how many
   tries the page judged (answered "wrong code") and how many it refused as too fast;
2. opens N idle connections (from 20 addresses of 127/8) and times `GET /api/state`;
3. times how long an idle connection and a slowloris (a header every 0.5 s) stay open;

and counts what the child logged meanwhile (lines and bytes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OPEN_FILES = 1024


def serve(folder: str) -> None:
    """The child: a live table with systemd's default limit of open files."""
    import logging

    from companion import games
    from tests.web.table import LiveTable

    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    table = LiveTable(Path(folder), games.get("ptipasspass").simulated_setup(4, 3))
    print(table.port, flush=True)
    sys.stdin.read()  # until the parent closes it
    table.close()


def post(port: int, path: str, body: dict[str, object]) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


def guessing(port: int, seconds: float) -> None:
    statuses: dict[int, int] = {}
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        status, _ = post(port, "/api/pair", {"code": "000000", "seat": 0})
        statuses[status] = statuses.get(status, 0) + 1
    judged = statuses.get(403, 0) + statuses.get(400, 0)
    print(f"guessing for {seconds:.0f} s from one address: {judged} codes judged "
          f"({judged / seconds:.2f} a second), {statuses.get(429, 0)} refused as too fast "
          f"(429), answers {statuses}")  # fmt: skip


def state_ms(port: int) -> float:
    """Milliseconds `GET /api/state` took; infinity when it did not answer within 5 s."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as answer:
            answer.read()
    except OSError:
        return float("inf")
    return (time.monotonic() - started) * 1000


def idle(port: int, count: int) -> list[socket.socket]:
    socks: list[socket.socket] = []
    started = time.monotonic()
    while len(socks) < count:
        batch = []
        for i in range(100):
            sock = socket.socket()
            sock.bind((f"127.0.0.{2 + (len(socks) + i) % 20}", 0))
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            batch.append(sock)
        poll = select.poll()
        for sock in batch:
            poll.register(sock, select.POLLOUT)
        poll.poll(2000)
        socks += batch
        time.sleep(0.02)
    print(f"{count} idle connections opened in {time.monotonic() - started:.1f} s")
    return socks


def lifetime(port: int, trickle: bool) -> float:
    sock = socket.create_connection(("127.0.0.1", port))
    started = time.monotonic()
    if trickle:
        sock.sendall(b"GET /api/state HTTP/1.1\r\n")
    sock.settimeout(0.5)
    while time.monotonic() - started < 120:
        try:
            if sock.recv(100) == b"":
                break
        except TimeoutError:
            if trickle:
                try:
                    sock.sendall(b"X-A: b\r\n")
                except OSError:
                    break
        except OSError:
            break
    sock.close()
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.idle + 1000)), hard))
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "log", "w+b") as log:
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", folder],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, cwd=ROOT,
        )  # fmt: skip
        assert child.stdout is not None and child.stdin is not None
        port = int(child.stdout.readline())
        try:
            guessing(port, args.seconds)
            print(f"an idle connection lives {lifetime(port, False):.1f} s, a slowloris "
                  f"{lifetime(port, True):.1f} s")  # fmt: skip
            before = [state_ms(port) for _ in range(5)]
            socks = idle(port, args.idle)
            during = [state_ms(port) for _ in range(5)]
            print(f"GET /api/state: median {statistics.median(before):.1f} ms before; with "
                  f"{args.idle} idle connections median {statistics.median(during):.1f} ms, "
                  f"max {max(during):.1f} ms")  # fmt: skip
            for sock in socks:
                sock.close()
        finally:
            child.stdin.close()
            child.wait(10)
        log.seek(0)
        lines = log.read().decode(errors="replace").splitlines()
        print(f"the page logged {len(lines)} lines, {os.path.getsize(log.name)} bytes "
              f"(limit of open files {OPEN_FILES}); tracebacks: "
              f"{sum('Traceback' in line for line in lines)}")  # fmt: skip
        for line in lines:
            if "event " not in line:
                print("   ", line[:150])
    return 0


if __name__ == "__main__":
    sys.exit(main())
