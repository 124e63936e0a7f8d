"""The wiring harnesses as WireViz YAML, rendered to SVG and PNG (docs/wiring/).

One harness per SPI bus shows, for each of its readers, the Pico's pins through that
reader's 74LVC125A and resistors on the board (`U<n>`) to its mat connector `J<n>`, and
the 8-way flat cable `W<n>` (its length from the reader's run on the full mat) to the
reader board `Reader<n>`. The console harness shows the Pi's header (physical pin and BCM
GPIO) to the OLED, every button and the encoder, the USB cable to the Pico, and the 3.3 V
supply to the board. The YAML is written here and committed beside the drawings, so a
builder can read it, and WireViz (PyPI, with Debian's graphviz) draws it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.kit.table import PINS_PER_READER, Table

RIBBON_COLOURS = ["BN", "RD", "OG", "YE", "GN", "BU", "VT", "GY"]
"""A rainbow flat cable's wires 1..8 (IEC 60757 codes): brown is pin 1, SDA."""

PHYSICAL = {
    2: 3,
    3: 5,
    4: 7,
    17: 11,
    27: 13,
    22: 15,
    10: 19,
    9: 21,
    11: 23,
    0: 27,
    5: 29,
    6: 31,
    13: 33,
    19: 35,
    26: 37,
    14: 8,
    15: 10,
    18: 12,
    23: 16,
    24: 18,
    25: 22,
    8: 24,
    7: 26,
    1: 28,
    12: 32,
    16: 36,
    20: 38,
    21: 40,
}
"""BCM GPIO -> physical pin of the Pi's 40-pin header."""
PI_GROUNDS = (6, 9, 14, 20, 25, 30, 34, 39)
PI_3V3 = 1

# Where the board's lines enter each reader's connector (PINS_PER_READER order, 1-based).
SDA, SCK, MOSI, MISO, IRQ, GND, RST, VCC = range(1, 9)


def bus_harness(table: Table, bus: int) -> dict[str, Any]:
    """The WireViz description of bus ``bus``'s readers on the full mat."""
    mat = table.full_mat
    b = table.buses[bus]
    fitted = [r for r in b.readers if r <= mat.spots]
    pico_pins = [b.sck, b.mosi, b.miso, table.rst] + [table.readers[r].cs for r in fitted]
    labels = [f"GP{b.sck} SCK", f"GP{b.mosi} MOSI", f"GP{b.miso} MISO", f"GP{table.rst} RST"]
    labels += [f"GP{table.readers[r].cs} CS {r}" for r in fitted]
    connectors: dict[str, Any] = {
        "Pico": {
            "type": "Raspberry Pi Pico",
            "subtype": f"SPI{b.index}, on the breakout board",
            "pins": pico_pins,
            "pinlabels": labels,
        },
        "Supply": {
            "type": "3.3 V from the buck module",
            "subtype": "board terminal TB1",
            "pinlabels": ["3.3V", "GND"],
        },
    }
    cables: dict[str, Any] = {}
    connections: list[Any] = []
    for r in fitted:
        reader = table.readers[r]
        length = mat.cable(r, table.kit.slack) / 1000
        connectors[f"J{r}"] = {
            "type": "pin header 1x8",
            "subtype": f"board, {reader.name}",
            "pinlabels": list(PINS_PER_READER),
        }
        connectors[f"Reader{r}"] = {
            "type": "MFRC522 board",
            "subtype": f"reader {r}: {reader.name}, bus {b.index}",
            "pinlabels": list(PINS_PER_READER),
            "notes": "IRQ not connected",
        }
        cables[f"U{r}"] = {
            "category": "bundle",
            "type": f"on the board: U{r} 74LVC125A and its resistors",
            "colors": ["WH"] * 7,
            "wirelabels": [
                "CS, gate 4, 33 ohm, 10k up",
                "SCK, gate 2, 33 ohm",
                "MOSI, gate 3, 33 ohm",
                "MISO, gate 1 (OE = CS), 33 ohm",
                "RST, 1 kohm",
                "3.3V",
                "GND",
            ],
        }
        cables[f"W{r}"] = {
            "wirecount": 8,
            "length": round(length, 2),
            "gauge": "28 AWG",
            "type": "flat cable 1.27 mm",
            "colors": RIBBON_COLOURS,
        }
        cs = pico_pins[4 + fitted.index(r)]
        connections.append(
            [
                {"Pico": [cs, b.sck, b.mosi, b.miso, table.rst]},
                {f"U{r}": [1, 2, 3, 4, 5]},
                {f"J{r}": [SDA, SCK, MOSI, MISO, RST]},
            ]
        )
        connections.append([{"Supply": [1, 2]}, {f"U{r}": [6, 7]}, {f"J{r}": [VCC, GND]}])
        connections.append(
            [
                {f"J{r}": list(range(1, 9))},
                {f"W{r}": list(range(1, 9))},
                {f"Reader{r}": list(range(1, 9))},
            ]
        )
    return {
        "metadata": {"title": f"Bus {b.index}: SPI{b.index} and its readers on the {mat.name} mat"},
        "options": {"fontname": "DejaVu Sans", "bgcolor": "WH"},
        "connectors": connectors,
        "cables": cables,
        "connections": connections,
    }


