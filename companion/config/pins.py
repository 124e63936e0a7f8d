"""The pin map: the ``[pi.*]`` part of ``hardware/pins.toml``, read and checked.

The pin map is a second file (``paths.pins``; the install script copies it to
``/etc/companion/pins.toml``). Only its ``[pi.*]`` part is read here. Pins are BCM GPIO
numbers; a pin used twice, or a pin of a bus the table uses (I2C1 for the OLED, SPI0 for
readers on the Pi, the HAT EEPROM pins 0/1) is refused with a message that names both uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import games
from companion.cli_words import os_error
from companion.config.model import OLED_DRIVERS, ConfigError, DisplayConfig, PinMap, ReadersConfig
from companion.config.reading import MAX_TOML_BYTES, int_in, parse_toml, show, toml_key
from companion.config.words import say
from companion.contract.inputs import CONTROL_NAME

I2C1_PINS = {2: "I2C1 SDA", 3: "I2C1 SCL"}
SPI0_PINS = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
EEPROM_PINS = {0: "HAT EEPROM ID_SD", 1: "HAT EEPROM ID_SC"}
MAX_GPIO = 27

REPOSITORY_PINS = Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"
"""The pin map shipped with the project (the last place `default_pins` looks)."""


def default_pins(base: Path) -> Path | None:
    """The pin map to use when ``paths.pins`` is not set: next to the config, in
    /etc/companion, or the repository's own; None when there is none."""
    for candidate in (base / "pins.toml", Path("/etc/companion/pins.toml"), REPOSITORY_PINS):
        if candidate.is_file():
            return candidate
    return None


def load_pins(path: Path, game: str | None = None, lang: str = "en") -> PinMap:
    """The `[pi.*]` part of a pins.toml; raises `ConfigError` naming the key and the fix.

    ``[pi.seats]`` wires seat buttons by name (`companion.games.Button`): ``game``'s own,
    and other games' taken by their names without loading those games (a start pays for
    its own game only); `undeclared_buttons` holds them to every game's, as `config check`
    and, with ``game`` None, the builder's kit do. The buttons of ``game`` (every game's
    when None) that the file leaves out are added at their default pins. Messages name the
    buttons by their labels in ``lang``, the table's language."""
    name = str(path)
    pi = _read_toml(path).get("pi", {})
    if not isinstance(pi, Mapping):
        raise ConfigError([say("pi_table", name=name, shown=show(pi))])
    read = _PinReader(name, pi)
    wired = read.section("seats") or {}
    own = {b.name: b for b in games.get(game).buttons} if game else games.buttons()
    labelled = games.buttons(loaded=True) | own
    seats = {key: read.pins("seats", key, (2, 6)) for key in wired if read.button(key)}
    seats |= {key: button.pins for key, button in own.items() if key not in wired}
    result = PinMap(
        seats=seats,
        labels={key: labelled[key].label(lang) if key in labelled else key for key in seats},
        announce=read.pins("console", "announce", (3, 3)),
        back=read.pin("console", "back"),
        encoder_a=read.pin("encoder", "a"),
        encoder_b=read.pin("encoder", "b"),
        encoder_push=read.pin("encoder", "push"),
        sda=read.pin("oled", "sda", required=False) or 2,
        scl=read.pin("oled", "scl", required=False) or 3,
    )
    read.unknown()
    if game is None:
        read.problems += undeclared_buttons(result, name, lang)
    if read.problems:
        raise ConfigError(read.problems)
    return result


def undeclared_buttons(pins: PinMap, name: str, lang: str) -> list[str]:
    """A problem for each seat button of ``pins`` that no registered game declares (a
    misspelt key), listing the games' buttons by their labels in ``lang``; every registered
    game is loaded."""
    known = games.buttons()
    listed = ", ".join(f"{key} ({button.label(lang)})" for key, button in known.items())
    return [
        f"{name}: pi.seats.{toml_key(key)}: no game has a seat button {toml_key(key)} (the "
        f"games' seat buttons: {listed or 'none'}; see hardware/pins.toml)"
        for key in pins.seats
        if key not in known
    ]


