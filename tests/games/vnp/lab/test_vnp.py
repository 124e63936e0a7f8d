"""Vous ne passerez pas ! in the lab: the lab plays the game the table's bots play on the
engine, and the record says what the rules say happened.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from companion import games
from companion.games.vnp.bots import (
    BOTS,
    largest_bot,
    largest_placement,
    make_bot,
    random_bot,
)
from companion.games.vnp.lab import (
    LAB,
    RULE_KEYS,
    RULINGS,
    colour_seats,
    config_of,
    record_of,
    seating,
)
from companion.games.vnp.referee import RULE_KEYS as REFEREE_RULE_KEYS
from companion.games.vnp.referee import TABLE_KEYS
from companion.games.vnp.rules import (
    COLOURS,
    PIECES,
    Board,
    Event,
    Placed,
    apply,
    geometry,
    is_over,
    make_config,
    new_game,
    side_scores,
    winners,
)
from companion.games.vnp.rules.board import PASS, nth_bit, tables
from companion.games.vnp.sim import Habits, VnpSim, make_setup
from companion.lab.model import GameRecord, Variant
from companion.lab.variants import load_lab
from companion.rules.errors import IllegalAction
from tests.lab.refusals import refused


def variant(
    players: int, bots: Sequence[str], rules: dict[str, Any] | None = None, seed: int = 7
) -> Variant:
    return Variant("v", "vnp", players, tuple(bots), 10, seed, rules or {})


def table_events(v: Variant, index: int) -> list[Event]:
    """Game `index` of the variant as a table plays it: the engine's `apply`, each seat's
    bot as a table seats it (`bots.make_bot`), the lab's seating and rngs."""
    sit = seating(v, index)
    bots = [make_bot(kind) for kind in v.bots]
    state, opening = new_game(sit.config, 0)
    events = list(opening)
    while not is_over(state):
        seat = sit.seats[state.turn]
        state, happened = apply(state, bots[seat](state, sit.rngs[seat]))
        events.extend(happened)
    return events


# ---------------------------------------------------------------- the table's game

L, R = "largest", "random"
TABLE_GAMES: list[tuple[Variant, int]] = [
    # (variant, games): both modes (and teams), both crossings, bot mixes, board sizes and
    # custom starts (VNP-2, VNP-4, VNP-7).
    (variant(4, [L] * 4), 2),
    (variant(2, [L, R], {"crossing": "strict"}), 2),
    (variant(4, [R, L, L, R], {"mode": "teams", "size": 9}), 6),
    (variant(4, [R, L, R, R], {"size": 7, "starts": [[1, 1], [5, 1], [5, 5], [1, 5]]}), 10),
    (variant(2, [L, R], {"size": 5, "crossing": "strict"}), 20),
    (variant(2, [L, L], {"size": 15}), 1),  # colours placing all (VNP-6) are skipped
]


@pytest.mark.parametrize(
    ("v", "count"), TABLE_GAMES, ids=[f"{v.players}p-{v.bots}-{v.rules}" for v, _ in TABLE_GAMES]
)
def test_the_lab_plays_the_game_the_tables_bots_play(v: Variant, count: int) -> None:
    """The lab's game i is the one the engine plays with the table's bots seated and seeded
    as the lab seats them, and its record (from the board's turns) is the one a journal
    of that game gives (`record_of`, from the events)."""
    LAB.check(v)
    for index in range(count):
        events = [e.to_json() for e in table_events(v, index)]
        expected = record_of(v.players, index % v.players, events)
        assert replace(LAB.play(v, index), choices=(0, 0)) == expected, index


def test_the_board_refuses_what_the_rules_refuse() -> None:
    board = Board(make_config())
    start = geometry(13).point_id((2, 2))
    elsewhere = next(
        pid for pid, p in enumerate(geometry(13).placements) if not p.point_mask >> start & 1
    )
    with pytest.raises(IllegalAction, match="VNP-3"):
        board.place(elsewhere)  # VNP-3: jaune's first piece must touch its start
    with pytest.raises(IllegalAction, match="VNP-5"):
        board.pass_turn()
    legal = board.legal(0)
    board.place(nth_bit(legal, 0))
    assert board.turn == 1 and board.placed[0] == [nth_bit(legal, 0)]


def test_nth_bit_is_the_kth_smallest_id() -> None:
    rng = random.Random(3)
    for _ in range(200):
        ids = sorted(rng.sample(range(20_000), rng.randint(1, 300)))
        bits = sum(1 << i for i in ids)
        k = rng.randrange(len(ids))
        assert nth_bit(bits, k) == ids[k]


