"""Every committed file of the builder's kit is what the description gives today.

The kit is generated into a temporary folder and compared, file by file, with the
repository (`companion.kit.build.differences`); a change to pins.toml or to a game's mat
without `python -m companion.kit` fails here, naming the file. The comparison itself is
checked to notice a change of each kind of file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.kit import build
from companion.kit.__main__ import main
from companion.kit.table import Table
from tests.tools import required

pytestmark = pytest.mark.xdist_group("kit-artifacts")  # one worker generates the kit once


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.kit.table import load_table

    required("dot", "apt-get install graphviz")
    root = tmp_path_factory.mktemp("kit")
    build.generate(load_table(), root)
    return root


def test_every_committed_artifact_matches_the_description(fresh: Path) -> None:
    assert build.owned(fresh), "the kit generated nothing"
    assert build.differences(build.ROOT, fresh) == []


def test_a_changed_or_missing_artifact_is_named(fresh: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(fresh, copy)
    bom = copy / "hardware" / "bom.md"
    bom.write_text(bom.read_text().replace("| 19 |", "| 18 |", 1))
    assert build.differences(copy, fresh) == [
        "hardware/bom.md: differs from what the description gives"
    ]
    bom.unlink()
    assert build.differences(copy, fresh) == ["hardware/bom.md: missing (generate it)"]


def test_the_command_checks_and_writes(
    fresh: Path, tmp_path: Path, table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["--out", str(out), "--only", "hardware"]) == 0
    assert main(["--out", str(out), "--only", "hardware", "--check"]) == 0
    (out / "hardware" / "bom.md").write_text("hand-edited")
    assert main(["--out", str(out), "--only", "hardware", "--check"]) == 1
    assert "hardware/bom.md: differs" in capsys.readouterr().out
    bad = tmp_path / "pins.toml"
    bad.write_text("[pico]\n")
    assert main(["--pins", str(bad), "--check"]) == 2
    assert "pi.console.announce is missing" in capsys.readouterr().err


def test_the_command_warns_of_a_bus_carrying_more_readers_than_it_scans_in_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pin map with every reader on SPI0 is drawn (a small mat may want it), and the
    builder is told what a full mat would cost; the shipped map is not."""
    assert main(["--check", "--only", "hardware"]) == 0
    assert "warning" not in capsys.readouterr().err
    text = build.ROOT.joinpath("hardware", "pins.toml").read_text()
    second = text[text.index("[pico.spi1]") : text.index("[pico.readers]")]
    one_bus = text.replace(second, "").replace("spi1 = [10, 11, 12, 13, 14, 15, 16, 17, 18]", "")
    pins = tmp_path / "pins.toml"
    pins.write_text(one_bus)
    assert main(["--pins", str(pins), "--out", str(tmp_path / "out"), "--only", "hardware"]) == 0
    err = capsys.readouterr().err
    assert "python -m companion.kit: warning: SPI0 carries 19 readers, more than the" in err
    assert "wire half of them to SPI1" in err


def test_wireviz_drew_every_reader_of_each_bus(fresh: Path, table: Table) -> None:
    import yaml

    from companion.kit import harness

    wiring = fresh / "docs" / "wiring"
    for bus in table.buses:
        source = yaml.safe_load((wiring / f"bus{bus.index}.yml").read_text())
        assert source == harness.harnesses(table)[f"bus{bus.index}"]
        svg = (wiring / f"bus{bus.index}.svg").read_text()
        for r in bus.readers:
            name = "pad" if r == 0 else f"spot {r}"
            assert f"reader {r}: {name}, bus {bus.index}" in svg
    assert (wiring / "console.png").stat().st_size > 0
    assert {p.name for p in (fresh / "docs" / "figures").iterdir()} == {
        "kit-wiring.png",
        "kit-mat-tile.png",
    }
