"""Firmware self-test for the MicroPython unix port (run by test_fw_micropython.py).

    micropython tests/firmware/mp_selftest.py <repo root> < frames

Runs the real firmware modules, unchanged, on a real MicroPython interpreter against the
emulated MFRC522 chips of chip.py, so anything CPython accepts and MicroPython does not
(a missing method, a syntax feature, an integer quirk) fails here. Standard input should
carry a PING and a SYNC frame: ``main.run`` reads them through ``select.poll`` on the real
``sys.stdin``. Prints one ``MP-SELFTEST ok <n>`` line, or the failures and exits 1.
"""

import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, ROOT + "/tests/firmware")

import mp_checks  # noqa: E402

mp_checks.install(ROOT)

import gc  # noqa: E402

import cores  # noqa: E402
import harness  # noqa: E402
import main  # noqa: E402
import mfrc522  # noqa: E402
import pins  # noqa: E402
import protocol  # noqa: E402
import scanner  # noqa: E402
import utime  # noqa: E402

check = mp_checks.check


def read(rig, reader=0):
    r = rig.readers[reader]
    r.antenna(True)
    utime.sleep_us(300)
    status, uids = r.identify()
    r.antenna(False)
    return status, sorted([scanner.uid_hex(u) for u in uids])


def test_interpreter():
    check("running on MicroPython", sys.implementation.name == "micropython")


def test_protocol():
    check("crc16 vector", protocol.crc16(b"123456789") == 0x29B1)
    frame = protocol.encode(65535, protocol.state(4, []))
    check("round trip", protocol.decode(frame) == (65535, "S 4 -"))
    check("bad crc", protocol.try_decode(b"1 PING*0000\n") is None)
    check("garbage", protocol.try_decode(b"\xff\x00garbage") is None)
    body = protocol.full([[], ["04A1B2C3D4E5F6"], None])
    check("F round trip", protocol.parse_report(body) == ("F", [(), ("04A1B2C3D4E5F6",), None]))
    check("commands", protocol.parse_command("CONF audit=8") == ("CONF", "audit", "8"))


def test_driver():
    rig = harness.Rig(mfrc522, n=1)
    check("version", rig.readers[0].version() == 0x92)
    check("empty", read(rig) == (mfrc522.OK, []))
    rig.place(0, "04A1B2C3D4E5F6")
    check("one NTAG", read(rig) == (mfrc522.OK, ["04A1B2C3D4E5F6"]))
    rig.place(0, "DEADBEEF")
    rig.place(0, "04112233445566778899")
    rig.place(0, "04A1B2C3D4E5F7")
    got = read(rig)
    want = ["04112233445566778899", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "DEADBEEF"]
    check("four mixed tags", got == (mfrc522.OK, want))
    check("collisions happened", rig.chips[0].collisions > 0)
    check("chip CRC", rig.readers[0].chip_crc(b"\x50\x00", 2) == mfrc522.crc_a(b"\x50\x00", 2))


def test_scanner():
    rig = harness.Rig(mfrc522, n=2)
    scan = scanner.Scanner(rig.readers)
    scan.start()
    leaving = rig.place(1, "04A1B2C3D4E5F6", near=[0])
    rig.place(1, "DEADBEEF")
    check("appear", scan.cycle() == [1])
    check("sets", scan.sets() == [[], ["04A1B2C3D4E5F6", "DEADBEEF"]])

    def hook(chip, data, nbits):
        if data[0] == 0x93 and nbits > 16 and leaving in rig.table.tags:
            rig.remove(leaving)

    rig.table.hooks.append(hook)
    seen = []
    for _ in range(5):
        scan.cycle()
        seen.append(len(scan.sets()[1]))
    check("debounced removal", seen == [2, 2, 1, 1, 1])


def test_main_loop():
    rig = harness.Rig(None, cs=pins.CS, rst=pins.RST, spi1=pins.ON_SPI1)
    scan = scanner.Scanner(main.build_readers())
    scan.start()
    frames = []
    fw = main.Firmware(scan, frames.append)
    fw.hello()
    fw.feed(protocol.encode(1, "PING") + protocol.encode(2, "SYNC"))
    fw.step()
    kinds = [protocol.parse_report(protocol.decode(f)[1])[0] for f in frames]
    check("Firmware answers", kinds == ["HELLO", "PONG", "F"])
    rig.place(3, "DEADBEEF")

    class Out:
        def __init__(self):
            self.data = b""

        def write(self, data):
            self.data += data

    out = Out()
    main.run(stdout=out, max_cycles=3)  # the real sys.stdin, through select.poll
    kinds = []
    for line in out.data.split(b"\n")[:-1]:
        kinds.append(protocol.parse_report(protocol.decode(line)[1])[0])
    check("run reads stdin: " + " ".join(kinds), kinds == ["HELLO", "PONG", "S", "F"])


def test_core1_collects_only_when_due():
    """``cores._collect_if_due`` on MicroPython's own gc: no collection after a few hundred
    bytes, one once ``COLLECT_DUE`` were allocated, automatic collection off after both."""
    gc.collect()
    gc.disable()
    for _ in range(4):
        bytearray(256)
    before = gc.mem_alloc()
    cores._collect_if_due(gc)
    check("nothing due, nothing collected", gc.mem_alloc() >= before)
    for _ in range(cores.COLLECT_DUE // 1024 + 8):
        bytearray(1024)
    before = gc.mem_alloc()
    cores._collect_if_due(gc)
    check("due, collected", gc.mem_alloc() < before - cores.COLLECT_DUE // 2)
    check("automatic collection off after", not gc.isenabled())
    gc.enable()


mp_checks.run(
    "MP-SELFTEST",
    (
        test_interpreter,
        test_protocol,
        test_driver,
        test_scanner,
        test_main_loop,
        test_core1_collects_only_when_due,
    ),
)