@pytest.mark.parametrize("bots", [[R, R], [L, L], [L, R]])
def test_a_decisions_choices_are_its_legal_placements(bots: list[str]) -> None:
    """The branching figure: every decision's legal placements, summed (a forced pass is no
    choice), whatever each bot counted of them while choosing."""
    v = variant(2, bots, {"size": 6})
    sit = seating(v, 0)
    state, _ = new_game(sit.config, 0)
    bots = [make_bot(kind) for kind in v.bots]
    total = moves = 0
    while not is_over(state):
        seat = sit.seats[state.turn]
        if legal := state.legal(state.turn):
            total, moves = total + legal.bit_count(), moves + 1
        state, _ = apply(state, bots[seat](state, sit.rngs[seat]))
    assert LAB.play(v, 0).choices == (total, moves) and moves > 4


def test_each_bot_counts_every_legal_placement_and_playouts_draw_the_same() -> None:
    """A bot's `Choice` says how many placements were legal, of every size, as it draws
    among them (`bots.Choice`); the thinking bot's playouts draw the largest bot's placement
    without that count."""
    drawn = set()
    for index in range(3):
        board = Board(make_config(size=9))
        rng = random.Random(index)
        while not board.over:
            legal = board.legal(board.turn)
            for bot in BOTS.values():
                assert bot(board, legal, random.Random(0))[1] == legal.bit_count()
            pid = largest_placement(board, legal, random.Random(0))
            assert largest_bot(board, legal, random.Random(0))[0] == pid
            drawn.add(PIECES[board.tables.piece_of[pid]].size if pid != PASS else 0)
            board.play(random_bot(board, legal, rng)[0], legal)
    assert drawn == {0, 1, 2, 3, 4}  # every size drawn, and a pass


def test_first_seat_rotates_and_each_seat_plays_its_colours() -> None:
    four, two = variant(4, [L] * 4), variant(2, [L, L])
    assert [LAB.play(four, i).first for i in range(4)] == [0, 1, 2, 3]
    assert colour_seats(config_of(four), 1) == (1, 2, 3, 0)  # clockwise from jaune
    assert colour_seats(config_of(two), 0) == (0, 1, 0, 1)  # VNP-7: jaune + rouge
    assert colour_seats(config_of(two), 1) == (1, 0, 1, 0)  # the table's seating
    assert LAB.play(four, 5) == LAB.play(four, 5)  # seeded from (seed, index) alone


# --------------------------------------------------------------------- record_of


def placed(
    colour: str, piece: str, segments: list[list[list[int]]], pid: int = 0
) -> dict[str, Any]:
    return {"kind": "placed", "colour": colour, "placement": pid, "piece": piece,
            "segments": segments}  # fmt: skip


def passed(colour: str) -> dict[str, Any]:
    return {"kind": "passed", "colour": colour}


def test_record_of_a_hand_checked_game() -> None:
    """On a 5 x 5 board every start is (2, 2). Jaune puts 1a from it; bleu's first piece, a
    straight 2a, goes straight through (2, 2), which jaune touches (VNP-3: its first piece
    touches another colour's; VNP-4: they meet inside bleu's piece). Rouge and vert pass;
    jaune places 2b; bleu passes; jaune, whose turn comes back after rouge and vert are
    skipped (VNP-2: twice), passes. Four players, seat 2 plays jaune."""
    events = [
        placed("jaune", "1a", [[[2, 2], [3, 2]]]),
        placed("bleu", "2a", [[[2, 1], [2, 2]], [[2, 2], [2, 3]]]),
        passed("rouge"),
        passed("vert"),
        placed("jaune", "2b", [[[3, 2], [4, 2]], [[4, 2], [4, 3]]]),
        passed("bleu"),
        passed("jaune"),
        {
            "kind": "game_over",
            "scores": [81, 82, 84, 84],
            "side_scores": [81, 82, 84, 84],
            "winners": [0],
        },  # fmt: skip
    ]
    record = record_of(4, 2, events)
    assert record.first == 2 and record.players == 4
    assert record.winners == (2,)  # jaune's seat
    assert record.finished and record.actions == 7 and record.manches == (7,)
    c = record.counts
    assert (c["placements"], c["passes"], c["all_placed"], c["blocked_start"]) == (3, 4, 0, 2)
    assert (c["left:jaune"], c["left:bleu"], c["left:rouge"], c["left:vert"]) == (22, 23, 24, 24)
    assert (c["score:jaune"], c["side:bleu"], c["winning_score"], c["margin"]) == (81, 82, 81, 1)
    assert (c["won:jaune"], c["won:bleu"], c["tied"]) == (1, 0, 0)
    assert record.seat_counts["left"] == (24, 24, 22, 23)  # seats 0..3: rouge, vert, jaune, bleu
    assert record.seat_counts["passes"] == (1, 1, 1, 1)
    assert record.rulings == {"VNP-2": 2, "VNP-3": 1, "VNP-4": 1, "VNP-5": 4}


