"""systemd/: the unit passes `systemd-analyze verify` (nothing on stderr), keeps the
devices reachable, scores 1.2 or lower on `systemd-analyze security` with every remaining
exception explained, and the install script and udev rule agree with the config. The
install script itself runs in a sandbox in tests/pi/test_install.py."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from companion.config.model import DEFAULT_PICO_PORT
from tests.pi.conftest import ROOT, service_env
from tests.tools import required

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


MAX_EXPOSURE = 1.2


def systemd_analyze() -> str:
    return required("systemd-analyze", "apt-get install systemd")


def analyze(command: str, unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze COMMAND` of the unit (alone in ``folder``: no drop-in), with
    ExecStart's interpreter pointed at this Python (verify checks that the program exists;
    /opt/companion does not, here)."""
    tool = systemd_analyze()
    unit = folder / "companion.service"
    unit.write_text(unit_text.replace(INSTALLED_PYTHON, sys.executable))
    args = [tool, command, str(unit)]
    if command == "security":
        args[2:2] = ["--offline=true", "--no-pager"]
    return subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=folder)


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return analyze("verify", unit_text, folder)


def exposure(unit_text: str, folder: Path) -> tuple[float, list[str]]:
    """The overall exposure `systemd-analyze security` gives the unit, and the settings
    its every "✗" line names."""
    done = analyze("security", unit_text, folder)
    found = re.search(r"Overall exposure level for companion\.service: ([0-9.]+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    missing = [line.split()[1].split("=")[0] for line in done.stdout.splitlines() if "✗" in line]
    return float(found.group(1)), missing


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
    # GPIO, SPI, I2C and the Pico need the real devices. A device list would close them:
    # DeviceAllow=char-ttyACM is looked up in /proc/devices when the unit starts, before
    # cdc_acm is loaded if the Pico is plugged in later (ProtectClock= implies a list).
    for closing in ("PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"):
        assert closing not in s, closing
    # the device groups must stay real groups in the service
    assert "PrivateUsers" not in s
    # a writable working directory (lgpio writes there): the state directory, private
    assert s["StateDirectory"] == ["companion"] and s["StateDirectoryMode"] == ["0700"]
    assert s["WorkingDirectory"] == ["/var/lib/companion"] and s["UMask"] == ["0077"]
    assert s["ProtectSystem"] == ["strict"] and s["NoNewPrivileges"] == ["yes"]
    # no network of its own: install.sh's web.conf opens it for the web page
    assert s["PrivateNetwork"] == ["yes"] and s["IPAddressDeny"] == ["any"]
    assert s["RestrictAddressFamilies"] == ["AF_UNIX"]
    # Python itself is the main process, resuming
    argv = shlex.split(s["ExecStart"][0])
    assert argv[0] == INSTALLED_PYTHON
    assert argv[1:5] == ["-m", "companion.service", "run", "--resume"]
    assert "StandardOutput" not in s or s["StandardOutput"] == ["journal"]


def test_unit_exposure_is_low_and_every_exception_explained(tmp_path: Path) -> None:
    text = UNIT.read_text()
    level, missing = exposure(text, tmp_path)
    assert level <= MAX_EXPOSURE, f"exposure {level}: {missing}"
    comments = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    unexplained = [name for name in missing if f"{name}=" not in comments]
    assert not unexplained, f"say in companion.service why these stay: {unexplained}"


def test_exposure_would_catch_a_loosened_unit(tmp_path: Path) -> None:
    loose = UNIT.read_text().replace("PrivateNetwork=yes", "PrivateNetwork=no")
    loose = loose.replace("SystemCallFilter=~@privileged @resources", "")
    level, missing = exposure(loose, tmp_path)
    assert level > MAX_EXPOSURE and "PrivateNetwork" in missing


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
    rules = [line for line in RULE.read_text().splitlines() if line and line[0] != "#"]
    rule = next(line for line in rules if "SYMLINK+=" in line)
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'ATTRS{idProduct}=="0005"' in rule
    # install.sh binds it to one Pico's serial number; the repository's file is unbound
    assert "ATTRS{serial}" not in rule
    # ModemManager leaves every MicroPython Pico alone, bound or not
    assert any("ID_MM_DEVICE_IGNORE" in line and "ATTRS{serial}" not in line for line in rules)
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
