"""Interest figures (Browne's measures): lead changes, how early the winner is known,
comebacks, legal choices per move; on hand-made lead stories, then on seeded games whose
stories can be read off their events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.flipdone.lab import LAB as FD_LAB
from companion.games.passpass.lab import PTI_LAB, reference_events
from companion.lab import interest
from companion.lab.interest import (
    Story,
    branching,
    comeback,
    decided_at,
    lead_changes,
    leader,
    story,
)
from companion.lab.model import GameRecord, Lead, Variant
from companion.lab.summary import (
    BRANCHING,
    COMEBACKS,
    DECIDED,
    INTEREST,
    LEAD_CHANGES,
    summarize,
)


def game(leads: list[tuple[int, tuple[float, ...]]], winner: int | None, actions: int = 100):
    return GameRecord(
        players=len(leads[0][1]) if leads else 2,
        first=0,
        winners=() if winner is None else (winner,),
        finished=winner is not None,
        actions=actions,
        manches=(actions,),
        leads=tuple(Lead(at, scores) for at, scores in leads),
    )


@pytest.fixture(autouse=True)
def _stories_read_afresh():
    """Each test reads its own stories: a story another test read is kept (`_READ`)."""
    interest._READ.clear()


# A leads, B draws level, B leads, A leads again, A wins: two changes; A took the lead for
# good at action 80 of 100; A was behind at 60, past the middle: a comeback.
SEESAW = game([(10, (1, 0)), (30, (1, 1)), (60, (1, 2)), (80, (3, 2))], winner=0)
# A leads from the first score on and wins: no change, known from 20 % of the game.
RUNAWAY = game([(20, (1, 0)), (50, (2, 0)), (90, (3, 1))], winner=0)


def test_the_leader_is_the_seat_with_the_most_alone():
    assert leader((1, 3, 2)) == 1
    assert leader((3, 3, 2)) is None


def test_lead_changes_count_the_lead_passing_hands_a_level_score_in_between_is_none():
    assert lead_changes(SEESAW.leads) == 2
    assert lead_changes(RUNAWAY.leads) == 0
    assert lead_changes(game([(1, (1, 0)), (2, (1, 1)), (3, (2, 1))], 0).leads) == 0


def test_the_winner_leads_for_good_from_its_last_lead_alone():
    assert decided_at(SEESAW) == pytest.approx(0.8)
    assert decided_at(RUNAWAY) == pytest.approx(0.2)
    assert decided_at(game([(10, (1, 0))], winner=None)) is None  # a draw
    assert decided_at(game([(10, (1, 1))], winner=0)) is None  # never alone in the lead


def test_a_comeback_is_a_winner_behind_after_the_middle():
    assert comeback(SEESAW) is True
    assert comeback(RUNAWAY) is False
    behind_early = game([(10, (0, 1)), (40, (2, 1))], winner=0)
    assert comeback(behind_early) is False  # behind only in the first half
    behind_at_40 = game([(10, (1, 0)), (40, (1, 2)), (70, (3, 2))], winner=0)
    assert comeback(behind_at_40) is False  # past a third, not past the middle
    behind_at_the_middle = game([(10, (1, 0)), (50, (1, 2)), (70, (3, 2))], winner=0)
    assert comeback(behind_at_the_middle) is False  # the middle itself is not past it
    behind_just_past = game([(10, (1, 0)), (51, (1, 2)), (70, (3, 2))], winner=0)
    assert comeback(behind_just_past) is True


def test_branching_is_legal_choices_per_move_where_counted():
    record = game([(1, (1, 0))], 0)
    assert branching(record) is None  # a journal: not counted
    assert branching(replace(record, choices=(90, 30))) == 3.0


def test_the_summary_gives_the_interest_figures_with_intervals():
    from companion.lab.variants import load_lab

    v = Variant("v", "ptipasspass", 2, ("heuristic",) * 2, 2, 1)
    figures = summarize(load_lab("ptipasspass"), v, [SEESAW, RUNAWAY])
    assert figures.find(INTEREST, LEAD_CHANGES).estimate.value == 1.0
    assert figures.find(INTEREST, DECIDED).estimate.value == pytest.approx(0.5)
    assert figures.find(INTEREST, COMEBACKS).estimate.value == 0.5
    with pytest.raises(KeyError):
        figures.find(INTEREST, BRANCHING)  # neither game counted its choices
    assert sorted(figures.decided) == pytest.approx([0.2, 0.8])


def test_a_passpass_games_lead_is_its_manches_won_as_the_events_tell():
    """The lead's story of a seeded PtiPassPass game is the tally of its `manche_won`
    events, each at the actions played by its reveal; its winner ends ahead."""
    v = Variant("v", "ptipasspass", 3, ("heuristic", "random", "heuristic"), 5, 11)
    for index in range(5):
        _, events = reference_events(v, index)
        wins = [0.0] * 3
        story = []
        for e in events:
            if e["kind"] == "manche_won":
                wins[e["seat"]] += 1
                story.append(tuple(wins))
        record = PTI_LAB.play(v, index)
        assert [lead.scores for lead in record.leads] == story
        assert [lead.at for lead in record.leads] == sorted({lead.at for lead in record.leads})
        assert record.leads[-1].at == record.actions  # the last reveal ends the game
        assert leader(record.leads[-1].scores) == record.winners[0]
        total, moves = record.choices
        assert moves > 0 and total >= moves  # every move has at least the move made


def test_a_flip_done_games_lead_is_its_tokens_and_ends_with_its_winners_ahead():
    v = Variant("v", "flipdone", 3, ("heuristic",) * 3, 4, 5)
    for index in range(4):
        record = FD_LAB.play(v, index)
        assert record.leads[-1].scores == record.seat_counts["tokens"]
        best = max(record.leads[-1].scores)
        assert set(record.winners) == {
            s for s, t in enumerate(record.leads[-1].scores) if t == best
        }
        ats = [lead.at for lead in record.leads]
        assert ats == sorted(ats) and ats[-1] <= record.actions
        total, moves = record.choices
        assert moves == record.actions and total >= moves


@pytest.mark.parametrize("players", [2, 4])
def test_a_vnp_games_lead_is_its_side_scores_so_far_and_the_lowest_wins(players):
    """After each placement each seat's score is its side's segments not placed (VNP-6,
    VNP-7), negated: the game ends on the final side scores, its winner ahead."""
    from companion.lab.variants import load_lab

    lab = load_lab("vnp")
    v = Variant("v", "vnp", players, ("largest", "random") * (players // 2), 3, 2)
    for index in range(3):
        record = lab.play(v, index)
        placements = record.counts["placements"]
        assert len(record.leads) == placements  # one mark a placement, none a pass
        final = record.leads[-1].scores
        assert final == tuple(-s for s in record.seat_counts["side_score"])
        if len(record.winners) == 1:
            assert leader(final) == record.winners[0]


def test_a_story_is_read_once_into_its_three_lead_figures_none_without_a_score():
    """The tally reads a game's lead figures from one pass over its story (`story`)."""
    assert story(SEESAW) == Story(changes=2, decided=0.8, comeback=True)
    assert story(game([(10, (1, 0)), (60, (1, 2))], winner=None)) == Story(1, None, None)
    assert story(game([], winner=0)) is None  # no score: no lead figures


def test_a_batch_of_stories_is_read_once_each_and_the_memory_of_them_stays_bounded():
    """A tally reads a batch's figures one figure at a time (`companion.lab.tally.BATCH`):
    each record's story is read once (the same `Story` again), and no more than `_KEPT`
    stories are kept however many games a lab plays."""
    from companion.lab.tally import BATCH

    batch = [game([(10, (1, 0)), (20 + i, (1, 2))], winner=1) for i in range(BATCH)]
    first = [story(record) for record in batch]
    assert all(story(record) is read for record, read in zip(batch, first, strict=True))
    assert first[0] is not None and story(replace(batch[0])) is not first[0]  # equal, not it
    many = [game([(10, (1, 0))], winner=0) for _ in range(3 * interest._KEPT)]
    for record in many:
        story(record)
        assert len(interest._READ) <= interest._KEPT
    assert story(many[-1]) is story(many[-1])