def test_record_of_two_players_and_teams_adds_the_sides() -> None:
    """VNP-7: seat 1 plays bleu + vert when seat 0 plays jaune; the side scores are the
    engine's. Jaune has the best colour score but its side loses on the sum (VNP-7)."""
    events = [
        placed("jaune", "4a", [[[x, 0], [x + 1, 0]] for x in range(4)]),
        passed("bleu"),
        passed("rouge"),
        passed("vert"),
        passed("jaune"),
        {
            "kind": "game_over",
            "scores": [80, 81, 84, 82],
            "side_scores": [163, 164],
            "winners": [0],
        },  # fmt: skip
    ]
    two = record_of(2, 0, events)
    assert two.winners == (1,)  # bleu + vert: side 0, played by seat 1
    assert two.seat_counts["score"] == (164, 163) == two.seat_counts["side_score"]
    assert two.counts["side:jaune"] == 164 and two.counts["won:vert"] == 1
    assert two.rulings["VNP-7"] == 1
    teams = record_of(4, 1, events)  # seats 1, 2, 3, 0 play jaune, bleu, rouge, vert
    assert teams.winners == (0, 2)  # the bleu + vert team
    assert teams.seat_counts["score"] == (82, 80, 81, 84)
    assert teams.seat_counts["side_score"] == (163, 164, 163, 164)
    assert teams.rulings["VNP-7"] == 1


def test_a_colour_placing_all_counts_the_bonus() -> None:
    """VNP-6: the 24th placement of a colour: -10, and the ruling's count moves."""
    events = [placed("vert", p.name, [[[0, 0], [1, 0]]] * p.size) for p in PIECES]
    record = record_of(4, 0, events)
    assert record.counts["all_placed:vert"] == 1 and record.counts["left:vert"] == 0
    assert record.rulings.get("VNP-6") == 1
    assert not record.finished and record.winners == ()
    short = record_of(4, 0, events[:-1])
    assert "VNP-6" not in short.rulings and short.counts["left:vert"] == 1


def test_record_of_a_refereed_journal_reads_its_seats_and_its_undos() -> None:
    """A simulated table (people's slips: placements taken back with `back`, refused
    presses) gives the record of the game it ended with; the journal's seats are read,
    whatever first seat the caller gives."""
    setup = make_setup(3, 2, first=0, rules={"size": 7})
    result = VnpSim(setup, bots=[R, L], habits=Habits.clumsy()).run()
    assert result.referee is not None
    journal = result.referee.events
    assert any(e["kind"] == "undo" for e in journal)
    engine = [e.to_json() for e in result.referee.log]
    config = result.referee.config
    expected = record_of(2, config.seat_of(0), engine)
    assert record_of(2, 0, journal) == expected
    assert expected.first == 1  # VNP-7: seat 1 (jaune + rouge) plays first at a table
    state = result.referee.state
    assert expected.winners == winners(state)  # mode two: the sides are the seats
    assert expected.seat_counts["score"] == side_scores(state)


# ----------------------------------------------------------------- ruling counts


def first_game(v: Variant, ruling: str, limit: int = 50) -> tuple[int, GameRecord]:
    for index in range(limit):
        record = LAB.play(v, index)
        if record.rulings.get(ruling):
            return index, record
    raise AssertionError(f"no game of {limit} applied {ruling}")


def test_vnp4_counts_meetings_inside_a_piece_only_under_nexos() -> None:
    """VNP-4: a seeded game where a piece meets another inside one of them; the count is
    each such placement (checked on the readable engine's masks), and the strict reading,
    which forbids it, never counts one."""
    v = variant(4, [R] * 4)
    index, record = first_game(v, "VNP-4")
    g = geometry(13)
    touched = inner = meetings = 0
    for event in table_events(v, index):
        if isinstance(event, Placed):
            pid = event.placement
            meetings += bool(g.point_masks[pid] & inner or g.inner_masks[pid] & touched)
            touched |= g.point_masks[pid]
            inner |= g.inner_masks[pid]
    assert record.rulings["VNP-4"] == meetings > 0
    strict = variant(4, [R] * 4, {"crossing": "strict"})
    assert all("VNP-4" not in LAB.play(strict, i).rulings for i in range(30))


def test_vnp3_counts_first_pieces_at_a_start_another_colour_reached() -> None:
    """VNP-3: on a 5 x 5 board the four starts are one intersection, so every colour's
    first piece after jaune's touches it; on 13 x 13 the starts are far apart."""
    small = LAB.play(variant(4, [L] * 4, {"size": 5}), 0)
    firsts = sum(small.counts[f"left:{c}"] < len(PIECES) for c in COLOURS)
    assert small.rulings["VNP-3"] == firsts - 1 > 0
    assert all("VNP-3" not in LAB.play(variant(4, [L] * 4), i).rulings for i in range(10))


