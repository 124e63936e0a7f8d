"""``[club]`` in `companion config check`: each bad key in one line naming the key, the
value and the fix; a good section summarised (never its password)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import load_config
from tests.cli.test_imports import imported, loaded
from tests.pi.test_config import check, write


@pytest.mark.parametrize(
    ("text", "key", "fix"),
    [
        ('broker = "club:99999"\ntable = "t1"', "club.broker", "HOST:PORT"),
        ('broker = "a b"\ntable = "t1"', "club.broker", "HOST:PORT"),
        ('broker = 1883\ntable = "t1"', "club.broker", "HOST:PORT"),
        ('broker = "club"\ntable = "Table 1"', "club.table", "lower-case letters"),
        ('broker = "club"\ntable = "a/#"', "club.table", "lower-case letters"),
        ('broker = "club"\ntable = "t1"\npassword = ""', "club.password", "mosquitto_passwd"),
        ('broker = "club"\ntable = "t1"\ntls_ca = "none.pem"', "club.tls_ca", "no such file"),
        ('broker = "club"\ntable = "t1"\nhost = "x"', "club.host", "unknown key"),
        ('broker = "club"\ntable = "t1"\ntls = "no"', "club.tls", "closed network"),
        (
            'broker = "club"\ntable = "t1"\ntls = false\ntls_ca = "ca.pem"',
            "club.tls_ca",
            "tls = false",
        ),
        # Written before TLS was the default: it would never connect, so it asks for a fix.
        ('broker = "club:1883"\ntable = "t1"', "club.broker", "tls = false"),
        ('table = "t1"', "club.broker", "missing"),
        ('broker = "club"', "club.table", "missing"),
    ],
)
def test_each_bad_club_key_is_one_line_naming_it_and_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key: str, fix: str
) -> None:
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    code, out, err = check(write(tmp_path, f"[club]\n{text}\n"), capsys)
    assert code == 1 and "configuration OK" not in out
    problems = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(problems) == 1, err
    assert key in problems[0] and fix in problems[0]


def test_a_club_section_is_summarised_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    text = '[club]\nbroker = "[::1]"\ntable = "table-3"\npassword = "s3cret"\ntls_ca = "ca.pem"\n'
    code, out, err = check(write(tmp_path, text), capsys)
    assert code == 0, err
    ca = tmp_path / "ca.pem"
    assert f"club: table table-3 publishes to ::1:8883 as user table-3, TLS with CA {ca}" in out
    assert "s3cret" not in out
    config = load_config(tmp_path / "companion.toml")
    assert config.club is not None and config.club.password == "s3cret"


def test_port_1883_with_tls_said_outright_is_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a section silent on ``tls`` is asked about port 1883: a TLS listener there is
    the club's choice."""
    code, out, err = check(
        write(tmp_path, '[club]\nbroker = "club:1883"\ntable = "t1"\ntls = true\n'), capsys
    )
    assert code == 0, err
    assert "publishes to club:1883" in out


def test_without_a_club_section_the_table_publishes_nothing(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).club is None


def test_checking_a_club_config_imports_no_mqtt_client(tmp_path: Path) -> None:
    """paho-mqtt is the table's only when it publishes (`companion run` with [club])."""
    config = write(tmp_path, '[club]\nbroker = "club"\ntable = "t1"\n')
    modules = imported(["config", "check", "--config", str(config)], str(tmp_path))
    assert "companion.config.club_table" in modules
    assert loaded(modules, ("paho", "companion.club")) == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            'broker = "club-pi.local"',
            "club-pi.local:8883 as user t1, TLS checked against the system's CAs",
        ),
        ('broker = "club-pi.local"\ntls = false', "club-pi.local:1883 as user t1, plain MQTT"),
        ('broker = "club-pi.local:1884"\ntls = false', "club-pi.local:1884 as user t1, plain"),
        (
            'broker = "club-pi.local"\ntls_ca = "ca.pem"',
            "club-pi.local:8883 as user t1, TLS with CA",
        ),
    ],
)
def test_tls_is_the_default_and_plain_mqtt_an_explicit_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    """docs/club.md: a table speaks TLS to port 8883 unless its [club] says `tls = false`
    (then port 1883); without `tls_ca` it checks the broker against the system's CAs."""
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    code, out, err = check(write(tmp_path, f'[club]\n{text}\ntable = "t1"\n'), capsys)
    assert code == 0, err
    assert f"club: table t1 publishes to {said}" in out
    club = load_config(tmp_path / "companion.toml").club
    assert club is not None and club.tls == ("tls = false" not in text)
