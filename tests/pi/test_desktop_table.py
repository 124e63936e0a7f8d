"""The desktop table (`companion run --sim`, docs/web.md): the page and its pairing code
are there before the first input line, and a finished game gives way to a new one."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

from companion import games
from companion.journal import SpotInput, TickInput, checked, read_journal
from tests.pi.conftest import (
    replay_file,
    run_service,
    service_command,
    service_env,
    simulated_game,
    with_clock,
    write_script,
)

SCRIPT = ("--sim", "--sim-clock", "script", "--exit-when-finished")
TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def lines_of(stream: IO[str]) -> queue.Queue[str]:
    """The stream's lines as they come (a thread reads them)."""
    out: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            out.put(line)

    threading.Thread(target=read, daemon=True).start()
    return out


def wait_for(lines: queue.Queue[str], pattern: str, seen: list[str]) -> re.Match[str]:
    """The first line (from now) that matches; every line read is kept in `seen`."""
    while True:
        try:
            line = lines.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no {pattern!r} in the log:\n{''.join(seen)}") from None
        seen.append(line)
        found = re.search(pattern, line)
        if found is not None:
            return found


def test_a_fifo_table_serves_its_page_and_logs_the_code_before_any_input(
    tmp_path: Path,
) -> None:
    """Nobody writes to the FIFO: the log still names the page and a pairing code, and
    that code pairs a phone on that page."""
    fifo = tmp_path / "table.fifo"
    os.mkfifo(fifo)
    config = tmp_path / "companion.toml"
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {free_port()}\n', encoding="utf-8")
    proc = subprocess.Popen(
        service_command(
            "run",
            "--sim",
            "--config",
            str(config),
            "--sim-input",
            str(fifo),
            "--data-dir",
            str(tmp_path / "data"),
        ),  # fmt: skip
        env=service_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []
    try:
        assert proc.stderr is not None
        lines = lines_of(proc.stderr)
        address = wait_for(lines, r"web page: (http://\S+/)", seen)[1]
        code = wait_for(lines, r"web page pairing code: (\d+)", seen)[1]
        with urllib.request.urlopen(address, timeout=TIMEOUT) as page:
            assert page.status == 200
        pair = urllib.request.Request(
            address + "api/pair",
            data=json.dumps({"code": code, "seat": 0}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(pair, timeout=TIMEOUT) as paired:
            assert json.load(paired)["seat"] == 0
        # the code changed with the pairing: the log gives the next one
        assert wait_for(lines, r"web page pairing code: (\d+)", seen)[1] != code
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=TIMEOUT) == 0, "".join(seen)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_a_finished_game_is_archived_and_a_plain_run_starts_a_new_one(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    whole = write_script(tmp_path / "whole.jsonl", setup, with_clock(inputs))
    assert (
        run_service("run", *SCRIPT, "--sim-input", str(whole), "--data-dir", str(data)).returncode
        == 0
    )
    finished = (data / "game.jsonl").read_bytes()
    again = write_script(tmp_path / "again.jsonl", setup, with_clock(inputs[:3]))
    second = run_service("run", *SCRIPT, "--sim-input", str(again), "--data-dir", str(data))
    assert second.returncode == 0, second.stderr
    assert "holds a game" not in second.stderr
    assert "the journal's game is over" in second.stderr
    archived = list((data / "archive").iterdir())
    assert [p.read_bytes() for p in archived] == [finished]
    assert not replay_file(data / "game.jsonl").finished  # the new game, just begun


def test_an_unfinished_game_still_needs_resume(tmp_path: Path) -> None:
    setup, inputs = simulated_game()
    data = tmp_path / "data"
    half = write_script(tmp_path / "half.jsonl", setup, inputs[:5])
    assert (
        run_service("run", *SCRIPT, "--sim-input", str(half), "--data-dir", str(data)).returncode
        == 0
    )
    kept = (data / "game.jsonl").read_bytes()
    second = run_service("run", *SCRIPT, "--sim-input", str(half), "--data-dir", str(data))
    assert second.returncode == 1
    assert "holds a game: pass --resume to continue it" in second.stderr
    assert (data / "game.jsonl").read_bytes() == kept


def start_fifo_table(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    """`companion run --sim` reading a FIFO on the real clock, its page off."""
    fifo = tmp_path / "table.in"
    os.mkfifo(fifo)
    config = tmp_path / "companion.toml"
    config.write_text('[game]\nseats = ["Ana", "Bob", "Cy"]\n[web]\nenabled = false\n')
    proc = subprocess.Popen(
        service_command(
            "run",
            "--sim",
            "--config",
            str(config),
            "--sim-input",
            str(fifo),
            "--data-dir",
            str(tmp_path / "data"),
            *extra,
        ),  # fmt: skip
        env=service_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc, fifo


def journaled(path: Path, count: int) -> list[dict[str, Any]]:
    """The journal's input lines once it holds `count` (or after TIMEOUT)."""
    deadline = time.monotonic() + TIMEOUT
    inputs: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        if path.exists():
            text = path.read_text().splitlines()
            lines = [json.loads(checked(line.encode()).body) for line in text]
            inputs = [line for line in lines if line["type"] not in ("setup", "tick")]
            if len(inputs) >= count:
                return inputs
        time.sleep(0.05)
    raise AssertionError(f"the journal holds {inputs}, not {count} inputs")


def test_a_fifo_is_read_again_after_each_writer_closes_it(tmp_path: Path) -> None:
    """docs/web.md's desktop table: `echo LINE > table.in`, as often as one likes; each
    writer's lines are taken, and the log says the service waits for the next writer."""
    proc, fifo = start_fifo_table(tmp_path)
    try:
        for seat in (1, 2, 1):
            with open(fifo, "w", encoding="utf-8") as writer:  # waits for the service to read
                writer.write(json.dumps({"t": 0, "type": "press", "control": "doublon",
                                         "seat": seat}) + "\n")  # fmt: skip
        presses = journaled(tmp_path / "data" / "game.jsonl", 3)
        assert [p["seat"] for p in presses] == [1, 2, 1]
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.stderr is not None
        _, log = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, log
        assert f"simulated input {fifo}: its writer closed it; waiting for the next one" in log
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_a_journal_given_on_the_real_clock_plays_at_its_recorded_pace(tmp_path: Path) -> None:
    """A Flip Done journal given as --sim-input on the real clock: its inputs come as far
    apart as they were played, so the referee reads the deal and the plays (all at once,
    the deal's cards and the next plays landed in one instant, and the table stayed on
    the deal)."""
    game = games.get("flipdone")
    setup = game.simulated_setup(3, 2)
    inputs = [r for r in game.simulate(setup).inputs if r.t <= 14.0]
    script = write_script(tmp_path / "played.jsonl", setup, inputs)
    config = tmp_path / "companion.toml"
    config.write_text("[web]\nenabled = false\n")
    proc = subprocess.Popen(
        service_command(
            "run",
            "--sim",
            "--config",
            str(config),
            "--sim-input",
            str(script),
            "--data-dir",
            str(tmp_path / "data"),
        ),  # fmt: skip
        env=service_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wanted = [r for r in inputs if not isinstance(r, TickInput)]
        lines = journaled(tmp_path / "data" / "game.jsonl", len(wanted))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=TIMEOUT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    # The inputs come at their recorded moments on the loop's clock: most of them at the
    # same offset from the recording (all at once, the offsets would spread over the whole
    # game); a busy machine makes some late (the first ones, while it starts), never by
    # much, and a late one does not hold up the next.
    shifts = [line["t"] - r.t for line, r in zip(lines, wanted, strict=True)]
    on_time = [s for s in shifts if s - min(shifts) < 0.5]
    assert len(on_time) >= len(shifts) / 2, shifts
    assert max(shifts) - min(shifts) < 5.0, shifts
    assert wanted[-1].t - wanted[0].t > 10
    # so the referee played what was played: its deal, builds, flips and discards
    expected = game.referee(setup)
    for record in inputs:
        expected.feed(record)
    got = read_journal(tmp_path / "data" / "game.jsonl")
    replayed = game.referee(got.setup)
    for record in got.inputs:
        replayed.feed(record)
    kinds = [e["kind"] for e in expected.events]
    assert {"first_element", "build", "flip"} <= set(kinds)
    assert replayed.state == expected.state


def test_run_virtual_plays_a_token_game_from_a_paired_page(tmp_path: Path) -> None:
    """`companion run --virtual` (README, "Play a game with friends without the kit"): no
    hardware and nothing enrolled; the log names the page and the code, a paired phone's
    hands drop a token, the journal (in the data directory's virtual/ folder) says the
    game is virtual and holds the reader's report the drop made."""
    import http.cookiejar

    config = tmp_path / "companion.toml"
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {free_port()}\n', encoding="utf-8")
    data = tmp_path / "data"
    proc = subprocess.Popen(
        service_command(
            "run",
            "--virtual",
            "--game",
            "ptipasspass",
            "--seats",
            "Ana,Bob,Cy",
            "--config",
            str(config),
        ),  # fmt: skip
        env=service_env(COMPANION_DATA=str(data)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []
    try:
        assert proc.stderr is not None
        lines = lines_of(proc.stderr)
        address = wait_for(lines, r"web page: (http://\S+/)", seen)[1]
        code = wait_for(lines, r"web page pairing code: (\d+)", seen)[1]
        phone = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

        def post(path: str, body: dict[str, Any], csrf: str = "") -> Any:
            headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf}
            request = urllib.request.Request(address + path, json.dumps(body).encode(), headers)
            with phone.open(request, timeout=TIMEOUT) as answer:
                return json.load(answer)

        csrf = post("api/pair", {"code": code, "seat": 0})["csrf"]
        with phone.open(address + "api/state", timeout=TIMEOUT) as answer:
            state = json.load(answer)
        assert state["virtual"] and state["mine"]["hand"] == ["colombe", "lapin", "souris"]
        move = {"move": {"move": "drop", "token": "lapin", "spot": 5, "announce": "colombe"}}
        assert post("api/virtual", move, csrf)["ok"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=TIMEOUT) == 0, "".join(seen)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    journal = read_journal(data / "virtual" / "game.jsonl")
    assert journal.setup.virtual and journal.setup.seats == ("Ana", "Bob", "Cy")
    dropped = [r for r in journal.inputs if isinstance(r, SpotInput)]
    assert [(r.spot, journal.setup.tags[next(iter(r.uids))]) for r in dropped] == [
        (5, "animal:lapin")
    ]
    assert not (data / "game.jsonl").exists()  # a real table's journal is elsewhere


def test_run_virtual_refuses_what_it_cannot_take(tmp_path: Path) -> None:
    """One line and exit 2 for an option the virtual table cannot take."""
    config = tmp_path / "companion.toml"
    config.write_text('[web]\nhost = "127.0.0.1"\n', encoding="utf-8")
    for extra, said in (
        (("--sim-input", str(tmp_path / "in")), "leave out --sim-input"),
        (("--game", "chess"), "no such game"),
        (("--game", "ptipasspass", "--seats", "Ana"), "ptipasspass is for"),
    ):
        done = subprocess.run(
            service_command("run", "--virtual", "--config", str(config), *extra),
            env=service_env(COMPANION_DATA=str(tmp_path / "data")),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
