"""The buffer/breakout board as a SKiDL circuit: its KiCad netlist, ERC, and drawings.

The board carries the Pico, the 3.3 V terminal and, for each reader, one slice: a
74LVC125A whose four gates buffer the reader's MISO back onto its bus (enabled by the
reader's chip select: cheap RC522 boards never release MISO) and drive its SCK, MOSI and
chip select out to the mat; 33 ohm in series on those four lines where they leave or
enter the board; 1 kohm on its reset line; a four-line TVS array on the connector side
of the SDA/SCK/MOSI/MISO lines, which players' hands come near; a 10 kohm pull-up on the
chip select (the reader stays deselected while the Pico boots and its pins float); a
100 kohm pull-down on the gate's MISO input (an unplugged reader reads 0, which the
firmware reports as absent, rather than noise); 100 nF at the chip; and the reader's
8-pin mat connector `J<n>` in the RC522 board's own pin order. Each bus's shared MISO has
a 10 kohm pull-down, the shared reset a 10 kohm pull-up, and 100 uF sits at the terminal.

The parts are SKiDL templates defined here (no KiCad library is needed): each pin has its
electrical type, so SKiDL's electrical rule check (`check`) finds an output fighting an
output, a pin left floating or a net with one pin. The netlist is KiCad's format: KiCad's
PCB editor reads it (footprints are named) to lay out a PCB; on perfboard it is the list of
every connection to solder (`connections_md` writes it as a readable table).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.kit.table import PINS_PER_READER, Table
from companion.kit.words import kit_says

PICO_PINS = {
    **{
        f"GP{g}": p
        for g, p in zip(
            range(0, 23),
            (
                1,
                2,
                4,
                5,
                6,
                7,
                9,
                10,
                11,
                12,
                14,
                15,
                16,
                17,
                19,
                20,
                21,
                22,
                24,
                25,
                26,
                27,
                29,
            ),
            strict=True,
        )
    },
    "GP26": 31,
    "GP27": 32,
    "GP28": 34,
    "RUN": 30,
    "ADC_VREF": 35,
    "3V3": 36,
    "3V3_EN": 37,
    "VSYS": 39,
    "VBUS": 40,
}
"""The Pico's GPIO and power pins -> physical pin (its datasheet's pinout)."""
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 33, 38)

BUFFER_PINS = ("1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y", "4A", "4OE",
               "VCC")  # fmt: skip
"""The 74LVC125A's pins 1..14 (SOIC-14)."""
TVS_PINS = ("IO1", "GND", "IO2", "IO3", "VBUS", "IO4")
"""The SRV05-4's pins 1..6 (SOT-23-6)."""
GATES = {"MISO": (1, 2, 3), "SCK": (4, 5, 6), "MOSI": (10, 9, 8), "CS": (13, 12, 11)}
"""74LVC125A gate used for each line: (its /OE, A, Y pin)."""
TVS_IO = {"SDA": 1, "SCK": 3, "MOSI": 4, "MISO": 6}
"""SRV05-4 (SOT-23-6) I/O pin per protected line; 2 is GND, 5 the supply."""


@dataclass(frozen=True)
class Board:
    """The circuit and what its ERC said."""

    netlist: str
    errors: int
    warnings: int
    erc: str
    nets: list[tuple[str, list[str]]]
    """(net name, ["U3.1", ...]) for every net, in name order."""
    parts: list[tuple[str, str, str]]
    """(reference, part name, value) in reference order."""
    refs: dict[str, str]
    """Each part's tag (``u3``: reader 3's buffer, ``miso3-down``) -> its reference."""
    pin_names: dict[str, str]
    """"U4.3" -> "1Y"."""


def build(table: Table, fault: Callable[[Any, Any], None] | None = None) -> Board:
    """The board for the full mat's readers, its ERC run, its netlist written. ``fault``
    (skidl, the circuit) changes the circuit before the check: a test's wiring error."""
    with tempfile.TemporaryDirectory(prefix="skidl-") as folder, _in(folder), _quiet():
        import skidl  # its log files go to the current folder, this temporary one

        with contextlib.suppress(FileNotFoundError):  # stopped already by an earlier build
            skidl.logger.stop_log_file_output()
        circuit = skidl.Circuit()
        circuit.track_src = False  # no source lines (nor this machine's paths) in the netlist
        with circuit:
            _describe(table, skidl, circuit.NC)
            if fault is not None:
                fault(skidl, circuit)
            log = io.StringIO()
            handler = logging.StreamHandler(log)
            loggers = [logging.getLogger(n) for n in ("ERC_Logger", "skidl")]
            for logger in loggers:
                logger.addHandler(handler)
            try:
                circuit.ERC()
                errors = skidl.logger.erc_logger.error.count
                warnings = skidl.logger.erc_logger.warning.count
                netlist = str(circuit.generate_netlist(tool=skidl.KICAD5, do_backup=False))
            finally:
                for logger in loggers:
                    logger.removeHandler(handler)
            nets = sorted(
                (net.name, sorted(f"{pin.part.ref}.{pin.num}" for pin in net.pins))
                for net in circuit.get_nets()
            )
            parts = sorted(((p.ref, p.name, str(p.value)) for p in circuit.parts), key=_ref_order)
            refs = {p.tag: p.ref for p in circuit.parts}
            pin_names = {f"{p.ref}.{pin.num}": pin.name for p in circuit.parts for pin in p.pins}
    return Board(_stable(netlist), errors, warnings, log.getvalue(), nets, parts, refs, pin_names)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """SKiDL's chatter (missing KiCad libraries, which it does not need here) silenced."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


@contextlib.contextmanager
def _in(folder: str) -> Iterator[None]:
    """Run in ``folder``: SKiDL writes its logs and part caches into the current one."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


