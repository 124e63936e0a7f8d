"""Flip Done in the lab: a lab game (played on the engine's board, counted as it goes)
reads back from its events into the same record, `record_of` counts what the rules say
happened (scripted phases through the engine), `check` refuses what the game cannot play,
and the notes' arithmetic (FD-9 never applies as ruled) is what the games show.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion import games
from companion.games.flipdone.lab import LAB, RULINGS, check, notes, phase_facts, play_reference
from companion.games.flipdone.rules import (
    Build,
    Discard,
    Event,
    FirstPlaced,
    Flip,
    PhaseStarted,
    State,
    apply,
    is_over,
    legal_actions,
    make_config,
    new_game,
)
from companion.games.flipdone.sim import FlipDoneSim, Noise, comparable, make_setup
from companion.lab.model import PerSeat, Rate, Variant
from tests.games.flipdone.rules.helpers import game, play, position
from tests.lab.refusals import refused

H, R = "heuristic", "random"

VARIANTS = [
    # (name, bots, rules, games)
    ("as ruled, heuristic", (H, H, H), {}, 6),
    ("as ruled, random", (R, R, R), {}, 6),
    ("2 manches of 2 phases, mixed", (H, R, R), {"manches": 2, "phases": 2}, 10),
    (
        "one phase, chosen first element, extra-only ties, cap 1",
        (H, R, H),
        {
            "manches": 1,
            "phases": 1,
            "first_element": "chosen",
            "manche_tie": "extra_only",
            "tie_phase_limit": 1,
        },
        40,
    ),
    ("two phases, no tie phase", (R, H, H), dict(manches=1, phases=2, tie_phase_limit=0), 20),
]


def variant(bots: tuple[str, ...] = (H, H, H), seed: int = 1, **rules: Any) -> Variant:
    return Variant("test", "flipdone", 3, bots, 100, seed, rules)


@pytest.mark.parametrize(
    ("bots", "rules", "count"),
    [case[1:] for case in VARIANTS],
    ids=[case[0] for case in VARIANTS],
)
def test_a_lab_game_reads_back_from_its_events(bots, rules, count):
    """The lab counts a game as its board plays it; a table's journal is read from its
    events: the same game, played by the same bots at table seats through the engine's
    `apply` (`play_reference`), gives the same record, figure for figure."""
    v = Variant("read", "flipdone", 3, bots, count, seed=len(bots) + len(rules) * 7, rules=rules)
    for index in range(count):
        played = LAB.play(v, index)
        assert played == play_reference(v, index), index
        assert played.first == index % 3 and played.finished  # the first seat rotates


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {
            "manches": 2,
            "phases": 1,
            "first_element": "chosen",
            "manche_tie": "extra_only",
            "tie_phase_limit": 1,
        },
    ],  # fmt: skip
)
def test_a_position_read_back_plays_on_as_the_board_that_reached_it(rules):
    """A journal resumes from a position's facts: the board built from them (JSON and
    back, no board kept) plays every action after it as the board that reached it, to the
    game's end (the phases to come dealt alike from the seed, FD-2)."""
    for seed in range(6):
        config = make_config(first=seed % 3, **rules)
        state, _ = new_game(config, seed)
        rng, positions, actions, told = random.Random(seed), [state], [], []
        while not is_over(state):
            actions.append(rng.choice(legal_actions(state)))
            state, events = apply(state, actions[-1])
            positions.append(state)
            told.append(events)
        for start in range(0, len(positions) - 1, 7):
            again = State.from_json(json.loads(json.dumps(positions[start].to_json())))
            for reached, action, events in zip(
                positions[start + 1 :], actions[start:], told[start:], strict=True
            ):
                again, happened = apply(again, action)
                assert (again, happened) == (reached, events), (seed, start)


def test_a_forked_board_plays_on_apart():
    """The thinking bot plays every move from one drawn position: a fork is the same
    position, and playing it on leaves the original as it was."""
    state, _ = new_game(make_config(first=1), 3)
    rng = random.Random(3)
    for _ in range(40):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    original = state.fork()
    fork = original.fork()
    assert State.of(fork.fork()) == State.of(original.fork()) == state
    for _ in range(30):  # into the next phase
        fork.play(rng.choice(fork.legal()))
    assert State.of(original.fork()) == state and State.of(fork.fork()) != state


