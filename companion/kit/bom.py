"""The bill of materials and the power budget, every quantity counted from the `Table`.

The kit is built for the table's largest mat (`Table.full_mat`: the pad and its spots,
one reader each). Each line of the BOM says what its count is made of ("19 readers x 4
lines"), so a builder who changes pins.toml or a game's mat sees why a number moved. The
breakout board is the one `board.py` describes: per reader one 74LVC125A (its four gates
buffer the reader's MISO back to the bus and drive its SCK, MOSI and chip select out), a
33 ohm series resistor on each of those four lines, 1 kohm on its reset line, a four-line
TVS array on its connector, and 100 nF at the chip.

The power budget adds datasheet figures (not measured on our table): an MFRC522 board
idles at 13-17 mA and its transmitter draws 60 mA typical, 100 mA at most, while its field
is on; the firmware keeps one field on per bus at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.kit.table import PINS_PER_READER, Table

READER_IDLE_MA = (13.0, 17.0)
"""An MFRC522 board with its field off, low and high (module sellers' figures)."""
FIELD_MA = (60.0, 100.0)
"""Added while a reader's field is on: the MFRC522 transmitter's typical and maximum
supply current (NXP MFRC522 datasheet, ITVDD)."""
GATE_MA = 1.0
"""A 74LVC125A switching its lines at 8 MHz into a short cable (estimated from its power
dissipation capacitance; a few microamps when idle)."""
SUPPLY_A = 2.0
"""The reader supply hardware/wiring.md asks for."""
READER_LINES = ("SCK", "MOSI", "SDA (chip select)", "MISO")
"""The lines of a reader's cable that pass a 74LVC125A gate, each with a 33 ohm resistor."""


@dataclass(frozen=True, slots=True)
class Item:
    qty: float
    unit: str
    """"" for pieces, "m" for a length."""
    part: str
    number: str
    """A generic part number a shop recognises."""
    why: str
    """What the quantity is made of."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The 3.3 V reader supply's current, mA."""

    readers: int
    fields: int
    low: float
    expected: float
    high: float
    every_field: float
    """Every field on at once: a fault (the firmware never does it), not a load."""


def budget(table: Table) -> Budget:
    n = table.full_mat.spots + 1
    fields = len([b for b in table.buses if b.readers])
    gates = n * GATE_MA
    low = n * READER_IDLE_MA[0] + fields * FIELD_MA[0] + gates
    high = n * READER_IDLE_MA[1] + fields * FIELD_MA[1] + gates
    mid_idle = sum(READER_IDLE_MA) / 2
    expected = n * mid_idle + fields * sum(FIELD_MA) / 2 + gates
    every = n * (READER_IDLE_MA[1] + FIELD_MA[1]) + gates
    return Budget(n, fields, low, expected, high, every)


def cable_lengths(table: Table) -> list[float]:
    """Each reader's cable on the full mat, mm (pad first)."""
    mat = table.full_mat
    return [mat.cable(r, table.kit.slack) for r in range(mat.spots + 1)]


def items(table: Table) -> Iterator[Item]:
    """The BOM's lines, in the order of work."""
    mat = table.full_mat
    n = mat.spots + 1
    rn = f"{n} readers"
    pi = table.pi
    seats = max(map(len, pi.seats.values()), default=0)
    seat_buttons = sum(map(len, pi.seats.values()))
    buttons = seat_buttons + len(pi.announce) + (pi.back is not None)
    encoder = pi.encoder_a is not None
    buses = len([b for b in table.buses if b.readers])
    cables = cable_lengths(table)
    yield Item(
        1,
        "",
        "Raspberry Pi 4 or 5, 2 GB, with its 5 V supply and a microSD card",
        "RPI4-MODBP-2GB",
        "runs the companion",
    )
    yield Item(
        1,
        "",
        "Raspberry Pi Pico (RP2040), the plain one",
        "SC0915",
        f"scans the readers on {buses} SPI bus(es)",
    )
    yield Item(
        1, "", "USB cable, micro-USB to USB-A, data capable", "USB-A-microB-0.5m", "Pico to Pi"
    )
    yield Item(2, "", "pin header 1x20, 2.54 mm", "PH1x20-2.54", "the Pico on the board")
    yield Item(
        n,
        "",
        "MFRC522 reader board, 13.56 MHz (RFID-RC522)",
        "RFID-RC522",
        f"the pad and {mat.spots} spots of the {mat.name} mat",
    )
    yield Item(
        n,
        "",
        "quad tri-state buffer 74LVC125A, SOIC-14",
        "74LVC125AD",
        f"one per reader: {', '.join(READER_LINES)} ({rn})",
    )
    yield Item(
        2 * n,
        "",
        "SOIC-14 and SOT-23-6 to DIP adapters (perfboard only)",
        "SOIC14-DIP14, SOT23-6-DIP6",
        f"{rn} x (buffer + TVS)",
    )
    yield Item(n, "", "4-line TVS array, 5 V, SOT-23-6", "SRV05-4", f"one per mat connector ({rn})")
    yield Item(
        n * len(READER_LINES),
        "",
        "resistor 33 ohm 1 %, 0805 or 1/4 W",
        "RC0805FR-0733R",
        f"series, {rn} x {len(READER_LINES)} lines",
    )
    yield Item(
        n + buttons,
        "",
        "resistor 1 kohm 1 %, 0805 or 1/4 W",
        "RC0805FR-071K",
        f"series on each reader's RST ({n}) and each button line on the Pi ({buttons})",
    )
    yield Item(
        n + buses + 1,
        "",
        "resistor 10 kohm 1 %, 0805 or 1/4 W",
        "RC0805FR-0710K",
        f"pull-up on each chip select ({n}: deselected while the Pico boots), "
        f"pull-down on each bus's MISO ({buses}), pull-up on RST (1)",
    )
    yield Item(
        n,
        "",
        "resistor 100 kohm 1 %, 0805 or 1/4 W",
        "RC0805FR-07100K",
        f"pull-down on each gate's MISO input: an unplugged reader reads 0 ({rn})",
    )
    yield Item(
        2 * n,
        "",
        "capacitor 100 nF 50 V X7R, 0805 or 2.54 mm",
        "CL21B104KBCNNNC",
        f"one at each 74LVC125A and one at each reader's 3.3 V pin ({rn} x 2)",
    )
    yield Item(
        n,
        "",
        "capacitor 10 uF 16 V X5R, 0805 or tantalum",
        "CL21A106KOQNNNE",
        f"at each reader's 3.3 V pin ({rn})",
    )
    yield Item(
        1,
        "",
        "capacitor 100 uF 16 V electrolytic",
        "EEU-FR1C101",
        "bulk, where the 3.3 V supply enters the board",
    )
    yield Item(
        1,
        "",
        "buck module 5 V to 3.3 V, at least 2 A",
        "MP1584EN or LM2596S-3.3",
        "the readers' and buffers' supply (power budget below)",
    )
    yield Item(
        1,
        "",
        "5 V supply, at least 3 A (or the Pi's, with headroom)",
        "5V3A-USB-C",
        "feeds the buck module",
    )
    yield Item(1, "", "screw terminal, 2 poles, 5.08 mm", "TB2-5.08", "3.3 V into the board")
    yield Item(
        n,
        "",
        "pin header 1x8, 2.54 mm",
        "PH1x8-2.54",
        f"a mat connector per reader, pins in the reader's order ({rn})",
    )
    yield Item(
        2 * n,
        "",
        "Dupont housing 1x8, 2.54 mm",
        "DS1070-1x8",
        f"both ends of each reader cable ({rn} x 2)",
    )
    yield Item(
        2 * n * len(PINS_PER_READER),
        "",
        "Dupont female crimp contact",
        "DS1070-F",
        f"{rn} x 2 ends x {len(PINS_PER_READER)} ways",
    )
    yield Item(
        round(sum(cables) / 1000, 2),
        "m",
        "flat cable, 8 ways, 1.27 mm pitch, 28 AWG",
        "AWG28-08/F",
        f"{n} cables of {', '.join(f'{c / 10:g}' for c in sorted(cables))} cm "
        f"(their runs on the {mat.name} mat, hardware/mats.md, plus "
        f"{table.kit.slack / 10:g} cm)",
    )
    yield Item(1, "", "SSD1306 OLED 128x64, I2C, 3.3 V", "SSD1306-128x64-I2C", "console display")
    yield Item(
        1, "", "Dupont jumper cable 4 ways, female-female, 20 cm", "DJ-FF-4-20", "OLED to the Pi"
    )
    yield Item(
        buttons,
        "",
        "momentary push button, normally open, 12 mm",
        "PB-12mm-NO",
        f"{' and '.join(pi.labels.values())} for {seats} seats, {len(pi.announce)} announce, "
        f"{int(pi.back is not None)} back",
    )
    if encoder:
        yield Item(1, "", "rotary encoder with push switch", "EC11", "choose / confirm")
    seat_wire = seat_buttons * table.kit.seat_wire
    yield Item(
        round(seat_wire, 2),
        "m",
        "twisted pair, 2 x 24 AWG",
        "CAT5-pair or 24AWG-TP",
        f"{seat_buttons} seat buttons x {table.kit.seat_wire:g} m (kit.seat_wire_m)",
    )
    yield Item(
        1,
        "",
        "perfboard 100 x 160 mm, or the board's PCB from its netlist",
        "EUROCARD-100x160",
        "the breakout board (hardware/board/)",
    )


def tags_needed() -> list[tuple[str, int]]:
    """(game, tags) for each game at its largest table: the tokens to enrol."""
    from companion import games

    out = []
    for name in games.names():
        game = games.get(name)
        most = max(len(game.tokens(seats, None)) for seats in game.seats)
        if most:
            out.append((name, most))
    return out


def render(table: Table) -> str:
    """hardware/bom.md."""
    mat = table.full_mat
    lines = [
        "# Bill of materials",
        "",
        "<!-- Generated by `python -m companion.kit` from hardware/pins.toml and the games' "
        "mats: do not edit. -->",
        "",
        f"For the full kit: the {mat.name} mat ({mat.spots} spots) plus the pad, "
        f"{len(table.buses)} SPI buses. Every count is computed from the pin map and the "
        "mats; the last column says from what. Part numbers are generic: any equivalent "
        "part fits.",
        "",
        "| qty | part | part number | counted from |",
        "| ---: | --- | --- | --- |",
    ]
    for item in items(table):
        qty = f"{item.qty:g}{' ' + item.unit if item.unit else ''}"
        lines.append(f"| {qty} | {item.part} | {item.number} | {item.why} |")
    tags = tags_needed()
    total = sum(n for _, n in tags)
    lines += [
        f"| {total}+ | NFC tags: NTAG213/215 stickers, 20-25 mm (or MIFARE Classic 1K) "
        "| NTAG213-25mm | "
        + ", ".join(f"{name} {n}" for name, n in tags)
        + " at their largest tables, plus spares |",
        "",
        "Tags stuck under tokens must not touch metal (it detunes them); stickers of 20-25 mm "
        "fit small tokens and still read through a 3 mm mat top.",
        "",
        "## Smaller mats",
        "",
        "A smaller mat fits readers 0..N only (the others report `E <n> absent`): fewer "
        "readers, buffers, resistors and cables, in proportion.",
        "",
        "| mat | readers | played by |",
        "| --- | ---: | --- |",
    ]
    for m in table.mats:
        lines.append(f"| {m.name} | {m.spots + 1} | {'; '.join(m.users)} |")
    if table.pad_only:
        lines.append(f"| pad only | 1 | {'; '.join(table.pad_only)} |")
    b = budget(table)
    lines += [
        "",
        "## Power budget of the 3.3 V reader supply",
        "",
        "Derived from datasheet figures, not measured: an MFRC522 board idles at "
        f"{READER_IDLE_MA[0]:g}-{READER_IDLE_MA[1]:g} mA; its field adds "
        f"{FIELD_MA[0]:g} mA typical, {FIELD_MA[1]:g} mA at most (MFRC522 datasheet); a "
        f"74LVC125A switching at 8 MHz about {GATE_MA:g} mA (estimated). The firmware keeps "
        "one field on per bus at a time.",
        "",
        "| case | current |",
        "| --- | ---: |",
        f"| {b.readers} readers idle + {b.fields} fields on, lowest | {b.low:.0f} mA |",
        f"| the same, expected (mid idle, typical field) | {b.expected:.0f} mA |",
        f"| the same, highest | {b.high:.0f} mA |",
        f"| every field on at once (a fault: the firmware never does it) | "
        f"{b.every_field:.0f} mA |",
        "",
        f"A supply of at least {SUPPLY_A:g} A is {SUPPLY_A * 1000 / b.high:.1f} times the "
        "highest expected draw, and its current limit, not the wiring, takes the fault case. "
        "The Pico (about 25 mA) is fed by the Pi over USB and the OLED (about 20 mA) by the "
        "Pi's 3.3 V pin: neither is on this supply.",
        "",
    ]
    return "\n".join(lines)
