"""The power-cut proof (docs/club.md, "When something goes wrong"): a real `companion run`
of every game of the registry, connected to the club, is given the input that ends its
game and killed (SIGKILL, as a power cut) 0, 1, 3, 5 and 10 ms after it journaled it, and
at a few random moments after it; then started again as systemd does (``--resume``):
every result reaches a real `Board`, fed by a real `ClubReader` through a real Mosquitto
on loopback (over TLS, as docs/club.md configures it), exactly once, under the id its table
announced with the same game and seats.

To keep it quick, the table resumes the game from its journal written up to that last
input (as a table does after any restart), instead of playing it all live. One broker and
one board a module (per xdist worker), a table and a data directory a case.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.journal import Input, Setup, checked, dump_lines, line_of, new_game_id
from tests.club.conftest import Club, Mosquitto, outbox, wait_for
from tests.club.live import start_table, stop_table
from tests.tools import required

GAMES = games.names()
DELAYS_MS = (0, 1, 3, 5, 10)
RANDOM_KILLS = 4
"""Kills at a random moment up to 60 ms after the last input is journaled."""
RANDOM_SEED = 37
_draw = random.Random(RANDOM_SEED)
RANDOM_CASES = [(_draw.choice(GAMES), round(_draw.uniform(0, 60), 1)) for _ in range(RANDOM_KILLS)]
CASES = [(name, delay) for name in GAMES for delay in DELAYS_MS] + RANDOM_CASES


def table_of(name: str, delay_ms: float) -> str:
    """Each case's table (a table killed stays "online" until its last will)."""
    return f"cut-{name}-{delay_ms}".replace(".", "_")


TABLES = tuple(table_of(name, delay) for name, delay in CASES)


@dataclass
class Night:
    broker: Mosquitto
    club: Club


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Night]:
    binary = required("/usr/sbin/mosquitto", "apt-get install mosquitto")
    passwd = required("mosquitto_passwd", "apt-get install mosquitto")
    folder = tmp_path_factory.mktemp("broker")
    broker = Mosquitto(binary, passwd, folder, tables=TABLES)
    broker.start()
    club = Club(broker, folder)
    yield Night(broker, club)
    club.close()
    broker.kill()


@dataclass(frozen=True)
class Game:
    setup: Setup
    inputs: tuple[Input, ...]
    """Up to the input that ends the game, included."""
    result: dict[str, Any]


@functools.cache
def the_game(name: str, seed: int = 1) -> Game:
    """A simulated game of ``name`` up to the input that ends it, and its result; its
    setup has an id, as `companion run` writes it."""
    played = games.get(name)
    setup = played.simulated_setup(played.default_seats, seed)
    setup = dataclasses.replace(setup, id=new_game_id())
    referee = played.referee(setup)
    inputs = []
    for record in played.simulate(setup).inputs:
        referee.feed(record)
        inputs.append(record)
        if referee.finished:
            return Game(setup, tuple(inputs), referee.result())
    raise AssertionError(f"the simulated {name} never ends")


def config(folder: Path, game: Game, table: str, broker: Mosquitto) -> Path:
    """A table without hardware, of the game's game (its next game starts at the
    resume), publishing to the club's broker as ``table`` (trusting the club's CA)."""
    path = folder / "companion.toml"
    seats = json.dumps(list(game.setup.seats))
    path.write_text(
        f'[game]\nname = "{game.setup.game}"\nseats = {seats}\n'
        '[web]\nenabled = false\n[readers]\nkind = "none"\n[controls]\nenabled = false\n'
        + broker.club_toml(table)
    )
    return path


def journaled(path: Path, record: Input) -> bool:
    """Is ``record`` among the journal's last lines (its number and checksum aside)?"""
    try:
        tail = path.read_bytes()[-4096:].splitlines()[-3:]
    except OSError:
        return False
    want = record.to_json()
    for raw in tail:
        try:
            line = json.loads(checked(raw).body)
        except ValueError:
            continue  # a line being written
        if line == want:
            return True
    return False


