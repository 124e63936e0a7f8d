"""The configuration's fixed names and defaults: below the model and the words that say
its problems (`companion.config.words`), which both name them."""

from __future__ import annotations

DEFAULT_DATA_DIR = "/var/lib/companion"
DEFAULT_PICO_PORT = "/dev/companion-pico"
"""The stable name the udev rule of systemd/ gives the Pico."""

LANGUAGES = ("fr", "en")
DISPLAY_DRIVERS = ("ssd1306", "sh1106", "emulator", "capture", "dummy", "none")
"""ssd1306/sh1106 over I2C; emulator: a luma.emulator pygame window; capture: a PNG per
frame (luma.emulator) in the data directory; dummy: drawn in memory only; none: no OLED."""
OLED_DRIVERS = ("ssd1306", "sh1106")
READER_KINDS = ("pico", "spi", "none")
