"""The lab's runtime: variants files, statistics, process pool, report files, commands.

The games' own figures are tested with each game's lab module (tests/lab/test_<game>.py);
here, what every game shares, over the real PtiPassPass lab.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import replace

import pytest

from companion.cli import main
from companion.lab.model import Variant
from companion.lab.runner import run
from companion.lab.stats import mean_ci, wilson
from companion.lab.summary import GAME, summarize
from companion.lab.variants import VariantError, load_lab, parse_variants, read_variants

TWO_VARIANTS = """
game = "ptipasspass"
players = 4
bots = ["heuristic"]
games = 120
seed = 3

[[variant]]
name = "as ruled"

[[variant]]
name = "short manches"
rules = { turn_limit = 6 }
"""


# ------------------------------------------------------------------ statistics


def test_wilson_interval_known_values():
    half = wilson(50, 100)
    assert half.value == 0.5
    assert half.low == pytest.approx(0.4038, abs=1e-4)
    assert half.high == pytest.approx(0.5962, abs=1e-4)
    never = wilson(0, 10_000)  # nothing in 10,000: below 0.04 %, not "exactly 0"
    assert never.value == 0 and never.low == 0
    assert never.high == pytest.approx(3.84e-4, rel=0.01)
    assert math.isnan(wilson(0, 0).value)


def test_mean_interval_known_values():
    e = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert e.value == 2.5
    assert e.high - e.value == pytest.approx(1.96 * math.sqrt(5 / 3 / 4), rel=1e-3)
    assert mean_ci([7.0]).low == mean_ci([7.0]).high == 7.0
    assert mean_ci([]).n == 0


# ------------------------------------------------------------------ variants file


def test_variants_take_the_top_level_as_defaults():
    import tomllib

    first, second = parse_variants(tomllib.loads(TWO_VARIANTS), "lab.toml")
    assert (first.name, first.players, first.bots, first.games, first.seed) == (
        "as ruled", 4, ("heuristic",) * 4, 120, 3)  # fmt: skip
    assert second.rules == {"turn_limit": 6} and first.rules == {}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('game = "chess"', ["variant 1", "game", "ptipasspass"]),
        ('game = "ptipasspass"\nplayers = 9', ["players", "2 to 6 players"]),
        ('game = "ptipasspass"\nplayers = "4"', ["players"]),
        ('game = "ptipasspass"\nbots = ["heuristic", "random"]', ["bots", "one kind for every"]),
        ('game = "ptipasspass"\nbots = ["genius"]', ["genius"]),
        ('game = "ptipasspass"\ngames = 0', ["games", "1 to"]),
        ('game = "ptipasspass"\nseed = 1.5', ["seed"]),
        ('game = "ptipasspass"\nplayer = 4', ["unknown key player", "players"]),
        ('game = "ptipasspass"\nrules = { turns = 3 }', ["turns"]),
        ('game = "ptipasspass"\n[[variant]]\nname="a"\n[[variant]]\nname="a"', ["two", "'a'"]),
        ('game = "ptipasspass"\nvariant = 3', ["[[variant]]"]),
    ],
)
def test_a_bad_variants_file_is_one_error_naming_the_key(tmp_path, text, words):
    path = tmp_path / "lab.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        read_variants(path)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message, message


def test_the_documented_example_file_runs():
    from pathlib import Path

    from companion.lab.ladder import read_ladder
    from companion.lab.restricted import read_restricted
    from companion.lab.variants import read_toml

    example = Path(__file__).resolve().parents[2] / "docs" / "lab.example.toml"
    names = [v.name for v in read_variants(example)]
    variants = read_variants(example)
    assert names == ["as ruled", "the winner starts the next manche"]
    # Like with like: the two variants differ in one thing only.
    same = [
        f
        for f in ("game", "players", "bots", "games", "seed")
        if len({getattr(v, f) for v in variants}) == 1
    ]
    assert same == ["game", "players", "bots", "games", "seed"]
    assert [dict(v.rules) for v in variants] == [{}, {"next_starter": "winner"}]
    # The first report answers "how much does skill decide?" and "what is bluffing worth?".
    data = read_toml(example)
    ladder = read_ladder(data, str(example))
    assert ladder is not None and ladder.rungs[-1].startswith("mcts:")
    assert ladder.rungs[ladder.reference] == "heuristic" and ladder.players == 2
    restricted = read_restricted(data, str(example))
    assert restricted is not None and restricted.restrictions == ("never-bluff",)
    assert restricted.baseline.games >= 200


def test_a_file_that_is_not_toml_is_named(tmp_path):
    path = tmp_path / "lab.toml"
    path.write_bytes(b"game = \xff\n")
    with pytest.raises(VariantError, match="not UTF-8 text .byte 0xFF at offset 7"):
        read_variants(path)
    with pytest.raises(VariantError, match="cannot read it"):
        read_variants(tmp_path / "missing.toml")


# ------------------------------------------------------------------ process pool


def _variants(games: int = 60) -> list[Variant]:
    return [
        Variant("pti", "ptipasspass", 4, ("heuristic", "random", "heuristic", "random"), games, 5),
        Variant("phi", "phipasspass", 3, ("heuristic",) * 3, games // 2, 9),
    ]


def test_a_parallel_run_equals_a_serial_one_record_for_record():
    variants = _variants()
    seen: list[tuple[int, int]] = []
    serial = run(variants, workers=1, progress=lambda done, total: seen.append((done, total)))
    parallel = run(variants, workers=2)
    assert [len(r) for r in serial] == [60, 30]
    assert parallel == serial
    assert seen[-1] == (90, 90) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    # Game i is seeded from (seed, i) alone: a run of its first games plays the same ones.
    assert run([replace(variants[0], games=10)], workers=2)[0] == serial[0][:10]


# ------------------------------------------------------------------ figures


def test_summary_counts_a_shared_win_as_a_part_and_the_first_players_wins():
    lab = load_lab("ptipasspass")
    variant = _variants(200)[0]
    records = run([variant], workers=1)[0]
    figures = summarize(lab, variant, records)
    wins = [figures.find(GAME, "wins", seat).estimate.value for seat in range(4)]
    won = sum(1 for r in records if r.winners)
    assert sum(wins) == pytest.approx(won / len(records))
    first = figures.find(GAME, "won by the first player").estimate.value
    assert first == pytest.approx(sum(r.first in r.winners for r in records) / len(records))
    decisions = figures.find(GAME, "decisions per game").estimate.value
    assert 0 < decisions < sum(r.actions for r in records) / len(records)  # OKs not counted


def test_lab_command_writes_the_report_with_its_plots_and_figures(tmp_path, capsys):
    variants = tmp_path / "two.toml"
    variants.write_text(TWO_VARIANTS, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["lab", str(variants), "--out", str(out), "--workers", "2"]) == 0
    printed = capsys.readouterr()
    assert "== PtiPassPass" in printed.out and "ptipasspass" not in printed.out
    # The variants side by side: one line per figure, a column per variant.
    assert "  A  as ruled: PtiPassPass, 4 players" in printed.out
    assert "  B  short manches: PtiPassPass, 4 players" in printed.out
    (first,) = [line for line in printed.out.splitlines() if "won by the first player" in line]
    assert len(re.findall(r"\d+\.\d % \[", first)) == 2
    assert "120/240" not in printed.out and "240/240" in printed.err  # progress on stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    plots = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(plots) >= 4
    assert all("<path" in svg for svg in plots)  # rendered, not empty frames
    assert "<script" not in page  # a static document
    for name in ("as ruled", "short manches", "won by the first player", "turns per round"):
        assert name in page
    assert "<h2>PtiPassPass</h2>" in page and "ptipasspass" not in page
    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    assert [v["variant"] for v in figures["variants"]] == ["as ruled", "short manches"]
    assert all(v["games"] == 120 for v in figures["variants"])
    rows = list(csv.DictReader(io.StringIO((out / "figures.csv").read_text(encoding="utf-8"))))
    wins = [r for r in rows if r["variant"] == "as ruled" and r["figure"] == "wins"]
    assert [r["seat"] for r in wins] == ["1", "2", "3", "4"]
    assert all(float(r["low"]) <= float(r["value"]) <= float(r["high"]) for r in wins)


def test_selfplay_is_a_one_variant_lab_run(capsys):
    args = ["selfplay", "ptipasspass", "--players", "3", "--games", "40", "--quiet"]
    assert main([*args, "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main([*args, "--seed", "7", "--workers", "1"]) == 0
    assert capsys.readouterr().out == first  # workers change nothing
    assert main([*args, "--seed", "8"]) == 0
    assert capsys.readouterr().out != first
    assert "wins, seat 3" in first and "won by the first player" in first


def test_selfplay_refuses_what_the_game_does_not_allow(capsys):
    assert main(["selfplay", "ptipasspass", "--players", "9", "--quiet"]) == 2
    assert "2 to 6 players" in capsys.readouterr().err
    assert main(["selfplay", "ptipasspass", "--bots", "genius", "--quiet"]) == 2
    assert "genius" in capsys.readouterr().err
    assert main(["selfplay", "ptipasspass", "--rule", "nothing=1", "--quiet"]) == 2
    assert "nothing" in capsys.readouterr().err