def test_a_game_depends_on_its_seed_and_index_alone():
    v = variant(seed=5)
    later = [LAB.play(v, i) for i in (3, 2, 1)]
    assert [LAB.play(v, i) for i in (1, 2, 3)] == later[::-1]
    assert LAB.play(v, 1) != LAB.play(variant(seed=6), 1)


# --------------------------------------------------------------------- record_of


def opening(state: State) -> list[Event]:
    """The first phase's start of a hand-built position, as the engine would make it for
    its centre card (new_game's own opening events name the card it dealt)."""
    face = state.faces[4]
    assert face is not None
    return [PhaseStarted(1, 1, state.first, 0, False, face), FirstPlaced(None, 5, face)]


def scripted(state: State, *actions: Any) -> list[dict[str, Any]]:
    """The JSON events of a scripted phase of a one-phase game from `state`."""
    _, events = play(state, *actions)
    return [e.to_json() for e in [*opening(state), *events]]


ONE_PHASE = {"manches": 1, "phases": 1, "tie_phase_limit": 0}


def phase_a() -> list[dict[str, Any]]:
    """Two lines made at once, a break, a held line, a flip in one's own lines that keeps
    both, a third flip that breaks, one's own line broken, and a seat skipped."""
    state = position(
        game(**ONE_PHASE),
        faces={5: "QH"},
        hands={0: ["AH", "3H", "2S"], 1: ["4H", "5H", "4S", "5S"], 2: ["6H", "7H", "6S", "7S"]},
        under={9: "9S", 5: "9H", 7: "10H", 3: "10S", 1: "JS"},
    )
    return scripted(
        state,
        Build(0, "AH", 1),
        Build(1, "4H", 9),  # FD-5: diagonal 1-5-9, red, 3 points
        Build(2, "6H", 4),
        Build(0, "3H", 3),
        Build(1, "5H", 7),  # FD-5: column 1 and diagonal 3-5-7 at once
        Flip(2, "6S", 9),  # FD-6: breaks seat 1's diagonal 1-5-9, takes 3
        Flip(0, "2S", 5),  # FD-6: diagonal 3-5-7 stays red: seat 1's bonus, 2
        Flip(1, "4S", 7),  # FD-7: seat 1's column 1 and diagonal 3-5-7 stay red
        Flip(2, "7S", 3),  # FD-8: third flip of diagonal 3-5-7 breaks it, no points
        Flip(1, "5S", 1),  # seat 0 has no card: skipped (FD-3); FD-7: own column broken
        Build(2, "7H", 2),
    )


def test_record_of_counts_a_scripted_phase():
    record = LAB.record_of(3, 0, phase_a())
    counts = record.counts
    made = {k: counts[f"{k} made"] for k in ("columns", "rows", "diagonals")}
    assert made == {"columns": 1, "rows": 0, "diagonals": 2}
    assert counts["diagonals made points"] == 6
    assert (counts["diagonals broken"], counts["diagonals broken points"]) == (1, 3)
    assert (counts["diagonals held"], counts["diagonals held points"]) == (1, 2)
    assert (counts["diagonals lost"], counts["columns lost"]) == (1, 1)
    assert (counts["breaks"], counts["kept lines"]) == (1, 1)
    assert (counts["own lines kept"], counts["own lines broken"]) == (2, 1)
    assert (counts["third flips breaking"], counts["third flips keeping"]) == (1, 0)
    assert (counts["builds"], counts["flips"], counts["discards"]) == (6, 5, 0)
    assert counts["plays"] == 11
    assert (counts["multi-line plays"], counts["skipped turns"]) == (1, 1)
    assert (counts["phases"], counts["manche bonus"], counts["cards left"]) == (1, 2, 0)
    assert record.rulings == {"FD-3": 1, "FD-5": 1, "FD-6": 2, "FD-7": 3, "FD-8": 1}
    # Seat 1: 3 + 1 + 3 made, 3 taken by the break, 2 held bonus, then the manche's 2.
    assert record.seat_counts["tokens"] == (0, 8, 3)
    assert record.seat_counts["lines made"] == (0, 3, 0)
    assert record.seat_counts["lines broken"] == (0, 0, 1)
    assert record.seat_counts["manches won"] == (0, 1, 0)
    assert (record.winners, record.finished, record.actions, record.manches) == (
        (1,),
        True,
        11,
        (11,),
    )


