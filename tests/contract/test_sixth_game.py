"""A sixth game is one folder: the test game (tests/games/tally/) declares its tokens'
family (`tally:pebble`) and a seat button (`pass_turn`, "Passe" / "Pass", TALLY-2) in its
descriptor, and with nothing outside its folder written, `companion enroll` takes its
tokens from the pad (over a Pico on a pseudo-terminal), the logs blank its tags, the pin
map wires its button (at its default pins when the map leaves it out) and a press of it is
the seat's pass on the table, shown by its label when it cannot count, and refused pins or
buttons are named by their labels in the table's language."""

from __future__ import annotations

import json
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.config import load_config
from companion.config.model import DisplayConfig
from companion.devices.controls import GpioControls
from companion.devices.display import Display
from companion.devices.registry import TagRegistry
from companion.games import Game
from companion.journal import PressInput, dump_lines, read_journal
from companion.notify import Notifier
from companion.run.items import Tick
from companion.run.loop import Service
from companion.run.supervise import SupervisedThread
from companion.screens.text import notice_title
from companion.session import Session
from tests.devices.conftest import FakePico
from tests.devices.test_doctor import Responder
from tests.games import registered

ROOT = Path(__file__).resolve().parents[2]
PINS = ROOT / "hardware" / "pins.toml"
PEBBLES = ["04A1B2C3D4E5F6", "8A2C11F0", "04FFEEDDCCBBAA", "1A2B3C4D"]


@pytest.fixture
def tally() -> Iterator[Game]:
    """The test game, registered for the test only (as COMPANION_GAMES would)."""
    with registered("tests.games.tally") as found:
        yield found["tally"]


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[FakePico]:
    """A Pico's side of a real pseudo-terminal."""
    fake = FakePico(tmp_path)
    yield fake
    fake.unplug()


def write_config(folder: Path, lang: str = "fr", pins: str | None = None) -> Path:
    """A table of Tally for Ana and Bob speaking `lang`; with `pins`, its buttons on that
    pin map."""
    controls = "[controls]\nenabled = false\n"
    if pins is not None:
        (folder / "pins.toml").write_text(pins)
        controls = '[controls]\nenabled = true\n[paths]\npins = "pins.toml"\n'
    config = folder / "companion.toml"
    config.write_text(
        f'[game]\nname = "tally"\nseats = ["Ana", "Bob"]\nlanguage = "{lang}"\n'
        f'[display]\ndriver = "dummy"\n{controls}[readers]\nkind = "none"\n'
    )
    return config


# ----------------------------------------------------------------------------- enrolment


class Hand:
    """A person at the pad of a running Pico: each pebble alone on it until the registry
    holds its tag, then off, then the next."""

    def __init__(self, responder: Responder, uids: list[str], data: Path) -> None:
        self.responder, self.uids, self.data = responder, uids, data
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.play, daemon=True)

    def play(self) -> None:
        self.responder.pico.wait_opened(10)
        self.stopped.wait(0.6)  # the pad's first reports: empty, a token on it is no tap
        for uid in self.uids:
            self.responder.sets[0] = [uid]
            while uid not in TagRegistry(self.data):  # saved by a rename: never half
                if self.stopped.wait(0.05):
                    return
            self.responder.sets[0] = []
            self.stopped.wait(0.6)  # off the pad long enough for a snapshot to say so


