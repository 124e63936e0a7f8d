"""PtiPassPass and PhiPassPass in the lab: a lab game (played on the engine's board,
counted as it goes) reads back from its events into the same record, and the records say
what the rules say happened.

COMPANION_LAB_DIFF_GAMES scales the read-back test's games (default 14: 952 games, a few
seconds); `COMPANION_LAB_DIFF_GAMES=500 .venv/bin/pytest
tests/games/passpass/lab/test_passpass.py -k reads_back -n 2` plays 34,000.

Seats are 0-based and clockwise; with 3 players the hats are a 3 x 3 grid numbered 1..9
in reading order (PTI-2).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import pytest

from companion import games
from companion.games.passpass.lab import (
    EDITIONS,
    PHI_LAB,
    PTI_LAB,
    config_of,
    play_reference,
    reference_events,
)
from companion.games.passpass.rules import (
    Action,
    Announce,
    Call,
    Challenge,
    CloseWindow,
    Designate,
    Pass,
    Reveal,
    RewardDrop,
    RewardToken,
    State,
    Swap,
    apply,
    make_config,
    new_game,
)
from companion.games.passpass.rules.board import OVER, Board
from companion.games.passpass.tally import Tally, to_record
from companion.lab.model import Lead, Mean, PerSeat, Rate, Variant
from tests.lab.refusals import refused

GAMES = int(os.environ.get("COMPANION_LAB_DIFF_GAMES", "14"))
"""Games per unit of a variant's weight in the read-back test (68 units in all)."""
DOUBLON, MENTEUR = Challenge.DOUBLON, Challenge.MENTEUR
H, R = "heuristic", "random"
LABS = {"ptipasspass": PTI_LAB, "phipasspass": PHI_LAB}


def variant(game: str, bots: tuple[str, ...], games: int = 10, seed: int = 7, **rules: Any):
    return Variant("v", game, len(bots), bots, games, seed, rules)


# ------------------------------------------- the lab's games read back from their events

WEIGHTED = [  # (variant, games per COMPANION_LAB_DIFF_GAMES unit): cheap games weigh more
    (variant("ptipasspass", (H, H, H)), 16),
    (variant("ptipasspass", (H, H, H, H)), 12),
    (variant("ptipasspass", (H, R, H, R)), 4),
    (variant("ptipasspass", (R, H, H, H, H)), 4),
    (variant("ptipasspass", (H, H, R, H, H, R)), 2),
    (variant("ptipasspass", (R, R, R)), 1),
    (variant("ptipasspass", (H, H, H, H), window="timed"), 10),
    (variant("ptipasspass", (H, R, R, H, H), window="timed", next_starter="winner"), 2),
    (variant("ptipasspass", (H, H, H, H, H, H), turn_limit=30), 2),
    (variant("ptipasspass", (H, R, H), turn_limit=8, window="timed"), 1),
    (variant("phipasspass", (H, H, H)), 8),
    (variant("phipasspass", (H, H, R, H)), 1),
    (variant("phipasspass", (H, H, H, H, H)), 1),
    (variant("phipasspass", (H, H, H, H, H, H), window="timed"), 1),
    (variant("phipasspass", (R, H, H), window="timed", next_starter="winner"), 1),
    (variant("phipasspass", (H, H, H, H), turn_limit=40), 2),
]
VARIANTS = [v for v, _ in WEIGHTED]


@pytest.mark.parametrize(
    ("v", "weight"), WEIGHTED, ids=lambda x: f"{x.game}-{','.join(x.bots)}-{x.rules}"
    if isinstance(x, Variant) else str(x)
)  # fmt: skip
def test_a_lab_game_reads_back_from_its_events(v, weight):
    """The lab counts a game as its board plays it; a table's journal is read from its
    events: the same game, played by the same bots at table seats through the engine's
    `apply` (`play_reference`), gives the same record, figure for figure (the bots at a
    table's seats draw as the board's, the reader counts as the board's tally)."""
    lab = LABS[v.game]
    lab.check(v)
    for index in range(GAMES * weight):
        assert lab.play(v, index) == play_reference(v, index), index


