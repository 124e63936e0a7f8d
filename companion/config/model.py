"""The table profile as the program sees it: frozen dataclasses, one per TOML table.

``parse_config`` (``companion.config.tables``) builds them from the file and has checked
every value by then, so the rest of the program reads them without checking again. The
allowed values of the enumerated keys live here too, next to the fields they constrain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config.club import ClubConfig
from companion.config.names import DEFAULT_DATA_DIR as DEFAULT_DATA_DIR
from companion.config.names import DEFAULT_PICO_PORT as DEFAULT_PICO_PORT
from companion.config.names import DISPLAY_DRIVERS as DISPLAY_DRIVERS
from companion.config.names import LANGUAGES as LANGUAGES
from companion.config.names import OLED_DRIVERS as OLED_DRIVERS
from companion.config.names import READER_KINDS as READER_KINDS
from companion.config.sound import SoundConfig
from companion.games import DEFAULT_GAME
from companion.screens.text import default_seat_names

ROTATIONS = (0, 180)
"""The screens are drawn 128x64 landscape; 180 turns a module mounted upside down."""


class ConfigError(Exception):
    """An invalid configuration or pin map; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class GameConfig:
    name: str = DEFAULT_GAME
    seats: tuple[str, ...] = default_seat_names(4, "fr")
    """The seats' names, clockwise from seat 1 (nobody named: "Siège 1"..., in the
    configuration's language)."""
    first: int = 0
    """0-based here; the file says 1..N like the table does."""
    settle: float = 0.5
    language: str = "fr"
    seed: int | None = None
    """None: a new seed per game (it is recorded in the journal)."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The ``[game]`` keys that belong to some games only (docs/companion.example.toml), by
    their name in the file, checked as the games declaring them say (their descriptors'
    `table_settings`): a game takes the ones its descriptor's `setup_fields` names into its
    setup's `rules` (`companion.games.Game.setup_rules`); the others ignore them."""
    rules: Mapping[str, Any] | None = None
    """The game's own rule settings ([game.rules], docs/games.md lists each game's); None:
    the book's rules."""


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


DEFAULT_SETTLE_US = 300
"""The power-up wait when neither the config nor the table profile gives one (the
firmware's own default too)."""


@dataclass(frozen=True, slots=True)
class ReadersConfig:
    kind: str = "pico"
    port: str = DEFAULT_PICO_PORT
    spi_spots: tuple[tuple[int, int], ...] = ()
    spi_rst: int | None = None
    settle_us: int | None = None
    """Microseconds a reader's tags get to power up before it is read (the Pico's scan and
    the Pi's alike); None when the file does not say (`settle`)."""
    resume_wait: float = 3.0
    """Seconds `run --resume` waits for the readers' first snapshot before resuming."""

    def settle(self, measured: int | None = None) -> int:
        """The power-up wait to use: the file's when it sets one (set by hand, it wins),
        else ``measured`` (the table profile's, from `companion doctor --walk`), else
        `DEFAULT_SETTLE_US`."""
        if self.settle_us is not None:
            return self.settle_us
        return DEFAULT_SETTLE_US if measured is None else measured


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The table's web page (docs/web.md): the live view for everyone on the network, and
    the way to play the games played on the page (`played_on_page`)."""

    enabled: bool = True
    host: str = "0.0.0.0"
    """The address to listen on: all of the Pi's addresses by default, "127.0.0.1" to
    keep the page on the Pi itself."""
    port: int = 8080
    pairing_hours: float = 0.0
    """Hours a phone's pairing lasts; 0: until the game ends (or `companion unpair`)."""


@dataclass(frozen=True, slots=True)
class PinMap:
    """The Raspberry Pi part of hardware/pins.toml (BCM numbers)."""

    seats: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Each seat button the table has, by its name (a game's `companion.games.Button`):
    one pin per seat, seat 1 first. The pin map's ``[pi.seats]``, and the buttons of the
    configured game it leaves out, at their default pins."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """How messages name each seat button (its label in the table's language)."""
    announce: tuple[int, ...] = ()
    back: int | None = None
    encoder_a: int | None = None
    encoder_b: int | None = None
    encoder_push: int | None = None
    sda: int = 2
    scl: int = 3

    def uses(self, seats: int) -> list[tuple[int, str]]:
        """(pin, what) of every input the table uses with `seats` seats."""
        from companion.config.words import say

        out: list[tuple[int, str]] = []
        for name, pins in self.seats.items():
            label = self.labels.get(name, name)
            out.extend((pin, say("use.seat", name=name, i=i, n=i + 1, label=label))
                       for i, pin in enumerate(pins[:seats]))  # fmt: skip
        out.extend((pin, say("use.announce", i=i, n=i + 1)) for i, pin in enumerate(self.announce))
        extra: tuple[tuple[int | None, str], ...] = (
            (self.back, say("use.back")),
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
    web: WebConfig = field(default_factory=WebConfig)
    """The file it came from (None: built-in defaults)."""
    sound: SoundConfig = field(default_factory=SoundConfig)
    """The table's voice ([sound], companion/config/sound.py)."""
    club: ClubConfig | None = None
    """The club's broker the table publishes to ([club], docs/club.md); None: none."""

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
