"""One data directory (issue 9, item 8): `enroll`, `config check`, `run` and `doctor` all
take it from ``--data-dir``, else ``$COMPANION_DATA``, else ``paths.data_dir`` of the
config; the tags `enroll` records are the tags `run` plays with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import load_config
from companion.config.data_dir import find_data_dir, locate_data_dir
from companion.config.model import Config
from companion.devices.readers import Sink, SpotContents
from companion.journal import read_journal

ROOT = Path(__file__).resolve().parent.parent.parent
UIDS = ["04A1B2C3D4E5F6", "8A2C11F0", "04FFEEDDCCBBAA", "04112233445566", "1A2B3C4D", "5E6F7A8B"]


def write_config(folder: Path, data_dir: str = "data") -> Path:
    """A table without hardware whose paths.data_dir is relative to the file."""
    config = folder / "companion.toml"
    config.write_text(
        'schema = 1\n[game]\nname = "ptipasspass"\nseats = ["Ana", "Bob"]\nseed = 3\n'
        f'[paths]\ndata_dir = "{data_dir}"\n[display]\ndriver = "dummy"\n'
        '[controls]\nenabled = false\n[readers]\nkind = "none"\n'
    )
    return config


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr("companion.config.SYSTEM_CONFIG", tmp_path / "none.toml")
    monkeypatch.chdir(tmp_path)


def test_option_beats_variable_beats_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: None
) -> None:
    config = load_config(write_config(tmp_path))
    assert find_data_dir(config) == tmp_path / "data"
    assert locate_data_dir(config).origin == f"paths.data_dir of {config.source}"
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "from-env"))
    assert locate_data_dir(config).path == tmp_path / "from-env"
    assert locate_data_dir(config).origin == "$COMPANION_DATA"
    assert find_data_dir(config, str(tmp_path / "typed")) == tmp_path / "typed"
    assert locate_data_dir(config, "x").origin == "--data-dir"


def test_the_default_is_var_lib_companion(tmp_path: Path, clean_env: None) -> None:
    (tmp_path / "companion.toml").write_text(
        'schema = 1\n[controls]\nenabled = false\n[readers]\nkind = "none"\n'
    )
    assert find_data_dir(load_config(tmp_path / "companion.toml")) == Path("/var/lib/companion")
    assert Config().data_dir == Path("/var/lib/companion")


def test_config_check_prints_the_directory_and_where_it_came_from(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: None,
) -> None:
    config = str(write_config(tmp_path))
    assert main(["config", "check", "--config", config]) == 0
    out = capsys.readouterr().out
    assert f"data directory: {tmp_path / 'data'} (from paths.data_dir of {config})" in out
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    assert main(["config", "check", "--config", config]) == 0
    assert f"data directory: {tmp_path / 'env'} (from $COMPANION_DATA)" in capsys.readouterr().out
    assert main(["config", "check", "--config", config, "--data-dir", "typed"]) == 0
    assert "data directory: typed (from --data-dir)" in capsys.readouterr().out


def test_every_command_documents_the_same_option(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["enroll"], ["run"], ["doctor"], ["config", "check"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--data-dir DIR" in text and "$COMPANION_DATA" in text, command
        assert "paths.data_dir of the config" in text and "/var/lib/companion" in text, command


class Hand:
    """A person at the pad: puts each token on it alone, leaves it there until the
    registry holds its tag, takes it off, and goes on with the next (a `Readers`)."""

    def __init__(self, uids: list[str], registry: Path) -> None:
        self.uids = uids
        self.registry = registry
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.play, daemon=True)
        self.sink: Sink | None = None

    def start(self, sink: Sink) -> None:
        self.sink = sink
        self.thread.start()

    def enrolled(self) -> set[str]:
        try:
            return set(json.loads(self.registry.read_text())["tags"])
        except (OSError, ValueError, KeyError):
            return set()

    def play(self) -> None:
        assert self.sink is not None
        self.sink.put_nowait(SpotContents(0, frozenset()))
        for uid in self.uids:
            while uid not in self.enrolled():
                self.sink.put_nowait(SpotContents(0, frozenset({uid})))
                if self.stopped.wait(0.05):
                    return
            self.sink.put_nowait(SpotContents(0, frozenset()))

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(2)


def test_enroll_then_run_as_the_readme_says_finds_the_enrolled_tags(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: None,
) -> None:
    config = write_config(tmp_path)
    data = tmp_path / "data"
    hand = Hand(UIDS, data / "tags.json")
    monkeypatch.setattr("companion.devices.enroll.make_source", lambda args: hand)
    # companion enroll --game ptipasspass --seats 2 (the README's, with the config's two seats)
    code = main(
        [
            "enroll",
            "--game",
            "ptipasspass",
            "--seats",
            "2",
            "--config",
            str(config),
            "--timeout",
            "10",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"tags go to {data / 'tags.json'}" in out
    enrolled = json.loads((data / "tags.json").read_text())["tags"]
    assert sorted(enrolled) == sorted(UIDS)

    # companion run --sim --sim-input FILE (the script clock ends it with the script)
    script = tmp_path / "script.jsonl"
    script.write_text('# a quiet table\n{"t":1.0,"type":"tick"}\n{"t":2.0,"type":"tick"}\n')
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("COMPANION_") or k == "COMPANION_LANG"
    }
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("DISPLAY", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config), "--sim",
         "--sim-input", str(script), "--sim-clock", "script"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"6 enrolled tag(s) in {data / 'tags.json'}" in done.stderr
    setup = read_journal(data / "game.jsonl").setup
    assert dict(setup.tags) == enrolled
    assert setup.seats == ("Ana", "Bob")


def test_enroll_and_run_share_companion_data(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: None,
) -> None:
    """The variable moves both at once, away from the config's directory."""
    config = write_config(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("COMPANION_DATA", str(elsewhere))
    hand = Hand(UIDS[:1], elsewhere / "tags.json")
    monkeypatch.setattr("companion.devices.enroll.make_source", lambda args: hand)
    assert main(["enroll", "animal:lapin", "--config", str(config)]) == 0
    assert main(["enroll", "--list", "--config", str(config)]) == 0
    assert f"{UIDS[0]}  animal:lapin" in capsys.readouterr().out
    assert not (tmp_path / "data").exists()