def console_harness(table: Table) -> dict[str, Any]:
    """The WireViz description of the Pi's side: OLED, buttons, encoder, USB, supply."""
    pi = table.pi
    used: list[tuple[int, str]] = [(pi.sda, "SDA"), (pi.scl, "SCL")]
    buttons: list[tuple[str, int]] = []
    for name, wired in pi.seats.items():
        buttons += [(f"Seat {seat} {pi.labels[name]}", pin) for seat, pin in enumerate(wired, 1)]
    for i, pin in enumerate(pi.announce, start=1):
        buttons.append((f"Announce {i}", pin))
    if pi.back is not None:
        buttons.append(("Back", pi.back))
    used += [(pin, name) for name, pin in buttons]
    encoder = [(pi.encoder_a, "A"), (pi.encoder_b, "B"), (pi.encoder_push, "push")]
    used += [(pin, f"encoder {what}") for pin, what in encoder if pin is not None]
    pins = [PI_3V3, *PI_GROUNDS] + [PHYSICAL[p] for p, _ in used]
    labels = ["3V3"] + ["GND"] * len(PI_GROUNDS) + [f"GPIO{p} {what}" for p, what in used]
    connectors: dict[str, Any] = {
        "Pi": {
            "type": "Raspberry Pi 4/5",
            "subtype": "40-pin header (physical pin)",
            "pins": pins,
            "pinlabels": labels,
        },
        "OLED": {
            "type": "SSD1306 128x64, I2C",
            "subtype": f"address 0x{table.oled_address:02X}",
            "pinlabels": ["GND", "VCC", "SCL", "SDA"],
        },
        "PiUSB": {"type": "Pi USB-A port", "pinlabels": ["VBUS", "D-", "D+", "GND"]},
        "PicoUSB": {"type": "Pico micro-USB", "pinlabels": ["VBUS", "D-", "D+", "GND"]},
        "Buck": {
            "type": "buck module 5 V to 3.3 V, at least 2 A",
            "subtype": "output",
            "pinlabels": ["3.3V", "GND"],
        },
        "TB1": {
            "type": "board terminal TB1",
            "subtype": "to every mat connector",
            "pinlabels": ["3.3V", "GND"],
        },
    }
    cables: dict[str, Any] = {
        "Woled": {
            "wirecount": 4,
            "length": 0.2,
            "type": "Dupont jumpers",
            "colors": ["BK", "RD", "YE", "GN"],
        },
        "Wusb": {
            "wirecount": 4,
            "length": 0.5,
            "type": "USB A to micro-B",
            "colors": ["RD", "WH", "GN", "BK"],
        },
        "Wpower": {
            "wirecount": 2,
            "length": 0.3,
            "gauge": "22 AWG",
            "colors": ["RD", "BK"],
        },
    }
    connections: list[Any] = [
        [
            {"Pi": [PI_GROUNDS[0], PI_3V3, PHYSICAL[pi.scl], PHYSICAL[pi.sda]]},
            {"Woled": [1, 2, 3, 4]},
            {"OLED": [1, 2, 3, 4]},
        ],
        [{"PiUSB": [1, 2, 3, 4]}, {"Wusb": [1, 2, 3, 4]}, {"PicoUSB": [1, 2, 3, 4]}],
        [{"Buck": [1, 2]}, {"Wpower": [1, 2]}, {"TB1": [1, 2]}],
    ]
    for i, (name, pin) in enumerate(buttons):
        key = name.replace(" ", "")
        seat = name.startswith("Seat")
        connectors[key] = {"type": "push button", "subtype": name, "pinlabels": ["A", "B"]}
        cables[f"W{key}"] = {
            "wirecount": 2,
            "length": table.kit.seat_wire if seat else 0.2,
            "type": "twisted pair" if seat else "wire pair",
            "colors": ["BU", "WH"],
            "notes": "1 kohm in series on the GPIO wire",
        }
        ground = PI_GROUNDS[1 + i % (len(PI_GROUNDS) - 1)]
        connections.append([{"Pi": [PHYSICAL[pin], ground]}, {f"W{key}": [1, 2]}, {key: [1, 2]}])
    if pi.encoder_a is not None and pi.encoder_b is not None and pi.encoder_push is not None:
        connectors["Encoder"] = {
            "type": "rotary encoder EC11",
            "subtype": "choose / confirm",
            "pinlabels": ["A", "B", "C (common)", "SW", "SW (other)"],
        }
        cables["Wencoder"] = {
            "wirecount": 5,
            "length": 0.2,
            "type": "Dupont jumpers",
            "colors": ["YE", "GN", "BK", "BU", "BK"],
        }
        pins_enc = [
            PHYSICAL[pi.encoder_a],
            PHYSICAL[pi.encoder_b],
            PI_GROUNDS[0],
            PHYSICAL[pi.encoder_push],
            PI_GROUNDS[0],
        ]
        connections.append(
            [{"Pi": pins_enc}, {"Wencoder": [1, 2, 3, 4, 5]}, {"Encoder": [1, 2, 3, 4, 5]}]
        )
    return {
        "metadata": {"title": "The console: the Pi, its OLED, buttons and encoder, the Pico"},
        "options": {"fontname": "DejaVu Sans", "bgcolor": "WH"},
        "connectors": connectors,
        "cables": cables,
        "connections": connections,
    }


