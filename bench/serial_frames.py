"""Host frame parse-and-dispatch rate of the Pico link (companion/devices/serial_link.py).

    .venv/bin/python bench/serial_frames.py

A byte stream shaped like a busy table (19 readers: 60 % S frames with 0-2 UIDs, 30 %
full F snapshots, 10 % PONG/E/B) is encoded with the firmware's own protocol module and
fed in 4 KiB chunks to ``SerialLink.feed``, the exact path the link thread runs after each
read: line splitting, CRC, body parsing, sequence check, comparison with the known sets
and ``put_nowait`` of the observations on a ``queue.SimpleQueue``. No serial port is
involved. The target is 50,000 frames/s; a Pico sends about 20 to 100 frames/s. Its
README section (`readme`, bench/readme.py) holds the median of the passes against it.
"""

import argparse
import importlib.util
import queue
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verdict import judge  # noqa: E402

from companion.devices.serial_link import SerialLink  # noqa: E402

spec = importlib.util.spec_from_file_location("fw_protocol", ROOT / "firmware" / "protocol.py")
assert spec is not None and spec.loader is not None
fwp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fwp)

READERS = 19
FRAMES = 200_000
TARGET = 50_000


def stream(n: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    uids = [f"04{i:02X}A1B2C3D4{i:02X}" for i in range(40)] + [f"8A{i:02X}11F0" for i in range(40)]
    sets: list[list[str]] = [[] for _ in range(READERS)]
    out = [fwp.encode(0, fwp.hello("0.1.0", READERS))]
    for seq in range(1, n):
        roll = rng.random()
        if roll < 0.6:
            r = rng.randrange(READERS)
            sets[r] = rng.sample(uids, rng.randrange(3))
            body = fwp.state(r, sets[r])
        elif roll < 0.9:
            body = fwp.full(sets)
        elif roll < 0.95:
            body = fwp.pong()
        elif roll < 0.98:
            body = fwp.fault(rng.randrange(READERS), "absent")
        else:
            body = fwp.button("reset", rng.random() < 0.5)
        out.append(fwp.encode(seq % 65536, body))
    return b"".join(out)


def passes(data: bytes, runs: int) -> tuple[list[float], int]:
    """Frames per second of each of `runs` passes over `data`, and the observations a
    pass dispatches."""
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    rates = []
    for _ in range(runs):
        link = SerialLink("unused")
        sink: queue.SimpleQueue[object] = queue.SimpleQueue()
        link.bind(sink)  # type: ignore[arg-type]
        start = time.perf_counter()
        for chunk in chunks:
            link.feed(chunk)
        elapsed = time.perf_counter() - start
        assert link.stats.frames == FRAMES and link.stats.dropped_observations == 0
        rates.append(FRAMES / elapsed)
    return rates, sink.qsize()


def readme(quick: bool) -> str:
    """bench/README.md's section: 5 passes (quick: 3)."""
    runs = 3 if quick else 5
    rates, _ = passes(stream(FRAMES), runs)
    verdict = judge(rates, TARGET, higher_is_better=True, unit="frames/s", digits=0)
    return f"""## serial_frames.py — host frame parse and dispatch

`.venv/bin/python bench/serial_frames.py` feeds {FRAMES:,} frames shaped like a busy table
(encoded by the firmware's own protocol module) through the link's parse-and-dispatch
path, {runs} passes: **{verdict.median:,.0f} frames/s** (median; passes
{verdict.low:,.0f}–{verdict.high:,.0f}). Target {TARGET:,} frames/s: {verdict}. A Pico
sends about 20 to 100 frames/s.
"""


def main() -> None:
    data = stream(FRAMES)
    rates, observations = passes(data, 3)
    best = max(rates)
    print(
        f"{FRAMES} frames ({len(data) / FRAMES:.0f} bytes each on average), "
        f"{observations} observations per pass"
    )
    print(
        f"parse + dispatch: {best:,.0f} frames/s (best of 3), target {TARGET:,}: "
        f"{'OK' if best >= TARGET else 'BELOW TARGET'}"
    )


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    main()