def _ref_order(part: tuple[str, str, str]) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", part[0])
    return (match.group(1), int(match.group(2))) if match else (part[0], 0)


def _stable(netlist: str) -> str:
    """The netlist without what changes from one run to the next (date, source path)."""
    netlist = re.sub(r'\(date "[^"]*"\)', '(date "")', netlist)
    return re.sub(r'\(source "[^"]*"\)', '(source "companion/kit/board.py")', netlist)


def _describe(table: Table, skidl: Any, nc: Any) -> None:
    """The board's parts and nets, in the default (current) circuit."""
    pin = skidl.Pin
    types = pin.types

    def template(name: str, prefix: str, footprint: str, pins: list[tuple[int, str, Any]]) -> Any:
        return skidl.Part(
            name=name,
            tool=skidl.SKIDL,
            dest=skidl.TEMPLATE,
            ref_prefix=prefix,
            footprint=footprint,
            pins=[pin(num=n, name=label, func=kind) for n, label, kind in pins],
        )

    def resistor(value: str, a: Any, b: Any, tag: str) -> None:
        part = res(value=value, tag=tag)
        part[1] += a
        part[2] += b

    pico_pins = [(p, name, types.BIDIR) for name, p in PICO_PINS.items()]
    pico_pins = [
        (p, n, types.PWROUT if n in ("3V3", "VBUS", "VSYS") else k) for p, n, k in pico_pins
    ]
    pico_pins += [(p, "GND", types.PWRIN) for p in PICO_GROUNDS]
    pico = template("RPi_Pico", "A", "RPi_Pico:RPi_Pico_TH", pico_pins)(tag="pico")

    def numbered(names: Sequence[str], kind: Callable[[str], Any]) -> list[tuple[int, str, Any]]:
        return [(n, name, kind(name)) for n, name in enumerate(names, start=1)]

    def gate_pin(name: str) -> Any:
        if name in ("GND", "VCC"):
            return types.PWRIN
        return types.TRISTATE if name.endswith("Y") else types.INPUT

    buffer = template(
        "74LVC125A", "U", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", numbered(BUFFER_PINS, gate_pin)
    )
    tvs = template(
        "SRV05-4", "D", "Package_TO_SOT_SMD:SOT-23-6", numbered(TVS_PINS, lambda _: types.PASSIVE)
    )
    header = template(
        "Conn_01x08",
        "J",
        "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
        numbered(PINS_PER_READER, lambda _: types.PASSIVE),
    )
    terminal = template(
        "Screw_Terminal_01x02",
        "J",
        "TerminalBlock:TerminalBlock_bornier-2_P5.08mm",
        numbered(("3V3", "GND"), lambda _: types.PWROUT),
    )
    res = template(
        "R", "R", "Resistor_SMD:R_0805_2012Metric", numbered(("~", "~"), lambda _: types.PASSIVE)
    )
    cap = template(
        "C", "C", "Capacitor_SMD:C_0805_2012Metric", numbered(("~", "~"), lambda _: types.PASSIVE)
    )

    net = skidl.Net
    vcc, gnd = net("+3V3"), net("GND")
    tb = terminal(tag="tb1", ref="J100")
    tb[1] += vcc
    tb[2] += gnd
    for p in PICO_GROUNDS:
        pico[p] += gnd
    for name in ("RUN", "ADC_VREF", "3V3", "3V3_EN", "VSYS", "VBUS"):
        pico[PICO_PINS[name]] += nc  # the Pico runs from USB; its 3V3 stays its own
    bulk = cap(
        value="100u", tag="bulk", ref="C100", footprint="Capacitor_THT:CP_Radial_D6.3mm_P2.50mm"
    )
    bulk[1] += vcc
    bulk[2] += gnd
    rst = net("RST")
    pico[PICO_PINS[f"GP{table.rst}"]] += rst
    resistor("10k", rst, vcc, "rst-up")
    bus_nets = {}
    for bus in table.buses:
        names = (f"SCK{bus.index}", f"MOSI{bus.index}", f"MISO{bus.index}")
        sck, mosi, miso = (net(n) for n in names)
        for signal, gp in zip((sck, mosi, miso), (bus.sck, bus.mosi, bus.miso), strict=True):
            pico[PICO_PINS[f"GP{gp}"]] += signal
        resistor("10k", miso, gnd, f"miso{bus.index}-down")
        bus_nets[bus.index] = (sck, mosi, miso)
    fitted = range(table.full_mat.spots + 1)
    used = {table.rst} | {g for b in table.buses for g in (b.sck, b.mosi, b.miso)}
    for r in fitted:
        reader = table.readers[r]
        sck, mosi, miso = bus_nets[reader.bus]
        used.add(reader.cs)
        cs = net(f"CS{r}")
        pico[PICO_PINS[f"GP{reader.cs}"]] += cs
        u = buffer(tag=f"u{r}", ref=f"U{r}")
        j = header(tag=f"j{r}", ref=f"J{r}")
        d = tvs(tag=f"d{r}", ref=f"D{r}")
        u["VCC"] += vcc
        u["GND"] += gnd
        c = cap(value="100n", tag=f"c{r}", ref=f"C{r}")
        c[1] += vcc
        c[2] += gnd
        resistor("10k", cs, vcc, f"cs{r}-up")
        out = {line: net(f"{line}{r}_MAT") for line in ("SDA", "SCK", "MOSI", "MISO")}
        miso_in = net(f"MISO{r}_IN")
        # MISO back: the reader's line through 33 ohm into gate 1, enabled by its CS.
        oe, a, y = GATES["MISO"]
        u[oe] += cs
        u[a] += miso_in
        u[y] += miso
        resistor("33", out["MISO"], miso_in, f"miso{r}")
        resistor("100k", miso_in, gnd, f"miso{r}-down")
        # SCK, MOSI and the chip select out: gates always enabled, 33 ohm at their outputs.
        for line, source, mat in (("SCK", sck, "SCK"), ("MOSI", mosi, "MOSI"), ("CS", cs, "SDA")):
            oe, a, y = GATES[line]
            u[oe] += gnd
            u[a] += source
            driven = net(f"{line}{r}_OUT")
            u[y] += driven
            resistor("33", driven, out[mat], f"{line.lower()}{r}")
        rst_mat = net(f"RST{r}_MAT")
        resistor("1k", rst, rst_mat, f"rst{r}")
        for line, io_pin in TVS_IO.items():
            d[io_pin] += out[line]
            j[PINS_PER_READER.index(line) + 1] += out[line]
        d[2] += gnd
        d[5] += vcc
        j[PINS_PER_READER.index("RST") + 1] += rst_mat
        j[PINS_PER_READER.index("GND") + 1] += gnd
        j[PINS_PER_READER.index("3.3V") + 1] += vcc
        j[PINS_PER_READER.index("IRQ") + 1] += nc  # the firmware polls
    for gp in range(29):
        name = f"GP{gp}"
        if name in PICO_PINS and gp not in used:
            pico[PICO_PINS[name]] += nc