def harnesses(table: Table) -> dict[str, dict[str, Any]]:
    """Every harness by file stem: ``bus0``, ``bus1`` (the buses with a reader on the full
    mat) and ``console``."""
    out = {}
    for bus in table.buses:
        if any(r <= table.full_mat.spots for r in bus.readers):
            out[f"bus{bus.index}"] = bus_harness(table, table.buses.index(bus))
    out["console"] = console_harness(table)
    return out


def to_yaml(harness: dict[str, Any]) -> str:
    import yaml  # PyYAML comes with WireViz

    head = "# Generated by `python -m companion.kit` from hardware/pins.toml: do not edit.\n"
    text: str = yaml.safe_dump(harness, sort_keys=False, allow_unicode=True, width=100)
    return head + text


def write(table: Table, folder: Path) -> list[Path]:
    """Each harness as YAML, SVG and PNG in ``folder``."""
    from wireviz.wireviz import parse

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for stem, harness in harnesses(table).items():
        source = folder / f"{stem}.yml"
        source.write_text(to_yaml(harness), encoding="utf-8")
        parse(source, output_formats=("svg", "png"), output_dir=folder, output_name=stem)
        _shrink(folder / f"{stem}.png")
        written += [source, folder / f"{stem}.svg", folder / f"{stem}.png"]
    return written


def _shrink(png: Path) -> None:
    """Graphviz's PNG in 64 colours: a fifth of the bytes, the same drawing to the eye."""
    from PIL import Image

    with Image.open(png) as image:
        small = image.convert("RGB").quantize(64, dither=Image.Dither.NONE)
    small.save(png, optimize=True)