def test_game_index_is_seeded_alone_and_the_first_player_rotates():
    v = variant("ptipasspass", (H, H, H, H), games=8)
    records = [PTI_LAB.play(v, i) for i in range(8)]
    assert [r.first for r in records] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert PTI_LAB.play(v, 5) == records[5]  # in any order
    assert PTI_LAB.play(replace(v, seed=8), 5) != records[5]
    assert len({(r.actions, r.manches) for r in records}) > 4  # different games


# ------------------------------------------------------------- record_of: figures by hand


def _script(config, actions: list[Action]) -> tuple[list[dict[str, Any]], Board, Tally]:
    """The engine's events of `actions` from the deal, and a board told to a tally after
    the same actions played as the lab plays them (by their codes)."""
    state, events = new_game(config, 0)[0], []
    tally = Tally(config.players)
    board = Board(config, tally)
    for action in actions:
        board.play(next(c for c in board.legal() if board.action(c) == action))
        state, made = apply(state, action)
        events += [e.to_json() for e in made]
    assert State.of(board.fork()) == state
    return events, board, tally


PTI_OPENING = [
    # Turn 1, seat 0, Masqué: a lapin into hat 5 announced as a souris (PTI-6), caught by
    # seat 1's Menteur (PTI-9), who drops a colombe, shown, into hat 5 (PTI-10).
    Designate(0, 5, "lapin"), Announce(0, "souris"), Call(1, MENTEUR),
    RewardDrop(1, "colombe", 5),
    # Turn 2, seat 1: its lapin into hat 5, which holds the colombe (PTI-6): seat 2's
    # Doublon wins (PTI-8), seat 2 takes a Challenge token from seat 1 (PTI-10).
    Designate(1, 5, "lapin"), Announce(1, "lapin"), Call(2, DOUBLON), RewardToken(2),
    # Turn 3, seat 2: a souris into hat 1, truthfully; both others say OK (PTI-7).
    Designate(2, 1, "souris"), Announce(2, "souris"), Pass(0), Pass(1),
    # Turn 4, seat 0, tour 2, Visible (PTI-4): a colombe shown into the empty hat 2; seat 1
    # calls Doublon and is wrong: it takes the colombe and pays seat 0 a token (PTI-8).
    Designate(0, 2, "colombe"), Call(1, DOUBLON),
]  # fmt: skip


def test_record_of_a_ptipasspass_opening_counts_what_happened():
    config = make_config("ptipasspass", 3)
    events, board, tally = _script(config, PTI_OPENING)
    record = PTI_LAB.record_of(3, 0, events)
    c = record.counts
    assert (record.players, record.first, record.finished, record.winners) == (3, 0, False, ())
    assert record.actions == len(PTI_OPENING) == 14
    assert record.manches == ()  # the first manche is still going
    assert (c["placements"], c["masque_placements"], c["visible_placements"]) == (4, 3, 1)
    assert c["occupied_drops"] == 1  # turn 2, into hat 5
    assert (c["doublon_calls"], c["doublon_wins"], c["menteur_calls"], c["menteur_wins"]) == (
        2, 1, 1, 1)  # fmt: skip
    assert (c["masque_calls"], c["masque_wins"], c["visible_calls"], c["visible_wins"]) == (
        2, 2, 1, 0)  # fmt: skip
    assert c["calls"] == 3
    assert (c["reward_drop"], c["reward_token"], c["reward_none"]) == (1, 1, 0)
    assert record.seat_counts["calls"] == (0, 2, 1)
    assert record.seat_counts["call_wins"] == (0, 1, 1)
    assert record.rulings == {"PTI-4": 1, "PTI-6": 1}
    # The board's tally, playing the same actions, counted the same.
    assert PTI_LAB.record_of(3, 0, events) == _lab_record(board, tally, len(PTI_OPENING))


def _lab_record(board: Board, tally: Tally, actions: int):
    """The record the lab builds from what the board told its tally."""
    winner = board.winner if board.phase is OVER else None
    return to_record(EDITIONS[board.config.rules.name], tally, 0, winner, actions)


