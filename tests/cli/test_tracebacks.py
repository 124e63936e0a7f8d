"""Reliability item 8, "tracebacks instead of errors": each input below once reached a
person as a traceback (or the service hung); through the real commands, each is now one
clear error naming the file (or line) and the key, and the command exits non-zero.

The cases: a pin map whose ``pi`` or ``pi.seats`` is not a table, a data directory of an
unknown user (``~nouser/x``) or holding a NUL byte (`config check` refuses what `run`
refuses), a TOML file nested too deep or holding a number too long, ``"language": "de"``
in a scenario's setup line, a ``resume`` line whose ``table`` is a list, a JSON line
nested 100,000 deep in a ``--sim-input`` file, on stdin, or in a replayed journal, and
``/dev/zero`` given for a journal, a variants file or simulated input (a MemoryError).
"""

from __future__ import annotations

import json
import pwd
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from tests.pi.conftest import PINS, ROOT, run_service

NO_USER = "companion-no-such-user"
DEEP = "[" * 100_000
SETUP = {"t": 0, "type": "setup", "scenario": True, "game": "ptipasspass",
         "seats": ["Ana", "Bob", "Cy"]}  # fmt: skip


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
    monkeypatch.chdir(tmp_path)


def config_file(folder: Path, paths: str = 'data_dir = "data"', controls: bool = False) -> Path:
    """A table without hardware (with GPIO controls when ``controls``), ``paths`` its
    [paths] table."""
    config = folder / "companion.toml"
    config.write_text(
        f'schema = 1\n[paths]\n{paths}\n[display]\ndriver = "dummy"\n'
        f'[controls]\nenabled = {"true" if controls else "false"}\n[readers]\nkind = "none"\n',
        encoding="utf-8",
    )
    return config


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """The exit status of ``companion ARGV`` and what it printed (both streams)."""
    code = main(list(argv))
    out = capsys.readouterr()
    text = out.out + out.err
    assert "unexpected error" not in text and "Traceback" not in text, text
    return code, text


# ------------------------------------------------------------------ pin maps


@pytest.mark.parametrize(
    ("pins", "key"),
    [
        ("pi = 5\n", "pi"),
        ("[pi]\nseats = 5\n", "pi.seats"),
        ('[pi]\nconsole = "back"\n', "pi.console"),
        ("[pi]\nencoder = [16, 20]\n", "pi.encoder"),
        ("[pi]\noled = true\n", "pi.oled"),
        ("pi = [1, 2]\n", "pi"),
    ],
)
def test_a_pin_map_table_that_is_not_a_table_names_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pins: str, key: str
) -> None:
    (tmp_path / "pins.toml").write_text(pins, encoding="utf-8")
    config = config_file(tmp_path, 'data_dir = "data"\npins = "pins.toml"', controls=True)
    code, text = run_main(capsys, "config", "check", "--config", str(config))
    assert code == 1
    assert f"pins.toml: {key} = " in text and "must be a table" in text, text


# ------------------------------------------------------------------ the data directory


def test_no_such_user_exists() -> None:
    with pytest.raises(KeyError):
        pwd.getpwnam(NO_USER)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (f"~{NO_USER}/x", f"no user called {NO_USER}"),
        ("/tmp/a\\u0000b", "a NUL byte"),
    ],
)
def test_config_check_refuses_the_data_dir_run_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, why: str
) -> None:
    config = str(config_file(tmp_path, f'data_dir = "{value}"'))
    code, text = run_main(capsys, "config", "check", "--config", config)
    assert code == 1 and "configuration OK" not in text
    assert "companion.toml: paths.data_dir = " in text and why in text, text
    code, text = run_main(capsys, "run", "--sim", "--config", config, "--exit-when-finished")
    assert code == 2 and "paths.data_dir" in text and why in text, text


def test_a_pin_map_path_of_no_user_or_with_a_nul_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for value, why in ((f"~{NO_USER}/pins.toml", NO_USER), ("pi\\u0000ns.toml", "NUL")):
        config = config_file(tmp_path, f'data_dir = "data"\npins = "{value}"', controls=True)
        code, text = run_main(capsys, "config", "check", "--config", str(config))
        assert code == 1 and "paths.pins = " in text and why in text, text


@pytest.mark.parametrize(
    "command",
    [
        ["config", "check"],
        ["run", "--sim"],
        ["doctor"],
        ["report", str(ROOT / "tests/games/passpass/referee/scenarios/announce_with_drop.jsonl")],
        ["unpair", "1"],
    ],
)
def test_a_data_dir_option_or_variable_of_no_user_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    config = str(config_file(tmp_path))
    where = f"~{NO_USER}/x"
    code, text = run_main(capsys, *command, "--config", config, "--data-dir", where)
    assert code != 0 and f"no user called {NO_USER}" in text, text
    monkeypatch.setenv("COMPANION_DATA", where)
    code, text = run_main(capsys, *command, "--config", config)
    assert code != 0 and "$COMPANION_DATA" in text and f"no user called {NO_USER}" in text


# ------------------------------------------------------------------ TOML the parser chokes on


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[game]\nlayout = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deep"),
        ("[game]\nseed = " + "1" * 5000 + "\n", "not valid TOML"),
        ("[game]\nseed = 0x" + "f" * 5000 + "\n", "game.seed = a number too large"),
        ("[game]\nrules = { when = 1979-05-27 }\n", "game.rules"),
        ('[readers]\nport = "/dev/tty\\u0000"\n', "readers.port"),
    ],
)
def test_toml_the_loader_chokes_on_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("schema = 1\n" + text, encoding="utf-8")
    code, out = run_main(capsys, "config", "check", "--config", str(config))
    assert code == 1 and why in out and str(config) in out, out
    assert len(out) < 1000  # one line, not the value