def test_enroll_takes_the_games_tokens_from_the_pad(
    tally: Game, tmp_path: Path, pico: FakePico, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    data = tmp_path / "data"
    responder = Responder(pico, [[], [], None])
    hand = Hand(responder, PEBBLES, data)
    responder.thread.start()
    hand.thread.start()
    try:
        args = ["--config", str(config), "--data-dir", str(data), "--timeout", "20"]
        code = main(["enroll", "--game", "tally", "--seats", "2", "--port", str(pico.path), *args])
    finally:
        hand.stopped.set()
        responder.stop.set()
        hand.thread.join(2)
        responder.thread.join(2)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[1/4] tap seat 1's Pebble on the pad" in out
    assert json.loads((data / "tags.json").read_text())["tags"] == {
        uid: "tally:pebble" for uid in PEBBLES
    }

    assert main(["enroll", "tally:stone", "--config", str(config), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert "unknown token kind 'tally:stone'" in err and "tally:pebble" in err


def test_the_logs_blank_the_games_tags(tally: Game, caplog: pytest.LogCaptureFixture) -> None:
    """A device thread dies of an exception quoting a pebble's tag and kind: the log says
    why without either (`companion.run.supervise.blank_secrets`)."""

    def work() -> None:
        raise KeyError(f"{PEBBLES[0]} is tally:pebble")

    inbox: queue.Queue[Any] = queue.Queue()
    with caplog.at_level(logging.ERROR, logger="companion"):
        thread = SupervisedThread("serial-link", work, inbox, lambda: False)
        thread.start()
        thread.join()
    assert "device thread serial-link died: KeyError: '<uid> is <kind>'" in caplog.text
    assert PEBBLES[0] not in caplog.text and "pebble" not in caplog.text
    assert "tally:pebble" not in inbox.get_nowait().reason


# ----------------------------------------------------------------------------- buttons


def test_its_button_is_wired_at_its_default_pins_and_named_in_the_tables_language(
    tally: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = load_config(write_config(tmp_path, pins=PINS.read_text()))
    assert config.pins is not None
    assert config.pins.seats["pass_turn"] == (7, 8, 9, 10)  # not in the map: the game's own
    assert config.pins.seats["doublon"][:2] == (4, 17)  # the map's, wired whatever the game
    assert config.pins.labels["pass_turn"] == "Passe"

    spi = '[readers]\nkind = "spi"\nspi_spots = [[0, 0], [0, 1]]\nspi_rst = 25\n'
    pins = PINS.read_text()
    for lang, label in (("fr", "Passe"), ("en", "Pass")):
        path = write_config(tmp_path, lang, pins=pins)
        path.write_text(path.read_text().replace('[readers]\nkind = "none"\n', spi))
        assert main(["config", "check", "--config", str(path)]) == 1
        err = capsys.readouterr().err
        assert f"pi.seats.pass_turn[1] (seat 2 {label}) = 8: GPIO 8 is already SPI0 CE0" in err

    short = pins.replace("[pi.seats]\n", "[pi.seats]\npass_turn = [7, 8]\n")
    path = write_config(tmp_path, "fr", pins=short)
    path.write_text(path.read_text().replace('["Ana", "Bob"]', '["Ana", "Bob", "Cy"]'))
    assert main(["config", "check", "--config", str(path)]) == 1
    err = capsys.readouterr().err
    assert "pi.seats.pass_turn (Passe) has pins for 2 seats but the game has 3" in err

    typo = pins.replace("[pi.seats]\n", "[pi.seats]\npas_turn = [9, 10]\n")
    for lang, label in (("fr", "Passe"), ("en", "Pass")):
        path = write_config(tmp_path, lang, pins=typo)
        assert main(["config", "check", "--config", str(path)]) == 1
        err = capsys.readouterr().err
        assert "pi.seats.pas_turn: no game has a seat button pas_turn" in err
        assert f"pass_turn ({label})" in err and "doublon (Doublon)" in err


def test_a_press_of_its_button_is_the_seats_pass_and_is_shown_when_it_cannot_count(
    tally: Game, tmp_path: Path
) -> None:
    config = load_config(write_config(tmp_path, pins=PINS.read_text()))
    assert config.pins is not None
    setup = tally.simulated_setup(2, 0)  # Ana plays first
    session = Session.start(tmp_path / "game.jsonl", setup)
    inbox: queue.Queue[Any] = queue.Queue()
    now = [1000.0]
    service = Service(session, inbox, Display(DisplayConfig(driver="dummy"), "fr"),
                      Notifier({}), clock=lambda: now[0])  # fmt: skip
    factory = MockFactory()
    controls = GpioControls(config.pins, 2, config.controls, pin_factory=factory,
                            clock=lambda: now[0])  # fmt: skip
    controls.start(inbox)
    pressed: list[PressInput] = []

    def press(seat: int) -> None:
        pin = factory.pin(config.pins.seats["pass_turn"][seat])  # type: ignore[union-attr]
        pin.drive_low()
        now[0] += 0.2
        pin.drive_high()
        now[0] += 0.5
        inbox.put(Tick())
        while not inbox.empty():
            for record in service.inputs_of(inbox.get_nowait()):
                service.feed(record)
                if isinstance(record, PressInput):
                    pressed.append(record)

    try:
        press(1)  # Bob: not his turn
        referee = session.referee
        assert referee.events[-1]["reason"] == "not_your_turn"
        notice = referee.screen.notice
        assert notice is not None and notice_title(notice, setup.seats, "fr") == "Bob : Passe"
        press(0)  # Ana passes (TALLY-2)
        press(1)  # then Bob may
        press(0)  # but Ana only once a game
    finally:
        controls.stop()
        factory.close()
        session.close()
    assert [(p.control, p.seat) for p in pressed] == [("pass_turn", s) for s in (1, 0, 1, 0)]
    kinds = [(e["kind"], e.get("reason")) for e in referee.events]
    assert kinds == [("ignored", "not_your_turn"), ("passed", None), ("passed", None),
                     ("ignored", "already_called")]  # fmt: skip
    assert read_journal(tmp_path / "game.jsonl").inputs[-1] == pressed[-1]


def test_it_plays_end_to_end_on_the_simulated_table(tally: Game, tmp_path: Path) -> None:
    """`companion run` plays a journal of Tally with its button pressed, knowing the game
    through COMPANION_GAMES alone."""
    played = tally.simulate(tally.simulated_setup(3, 3), bots=["passer", "any", "passer"])
    script = tmp_path / "script.jsonl"
    script.write_text("\n".join(dump_lines(played.setup, played.inputs)) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env["COMPANION_GAMES"] = "tests.games.tally"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--sim", "--sim-input", str(script),
         "--sim-clock", "script", "--data-dir", "data", "--no-menu"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert played.referee is not None and played.referee.winner == 1
    assert "tally: Ana 1, Bob 2, Cy 0" in done.stderr
    journal = read_journal(tmp_path / "data" / "game.jsonl")
    presses = [(i.control, i.seat) for i in journal.inputs if isinstance(i, PressInput)]
    assert presses == [("pass_turn", 0), ("pass_turn", 2)]
    assert '"kind":"passed","seat":2' in done.stderr
