"""`companion doctor --walk` on the real firmware in the emulated Pico, a builder placing
each token where the walk asks, with wiring faults injected into the board.

The faults are made here, around the board of pico_board.py, without changing it: two
swapped chip selects (the chips behind two CS pins exchanged), a dead reader (a CS pin
with no chip: the MISO pull-down reads zeros), a neighbour that reads across (a tag on
spot 4 powered and heard by reader 5's field too: the firmware reports the two readers
sharing one tag) and a floating MISO (reader 6's chip behind a line that flips random bits
of what it sends back). A clean board passes, its slow tag's power-up timed, and the
service started on its profile gives the Pico that wait. The faulty board's walk counts
its holds in the board's own time as the host reads it (``board_clock``), so a loaded
machine gives it as many scans and loses none of their reports."""

from __future__ import annotations

import argparse
import queue
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chip
import pico_board
import pytest
from conftest import WAIT, board_or_skip

from companion.config import load_config
from companion.devices import protocol
from companion.devices.profile import load_profile
from companion.devices.readers import Observation
from companion.devices.serial_link import SerialLink
from companion.devices.walk import Walk, WalkResult, Wiring, report, walk_command
from companion.run.devices import Devices, start_inputs

pytestmark = pytest.mark.xdist_group("emulated-pico-walk")

LINK: dict[str, Any] = {
    "hello_wait": 0.5,
    "sync_interval": 2.0,
    "silence_timeout": 600.0,
    "garbage_timeout": 600.0,
    "read_timeout": 0.02,
    "backoff": (0.1, 0.5),
}
"""The link's timers stretched: one emulated second, the heartbeat's period, takes about
ten of wall time."""

HOLD = 2.0
"""Seconds a token rests, on the walk's clock (``board_clock``): 0.2 s of the board's time,
about 20 scan cycles of 7 readers. ``walk_command`` (the clean board) counts wall seconds:
fewer cycles on a loaded machine, which a clean board's verdicts do not depend on."""
TIMEOUT = 40.0
"""Seconds for a token to appear or go (it takes one or two), on the walk's clock: 4 s of
the board's time."""


def board_clock(board: pico_board.EmulatedPico) -> Callable[[], float]:
    """The walk's clock: the board's emulated seconds, ten to one (the emulator runs at
    about a tenth of real time on an idle machine), as far as the host has read them
    (``host_ns``), so a hold lasts as many scan cycles however loaded the machine and
    takes in every report of them. No wall time in it: a board that stopped ends the walk
    with its error, and one whose time reaches the host no more for ``WAIT`` seconds with
    a timeout."""
    last = [board.host_ns, time.monotonic()]

    def now() -> float:
        board.check()
        ns = board.host_ns
        if ns != last[0]:
            last[:] = [ns, time.monotonic()]
        elif time.monotonic() - last[1] > WAIT:
            raise TimeoutError(f"the board's time reached the host no more in {WAIT} s")
        return ns / 1e8

    return now


class NoisyLine:
    """A reader's chip behind a floating MISO that picks up its neighbours: each byte it
    sends back has, one time in ten, random bits flipped (seeded), and every byte in
    bursts (60 ms of every 120 ms of the board's time, a neighbour's field on: four
    visits or more in a row misread, which the firmware's debounce of three lets through
    as a loss), so any hold of 0.2 s sees the reader lose its token."""

    BURST_MS, PERIOD_MS = 60, 120

    def __init__(self, device: chip.MFRC522Chip, clock: chip.Clock, seed: int = 6) -> None:
        self.device = device
        self.clock = clock
        self.rng = random.Random(seed)

    def xfer(self, byte: int) -> int:
        out = self.device.xfer(byte)
        burst = self.clock.ns // 1_000_000 % self.PERIOD_MS < self.BURST_MS
        return out ^ self.rng.randrange(1, 256) if burst or self.rng.random() < 0.1 else out

    def __getattr__(self, name: str) -> Any:
        return getattr(self.device, name)


class Builder:
    """Follows the walk's prompts on the board: a new tag on the spot it names (on the chip
    under that spot, whatever the wiring), off again when told."""

    def __init__(
        self,
        board: pico_board.EmulatedPico,
        across: dict[int, int],
        slow: dict[int, int] | None = None,
    ) -> None:
        self.board = board
        self.across = across
        self.slow = slow or {}
        """Spot -> the power-up (µs) of the token laid there for the power-up's timing."""
        self.tag: chip.Tag | None = None
        self.count = 0
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)
        put = re.match(r"Put a token on (?:spot (\d+)|the pad)", text)
        if put:
            spot = int(put.group(1) or 0)
            self.count += 1
            if self.board.chips[spot] is None:  # a dead reader: the tag lies there unread
                return
            uid = bytes([0x04, 0x5A, 0x11, 0x22, 0x33, 0x44, self.count])
            # across: the neighbour's field powers it and hears it too
            self.tag = self.board.place(spot, uid, across=self.across.get(spot))
        elif text.startswith("Lay tokens on the spots"):  # one on each spot it has
            for spot, device in enumerate(self.board.chips):
                if device is not None:
                    uid = bytes([0x04, 0x5A, 0x11, 0x22, 0x33, 0x55, spot])
                    boot = self.slow.get(spot, chip.TAG_BOOT_US)
                    self.board.place(spot, uid, across=self.across.get(spot), boot_us=boot)
        elif text.startswith("Take the token off") and self.tag is not None:
            self.board.remove(self.tag)
            self.tag = None


