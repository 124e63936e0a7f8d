"""`companion report`: the lab's figures from journals of refereed games, with what only a
real table has (time per turn, faults and the time they cost, refused presses)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.lab.journals import FAULTS, REFUSED, SIMULATED, TABLE, report
from companion.lab.words import shown
from tests.referee import kept_journals

DATA = Path(__file__).resolve().parent.parent / "referee"
GAMES = DATA.parent / "games"
PASSPASS = GAMES / "passpass" / "referee" / "scenarios"
FAULTS_SCENARIO = PASSPASS / "faults.jsonl"


def test_faults_are_timed_from_the_wrong_table_to_the_table_put_right():
    """In the scenario each wrong act (an unknown tag, two tags, an extra tag, a missing
    tag, a silent reader, another seat's token) is undone 1.55 s after it was made: the
    table stood still 1.55 s for each, 9.3 s in all."""
    (group,) = report([FAULTS_SCENARIO])
    assert group.games == 1 and group.source == "1 journal of real games"
    assert group.find(TABLE, "faults per game").estimate.value == 6
    assert group.find(TABLE, "seconds lost to faults per game").estimate.value == pytest.approx(9.3)
    reasons = {f.label: f.estimate.value for f in group.table if f.section == FAULTS}
    wrong = ("unknown tag", "two tags", "extra tag", "missing tag", "reader silent", "not yours")
    assert reasons == pytest.approx(dict.fromkeys(wrong, 1.55))
    # Two turns started (16.25 s and 31.1 s): one whole turn, 14.85 s.
    assert group.find(TABLE, "seconds per turn").estimate.value == pytest.approx(14.85)


def test_refused_presses_are_counted_by_reason():
    (group,) = report([GAMES / "vnp" / "referee" / "scenarios" / "undo_off.jsonl"])
    refused = {f.label: f.estimate.value for f in group.table if f.section == REFUSED}
    # Undo is off at that table: both "back" presses refused, said as the OLED says it.
    assert refused == {"Undo is turned off at this table.": 2}


def test_calls_made_together_at_the_table_count_for_pti_7():
    (group,) = report([PASSPASS / "doublon_before_window.jsonl"])
    (pti7,) = [r for r in group.rulings if r.ruling == "PTI-7"]
    assert pti7.times == 1  # Ana and Cy called within the grace: Cy, first clockwise, counts


def test_journals_of_one_game_seats_and_rules_are_reported_together():
    paths = kept_journals()
    groups = report(paths)
    assert sum(g.games for g in groups) == len(paths)
    keys = [(g.variant.game, g.variant.players, tuple(sorted(g.variant.rules.items())),
             g.variant.bots) for g in groups]  # fmt: skip
    assert len(keys) == len(set(keys))
    for g in groups:
        assert g.find(TABLE, "minutes per game").estimate.value > 0
    # The regression journals were played at the simulated table (its tags, from its seed);
    # hand-written scenarios of the other games carry tags of their own: people.
    simulated = [g for g in groups if g.variant.bots[0] == SIMULATED]
    assert {g.variant.game for g in simulated} == {"ptipasspass", "phipasspass", "flipdone", "vnp"}
    assert all(g.variant.bots == ("people",) * g.variant.players for g in groups
               if g not in simulated)  # fmt: skip


def test_report_command_writes_the_report_and_names_a_bad_journal(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["report", str(PASSPASS),
                 str(GAMES / "flipdone" / "referee" / "scenarios"),
                 "--out", str(out), "--name", "club night", "--quiet"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "journals of real games" in printed and "seconds per decision" in printed
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<title>Playtest: club night</title>" in page and "At the table" in page
    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    games = {v["game"] for v in figures["variants"]}
    assert games == {"ptipasspass", "phipasspass", "flipdone"}

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 0, "type": "setup"}\n', encoding="utf-8")
    assert main(["report", str(bad), "--out", str(out), "--quiet"]) == 2
    assert str(bad) in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.jsonl"), "--quiet"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_journals_of_bot_games_are_labelled_as_such_never_as_real_games(tmp_path, capsys):
    """`companion demo` writes in its journal that bots played every seat; the report
    groups them apart from people's games and says where they come from."""
    demo = tmp_path / "demo"
    assert main(["demo", "--game", "ptipasspass", "--players", "3", "--out", str(demo),
                 "--quiet"]) == 0  # fmt: skip
    capsys.readouterr()
    people = PASSPASS / "doublon_before_window.jsonl"
    groups = report([demo / "journal.jsonl", people])
    bots = [g for g in groups if g.variant.bots == ("bot",) * 3]
    assert len(bots) == 1 and bots[0].source == "1 journal of bot games (companion demo)"
    assert "real" not in bots[0].source and bots[0].variant.name.endswith(", bots")
    assert all("real games" in g.source for g in groups if g not in bots)


def test_a_journal_given_twice_is_counted_once_and_the_report_says_so(tmp_path, capsys):
    journal = PASSPASS / "doublon_before_window.jsonl"
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(journal.read_bytes())
    (group,) = report([journal, copy, journal])
    assert group.games == 1 and group.source == "1 journal of real games"
    assert group.notes[:2] == [
        f"{copy}: the same journal as {journal}, counted once",
        f"{journal}: given twice, counted once",
    ]
    out = tmp_path / "out"
    assert main(["report", str(journal), str(copy), "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "counted once" in printed and "1 journal of real games" in printed
    assert "counted once" in (out / "report.html").read_text(encoding="utf-8")


def test_a_setups_bots_are_one_kind_a_seat_and_absent_for_people():
    from companion.journal import JournalError, Setup, parse_setup

    line = {"type": "setup", "game": "ptipasspass", "seats": ["Ana", "Bob", "Cy"]}
    assert parse_setup(line).bots is None  # people: every journal written before, too
    assert "bots" not in Setup("ptipasspass", ("Ana", "Bob"), {}).to_json()
    setup = parse_setup(line | {"bots": ["heuristic", "random", "bot"]})
    assert setup.bots == ("heuristic", "random", "bot")
    assert parse_setup(setup.to_json()) == setup
    for wrong in (["bot"], "bot", [1, 2, 3]):
        with pytest.raises(JournalError, match="bots"):
            parse_setup(line | {"bots": wrong})


def _tables_of(
    tmp_path: Path,
    game: str,
    players: int,
    seeds: range,
    real: bool = True,
    folder: str = "archive",
) -> Path:
    """Journals of whole games of the simulated people; `real`: as a real table writes
    them (its own enrolled tags, another seed: a real table's), the playtest of these
    tests; else as the simulated table (`companion play --sim`) writes them."""
    from companion import games
    from companion.journal import SpotInput, dump_lines

    out = tmp_path / folder
    out.mkdir()
    descriptor = games.get(game)
    for seed in seeds:
        setup = descriptor.simulated_setup(players, seed)
        result = descriptor.simulate(setup)
        inputs = result.inputs
        if real:
            enrolled = {
                uid: f"{int(uid, 16) ^ 0x5A5A5A5A5A5A5A:0{len(uid)}X}" for uid in setup.tags
            }
            setup = dataclasses.replace(
                setup, seed=seed + 10_000, tags={enrolled[u]: k for u, k in setup.tags.items()}
            )
            inputs = [
                SpotInput(i.t, i.spot, frozenset(enrolled.get(u, u) for u in i.uids))
                if isinstance(i, SpotInput) else i
                for i in inputs
            ]  # fmt: skip
        lines = dump_lines(setup, inputs, checksum=True)
        (out / f"game-{seed}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_report_against_a_lab_file_sets_people_beside_bots_and_says_where_they_differ(
    tmp_path, capsys
):
    """The table's seats are played by the heuristic; the lab's by random bots, which call
    challenges far more often: the report says so, figure by figure, each way right."""
    archive = _tables_of(tmp_path, "ptipasspass", 3, range(1, 21))
    lab = tmp_path / "bots.toml"
    lab.write_text(
        'game = "ptipasspass"\nplayers = 3\nbots = ["random"]\ngames = 200\nseed = 2\n'
        '[[variant]]\nname = "random bots"\nrules = { window = "timed" }\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["report", str(archive), "--against", str(lab), "--out", str(out), "--quiet"]
    assert main([*args, "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    table = "PtiPassPass, 3 players (window_seconds = 6.0, doublon_min = 2.0)"
    assert f"People ({table}) against the bots:" in printed
    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    people, bots = figures["variants"]
    assert people["source"] == "20 journals of real games" and bots["variant"] == "random bots"
    *said, rest = people["differences"]
    assert len(said) >= 5 and all("beyond chance (permutation test by game" in s for s in said)
    assert "Menteur calls (Challenges)" in " ".join(said)
    for line in said:  # each sentence names the way the figures go
        mine = next(f for f in people["figures"] if line.startswith(_named(f)))
        theirs = next(f for f in bots["figures"] if _named(f) == _named(mine))
        way = "more" if mine["value"] > theirs["value"] else "less"
        assert f"people {way}," in line, (mine, theirs)
    assert rest.startswith("20 real games are too few to tell people from the bots (random bots)")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "against the bots</h3>" in page and page.count("<h2>PtiPassPass</h2>") == 1
    assert "Where people differ from the bots" in page  # and its plot

    bad = tmp_path / "bad.toml"
    bad.write_text('game = "chess"\n', encoding="utf-8")
    assert main(["report", str(archive), "--against", str(bad), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--against" in err and str(bad) in err and len(err.strip().splitlines()) == 1


def test_a_journal_typed_at_the_simulated_table_is_no_game_of_people(tmp_path, capsys):
    """`companion play --sim` journals a game with the simulated table's own tags, made from
    its seed: the report groups it apart, says where it comes from, and never compares it
    with bots as people."""
    typed = _tables_of(tmp_path, "ptipasspass", 3, range(1, 3), real=False, folder="typed")
    real = _tables_of(tmp_path, "ptipasspass", 3, range(3, 5))
    groups = report([*sorted(typed.glob("*.jsonl")), *sorted(real.glob("*.jsonl"))])
    simulated, people = groups
    assert (
        simulated.source
        == "2 journals of the simulated table (companion play --sim), not of a real one"
    )
    assert (
        simulated.variant.name.endswith(", simulated table")
        and people.source == "2 journals of real games"
    )
    lab = tmp_path / "bots.toml"
    lab.write_text('game = "ptipasspass"\nplayers = 3\ngames = 30\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(typed), "--against", str(lab), "--out", str(out), "--quiet",
                 "--workers", "1"]) == 0  # fmt: skip
    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    assert [v["differences"] for v in figures["variants"]] == [[], []]


def _named(f: dict) -> str:
    """A figure of figures.json as the report's English names it (`shown`)."""
    label = shown(f["label"])
    what = label if f["seat"] is None else f"{label}, seat {f['seat'] + 1}"
    return f"{what} ({shown(f['section'])})"


def test_journals_give_the_leads_interest_figures_not_the_legal_choices(tmp_path, capsys):
    """The events tell the score (manches won), so a journal's group has the lead's
    figures; they do not say what else a seat could have done: no branching factor."""
    from companion.lab.summary import BRANCHING, INTEREST, LEAD_CHANGES

    archive = _tables_of(tmp_path, "ptipasspass", 3, range(1, 4))
    (group,) = report(sorted(archive.glob("*.jsonl")))
    assert group.find(INTEREST, LEAD_CHANGES).estimate.n == 3
    assert len(group.decided) == 3  # every game has a sole winner, who ends ahead
    with pytest.raises(KeyError):
        group.find(INTEREST, BRANCHING)


def test_games_of_the_virtual_table_are_games_of_people_marked_virtual(tmp_path):
    """A journal of the virtual table (`companion run --virtual`, its setup marked virtual)
    is a game of people, grouped apart from a real table's and said so."""
    from companion.journal import dump_lines, read_journal

    real = _tables_of(tmp_path, "ptipasspass", 3, range(1, 3))
    virtual = tmp_path / "virtual"
    virtual.mkdir()
    for path in sorted(real.glob("*.jsonl")):
        journal = read_journal(path)
        setup = dataclasses.replace(journal.setup, virtual=True)
        lines = dump_lines(setup, journal.inputs, checksum=True)
        (virtual / path.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    played, people = report([*sorted(virtual.glob("*.jsonl")), *sorted(real.glob("*.jsonl"))])
    assert played.games == people.games == 2
    assert played.source == (
        "2 journals of real games on the virtual table (companion run --virtual)"
    )
    assert played.variant.name.endswith(", virtual table")
    assert played.variant.bots == ("people",) * 3
    assert people.source == "2 journals of real games"
    assert not people.variant.name.endswith("virtual table")