def test_a_pin_map_nested_too_deep_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pins.toml").write_text(
        PINS.read_text() + "deep = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8"
    )
    config = config_file(tmp_path, 'data_dir = "data"\npins = "pins.toml"', controls=True)
    code, text = run_main(capsys, "config", "check", "--config", str(config))
    assert code == 1 and "pins.toml: not valid TOML: nested too deep" in text, text


# ------------------------------------------------------------------ simulated input, journals


def script(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "script.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def run_script(capsys: pytest.CaptureFixture[str], tmp_path: Path, path: str) -> tuple[int, str]:
    return run_main(
        capsys, "run", "--sim", "--sim-input", path, "--sim-clock", "script",
        "--data-dir", str(tmp_path / "data"), "--exit-when-finished",
    )  # fmt: skip


def test_a_scenario_in_german_is_refused_when_read_naming_the_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = script(tmp_path, json.dumps({**SETUP, "language": "de"}), '{"t": 1, "type": "tick"}')
    code, text = run_script(capsys, tmp_path, path)
    assert code == 2 and "script.jsonl:1: setup line: 'language'" in text, text
    assert '"fr" or "en"' in text
    code, text = run_main(capsys, "replay", path)
    assert code != 0 and "'language'" in text and '"fr" or "en"' in text, text


def test_a_resume_line_whose_table_is_a_list_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = script(tmp_path, '{"t": 1, "type": "resume", "table": [5, ["04A1B2C3"]]}')
    code, text = run_script(capsys, tmp_path, path)
    assert code == 2 and "script.jsonl:1: resume line: 'table' must be an object" in text


def test_a_line_nested_too_deep_in_a_sim_input_file_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = script(tmp_path, json.dumps(SETUP), DEEP)
    code, text = run_script(capsys, tmp_path, path)
    assert code == 2 and "script.jsonl:2: " in text and "nested too deep" in text, text


def test_a_journal_line_nested_too_deep_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = script(tmp_path, json.dumps(SETUP), DEEP, '{"t": 1, "type": "tick"}')
    code, text = run_main(capsys, "replay", path)
    assert code != 0 and "script.jsonl:2: " in text and "nested too deep" in text, text


def test_a_line_nested_too_deep_on_stdin_stops_the_service_with_its_line(tmp_path: Path) -> None:
    """Read live (stdin, a FIFO), the line reaches the simulated-input thread: the service
    logs the line and stops with status 1 instead of a dead thread's traceback."""
    command = ["run", "--sim", "--sim-input", "-", "--sim-clock", "script", "--exit-when-finished"]
    script = json.dumps(SETUP) + "\n" + DEEP + "\n"
    done = run_service(*command, "--data-dir", str(tmp_path / "data"), stdin=script, timeout=60)
    log = done.stdout + done.stderr
    assert done.returncode == 1, log
    assert "stdin:2: " in log and "nested too deep" in log, log
    assert "Traceback" not in log and "RecursionError" not in log, log


def test_the_simulated_input_thread_never_dies_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever stops the reading, the loop is told (a `ScriptEnd` with an error), by the
    exception's type only: its message, not foreseen, could quote a UID."""
    import queue

    from companion.run import sim_input
    from companion.run.items import ScriptEnd

    def broken(lines: object, name: str) -> Iterator[object]:
        raise KeyError("04A1B2C3")
        yield  # a generator, as script_items is

    monkeypatch.setattr(sim_input, "script_items", broken)
    inbox: queue.Queue[object] = queue.Queue()
    source = sim_input.ScriptSource(script(tmp_path, "{}"), inbox)
    source.start()
    source._thread.join(timeout=30)
    item = inbox.get_nowait()
    assert isinstance(item, ScriptEnd) and item.error is not None
    assert "script.jsonl" in item.error and "KeyError" in item.error
    assert "04A1B2C3" not in item.error


# ------------------------------------------------------------------ files that never end


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["replay", "/dev/zero"], "/dev/zero: not a regular file, so not a journal"),
        (["report", "/dev/zero"], "/dev/zero: not a regular file, so not a journal"),
        (["lab", "/dev/zero"], "/dev/zero: more than 1048576 bytes, too big for a variants"),
        (
            ["run", "--sim", "--sim-input", "/dev/zero", "--config", "{config}"],
            "/dev/zero:1: it is longer than any journal line",
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_a_device_that_never_ends_is_one_error_in_bounded_memory(
    tmp_path: Path, argv: list[str], says: str
) -> None:
    """`/dev/zero` given for a journal or a variants file once filled the memory until a
    MemoryError (a line that never ends): now at most one line's bound is read."""
    from tests.cli.test_command_line_refusals import companion

    config = config_file(tmp_path)
    config.write_text(config.read_text() + "[web]\nenabled = false\n", encoding="utf-8")
    done = companion(tmp_path, *(a.format(config=config) for a in argv))
    assert done.returncode != 0, done.stderr
    text = done.stdout + done.stderr
    assert says in text, text
    assert "Traceback" not in text and "MemoryError" not in text, text
