# A MicroPython script for the emulated Pico (tests/pico/test_pico_cores.py): the RP2040's
# two cores as MicroPython's _thread uses them. It runs as the board's main.py and prints
# "R <name> <value>" lines, then "END"; core 1 never prints (the USB stack is core 0's).
import _thread

import machine
import utime

SIO = 0xD0000000
CPUID = SIO + 0x000
FIFO_ST = SIO + 0x050
FIFO_WR = SIO + 0x054
FIFO_RD = SIO + 0x058
DIV_UDIVIDEND = SIO + 0x060
DIV_UDIVISOR = SIO + 0x064
DIV_QUOTIENT = SIO + 0x070
INTERP0_BASE0 = SIO + 0x088
NVIC_ISER = 0xE000E100
NVIC_ICER = 0xE000E180
SIO_IRQ = (15, 16)  # SIO_IRQ_PROC0, SIO_IRQ_PROC1
VLD, RDY, WOF, ROE = 1, 2, 4, 8
COUNT = 400  # increments of the shared counters by each core
SPIN = 4000  # turns of the timed loop
DIVIDED = 1500  # numbers divided by each core

mem = machine.mem32
state = [0] * 16  # flags and results between the cores: one word store each
READY, GO, DONE, STOP = 0, 1, 2, 3
CPU1, IDENT1, FIFO1, ROE1, DIV1, QUOT1, INTERP1 = range(4, 11)
lock = _thread.allocate_lock()
counts = [0, 0]  # [under the lock, without it]


def wait_for(index, value=1):
    while state[index] != value:
        pass


def spin(n):
    for _ in range(n):
        pass


def divide(n):
    total = 0
    for i in range(1, n):
        total += (i * 7919) // (i % 97 + 3) + (i * 7919) % (i % 89 + 5)
    return total


def count():
    for _ in range(COUNT):
        with lock:
            counts[0] += 1
    for _ in range(COUNT):
        counts[1] += 1  # no lock: the two cores' read-add-write interleave


def core1():
    state[CPU1] = mem[CPUID]
    state[IDENT1] = _thread.get_ident()
    mem[NVIC_ICER] = 1 << SIO_IRQ[1]  # this core's NVIC: the FIFO's words are ours now
    state[READY] = 1
    wait_for(GO)
    st = mem[FIFO_ST]
    total = 0
    while mem[FIFO_ST] & VLD:
        total += mem[FIFO_RD]
    _ = mem[FIFO_RD]  # one read too many: ROE
    state[ROE1] = mem[FIFO_ST] & ROE
    mem[FIFO_ST] = 0xFF
    state[FIFO1] = st
    mem[FIFO_WR] = total
    mem[DIV_UDIVIDEND] = 1000
    mem[DIV_UDIVISOR] = 7
    mem[INTERP0_BASE0] = 1111
    state[DONE] = 1
    wait_for(GO, 2)  # core 0 has used its own divider and interpolator meanwhile
    state[QUOT1] = mem[DIV_QUOTIENT]
    state[INTERP1] = mem[INTERP0_BASE0]
    mem[NVIC_ISER] = 1 << SIO_IRQ[1]
    state[DONE] = 2
    wait_for(GO, 3)
    state[DIV1] = divide(DIVIDED)
    state[DONE] = 3
    wait_for(GO, 4)
    spin(SPIN)
    state[DONE] = 4
    wait_for(GO, 5)
    count()
    state[DONE] = 5


def report(name, value):
    print("R", name, value)


def main():
    report("count", COUNT)
    report("divided", DIVIDED)
    report("cpuid0", mem[CPUID])
    report("ident0", _thread.get_ident())
    mem[NVIC_ICER] = 1 << SIO_IRQ[0]
    _thread.start_new_thread(core1, ())
    wait_for(READY)
    report("cpuid1", state[CPU1])
    report("ident1", state[IDENT1])
    # The FIFO from core 0 to core 1: 8 words, then one too many.
    report("st_empty", mem[FIFO_ST])
    for word in range(1, 9):
        mem[FIFO_WR] = word * 1000
    report("st_full", mem[FIFO_ST])
    mem[FIFO_WR] = 99  # lost
    report("st_wof", mem[FIFO_ST])
    mem[FIFO_ST] = 0xFF
    report("st_cleared", mem[FIFO_ST])
    state[GO] = 1
    wait_for(DONE)
    report("st1", state[FIFO1])
    report("roe1", state[ROE1])
    while not mem[FIFO_ST] & VLD:
        pass
    report("echo", mem[FIFO_RD])
    mem[DIV_UDIVIDEND] = 999
    mem[DIV_UDIVISOR] = 3
    mem[INTERP0_BASE0] = 2222
    state[GO] = 2
    wait_for(DONE, 2)
    report("quot0", mem[DIV_QUOTIENT])
    report("quot1", state[QUOT1])
    report("interp0", mem[INTERP0_BASE0])
    report("interp1", state[INTERP1])
    mem[NVIC_ISER] = 1 << SIO_IRQ[0]
    # Both cores divide at once, each with its own hardware divider.
    state[GO] = 3
    div0 = divide(DIVIDED)
    wait_for(DONE, 3)
    report("div0", div0)
    report("div1", state[DIV1])
    # The same loop twice on core 0, then once on each core at the same time.
    start = utime.ticks_us()
    spin(SPIN)
    spin(SPIN)
    report("alone_us", utime.ticks_diff(utime.ticks_us(), start))
    start = utime.ticks_us()
    state[GO] = 4
    spin(SPIN)
    wait_for(DONE, 4)
    report("together_us", utime.ticks_diff(utime.ticks_us(), start))
    state[GO] = 5
    count()
    wait_for(DONE, 5)
    report("locked", counts[0])
    report("loose", counts[1])
    print("END")


main()