def _read_toml(path: Path) -> Mapping[str, Any]:
    """The parsed pin map file; `ConfigError` when it cannot be read or is not TOML."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_TOML_BYTES + 1)  # not all of /dev/zero
    except OSError as exc:
        raise ConfigError([say("pins_unreadable", name=path, why=os_error(exc))]) from exc
    return parse_toml(raw, str(path))


class _PinReader:
    """Reads BCM numbers out of the ``[pi.<section>]`` tables, collecting problems."""

    KEYS = {
        "console": {"announce", "back"},
        "encoder": {"a", "b", "push"},
        "oled": {"sda", "scl", "driver", "i2c_bus", "address", "width", "height"},
    }
    """The keys of each ``[pi.<section>]`` read here (the OLED's other keys document the
    module; the config's [display] sets them); ``[pi.seats]``'s are the games' buttons
    (`button`, `undeclared_buttons`). Other sections (``[pi.pico]``) are not ours."""

    def __init__(self, name: str, pi: Mapping[str, Any]) -> None:
        self.name = name
        self.pi = pi
        self.problems: list[str] = []

    def unknown(self) -> None:
        """Name each key of a section read here that it does not have (a misspelt key)."""
        for section, known in self.KEYS.items():
            table = self.pi.get(section, {})
            if not isinstance(table, Mapping):
                continue
            for key in sorted(set(table) - known):
                self.problems.append(
                    say("pi_unknown", name=self.name, key=f"pi.{section}.{toml_key(key)}",
                        known=", ".join(sorted(known)))
                )  # fmt: skip

    def button(self, key: str) -> bool:
        """Is ``key`` of ``[pi.seats]`` a button's name (a journal's control)? Else say so."""
        if CONTROL_NAME.fullmatch(key):
            return True
        self.problems.append(
            f"{self.name}: pi.seats.{toml_key(key)}: not a button's name: a game's seat "
            "button, in lower-case letters and _ (see hardware/pins.toml)"
        )
        return False

    def section(self, name: str) -> Mapping[str, Any] | None:
        """The table ``[pi.<name>]`` ({} when absent); None, reported once, when the file
        gives it a value that is not a table."""
        table = self.pi.get(name, {})
        if isinstance(table, Mapping):
            return table
        problem = say("pi_section", name=self.name, section=name, shown=show(table))
        if problem not in self.problems:
            self.problems.append(problem)
        return None

    def pin(self, section: str, key: str, required: bool = True) -> int | None:
        table = self.section(section)
        if table is None:
            return None
        gpio = say("gpio", max=MAX_GPIO)
        if key not in table:
            if required:
                self._missing(section, key, gpio)
            return None
        value = table[key]
        if int_in(0, MAX_GPIO)(value) is None:
            self._refused(section, key, value, gpio)
            return None
        return int(value)

    def pins(self, section: str, key: str, count: tuple[int, int]) -> tuple[int, ...]:
        table = self.section(section)
        if table is None:
            return ()
        lo, hi = count
        many = str(lo) if lo == hi else say("gpio_range", low=lo, high=hi)
        expected = say("gpios", many=many, max=MAX_GPIO)
        if key not in table:
            self._missing(section, key, expected)
            return ()
        value = table[key]
        if (
            not isinstance(value, list)
            or not lo <= len(value) <= hi
            or any(int_in(0, MAX_GPIO)(v) is None for v in value)
        ):
            self._refused(section, key, value, expected)
            return ()
        return tuple(int(v) for v in value)

    def _missing(self, section: str, key: str, fix: str) -> None:
        self.problems.append(say("pin_missing", name=self.name, key=f"pi.{section}.{key}", fix=fix))

    def _refused(self, section: str, key: str, value: Any, fix: str) -> None:
        self.problems.append(
            say("pin_bad", name=self.name, key=f"pi.{section}.{key}", shown=show(value), fix=fix)
        )


def check_pins(
    pins: PinMap,
    seats: int,
    display: DisplayConfig,
    readers: ReadersConfig,
    name: str,
    game: str | None = None,
) -> None:
    """Refuse a button of ``game`` without a pin for every seat, pins used twice and pins
    of a bus in use, naming every clash."""
    problems: list[str] = []
    for button in games.get(game).buttons if game else ():
        wired = pins.seats.get(button.name, ())
        if len(wired) < seats:
            label = pins.labels.get(button.name, button.name)
            problems.append(say("seat_buttons", name=name, button=button.name, label=label,
                                have=len(wired), seats=seats))  # fmt: skip
    taken = _taken(pins, display, readers)
    for pin, what in pins.uses(seats):
        if pin in taken:
            problems.append(say("pin_clash", name=name, what=what, pin=pin, taken=taken[pin]))
        else:
            taken[pin] = what
    if problems:
        raise ConfigError(problems)


def _taken(pins: PinMap, display: DisplayConfig, readers: ReadersConfig) -> dict[int, str]:
    """The pins no button may use (pin -> what it is): the HAT EEPROM's, and those of the
    buses the OLED and the readers use."""
    taken: dict[int, str] = dict(EEPROM_PINS)
    if display.driver in OLED_DRIVERS:
        taken[pins.sda] = say("taken.sda")
        taken[pins.scl] = say("taken.scl")
        for p, what in I2C1_PINS.items():
            taken.setdefault(p, what)
    if readers.kind == "spi":
        for p, what in SPI0_PINS.items():
            taken.setdefault(p, say("taken.spi", what=what))
        if readers.spi_rst is not None:
            taken.setdefault(readers.spi_rst, say("taken.rst"))
    return taken
