"""Buttons and encoder: the pure mapping, the debouncing, and gpiozero's MockFactory driving
the same GpioControls a Pi uses, through the referee loop."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config.model import ControlsConfig, DisplayConfig, PinMap
from companion.config.pins import load_pins
from companion.devices.controls import (
    EdgeFilter,
    EncoderTurn,
    GpioControls,
    Press,
    aim_step,
    button_pins,
    press_input,
    turn_input,
)
from companion.devices.display import Display
from companion.games.passpass.rules import Call, Challenge, Phase, legal_actions
from companion.journal import PressInput
from companion.notify import Notifier
from companion.run.items import Tick
from companion.run.loop import Service
from companion.run.supervise import DeviceDied
from companion.session import Session
from tests.pi.conftest import PINS, simulated_game

TOKENS = ("colombe", "lapin", "souris")
LINES = ((1, 2, 3), (4, 5, 6), (1, 4, 7))


# ----------------------------------------------------------------------------- pure


def test_press_mapping() -> None:
    assert press_input(Press("doublon:2"), 1.0, TOKENS, None) == PressInput(1.0, "doublon", 2)
    assert press_input(Press("menteur:0"), 1.0, TOKENS, None) == PressInput(1.0, "menteur", 0)
    assert press_input(Press("announce:1"), 2.0, TOKENS, None) == PressInput(
        2.0, "announce", None, "lapin"
    )
    assert press_input(Press("announce:3"), 2.0, TOKENS, None) is None  # no 4th kind
    assert press_input(Press("back"), 3.0, TOKENS, None) == PressInput(3.0, "back")
    assert press_input(Press("push"), 4.0, TOKENS, (4, 5, 6)) == PressInput(
        4.0, "choose", None, [4, 5, 6]
    )
    # Nothing aimed: a press all the same (Swiped's skip; refused and shown elsewhere).
    assert press_input(Press("push"), 4.0, TOKENS, None) == PressInput(4.0, "choose")
    assert press_input(Press("push", long=True), 4.0, TOKENS, None) == PressInput(
        4.0, "choose", None, "token"
    )
    assert press_input(Press("reset"), 5.0, TOKENS, None) is None


def test_aim_steps_wrap_around_the_lines() -> None:
    assert aim_step(LINES, None, 1) == (1, 2, 3)
    assert aim_step(LINES, None, -1) == (1, 4, 7)
    assert aim_step(LINES, (1, 2, 3), 1) == (4, 5, 6)
    assert aim_step(LINES, (1, 4, 7), 1) == (1, 2, 3)
    assert aim_step(LINES, (1, 2, 3), -1) == (1, 4, 7)
    assert aim_step(LINES, (4, 5, 6), 0) == (4, 5, 6)
    assert aim_step((), None, 1) is None
    assert turn_input(EncoderTurn(1), 7.0, LINES, (1, 2, 3)) == PressInput(
        7.0, "aim", None, [4, 5, 6]
    )


def test_edge_filter_makes_one_press_of_a_bouncing_contact() -> None:
    f = EdgeFilter(bounce=0.03)
    edges = [(True, 0.000), (False, 0.001), (True, 0.002), (False, 0.004), (True, 0.005)]
    assert [f.edge("doublon:1", d, t) for d, t in edges] == [Press("doublon:1")] + [None] * 4
    # release, bouncing too: no press
    edges = [(False, 0.300), (True, 0.301), (False, 0.302)]
    assert [f.edge("doublon:1", d, t) for d, t in edges] == [None] * 3
    # a real second press later counts
    assert f.edge("doublon:1", True, 0.600) == Press("doublon:1")
    # another button is independent
    assert f.edge("menteur:1", True, 0.601) == Press("menteur:1")


def test_edge_filter_short_and_long_push() -> None:
    f = EdgeFilter(bounce=0.03, long_press=0.8)
    assert f.edge("push", True, 1.0) is None  # acts on release
    assert f.edge("push", False, 1.2) == Press("push", long=False)
    assert f.edge("push", True, 2.0) is None
    assert f.edge("push", False, 2.01) is None  # a bounce, not a release
    assert f.edge("push", False, 3.0) == Press("push", long=True)


# ------------------------------------------------------------------------- gpiozero


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def pins() -> PinMap:
    return load_pins(PINS)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def start_game(
    tmp_path: Path, until: Callable[[Any], bool], clock: FakeClock
) -> tuple[Service, queue.Queue[Any]]:
    """A service whose game was played (simulated) up to the first moment `until` holds."""
    setup, inputs = simulated_game()
    session = Session.start(tmp_path / "game.jsonl", setup)
    for record in inputs:
        session.feed(record)
        if until(session.referee):
            break
    else:
        raise AssertionError("the simulated game never got there")
    inbox: queue.Queue[Any] = queue.Queue()
    display = Display(DisplayConfig(driver="dummy"), setup.language)
    service = Service(session, inbox, display, Notifier({}), clock=clock)
    return service, inbox


def drain(service: Service, inbox: queue.Queue[Any]) -> list[PressInput]:
    presses = []
    while not inbox.empty():
        for record in service.inputs_of(inbox.get_nowait()):
            service.feed(record)
            if isinstance(record, PressInput):
                presses.append(record)
    return presses


def quiet(phase: Phase) -> Callable[[Any], bool]:
    return lambda r: r.state.phase is phase and r.fault is None and r.pending is None


def test_button_pins_follow_the_pin_map(pins: PinMap) -> None:
    names = button_pins(pins, 3)
    assert names["doublon:0"] == 4 and names["menteur:2"] == 18
    assert names["announce:2"] == 19 and names["back"] == 26 and names["push"] == 21
    assert "doublon:3" not in names  # three seats only


def test_a_callback_that_raises_reports_the_buttons_death_and_keeps_the_pin_thread(
    pins: PinMap, factory: MockFactory
) -> None:
    """The exception is put on the queue (the loop then stops the service loudly), not
    raised into the pin library's thread, where nobody would see it."""

    def broken_clock() -> float:
        raise OSError("clock gone")

    controls = GpioControls(pins, 3, pin_factory=factory, clock=broken_clock)
    inbox: queue.Queue[Any] = queue.Queue()
    controls.start(inbox)
    try:
        factory.pin(button_pins(pins, 3)["back"]).drive_low()  # would raise without the report
    finally:
        controls.stop()
    died = inbox.get_nowait()
    assert isinstance(died, DeviceDied) and died.name == "buttons"
    assert died.reason.startswith("OSError: clock gone (at test_controls.py:")
    assert inbox.empty()


