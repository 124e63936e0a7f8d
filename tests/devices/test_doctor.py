"""``companion doctor`` against the fake Pico on a pseudo-terminal."""

from __future__ import annotations

import io
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.devices import scan_model
from companion.devices.doctor import run_doctor
from companion.devices.serial_link import SerialLink
from tests.devices.conftest import FWP, FakePico

NTAG = "04A1B2C3D4E5F6"


class Responder:
    """Plays a running Pico: a snapshot every 0.2 s and on SYNC, PONG on PING, and a
    HELLO after the doctor's Ctrl-C, Ctrl-D soft restart. With ``timing`` (the body of a T
    frame) it accepts ``CONF stats=1`` and follows each snapshot with that T frame; without,
    it refuses it as a firmware that predates the timings does."""

    def __init__(self, pico: FakePico, sets: list[list[str] | None]) -> None:
        self.pico = pico
        self.sets = sets
        self.timing: str | None = None
        self.stats = False
        self.settle: list[int] = []  # every settle_us it was given, since the last HELLO
        self.takes_settle = True
        self.faults: list[tuple[int, str]] = []  # E frames sent with each snapshot
        self.needs: dict[int, int] = {}  # reader -> the power-up wait its tag needs (us)
        self.cycles = 0  # scan cycles since the last settle_us, 10 a snapshot
        self.conf: dict[str, int] = {}
        self.period = 0.2  # seconds between snapshots
        self.pong_delay = 0.0  # seconds a PONG takes
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        self.pico.wait_opened()
        answered = 0
        last = 0.0
        restarts = 0
        pongs: list[float] = []  # when each PONG is due
        while not self.stop.is_set():
            cmds = self.pico.commands()
            for cmd in cmds[answered:]:
                if cmd[0] == "PING":
                    pongs.append(time.monotonic() + self.pong_delay)
                elif cmd[0] == "SYNC":
                    self.snapshot()
                elif cmd == ("CONF", "stats", "1"):
                    self.stats = self.timing is not None
                    self.pico.send(FWP.ok("stats", 1) if self.stats else FWP.bad("conf stats"))
                elif cmd[:2] == ("CONF", "settle_us"):
                    if self.takes_settle:
                        self.settle.append(int(cmd[2]))
                        self.cycles = 0  # the firmware's timing window starts again
                        self.pico.send(FWP.ok("settle_us", int(cmd[2])))
                    else:
                        self.pico.send(FWP.bad("conf settle_us"))
                elif cmd[0] == "CONF" and cmd[1] in ("debounce", "heartbeat_ms"):
                    self.conf[cmd[1]] = int(cmd[2])
                    self.pico.send(FWP.ok(cmd[1], int(cmd[2])))
            answered = len(cmds)
            while pongs and pongs[0] <= time.monotonic():
                pongs.pop(0)
                self.pico.send(FWP.pong())
            if self.pico.received.count(b"\x04") > restarts:
                restarts += 1
                self.settle = []
                self.pico.seq = 0
                self.pico.send(FWP.hello("0.1.0", len(self.sets)))
            if time.monotonic() - last > self.period:
                last = time.monotonic()
                self.snapshot()
            time.sleep(0.01)

    def snapshot(self) -> None:
        for reader, code in self.faults:
            self.pico.send(FWP.fault(reader, code))
        settle = self.settle[-1] if self.settle else 300
        sets = [[] if settle < self.needs.get(r, 0) else s for r, s in enumerate(self.sets)]
        self.pico.send(FWP.full(sets))
        self.cycles += 10
        if self.stats and self.timing is not None:
            self.pico.send(self.timing.replace("cycles=64", f"cycles={min(self.cycles, 64)}"))


@pytest.fixture
def responder(pico: FakePico) -> Iterator[Responder]:
    r = Responder(pico, [[NTAG], [], None])
    r.thread.start()
    yield r
    r.stop.set()
    r.thread.join(1)


def fast_link(port: str) -> SerialLink:
    return SerialLink(port, hello_wait=0.1, sync_interval=0.1, read_timeout=0.02)


def test_doctor_reports_version_readers_and_faults(pico: FakePico, responder: Responder) -> None:
    out = io.StringIO()
    code = run_doctor(
        None, seconds=0.6, find=lambda: [str(pico.path)], make_link=fast_link, out=out
    )
    text = out.getvalue()
    assert "firmware 0.1.0, protocol 1, 3 readers" in text
    assert "PONG in" in text
    assert f"pad: ok, 1 tag(s) {NTAG}" in text
    assert "spot 2: FAULT" in text
    assert code == 1 and text.rstrip().endswith("NOT healthy")