def cut(folder: Path, game: Game, conf: Path, night: Night, table: str, delay_ms: float) -> None:
    """The game's journal up to its last input, resumed by a real `companion run` (the
    script's clock); once its link is connected, the last input, and the kill
    ``delay_ms`` after the journal has it."""
    data = folder / "data"
    data.mkdir(mode=0o700)
    journal = data / "game.jsonl"
    journal.write_text("".join(line + "\n" for line in dump_lines(game.setup, game.inputs[:-1],
                                                                    checksum=True)))  # fmt: skip
    journal.chmod(0o600)
    proc, fifo = start_table(folder, "first", "--resume", "--sim", "--sim-clock", "script",
                       "--data-dir", str(data), "--config", str(conf))  # fmt: skip
    try:
        wait_for(lambda: table in night.club.board.tables and night.club.board.tables[table].online,
                 60)  # fmt: skip
        os.write(fifo, (line_of(game.inputs[-1], checksum=False) + "\n").encode())
        deadline = time.monotonic() + 60
        while not journaled(data / "game.jsonl", game.inputs[-1]):
            assert time.monotonic() < deadline, (folder / "first.log").read_text()
            time.sleep(0.0002)
        time.sleep(delay_ms / 1000)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(10) == -signal.SIGKILL
    finally:
        stop_table(proc, fifo)


def resume(folder: Path, conf: Path, night: Night, table: str, before: set[str]) -> list[dict]:
    """Start the table again as systemd does; the results that reached the board since
    ``before`` once the table is connected again with its outbox empty (all sent and
    acknowledged), and a moment more for a late copy to show."""
    data = folder / "data"
    proc, fifo = start_table(folder, "again", "--resume", "--sim", "--data-dir", str(data),
                             "--config", str(conf))  # fmt: skip
    board = night.club.board
    try:
        wait_for(lambda: "club: connected" in (folder / "again.log").read_text(), 60)
        wait_for(lambda: [r for r in list(board.results) if r not in before], 60)
        wait_for(lambda: outbox(data) == [], 60)
        time.sleep(0.3)
    finally:
        stop_table(proc, fifo)  # its delivery done: how it stops is not tried here
    return [r for i, r in list(board.results.items()) if i not in before and r["table"] == table]


def power_cut(night: Night, folder: Path, name: str, delay_ms: float) -> None:
    game = the_game(name)
    table = table_of(name, delay_ms)
    conf = config(folder, game, table, night.broker)
    before = set(night.club.board.results)
    cut(folder, game, conf, night, table, delay_ms)
    [record] = resume(folder, conf, night, table, before)  # exactly once
    assert record["game"] == name and record["seats"] == list(game.setup.seats)
    assert (record["scores"], record["winner"]) == (game.result["scores"], game.result["winner"])
    [journal] = (folder / "data" / "archive").glob("game-*.jsonl")  # archived, ended
    lines = journal.read_text().splitlines()
    setup = json.loads(checked(lines[0].encode()).body)
    assert record["id"] == f"{table}-{setup['id']}"
    assert json.loads(checked(lines[-1].encode()).body)["type"] == "end"
    # Counted as its table announced it (the board counts no other).
    announced = night.club.board.tables[table].announced[record["id"]]
    assert announced == (name, tuple(game.setup.seats))


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
@pytest.mark.parametrize("name", GAMES)
def test_a_power_cut_after_the_last_input_loses_no_result(night, tmp_path, name, delay_ms):
    power_cut(night, tmp_path, name, delay_ms)


@pytest.mark.parametrize(("name", "delay_ms"), RANDOM_CASES)
def test_a_power_cut_at_a_random_moment_loses_no_result(night, tmp_path, name, delay_ms):
    power_cut(night, tmp_path, name, delay_ms)
