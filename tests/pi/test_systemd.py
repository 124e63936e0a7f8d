"""systemd/: the unit passes `systemd-analyze verify` (nothing on stderr), keeps the
devices reachable, and the install script and udev rule agree with the config."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config.model import DEFAULT_PICO_PORT
from tests.pi.conftest import ROOT, service_env

UNIT = ROOT / "systemd" / "companion.service"
RULE = ROOT / "systemd" / "99-companion-pico.rules"
INSTALL = ROOT / "systemd" / "install.sh"
INSTALLED_PYTHON = "/opt/companion/venv/bin/python"


def settings(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze verify` of the unit, with ExecStart's interpreter pointed at this
    Python (verify checks that the program exists; /opt/companion does not, here)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing = "systemd-analyze is not installed (apt-get install systemd)"
        if os.environ.get("COMPANION_CI"):  # CI installs it: a skip there would hide the test
            pytest.fail(missing)
        pytest.skip(missing)
    unit = folder / "companion.service"
    unit.write_text(unit_text.replace(INSTALLED_PYTHON, sys.executable))
    return subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, cwd=folder
    )


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    done = verify(UNIT.read_text(), tmp_path)
    assert done.stderr == "", done.stderr
    assert done.returncode == 0


def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    broken = (
        UNIT.read_text()
        .replace("Type=notify", "Type=notfy")
        .replace("Restart=on-failure", "Restart=sometimes")
    )
    done = verify(broken, tmp_path)
    assert "notfy" in done.stderr and "sometimes" in done.stderr


def test_unit_settings() -> None:
    s = settings(UNIT.read_text())
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert s["Restart"] == ["on-failure"] and s["WatchdogSec"]
    assert s["User"] == ["companion"]
    assert set(s["SupplementaryGroups"][0].split()) == {"gpio", "spi", "i2c", "dialout"}
    # GPIO, SPI, I2C and the Pico need the real devices
    for closing in ("PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"):
        assert closing not in s, closing
    # a writable working directory (lgpio writes there): the state directory
    assert s["StateDirectory"] == ["companion"]
    assert s["WorkingDirectory"] == ["/var/lib/companion"]
    assert s["ProtectSystem"] == ["strict"] and s["NoNewPrivileges"] == ["yes"]
    # Python itself is the main process, resuming
    argv = shlex.split(s["ExecStart"][0])
    assert argv[0] == INSTALLED_PYTHON
    assert argv[1:5] == ["-m", "companion.service", "run", "--resume"]
    assert "StandardOutput" not in s or s["StandardOutput"] == ["journal"]


def test_execstart_command_line_is_understood() -> None:
    argv = shlex.split(settings(UNIT.read_text())["ExecStart"][0])
    done = subprocess.run(
        [sys.executable, *argv[1:], "--help"],
        capture_output=True,
        text=True,
        env=service_env(),
        timeout=30,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "--resume" in done.stdout


def test_udev_rule_names_the_pico_as_the_config_expects() -> None:
    rule = next(line for line in RULE.read_text().splitlines() if line and line[0] != "#")
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'ATTRS{idProduct}=="0005"' in rule
    symlink = re.search(r'SYMLINK\+="([^"]+)"', rule)
    assert symlink is not None and f"/dev/{symlink.group(1)}" == DEFAULT_PICO_PORT
    assert 'GROUP="dialout"' in rule
    example = (ROOT / "docs" / "companion.example.toml").read_text()
    assert f'port = "{DEFAULT_PICO_PORT}"' in example


def test_install_script_dry_run(tmp_path: Path) -> None:
    assert os.access(INSTALL, os.X_OK)
    assert subprocess.run(["bash", "-n", str(INSTALL)]).returncode == 0
    done = subprocess.run(
        ["bash", str(INSTALL)],
        env={**os.environ, "DRY_RUN": "1"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for step in (
        "apt-get install",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_spi 0",
        "i2c_arm_baudrate=400000",
        "useradd --system",
        "usermod -aG gpio companion",
        "usermod -aG dialout companion",
        "/var/lib/companion",
        "99-companion-pico.rules",
        "systemctl enable companion.service",
    ):
        assert step in out, step