def test_record_of_counts_third_flips_that_keep_or_align_a_line():
    state = position(
        game(**ONE_PHASE),
        faces={5: "QH"},
        hands={
            0: ["2H", "2S", "3S", "4S"],
            1: ["3H", "5S", "6S", "7S"],
            2: ["4H", "8S", "9S", "10S"],
        },
        under={2: "5H", 5: "6H", 8: "7H", 4: "8H", 6: "9H"},
    )
    events = scripted(
        state,
        Build(0, "2H", 2),
        Build(1, "3H", 8),  # FD-5: column 2
        Flip(2, "8S", 2),  # FD-6: held, seat 1's bonus 1
        Flip(0, "2S", 5),  # FD-6: held again
        Flip(1, "5S", 8),  # FD-8: the third flip keeps column 2: no bonus, owner kept
        Build(2, "4H", 4),
        Build(0, "3S", 6),
        Flip(1, "6S", 4),
        Flip(2, "9S", 6),  # FD-8: the third flip aligns row 2 red: nobody owns it
        Discard(0, "4S"),
        Discard(1, "7S"),
        Discard(2, "10S"),
    )
    record = LAB.record_of(3, 0, events)
    counts = record.counts
    assert (counts["third flips keeping"], counts["third flips aligning"]) == (1, 1)
    assert (counts["columns held"], counts["columns held points"]) == (2, 2)
    assert counts["rows made"] == 0
    assert record.rulings == {"FD-6": 2, "FD-8": 2}
    assert record.seat_counts["tokens"] == (0, 5, 0)


def test_fd9_and_fd1_count_cards_left_when_the_grid_is_used_up_first():
    """A hand-built phase (more cards than a deal gives): the last flip uses the grid up
    while seats 0 and 1 hold a card each; seat 0 has no token to pay with (FD-1)."""
    faces = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "AH"]
    state = position(
        game(**ONE_PHASE),
        faces={square: card for square, card in enumerate(faces, start=1)},
        flipped=range(1, 9),
        under={9: "2H"},
        hands={0: ["3H", "4H"], 1: ["5H"]},
        tokens=(0, 3, 0),
    )
    record = LAB.record_of(3, 0, scripted(state, Flip(0, "3H", 9)))
    counts = record.counts
    assert (counts["cards left"], counts["penalty tokens"], counts["penalised seats"]) == (2, 1, 2)
    assert (counts["penalised phases"], counts["penalties cut"]) == (1, 1)
    assert record.rulings["FD-9"] == 2 and record.rulings["FD-1"] == 1


def test_record_of_counts_the_bank_making_up_a_break():
    events = [
        {"kind": "phase_start", "manche": 1, "phase": 1, "first": 0, "extra": 0,
         "overtime": False, "card": "QH"},
        {"kind": "line_broken", "seat": 2, "owner": 1, "line": 3, "value": 2, "from_owner": 0,
         "from_bank": 2},
    ]  # fmt: skip
    record = LAB.record_of(3, 0, events)
    assert (record.counts["bank breaks"], record.counts["bank tokens"]) == (1, 2)
    assert record.rulings == {"FD-1": 1, "FD-6": 1}
    assert record.seat_counts["tokens"] == (0, 0, 2)
    assert not record.finished and record.winners == ()


def test_a_journal_reads_like_the_engines_events_with_undo_and_table_events_mixed_in():
    events = phase_a()
    journal: list[dict[str, Any]] = []
    for t, e in enumerate(events):
        journal.append({"t": float(t), **e})
        if e["kind"] == "build" and e["square"] == 1:  # taken back, then made again
            journal += [{"t": t + 0.1, "kind": "undo", "step": "build"}, {"t": t + 0.2, **e}]
        if e["kind"] == "phase_start":
            journal += [
                {"t": t + 0.1, "kind": "fault", "spot": 3, "reason": "stacked"},
                {"t": t + 0.2, "kind": "fixed"},
                {"t": t + 0.3, "kind": "ignored", "control": "back", "seat": 0,
                 "reason": "nothing_to_undo"},
                {"t": t + 0.4, "kind": "dealt_down", "square": 4},
            ]  # fmt: skip
    assert LAB.record_of(3, 0, journal) == LAB.record_of(3, 0, events)


