"""A PassPass rule variant is written once (`rule_settings.py`): a table's `[game.rules]`
and a lab variant take the same engine variants, checked by one function, and the table's
referee plays them (PTI-12, PTI-15). What only one of them has is refused by the other in
a sentence that says why: the table's clock in the lab, the spoken round at a table."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli_words import speaking
from companion.games.passpass.rule_settings import CLOCK_KEYS, RULE_KEYS
from companion.games.passpass.rules import MancheStarted, MancheVoid, MancheWon
from companion.games.passpass.sim import SimulatedGame, make_setup
from companion.games.passpass.table_settings import TABLE_KEYS
from companion.lab.variants import VariantError, read_variants


def check(tmp_path: Path, game: str, seats: int, rule: str) -> tuple[int, str]:
    """`config check` of a table of `game` with `rule` in its [game.rules]."""
    table = tmp_path / "table.toml"
    table.write_text(f'[game]\nname = "{game}"\nseats = {seats}\n[game.rules]\n{rule}\n')
    return main(["config", "check", "--config", str(table)]), table.read_text()


@pytest.fixture
def lang(request, monkeypatch) -> str:
    monkeypatch.setenv("COMPANION_LANG", request.param)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    return request.param


@pytest.mark.parametrize("lang", ["en"], indirect=True)
@pytest.mark.parametrize("game", ["ptipasspass", "phipasspass"])
@pytest.mark.parametrize("rule", ['next_starter = "winner"', "turn_limit = 30",
                                  'window = "timed"'])  # fmt: skip
def test_a_table_takes_the_engine_variants_the_lab_takes(game, rule, lang, tmp_path, capsys):
    assert check(tmp_path, game, 4, rule)[0] == 0, capsys.readouterr().err
    assert "configuration OK" in capsys.readouterr().out
    lab = tmp_path / "lab.toml"
    lab.write_text(f'game = "{game}"\nplayers = 4\n[rules]\n{rule}\n')
    assert read_variants(lab)[0].rules == {rule.split(" ")[0]: eval(rule.split(" = ")[1])}


def test_the_clock_keys_are_the_tables_own_settings():
    assert set(CLOCK_KEYS) < set(TABLE_KEYS) and not set(RULE_KEYS) & set(TABLE_KEYS)


@pytest.mark.parametrize(("lang", "says"), [
    ("fr", "une table joue toujours ses fenêtres de défi chronométrées (PTI-7)"),
    ("en", "a table always plays timed challenge windows (PTI-7)"),
], indirect=["lang"])  # fmt: skip
def test_a_table_refuses_the_spoken_round_of_the_lab(lang, says, tmp_path, capsys):
    assert check(tmp_path, "ptipasspass", 3, 'window = "round"')[0] == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "game.rules" in line]
    assert len(err) == 1 and says in err[0] and '`"round"`' in err[0], err


@pytest.mark.parametrize(("lang", "says"), [
    ("fr", "règle l’horloge d’une table ; le labo joue sans horloge"),
    ("en", "sets a table's clock; the lab plays without a clock"),
], indirect=["lang"])  # fmt: skip
@pytest.mark.parametrize("rule", ["window_seconds = 5", "doublon_min = 1.5"])
def test_the_lab_refuses_the_tables_clock(lang, says, rule, tmp_path):
    lab = tmp_path / "lab.toml"
    lab.write_text(f'game = "phipasspass"\nplayers = 3\n[rules]\n{rule}\n')
    with speaking(lang), pytest.raises(VariantError) as caught:
        read_variants(lab)
    assert says in caught.value.problem and f"`{rule.split(' ')[0]}`" in caught.value.problem


@pytest.mark.parametrize("lang", ["en"], indirect=True)
@pytest.mark.parametrize("game", ["ptipasspass", "phipasspass"])
def test_an_unknown_rule_names_the_game_by_its_title_and_its_settings(game, lang, tmp_path,
                                                                      capsys):  # fmt: skip
    assert check(tmp_path, game, 4, "zzz = 1")[0] == 1
    err = capsys.readouterr().err
    title = {"ptipasspass": "PtiPassPass", "phipasspass": "PhiPassPass"}[game]
    known = "`window`, `next_starter`, `turn_limit`"
    assert f"unknown setting `zzz`; the settings of {title} are {known}" in err, err
    assert "has no settings" not in err


def manches(rules: dict[str, object], seed: int) -> list[object]:
    """The manche events a simulated table of PtiPassPass journals with `rules`."""
    setup = make_setup("ptipasspass", 3, seed, rules=rules)
    referee = SimulatedGame(setup).run().referee
    assert referee is not None and referee.setup.rules is not None
    assert set(rules) <= set(referee.setup.rules)  # journaled, so a replay plays them too
    return [e for e in referee.log if isinstance(e, MancheWon | MancheVoid | MancheStarted)]


def starters_after_wins(events: list[object]) -> list[tuple[int, int]]:
    """(winner, the next manche's starter) for each won manche another follows."""
    return [
        (won.seat, started.starter)
        for won, started in zip(events, events[1:], strict=False)
        if isinstance(won, MancheWon) and isinstance(started, MancheStarted)
    ]


@pytest.mark.parametrize("seed", range(3))
def test_at_a_table_the_winner_starts_the_next_manche_when_set(seed):
    """PTI-12: by the book, the winner's left starts; with `next_starter = "winner"`, the
    winner. The same seeds by the book tell the two apart."""
    chosen = starters_after_wins(manches({"next_starter": "winner"}, seed))
    assert chosen and all(winner == starter for winner, starter in chosen), chosen
    book = starters_after_wins(manches({}, seed))
    assert book and all(starter == (winner + 1) % 3 for winner, starter in book), book


def test_at_a_table_a_turn_limit_voids_the_manche():
    """PTI-15: a manche that reaches `turn_limit` turns is void and dealt again."""
    events = manches({"turn_limit": 2}, 0)
    voids = [e for e in events if isinstance(e, MancheVoid)]
    assert voids and all(v.reason == "turn limit of 2 reached" for v in voids)
    assert not any(isinstance(e, MancheVoid) and "turn limit" in e.reason for e in manches({}, 0))


SIX_HATS = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
"""An own hat layout (PTI-2): two rows of three, so two lines of three (PTI-3)."""


@pytest.mark.parametrize("lang", ["en"], indirect=True)
def test_the_lab_plays_a_tables_own_hat_layout(lang, tmp_path):
    from companion.games.passpass.lab import PTI_LAB, config_of

    lab = tmp_path / "lab.toml"
    lab.write_text(f'game = "ptipasspass"\nplayers = 2\n[rules]\nlayout = {{positions = '
                   f"{SIX_HATS}}}\n")  # fmt: skip
    (variant,) = read_variants(lab)
    layout = config_of(variant, 1).layout
    assert [list(p) for p in layout.positions] == SIX_HATS and len(layout.lines) == 2
    assert any("6 hats" in said for said in PTI_LAB.notes(variant)), PTI_LAB.notes(variant)
    for index in range(3):
        PTI_LAB.play(variant, index)  # every placement and reveal on its six hats
