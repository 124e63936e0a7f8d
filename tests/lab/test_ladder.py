"""The skill ladder (companion/lab/ladder.py): the variants file's [ladder], the Luce
ratings, the skill figure, and `companion lab` printing and writing it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from companion.cli import main
from companion.lab.ladder import figures, fit, read_ladder, transitive
from companion.lab.runner import run
from companion.lab.variants import VariantError, parse_variants


def test_ratings_recover_the_strengths_that_made_the_results() -> None:
    """Two seats: A beats B 3 times in 4 (ratio 3), B beats C 2 in 3 (ratio 2)."""
    logs = fit(3, 2, [(0, 1, 750.0, 1000), (1, 0, 250.0, 1000), (1, 2, 667.0, 1000)])
    assert math.exp(logs[0] - logs[1]) == pytest.approx(3, rel=0.05)
    assert math.exp(logs[1] - logs[2]) == pytest.approx(2, rel=0.05)


def test_a_lone_seat_against_a_field_is_rated_by_its_share() -> None:
    """Four seats, equal bots: the lone one wins 1 in 4, and the ratings are equal."""
    logs = fit(2, 4, [(0, 1, 250.0, 1000), (1, 0, 250.0, 1000)])
    assert logs[1] == pytest.approx(0, abs=0.01)


def test_the_ladder_rates_random_below_the_heuristic_within_its_intervals() -> None:
    data = {"game": "ptipasspass", "players": 3, "seed": 2,
            "ladder": {"rungs": ["random", "heuristic"], "games": 60}}  # fmt: skip
    ladder = read_ladder(data, "ladder.toml")
    assert ladder is not None and len(ladder.pairings) == 2
    assert parse_variants(data) == []  # a file may hold a ladder only
    f = figures(ladder, run([v for _, _, v in ladder.pairings], 1))
    random_, heuristic = f.ratings
    assert heuristic.low > random_.high
    assert f.skill.low > f.luck == pytest.approx(1 / 3)
    assert transitive(f)


@pytest.mark.parametrize(
    ("ladder", "problem"),
    [
        ({"rungs": ["heuristic"]}, "two or more different bot kinds"),
        ({"rungs": ["heuristic", "nobody"]}, "unknown bot 'nobody'"),
        ({"rungs": ["heuristic", "random"], "depth": 3}, "unknown key depth"),
    ],
)
def test_a_bad_ladder_is_one_error_naming_the_key(ladder: dict[str, object], problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        read_ladder({"game": "ptipasspass", "ladder": ladder}, "ladder.toml")


def test_companion_lab_prints_and_writes_the_ladder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "skill.toml"
    file.write_text(
        'game = "vnp"\nplayers = 2\n[ladder]\nrungs = ["random", "largest"]\ngames = 20\n'
    )
    out = tmp_path / "out"
    assert main(["lab", str(file), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "Skill ladder: Vous ne passerez pas !, 2 players" in printed
    assert "largest alone against random" in printed
    figures_json = json.loads((out / "ladder.json").read_text())
    assert [r["bot"] for r in figures_json["ratings"]] == ["random", "largest"]
    assert "<h2>Skill ladder" in (out / "ladder.html").read_text()


def test_a_file_with_variants_and_a_ladder_has_the_ladder_in_its_report(tmp_path: Path) -> None:
    """The report answers the designer's questions in one place: skill (the ladder) beside
    the variants' figures."""
    file = tmp_path / "both.toml"
    file.write_text(
        'game = "vnp"\nplayers = 2\nbots = ["largest", "random"]\ngames = 10\n'
        '[[variant]]\nname = "as ruled"\n'
        '[ladder]\nrungs = ["random", "largest"]\ngames = 10\n'
    )
    out = tmp_path / "out"
    assert main(["lab", str(file), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    report = (out / "report.html").read_text()
    assert "<h2>Skill ladder: Vous ne passerez pas !, 2 players</h2>" in report
    assert report.index("Skill ladder") < report.index("Wins by seat")
    assert (out / "ladder.json").is_file()