def test_doctor_says_what_a_stalled_core_1_means(pico: FakePico, responder: Responder) -> None:
    """The firmware reports the readers of a wedged core 1's bus ``stalled``: the doctor
    names the core, not the wiring."""
    responder.sets = [[NTAG], None, None]
    responder.faults = [(1, "stalled"), (2, "stalled")]
    out = io.StringIO()
    assert run_doctor(str(pico.path), seconds=0.5, make_link=fast_link, out=out) == 1
    text = out.getvalue()
    assert "spot 1: FAULT stalled (core 1, which scans this reader's SPI bus, stopped" in text
    assert "spot 2: FAULT stalled" in text and "CS line" not in text


def test_doctor_names_both_spots_of_a_tag_lying_across_them(
    pico: FakePico, responder: Responder
) -> None:
    responder.sets = [[], None, None]
    responder.faults = [(1, "shared_2"), (2, "shared_1")]
    out = io.StringIO()
    assert run_doctor(str(pico.path), seconds=0.5, make_link=fast_link, out=out) == 1
    text = out.getvalue()
    assert "spot 1: FAULT shared_2 (one tag lies across this spot and spot 2" in text
    assert "spot 2: FAULT shared_1 (one tag lies across this spot and spot 1" in text


def test_doctor_healthy_and_missing_readers(pico: FakePico, responder: Responder) -> None:
    responder.sets = [[NTAG], [], []]
    out = io.StringIO()
    assert run_doctor(str(pico.path), seconds=0.5, make_link=fast_link, out=out) == 0
    assert out.getvalue().rstrip().endswith("healthy")
    out = io.StringIO()
    assert run_doctor(str(pico.path), seconds=0.3, readers=5, make_link=fast_link, out=out) == 1
    assert "spot 4: MISSING (the Pico has 3 readers)" in out.getvalue()


def test_doctor_without_a_pico() -> None:
    out = io.StringIO()
    assert run_doctor(None, find=lambda: [], out=out) == 1
    assert "no Pico found on USB (vendor 2E8A" in out.getvalue()


def test_doctor_names_the_enrolled_tags(pico: FakePico, responder: Responder) -> None:
    """With the registry of the data directory, each tag seen says what it was enrolled as."""
    responder.sets = [[NTAG], ["8A2C11F0"], []]
    out = io.StringIO()
    tags = {NTAG: "animal:lapin"}
    assert run_doctor(str(pico.path), seconds=0.5, make_link=fast_link, out=out, tags=tags) == 0
    text = out.getvalue()
    assert f"pad: ok, 1 tag(s) {NTAG} (animal:lapin)" in text
    assert "spot 1: ok, 1 tag(s) 8A2C11F0 (not enrolled)" in text