def test_vnp6_all_placed_on_a_big_board() -> None:
    """VNP-6: on a 15 x 15 board the largest-first bots place all their pieces: -10."""
    record = LAB.play(variant(4, [L] * 4, {"size": 15}), 0)
    assert record.rulings.get("VNP-6", 0) == record.counts["all_placed"] > 0
    done = [c for c in COLOURS if record.counts[f"all_placed:{c}"]]
    assert all(record.counts[f"score:{c}"] == -10 for c in done)


def test_vnp7_is_counted_only_when_the_sum_beats_the_best_colour() -> None:
    v = variant(2, [R, R], {"size": 9})
    _, record = first_game(v, "VNP-7")
    best = min(record.counts[f"score:{c}"] for c in COLOURS)
    assert all(
        record.counts[f"won:{c}"] == 0 for c in COLOURS if record.counts[f"score:{c}"] == best
    )
    four = [LAB.play(variant(4, [R] * 4, {"size": 9}), i) for i in range(10)]
    assert all("VNP-7" not in r.rulings for r in four)  # one colour a side: no sum


def test_every_counted_ruling_is_listed() -> None:
    records = [LAB.play(variant(4, [R] * 4, {"size": 5}), i) for i in range(20)]
    assert {k for r in records for k in r.rulings} <= set(RULINGS)
    assert set(RULINGS) <= {f"VNP-{n}" for n in range(1, 8)}


# -------------------------------------------------------------------------- check


@pytest.mark.parametrize(
    ("players", "bots", "rules", "kind", "named"),
    [
        (3, [L] * 3, {}, "players", ["Vous ne passerez pas !", "`3`"]),
        (4, [L, L, "clever", L], {}, "unknown_bot", ['`"clever"`']),
        (2, [L], {}, "bots_count", ["(2)", " 1"]),
        (4, [L] * 4, {"colours": 3}, "unknown_rule", ["`colours`", "`size`, `starts`"]),
        (4, [L] * 4, {"size": "13"}, "whole_between", ["`size`", " 5 ", " 40", '`"13"`']),
        (4, [L] * 4, {"size": 4}, "whole_between", ["`size`", "`4`"]),
        (4, [L] * 4, {"size": True}, "whole_between", ["`size`", "`true`"]),
        (4, [L] * 4, {"crossing": "over"}, "one_of", ['`"nexos"`', '`"strict"`', '`"over"`']),
        (4, [L] * 4, {"mode": "two"}, "mode_players", ['`"two"`', " 2 ", "`4`"]),
        (2, [L, L], {"mode": "teams"}, "mode_players", ['`"teams"`', " 4 ", "`2`"]),
        (2, [L, L], {"mode": 2}, "one_of", ['`"four"`', '`"two"`', '`"teams"`', "`2`"]),
        (4, [L] * 4, {"starts": [[2, 2]]}, "starts", ["`starts`", "`[[2, 2]]`"]),
        (4, [L] * 4, {"size": 7, "starts": [[2, 2], [9, 2], [4, 4], [2, 4]]}, "starts",
         ["7 × 7"]),
        (4, [L] * 4, {"undo_placement": "yes"}, "true_or_false",
         ["`undo_placement`", '`"yes"`']),
    ],
)  # fmt: skip
def test_check_names_the_bad_setting(
    players: int, bots: list[str], rules: dict[str, Any], kind: str, named: list[str]
) -> None:
    assert refused(LAB.check, variant(players, bots, rules), named) == kind


def test_check_accepts_the_tables_rules_keys() -> None:
    assert set(RULE_KEYS) == {*REFEREE_RULE_KEYS, *TABLE_KEYS}
    rules = {"size": 9, "starts": [[2, 2], [6, 2], [6, 6], [2, 6]], "crossing": "strict",
             "mode": "teams", "undo_placement": False}  # fmt: skip
    LAB.check(variant(4, [L, R, L, R], rules))
    assert config_of(variant(4, [L] * 4, rules)).starts[1] == (6, 2)
    assert any("undo_placement" in note for note in LAB.notes(variant(4, [L] * 4, rules)))


def test_notes_say_the_board_cannot_hold_every_piece() -> None:
    (note,) = LAB.notes(variant(4, [L] * 4))
    assert "312 unit segments" in note and "at least 24 segments" in note
    assert not LAB.notes(variant(4, [L] * 4, {"size": 20}))


def test_the_descriptor_gives_the_lab() -> None:
    lab = games.get("vnp").lab
    assert lab is not None and lab() is LAB and load_lab("vnp") is LAB
    assert tables(13, config_of(variant(4, [L] * 4)).crossing).count == len(geometry(13).placements)
