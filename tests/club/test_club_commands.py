"""The commands of a club night as people run them: `companion run` of a table whose
config has [club] publishes its game to the broker, and `companion club` serves the
board until SIGTERM; a bad option of `companion club` is one line and exit 2."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys

import pytest

from companion.cli import main
from companion.club.command import add_club_parser, broker_of
from tests.club.conftest import CLUB, free_port, outbox, password, wait_for
from tests.pi.conftest import (
    ROOT,
    replay,
    run_service,
    service_env,
    simulated_game,
    write_script,
)
from tests.web.table import Client


def test_a_table_run_with_a_club_section_publishes_its_game(broker, club, tmp_path):
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "game.jsonl", setup, inputs)
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[web]\nenabled = false\n[club]\nbroker = "127.0.0.1:{broker.port}"\n'
        f'table = "table-a"\npassword = "{password("table-a")}"\ntls_ca = "{broker.tls_ca}"\n'
    )
    data = tmp_path / "data"
    done = run_service("run", "--sim", "--sim-clock", "script", "--exit-when-finished",
                       "--sim-input", str(script), "--data-dir", str(data), "--config",
                       str(config))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "club: connected" in done.stderr
    [record] = wait_for(lambda: list(club.board.results.values()))
    assert record["table"] == "table-a" and record["seats"] == list(setup.seats)
    assert outbox(data) == []  # acknowledged before the service stopped
    wait_for(lambda: not club.board.tables["table-a"].online)  # it said so as it left


def test_the_club_command_serves_the_board_until_stopped(broker, tmp_path):
    secret = tmp_path / "club.pw"
    secret.write_text(password(CLUB) + "\n")
    port = free_port()
    archive = tmp_path / "night.jsonl"
    earlier = {"id": "r0", "table": "t9", "game": "swiped", "seats": ["Ana", "Bob"],
               "scores": [1, 0], "winner": 0}  # fmt: skip
    archive.write_text(json.dumps(earlier) + "\n")
    command = [sys.executable, "-m", "companion.cli", "club", "--broker",
               f"127.0.0.1:{broker.port}", "--tls-ca", str(broker.tls_ca),
               "--password-file", str(secret), "--host",
               "127.0.0.1", "--port", str(port), "--archive", str(archive),
               "--lang", "en"]  # fmt: skip
    proc = subprocess.Popen(command, env=service_env(), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == f"archive: {archive}, results already there: 1\n"
        assert f"http://127.0.0.1:{port}/" in proc.stdout.readline()
        board = Client("127.0.0.1", port).get("/api/board").json()
        assert [r["id"] for r in board["results"]] == ["r0"]  # the night goes on
        assert board["words"]["tables"] == "Tables"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--archive", "/no/such/folder/night.jsonl"], "--archive "),
        (["--password-file", "/no/such/file"], "--password-file /no/such/file: cannot read"),
        (["--tls-ca", "/no/such/ca.pem"], "--tls-ca /no/such/ca.pem: no such file"),
    ],
)
def test_a_bad_club_option_is_one_line_and_exit_2(capsys, tmp_path, options, said):
    plain = [] if "--tls-ca" in options else ["--plain"]
    code = main(["club", "--broker", "127.0.0.1:1", "--archive", str(tmp_path / "n.jsonl"),
                 *plain, *options])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"companion club: {said}")
    assert not (tmp_path / "n.jsonl").exists()


def test_a_club_link_that_cannot_connect_keeps_the_result_and_the_table_playing(tmp_path):
    """A CA file that is no certificate: the link is made all the same, says once why it
    cannot connect, and the game's result waits in its outbox (docs/club.md)."""
    setup, inputs = simulated_game()
    script = write_script(tmp_path / "game.jsonl", setup, inputs)
    (tmp_path / "ca.pem").write_text("not a certificate\n")
    config = tmp_path / "companion.toml"
    config.write_text('[web]\nenabled = false\n[club]\nbroker = "127.0.0.1:1"\n'
                      'table = "table-a"\ntls_ca = "ca.pem"\n')  # fmt: skip
    done = run_service("run", "--sim", "--sim-clock", "script", "--exit-when-finished",
                       "--sim-input", str(script), "--data-dir", str(tmp_path / "data"),
                       "--config", str(config))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("club: cannot reach 127.0.0.1:1 yet") == 1, done.stderr
    assert "Traceback" not in done.stderr
    [waiting] = outbox(tmp_path / "data")
    record = json.loads((tmp_path / "data" / "club-outbox" / waiting).read_text())
    expected = replay(setup, inputs).result()
    assert (record["seats"], record["scores"], record["winner"]) == (
        list(setup.seats), expected["scores"], expected["winner"])  # fmt: skip


def test_the_board_speaks_tls_unless_told_plain(capsys):
    """`companion club` needs the club's CA (--tls-ca) or --plain said outright; its
    default port follows (8883, 1883 with --plain)."""
    with pytest.raises(SystemExit) as exited:
        main(["club", "--broker", "club-pi.local"])
    assert exited.value.code == 2
    assert "one of the arguments --tls-ca --plain is required" in capsys.readouterr().err
    parser = argparse.ArgumentParser()
    add_club_parser(parser.add_subparsers())
    for options, port in ((["--tls-ca", "club-ca.crt"], 8883), (["--plain"], 1883)):
        args = parser.parse_args(["club", "--broker", "club-pi.local", *options])
        assert broker_of(args) == ("club-pi.local", port)
