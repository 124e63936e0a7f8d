"""The Controls port: the console and seat buttons, the rotary encoder, with gpiozero.

Three layers, so that almost all of it is tested without a Pi:

- ``EdgeFilter`` (pure, time passed in): raw button edges -> presses. Debouncing: an edge
  counts only if the line was still for ``bounce`` seconds before it and it changes the
  button's state, so the bursts of a closing or opening contact make one press. Seat,
  announce and back buttons press on the way down (a call's timing matters: calls within
  300 ms are settled clockwise); the encoder's push acts on release, as a short or a long
  press (held for ``long_press`` seconds or more).
- ``press_input`` and ``aim_step`` (pure): a press or an encoder step, with what the game
  needs to know (its token kinds, the layout's lines, the line aimed now), -> the journal's
  ``PressInput``. The mapping of docs/table.md:

  ==============================  ==================================================
  seat s's button NAME            ``press NAME seat=s`` (the buttons the games declare,
                                  `companion.games.Button`)
  announce button i (1..3)        ``press announce value=<the game's token kind i>``
  encoder turned                  ``press aim value=[a,b,c]`` (the next / previous line)
  encoder pushed                  ``press choose value=[a,b,c]`` (the line aimed now;
                                  no value when nothing is aimed)
  encoder held (long press)       ``press choose value="token"`` (the game's other
                                  choice, when it has one)
  back                            ``press back``
  ==============================  ==================================================

- ``GpioControls`` (thin): gpiozero ``Button`` and ``RotaryEncoder`` objects whose
  callbacks stamp the edge with ``time.monotonic()``, run it through the filter and put
  ``Press`` / ``EncoderTurn`` values on the referee loop's queue. Nothing else. Tests use
  gpiozero's ``MockFactory`` (``drive_low`` / ``drive_high``) through this same class.
  The callbacks run on the pin library's own thread, which RPi.GPIO makes in C: an
  exception there reaches no Python hook, and the press would vanish without a word. So
  each callback reports its exception on the queue as the ``buttons`` device's death
  (``companion.run.supervise``): the loop shows a Stop and the service restarts.

Button names: ``<button>:<seat>`` for a seat button (0-based seats), ``announce:<i>``
(0-based), ``back``, ``push``. Buttons wired to the Pico (``B <name> down|up`` frames)
use the same names and go through the same filter.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.config.model import ControlsConfig, PinMap
from companion.contract.inputs import CONTROL_NAME, PressInput
from companion.run.supervise import DeviceDied, death, report

RELEASE_BUTTONS = frozenset({"push"})
"""Buttons that act on release (short or long press); the others act when pressed."""

Line = tuple[int, ...]
"""What the encoder points at: one of the choices of spots the game offers (a line of hats,
a square...)."""


@dataclass(frozen=True, slots=True)
class Press:
    """A debounced press of a named button (``long``: held at least the long-press time)."""

    name: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class EncoderTurn:
    """The encoder moved ``steps`` detents (positive: clockwise)."""

    steps: int


BUTTONS_DEVICE = "buttons"
"""The device name a failed button or encoder callback is reported under."""


class Sink(Protocol):
    """Where presses, turns and a callback's death go: the referee loop's queue."""

    def put_nowait(self, item: Press | EncoderTurn | DeviceDied, /) -> None: ...


# --------------------------------------------------------------------------- pure parts


class EdgeFilter:
    """Debounce raw edges and tell short from long presses (see the module docstring).

    Not thread-safe by itself; ``GpioControls`` holds a lock around it.
    """

    def __init__(self, bounce: float = 0.03, long_press: float = 0.8) -> None:
        self.bounce = bounce
        self.long_press = long_press
        self._last_edge: dict[str, float] = {}
        self._down_since: dict[str, float] = {}

    def edge(self, name: str, down: bool, t: float) -> Press | None:
        """One raw edge of button ``name`` at time ``t`` (seconds, monotonic)."""
        last = self._last_edge.get(name)
        self._last_edge[name] = t
        if last is not None and t - last < self.bounce:
            return None  # the contact is still bouncing
        is_down = name in self._down_since
        if down == is_down:
            return None  # no change of state (a lost edge, or a bounce we already took)
        if down:
            self._down_since[name] = t
            return None if name in RELEASE_BUTTONS else Press(name)
        since = self._down_since.pop(name)
        if name in RELEASE_BUTTONS:
            return Press(name, long=t - since >= self.long_press)
        return None


def parse_name(name: str) -> tuple[str, int | None]:
    """``"announce:2"`` -> ``("announce", 2)``; ``"back"`` -> ``("back", None)``."""
    kind, _, index = name.partition(":")
    if not index:
        return kind, None
    try:
        return kind, int(index)
    except ValueError:
        return kind, None


def press_input(
    press: Press, t: float, tokens: Sequence[str], aimed: Line | None
) -> PressInput | None:
    """The journal input of a press, or None for a button that means nothing here."""
    kind, index = parse_name(press.name)
    if kind == "announce":
        if index is not None and 0 <= index < len(tokens):
            return PressInput(t, "announce", None, tokens[index])
        return None
    if index is not None and index >= 0 and CONTROL_NAME.fullmatch(kind):
        return PressInput(t, kind, index)  # a seat's button: its game judges it
    if kind == "back" and index is None:
        return PressInput(t, "back")
    if kind == "push" and index is None:
        if press.long:
            return PressInput(t, "choose", None, "token")
        # Nothing aimed: still a press (a game may take it, say to skip; else it refuses
        # and shows it, never dropped).
        return PressInput(t, "choose", None, None if aimed is None else list(aimed))
    return None


def aim_step(lines: Sequence[Line], current: Line | None, steps: int) -> Line | None:
    """The line the encoder aims at after ``steps`` detents, wrapping around. From no line,
    one step clockwise aims at the first line, one step back at the last."""
    if not lines or steps == 0:
        return current
    ordered = list(lines)
    if current in ordered:
        index = ordered.index(current) + steps
    else:
        index = steps - 1 if steps > 0 else len(ordered) + steps
    return ordered[index % len(ordered)]


def turn_input(
    turn: EncoderTurn, t: float, lines: Sequence[Line], aimed: Line | None
) -> PressInput | None:
    line = aim_step(lines, aimed, turn.steps)
    return None if line is None or line == aimed else PressInput(t, "aim", None, list(line))


# --------------------------------------------------------------------------- gpiozero


def button_pins(pins: PinMap, seats: int) -> dict[str, int]:
    """Button name -> BCM pin, for a table of ``seats`` seats."""
    names: dict[str, int] = {}
    for button, wired in pins.seats.items():
        for seat, pin in enumerate(wired[:seats]):
            names[f"{button}:{seat}"] = pin
    for i, pin in enumerate(pins.announce):
        names[f"announce:{i}"] = pin
    if pins.back is not None:
        names["back"] = pins.back
    if pins.encoder_push is not None:
        names["push"] = pins.encoder_push
    return names


class GpioControls:
    """The buttons and the encoder on the Pi's GPIO (buttons close to ground, pulled up).

    ``start(sink)`` builds the gpiozero devices (``pin_factory`` None: gpiozero's default,
    lgpio on Raspberry Pi OS Bookworm) and ``stop()`` closes them. A pin gpiozero cannot
    open raises ``gpiozero`` 's own error, naming the pin.
    """

    def __init__(
        self,
        pins: PinMap,
        seats: int,
        config: ControlsConfig | None = None,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        config = config or ControlsConfig()
        self.pins = pins
        self.seats = seats
        self.bounce = config.bounce_ms / 1000
        self.filter = EdgeFilter(self.bounce, config.long_press_ms / 1000)
        self.pin_factory = pin_factory
        self.clock = clock
        self.devices: list[Any] = []
        self._lock = threading.Lock()
        self._sink: Sink | None = None

    def start(self, sink: Sink) -> None:
        from gpiozero import Button, RotaryEncoder

        self._sink = sink
        try:
            for name, pin in button_pins(self.pins, self.seats).items():
                button = Button(
                    pin, pull_up=True, bounce_time=self.bounce, pin_factory=self.pin_factory
                )
                button.when_pressed = self._reporting(self._edge_handler(name, True))
                button.when_released = self._reporting(self._edge_handler(name, False))
                self.devices.append(button)
            if self.pins.encoder_a is not None and self.pins.encoder_b is not None:
                encoder = RotaryEncoder(
                    self.pins.encoder_a,
                    self.pins.encoder_b,
                    max_steps=0,
                    pin_factory=self.pin_factory,
                )
                encoder.when_rotated_clockwise = self._reporting(self._turn_handler(1))
                encoder.when_rotated_counter_clockwise = self._reporting(self._turn_handler(-1))
                self.devices.append(encoder)
        except BaseException:
            self.stop()
            raise

    def _reporting(self, handler: Callable[[], None]) -> Callable[[], None]:
        """``handler``, its exception reported on the queue rather than lost with the pin
        library's thread (see the module docstring)."""

        def reported() -> None:
            try:
                handler()
            except Exception as exc:
                sink = self._sink
                if sink is not None:
                    report(sink, death(BUTTONS_DEVICE, exc), exc)

        return reported

    def _edge_handler(self, name: str, down: bool) -> Callable[[], None]:
        def handler() -> None:
            t = self.clock()
            with self._lock:
                press = self.filter.edge(name, down, t)
            if press is not None and self._sink is not None:
                self._sink.put_nowait(press)

        return handler

    def _turn_handler(self, steps: int) -> Callable[[], None]:
        def handler() -> None:
            if self._sink is not None:
                self._sink.put_nowait(EncoderTurn(steps))

        return handler

    def stop(self) -> None:
        for device in self.devices:
            device.close()
        self.devices = []
        self._sink = None
