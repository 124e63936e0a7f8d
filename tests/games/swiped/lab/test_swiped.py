"""Swiped in the lab: a lab game (the bots on the engine's board, counted as it plays) is
the game a table plays (the engine's `apply`, the bots asked through a `Decider`, the
record read back from its events), and the record says what the rules say happened.

`test_a_lab_game_is_the_table_s_game` plays `COMPANION_LAB_DIFF_GAMES` games per variant
when it is set (e.g. 2000; run with `-n 2`), else a count that keeps the suite fast.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from companion import games
from companion.games.swiped import tally as keys
from companion.games.swiped.deduce import deck_of, row, swapped
from companion.games.swiped.lab import (
    LAB,
    RULE_KEYS,
    RULINGS,
    TABLE_KEYS,
    config_of,
    play_reference,
    record_of,
    settings_of,
)
from companion.games.swiped.referee import MID_SWAP
from companion.games.swiped.referee import RULE_KEYS as REFEREE_RULE_KEYS
from companion.games.swiped.referee import TABLE_KEYS as REFEREE_TABLE_KEYS
from companion.games.swiped.rules import COLOURS, PAIRS, Phase, make_config
from companion.games.swiped.rules.board import SWAPS, Board, positions
from companion.games.swiped.sim import SwipedSim, make_setup
from companion.lab.model import Variant
from companion.lab.variants import load_lab, parse_variants
from tests.lab.refusals import refused

D, R = "deducing", "random"


def variant(bots: Sequence[str], rules: Mapping[str, Any] | None = None, seed: int = 7) -> Variant:
    return Variant("v", "swiped", 2, tuple(bots), 10, seed, dict(rules or {}))


# ------------------------------------------------------------------ the table's game

TABLE_GAMES: list[tuple[Variant, int]] = [
    # (variant, games by default): every bot mix, both SW-5 modes, the SW-6 limit, the
    # silent points of SW-5 (claims per gap, a claim before the first swap) and decks.
    (variant([D, D]), 60),
    (variant([D, D], {"false_claim": "refused"}, seed=8), 60),
    (variant([D, R], {"manche_limit": 4}), 30),
    (variant([R, D], {"false_claim": "refused", "claims_per_gap": 2}), 30),
    (variant([R, R], {"manche_limit": 3, "claim_before_first_swap": False}), 60),
    (variant([R, R], {"false_claim": "refused", "deck_size": 10}), 40),
    (variant([D, D], {"deck_size": 6, "deck_seed": 3, "claim_before_first_swap": False}), 60),
    (variant([D, R], {"deck_size": 40, "false_claim": "refused", "claims_per_gap": 3}), 10),
    (variant([D, D], {"manche_limit": 1, "deck_size": 12}), 60),
]


def _name(v: Variant) -> str:
    return "-".join([*v.bots, *(f"{k}={value}" for k, value in v.rules.items())])


@pytest.mark.parametrize(
    ("lab_variant", "default"), TABLE_GAMES, ids=[_name(v) for v, _ in TABLE_GAMES]
)
def test_a_lab_game_is_the_table_s_game(lab_variant: Variant, default: int) -> None:
    """The same bots on both: the board's watcher and the events' reader count alike,
    and the evidence the board feeds the deducing bots is the one the events tell."""
    count = int(os.environ.get("COMPANION_LAB_DIFF_GAMES", default))
    for index in range(count):
        assert LAB.play(lab_variant, index) == play_reference(lab_variant, index), index


def test_a_game_is_the_same_in_any_order() -> None:
    """Seeded from (seed, index) alone: the caches a worker fills change nothing."""
    v = variant([D, R], {"false_claim": "refused"}, seed=11)
    forward = [LAB.play(v, i) for i in range(30)]
    backward = [LAB.play(v, i) for i in reversed(range(30))][::-1]
    assert forward == backward
    assert [r.first for r in forward] == [i % 2 for i in range(30)]


def test_a_row_s_gains_are_the_matches_a_swap_wins_on_the_board() -> None:
    """SW-4, SW-5: the gain the deducing bot reads for each swap is the change in the
    matches of the card (the board's own count) when the board makes that swap, its grid
    after a swap is the board's, and its likelihoods of the 36 swaps sum to one, a swap
    gaining more being likelier."""
    rng = random.Random(5)
    config = make_config(deal="observed")  # any pair may be swapped (SW-4, a real table)
    deck = deck_of(config.deck_size, config.deck_seed)
    for _ in range(60):
        grid = tuple(rng.sample(range(9), 9))
        card, other = rng.sample(range(1, 25), 2)
        got = row(tuple(deck.cards[card - 1][s] for s in positions(grid)))
        for k in range(len(SWAPS)):
            board = Board.of(
                config=config, seed=0, manche=1, phase=Phase.EXECUTE, layout=None,
                targets=(card, other), grid=grid, programs=((), ()), revealed=None, step=0,
                gap_claims=(0, 0), winner=None, drawn=False, phase_pair=None,
            )  # fmt: skip
            before = board.matches(0)
            board.swap(0, k)
            assert got.gains[k] - 2 == board.matches(0) - before, (grid, card, PAIRS[k])
            assert swapped(grid, k) == board.grid
        likelihoods = [math.exp(got.log_likelihood(k)) for k in range(len(SWAPS))]
        assert sum(likelihoods) == pytest.approx(1)
        by_gain = sorted(range(len(SWAPS)), key=lambda k: got.gains[k])
        assert [likelihoods[k] for k in by_gain] == sorted(likelihoods)


# ------------------------------------------------------------------ the record


def _event(kind: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, **fields}


def _manche(manche: int, skip: bool = False, swaps: int = 6) -> list[dict[str, Any]]:
    """A seeded manche's events: programs, reveal, `swaps` swaps (the second of phase 1
    skipped when `skip`)."""
    events = [_event("manche_start", manche=manche, order=[0, 1, 1, 0, 0, 1])]
    events += [_event("programmed", seat=s, count=c) for c in (1, 2, 3) for s in (0, 1)]
    events.append(_event("programs_revealed", programs=[[["rouge", "bleu"]] * 3] * 2))
    for n in range(swaps):
        if skip and n == 1:
            events.append(_event("swap_skipped", seat=1, phase=1, colours=["rouge", "bleu"]))
        else:
            events.append(
                _event("swap", seat=0, phase=1, colours=["rouge", "bleu"], squares=[1, 2])
            )
    if swaps == 6:
        events.append(_event("manche_end", manche=manche))
    return events


def test_a_hand_checked_game_won_by_naming_the_card() -> None:
    # Manche 1 played out with one repeated pair (SW-4), then seat 1 names seat 0's card
    # after two swaps of manche 2 and is right (SW-5).
    events = _manche(1, skip=True) + _manche(2, swaps=2)
    events += [_event("claim", seat=1, claim="card", correct=True), _event("game_won", seat=1)]
    record = record_of(2, 0, events)
    assert record.winners == (1,) and record.finished and record.first == 0
    assert record.manches == (6, 2)  # a skipped swap is a turn too
    assert record.actions == 12 + 5 + 2 + 1  # programs, swaps applied, the claim
    c = record.counts
    assert (c[keys.SWAPS], c[keys.SKIPPED]) == (7, 1)
    assert (c[keys.CLAIMS], c[keys.CARD_CLAIMS], c[keys.CARD_RIGHT]) == (1, 1, 1)
    assert (c[keys.END_CARD], c[keys.WON], c[keys.WON_IN[1]]) == (1, 1, 1)
    assert keys.FALSE_CLAIMS not in c and keys.END_MATCHES not in c
    assert record.seat_counts[keys.SEAT_CARD] == (0, 1)
    assert record.rulings == {"SW-4": 1}


def test_false_claims_lost_refused_and_what_followed() -> None:
    # SW-5 as the book has it: a false "5 matches" loses the game for its claimant.
    lost = _manche(1, swaps=3) + [
        _event("claim", seat=0, claim="matches", correct=False),
        _event("game_won", seat=1),
    ]
    record = record_of(2, 1, lost)
    assert record.winners == (1,)
    c = record.counts
    assert (c[keys.FALSE_CLAIMS], c[keys.FALSE_LOST], c[keys.END_FALSE]) == (1, 1, 1)
    assert keys.FALSE_REFUSED not in c
    assert record.seat_counts[keys.SEAT_FALSE] == (1, 0)
    assert record.seat_counts[keys.SEAT_MATCHES] == (1, 0)
    assert record.rulings == {"SW-5": 1}
    # Refused (configurable): seat 0 is wrong twice, seat 1 once, then seat 0 wins.
    refused = _manche(1, swaps=1) + [
        _event("claim", seat=0, claim="card", correct=False),
        _event("claim", seat=1, claim="card", correct=False),
        _event("swap", seat=1, phase=1, colours=["rouge", "vert"], squares=[1, 4]),
        _event("claim", seat=0, claim="card", correct=False),
        _event("claim", seat=0, claim="matches", correct=True),
        _event("game_won", seat=0),
    ]
    record = record_of(2, 0, refused)
    c = record.counts
    assert (c[keys.FALSE_CLAIMS], c[keys.FALSE_REFUSED]) == (3, 3)
    assert (c[keys.FALSE_THEN_WON], c[keys.FALSE_THEN_LOST]) == (2, 1)
    assert (c[keys.END_MATCHES], c[keys.MATCHES_RIGHT]) == (1, 1)
    assert keys.FALSE_LOST not in c
    assert record.manches == (2,)
    assert record.rulings == {"SW-5": 3}


def test_a_draw_at_the_manche_limit() -> None:
    events = _manche(1) + _manche(2) + [_event("game_drawn", manches=2)]
    record = record_of(2, 0, events)
    assert record.winners == () and record.finished
    assert record.manches == (6, 6)
    assert record.counts[keys.END_DRAW] == 1 and keys.WON not in record.counts
    assert record.rulings == {"SW-6": 1}


def test_a_table_s_undone_steps_and_other_events_are_left_out() -> None:
    """An observed deal (SW-2): the table draws, skips are the seats' actions, `back`
    takes back swaps but never past a public fact (a verdict, a manche's end)."""
    swap = _event("swap", seat=0, phase=1, colours=["rouge", "bleu"], squares=[1, 2], t=3.0)
    events = [
        _event("layout", card=4, grid=list(COLOURS)),
        _event("placed"),
        _event("target", seat=0),
        _event("target", seat=1),
        _event("manche_start", manche=1, order=[0, 1, 1, 0, 0, 1]),
        swap,
        _event("undo", step="swap"),
        _event("fault", spot=3, reason="put_back"),
        swap,
        _event("swap_skipped", seat=1, phase=1, colours=["rouge", "bleu"]),
        _event("claim", seat=1, claim="card", correct=False),  # refused: seals the swaps
        _event("undo", step="skip"),  # refused by a referee; ignored here too
        _event("swap", seat=1, phase=2, colours=["jaune", "vert"], squares=[3, 4]),
        _event("undo", step="swap"),
        _event("guess", seat=0),
        _event("undo", step="guess"),
        _event("ignored", control="menteur", seat=0, reason="not_now"),
        _event("targets", cards=[5, 9]),
    ]
    record = record_of(2, 0, events)
    assert record.manches == (2,)
    assert record.counts[keys.SWAPS] == 1 and record.counts[keys.SKIPPED] == 1
    assert record.actions == 3 + 1 + 1 + 1  # the draws, the swap, the skip, the claim
    assert not record.finished and record.winners == ()
    assert record.counts[keys.FALSE_REFUSED] == 1


@pytest.mark.parametrize("mid_swap", MID_SWAP)
def test_a_refereed_game_has_the_record_of_the_game_it_played(mid_swap: str) -> None:
    """A simulated table (people, readers, the OBSERVED deal) journals events whose
    record is the seeded game's, but for the actions (the table draws; it has no
    programs); with claim_mid_swap "before" too, where people may press a claim as the
    next swap is made."""
    for seed in (3, 4):
        setup = make_setup(seed, rules={"claim_mid_swap": mid_swap})
        result = SwipedSim(setup, bots=["deducing", "random"]).run()
        assert result.referee is not None
        table = record_of(2, result.setup.first, result.referee.events)
        seeded = record_of(2, result.setup.first, [e.to_json() for e in result.decided])
        assert table.finished and table.winners == seeded.winners
        assert (table.manches, table.counts, table.rulings) == (
            seeded.manches,
            seeded.counts,
            seeded.rulings,
        )
        moves = sum(table.counts.get(k, 0) for k in (keys.SWAPS, keys.SKIPPED, keys.CLAIMS))
        assert table.actions == 3 + moves


# ------------------------------------------------------------------ rulings


def test_the_manche_limit_ruling_counts_draws() -> None:
    """SW-6: the same seeded games with a limit of one manche are drawn exactly when
    they outlast it."""
    unlimited = variant([R, R])
    limited = variant([R, R], {"manche_limit": 1})
    for index in range(20):
        free, cut = LAB.play(unlimited, index), LAB.play(limited, index)
        assert "SW-6" not in free.rulings
        outlasted = len(free.manches) > 1
        assert cut.rulings.get("SW-6", 0) == outlasted
        assert (cut.winners == ()) == outlasted


def test_the_repeated_pair_and_false_claim_rulings_count_what_happened() -> None:
    """SW-4 counts the skipped swaps, SW-5 the false claims, in the events' own terms."""
    v = variant([R, D], {"false_claim": "refused"}, seed=2)
    skipped = false = 0
    for index in range(40):
        record = play_reference(v, index)
        skipped += record.rulings.get("SW-4", 0)
        false += record.rulings.get("SW-5", 0)
        assert record.rulings.get("SW-4", 0) == record.counts.get(keys.SKIPPED, 0)
        assert record.rulings.get("SW-5", 0) == record.counts.get(keys.FALSE_REFUSED, 0)
    assert skipped > 0 and false > 0  # the situations came up, so the counts moved
    assert set(RULINGS) == {"SW-4", "SW-5", "SW-6"}


# ------------------------------------------------------------------ the variant


@pytest.mark.parametrize(
    ("players", "bots", "rules", "kind", "named"),
    [
        (3, [D, D, D], {}, "players", ["Swiped", "`3`"]),
        (2, [D, "clever"], {}, "unknown_bot", ['`"clever"`', "`deducing`, `random`"]),
        (2, [D], {}, "bots_count", ["(2)", " 1"]),
        (2, [D, R], {"turn_limit": 9}, "unknown_rule",
         ["`turn_limit`", "`deck_size`, `deck_seed`, `false_claim`, `manche_limit`, "
          "`claims_per_gap`, `claim_before_first_swap`, `claim_mid_swap`"]),
        (2, [D, R], {"deck_size": "24"}, "whole_between", ["`deck_size`", '`"24"`']),
        (2, [D, R], {"deck_size": 2}, "whole_between", ["`deck_size`", " 3 ", " 60", "`2`"]),
        (2, [D, R], {"deck_seed": 1.5}, "whole", ["`deck_seed`", "`1.5`"]),
        (2, [D, R], {"manche_limit": 0}, "whole_least", ["`manche_limit`", " 1", "`0`"]),
        (2, [D, R], {"claims_per_gap": True}, "whole_least", ["`claims_per_gap`", "`true`"]),
        (2, [D, R], {"false_claim": "forgiven"}, "one_of",
         ['`"loses"`', '`"refused"`', '`"forgiven"`']),
        (2, [D, R], {"claim_before_first_swap": 1}, "true_or_false",
         ["`claim_before_first_swap`", "`1`"]),
        (2, [D, R], {"claim_mid_swap": "never"}, "one_of", ['`"after"`', '`"before"`']),
    ],
)  # fmt: skip
def test_check_names_the_bad_setting(
    players: int, bots: list[str], rules: dict[str, Any], kind: str, named: list[str]
) -> None:
    variant = Variant("v", "swiped", players, tuple(bots), 10, 1, rules)
    assert refused(LAB.check, variant, named) == kind


def test_check_accepts_every_table_rule() -> None:
    rules = {
        "deck_size": 30,
        "deck_seed": 2,
        "false_claim": "refused",
        "manche_limit": 5,
        "claims_per_gap": 2,
        "claim_before_first_swap": False,
        "claim_mid_swap": "before",
    }
    LAB.check(variant([D, R], rules))
    config = config_of(settings_of(variant([D, R], rules)), 1)
    assert (config.deck_size, config.deck_seed, str(config.false_claim)) == (30, 2, "refused")
    assert (config.manche_limit, config.claims_per_gap, config.first) == (5, 2, 1)
    assert config.claim_before_first_swap is False


def test_claim_mid_swap_plays_the_same_lab_games() -> None:
    """Bots claim between two swaps, never with a cube in the air (docs/lab.md): "after"
    and "before" give the same records."""
    after, before = (variant([D, R], {"claim_mid_swap": mode}) for mode in MID_SWAP)
    assert [LAB.play(after, i) for i in range(20)] == [LAB.play(before, i) for i in range(20)]


def test_the_rules_keys_are_the_table_s() -> None:
    assert RULE_KEYS == REFEREE_RULE_KEYS
    assert TABLE_KEYS == REFEREE_TABLE_KEYS


def test_the_registry_and_a_variants_file_reach_the_lab() -> None:
    assert games.get("swiped").lab is not None
    assert load_lab("swiped") is LAB
    (parsed,) = parse_variants(
        {"game": "swiped", "bots": ["random"], "games": 5, "rules": {"false_claim": "refused"}}
    )
    assert parsed.bots == (R, R)
    assert all(LAB.play(parsed, i).finished for i in range(5))


def test_sections_name_keys_the_records_fill() -> None:
    records = [
        LAB.play(variant([D, R], {"false_claim": "refused", "manche_limit": 2}), i)
        for i in range(40)
    ]
    filled = {k for r in records for k in r.counts} | {k for r in records for k in r.seat_counts}
    named = set()
    for section in LAB.sections:
        for row_ in section.rows:
            named |= {getattr(row_, a) for a in ("key", "hits", "trials") if hasattr(row_, a)}
    assert named - filled <= {
        keys.FALSE_LOST,
        keys.END_FALSE,
        *keys.BELIEF_SEEN[1:],
        *keys.BELIEF_TRUE[1:],
        *keys.BELIEF_TOP[1:],
        keys.WON_IN[2],
        keys.WON_IN[3],
        keys.FALSE_THEN_LOST,
    }
    assert filled - named == set()


def test_notes_give_the_odds_of_a_random_guess() -> None:
    notes = LAB.notes(variant([D, D], {"deck_size": 12, "manche_limit": 4}))
    assert any("1 time in 10" in n for n in notes)
    assert any("at most 4 rounds, 24 swaps" in n for n in notes)
