"""The power-on menu on the Pi: gpiozero's MockFactory drives the encoder and its push
through the same GpioControls, queue, menu loop and session start as `companion run`; an
unfinished journal is offered first; the simulated table's script drives it with --menu."""

from __future__ import annotations

import argparse
import dataclasses
import json
import queue
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import load_config
from companion.config.model import Config, DisplayConfig
from companion.devices.controls import GpioControls
from companion.devices.display import Display
from companion.devices.readers import ReaderFault, SpotContents
from companion.journal import PressInput, ResumeInput, read_journal
from companion.menu import NewGame, Resume, Step, spot_count
from companion.notify import Notifier
from companion.run.game_start import open_session as _open_session
from companion.run.power_on_menu import console_seats, run_menu, start_menu, use_menu
from companion.session import Session
from tests.pi.conftest import PINS, replay_file, run_service, simulated_game, write_script


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Console:
    """The encoder and its push on mock pins, as a player turns and pushes them."""

    def __init__(self, config: Config, factory: MockFactory, inbox: queue.Queue[Any]) -> None:
        pins = config.pins
        assert pins is not None
        assert pins.encoder_a is not None and pins.encoder_b is not None
        assert pins.encoder_push is not None and pins.back is not None
        self.clock = FakeClock()
        self.a, self.b = factory.pin(pins.encoder_a), factory.pin(pins.encoder_b)
        self.push_pin = factory.pin(pins.encoder_push)
        self.back_pin = factory.pin(pins.back)
        self.controls = GpioControls(
            pins, console_seats(config), config.controls, pin_factory=factory, clock=self.clock
        )
        self.controls.start(inbox)

    def turn(self, detents: int) -> None:
        order = (self.a, self.b) if detents > 0 else (self.b, self.a)
        for _ in range(abs(detents)):
            for pin in order:
                pin.drive_low()
            for pin in order:
                pin.drive_high()

    def _press(self, pin: Any, held: float) -> None:
        self.clock.t += 0.5
        pin.drive_low()
        self.clock.t += held
        pin.drive_high()

    def push(self, held: float = 0.2) -> None:
        self._press(self.push_pin, held)

    def back(self) -> None:
        self._press(self.back_pin, 0.1)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def pi_config(tmp_path: Path, seats: str = '["Ana", "Bob", "Cy"]') -> Config:
    shutil.copy(PINS, tmp_path / "pins.toml")
    path = tmp_path / "companion.toml"
    path.write_text(
        f'[paths]\npins = "pins.toml"\n[game]\nseats = {seats}\nfirst = 2\nseed = 3\n'
        '[readers]\nkind = "pico"\nresume_wait = 0.2\n'
    )
    return load_config(path)


def pi_args(resume: bool = True) -> argparse.Namespace:
    return argparse.Namespace(resume=resume, menu=False, no_menu=False, sim_input=None)


def drive(
    config: Config, args: argparse.Namespace, data: Path, inbox: queue.Queue[Any]
) -> tuple[Any, Session | None]:
    """The start of `companion run` on a Pi: the menu on the queue, then the session."""
    menu = start_menu(config, args, data, sim=False)
    display = Display(DisplayConfig(driver="dummy"), config.game.language)
    choice, menu, kept = run_menu(menu, inbox, display, Notifier({}), stopped=inbox.empty)
    display.close()
    if choice is None:
        return menu, None
    known = {s: u for s, u in menu.table if u is not None}
    session, _ = _open_session(config, args, data, inbox, False, choice, known)
    return choice, session


def report_empty(inbox: queue.Queue[Any], spots: int) -> None:
    for spot in range(spots + 1):
        inbox.put(SpotContents(spot, frozenset()))