def _phi_first_manche() -> list[Action]:
    """PhiPassPass, 3 seats, timed windows nobody calls in: seat s's k-th token (its hand
    in order: bleu, orange, vert) goes into hat 3k + s + 1, so row k holds three of kind k.
    Then seat 0, hand empty, swaps hats 1 and 4 and reveals the first column: orange,
    bleu, vert, all different (PTI-11)."""
    actions: list[Action] = []
    for turn in range(9):
        seat, kind = turn % 3, ("bleu", "orange", "vert")[turn // 3]
        actions += [Designate(seat, turn + 1, kind), CloseWindow(), Announce(seat, kind),
                    CloseWindow()]  # fmt: skip
    return actions + [Swap(0, 1, 4), Reveal(0, (1, 4, 7))]


def test_record_of_a_phipasspass_manche_counts_timed_windows_swap_and_reveal():
    config = make_config("phipasspass", 3, window="timed")
    actions = _phi_first_manche()
    events, board, tally = _script(config, actions)
    assert not any(e["kind"] == "ok" for e in events)  # the clock closed every window
    record = PHI_LAB.record_of(3, 0, events)
    c = record.counts
    assert record.actions == len(actions) == 38  # both windows of each turn were closed
    assert record.manches == (10,)  # nine placements, then the reveal in the tenth turn
    assert (c["placements"], c["occupied_drops"], c["calls"]) == (9, 0, 0)
    assert (c["reveals"], c["reveal_wins"], c["swaps"]) == (1, 1, 1)
    assert (c["swap_reveals"], c["swap_reveal_wins"]) == (1, 1)
    assert record.seat_counts["manche_wins"] == (1, 0, 0)
    assert record.rulings == {"PTI-5": 1}  # one pick per hat: no best pick to take
    assert "visible_calls" not in c and "reward_drop" not in c  # PHI-1, PHI-5
    # The lead's story: seat 0 won a manche with the 38th action, its reveal (the lab's
    # self-play marks it as it plays, not the board these actions were played on).
    assert record.leads == (Lead(38, (1.0, 0.0, 0.0)),)
    assert replace(record, leads=()) == _lab_record(board, tally, len(actions))


def test_record_of_reads_a_journal_skipping_table_events_and_undone_steps():
    """A referee journals table events between the engine's, with times; `back` takes
    back a step that made no public fact (an undo names it), which then counts for
    nothing."""
    config = make_config("ptipasspass", 3)
    events, _, _ = _script(config, PTI_OPENING)
    clean = PTI_LAB.record_of(3, 0, events)
    second = next(i for i, e in enumerate(events) if e["kind"] == "designate" and e["seat"] == 1)
    journal = [{"t": 0.5 * i, **e} for i, e in enumerate(events)]
    journal[second:second] = [
        {"t": 9.0, "kind": "designate", "seat": 1, "spot": 2, "shown": None},
        {"t": 9.1, "kind": "fault", "spot": 2, "reason": "extra_tag"},
        {"t": 9.2, "kind": "undo", "step": "designate"},
        {"t": 9.3, "kind": "fixed"},
        {"t": 9.4, "kind": "undo", "step": "announce"},  # a held announcement cancelled
        {"t": 9.5, "kind": "ignored", "control": "doublon", "seat": 2, "reason": "not_now"},
    ]
    assert PTI_LAB.record_of(3, 0, journal) == clean
    undone_swap = [*events, {"kind": "swap", "seat": 1, "spots": [1, 2]}, {"kind": "undo",
                   "step": "swap"}]  # fmt: skip
    assert PTI_LAB.record_of(3, 0, undone_swap) == clean
    # An undo never reaches behind a public fact (here the last verdict).
    assert PTI_LAB.record_of(3, 0, [*events, {"kind": "undo", "step": "designate"}]) == clean


# ---------------------------------------------------- rulings: the counts move when it happens


def test_pti_15_void_manches_are_counted_and_told_apart():
    v = variant("ptipasspass", (H, H, H, H), turn_limit=6)
    record = PTI_LAB.play(v, 0)
    won = sum(record.seat_counts["manche_wins"])
    assert record.counts["limit_manches"] == len(record.manches) - won > won  # mostly void
    assert max(record.manches) == 6 and record.counts["dead_manches"] == 0
    assert record.rulings["PTI-15"] == record.counts["limit_manches"]
    assert "PTI-15" not in PTI_LAB.play(replace(v, rules={}), 0).rulings
    # A dead manche: every hand empty and no three hats can win (events built by hand).
    void = [{"kind": "manche_void", "reason": "no three hats can ever win"},
            {"kind": "manche_start", "manche": 2, "starter": 1}]  # fmt: skip
    record = PTI_LAB.record_of(3, 0, void)
    assert (record.counts["dead_manches"], record.counts["limit_manches"]) == (1, 0)
    assert record.rulings == {"PTI-15": 1} and record.manches == (1,)


def test_pti_7_calls_together_count_only_in_timed_windows():
    timed = variant("ptipasspass", (H, H, H, H, H), window="timed")
    together = [PTI_LAB.play(timed, i).rulings.get("PTI-7", 0) for i in range(30)]
    assert sum(together) > 0
    round_ = replace(timed, rules={})
    assert all("PTI-7" not in PTI_LAB.play(round_, i).rulings for i in range(30))
    phi = variant("phipasspass", (H, H, H, H), window="timed")
    assert sum(PHI_LAB.play(phi, i).rulings.get("PHI-2", 0) for i in range(20)) > 0


def test_pti_10_a_successful_challenger_with_no_reward_possible_is_counted():
    """Two seats. Seat 0 twice challenges seat 1 wrongly: it takes seat 1's token and pays
    its Challenge tokens (PTI-8, PTI-9), so seat 1's hand empties in three turns and seat 0
    has no token left. Then seat 1 catches seat 0's Doublon: nothing to drop, no token to
    take, so no reward (PTI-10)."""
    actions: list[Action] = [
        Designate(0, 1, "colombe"), Announce(0, "colombe"), Pass(1),
        Designate(1, 2, "colombe"), Announce(1, "colombe"), Call(0, MENTEUR),  # wrong
        Designate(0, 3, "lapin"), Pass(1),  # tour 2, Visible
        Designate(1, 4, "lapin"), Call(0, DOUBLON),  # hat 4 was empty: wrong
        Designate(0, 5, "souris"), Announce(0, "souris"), Pass(1),
        Designate(1, 6, "souris"), Announce(1, "souris"),  # seat 0 may not call (PTI-7)
        Designate(0, 1, "colombe"), Call(1, DOUBLON),  # tour 4, Visible; hat 1 is occupied
    ]  # fmt: skip
    events, board, tally = _script(make_config("ptipasspass", 2), actions)
    assert events[-2:] == [
        {"kind": "reward", "seat": 1, "choice": "none", "token": None, "spot": None},
        {"kind": "turn", "seat": 1, "tour": 4, "masque": False, "phase": "reveal"},  # PTI-5
    ]
    record = PTI_LAB.record_of(2, 0, events)
    assert record.rulings["PTI-10"] == record.counts["reward_none"] == 1
    assert record.rulings["PTI-6"] == 1  # the last drop, into hat 1
    assert record.actions == len(actions)  # no clock closed the window nobody could call in
    assert record.seat_counts["calls"] == (2, 1) and record.seat_counts["call_wins"] == (0, 1)
    assert record == _lab_record(board, tally, len(actions))


def test_every_ruling_the_lab_counts_applies_in_seeded_games():
    """Each special case the report lists happens in bot games of some variant (so the
    count is wired to something that moves), and never in one where it cannot."""
    seen: dict[str, int] = {}
    for v in [
        variant("ptipasspass", (H, H, H, H), window="timed"),
        variant("ptipasspass", (R, H, R, H)),
        variant("phipasspass", (H, H, H, H), window="timed", turn_limit=40),
    ]:
        for i in range(40):
            for ruling, times in LABS[v.game].play(v, i).rulings.items():
                seen[ruling] = seen.get(ruling, 0) + times
    assert set(seen) == set(PTI_LAB.rulings) | set(PHI_LAB.rulings)
    phi = variant("phipasspass", (H, H, H))
    assert not {"PTI-4", "PTI-10"} & set(PHI_LAB.play(phi, 0).rulings)  # PHI-1, PHI-5


# ------------------------------------------------------------------------ check and wiring


@pytest.mark.parametrize(
    ("game", "bots", "rules", "kind", "named"),
    [
        ("ptipasspass", (H,) * 7, {}, "players", ["PtiPassPass", " 2 ", " 6 ", "`7`"]),
        ("phipasspass", (H, H), {}, "players", ["PhiPassPass", " 3 ", " 6 ", "`2`"]),
        ("ptipasspass", (H, "genius", H), {}, "unknown_bot",
         ['`"genius"`', "`heuristic`, `random`"]),
        ("ptipasspass", (H, H, H), {"turns": 3}, "unknown_rule",
         ["`turns`", "`window`, `next_starter`, `turn_limit`"]),
        ("ptipasspass", (H, H, H), {"window": "slow"}, "one_of",
         ["`window`", '`"round"`', '`"timed"`', '`"slow"`']),
        ("ptipasspass", (H, H, H), {"window": 1}, "one_of", ["`window`", "`1`"]),
        ("phipasspass", (H, H, H), {"next_starter": "loser"}, "one_of",
         ['`"left_of_winner"`', '`"winner"`']),
        ("ptipasspass", (H, H, H), {"turn_limit": 0}, "whole_least", ["`turn_limit`", " 1", "`0`"]),
        ("ptipasspass", (H, H, H), {"turn_limit": "30"}, "whole_least", ["`turn_limit`", '`"30"`']),
        ("ptipasspass", (H, H, H), {"turn_limit": True}, "whole_least", ["`turn_limit`", "`true`"]),
    ],
)  # fmt: skip
def test_check_refuses_with_one_sentence_naming_the_setting(game, bots, rules, kind, named):
    variant = Variant("v", game, len(bots), bots, 10, 1, rules)
    assert refused(LABS[game].check, variant, named) == kind


def test_check_refuses_a_bot_count_that_is_not_the_seat_count_and_another_game():
    assert refused(PTI_LAB.check, Variant("v", "ptipasspass", 4, (H, R), 10, 1), ["(4)", " 2"]) == (
        "bots_count"
    )
    other = Variant("v", "ptipasspass", 4, (H,) * 4, 10, 1)
    assert refused(PHI_LAB.check, other, ["PhiPassPass", '`"ptipasspass"`']) == "other_game"
    PTI_LAB.check(variant("ptipasspass", (H, R), window="timed", next_starter="winner",
                          turn_limit=30))  # fmt: skip


def test_descriptors_give_the_labs_and_the_sections_name_recorded_figures():
    assert games.get("ptipasspass").lab() is PTI_LAB
    assert games.get("phipasspass").lab() is PHI_LAB
    for lab, bots in ((PTI_LAB, (H, H, H)), (PHI_LAB, (H, H, H))):
        v = variant(lab.game, bots)
        record = lab.play(v, 0)
        for section in lab.sections:
            for row in section.rows:
                if isinstance(row, Mean):
                    assert row.key in record.counts
                elif isinstance(row, Rate):
                    assert {row.hits, row.trials} <= set(record.counts)
                elif isinstance(row, PerSeat):
                    assert len(record.seat_counts[row.key]) == 3
        assert set(record.rulings) <= set(lab.rulings)
        assert lab.notes(v) and "9 hats" in lab.notes(v)[0]
    assert config_of(variant("ptipasspass", (H, H, H), turn_limit=5), 4).first == 1


@pytest.mark.parametrize("game", ["ptipasspass", "phipasspass"])
@pytest.mark.parametrize("window", ["round", "timed"])
def test_decisions_count_every_choice_and_no_ok_nor_silent_window(game, window):
    """A game's length in decisions is the same whatever the window's mode: the hat, the
    animal announced, each challenge, reward, swap and reveal; never an OK of the round nor
    the silence that closes a timed window (which the engine counts as actions)."""
    from companion.games.passpass.lab import decisions

    lab = LABS[game]
    v = variant(game, (H, R, H, H), window=window)
    made = {"designate", "announce", "verdict", "swap", "reveal"}
    for index in range(6):
        _, events = reference_events(v, index)
        chosen = sum(e["kind"] in made for e in events)
        chosen += sum(e["kind"] == "reward" and e["choice"] != "none" for e in events)
        record = lab.play(v, index)
        assert decisions(record) == chosen
        oks = sum(e["kind"] == "ok" for e in events)
        assert record.actions >= chosen + oks  # the engine's actions count the OKs...
        assert record.actions > chosen  # ... or the silent windows the clock closed