def test_a_seat_press_in_a_challenge_window_is_that_seats_call(
    tmp_path: Path, pins: PinMap, factory: MockFactory
) -> None:
    clock = FakeClock()
    service, inbox = start_game(tmp_path, quiet(Phase.WINDOW), clock)
    referee = service.referee
    calls = [a for a in legal_actions(referee.state) if isinstance(a, Call)]
    seat = next(a.seat for a in calls if a.challenge is Challenge.DOUBLON)
    controls = GpioControls(pins, 3, ControlsConfig(bounce_ms=30), pin_factory=factory, clock=clock)
    controls.start(inbox)
    try:
        clock.t += 0.5
        factory.pin(pins.seats["doublon"][seat]).drive_low()
        presses = drain(service, inbox)
        assert presses == [PressInput(presses[0].t, "doublon", seat)]
        clock.t += 0.1
        factory.pin(pins.seats["doublon"][seat]).drive_high()
        clock.t += 0.3  # past the 300 ms grace for calls
        inbox.put(Tick())
        drain(service, inbox)
    finally:
        controls.stop()
    verdicts = [e for e in referee.events if e["kind"] == "verdict"]
    assert verdicts[-1]["seat"] == seat and verdicts[-1]["challenge"] == "doublon"


def test_bounces_do_not_double_call(tmp_path: Path, pins: PinMap, factory: MockFactory) -> None:
    clock = FakeClock()
    service, inbox = start_game(tmp_path, quiet(Phase.WINDOW), clock)
    referee = service.referee
    calls = [a for a in legal_actions(referee.state) if isinstance(a, Call)]
    seat = next(a.seat for a in calls if a.challenge is Challenge.DOUBLON)
    pin = pins.seats["doublon"][seat]
    journaled_before = len((tmp_path / "game.jsonl").read_text().splitlines())
    controls = GpioControls(pins, 3, ControlsConfig(bounce_ms=30), pin_factory=factory, clock=clock)
    controls.start(inbox)
    try:
        clock.t += 0.5
        for step in range(7):  # closing contact: low, high, low, ... 2 ms apart
            (factory.pin(pin).drive_low if step % 2 == 0 else factory.pin(pin).drive_high)()
            clock.t += 0.002
        presses = drain(service, inbox)
        clock.t += 0.35  # held past the call grace: the verdict comes
        inbox.put(Tick())
        presses += drain(service, inbox)
        for step in range(6):  # the opening contact bounces too
            (factory.pin(pin).drive_high if step % 2 == 0 else factory.pin(pin).drive_low)()
            clock.t += 0.002
        factory.pin(pin).drive_high()
        presses += drain(service, inbox)
        clock.t += 1.0
        inbox.put(Tick())
        presses += drain(service, inbox)
    finally:
        controls.stop()
    assert [(p.control, p.seat) for p in presses] == [("doublon", seat)]
    assert [e["kind"] for e in referee.events].count("verdict") == 1
    journal = (tmp_path / "game.jsonl").read_text().splitlines()
    assert sum('"control":"doublon"' in line for line in journal[journaled_before:]) == 1
    # a successful Doublon opens the reward: a bounce there would have taken a token
    assert not [e for e in referee.events if e.get("choice") == "token"]


