"""The OLED's Stop when a device thread died: what failed, and that the service restarts.

Drawn by the referee loop, never by a referee, with the Stop every game's faults use
(`render.draw_stop`), so it looks the same whatever the game. The service then ends with
status 1 and systemd starts it again; the game resumes from its journal
(`companion.run.supervise`). Known threads get a name a table owner understands; any
other thread (one of gpiozero's, say) is named as Python names it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.screens.common import draw_stop
from companion.screens.font import sanitize
from companion.screens.pen import Pen
from companion.screens.text import DEFAULT_LANGUAGE

_DEVICES = {
    "fr": {
        "serial-link": "la liaison avec le Pico",
        "spi-readers": "les lecteurs RFID",
        "sim-input": "l’entrée simulée",
        "clock": "l’horloge",
        "web": "la page web",
        "buttons": "les boutons",
    },
    "en": {
        "serial-link": "the link to the Pico",
        "spi-readers": "the RFID readers",
        "sim-input": "the simulated input",
        "clock": "the clock",
        "web": "the web page",
        "buttons": "the buttons",
    },
}
_TEXT = {
    "fr": "Panne : {device}. Le service redémarre, la partie reprendra.",
    "en": "Failed: {device}. The service restarts; the game will resume.",
}


@dataclass(frozen=True, slots=True)
class DeviceStopScreen:
    """A device thread died: ``device`` is its name (``serial-link``, ``clock``...)."""

    device: str


def device_label(device: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The device as the OLED names it (the thread's own name when it is not one of ours)."""
    names = _DEVICES.get(lang, _DEVICES["en"])
    return names.get(device) or sanitize(device) or "?"


def stop_text(device: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return _TEXT.get(lang, _TEXT["en"]).format(device=device_label(device, lang))


def render_device_stop(pen: Pen, screen: DeviceStopScreen, lang: str) -> None:
    draw_stop(pen, stop_text(screen.device, lang), lang)
