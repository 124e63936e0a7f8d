"""One table's credentials turned against the club (issue 37): valid results as fast as
asked, as many of their games announced as a ``games`` list holds, and a frame of any
size. Run as a process of its own, as an attacker's machine would be (its paho thread
never shares the club's interpreter):

    python -m tests.club.flood --port PORT --table table-a --password PW \\
        [--results 250000 --seconds 25] [--frame BYTES] [--tls-ca CA]

The frame goes first (retained, then a state of no shape), on a connection of its own:
prints ``frame sent`` once the broker has both, or ``frame refused`` when the broker
closed the connection instead (docs/club.md's ``max_packet_size``). Then the results,
on another connection: prints ``published N results in T s`` once the broker has them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from datetime import UTC, datetime

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.club.topics import FRAME, GAMES, RESULT, STATE, announcement, topic

ANNOUNCED = 1000
"""Games the flood announces (a ``games`` list of about 100 KB): its first results."""
SEATS = ["Mallory", "Eve"]
OUTSTANDING = 20_000
"""Results sent and not acknowledged yet, at most."""
PNG = b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4) + b"IHDR" + (128).to_bytes(4) + (64).to_bytes(4)


def game_id(table: str, i: int) -> str:
    return f"{table}-flood-{i}"


def result(table: str, i: int) -> bytes:
    """A result of the shape a table sends: Mallory beats Eve."""
    return json.dumps({
        "id": game_id(table, i), "table": table, "game": "swiped", "title": "Swiped",
        "rules": {}, "seats": SEATS, "scores": [9, 0], "winner": 0, "duration": 60.0,
        "ended": datetime.now(UTC).isoformat(timespec="seconds"),
    }).encode()  # fmt: skip


def connect(port: int, table: str, password: str, tls_ca: str | None) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"flood-{table}-{os.getpid()}")
    client.username_pw_set(table, password)
    if tls_ca:
        client.tls_set(ca_certs=tls_ca)
    client.max_inflight_messages_set(1000)
    connected = threading.Event()
    client.on_connect = lambda *_: connected.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    if not connected.wait(10):
        raise SystemExit("flood: the broker did not answer")
    return client


def send_frame(client: mqtt.Client, table: str, size: int) -> bool:
    """A frame of ``size`` bytes (retained), then a state of no shape (its refusal says the
    club has read up to here); False when the broker closed the connection instead of
    acknowledging them (never sent again: the connection is stopped)."""
    closed = threading.Event()
    client.on_disconnect = lambda *_: closed.set()
    frame = PNG + b"\0" * (size - len(PNG))
    sent = [client.publish(topic(table, FRAME), frame, qos=1, retain=True)]
    sent.append(client.publish(topic(table, STATE), b"{}", qos=1, retain=True))
    deadline = time.monotonic() + 60
    while not all(info.is_published() for info in sent):
        if closed.wait(0.05) or time.monotonic() > deadline:
            client.loop_stop()  # paho would send the frame again at its next connection
            return False
    return True


def flood(client: mqtt.Client, table: str, count: int, seconds: float, qos: int) -> float:
    """``count`` results in ``seconds`` (paced), after the announcement of the first
    `ANNOUNCED` games; the seconds it took until the broker had them all."""
    started = datetime.now(UTC).isoformat(timespec="seconds")
    games = [announcement(game_id(table, i), "swiped", SEATS, started) for i in range(ANNOUNCED)]
    client.publish(topic(table, GAMES), json.dumps(games), qos=1, retain=True).wait_for_publish()
    acked = [0]
    client.on_publish = lambda *_: acked.__setitem__(0, acked[0] + 1)
    begin = time.monotonic()
    last = None
    for i in range(count):
        ahead = begin + seconds * i / count - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
        while qos and i - acked[0] > OUTSTANDING:  # paho numbers 65,535 messages at most
            time.sleep(0.001)
        last = client.publish(topic(table, RESULT), result(table, i), qos=qos)
    if last is not None:
        last.wait_for_publish(120)
    return time.monotonic() - begin


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--tls-ca")
    parser.add_argument("--results", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--qos", type=int, default=1)
    parser.add_argument("--frame", type=int, default=0, help="bytes of a frame to send")
    args = parser.parse_args(argv)
    if args.frame:
        client = connect(args.port, args.table, args.password, args.tls_ca)
        kept = send_frame(client, args.table, args.frame)
        print("frame sent" if kept else "frame refused", flush=True)
        client.disconnect()
        client.loop_stop()
    if args.results:
        client = connect(args.port, args.table, args.password, args.tls_ca)
        took = flood(client, args.table, args.results, args.seconds, args.qos)
        print(f"published {args.results} results in {took:.1f} s", flush=True)
        client.disconnect()
        client.loop_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
