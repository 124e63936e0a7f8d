"""Swiped through the commands a user types: demo, replay, selfplay, enroll, the help texts
and the power-on menu; and the transcript, which names no target card before the end."""

from __future__ import annotations

import json
import re

import pytest

from companion import games
from companion.cli import main
from companion.devices import enroll
from companion.devices.enroll import enroll_session, game_steps
from companion.devices.registry import TagRegistry
from companion.games.swiped.rules import COLOURS, Config, TargetDrawn
from companion.games.swiped.screens import colour_name
from companion.journal import dump_lines, read_lines
from companion.menu import new_menu, push, screen, seat_range, table, turn
from companion.screens.render import frame
from companion.transcript import describe
from tests.devices.test_enroll import Hands

DECK = Config().deck_size
KINDS = [f"layout:{n}" for n in range(1, DECK + 1)] + [f"cube:{c}" for c in COLOURS]


def test_demo_plays_a_whole_game_and_its_journal_replays_to_it(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--game", "swiped", "--seed", "3", "--out", str(out), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "is the face-up card" in text and "the cubes stand as the face-up card shows" in text
    assert "Ana's secret target card is recorded" in text
    assert "Bob's secret target card is recorded" in text
    assert "wins the game!" in text or "the game is a draw" in text
    assert (out / "oled.gif").stat().st_size > 0
    assert main(["replay", str(out / "journal.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["game"] == "swiped"
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds[:2] == ["layout", "placed"] and kinds.count("target") == 2
    assert kinds[-1] == "targets" and kinds.count("targets") == 1  # SW-5: only at the end
    if doc["winner"] is None:
        assert "game_drawn" in kinds and doc["scores"] == [0, 0]
    else:
        assert {"kind": "game_won", "seat": doc["winner"]} in [
            {k: v for k, v in e.items() if k != "t"} for e in doc["events"]
        ]
        assert doc["scores"][doc["winner"]] == 1 and sum(doc["scores"]) == 1
    assert main(["replay", str(out / "journal.jsonl")]) == 0
    assert "game finished; scores: Ana" in capsys.readouterr().out


def simulated_journal(seed):
    """A whole simulated game's journal lines, and its two target cards."""
    game = games.get("swiped")
    setup = game.simulated_setup(2, seed, language="en")
    played = game.simulate(setup)
    assert played.referee is not None and played.referee.finished
    targets = list(played.referee.state.targets)
    assert None not in targets and len(set(targets)) == 2
    return list(dump_lines(setup, played.inputs)), targets


@pytest.mark.parametrize("seed", [3, 5, 8])
def test_the_replay_names_no_target_card_before_the_game_is_over(tmp_path, capsys, seed):
    lines, targets = simulated_journal(seed)
    path = tmp_path / "sw.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert main(["replay", str(path), "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    end = next(i for i, e in enumerate(events) if e["kind"] == "targets")
    assert end == len(events) - 1 and events[end]["cards"] == targets
    layout = next(e["card"] for e in events if e["kind"] == "layout")
    assert layout not in targets
    for event in events[:end]:
        assert not {"cards", "targets", "target"} & set(event), event
        if event["kind"] == "target":
            assert set(event) == {"t", "kind", "seat"}
        if "card" in event:
            assert event["kind"] == "layout" and event["card"] == layout

    assert main(["replay", str(path)]) == 0
    told = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    last = next(i for i, line in enumerate(told) if "secret target cards were" in line)
    assert f"Ana card {targets[0]}, Bob card {targets[1]}" in told[last]
    assert told[last + 1].startswith("game finished")  # nothing told after it but the scores
    for line in told[:last]:
        named = {int(n) for n in re.findall(r"card (\d+)", line)}
        assert named <= {layout}, line  # the face-up card only: it is public
        if "target" in line:
            assert not re.search(r"\d", line.split(None, 1)[1]), line  # no number at all


def test_a_target_drawn_carries_no_card():
    assert TargetDrawn(seat=1).to_json() == {"kind": "target", "seat": 1}
    assert describe({"kind": "target", "seat": 1}, ("Ana", "Bob"), "swiped") == (
        "Bob's secret target card is recorded"
    )


def test_swiped_lines_leave_other_games_events_alone():
    """Events of other games share kinds with Swiped's; each keeps its own sentence."""
    names = ("Ana", "Bob", "Cy")  # each game's lines are its descriptor's: nothing to load
    passpass_swap = {"t": 1.0, "kind": "swap", "seat": 0, "spots": [2, 5]}
    assert describe(passpass_swap, names, "ptipasspass") == "Ana swaps hats 2 and 5"
    swiped_swap = {"kind": "swap", "seat": 1, "phase": 1, "colours": ["bleu", "rouge"],
                   "squares": [3, 7]}  # fmt: skip
    assert describe(swiped_swap, names, "swiped") == "Bob swaps squares 3 and 7 (blue and red)"
    start = {"kind": "manche_start", "manche": 2, "starter": 2}
    assert describe(start, names, "ptipasspass") == "round 2 starts with Cy"


def test_selfplay_swiped_reports_wins_and_how_games_ended(capsys):
    args = ["selfplay", "swiped", "--games", "20", "--seed", "4", "--quiet"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert "Swiped, 2 players (deducing at every seat); rules as ruled; 20 bot games" in first
    wins = [float(n) for n in re.findall(r"wins, seat \d +([\d.]+) %", first)]
    drawn = float(re.search(r"drawn or unfinished +([\d.]+) %", first).group(1))
    assert len(wins) == 2 and sum(wins) + drawn == pytest.approx(100.0, abs=0.2)
    assert "How games ended" in first and "won by naming the card" in first
    assert main(args) == 0
    assert capsys.readouterr().out == first  # the same seed, the same report
    assert main([*args[:-1], "--bots", "deducing,random", "--quiet"]) == 0
    assert "wins, seat 2 (random)" in capsys.readouterr().out
    assert main([*args, "--rule", "manche_limit=1"]) == 0  # Swiped's limit is on manches
    assert "manche_limit = 1" in capsys.readouterr().out
    assert main(["selfplay", "swiped", "--bots", "heuristic", "--games", "1"]) == 2
    assert main(["selfplay", "swiped", "--players", "3", "--games", "1"]) == 2
    assert "swiped is for 2 players" in capsys.readouterr().err


def test_play_sim_swiped_checks_the_seats_and_the_first_player(capsys):
    assert main(["play", "--sim", "--game", "swiped", "--players", "3"]) == 2
    assert "swiped is for 2 players" in capsys.readouterr().err
    assert main(["play", "--sim", "--game", "swiped", "--first", "3"]) == 2
    assert "--first 3" in capsys.readouterr().err


def test_enroll_asks_for_the_cards_then_the_cubes_each_counted_as_such(tmp_path):
    steps = game_steps("swiped", 2)
    assert [s.kind for s in steps] == KINDS
    cards, cubes = steps[:DECK], steps[DECK:]
    assert cards[6].prompt == f"tap card 7 (7 of {DECK}) on the pad"
    colour = colour_name(COLOURS[2], "en").capitalize()  # the cube named in the line's language
    assert cubes[2].prompt == f"tap cube {colour} (3 of 9) on the pad"
    assert not any(f"of {DECK + 9})" in s.prompt for s in steps)  # counted by family
    uids = [f"04AB{i:010X}" for i in range(len(KINDS))]
    hands = Hands(uids)
    registry = TagRegistry(tmp_path)
    result = enroll_session(hands, registry, steps, say=hands.hear, timeout=5.0, settle=0.01)
    assert result.complete, result.reason
    assert dict(TagRegistry(tmp_path)) == dict(zip(uids, KINDS, strict=True))


def test_enroll_command_swiped_needs_no_seats_and_counts_the_cards(tmp_path, capsys, monkeypatch):
    """`companion enroll --game swiped`: the game's 2 seats by default; the terminal says
    "card 7 of 24" as the cards come. The pad here reads 7 cards, then nothing."""
    uids = [f"04CD{i:010X}" for i in range(7)]
    hands = Hands(uids)

    def session(*args, say, **kwargs):
        def both(text: str) -> None:
            say(text)
            hands.hear(text)

        return enroll_session(*args, say=both, **{**kwargs, "settle": 0.01})

    monkeypatch.setattr(enroll, "make_source", lambda args: hands)
    monkeypatch.setattr(enroll, "enroll_session", session)
    args = ["enroll", "--game", "swiped", "--data-dir", str(tmp_path), "--timeout", "0.5"]
    assert main(args) == 1  # stopped early: the pad read no 8th card
    text = capsys.readouterr().out
    total = DECK + 9
    assert f"[1/{total}] tap card 1 (1 of {DECK}) on the pad" in text
    assert f"[7/{total}] tap card 7 (7 of {DECK}) on the pad" in text
    assert f"recorded {uids[6]} as layout:7" in text
    assert "timed out after 0.5 s waiting for a tag on the pad at step 8 (tap card 8" in text
    assert dict(TagRegistry(tmp_path)) == {u: f"layout:{i}" for i, u in enumerate(uids, 1)}
    assert main(["enroll", "--game", "swiped", "--seats", "3", "--data-dir", str(tmp_path)]) == 2
    assert "swiped is for 2 players" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["demo", "play", "selfplay", "enroll"])
def test_the_help_of_commands_that_take_a_game_lists_swiped(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "swiped" in capsys.readouterr().out


def test_the_power_on_menu_offers_swiped_for_two_seats():
    m = new_menu("ptipasspass", ("Ana", "Bob", "Cy", "Dom"), 1, language="en")
    games_offered = screen(m).options
    assert "swiped" in games_offered and games_offered == games.names()
    m = turn(m, games_offered.index("swiped"))
    assert m.game == "swiped" and m.seats == 2 and m.first == 1  # clamped to its 2 seats
    assert seat_range("swiped") == (2,)
    m = push(m)
    assert screen(m).options == ("2",) and screen(m).title == "swiped"
    m = push(m)
    assert screen(m).options == ("Ana", "Bob")
    m = push(m)
    assert screen(m).step == "ready" and set(screen(m).options) == {str(s) for s in range(10)}
    frame(screen(m), "en")  # the OLED draws it
    for spot in range(10):  # the pad and the 9 squares read empty: the game starts
        m = table(m, spot, frozenset())
    assert m.result is not None and m.result.game == "swiped"
    assert m.result.seats == ("Ana", "Bob") and m.result.first == 1


def test_the_registry_round_trips_a_swiped_journal():
    lines, _ = simulated_journal(3)
    journal = read_lines(lines)
    assert journal.setup.game == "swiped"
    referee = games.make_referee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    assert referee.finished
