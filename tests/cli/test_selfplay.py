"""`companion selfplay`: a one-variant lab run from the command line, reproducible from
the seed (the figures themselves: tests/lab/)."""

from __future__ import annotations

import re

from companion.cli import main


def run_cli(capsys, *args):
    code = main(["selfplay", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _rates(out: str, label: str) -> dict[str, float]:
    """ "wins, seat 2 (random)   31.0 % [...]" -> {"2 (random)": 31.0}."""
    found = re.findall(rf"{label}, seat (\d(?: \(\w+\))?)\s+([\d.]+) %", out)
    return {seat: float(rate) for seat, rate in found}


def test_selfplay_prints_win_rates_lengths_and_challenges(capsys):
    code, out, err = run_cli(
        capsys, "ptipasspass", "--players", "4", "--games", "40", "--seed", "1"
    )
    assert code == 0
    rates = _rates(out, "wins")
    assert len(rates) == 4 and abs(sum(rates.values()) - 100.0) < 0.5  # every game has a winner
    assert re.search(r"turns per round\s+\d+\.\d+ \[", out)
    assert "Challenges" in out
    assert "40/40 games" in err  # progress goes to stderr


def test_mixed_bots_heuristic_beats_random(capsys):
    _, out, _ = run_cli(
        capsys, "ptipasspass", "--players", "2", "--games", "60", "--bots", "heuristic,random",
        "--quiet",
    )  # fmt: skip
    wins = _rates(out, "wins")
    assert wins["1 (heuristic)"] > wins["2 (random)"]


def test_bad_arguments_exit_2_with_a_message(capsys):
    code, _, err = run_cli(capsys, "phipasspass", "--players", "2", "--games", "1")
    assert code == 2 and "3 to 6 players" in err
    code, _, err = run_cli(capsys, "ptipasspass", "--bots", "genius")
    assert code == 2 and "genius" in err


def test_a_games_own_shorthand_option_sets_its_engine_setting(capsys):
    """`selfplay GAME --X` comes from the game's descriptor (`selfplay_options`), for any
    game; another game's option is refused before anything is played."""
    import dataclasses

    from companion import games
    from companion.games import RuleOption
    from tests.games import registered

    pebbles = RuleOption("--pebbles", "pebbles", int, "pebbles each seat drops")
    with registered("tests.games.tally") as found:
        games.register(dataclasses.replace(found["tally"], selfplay_options=(pebbles,)))
        args = ("tally", "--players", "4", "--games", "6", "--workers", "1", "--quiet")
        code, out, _ = run_cli(capsys, *args, "--pebbles", "5")
        assert code == 0
        assert "pebbles = 5" in out
        assert re.search(r"pebbles dropped per game +17\.00", out)  # 5 x 4 - 3
        code, out, _ = run_cli(capsys, *args)
        assert re.search(r"pebbles dropped per game +5\.00", out)  # the book's 2 x 4 - 3
    try:
        code = main(["selfplay", "ptipasspass", "--pebbles", "5", "--quiet"])
    except SystemExit as exc:  # argparse's usage and error
        code = int(exc.code or 0)
    assert code == 2 and "unrecognized arguments: --pebbles 5" in capsys.readouterr().err