def test_announce_buttons_name_the_games_tokens(
    tmp_path: Path, pins: PinMap, factory: MockFactory
) -> None:
    clock = FakeClock()
    service, inbox = start_game(tmp_path, quiet(Phase.ANNOUNCE), clock)
    controls = GpioControls(pins, 3, pin_factory=factory, clock=clock)
    controls.start(inbox)
    try:
        clock.t += 1.0
        factory.pin(pins.announce[1]).drive_low()
        presses = drain(service, inbox)
    finally:
        controls.stop()
    assert [(p.control, p.value) for p in presses] == [("announce", "lapin")]


def test_encoder_aims_at_a_line_and_push_reveals_it(
    tmp_path: Path, pins: PinMap, factory: MockFactory
) -> None:
    clock = FakeClock()
    service, inbox = start_game(tmp_path, quiet(Phase.REVEAL), clock)
    referee = service.referee
    lines = referee.state.config.layout.lines
    assert pins.encoder_a is not None and pins.encoder_b is not None
    assert pins.encoder_push is not None
    a, b = factory.pin(pins.encoder_a), factory.pin(pins.encoder_b)
    push = factory.pin(pins.encoder_push)
    controls = GpioControls(pins, 3, pin_factory=factory, clock=clock)
    controls.start(inbox)
    try:
        clock.t += 1.0
        for pin in (a, b):  # one detent clockwise: A leads B
            pin.drive_low()
        for pin in (a, b):
            pin.drive_high()
        drain(service, inbox)
        assert referee.aim == lines[0]
        for pin in (a, b, a, b):  # and one more
            (pin.drive_low if pin.state else pin.drive_high)()
        presses = drain(service, inbox)
        assert referee.aim == lines[1]
        push.drive_low()
        clock.t += 0.2
        push.drive_high()
        presses += drain(service, inbox)
    finally:
        controls.stop()
    assert [(p.control, p.value) for p in presses] == [
        ("aim", list(lines[1])),
        ("choose", list(lines[1])),
    ]
    assert any(e["kind"] == "reveal" and e["spots"] == list(lines[1]) for e in referee.events)
