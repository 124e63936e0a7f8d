"""Swiped in the lab: the lab's bots (selfplay/) play on the engine's board the very games the
table's bots (bots.py) play on the engine, and the record says what the rules say
happened.

The differential test plays `COMPANION_LAB_DIFF_GAMES` games per variant when it is set
(e.g. 5000; run with `-n 2`), else a count that keeps the suite fast. It compares the
records and, offer by offer, what each seat was asked and answered.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from companion import games
from companion.games.swiped.bots import (
    Totals,
    make_bot,
    play_game,
    swap_gains,
    swap_log_likelihoods,
    swapped,
)
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
from companion.games.swiped.rules import (
    COLOURS,
    PAIRS,
    Action,
    ClaimCard,
    ClaimMatches,
    Program,
    Swap,
)
from companion.games.swiped.selfplay import game as selfplay
from companion.games.swiped.selfplay import tally as keys
from companion.games.swiped.selfplay.tables import COLOUR_INDEX, SWAPS, deck_of, positions, row
from companion.games.swiped.sim import SwipedSim, make_setup
from companion.lab.model import GameRecord, Variant
from companion.lab.variants import load_lab, parse_variants

D, R = "deducing", "random"


def variant(bots: Sequence[str], rules: Mapping[str, Any] | None = None, seed: int = 7) -> Variant:
    return Variant("v", "swiped", 2, tuple(bots), 10, seed, dict(rules or {}))


# ------------------------------------------------------------------ differential

DIFFERENTIAL: list[tuple[Variant, int]] = [
    # (variant, games by default): every bot mix, both SW-5 modes, the SW-6 limit, the
    # silent points of SW-5 (claims per gap, a claim before the first swap) and decks.
    (variant([D, D]), 250),
    (variant([D, D], {"false_claim": "refused"}, seed=8), 300),
    (variant([D, R], {"manche_limit": 4}), 50),
    (variant([R, D], {"false_claim": "refused", "claims_per_gap": 2}), 100),
    (variant([R, R], {"manche_limit": 3, "claim_before_first_swap": False}), 250),
    (variant([R, R], {"false_claim": "refused", "deck_size": 10}), 200),
    (variant([D, D], {"deck_size": 6, "deck_seed": 3, "claim_before_first_swap": False}), 250),
    (variant([D, R], {"deck_size": 40, "false_claim": "refused", "claims_per_gap": 3}), 30),
    (variant([D, D], {"manche_limit": 1, "deck_size": 12}), 250),
]


def _offer(action: Action | None) -> selfplay.Offer | None:
    """A table bot's offer as the lab's bots write it."""
    if action is None:
        return None
    if isinstance(action, Program):
        swap = SWAPS.index((COLOUR_INDEX[action.a], COLOUR_INDEX[action.b]))
        return (selfplay.PROGRAM_SWAP, swap)
    if isinstance(action, Swap):
        return (selfplay.SWAP, 0)
    if isinstance(action, ClaimMatches):
        return (selfplay.CLAIM_MATCHES, 0)
    assert isinstance(action, ClaimCard)
    return (selfplay.CLAIM_CARD, action.card)


def _name(v: Variant) -> str:
    return "-".join([*v.bots, *(f"{k}={value}" for k, value in v.rules.items())])


@pytest.mark.parametrize(
    ("lab_variant", "default"), DIFFERENTIAL, ids=[_name(v) for v, _ in DIFFERENTIAL]
)
def test_the_lab_bots_play_the_table_bots_games(lab_variant: Variant, default: int) -> None:
    count = int(os.environ.get("COMPANION_LAB_DIFF_GAMES", default))
    settings = settings_of(lab_variant)
    kinds = (lab_variant.bots[0], lab_variant.bots[1])
    for index in range(count):
        offers: list[tuple[int, Action | None]] = []
        expected = play_reference(lab_variant, index, offers)
        trace: list[tuple[int, selfplay.Offer | None]] = []
        got = selfplay.play(config_of(settings, index % 2), kinds, lab_variant.seed, index, trace)
        assert got == expected, f"game {index}"
        assert trace == [(seat, _offer(a)) for seat, a in offers], f"game {index}"
        assert LAB.play(lab_variant, index) == expected, f"game {index}"


def test_a_game_is_the_same_in_any_order() -> None:
    """Seeded from (seed, index) alone: the caches a worker fills change nothing."""
    v = variant([D, R], {"false_claim": "refused"}, seed=11)
    forward = [LAB.play(v, i) for i in range(30)]
    backward = [LAB.play(v, i) for i in reversed(range(30))][::-1]
    assert forward == backward
    assert [r.first for r in forward] == [i % 2 for i in range(30)]


def test_rows_are_the_bots_gains_and_likelihoods_exactly() -> None:
    rng = random.Random(5)
    deck = deck_of(24, 0)
    for _ in range(300):
        grid = tuple(rng.sample(range(9), 9))
        card = deck.cards[rng.randrange(24)]
        named_grid = tuple(COLOURS[c] for c in grid)
        named_card = tuple(COLOURS[c] for c in card)
        got = row(tuple(card[s] for s in positions(grid)))
        assert [g - 2 for g in got.gains] == list(swap_gains(named_grid, named_card))
        likelihoods = swap_log_likelihoods(named_grid, named_card, 1.5)
        assert [got.log_likelihood(k) for k in range(36)] == list(likelihoods)
        k = rng.randrange(36)
        after = tuple(COLOURS[c] for c in _swap(grid, k))
        assert after == swapped(named_grid, PAIRS[k])


def _swap(grid: tuple[int, ...], k: int) -> tuple[int, ...]:
    a, b = SWAPS[k]
    return tuple(b if c == a else a if c == b else c for c in grid)


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


def test_records_agree_with_today_s_self_play_tallies() -> None:
    """The figures today's `selfplay_report` counts (its Totals), counted by record_of
    from the same games."""
    v = variant([D, R], {"false_claim": "refused", "manche_limit": 3}, seed=3)
    totals = Totals()
    records: list[GameRecord] = []
    for index in range(30):
        records.append(play_reference(v, index))
        rng = random.Random(f"{v.seed}:{index}")
        config = config_of(settings_of(v), index % 2)
        bots = [make_bot(v.bots[s], s, config, random.Random(rng.random())) for s in (0, 1)]
        play_game(config, rng.randrange(2**31), bots, totals, rng)

    def total(key: str) -> float:
        return sum(r.counts.get(key, 0) for r in records)

    assert total(keys.END_MATCHES) == totals.endings["5 matches"]
    assert total(keys.END_CARD) == totals.endings["card named"]
    assert total(keys.END_FALSE) == totals.endings["false claim, lost"]
    assert total(keys.END_DRAW) == totals.endings["draw (manche limit)"] == totals.draws
    assert sum(len(r.manches) for r in records) == totals.manches
    for seat in (0, 1):
        assert sum(r.winners == (seat,) for r in records) == totals.wins[seat]
        named = sum(r.seat_counts[keys.SEAT_CARD][seat] for r in records)
        assert named == totals.card_claims[(seat, True)] + totals.card_claims[(seat, False)]
    assert total(keys.CARD_RIGHT) == totals.card_claims[(0, True)] + totals.card_claims[(1, True)]
    for manche, truths in totals.truth.items():
        assert total(keys.BELIEF_SEEN[manche - 1]) == len(truths)
        assert total(keys.BELIEF_TRUE[manche - 1]) == pytest.approx(sum(truths))


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
    ("players", "bots", "rules", "message"),
    [
        (3, [D, D, D], {}, "Swiped is for 2 players, not 3"),
        (2, [D, "clever"], {}, "unknown Swiped bot 'clever'; the bots are deducing, random"),
        (2, [D], {}, "one bot kind for each of its 2 seats"),
        (
            2,
            [D, R],
            {"turn_limit": 9},
            "unknown Swiped rules key 'turn_limit'; the keys are "
            "deck_size, deck_seed, false_claim, manche_limit, claims_per_gap, "
            "claim_before_first_swap, claim_mid_swap",
        ),
        (2, [D, R], {"deck_size": "24"}, "deck_size must be a whole number, not '24'"),
        (2, [D, R], {"deck_size": 2}, "deck_size must be 3 to 60, not 2"),
        (2, [D, R], {"deck_seed": 1.5}, "deck_seed must be a whole number, not 1.5"),
        (2, [D, R], {"manche_limit": 0}, "manche_limit must be a whole number from 1, not 0"),
        (2, [D, R], {"claims_per_gap": True}, "claims_per_gap must be a whole number from 1"),
        (
            2,
            [D, R],
            {"false_claim": "forgiven"},
            "false_claim is 'loses' or 'refused', not 'forgiven' (SW-5)",
        ),
        (2, [D, R], {"claim_before_first_swap": 1}, "claim_before_first_swap is true or false"),
        (2, [D, R], {"claim_mid_swap": "never"}, "claim_mid_swap is 'after' or 'before'"),
    ],
)
def test_check_names_the_bad_setting(
    players: int, bots: list[str], rules: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        LAB.check(Variant("v", "swiped", players, tuple(bots), 10, 1, rules))
    assert message in str(caught.value)
    assert str(caught.value).count(". ") == 0  # one sentence


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
    assert any("at most 4 manches, 24 swaps" in n for n in notes)
