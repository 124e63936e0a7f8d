"""The firmware's self-timing under the MicroPython unix port (run by test_fw_mp_timing.py).

    micropython tests/firmware/mp_timing.py <repo root> < frames

Standard input carries ``CONF stats=1`` and ``SYNC``; ``main.run`` reads them from the real
``sys.stdin`` and its heartbeat must then carry a ``T`` frame whose cycle figures are the
emulated durations of the cycles it ran. Also checks, with ``micropython.heap_lock``, that
recording a cycle allocates nothing. Prints ``MP-TIMING ok <n>`` or the failures, exit 1.
"""

import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, ROOT + "/tests/firmware")

import mp_checks  # noqa: E402

mp_checks.install(ROOT)

import harness  # noqa: E402
import main  # noqa: E402
import micropython  # noqa: E402
import pins  # noqa: E402
import protocol  # noqa: E402

check = mp_checks.check


def figures(samples):
    held = sorted(samples)
    n = len(held)
    mid = n // 2
    median = held[mid] if n % 2 else (held[mid - 1] + held[mid]) // 2
    return (held[0], median, held[n - 1])


class Out:
    def __init__(self, rig):
        self.rig = rig
        self.data = b""
        self.stamps = []  # emulated us at each frame

    def write(self, data):
        self.data += data
        self.stamps.append(self.rig.clock.ns // 1000)


def test_heartbeat_carries_the_timings():
    # One bus, one core: the unix port runs core 1 as a real thread on the one emulated
    # clock, so on a busy host a read of core 0's sometimes came a cycle late (1 run in 20
    # with 8 busy processes beside it). The timings' path is the same; test_fw_cores.py
    # and tests/pico cover the two cores.
    pins.ON_SPI1 = ()
    rig = harness.Rig(None, cs=pins.CS, rst=pins.RST, spi1=())
    rig.place(2, "04A1B2C3D4E5F6")
    out = Out(rig)
    fw = main.run(stdout=out, max_cycles=6)  # the real sys.stdin, through select.poll
    reports = []
    for line in out.data.split(b"\n")[:-1]:
        reports.append(protocol.parse_report(protocol.decode(line)[1]))
    kinds = [r[0] for r in reports]
    check("frames: " + " ".join(kinds), kinds == ["HELLO", "OK", "S", "F", "T"])
    timing = reports[-1]
    check("T counts every cycle run so far: " + str(timing), timing[1] == 1)
    # Nothing advances the emulated clock between the OK and the cycle, nor between the
    # cycle's end and its S frame: the cycle took exactly the time between the two frames.
    first = out.stamps[2] - out.stamps[1]
    check(f"T has the first cycle's time: {timing[2]} vs {first}", timing[2] == (first,) * 3)
    # 19 readers, each settling 300 us before its read.
    check(f"first cycle is plausible: {first} us", 19 * 300 < first < 200000)
    check("all six cycles in the ring", fw.cycle_us.count == 6)


VISITS = [1400, 0, 1500, 1600, 0, 1700]  # a cycle's visits, two readers not visited


def test_recording_a_cycle_does_not_allocate():
    window = main.Window(4)
    import utime

    start = utime.ticks_us()
    micropython.heap_lock()
    try:
        for us in (7, 3, 9, 1, 5):
            window.add(utime.ticks_diff(utime.ticks_us(), start) + us)
        window.add_all(VISITS)
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    check("Window.add allocates nothing", ok)
    check("ring keeps the last four", window.count == 4 and len(window.ring) == 4)
    check("add_all skips readers not visited", window.figures() == (1400, 1550, 1700))


def test_figures_match_a_plain_computation():
    window = main.Window(5)
    samples = [40, 10, 30, 20, 60, 50, 70]
    for us in samples:
        window.add(us)
    check("figures over the last five", window.figures() == figures(samples[-5:]))


def test_figures_are_selected_in_machine_code_as_sorting_gives_them():
    """``Window.figures``' quickselect (viper) against a sort, on windows of every size up
    to the heartbeat's 256 visits, filled and wrapped, with few distinct values (ties)
    and with many."""
    check("the selection is viper", type(main._order) is not type(figures))
    seed = 1
    wrong = []
    for size in (1, 2, 3, 4, 5, 8, 63, 64, 255, 256):
        for spread in (3, 1000, 1 << 30):
            window = main.Window(size)
            samples = []
            for _ in range(size + size // 3 + 1):
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                samples.append(seed % spread)
                window.add(samples[-1])
                held = samples[-size:]
                if window.figures() != figures(held):
                    wrong.append((size, spread, len(samples)))
    check(f"figures as a sort gives them: {wrong[:3]}", not wrong)


mp_checks.run(
    "MP-TIMING",
    (
        test_heartbeat_carries_the_timings,
        test_recording_a_cycle_does_not_allocate,
        test_figures_match_a_plain_computation,
        test_figures_are_selected_in_machine_code_as_sorting_gives_them,
    ),
)