SLICE_TAGS = (
    "j{r}",
    "d{r}",
    "u{r}",
    "c{r}",
    "cs{r}-up",
    "sck{r}",
    "mosi{r}",
    "cs{r}",
    "miso{r}",
    "miso{r}-down",
    "rst{r}",
)
"""The parts of reader r's slice of the board (`_describe`'s tags)."""


def slice_refs(board: Board, reader: int) -> list[str]:
    return [board.refs[t.format(r=reader)] for t in SLICE_TAGS]


def connections_md(table: Table, board: Board) -> str:
    """hardware/board/connections.md: the parts, one reader's slice, and every net."""
    value = {ref: v for ref, _, v in board.parts}
    lines = [
        "# The breakout board: parts and connections",
        "",
        "<!-- Generated by `python -m companion.kit` from hardware/pins.toml: do not edit. -->",
        "",
        f"The board of the {table.full_mat.name} mat: the Pico (A1), the 3.3 V terminal "
        "(J100), the bulk capacitor (C100), and one slice per reader, reader n's parts "
        f"numbered n ({table.full_mat.spots + 1} slices, the pad's numbered 0). `board.net` "
        "is the same circuit as a KiCad netlist; `slice.svg` draws reader 1's slice. "
        f"SKiDL's electrical rule check: {board.errors} errors, {board.warnings} warnings.",
        "",
        "## One slice per reader",
        "",
        "| reader | bus | chip select | buffer | TVS | connector | 33 ohm (SCK, MOSI, SDA, MISO) "
        "| 1 kohm RST | 10 kohm CS up | 100 kohm MISO down | 100 nF |",
        "| ---: | ---: | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in range(table.full_mat.spots + 1):
        ref = {t.split("{")[0] + t.split("}")[1]: board.refs[t.format(r=r)] for t in SLICE_TAGS}
        reader = table.readers[r]
        lines.append(
            f"| {r} ({reader.name}) | {reader.bus} | GP{reader.cs} | {ref['u']} | {ref['d']} "
            f"| {ref['j']} | {ref['sck']}, {ref['mosi']}, {ref['cs']}, {ref['miso']} "
            f"| {ref['rst']} | {ref['cs-up']} | {ref['miso-down']} | {ref['c']} |"
        )
    lines += ["", "## Every net", "", "| net | pins (reference.pin name) |", "| --- | --- |"]
    for name, pins in board.nets:
        if not pins:
            continue
        shown = ", ".join(f"{p} {board.pin_names.get(p, '')}".rstrip() for p in pins)
        lines.append(f"| {name} | {shown} |")
    lines += ["", "## Parts", "", "| reference | part | value |", "| --- | --- | --- |"]
    lines += [f"| {ref} | {name} | {value[ref]} |" for ref, name, _ in board.parts]
    return "\n".join(lines) + "\n"


def slice_dot(board: Board, reader: int = 1) -> str:
    """Graphviz source of reader ``reader``'s slice: its parts with their pins, and the
    nets between them (the Pico's pins and the supply drawn as net labels)."""
    refs = slice_refs(board, reader)
    names = {ref: name for ref, name, _ in board.parts}
    value = {ref: v for ref, _, v in board.parts}
    lines = [
        "graph slice {",
        '  graph [rankdir=LR, fontname="DejaVu Sans", splines=true, nodesep=0.25];',
        '  node [fontname="DejaVu Sans", fontsize=10];',
        '  edge [fontname="DejaVu Sans", fontsize=9];',
    ]
    for ref in refs:
        pins = sorted(
            {p for _, ps in board.nets for p in ps if p.split(".")[0] == ref},
            key=lambda p: int(p.split(".")[1]),
        )
        ports = "|".join(
            f"<p{p.split('.')[1]}> {p.split('.')[1]} {board.pin_names[p]}" for p in pins
        )
        title = f"{ref}\\n{names[ref]}" + (f" {value[ref]}" if value[ref] != names[ref] else "")
        lines.append(f'  "{ref}" [shape=record, label="{{{title}|{{{ports}}}}}"];')
    pico_side: list[str] = []
    for name, pins in board.nets:
        inside = [p.split(".") for p in pins if p.split(".")[0] in refs]
        outside = [p for p in pins if p.split(".")[0] not in refs]
        if not inside:
            continue
        if name in ("+3V3", "GND"):  # a label at each pin, as schematics draw supplies
            for i, (part, num) in enumerate(inside):
                lines.append(f'  "{name}#{i}" [shape=plaintext, fontsize=9, label="{name}"];')
                lines.append(f'  "{part}":p{num} -- "{name}#{i}";')
            continue
        if outside:  # from the Pico or shared with the other slices
            pico = [o for o in outside if o.startswith("A")]
            where = f"Pico {board.pin_names[pico[0]]} (pin {pico[0].split('.')[1]})" if pico else ""
            label = f"{name}\\n{where}" if where else f"{name}\\n(every slice of the bus)"
            lines.append(f'  "{name}" [shape=cds, label="{label}"];')
            pico_side.append(name)
            for part, num in inside:
                lines.append(f'  "{part}":p{num} -- "{name}";')
        elif len(inside) == 2:
            (a, an), (b, bn) = inside
            lines.append(f'  "{a}":p{an} -- "{b}":p{bn} [label="{name}"];')
        else:
            lines.append(f'  "{name}" [shape=point, xlabel="{name}"];')
            for part, num in inside:
                lines.append(f'  "{part}":p{num} -- "{name}";')
    lines.append("  { rank=min; " + " ".join(f'"{n}";' for n in pico_side) + " }")
    lines.append(f'  {{ rank=max; "{board.refs[f"j{reader}"]}"; }}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(table: Table, folder: Path) -> list[Path]:
    """board.net, connections.md and slice.svg in ``folder``; `KitError` when the ERC
    finds an error (a board that would be wrong is not written)."""
    from graphviz import Source

    from companion.kit.table import KitError

    board = build(table)
    if board.errors or board.warnings:
        raise KitError(kit_says("erc", erc=board.erc))
    folder.mkdir(parents=True, exist_ok=True)
    net = folder / "board.net"
    net.write_text(board.netlist, encoding="utf-8")
    md = folder / "connections.md"
    md.write_text(connections_md(table, board), encoding="utf-8")
    svg = folder / "slice.svg"
    svg.write_bytes(Source(slice_dot(board)).pipe(format="svg"))
    return [net, md, svg]
