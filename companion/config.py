"""The table profile: one TOML file, validated at start, every error naming its fix.

Where it is looked for (`find_config`): `--config FILE`, else `$COMPANION_CONFIG`, else
``/etc/companion/companion.toml`` (a Raspberry Pi), else ``./companion.toml``; with none
of them the defaults apply and, as no hardware is configured, ``companion run`` simulates
the table. ``docs/companion.example.toml`` documents every key.

The pin map is a second file, ``hardware/pins.toml`` (``paths.pins``; the install script
copies it to ``/etc/companion/pins.toml``). Only its ``[pi.*]`` part is read here. Pins
are BCM GPIO numbers; a pin used twice, or a pin of a bus the table uses (I2C1 for the
OLED, SPI0 for readers on the Pi, the HAT EEPROM pins 0/1) is refused with a message that
names both uses.

Every problem is one line ``<file>: <key>: <what is wrong> (<the fix>)``; all problems
are reported at once (``ConfigError.problems``), so a table owner fixes the file in one go.

The data directory (the journal, finished games, the enrolled tags) is one for every
command that uses it (`enroll`, `run`, `doctor`, `config check`): ``--data-dir DIR``, else
``$COMPANION_DATA``, else ``paths.data_dir`` (``locate_data_dir``). The bounds of a value
a command line option also sets (``WINDOW``, ``SETTLE``) live here once, with their fix;
``DOUBLON_MIN`` (PHI-2) uses the same mechanism.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion import games
from companion.rules.layouts import Layout, LayoutError

CONFIG_DOC = "docs/companion.example.toml"
"""Where every key of the configuration is documented (help texts point there)."""
JOURNAL_DOC = "docs/journal.md"
"""The journal and scenario format (what replay, play and run --sim-input read)."""
TABLE_DOC = "docs/table.md"
"""Each game's table protocol: what hands and buttons do on a real table."""
RULINGS_DOC = "docs/rulings.md"
"""The rulings the code cites (PTI-7, PHI-2...)."""

SYSTEM_CONFIG = Path("/etc/companion/companion.toml")
LOCAL_CONFIG = Path("companion.toml")
DEFAULT_DATA_DIR = "/var/lib/companion"
DEFAULT_PICO_PORT = "/dev/companion-pico"
"""The stable name the udev rule of systemd/ gives the Pico."""

LANGUAGES = ("fr", "en")
DISPLAY_DRIVERS = ("ssd1306", "sh1106", "emulator", "capture", "dummy", "none")
"""ssd1306/sh1106 over I2C; emulator: a luma.emulator pygame window; capture: a PNG per
frame (luma.emulator) in the data directory; dummy: drawn in memory only; none: no OLED."""
OLED_DRIVERS = ("ssd1306", "sh1106")
READER_KINDS = ("pico", "spi", "none")
ROTATIONS = (0, 180)
"""The screens are drawn 128x64 landscape; 180 turns a module mounted upside down."""

I2C1_PINS = {2: "I2C1 SDA", 3: "I2C1 SCL"}
SPI0_PINS = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
EEPROM_PINS = {0: "HAT EEPROM ID_SD", 1: "HAT EEPROM ID_SC"}
MAX_GPIO = 27


