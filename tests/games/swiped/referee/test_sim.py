"""The Swiped table at people's pace: the simulated people's journal, fed to the OBSERVED
referee, gives the seeded game they played (run() raises if not); spaced with ticks, at
human pace and on a rough table, one seeded game gives one result; ticks never matter;
no public output depends on a secret card until a claim; a cut journal resumes."""

from __future__ import annotations

import dataclasses
import json

import pytest

from companion.games.swiped.referee import SwipedReferee
from companion.games.swiped.rules import make_config
from companion.games.swiped.sim import Noise, Pace, SwipedSim, comparable, make_setup
from companion.journal import PressInput, Setup, SpotInput, TickInput, line_of, read_journal
from companion.session import Session

BLOCKS = 8
PER_BLOCK = 25


def bots_of(seed: int) -> list[str]:
    """Deducing against deducing ends fast (programs tell a lot); against random, games
    go on for manches: both are played."""
    return ["deducing", "random"] if seed % 3 else ["deducing"]


@pytest.mark.parametrize("block", range(BLOCKS))
def test_timing_invariance_spaced_human_and_rough_tables_give_one_game(block):
    """150 games: the same seeded game played a second an act with ticks, at people's
    pace, and at people's pace on a rough table (flicker, duplicated reports, stray tags,
    presses that cannot count)."""
    faults = refused = 0
    for seed in range(block * PER_BLOCK, (block + 1) * PER_BLOCK):
        setup = make_setup(seed)
        bots = bots_of(seed)
        spaced = SwipedSim(setup, bots=bots, pace=Pace.spaced()).run()
        human = SwipedSim(setup, bots=bots).run()
        rough = SwipedSim(setup, bots=bots, noise=Noise.rough()).run()
        games = [comparable(r.referee.log) for r in (spaced, human, rough)]
        assert games[0] == games[1] == games[2] == comparable(spaced.decided), seed
        for result in (spaced, human, rough):
            assert result.referee.finished
            assert result.referee.result()["winner"] == spaced.referee.state.winner
        assert not any(e["kind"] in ("fault", "ignored") for e in spaced.referee.events)
        faults += sum(e["kind"] == "fault" for e in rough.referee.events)
        refused += sum(e["kind"] == "ignored" for e in rough.referee.events)
    assert faults > 0 and refused > 0  # the noise really made the table misbehave


@pytest.mark.parametrize("variant", ["refused", "limit"])
def test_the_variants_play_through_at_the_table(variant):
    """SW-5's refused false claims (a wrong card claim, then play goes on) and SW-6's
    manche limit (a draw), set by the setup's rules."""
    rules = {"false_claim": "refused"} if variant == "refused" else {"manche_limit": 1}
    kinds: set[str] = set()
    wrong = 0
    for seed in range(12):
        setup = make_setup(seed, rules=rules)
        config = make_config(first=setup.first, **rules)  # type: ignore[arg-type]
        result = SwipedSim(setup, bots=["random"], config=config, noise=Noise.rough()).run()
        assert result.referee.finished
        kinds |= {e["kind"] for e in result.referee.events}
        claims = [e for e in result.referee.events if e["kind"] == "claim"]
        wrong += sum(not c["correct"] for c in claims)
        if variant == "refused":  # a wrong claim never ends the game: the last was right
            assert claims[-1]["correct"] and "game_won" in kinds
    assert ("game_drawn" in kinds) == (variant == "limit")
    assert (wrong > 0) == (variant == "refused")


@pytest.mark.parametrize("false_claim", ["loses", "refused"])
def test_with_claim_mid_swap_before_claims_pressed_as_a_swap_is_made_give_the_game_played(
    false_claim,
):
    """claim_mid_swap "before" at people's pace: a Doublon pressed from a moment before a
    swap's first cube is lifted until just before the table is still after it, a Menteur
    while that cube is lifted and put back; the bots decided each claim on the grid before
    that swap, and the referee, fed the journal, judges it there (run() raises if not), on
    a calm and a rough table. Some claims come while the table settles: held presses. A
    live table's ticks (every 0.1 s) change nothing."""
    rules = {"claim_mid_swap": "before", "false_claim": false_claim}
    held = 0
    for seed in range(20):
        setup = make_setup(seed, rules=rules)
        config = make_config(first=setup.first, false_claim=false_claim)
        for noise in (None, Noise.rough()):
            result = SwipedSim(setup, bots=bots_of(seed), noise=noise, config=config).run()
            assert result.referee.finished
            referee = SwipedReferee(setup)
            ticked = SwipedReferee(setup) if seed < 3 else None
            for record in result.inputs:
                claim = isinstance(record, PressInput) and record.control in ("doublon", "menteur")
                held += claim and record.seat in (0, 1) and referee.unjudged
                referee.feed(record)
                if ticked is not None:
                    while ticked.now + 0.1 < record.t:
                        ticked.feed(TickInput(round(ticked.now + 0.1, 3)))
                    ticked.feed(record)
            assert ticked is None or ticked.events == referee.events
    assert held > 0


