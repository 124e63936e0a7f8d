"""The skill ladder (companion/lab/ladder.py): the variants file's [ladder], the Luce
ratings and their intervals (by resampling games, covering known strengths), one-sided
bounds where a rung wins every game, the fit, transitivity, each step up, the share of
games decided by skill, and `companion lab` printing and writing it."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.lab import ladder as skill
from companion.lab.ladder import ELO, decided_by_skill, rate, read_ladder
from companion.lab.runner import tally
from companion.lab.stats import wilson
from companion.lab.variants import VariantError, parse_variants

RUNGS = ["random", "heuristic", "mcts:3", "mcts:10"]


def _ladder(players: int, games: int, rungs: int = 4) -> skill.Ladder:
    data = {"game": "ptipasspass", "players": players,
            "ladder": {"rungs": RUNGS[:rungs], "games": games}}  # fmt: skip
    ladder = read_ladder(data, "ladder.toml")
    assert ladder is not None
    return ladder


def _played(ladder: skill.Ladder, elo: list[float], rng: random.Random) -> list[skill.Played]:
    """Each pairing's games drawn from known strengths (the Luce model's chances)."""

    def chance(a: int, b: int) -> float:
        r = 10 ** ((elo[a] - elo[b]) / 400)
        return r / (r + ladder.players - 1)

    games = ladder.pairings[0][2].games
    return [(a, b, [float(rng.random() < chance(a, b)) for _ in range(games)])
            for a, b, _ in ladder.pairings]  # fmt: skip


def test_ratings_recover_the_strengths_that_made_the_results() -> None:
    """Two seats, 4,000 games a pairing of rungs 0, 200 and 300 Elo apart."""
    ladder = _ladder(2, 4000, 3)
    f = rate(ladder, _played(ladder, [0, 200, 300], random.Random(1)))
    assert [r.elo for r in f.ratings] == pytest.approx([0, 200, 300], abs=15)
    assert all(r.low < r.elo < r.high for r in f.ratings[1:])


def test_a_lone_seat_against_a_field_is_rated_by_its_share() -> None:
    """Four seats, equal bots: the lone one wins 1 in 4, and the ratings are equal."""
    ladder = _ladder(4, 4000, 2)
    f = rate(ladder, [(a, b, [1.0] * 1000 + [0.0] * 3000) for a, b, _ in ladder.pairings])
    assert f.ratings[1].elo == pytest.approx(0, abs=1e-6)
    assert f.decided.value == pytest.approx(0) and f.skill.value == 0.25


@pytest.mark.parametrize(("players", "elo"), [(2, [0, 150, 300, 400]), (3, [0, 100, 250, 350])])
def test_the_intervals_cover_known_strengths_at_the_default_games_a_pairing(
    players: int, elo: list[float]
) -> None:
    """100 ladders of known strengths, `GAMES` games a pairing: the nominal 95 % intervals
    of the three rated rungs hold the truth in at least 90 % of the 300 (here 290 and 287
    of 300: 97 % and 96 %)."""
    ladder = _ladder(players, skill.GAMES)
    rng = random.Random(players)
    covered = 0
    for number in range(100):
        found = skill.ratings(ladder, _played(ladder, elo, rng), seed=number)
        covered += sum(
            r.low <= truth <= r.high for r, truth in zip(found[1:], elo[1:], strict=True)
        )
    assert covered / 300 >= 0.90, covered


def test_a_rung_that_wins_every_game_gets_a_one_sided_bound_never_a_collapsed_interval() -> None:
    """The heuristic beats random in all 40 games of each seating: no finite rating fits,
    so the ladder is cut there, the heuristic's block rated on its own, and the gap bound
    where sweeping 80 games had a chance of 5 %: p^80 = 0.05, p = r / (r + 1)."""
    ladder = _ladder(2, 40, 3)
    played = _played(ladder, [0, 3000, 3100], random.Random(3))
    f = rate(ladder, played)
    assert [r.block for r in f.ratings] == [0, 1, 1]
    p = 0.05 ** (1 / 80)
    (gap,) = f.gaps
    assert gap.low == pytest.approx(ELO * math.log(p / (1 - p)), abs=0.5)  # +567
    assert (gap.upper, gap.lower, gap.games) == ("heuristic", "random", 160)
    step = f.steps[0]
    assert step.swept and step.low == gap.low and math.isinf(step.high)
    assert "won all 80 games, at least +567 Elo (one-sided 95 %)" in skill.terminal(f)
    assert all(r.low < r.high for r in f.ratings if r.bot == "mcts:3")


def test_the_fit_and_transitivity_say_when_no_strength_per_bot_explains_the_pairings() -> None:
    """Rock, paper, scissors: each rung beats the next 9 times in 10, the last beats the
    first: the ratings come out equal, the fit is rejected and the circle is named."""
    ladder = _ladder(2, 100, 3)
    wins = {(1, 0), (2, 1), (0, 2)}
    played = [(a, b, [1.0] * 90 + [0.0] * 10 if (a, b) in wins else [1.0] * 10 + [0.0] * 90)
              for a, b, _ in ladder.pairings]  # fmt: skip
    f = rate(ladder, played)
    assert f.fit.p < 0.01 and f.fit.freedom == 6 - 2
    assert f.circles == (("random", "mcts:3", "heuristic"),)
    assert "does not explain the pairings" in skill.fit_sentence(f)
    assert "Not transitive: random beats mcts:3" in skill.circles_sentence(f)
    fair = rate(ladder, _played(ladder, [0, 100, 200], random.Random(4)))
    assert fair.fit.p > 0.05 and fair.circles == ()


def test_the_headline_is_each_step_up_and_skill_is_the_top_against_the_games_own_bot() -> None:
    ladder = _ladder(2, 100)
    assert ladder.reference == 1  # the heuristic: PtiPassPass's own bot
    f = rate(ladder, _played(ladder, [0, 500, 700, 710], random.Random(5)))
    said = skill.headline(f)
    assert said.startswith("Each step up (the intervals hold together): heuristic over random")
    assert "mcts:10 over mcts:3" in said and "these games cannot tell them apart" in said
    top = next(e for a, b, e in f.pairs if (a, b) == ("mcts:10", "heuristic"))
    assert f.skill == top and f.decided == decided_by_skill(top, 2)
    assert "Skill decides" in skill.skill_sentence(f)


def test_the_share_of_games_decided_by_skill_takes_out_the_luck_of_the_seats() -> None:
    """q = (P - 1/n) / (1 - 1/n): 84.5 % of two-player games is 0.69; 54.2 % of three-player
    games 0.31 (the figures of the issue that asked for it)."""
    assert decided_by_skill(wilson(169, 200), 2).value == pytest.approx(0.69)
    q = decided_by_skill(wilson(130.08, 240), 3)
    assert q.value == pytest.approx(0.313, abs=1e-3) and q.low < q.value < q.high


@pytest.mark.parametrize(
    ("ladder", "problem"),
    [
        ({"rungs": ["heuristic"]}, "two or more different bot kinds"),
        ({"rungs": ["heuristic", "nobody"]}, 'unknown bot `"nobody"`'),
        ({"rungs": ["heuristic", "random"], "depth": 3}, "unknown key depth"),
        ({"rungs": ["random", "heuristic"], "reference": "heuristic"}, "reference: a rung below"),
    ],
)
def test_a_bad_ladder_is_one_error_naming_the_key(ladder: dict[str, object], problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        read_ladder({"game": "ptipasspass", "ladder": ladder}, "ladder.toml")


def test_the_ladder_rates_random_below_the_heuristic_from_played_games() -> None:
    data = {"game": "ptipasspass", "players": 3, "seed": 2,
            "ladder": {"rungs": ["random", "heuristic"], "games": 60}}  # fmt: skip
    ladder = read_ladder(data, "ladder.toml")
    assert ladder is not None and len(ladder.pairings) == 2 and ladder.reference == 0
    assert parse_variants(data) == []  # a file may hold a ladder only
    f = skill.figures(ladder, tally([v for _, _, v in ladder.pairings], 1))
    assert f.steps[0].low > 200 and f.skill.low > f.luck == pytest.approx(1 / 3)


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
    assert "Skill ladder: Vous ne passerez pas !, 2 players, 20 games a pairing" in printed
    assert "Skill decides" in printed and "Each step up: largest over random" in printed
    figures_json = json.loads((out / "ladder.json").read_text())
    assert [r["bot"] for r in figures_json["ratings"]] == ["random", "largest"]
    assert figures_json["skill"]["reference"] == "random"
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
    assert "<h2>Skill ladder: Vous ne passerez pas !, 2 players" in report
    assert report.index("Skill ladder") < report.index("Wins by seat")
    assert (out / "ladder.json").is_file()
