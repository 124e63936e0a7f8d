"""A rule setting is checked once (`companion.rule_checks`) for a table's setup and the lab:
each check says what is wrong or None, and a table's `config check` and a lab file refuse
the same value in the same words, in either language."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli_words import speaking
from companion.lab.variants import VariantError, read_variants
from companion.rule_checks import not_one_of, not_true_or_false, not_whole, unknown_rules


def test_a_whole_number_is_checked_against_its_bounds_and_a_truth_is_no_number():
    assert not_whole("size", 5, 5, 40) is None and not_whole("size", 40, 5, 40) is None
    assert not_whole("seed", -7, None, None) is None
    for value, kind in ((4, "whole_between"), (41, "whole_between"), (True, "whole_between"),
                        ("13", "whole_between"), (13.0, "whole_between")):  # fmt: skip
        wrong = not_whole("size", value, 5, 40)
        assert wrong is not None and wrong.kind == kind, value
    least = not_whole("turn_limit", 0, 1, None)
    assert least is not None and least.kind == "whole_least"
    assert least.fields["value"] == "`0`" and least.fields["key"] == "turn_limit"
    whole = not_whole("deck_seed", 1.5, None, None)
    assert whole is not None and whole.kind == "whole"


def test_a_word_a_truth_and_a_key_are_checked_against_what_the_game_has():
    assert not_one_of("window", "timed", ("round", "timed")) is None
    wrong = not_one_of("window", "Timed", ("round", "timed"))
    assert wrong is not None and wrong.kind == "one_of"
    assert not_one_of("window", 3, ("round", "timed")) is not None
    assert not_true_or_false("undo", False) is None
    wrong = not_true_or_false("undo", 0)
    assert wrong is not None and wrong.kind == "true_or_false"
    assert unknown_rules({"size": 13}, ("size", "mode"), "VNP") is None
    wrong = unknown_rules({"zzz": 1, "size": 13, "aaa": 2}, ("size", "mode"), "VNP")
    assert wrong is not None and wrong.kind == "unknown_rule"
    assert wrong.fields["keys"] == "`aaa`, `zzz`" and wrong.fields["known"] == "`size`, `mode`"
    with speaking("en"):
        assert wrong.said() == "rules: unknown setting `aaa`, `zzz`; the settings of VNP are " \
                               "`size`, `mode`"  # fmt: skip


SHARED = [
    ("swiped", 2, "deck_size = 1"),
    ("swiped", 2, "deck_seed = 1.5"),
    ("swiped", 2, 'false_claim = "x"'),
    ("swiped", 2, "claim_before_first_swap = 1"),
    ("swiped", 2, "zzz = 1"),
    ("flipdone", 3, 'phases = "2"'),
    ("flipdone", 3, 'first_element = "middle"'),
    ("vnp", 2, "size = 41"),
    ("vnp", 2, 'undo_placement = "yes"'),
    ("vnp", 2, 'crossing = "never"'),
    ("vnp", 4, 'mode = "two"'),
    ("vnp", 2, 'mode = "teams"'),
    ("vnp", 4, "starts = [[2, 2]]"),
    ("vnp", 4, 'starts = "no"'),
    ("ptipasspass", 4, 'next_starter = "loser"'),
    ("ptipasspass", 4, 'window = "Timed"'),
    ("phipasspass", 3, "turn_limit = 0"),
    ("phipasspass", 3, 'turn_limit = "30"'),
    ("phipasspass", 3, "zzz = 1"),
    ("ptipasspass", 4, "layout = 3"),
    ("ptipasspass", 4, "layout = {positions = [[0, 0], [0, 1]]}"),
    ("ptipasspass", 4, "layout = {positions = [[0, 0], [1, 1], [2, 2]]}"),
]
"""Settings a game's table and its lab both have, each given a value neither plays (or a
key neither has)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("name", "seats", "rule"), SHARED)
def test_a_table_and_the_lab_refuse_a_rules_value_in_the_same_words(
    name, seats, rule, lang, tmp_path: Path, capsys, monkeypatch
):
    monkeypatch.setenv("COMPANION_LANG", lang)
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    table = tmp_path / "table.toml"
    table.write_text(f'[game]\nname = "{name}"\nseats = {seats}\n[game.rules]\n{rule}\n')
    assert main(["config", "check", "--config", str(table)]) == 1
    refused = [line for line in capsys.readouterr().err.splitlines() if "game.rules" in line]
    lab = tmp_path / "lab.toml"
    lab.write_text(f'game = "{name}"\nplayers = {seats}\n[rules]\n{rule}\n')
    with speaking(lang), pytest.raises(VariantError) as caught:
        read_variants(lab)
    problem = caught.value.problem
    assert rule.split(" ")[0] in problem
    assert len(refused) == 1 and problem in refused[0], (problem, refused)
