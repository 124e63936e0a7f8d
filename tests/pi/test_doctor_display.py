"""`companion doctor` reports the configured OLED: drawn, or missing with a message."""

from __future__ import annotations

from companion.cli import main


def write_config(tmp_path, display: str) -> str:
    path = tmp_path / "companion.toml"
    path.write_text(
        f'schema = 1\n[paths]\ndata_dir = "{tmp_path}"\n[display]\n{display}\n'
        '[controls]\nenabled = false\n[readers]\nkind = "none"\n'
    )
    return str(path)


def test_a_working_display_passes(tmp_path, capsys):
    config = write_config(tmp_path, 'driver = "dummy"')
    assert main(["doctor", "--display-only", "--config", config]) == 0
    assert "display" in capsys.readouterr().out


def test_a_missing_oled_is_reported_and_fails(tmp_path, capsys):
    config = write_config(tmp_path, 'driver = "ssd1306"\ni2c_bus = 1\naddress = 0x3C')
    assert main(["doctor", "--display-only", "--config", config]) == 1
    out = capsys.readouterr().out
    assert "I2C bus 1" in out or "i2c-1" in out  # names the bus it could not open


def test_a_bad_config_exits_2(tmp_path, capsys):
    config = write_config(tmp_path, 'driver = "crt"')
    assert main(["doctor", "--display-only", "--config", config]) == 2
    assert "display.driver" in capsys.readouterr().out