def _walk(
    board: pico_board.EmulatedPico, readers: int, across: dict[int, int]
) -> tuple[WalkResult, list[str]]:
    inbox: queue.Queue[Observation] = queue.Queue()
    link = SerialLink(str(board.path), **LINK)
    builder = Builder(board, across)
    link.start(inbox)
    try:
        wiring = Wiring({r: pin for r, pin in enumerate(board.cs)})
        result = Walk(
            inbox,
            readers,
            builder.say,
            hold=HOLD,
            timeout=TIMEOUT,
            lang="en",
            wiring=wiring,
            clock=board_clock(board),
        ).run()
        report(result, builder.said.append)
        board.check()
    finally:
        link.stop()
    return result, builder.said


@pytest.fixture
def faulty_board() -> Iterator[pico_board.EmulatedPico]:
    board = board_or_skip(readers=7, fitted=(0, 1, 2, 4, 5, 6))
    try:
        with board.lock:
            cs, chips = board.cs, board._by_cs  # CS pin -> (its SPI bus, the chip behind it)
            (bus1, first), (bus2, second) = chips[cs[1]], chips[cs[2]]
            chips[cs[1]], chips[cs[2]] = (bus1, second), (bus2, first)
            bus6, sixth = chips[cs[6]]
            noisy = NoisyLine(sixth, board.clock)
            chips[cs[6]] = (bus6, noisy)  # type: ignore[assignment]
            board._fields[id(noisy)] = False
        yield board
    finally:
        board.close()


class Console:
    """The command's output as the builder reads it, following its prompts."""

    def __init__(self, builder: Builder) -> None:
        self.builder = builder
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        for line in text.splitlines():
            self.builder.say(line)
        return len(text)

    def flush(self) -> None:
        pass


SLOW_TAG_US = 2000
"""A token that takes 2 ms to power up (the chip model's take 250 µs)."""


def settle_oks(board: pico_board.EmulatedPico) -> list[str]:
    """Every power-up wait the Pico took (its OK to ``CONF settle_us``), in order."""
    frames = protocol.FrameReader().feed(bytes(board.output))
    return [r.value for _, r in frames if isinstance(r, protocol.Ok) and r.key == "settle_us"]


def test_a_clean_board_passes_the_walk_and_the_service_gives_the_pico_the_wait_it_timed(
    tmp_path: Path,
) -> None:
    """The walk command on a clean 3-reader board, then tokens laid on every spot, spot 2's
    slow to power up: the profile holds the lowest wait that read it (just under its 2 ms:
    the firmware's own time between the antenna coming on and the frame's end makes up the
    rest) and twice it; the service, started on that profile with no settle_us in its
    config, gives the Pico that wait."""
    board = board_or_skip(readers=3)
    config = tmp_path / "companion.toml"
    config.write_text(
        '[game]\nname = "ptipasspass"\nlanguage = "en"\n[display]\ndriver = "none"\n'
        f'[controls]\nenabled = false\n[readers]\nkind = "pico"\nport = "{board.path}"\n'
    )
    console = Console(Builder(board, {}, slow={2: SLOW_TAG_US}))
    args = argparse.Namespace(
        config=str(config),
        data_dir=str(tmp_path / "data"),
        port=str(board.path),
        readers=3,
        hold=HOLD,
        timeout=TIMEOUT,
        find_settle=3,
        no_settle=False,
    )

    def link(port: str, settings: dict[str, int]) -> SerialLink:
        return SerialLink(port, settings=settings, **LINK)

    devices = Devices()
    try:
        code = walk_command(args, out=console, make_link=link)
        print(console.text)  # the walk as the builder read it (pytest -rP shows it)
        assert code == 0, console.text
        assert "table passed the walk" in console.text
        profile = load_profile(tmp_path / "data")
        assert profile is not None and profile.healthy and profile.readers == 3
        assert [d["verdict"] for d in profile.details] == ["ok"] * 3
        lowest, settle = profile.settle_lowest_us, profile.settle_us
        assert lowest is not None and SLOW_TAG_US - 500 <= lowest <= SLOW_TAG_US, console.text
        assert settle == 2 * lowest
        missed = [int(m) for m in re.findall(r"settle_us (\d+): missed on spot 2\n", console.text)]
        assert missed and 0 < lowest - max(missed) <= 50, console.text  # the search's step
        assert console.text.count("missed on") == len(missed), console.text  # spot 2's only
        assert settle_oks(board)[-1] == "300"  # the walk gave the firmware its own back
        inbox: queue.Queue[Any] = queue.Queue()
        started = start_inputs(
            devices, inbox, load_config(str(config)), sim=False, sim_input=None, menu=False,
            data_dir=tmp_path / "data",
        )  # fmt: skip
        assert started
        board.wait_for(lambda: settle_oks(board)[-1] == str(settle), WAIT, "the profile's wait")
        board.check()
    finally:
        devices.stop()
        board.close()


def test_each_injected_wiring_fault_is_named(faulty_board: pico_board.EmulatedPico) -> None:
    result, said = _walk(faulty_board, 7, {4: 5})
    print("\n".join(said))  # the walk as the builder read it (pytest -rP shows it)
    text = "\n".join(said)
    assert result.verdicts[1] == result.verdicts[2] == "swapped", text
    assert result.spot_of == {1: 2, 2: 1}
    assert (
        f"chip select GP{faulty_board.cs[1]}" in text
        and f"chip select GP{faulty_board.cs[2]}" in text
    )
    assert result.verdicts[3] == "dead", text
    assert result.verdicts[5] == "reads across", text
    assert "reader 5 also reads the token on spot 4" in text
    assert result.verdicts[6] == "unreliable", text
    assert result.verdicts[0] == result.verdicts[4] == "ok", text