class ConfigError(Exception):
    """An invalid configuration or pin map; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True, slots=True)
class GameConfig:
    name: str = "ptipasspass"
    seats: tuple[str, ...] = ("Seat 1", "Seat 2", "Seat 3", "Seat 4")
    first: int = 0
    """0-based here; the file says 1..N like the table does."""
    window: float = 6.0
    settle: float = 0.5
    doublon_min: float = 2.0
    """PhiPassPass (PHI-2): an announcement sooner than this after the drop is held."""
    language: str = "fr"
    seed: int | None = None
    """None: a new seed per game (it is recorded in the journal)."""
    layout: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    driver: str = "ssd1306"
    i2c_bus: int = 1
    address: int = 0x3C
    rotation: int = 0
    """Degrees, 0 or 180 (luma's rotate = rotation // 90)."""
    contrast: int = 255


@dataclass(frozen=True, slots=True)
class ControlsConfig:
    enabled: bool = True
    bounce_ms: int = 30
    long_press_ms: int = 800


@dataclass(frozen=True, slots=True)
class ReadersConfig:
    kind: str = "pico"
    port: str = DEFAULT_PICO_PORT
    spi_spots: tuple[tuple[int, int], ...] = ()
    spi_rst: int | None = None
    resume_wait: float = 3.0
    """Seconds `run --resume` waits for the readers' first snapshot before resuming."""


@dataclass(frozen=True, slots=True)
class PinMap:
    """The Raspberry Pi part of hardware/pins.toml (BCM numbers)."""

    doublon: tuple[int, ...] = ()
    menteur: tuple[int, ...] = ()
    announce: tuple[int, ...] = ()
    back: int | None = None
    encoder_a: int | None = None
    encoder_b: int | None = None
    encoder_push: int | None = None
    sda: int = 2
    scl: int = 3

    def uses(self, seats: int) -> list[tuple[int, str]]:
        """(pin, what) of every input the table uses with `seats` seats."""
        out: list[tuple[int, str]] = []
        for i, pin in enumerate(self.doublon[:seats]):
            out.append((pin, f"pi.seats.doublon[{i}] (seat {i + 1} Doublon)"))
        for i, pin in enumerate(self.menteur[:seats]):
            out.append((pin, f"pi.seats.menteur[{i}] (seat {i + 1} Menteur)"))
        for i, pin in enumerate(self.announce):
            out.append((pin, f"pi.console.announce[{i}] (announce button {i + 1})"))
        extra: tuple[tuple[int | None, str], ...] = (
            (self.back, "pi.console.back (back button)"),
            (self.encoder_a, "pi.encoder.a"),
            (self.encoder_b, "pi.encoder.b"),
            (self.encoder_push, "pi.encoder.push"),
        )
        for maybe, what in extra:
            if maybe is not None:
                out.append((maybe, what))
        return out


@dataclass(frozen=True, slots=True)
class Config:
    game: GameConfig = field(default_factory=GameConfig)
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    pins_path: Path | None = None
    display: DisplayConfig = field(default_factory=DisplayConfig)
    controls: ControlsConfig = field(default_factory=ControlsConfig)
    readers: ReadersConfig = field(default_factory=ReadersConfig)
    pins: PinMap | None = None
    source: Path | None = None
    """The file it came from (None: built-in defaults)."""

    @property
    def hardware(self) -> bool:
        """Is any real device configured? Without, `companion run` simulates the table."""
        return (
            self.display.driver in OLED_DRIVERS
            or self.readers.kind != "none"
            or (self.controls.enabled and self.pins is not None)
        )

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "game.jsonl"


# --------------------------------------------------------------------------- reading


T = TypeVar("T")


class _Checker:
    """Reads typed values out of nested TOML tables, collecting problems."""

    def __init__(self, name: str, data: Mapping[str, Any]) -> None:
        self.name = name
        self.data = data
        self.problems: list[str] = []
        self.seen: set[str] = set()

    def bad(self, key: str, value: Any, fix: str) -> None:
        shown = _show(value)
        self.problems.append(f"{self.name}: {key} = {shown}: {fix}")

    def table(self, key: str) -> Mapping[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, Mapping):
            self.bad(key, value, f"must be a table: write [{key}] on a line of its own")
            return {}
        return value

    def get(
        self,
        section: Mapping[str, Any],
        key: str,
        default: T,
        check: Callable[[Any], T | None],
        fix: str,
    ) -> T:
        short = key.rsplit(".", 1)[-1]
        if short not in section:
            return default
        value = section[short]
        result = check(value)
        if result is None:
            self.bad(key, value, fix)
            return default
        return result

    def unknown(self, prefix: str, section: Mapping[str, Any], known: set[str]) -> None:
        for key in sorted(set(section) - known):
            hint = ", ".join(sorted(known))
            self.problems.append(
                f"{self.name}: {prefix}{key}: unknown key (known keys here: {hint}; check the "
                "spelling against docs/companion.example.toml)"
            )


def _show(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{...}"
    return repr(value)


def _int_in(lo: int, hi: int) -> Callable[[Any], int | None]:
    def check(v: Any) -> int | None:
        return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else None

    return check


def _float_in(lo: float, hi: float) -> Callable[[Any], float | None]:
    def check(v: Any) -> float | None:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return None
        f = float(v)
        return f if math.isfinite(f) and lo <= f <= hi else None

    return check


def _choice(options: tuple[Any, ...]) -> Callable[[Any], Any]:
    def check(v: Any) -> Any:
        return v if not isinstance(v, bool) and v in options else None

    return check


@dataclass(frozen=True, slots=True)
class Seconds:
    """The allowed range of a duration in seconds, with the fix a person reads when a
    value is outside it. One object per key, shared by `config check` and the command
    line options that set the same value (``play --window``), so the bounds exist once."""

    low: float
    high: float
    fix: str

    def check(self, value: Any) -> float | None:
        """The value as a float when it is a finite number within the bounds, else None."""
        return _float_in(self.low, self.high)(value)


WINDOW = Seconds(
    1.0, 60.0, "seconds the challenge window stays open: a number from 1 to 60 (book: 6)"
)
SETTLE = Seconds(
    0.05,
    5.0,
    "seconds the table must be still before a change is judged: 0.05 to 5 (default 0.5)",
)
DOUBLON_MIN = Seconds(
    0.0,
    10.0,
    "PhiPassPass (PHI-2): seconds after the drop before an announcement is taken, so every "
    "seat may call Doublon: 0 to 10 (default 2)",
)


def seconds_option(bound: Seconds) -> Callable[[str], float]:
    """An argparse ``type=`` for an option setting a duration of the config: it refuses
    what `config check` refuses, with the same fix (argparse names the option)."""

    def parse(text: str) -> float:
        try:
            value: Any = float(text)
        except ValueError:
            value = text
        checked = bound.check(value)
        if checked is None:
            raise argparse.ArgumentTypeError(f"{text}: {bound.fix}")
        return checked

    parse.__name__ = "seconds"  # argparse's own message for a failed type names it
    return parse


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _text(v: Any) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def _choices(options: tuple[Any, ...]) -> str:
    return ", ".join(_show(o) for o in options)


def parse_config(data: Mapping[str, Any], source: Path | None = None) -> Config:
    """A validated `Config` from parsed TOML; raises `ConfigError` listing every problem."""
    name = str(source) if source else "companion.toml"
    c = _Checker(name, data)
    base = source.parent if source else Path.cwd()
    c.unknown("", data, {"schema", "game", "paths", "display", "controls", "readers"})
    c.get(data, "schema", 1, _choice((1,)), "must be 1 (the only schema so far)")

    g = c.table("game")
    c.unknown(
        "game.",
        g,
        {"name", "seats", "first", "window", "settle", "doublon_min", "language", "seed", "layout"},
    )
    game = GameConfig()
    known = games.names()
    gname = c.get(g, "game.name", game.name, _choice(known), f"choose one of {_choices(known)}")
    seats = game.seats
    if "seats" in g:
        raw = g["seats"]
        if isinstance(raw, int) and not isinstance(raw, bool) and 2 <= raw <= 6:
            seats = tuple(f"Seat {i + 1}" for i in range(raw))
        elif (
            isinstance(raw, list)
            and 2 <= len(raw) <= 6
            and all(isinstance(s, str) and s.strip() for s in raw)
            and len({s.strip() for s in raw}) == len(raw)
        ):
            seats = tuple(s.strip() for s in raw)
        else:
            c.bad(
                "game.seats",
                raw,
                "give 2 to 6 different names clockwise from seat 1, e.g. "
                '["Ana", "Bob", "Cy"], or a number of seats from 2 to 6',
            )
    first = c.get(
        g,
        "game.first",
        1,
        _int_in(1, len(seats)),
        f"the first player is a seat number from 1 to {len(seats)} (PTI-13: who did a "
        "magic trick most recently)",
    )
    window = c.get(g, "game.window", game.window, WINDOW.check, WINDOW.fix)
    settle = c.get(g, "game.settle", game.settle, SETTLE.check, SETTLE.fix)
    doublon_min = c.get(g, "game.doublon_min", game.doublon_min, DOUBLON_MIN.check, DOUBLON_MIN.fix)
    language = c.get(
        g,
        "game.language",
        game.language,
        _choice(LANGUAGES),
        f"the OLED language: {_choices(LANGUAGES)}",
    )
    seed = c.get(
        g,
        "game.seed",
        None,
        _int_in(0, 2**63 - 1),
        "a whole number >= 0, or leave the key out for a new seed every game",
    )
    layout = g.get("layout")
    if layout is not None:
        layout = _check_layout(c, layout, len(seats))
    if not c.problems:
        allowed = games.get(gname).seats
        if len(seats) not in allowed:
            c.bad(
                "game.seats",
                g.get("seats"),
                f"{gname} is for {allowed.start} to {allowed.stop - 1} players: "
                "name that many seats",
            )
        else:
            try:
                games.get(gname).check(len(seats), first - 1, layout)
            except ValueError as exc:
                c.bad("game", gname, f"{exc}")
    game = GameConfig(gname, seats, first - 1, window, settle, doublon_min, language, seed, layout)

    p = c.table("paths")
    c.unknown("paths.", p, {"data_dir", "pins"})
    data_dir = c.get(
        p,
        "paths.data_dir",
        DEFAULT_DATA_DIR,
        _text,
        f'a directory the service may write (journal, tags.json), e.g. "{DEFAULT_DATA_DIR}"',
    )
    pins_text = c.get(
        p, "paths.pins", None, _text, 'the path of the pin map, e.g. "/etc/companion/pins.toml"'
    )
    pins_path = None if pins_text is None else _resolve(base, pins_text)

    d = c.table("display")
    c.unknown("display.", d, {"driver", "i2c_bus", "address", "rotation", "contrast"})
    dd = DisplayConfig()
    display = DisplayConfig(
        driver=c.get(
            d,
            "display.driver",
            dd.driver,
            _choice(DISPLAY_DRIVERS),
            f'choose one of {_choices(DISPLAY_DRIVERS)} (many 1.3" modules are '
            'sh1106, 0.96" ones ssd1306)',
        ),
        i2c_bus=c.get(
            d,
            "display.i2c_bus",
            dd.i2c_bus,
            _int_in(0, 22),
            "the I2C bus number: 1 on a Raspberry Pi (/dev/i2c-1)",
        ),
        address=c.get(
            d,
            "display.address",
            dd.address,
            _int_in(0x03, 0x77),
            "a 7-bit I2C address, usually 0x3C (sometimes 0x3D); `i2cdetect -y 1` shows it",
        ),
        rotation=c.get(
            d,
            "display.rotation",
            dd.rotation,
            _choice(ROTATIONS),
            "degrees, 0 or 180 (the screens are 128x64 landscape; 180 turns a "
            "module mounted upside down)",
        ),
        contrast=c.get(
            d,
            "display.contrast",
            dd.contrast,
            _int_in(0, 255),
            "a whole number from 0 (dim) to 255 (bright)",
        ),
    )

    k = c.table("controls")
    c.unknown("controls.", k, {"enabled", "bounce_ms", "long_press_ms"})
    kd = ControlsConfig()
    controls = ControlsConfig(
        enabled=c.get(k, "controls.enabled", kd.enabled, _bool, "true or false (no quotes)"),
        bounce_ms=c.get(
            k,
            "controls.bounce_ms",
            kd.bounce_ms,
            _int_in(1, 200),
            "milliseconds a button must be still: a whole number from 1 to 200 (default 30)",
        ),
        long_press_ms=c.get(
            k,
            "controls.long_press_ms",
            kd.long_press_ms,
            _int_in(200, 5000),
            "milliseconds of a long press: a whole number from 200 to 5000 (default 800)",
        ),
    )

    r = c.table("readers")
    c.unknown("readers.", r, {"kind", "port", "spi_spots", "spi_rst", "resume_wait"})
    rd = ReadersConfig()
    kind = c.get(
        r, "readers.kind", rd.kind, _choice(READER_KINDS), f"choose one of {_choices(READER_KINDS)}"
    )
    port = c.get(
        r,
        "readers.port",
        rd.port,
        _text,
        f"the Pico's serial device, e.g. \"{DEFAULT_PICO_PORT}\" (the udev rule's name)",
    )
    spi_spots: tuple[tuple[int, int], ...] = ()
    if "spi_spots" in r:
        raw = r["spi_spots"]
        ok = (
            isinstance(raw, list)
            and raw
            and all(
                isinstance(x, list) and len(x) == 2 and all(_int_in(0, 6)(v) is not None for v in x)
                for x in raw
            )
        )
        if ok:
            spi_spots = tuple((int(b), int(dv)) for b, dv in raw)
        else:
            c.bad(
                "readers.spi_spots",
                raw,
                "one [bus, device] pair per reader, pad first, e.g. [[0, 0], [0, 1]]",
            )
    spi_rst = c.get(
        r,
        "readers.spi_rst",
        None,
        _int_in(0, MAX_GPIO),
        f"the BCM GPIO of the readers' shared reset line, 0 to {MAX_GPIO}",
    )
    if kind == "spi" and (not spi_spots or spi_rst is None):
        c.problems.append(
            f'{name}: readers.kind = "spi" needs readers.spi_spots and readers.spi_rst '
            '(or use kind = "pico" for readers on a Pico)'
        )
    resume_wait = c.get(
        r,
        "readers.resume_wait",
        rd.resume_wait,
        _float_in(0.0, 30.0),
        "seconds to wait for the readers after a restart: 0 to 30",
    )
    readers = ReadersConfig(kind, port, spi_spots, spi_rst, resume_wait)

    problems = c.problems
    pins: PinMap | None = None
    if controls.enabled and not problems:
        path = pins_path or _default_pins(base)
        if path is None:
            problems.append(
                f"{name}: paths.pins is not set and no pins.toml was found: set paths.pins to "
                'the pin map (e.g. "/etc/companion/pins.toml"), or set controls.enabled = false'
            )
        else:
            pins_path = path
            try:
                pins = load_pins(path)
                check_pins(pins, len(seats), display, readers, str(path))
            except ConfigError as exc:
                problems.extend(exc.problems)
    if problems:
        raise ConfigError(problems)
    return Config(
        game, _resolve(base, data_dir), pins_path, display, controls, readers, pins, source
    )


def _check_layout(c: _Checker, layout: Any, players: int) -> Mapping[str, Any] | None:
    try:
        if not isinstance(layout, Mapping):
            raise LayoutError("not a table")
        Layout.from_json(layout)
    except LayoutError as exc:
        c.bad(
            "game.layout",
            layout,
            f"{exc}; write [game.layout] with positions = [[row, col], ...] in reading "
            "order, or leave it out for the book's grid",
        )
        return None
    return dict(layout)


def _resolve(base: Path, text: str) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _default_pins(base: Path) -> Path | None:
    for candidate in (
        base / "pins.toml",
        Path("/etc/companion/pins.toml"),
        Path(__file__).resolve().parent.parent / "hardware" / "pins.toml",
    ):
        if candidate.is_file():
            return candidate
    return None


def load_pins(path: Path) -> PinMap:
    """The `[pi.*]` part of a pins.toml; raises `ConfigError` naming the key and the fix."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError([f"{name}: cannot read the pin map: {exc.strerror or exc}"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{name}: not valid TOML: {exc}"]) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{name}: not UTF-8 text ({_undecodable(exc)})"]) from exc
    pi = data.get("pi", {})
    problems: list[str] = []
    fix = f"a BCM GPIO number from 0 to {MAX_GPIO} (not a physical header pin number)"

    def pin(section: str, key: str, required: bool = True) -> int | None:
        table = pi.get(section, {})
        if key not in table:
            if required:
                problems.append(f"{name}: pi.{section}.{key} is missing: give {fix}")
            return None
        value = table[key]
        if _int_in(0, MAX_GPIO)(value) is None:
            problems.append(f"{name}: pi.{section}.{key} = {_show(value)}: must be {fix}")
            return None
        return int(value)

    def pins(section: str, key: str, count: tuple[int, int]) -> tuple[int, ...]:
        value = pi.get(section, {}).get(key)
        lo, hi = count
        if (
            not isinstance(value, list)
            or not lo <= len(value) <= hi
            or any(_int_in(0, MAX_GPIO)(v) is None for v in value)
        ):
            problems.append(
                f"{name}: pi.{section}.{key} = {_show(value)}: must be a list of {lo} to {hi} "
                f"BCM GPIO numbers (0 to {MAX_GPIO})"
            )
            return ()
        return tuple(int(v) for v in value)

    result = PinMap(
        doublon=pins("seats", "doublon", (2, 6)),
        menteur=pins("seats", "menteur", (2, 6)),
        announce=pins("console", "announce", (3, 3)),
        back=pin("console", "back"),
        encoder_a=pin("encoder", "a"),
        encoder_b=pin("encoder", "b"),
        encoder_push=pin("encoder", "push"),
        sda=pin("oled", "sda", required=False) or 2,
        scl=pin("oled", "scl", required=False) or 3,
    )
    if problems:
        raise ConfigError(problems)
    return result


def check_pins(
    pins: PinMap, seats: int, display: DisplayConfig, readers: ReadersConfig, name: str
) -> None:
    """Refuse pins used twice and pins of a bus in use, naming every clash."""
    problems: list[str] = []
    if len(pins.doublon) < seats or len(pins.menteur) < seats:
        problems.append(
            f"{name}: pi.seats has buttons for {min(len(pins.doublon), len(pins.menteur))} "
            f"seats but the game has {seats}: add pins to pi.seats.doublon and "
            "pi.seats.menteur, or seat fewer players"
        )
    taken: dict[int, str] = dict(EEPROM_PINS)
    if display.driver in OLED_DRIVERS:
        taken[pins.sda] = "the OLED's I2C SDA (pi.oled.sda)"
        taken[pins.scl] = "the OLED's I2C SCL (pi.oled.scl)"
        for p, what in I2C1_PINS.items():
            taken.setdefault(p, what)
    if readers.kind == "spi":
        for p, what in SPI0_PINS.items():
            taken.setdefault(p, f"{what} (readers on the Pi's SPI)")
        if readers.spi_rst is not None:
            taken.setdefault(readers.spi_rst, "readers.spi_rst (the readers' reset line)")
    for pin, what in pins.uses(seats):
        if pin in taken:
            problems.append(
                f"{name}: {what} = {pin}: GPIO {pin} is already {taken[pin]}; wire this "
                "button to a free GPIO and change the number"
            )
        else:
            taken[pin] = what
    if problems:
        raise ConfigError(problems)


def find_config(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file to use (see the module docstring), or None for the defaults."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        return Path(env)
    for candidate in (SYSTEM_CONFIG, LOCAL_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Find, read and validate the configuration; `ConfigError` on any problem."""
    source = find_config(path)
    if source is None:
        return Config(
            display=DisplayConfig(driver="dummy"),
            controls=ControlsConfig(enabled=False),
            readers=ReadersConfig(kind="none"),
            data_dir=Path.home() / ".local" / "share" / "companion",
        )
    try:
        with open(source, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError as exc:
        raise ConfigError(
            [
                f"{source}: no such file: give an existing file to --config, or copy "
                "docs/companion.example.toml there"
            ]
        ) from exc
    except OSError as exc:
        raise ConfigError([f"{source}: cannot read it: {exc.strerror or exc}"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            [f"{source}: not valid TOML: {exc} (strings need quotes, tables [brackets])"]
        ) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(
            [f"{source}: not UTF-8 text ({_undecodable(exc)}): save it as UTF-8"]
        ) from exc
    return parse_config(data, source.resolve())


# --------------------------------------------------------------------------- the data directory

DATA_ENV = "COMPANION_DATA"
"""The environment variable naming the data directory (beaten only by ``--data-dir``)."""
DATA_DIR_HELP = (
    "the data directory: the game's journal (game.jsonl), finished games (archive/) and "
    f"the enrolled tags (tags.json). Default: ${DATA_ENV}, else paths.data_dir of the "
    f"config ({DEFAULT_DATA_DIR} unless set; ~/.local/share/companion when there is no "
    "config file); see docs/companion.example.toml"
)


@dataclass(frozen=True, slots=True)
class DataDir:
    """Where the data directory is, and where that came from (for messages)."""

    path: Path
    origin: str


def locate_data_dir(config: Config, override: str | os.PathLike[str] | None = None) -> DataDir:
    """The one data directory of `enroll`, `run`, `doctor` and `config check`: ``override``
    (their ``--data-dir``) beats ``$COMPANION_DATA``, which beats the config's
    ``paths.data_dir``. One rule, so the tags `enroll` writes are the tags `run` reads."""
    if override is not None and str(override):
        return DataDir(Path(override).expanduser(), "--data-dir")
    env = os.environ.get(DATA_ENV)
    if env:
        return DataDir(Path(env).expanduser(), f"${DATA_ENV}")
    if config.source is None:
        return DataDir(config.data_dir, "the default without a config file")
    return DataDir(config.data_dir, f"paths.data_dir of {config.source}")


def find_data_dir(config: Config, override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory's path (see `locate_data_dir`)."""
    return locate_data_dir(config, override).path


def folder_problem(path: Path) -> str | None:
    """Why ``path`` can never be a folder (it, or a parent, is a file), or None. A folder
    that does not exist yet is fine: the commands that write create it (the data
    directory, `demo --out`)."""
    for folder in (path, *path.absolute().parents):
        if folder.exists():
            if folder.is_dir():
                return None
            what = "" if folder == path else f" cannot be created: {folder}"
            return f"{path}{what} is a file, not a directory: give a directory"
    return None


def data_dir_unwritable(path: Path) -> str | None:
    """Why this user may not write in ``path`` (or create it), or None when it may."""
    folder = path.absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    if folder == path.absolute():
        return f"{path} is not writable by this user"
    return f"{path} does not exist and this user may not create it in {folder}"


# --------------------------------------------------------------------------- argument types


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in ``low..high`` (no upper bound: None);
    argparse prefixes its message with the option, e.g. ``argument --games: ...``."""
    allowed = (
        f"a whole number from {low} to {high}" if high is not None else (f"a whole number >= {low}")
    )

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {allowed}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range: give {allowed}")
        return value

    parse.__name__ = "whole number"
    return parse


def positive_seconds(text: str) -> float:
    """An argparse ``type=`` for a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data-dir DIR`` option, the same on every command that uses the directory."""
    parser.add_argument("--data-dir", metavar="DIR", default=None, help=DATA_DIR_HELP)


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """The ``--config FILE`` option, the same on every command that reads the config."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help=f"the configuration (default: $COMPANION_CONFIG, else {SYSTEM_CONFIG}, else "
        "./companion.toml, else built-in defaults); docs/companion.example.toml documents it",
    )


def _undecodable(exc: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8, in words (the byte and its offset)."""
    return f"byte 0x{exc.object[exc.start]:02X} at offset {exc.start}"


def describe(config: Config, data: DataDir | None = None) -> list[str]:
    """A short summary of a valid configuration, for `config check`; ``data`` is the
    data directory the commands resolve (default: the config's own)."""
    g = config.game
    data = data or locate_data_dir(config)
    lines = [
        f"config: {config.source or 'built-in defaults (no file found)'}",
        f"game: {g.name}, {len(g.seats)} seats ({', '.join(g.seats)}), first player "
        f"{g.first + 1}, window {g.window:g} s, settle {g.settle:g} s, doublon_min "
        f"{g.doublon_min:g} s (PhiPassPass), language {g.language}",
        f"data directory: {data.path} (from {data.origin})",
    ]
    d = config.display
    if d.driver in OLED_DRIVERS:
        lines.append(
            f"display: {d.driver} on I2C bus {d.i2c_bus} at 0x{d.address:02X}, rotation "
            f"{d.rotation}, contrast {d.contrast}"
        )
    else:
        lines.append(f"display: {d.driver}")
    if config.controls.enabled and config.pins is not None:
        lines.append(
            f"controls: pins from {config.pins_path}, bounce {config.controls.bounce_ms} ms, "
            f"long press {config.controls.long_press_ms} ms"
        )
    else:
        lines.append("controls: none")
    r = config.readers
    lines.append(
        {
            "pico": f"readers: Pico on {r.port}",
            "spi": f"readers: {len(r.spi_spots)} on SPI",
            "none": "readers: none",
        }[r.kind]
    )
    if not config.hardware:
        lines.append("no hardware configured: `companion run` will simulate the table")
    return lines


# --------------------------------------------------------------------------- the command


def _check_command(args: argparse.Namespace) -> int:
    """`companion config check`: 0 valid, 1 the configuration has problems, 2 a bad
    ``--data-dir``."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for line in exc.problems:
            print(f"error: {line}", file=sys.stderr)
        print(f"companion config check: {len(exc.problems)} problem(s)", file=sys.stderr)
        return 1
    data = locate_data_dir(config, args.data_dir)
    problem = folder_problem(data.path)
    if problem is not None:
        if data.origin == "--data-dir":
            print(f"companion config check: --data-dir {problem}", file=sys.stderr)
            return 2
        print(f"error: {data.origin}: {problem}", file=sys.stderr)
        print("companion config check: 1 problem(s)", file=sys.stderr)
        return 1
    for line in describe(config, data):
        print(line)
    unwritable = data_dir_unwritable(data.path)
    if unwritable is not None:
        print(f"note: {unwritable}; the service (systemd runs it as user companion) "
              "must be able to write there")  # fmt: skip
    print("configuration OK")
    return 0


def add_config_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion config check`` to ``subparsers`` (``func`` returns the exit code)."""
    p = subparsers.add_parser(
        "config",
        help="check the table configuration",
        description="Commands about the configuration file (/etc/companion/companion.toml, "
        "documented in docs/companion.example.toml).",
    )
    sub = p.add_subparsers(dest="config_command", required=True)
    check = sub.add_parser(
        "check",
        help="validate the configuration and the pin map; exit 1 on any problem",
        description="Read the configuration (and the pin map it names), report every "
        "problem with its key, its bad value and the fix, or summarise the table and the "
        "data directory the commands use. Every key is documented in "
        "docs/companion.example.toml. Exit status: 0 valid, 1 problems in the "
        "configuration, 2 a bad option.",
    )
    add_config_option(check)
    add_data_dir_option(check)
    check.set_defaults(func=_check_command)