def test_doctor_command_reports_the_data_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import main
    from companion.devices.registry import TagRegistry

    TagRegistry(tmp_path / "data").enroll(NTAG, "animal:lapin")
    config = tmp_path / "companion.toml"
    config.write_text('[display]\ndriver = "dummy"\n[controls]\nenabled = false\n')
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    assert main(["doctor", "--display-only", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"data directory: {tmp_path / 'data'} (from $COMPANION_DATA), 1 tag(s) enrolled" in out


def doctor_says(
    pico: FakePico, responder: Responder, timing: str, status: int = 0, settle_us: int | None = None
) -> str:
    """What the doctor prints when the Pico reports ``timing`` (a ``T`` body), checking its
    exit status."""
    responder.timing = timing
    out = io.StringIO()
    code = run_doctor(
        str(pico.path), seconds=0.6, make_link=fast_link, out=out, settle_us=settle_us
    )
    assert code == status, out.getvalue()
    return out.getvalue()


def test_doctor_waits_for_a_slow_picos_pong_and_timings(
    pico: FakePico, responder: Responder
) -> None:
    """A Pico slower than a wall second (an emulated one on a loaded machine): its PONG
    after 1.3 s and a snapshot, timings included, every 1.5 s. A watch shorter than that
    waits for the first timings; the Pico is healthy."""
    responder.sets = [[NTAG], []]
    responder.period = 1.5
    responder.pong_delay = 1.3
    responder.timing = FWP.timing(64, (4300, 4400, 6100), 192, (1390, 1402, 3100))
    out = io.StringIO()
    code = run_doctor(str(pico.path), seconds=0.2, make_link=fast_link, out=out)
    text = out.getvalue()
    assert re.search(r"PING: PONG in 1[3-9]\d\d ms", text), text
    assert "scan cycle: min 4.3 / median 4.4 / max 6.1 ms over the last" in text, text
    assert code == 0 and text.rstrip().endswith("\nhealthy"), text


def test_doctor_prints_the_firmware_timings_next_to_the_model(
    pico: FakePico, responder: Responder
) -> None:
    """Three readers, one tag on the pad: the model, MicroPython's time charged at the
    RP2040's costs, against a measured median cycle 1.1 times its interpreter share."""
    responder.sets = [[NTAG], [], []]
    model = scan_model.cycle_ms([1, 0, 0])
    air = scan_model.cycle_ms([1, 0, 0], interpreter=False)
    median = round((air + 1.1 * (model - air)) * 1000)
    text = doctor_says(
        pico,
        responder,
        FWP.timing(64, (median - 100, median, median + 1700), 192, (1390, 1402, 3100)),
    )
    assert f"scan cycle: min {(median - 100) / 1000:.1f} / median {median / 1000:.1f}" in text
    assert "reader visit: min 1.39 / median 1.40 / max 3.10 ms over the last 192 visits" in text
    assert f"model: {model:.1f} ms per cycle for 3 readers holding 1 tag(s) on one SPI bus" in text
    assert "MicroPython charged at the RP2040's costs fitted on both cores of the emulated " in text
    assert f"within its model: median cycle {median / 1000 / model:.2f}x" in text
    assert "slower than its model" not in text
    bound = scan_model.implied_scale(
        scan_model.cycle_ms([1, 0, 0], cost=scan_model.RP2040_XIP_US), [1, 0, 0]
    )
    assert (
        "interpreter: this Pico spends about x1.10 the MicroPython time of the emulated "
        f"RP2040 (x1.00 with no flash cache miss, x{bound:.2f} with the cache model's upper "
        "bound of misses)" in text
    )


def test_doctor_models_a_table_on_two_buses_by_its_slower_half(
    pico: FakePico, responder: Responder
) -> None:
    """The pad on bus 0 holds a tag; readers 1 and 2, empty, are on bus 1: the cores scan
    both at once, so the cycle is the slower half's."""
    responder.sets = [[NTAG], [], []]
    text = doctor_says(
        pico, responder, FWP.timing(64, (3200, 3300, 3900), 192, (700, 1750, 3000), "011")
    )
    model = max(scan_model.cycle_ms([1]), scan_model.cycle_ms([0, 0]))
    assert scan_model.cycle_ms([1, 0, 0], buses=[0, 1, 1]) == pytest.approx(model)
    assert f"model: {model:.1f} ms per cycle for 3 readers holding 1 tag(s) on two SPI" in text
    assert f"within its model: median cycle {3.3 / model:.2f}x the modelled one" in text


def test_doctor_names_a_bus_carrying_more_readers_than_it_scans_in_time(
    pico: FakePico, responder: Responder
) -> None:
    """Twelve readers, every one on SPI0: two hats of three on them could not keep to the
    45 ms a cycle; the same table on two buses says nothing of it."""
    responder.sets = [[NTAG]] + [[] for _ in range(11)]
    timing = FWP.timing(64, (12000, 12100, 13000), 768, (700, 800, 1500))
    text = doctor_says(pico, responder, timing)
    worst = scan_model.worst_cycle_ms([3, 3] + [1] * 10)
    assert (
        f"SPI0 carries 12 readers, more than the {scan_model.readers_a_bus()} one bus scans in "
        f"time: with two hats of three tokens on it a scan cycle can take {worst:.0f} ms" in text
    )
    text = doctor_says(
        pico, responder, FWP.timing(64, (6000, 6100, 7000), 768, None, "0" * 6 + "1" * 6)
    )
    assert "carries" not in text


def test_doctor_says_when_the_cycle_leaves_no_time_to_the_interpreter(
    pico: FakePico, responder: Responder
) -> None:
    """A median cycle of 2.5 ms is shorter than the air and SPI time the model gives three
    readers, one holding a tag (2.9 ms): no scale can be read from it."""
    responder.sets = [[NTAG], [], []]
    text = doctor_says(pico, responder, FWP.timing(64, (2400, 2500, 2600), 192, (700, 800, 1500)))
    assert "interpreter: not measurable" in text
    assert "air and SPI time alone (2.9 ms, for 7-byte tags" in text
    assert "spends about" not in text


def test_doctor_says_when_the_table_is_slower_than_its_model(
    pico: FakePico, responder: Responder
) -> None:
    """A faulty reader is not scanned: two readers, one holding a tag, 80 ms measured."""
    text = doctor_says(pico, responder, FWP.timing(40, (70000, 80000, 95000), 0, None), status=1)
    model = scan_model.cycle_ms([1, 0])
    assert "reader visit: not timed by this firmware" in text
    assert f"model: {model:.1f} ms per cycle for 2 readers holding 1 tag(s)" in text
    assert (
        f"slower than its model: median cycle 80.0 ms is {80 / model:.1f}x the modelled "
        f"{model:.1f} ms (more than 1.5x)" in text
    )


def test_doctor_with_an_old_firmware_without_timings(pico: FakePico, responder: Responder) -> None:
    responder.sets = [[NTAG], [], []]
    out = io.StringIO()
    assert run_doctor(str(pico.path), seconds=0.5, make_link=fast_link, out=out) == 0
    text = out.getvalue()
    assert "scan timings: this firmware does not time itself (update it" in text
    assert "scan cycle" not in text and "model:" not in text
    assert "0 malformed" in text and text.rstrip().endswith("healthy")


def test_doctor_gives_the_pico_the_power_up_wait_to_try(
    pico: FakePico, responder: Responder
) -> None:
    """Given after the soft restart too, since a reset forgets it."""
    responder.sets = [[NTAG], [], []]
    out = io.StringIO()
    code = run_doctor(str(pico.path), seconds=0.4, make_link=fast_link, out=out, settle_us=200)
    assert code == 0, out.getvalue()
    assert "the tags' power-up wait: settle_us = 200 µs" in out.getvalue()
    assert responder.settle == [200]


def test_doctor_says_when_the_pico_refuses_the_power_up_wait(
    pico: FakePico, responder: Responder
) -> None:
    responder.sets = [[NTAG], [], []]
    responder.takes_settle = False
    out = io.StringIO()
    code = run_doctor(str(pico.path), seconds=0.4, make_link=fast_link, out=out, settle_us=200)
    assert code == 1
    assert "settle_us: refused by the Pico (out of its range, or an older firmware)" in (
        out.getvalue()
    )


def test_doctor_models_the_table_with_the_power_up_wait_it_gave(
    pico: FakePico, responder: Responder
) -> None:
    """settle_us 1000 instead of the bench's 300: 0.7 ms more for each of the three visits;
    the interpreter's share of the measured cycle is what is left of it."""
    responder.sets = [[NTAG], [], []]
    timing = FWP.timing(64, (6900, 7000, 8000), 192, (1390, 1402, 3100))
    text = doctor_says(pico, responder, timing, settle_us=1000)
    model = scan_model.cycle_ms([1, 0, 0], settle_us=1000)
    assert model == pytest.approx(scan_model.cycle_ms([1, 0, 0]) + 2.1)
    assert f"model: {model:.1f} ms per cycle for 3 readers holding 1 tag(s) on one SPI bus" in text
    scale = scan_model.implied_scale(7.0, [1, 0, 0], settle_us=1000)
    assert f"this Pico spends about x{scale:.2f} the MicroPython time" in text


def test_doctor_finds_the_power_up_wait_the_slowest_tag_needs(
    pico: FakePico, responder: Responder
) -> None:
    """The pad's tag reads from 700 us on (the others from 0): the search halves its way
    down from 5.1 ms, finds 700 (650 misses), recommends twice it, and gives the Pico its
    debounce, wait and heartbeat back."""
    responder.sets = [[NTAG], ["04AABBCCDDEEFF"], ["04112233445566"]]
    responder.needs = {0: 700}
    responder.timing = FWP.timing(64, (4300, 4400, 6100), 192, (1390, 1402, 3100))
    out = io.StringIO()
    code = run_doctor(
        str(pico.path), seconds=0.3, make_link=fast_link, out=out, find_settle=20, step_timeout=10
    )
    text = out.getvalue()
    assert code == 0, text
    tried = [int(m) for m in re.findall(r"settle_us (\d+): ", text)]
    assert tried == [5100, 0, 2550, 1250, 600, 900, 750, 650, 700]
    assert "settle_us 0: missed on pad" in text and "settle_us 650: missed on pad" in text
    assert "read every tag: 700 µs; recommended: 1400 µs" in text
    assert responder.settle[-1] == 300  # the configured wait back
    assert responder.conf == {"debounce": 3, "heartbeat_ms": 1000}


def test_doctor_says_when_no_power_up_wait_reads_every_tag(
    pico: FakePico, responder: Responder
) -> None:
    responder.sets = [[NTAG], [], []]
    responder.needs = {0: 9000}
    responder.timing = FWP.timing(64, (4300, 4400, 6100), 192, (1390, 1402, 3100))
    out = io.StringIO()
    code = run_doctor(
        str(pico.path), seconds=0.3, make_link=fast_link, out=out, find_settle=20, step_timeout=10
    )
    assert code == 1
    assert "no reader holds a tag" in out.getvalue()  # at 5.1 ms the pad's tag is not read
