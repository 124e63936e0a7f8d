"""The referee loop as a service: tick journaling, kill -9 and resume, the OLED after a
restart, t continuing after a resume, a failing display, pins refused at start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from PIL import Image, ImageChops

from companion.journal import PressInput, ResumeInput, TickInput, checked, read_journal
from companion.screens.render import frame
from tests.pi.conftest import (
    PINS,
    replay,
    replay_file,
    run_service,
    service_command,
    service_env,
    simulated_game,
    with_clock,
    without,
    write_script,
)

SCRIPT = ("--sim", "--sim-clock", "script", "--exit-when-finished")


def test_journal_with_skipped_ticks_replays_to_the_same_game(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    clocked = with_clock(inputs)
    expected = replay(setup, clocked).result()
    script = write_script(tmp_path / "script.jsonl", setup, clocked)
    done = run_service(
        "run", *SCRIPT, "--sim-input", str(script), "--data-dir", str(tmp_path / "data")
    )
    assert done.returncode == 0, done.stderr
    journal = read_journal(tmp_path / "data" / "game.jsonl")
    ticks = sum(isinstance(r, TickInput) for r in journal.inputs)
    clock_ticks = sum(isinstance(r, TickInput) for r in clocked)
    assert ticks < clock_ticks / 5, (ticks, clock_ticks)  # most ticks change nothing
    assert replay(journal.setup, journal.inputs).result() == expected
    assert expected["winner"] is not None


def test_kill_9_mid_game_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    clocked = with_clock(inputs)
    expected = replay(setup, clocked).result()
    # cut just after a press in the middle of the game (presses are always journaled)
    cut = next(
        i for i in range(len(clocked) // 2, len(clocked)) if isinstance(clocked[i], PressInput)
    )
    data = tmp_path / "data"
    journal_path = data / "game.jsonl"
    fifo = tmp_path / "table.fifo"
    os.mkfifo(fifo)
    first = subprocess.Popen(
        service_command("run", *SCRIPT, "--sim-input", str(fifo), "--data-dir", str(data)),
        env=service_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with open(fifo, "w", encoding="utf-8") as pipe:
            pipe.write(json.dumps(setup.to_json()) + "\n")
            for record in clocked[: cut + 1]:
                pipe.write(json.dumps(record.to_json()) + "\n")
            pipe.flush()
            last = clocked[cut].to_json()
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                lines = journal_path.read_text().splitlines() if journal_path.exists() else []
                if lines and json.loads(checked(lines[-1].encode()).body) == last:
                    break
                time.sleep(0.01)
            else:
                raise AssertionError("the service did not journal the first half")
            assert first.poll() is None, "the service must still be running mid-game"
            first.send_signal(signal.SIGKILL)
            assert first.wait(timeout=10) == -signal.SIGKILL
    finally:
        if first.poll() is None:
            first.kill()
        first.wait()
        assert first.stderr is not None
        first.stderr.close()
    halfway = replay_file(journal_path)
    assert not halfway.finished

    rest = write_script(tmp_path / "rest.jsonl", None, clocked[cut + 1 :])
    second = run_service(
        "run", "--resume", *SCRIPT, "--sim-input", str(rest), "--data-dir", str(data)
    )
    assert second.returncode == 0, second.stderr
    assert "resumed" in second.stderr
    journal = read_journal(journal_path)
    assert sum(isinstance(r, ResumeInput) for r in journal.inputs) == 1
    result = replay(journal.setup, journal.inputs).result()
    assert [e["kind"] for e in result["events"]].count("resume") == 1
    assert without(result["events"], "resume") == expected["events"]
    assert (result["scores"], result["winner"]) == (expected["scores"], expected["winner"])


def test_after_a_restart_the_oled_shows_where_the_game_stands(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    half = write_script(tmp_path / "half.jsonl", setup, inputs[: len(inputs) // 2])
    done = run_service("run", *SCRIPT, "--sim-input", str(half), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    (data / "oled.png").unlink()
    empty = write_script(tmp_path / "empty.jsonl", None, [])
    done = run_service(
        "run", "--resume", *SCRIPT, "--sim-input", str(empty), "--data-dir", str(data)
    )
    assert done.returncode == 0, done.stderr
    referee = replay_file(data / "game.jsonl")
    assert not referee.finished
    assert f"round {referee.state.manche}," in done.stderr  # the log says it too
    shown = Image.open(data / "oled.png").convert("1")
    expected = frame(referee.screen, setup.language).convert("1")
    assert ImageChops.difference(shown, expected).getbbox() is None


def test_resume_of_a_finished_game_archives_it_and_starts_a_new_one(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    script = write_script(tmp_path / "game.jsonl", setup, inputs)
    assert (
        run_service("run", *SCRIPT, "--sim-input", str(script), "--data-dir", str(data)).returncode
        == 0
    )
    config = tmp_path / "companion.toml"
    config.write_text(
        '[game]\nseats = ["Ana", "Bob"]\nseed = 3\n[display]\ndriver = "dummy"\n'
        '[controls]\nenabled = false\n[readers]\nkind = "none"\n'
    )
    empty = write_script(tmp_path / "empty.jsonl", None, [])
    done = run_service(
        "run",
        "--resume",
        "--config",
        str(config),
        *SCRIPT,
        "--sim-input",
        str(empty),
        "--data-dir",
        str(data),
    )
    assert done.returncode == 0, done.stderr
    assert len(list((data / "archive").glob("game-*.jsonl"))) == 1
    journal = read_journal(data / "game.jsonl")
    assert journal.setup.seats == ("Ana", "Bob") and journal.setup.seed == 3


def test_real_clock_time_continues_after_resume_and_sigterm_stops_cleanly(
    tmp_path: Path,
) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    half = write_script(tmp_path / "half.jsonl", setup, inputs[: len(inputs) // 2])
    assert (
        run_service("run", *SCRIPT, "--sim-input", str(half), "--data-dir", str(data)).returncode
        == 0
    )
    last_t = read_journal(data / "game.jsonl").inputs[-1].t
    fifo = tmp_path / "live.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        service_command(
            "run", "--resume", "--sim", "--sim-input", str(fifo), "--data-dir", str(data)
        ),
        env=service_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with open(fifo, "w", encoding="utf-8") as pipe:
            time.sleep(0.3)
            pipe.write('{"type":"press","control":"back"}\n')  # no t: the loop stamps it
            pipe.flush()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if '"control":"back"' in (data / "game.jsonl").read_text():
                    break
                time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    journal = read_journal(data / "game.jsonl")
    resume = next(r for r in journal.inputs if isinstance(r, ResumeInput))
    back = journal.inputs[-1]
    assert isinstance(back, PressInput) and back.control == "back"
    assert resume.t == last_t
    # The clock goes on from the journal's last time (never back to 0, never frozen);
    # how far it went depends on the machine's load, so only the order is asserted.
    assert last_t < back.t < last_t + 60.0


def test_a_missing_display_is_reported_once_and_the_game_goes_on(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "game.jsonl", setup, inputs)
    done = run_service(
        "run",
        *SCRIPT,
        "--display",
        "ssd1306",
        "--sim-input",
        str(script),
        "--data-dir",
        str(tmp_path / "data"),
    )
    assert done.returncode == 0, done.stderr
    errors = [line for line in done.stderr.splitlines() if "ERROR" in line and "display" in line]
    assert len(errors) == 1, done.stderr
    assert "the game goes on" in errors[0]
    assert replay_file(tmp_path / "data" / "game.jsonl").finished


def test_run_refuses_clashing_pins_at_start(tmp_path: Path) -> None:
    pins = tmp_path / "pins.toml"
    pins.write_text(PINS.read_text().replace("doublon = [4, 17,", "doublon = [3, 17,"))
    config = tmp_path / "companion.toml"
    config.write_text('[paths]\npins = "pins.toml"\n')
    done = run_service("run", "--config", str(config), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 2
    assert "pi.seats.doublon[0] (seat 1 Doublon) = 3" in done.stderr
    assert "I2C SCL" in done.stderr


def test_wait_for_table_collects_the_readers_first_report() -> None:
    import queue
    from typing import Any

    from companion.devices.readers import LinkStatus, ReaderFault, SpotContents
    from companion.run.game_start import wait_for_table
    from companion.run.items import Tick

    inbox: queue.Queue[Any] = queue.Queue()
    link = LinkStatus(True, "/dev/companion-pico")
    inbox.put(link)
    inbox.put(Tick())
    for spot in range(3):
        inbox.put(SpotContents(spot, frozenset({"04A1B2C3"}) if spot == 1 else frozenset()))
    inbox.put(ReaderFault(3, "absent"))
    inbox.put(SpotContents(3, frozenset()))
    started = time.monotonic()
    table, others = wait_for_table(inbox, spots=3, seconds=5)
    assert time.monotonic() - started < 1  # every spot reported: no need to wait
    assert table == {0: frozenset(), 1: frozenset({"04A1B2C3"}), 2: frozenset(), 3: frozenset()}
    assert others == [link, ReaderFault(3, "absent")]
    table, others = wait_for_table(inbox, spots=3, seconds=0.1)
    assert table == {} and others == []
