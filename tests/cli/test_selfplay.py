"""`companion selfplay`: statistics from bot games, reproducible from the seed."""

from __future__ import annotations

import re

from companion.cli import main


def run_cli(capsys, *args):
    code = main(["selfplay", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_selfplay_prints_win_rates_turns_and_challenge_rates(capsys):
    code, out, err = run_cli(
        capsys, "ptipasspass", "--players", "4", "--games", "40", "--seed", "1"
    )
    assert code == 0
    rates = [float(r) for r in re.findall(r"seat \d \(heuristic\):\s+([\d.]+)%", out)]
    assert len(rates) == 4 and abs(sum(rates) - 100.0) < 0.5  # every game has a winner
    assert re.search(r"mean turns per manche: \d+\.\d", out)
    assert re.search(r"doublon\s+\d+ calls", out) and re.search(r"menteur\s+\d+ calls", out)
    assert "games 40/40 (100%)" in err  # progress goes to stderr


def test_same_seed_same_output_and_another_seed_differs(capsys):
    args = ("phipasspass", "--players", "3", "--games", "20", "--quiet")
    first = run_cli(capsys, *args, "--seed", "7")[1]
    again = run_cli(capsys, *args, "--seed", "7")[1]
    other = run_cli(capsys, *args, "--seed", "8")[1]
    assert first == again
    assert first != other


def test_mixed_bots_heuristic_beats_random(capsys):
    _, out, _ = run_cli(
        capsys, "ptipasspass", "--players", "2", "--games", "60", "--bots", "heuristic,random"
    )
    wins = dict(re.findall(r"\((heuristic|random)\):\s+([\d.]+)%", out))
    assert float(wins["heuristic"]) > float(wins["random"])


def test_bad_arguments_exit_2_with_a_message(capsys):
    code, _, err = run_cli(capsys, "phipasspass", "--players", "2", "--games", "1")
    assert code == 2 and "3 to 6 players" in err
    code, _, err = run_cli(capsys, "ptipasspass", "--bots", "genius")
    assert code == 2 and "unknown bot" in err
