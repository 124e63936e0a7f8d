# A MicroPython script for the emulated Pico (tests/pico/test_pico_heap.py), run as the
# board's main.py beside the firmware (its main.py as fwmain.py): the firmware's own scan of
# both buses (fwmain.build_scan: core 0 scans SPI0, core 1 SPI1 from a _thread), each
# core's visits run with MicroPython's heap locked (micropython.heap_lock is per thread: a
# core locks its own allocations; any allocation raises MemoryError), while the host drops
# and lifts tags on both buses and this loop leaves garbage between cycles, so that core 1
# collects the heap while core 0 visits. Prints "C <reader> <uids>" for each change,
# "R <name> <value>" lines, then "END"; core 1 never prints (the USB stack is core 0's).
import _thread
import gc

import fwmain
import micropython
import utime

RUN_MS = 1500  # emulated time scanned with the heaps locked
GARBAGE = 1500  # bytes left to collect after each cycle: 32 KB every 22 cycles or so

visits = [0, 0]  # each core's locked visits of its half, and the changes they read
changes = [0, 0]
refused = [0, 0]  # visits that tried to allocate (MemoryError)


def locked(part, core):
    """``part.visit`` run with this core's heap locked."""
    visit = part.visit

    def run(safe=None):
        micropython.heap_lock()
        try:
            changed = visit(safe)
        except MemoryError:
            micropython.heap_unlock()
            refused[core] += 1
            raise  # core 0: the script stops; core 1: TwoCores reports it crashed
        micropython.heap_unlock()
        visits[core] += 1
        changes[core] += len(changed)
        return changed

    return run


scan = fwmain.build_scan(fwmain.build_readers(), fwmain.pins.ON_SPI1)
scan.start()
for core in range(2):
    scan.parts[core].visit = locked(scan.parts[core], core)
scan.start_core1(_thread.start_new_thread, gc)
print("READY")
cycles = 0
start = utime.ticks_ms()
while utime.ticks_diff(utime.ticks_ms(), start) < RUN_MS:
    for r in scan.cycle():
        print("C", r, ",".join(scan.set_of(r) or ("?",)))
    cycles += 1
    bytearray(GARBAGE)
scan.stop_core1()
for name, value in (
    ("cycles", cycles),
    ("visits0", visits[0]),
    ("visits1", visits[1]),
    ("changes0", changes[0]),
    ("changes1", changes[1]),
    ("refused0", refused[0]),
    ("refused1", refused[1]),
    ("collections", scan.collected[0]),
    ("lost", 0 if scan.lost is None else 1),
):
    print("R", name, value)
print("END")