@pytest.mark.parametrize("seed", range(4))
def test_a_journal_replays_the_same_without_its_ticks(seed):
    result = SwipedSim(make_setup(seed), bots=bots_of(1), pace=Pace.spaced()).run()
    inputs = result.inputs
    bare = [r for r in inputs[:-1] if not isinstance(r, TickInput)] + [inputs[-1]]
    assert len(bare) < len(inputs)
    referee = SwipedReferee(result.setup)
    for record in bare:
        referee.feed(record)
    assert referee.events == result.referee.events


# ------------------------------------------------------------------------ no peek


def relabelled(setup: Setup, a: str, b: str) -> Setup:
    """The same table with the tags of cards a and b exchanged: every physical act is the
    same, but a card a player holds is another card."""
    swap = {a: b, b: a}
    return dataclasses.replace(
        setup, tags={uid: swap.get(kind, kind) for uid, kind in setup.tags.items()}
    )


@pytest.mark.parametrize("block", range(4))
def test_no_public_output_depends_on_a_secret_card_until_a_claim(block):
    """SW-5: the cards stay secret. Replay each game with one player's target card made
    another card (its tag relabelled): every event, screen, log line and transcript is
    the same until the first claim's verdict."""
    compared = 0
    for seed in range(block * 15, (block + 1) * 15):
        result = SwipedSim(make_setup(seed), bots=bots_of(seed), noise=Noise.rough()).run()
        state = result.referee.state
        seat = seed % 2
        secret = f"layout:{state.targets[seat]}"
        unused = {state.layout_card, *state.targets}
        other = next(f"layout:{c}" for c in range(1, 25) if c not in unused)
        twins = [
            SwipedReferee(result.setup),
            SwipedReferee(relabelled(result.setup, secret, other)),
        ]
        for record in result.inputs:
            for twin in twins:
                twin.feed(record)
            a, b = twins
            if any(e["kind"] in ("claim", "targets") for e in a.events + b.events):
                break
            assert a.events == b.events, seed
            assert a.screen == b.screen, seed
            assert a.where() == b.where(), seed
            compared += 1
        assert twins[0].state.targets[seat] != twins[1].state.targets[seat]
    assert compared > 500


def test_the_targets_event_names_both_cards_only_once_the_game_is_over():
    result = SwipedSim(make_setup(3), bots=bots_of(1)).run()
    events = result.referee.events
    targets = [i for i, e in enumerate(events) if e["kind"] == "targets"]
    assert len(targets) == 1
    assert events[targets[0]]["cards"] == list(result.referee.state.targets)
    over = next(i for i, e in enumerate(events) if e["kind"] in ("game_won", "game_drawn"))
    assert targets[0] > over


# ------------------------------------------------------------------------- resume


@pytest.fixture(scope="module")
def rough_game():
    noise = Noise(flicker=0.2, duplicate=0.2, stray=0.05, out_of_turn=0.1)
    for seed in range(1, 40):
        game = SwipedSim(make_setup(seed), bots=["deducing", "random"], noise=noise).run()
        kinds = {e["kind"] for e in game.referee.events}
        if {"fault", "fixed", "ignored", "swap_skipped", "manche_end"} <= kinds:
            return game
    raise AssertionError("no seed gave a game with faults, refusals, a skip and manches")


def without_resume(events):
    return [e for e in events if e["kind"] != "resume"]


def test_cut_after_any_line_resume_and_feed_the_rest_gives_the_same_game(tmp_path, rough_game):
    setup, inputs = rough_game.setup, rough_game.inputs
    lines = [json.dumps(r.to_json()) for r in inputs]
    expected = rough_game.referee.result()
    path = tmp_path / "game.jsonl"
    for cut in range(0, len(inputs) + 1, max(1, len(inputs) // 60)):
        torn = lines[cut][: len(lines[cut]) // 2] if cut < len(lines) and cut % 3 == 0 else ""
        path.write_text("\n".join([line_of(setup, checksum=False), *lines[:cut], torn]))
        session = Session.resume(path)
        assert any("torn last line" in note for note in session.notes) == bool(torn)
        for record in inputs[cut:]:
            session.referee.feed(record)
        session.close()
        got = session.referee.result()
        assert without_resume(got["events"]) == expected["events"], f"cut after line {cut}"


def test_after_a_resume_squares_changed_while_down_are_put_back_before_play(tmp_path):
    """A cube knocked over while the companion was off: play waits until it is back."""
    result = SwipedSim(make_setup(2), bots=["random"], pace=Pace.spaced()).run()
    placed = next(i for i, e in enumerate(result.referee.events) if e["kind"] == "placed")
    # feed the game up to just after the cubes stood as the layout card shows
    path = tmp_path / "live.jsonl"
    session = Session.start(path, result.setup)
    for record in result.inputs:
        session.feed(record)
        if len(session.referee.events) > placed:
            break
    session.close()
    referee = session.referee
    four = referee.observed.uids[4]
    session = Session.resume(path, live_table={4: frozenset()})
    referee = session.referee
    assert isinstance(referee, SwipedReferee)
    assert referee.waiting is not None and referee.waiting.spots() == (4,)
    t = referee.now
    session.feed(PressInput(t + 0.5, "doublon", 0))  # refused: the table first
    assert session.referee.events[-1]["kind"] == "ignored"
    session.feed(SpotInput(t + 1.0, 4, four))
    session.feed(TickInput(t + 3.0))
    assert referee.waiting is None
    assert read_journal(path).inputs[-3].to_json()["type"] == "press"
