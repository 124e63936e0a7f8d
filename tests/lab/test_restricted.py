"""Restricted play (companion/lab/restricted.py): the variants file's [restricted], paired
deals at every seat, the worth with its simultaneous interval and what it says, and
`companion lab` printing and writing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.lab import restricted as restricted_play
from companion.lab.model import GameRecord
from companion.lab.tally import Tally, tally
from companion.lab.variants import VariantError, load_lab, parse_variants

FILE = {"game": "ptipasspass", "players": 2, "seed": 3}


def _read(**table: object) -> restricted_play.Restricted:
    r = restricted_play.read_restricted({**FILE, "restricted": table}, "lab.toml")
    assert r is not None
    return r


def test_every_restriction_plays_the_same_deals_at_every_seat_beside_the_free_agent() -> None:
    r = _read(agent="mcts:10", restrictions=["never-bluff", "always-ok"], games=30)
    assert parse_variants({**FILE, "restricted": {}}) == []  # a file may hold it alone
    assert r.baseline.bots == ("mcts:10", "mcts:10")
    assert [(n, seat, v.bots) for n, seat, v in r.seatings] == [
        (0, 0, ("mcts:10/never-bluff", "mcts:10")),
        (0, 1, ("mcts:10", "mcts:10/never-bluff")),
        (1, 0, ("mcts:10/always-ok", "mcts:10")),
        (1, 1, ("mcts:10", "mcts:10/always-ok")),
    ]
    # Paired seeds: game i of every variant is the same deal (seed, i), first seat i % n.
    assert {(v.seed, v.games, tuple(v.rules.items())) for v in r.variants} == {(3, 30, ())}
    assert r.meanings == ("announces the token it placed, always", "never challenges: always OK")


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ({"restrictions": ["never-bluff"], "depth": 2}, "unknown key depth"),
        ({"agent": "heuristic", "restrictions": ["never-bluff"]}, "agent: a thinking bot"),
        ({"agent": "mcts:5/never-bluff", "restrictions": ["never-bluff"]}, "free of restr"),
        ({"restrictions": []}, "restrictions: one or more"),
        ({"restrictions": ["never-sleep"]}, "unknown restriction 'never-sleep'"),
    ],
)
def test_a_bad_restricted_table_is_one_error_naming_the_key(
    table: dict[str, object], problem: str
) -> None:
    with pytest.raises(VariantError, match=problem):
        _read(**table)


def _tallies(variants: list[list[GameRecord]]) -> list[Tally]:
    """Each variant's games tallied deal by deal, as `companion lab` plays them."""
    lab = load_lab("ptipasspass")
    return [tally(lab, 2, games, ordered=True) for games in variants]


def _game(winners: tuple[int, ...]) -> GameRecord:
    return GameRecord(players=2, first=0, winners=winners, finished=True, actions=1, manches=(1,))


def _figures(outcomes: list[tuple[int, int]], deals: int) -> restricted_play.RestrictedFigures:
    """Two-player restricted play whose restricted agent, on deal i, wins at seat 1 and at
    seat 2 as `outcomes[i % len(outcomes)]` says (1 won, 0 lost)."""
    r = _read(restrictions=["never-bluff"], games=deals)
    at = [outcomes[i % len(outcomes)] for i in range(deals)]
    baseline = [_game((i % 2,)) for i in range(deals)]
    seat1 = [_game((0,) if a else (1,)) for a, _ in at]
    seat2 = [_game((1,) if b else (0,)) for _, b in at]
    return restricted_play.figures(r, _tallies([baseline, seat1, seat2]))


def test_the_worth_is_what_the_restricted_agent_loses_per_deal_with_students_interval() -> None:
    """A deal's worth: 1/2 (the free agent's share at a seat) less the restricted agent's
    mean share over its two seatings. Deals alternating (won one seat, lost the other) and
    (lost both): shares 1/2 and 0, worths 0 and 1/2, mean 1/4."""
    f = _figures([(1, 0), (0, 0)], 40)
    (w,) = f.worths
    assert w.share.value == pytest.approx(0.25) and w.worth.value == pytest.approx(0.25)
    # Student's t: sd of 20 zeros and 20 halves is 0.2532; se 0.04003; t(0.975, 39) 2.0227
    assert w.worth.high - w.worth.value == pytest.approx(2.0227 * 0.04003, rel=1e-3)
    assert f.confidence == 0.95  # one restriction: no correction
    assert "it pays, for this bot" in restricted_play.sentence(w, f)


def test_many_restrictions_widen_every_interval_so_that_they_hold_together() -> None:
    one = _read(restrictions=["never-bluff"], games=10)
    four = _read(restrictions=["never-bluff", "never-menteur", "never-doublon", "always-ok"])
    records = [[_game((i % 2,)) for i in range(10)] for _ in four.variants]
    wider = restricted_play.figures(four, _tallies(records))
    assert wider.confidence == pytest.approx(1 - 0.05 / 4)
    narrow = restricted_play.figures(one, _tallies(records[:3]))
    assert wider.worths[0].worth.high > narrow.worths[0].worth.high


def test_a_negative_worth_is_said_to_be_the_bots_not_the_games() -> None:
    f = _figures([(1, 1), (1, 0)], 40)  # the restricted agent wins more than half
    (w,) = f.worths
    assert w.worth.high < 0
    said = restricted_play.sentence(w, f)
    assert "a negative worth" in said and "the bot uses it badly" in said
    assert "not a sign that the game would be better without the element" in said


def test_deals_all_alike_still_have_an_interval_and_few_deals_tell_nothing() -> None:
    f = _figures([(0, 0)], 40)  # lost every game: no spread, Wilson's interval of 80 games
    (w,) = f.worths
    assert w.share.value == 0 and 0.03 < w.share.high < 0.06
    assert w.worth.low == pytest.approx(0.5 - w.share.high)
    nearly = _figures([(0, 0)] * 39 + [(1, 0)], 40)  # a share near 0: no worth above 1/2
    assert nearly.worths[0].worth.high == 0.5 and nearly.worths[0].share.low == 0
    few = _figures([(0, 0)], 10)
    assert "too few deals to tell" in restricted_play.sentence(few.worths[0], few)


def test_companion_lab_prints_and_writes_restricted_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "worth.toml"
    file.write_text(
        'game = "ptipasspass"\nplayers = 2\nbots = ["heuristic"]\ngames = 10\n'
        '[[variant]]\nname = "as ruled"\n'
        '[restricted]\nagent = "mcts:3"\nrestrictions = ["never-bluff"]\ngames = 4\n'
    )
    out = tmp_path / "out"
    assert main(["lab", str(file), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "Restricted play: PtiPassPass, 2 players, mcts:3 against itself, 4 deals" in printed
    data = json.loads((out / "restricted.json").read_text())
    assert [w["restriction"] for w in data["worths"]] == ["never-bluff"]
    assert data["worths"][0]["share"]["n"] == 4
    report = (out / "report.html").read_text()
    assert "<h2>Restricted play: PtiPassPass" in report
    assert report.index("Restricted play") < report.index("Wins by seat")
