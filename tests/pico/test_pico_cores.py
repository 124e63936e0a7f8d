"""The RP2040's second core in the emulator, on its own: MicroPython's ``_thread`` on core 1.

``cores_script.py`` runs as the board's ``main.py`` on the Pico's own MicroPython
(v1.28.0, no global interpreter lock on rp2: the thread really runs on core 1, launched
through the bootrom's FIFO handshake, on its own stack). Each core reads its own CPUID
and thread id; core 0 fills the inter-core FIFO (8 words, then one too many: WOF) while
core 1 has masked its FIFO interrupt in its own NVIC, core 1 drains it (one read too many:
ROE) and echoes the sum; each core's divider and interpolator keep their own values;
both cores divide at once and get the same result as Python here; a loop timed alone
twice on core 0, then on both cores at once, takes half the emulated time; and a counter
incremented by both cores under a ``_thread`` lock (spinlocks and WFE/SEV underneath)
counts every increment, where the same counter without the lock loses some. Then a few
Thumb instructions check what MicroPython's run leaves open (dualcore_test.mjs).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import board_or_skip, need_emulator

pytestmark = pytest.mark.xdist_group("emulated-pico-cores")

SCRIPT = Path(__file__).with_name("cores_script.py")
JS_TEST = Path(__file__).with_name("dualcore_test.mjs")
WAIT = 600.0
VLD, RDY, WOF, ROE = 1, 2, 4, 8


def divided(n: int) -> int:
    """What ``cores_script.divide`` computes, here."""
    return sum((i * 7919) // (i % 97 + 3) + (i * 7919) % (i % 89 + 5) for i in range(1, n))


@pytest.fixture(scope="module")
def results() -> dict[str, int]:
    board = board_or_skip(b"R cpuid0", pty=False, extra={"main.py": SCRIPT.read_text()})
    try:
        board.wait_for(lambda: b"END" in board.output or b"Error" in board.output, WAIT, "END")
        board.check()
    finally:
        board.close()
    text = board.output.decode(errors="replace")
    assert "Error" not in text, text
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "R":
            found[words[1]] = int(words[2])
    return found


def test_each_core_reads_its_own_cpuid_and_thread_id(results: dict[str, int]) -> None:
    assert (results["cpuid0"], results["cpuid1"]) == (0, 1)
    assert (results["ident0"], results["ident1"]) == (1, 2)


def test_the_fifo_from_core_0_to_core_1_and_back(results: dict[str, int]) -> None:
    assert results["st_empty"] == RDY  # nothing for core 0, room towards core 1
    assert results["st_full"] == 0  # 8 words sent: no room left
    assert results["st_wof"] == WOF  # the ninth was lost, and said so
    assert results["st_cleared"] == 0
    assert results["st1"] == VLD | RDY  # core 1 sees the words, and room towards core 0
    assert results["roe1"] == ROE
    assert results["echo"] == sum(word * 1000 for word in range(1, 9))


def test_each_core_has_its_own_divider_and_interpolator(results: dict[str, int]) -> None:
    assert (results["quot0"], results["quot1"]) == (999 // 3, 1000 // 7)
    assert (results["interp0"], results["interp1"]) == (2222, 1111)
    assert results["div0"] == results["div1"] == divided(results["divided"])


def test_both_cores_run_at_once(results: dict[str, int]) -> None:
    alone, together = results["alone_us"], results["together_us"]
    assert 0.4 * alone < together < 0.6 * alone, (alone, together)


def test_a_lock_shared_by_the_cores_loses_no_increment(results: dict[str, int]) -> None:
    """Without the lock the two cores' read-add-write of one list item interleave, and
    increments are lost: the cores run Python at the same time, with no global lock."""
    assert results["locked"] == 2 * results["count"]
    assert results["loose"] < 2 * results["count"]


def test_the_second_core_on_its_own_with_a_few_instructions() -> None:
    """dualcore_test.mjs (Node's test runner): what MicroPython's run leaves open. Both
    cores claiming a spinlock on the same cycle (core 0 wins), their clocks in lockstep,
    WFE woken by the other core's SEV at its time but WFI not, the FIFOs' flags and each
    core's SIO IRQ, per-core CPUID and divider, a GPIO interrupt enabled on core 1 alone,
    and PSM holding core 1 then starting it from the bootrom."""
    need_emulator()
    done = subprocess.run(
        ["node", "--test", str(JS_TEST)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 8" in done.stdout