@pytest.mark.parametrize("seed", range(2))
def test_a_refereed_table_gives_the_record_of_the_game_it_played(seed):
    """A simulated table on a rough table (faults, refused presses, an OBSERVED deal)."""
    result = FlipDoneSim(make_setup(seed), noise=Noise.rough()).run()
    first = result.setup.first
    journaled = LAB.record_of(3, first, result.referee.events)
    assert journaled == LAB.record_of(3, first, comparable(result.decided))
    assert journaled.finished
    assert journaled.seat_counts["tokens"] == tuple(result.referee.result()["scores"])


# --------------------------------------------------------------------- check


def test_check_accepts_the_books_rules_and_the_tables_settings():
    check(variant())
    check(variant((H, R, R), phases=1, manches=2, first_element="chosen",
                  manche_tie="extra_only", tie_phase_limit=0))  # fmt: skip
    check(variant(tie_phase_limit=None))


@pytest.mark.parametrize(
    ("change", "kind", "named"),
    [
        ({"players": 4, "bots": (H,) * 4}, "players", ["Flip Done", "`4`"]),
        ({"bots": (H, H)}, "bots_count", ["(3)", " 2"]),
        ({"bots": (H, "clever", R)}, "unknown_bot", ['`"clever"`', "`heuristic`, `random`"]),
        ({"game": "swiped"}, "other_game", ["Flip Done", '`"swiped"`']),
        (
            {"rules": {"phases": 2, "turn_limit": 3}},
            "unknown_rule",
            ["`turn_limit`", "`phases`, `manches`, `first_element`, `manche_tie`, "
             "`tie_phase_limit`"],
        ),
        ({"rules": {"phases": 0}}, "whole_least", ["`phases`", " 1", "`0`"]),
        ({"rules": {"manches": "3"}}, "whole_least", ["`manches`", " 1", '`"3"`']),
        ({"rules": {"manches": True}}, "whole_least", ["`manches`", "`true`"]),
        ({"rules": {"tie_phase_limit": -1}}, "whole_least", ["`tie_phase_limit`", " 0", "`-1`"]),
        ({"rules": {"first_element": "corner"}}, "one_of",
         ['`first_element`', '`"centre"`', '`"chosen"`', '`"corner"`']),
        ({"rules": {"manche_tie": 1}}, "one_of",
         ["`manche_tie`", '`"cumulative"`', '`"extra_only"`', "`1`"]),
    ],
)  # fmt: skip
def test_check_refuses_what_flip_done_cannot_play(change, kind, named):
    values = {"name": "bad", "game": "flipdone", "players": 3, "bots": (H, H, H), "games": 1,
              "seed": 1, "rules": {}} | change  # fmt: skip
    assert refused(check, Variant(**values), named) == kind


def test_every_figure_of_the_report_names_a_recorded_key():
    record = LAB.play(variant(), 0)
    for section in LAB.sections:
        for row in section.rows:
            if isinstance(row, PerSeat):
                assert len(record.seat_counts[row.key]) == 3, row
            else:
                keys = (row.hits, row.trials) if isinstance(row, Rate) else (row.key,)
                assert all(key in record.counts for key in keys), row


def test_the_descriptor_gives_the_lab():
    assert games.get("flipdone").lab() is LAB
    assert LAB.manche == "phase" and LAB.game == "flipdone"
    assert set(LAB.rulings) == set(RULINGS)


# --------------------------------------------------------------------- the finding


def test_the_notes_state_that_fd9_cannot_apply_with_the_variants_numbers():
    said = " ".join(notes(variant(phases=1, first_element="chosen")))
    assert "deals 12 cards (3 hands of 4" in said
    assert "8 builds and 9 flips (17 plays)" in said
    assert "FD-9 never applies" in said and "more than 17 cards (for 3 players, 6 a hand)" in said
    bigger = " ".join(phase_facts(3, 6, 9))
    assert "FD-9 can apply" in bigger and "1 of them are still in hand" in bigger


def test_as_ruled_every_phase_is_12_plays_and_fd9_fd3_fd1_never_apply():
    """What the notes claim, as the games show it; the rulings that do apply move."""
    applied: set[str] = set()
    for bots in ((H, H, H), (R, R, R)):
        v = variant(bots, seed=11)
        for index in range(150):
            record = LAB.play(v, index)
            assert set(record.manches) == {12}
            assert record.counts["cards left"] == 0
            applied |= set(record.rulings)
    assert applied == {"FD-5", "FD-6", "FD-7", "FD-8", "FD-10"}