def test_a_pi_console_shows_the_menu_unless_told_not_to(tmp_path: Path) -> None:
    config = pi_config(tmp_path)
    assert use_menu(config, pi_args(), sim=False)
    assert not use_menu(config, argparse.Namespace(no_menu=True, menu=False), sim=False)
    assert not use_menu(config, pi_args(), sim=True)  # the simulated table: only with --menu
    assert use_menu(config, argparse.Namespace(no_menu=False, menu=True), sim=True)
    assert not use_menu(Config(), pi_args(), sim=False)  # no pins: no controls, no menu
    assert console_seats(config) == 6  # the pin map wires six seats


def test_encoder_and_push_drive_the_menu_to_a_started_game(
    tmp_path: Path, factory: MockFactory
) -> None:
    config = pi_config(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    inbox: queue.Queue[Any] = queue.Queue()
    console = Console(config, factory, inbox)
    try:
        console.turn(1)  # PhiPassPass
        console.push()
        console.turn(2)  # 3 -> 4 -> 5 players
        console.turn(-1)  # back to 4
        console.push()
        console.turn(3)  # first player: Bob (the config's) -> Cy -> Siège 4 -> Ana
        console.push(held=1.0)  # a long push: one step back, to the seats
        console.push()  # the seats again, confirmed
        console.turn(-1)  # first: Ana -> Siège 4
        console.push()
        console.back()  # back at the first player ...
        console.push()  # ... and on to the ready step
        inbox.put(SpotContents(4, frozenset({"04A1B2C3"})))  # a token left in hat 4
        menu, session = drive(config, pi_args(), data, inbox)
        assert session is None and menu.step is Step.READY and menu.result is None
        inbox.put(ReaderFault(2, "absent"))
        report_empty(inbox, spot_count(menu))  # hat 4 emptied, every spot reports
        choice, game = _continue(menu, inbox, config, data)
    finally:
        console.controls.stop()
    assert choice == NewGame("phipasspass", ("Ana", "Bob", "Cy", "Siège 4"), 3)
    assert game is not None
    game.close()
    setup = read_journal(data / "game.jsonl").setup
    assert (setup.game, setup.seats, setup.first, setup.seed) == (
        "phipasspass",
        ("Ana", "Bob", "Cy", "Siège 4"),
        3,
        3,
    )


def _continue(
    menu: Any, inbox: queue.Queue[Any], config: Config, data: Path
) -> tuple[Any, Session | None]:
    display = Display(DisplayConfig(driver="dummy"), "fr")
    choice, menu, kept = run_menu(menu, inbox, display, Notifier({}), stopped=inbox.empty)
    display.close()
    assert [type(k).__name__ for k in kept] == ["ReaderFault"]  # for the game too
    assert choice is not None
    session, _ = _open_session(config, pi_args(), data, inbox, False, choice, {})
    return choice, session


def half_game(data: Path) -> Path:
    setup, inputs = simulated_game()
    path = data / "game.jsonl"
    session = Session.start(path, setup)
    for record in inputs[: len(inputs) // 2]:
        session.feed(record)
    session.close()
    return path


def test_an_unfinished_journal_is_offered_first_and_resumed(
    tmp_path: Path, factory: MockFactory
) -> None:
    config = pi_config(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    path = half_game(data)
    before = replay_file(path)
    inbox: queue.Queue[Any] = queue.Queue()
    for spot, uids in before.observed.uids.items():  # the readers see the table as it was
        inbox.put(SpotContents(spot, uids))
    console = Console(config, factory, inbox)
    try:
        console.turn(1)  # "new game" ...
        console.turn(1)  # ... and back to "resume" (wraps)
        console.push()
        choice, session = drive(config, pi_args(), data, inbox)
    finally:
        console.controls.stop()
    assert choice == Resume()
    assert session is not None
    assert session.referee.state == before.state
    session.close()
    journal = read_journal(path)
    assert isinstance(journal.inputs[-1], ResumeInput)
    assert not (data / "archive").exists()


def test_a_new_game_over_an_unfinished_journal_archives_it(
    tmp_path: Path, factory: MockFactory
) -> None:
    config = pi_config(tmp_path, seats="2")
    data = tmp_path / "data"
    data.mkdir()
    half_game(data)
    inbox: queue.Queue[Any] = queue.Queue()
    console = Console(config, factory, inbox)
    try:
        console.turn(-1)  # "new game"
        console.push()
        console.push()  # PtiPassPass
        console.push()  # 2 seats
        console.turn(-1)  # first player: seat 2 -> seat 1
        console.push()
        report_empty(inbox, 18)  # more spots than any layout: every hat reads empty
        choice, session = drive(config, pi_args(), data, inbox)
    finally:
        console.controls.stop()
    assert choice == NewGame("ptipasspass", ("Siège 1", "Siège 2"), 0)
    assert session is not None
    session.close()
    assert len(list((data / "archive").glob("game-*.jsonl"))) == 1
    assert read_journal(data / "game.jsonl").setup.seats == ("Siège 1", "Siège 2")


def test_without_resume_an_existing_journal_is_refused_before_the_menu(tmp_path: Path) -> None:
    config = pi_config(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    half_game(data)
    with pytest.raises(FileExistsError, match="--resume"):
        start_menu(config, pi_args(resume=False), data, sim=False)


def test_the_simulated_table_drives_the_menu_with_scripted_presses(tmp_path: Path) -> None:
    lines = [
        {"type": "setup", "game": "ptipasspass", "seats": ["X", "Y"]},  # ignored
        {"type": "press", "control": "aim", "value": 1},  # PhiPassPass
        {"type": "press", "control": "choose"},
        {"type": "press", "control": "aim", "value": -1},  # 4 -> 3 players
        {"type": "press", "control": "choose"},
        {"type": "press", "control": "aim", "value": 2},  # first: seat 3
        {"type": "press", "control": "back"},  # to the seats, the choices kept
        {"type": "press", "control": "choose"},
        {"type": "press", "control": "choose"},  # the first player: seat 3
        {"type": "press", "control": "choose"},  # no readers: a push at "ready" starts
        {"type": "press", "control": "back", "t": 1.0},  # the game's first input
    ]
    script = tmp_path / "menu.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in lines))
    data = tmp_path / "data"
    done = run_service(
        "run",
        "--menu",
        "--sim",
        "--sim-clock",
        "script",
        "--sim-input",
        str(script),
        "--data-dir",
        str(data),
    )
    assert done.returncode == 0, done.stderr
    journal = read_journal(data / "game.jsonl")
    assert (journal.setup.game, journal.setup.seats, journal.setup.first) == (
        "phipasspass",
        ("Siège 1", "Siège 2", "Siège 3"),
        2,
    )
    assert [(r.control, r.t) for r in journal.inputs if isinstance(r, PressInput)] == [
        ("back", 1.0)
    ]


def test_without_menu_the_simulated_table_starts_as_before(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "game.jsonl", setup, inputs[:5])
    done = run_service(
        "run",
        "--sim",
        "--sim-clock",
        "script",
        "--sim-input",
        str(script),
        "--data-dir",
        str(tmp_path / "data"),
    )
    assert done.returncode == 0, done.stderr
    assert "power-on menu" not in done.stderr
    written = read_journal(tmp_path / "data" / "game.jsonl").setup
    assert written.id is not None  # a new game's own id (docs/journal.md, the setup line)
    assert dataclasses.replace(written, id=None) == setup


def test_the_script_ending_in_the_menu_stops_without_a_game(tmp_path: Path) -> None:
    script = tmp_path / "menu.jsonl"
    script.write_text('{"type":"press","control":"choose"}\n')
    done = run_service(
        "run",
        "--menu",
        "--sim",
        "--sim-clock",
        "script",
        "--sim-input",
        str(script),
        "--data-dir",
        str(tmp_path / "data"),
    )
    assert done.returncode == 0, done.stderr
    assert "ended in the power-on menu" in done.stderr
    assert not (tmp_path / "data" / "game.jsonl").exists()
