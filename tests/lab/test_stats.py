"""The lab's statistics (companion/lab/stats.py): Student's t, the false-discovery
correction, intervals of rates that cluster in games, and the permutation test `companion
report --against` says a difference with."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.lab import stats
from companion.lab.stats import (
    Samples,
    benjamini_hochberg,
    clustered_rate,
    detectable,
    games_needed,
    mean_ci,
    mean_t,
    permutation_test,
    ratio_ci,
    relabellings,
    t_quantile,
    wilson,
)


@pytest.mark.parametrize(
    ("p", "freedom", "table"),
    [(0.975, 1, 12.706), (0.975, 10, 2.228), (0.995, 3, 5.841), (0.95, 30, 1.697),
     (0.975, 1000, 1.962), (0.025, 10, -2.228)],
)  # fmt: skip
def test_t_quantiles_are_those_of_the_tables(p: float, freedom: int, table: float) -> None:
    assert t_quantile(p, freedom) == pytest.approx(table, abs=5e-4)


def test_students_interval_is_wider_than_the_normal_one_for_few_values() -> None:
    values = [0.0, 1.0, 0.5, 0.5, 1.0]
    assert mean_t(values).high - mean_t(values).low > mean_ci(values).high - mean_ci(values).low
    assert mean_t(values).value == mean_ci(values).value == 0.6


def test_benjamini_hochberg_calls_the_discoveries_of_its_paper() -> None:
    """Benjamini and Hochberg's own example (1995, section 4.1): 15 p-values, 4 called at
    a false discovery rate of 5 % (Bonferroni would call 3)."""
    p = [0.0201, 0.0001, 0.0004, 0.0019, 0.0095, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
         0.4262, 0.5719, 0.6528, 0.7590, 1.000]  # fmt: skip
    called = benjamini_hochberg(p, 0.05)
    assert [x for x, c in zip(p, called, strict=True) if c] == [0.0001, 0.0004, 0.0019, 0.0095]
    assert not any(benjamini_hochberg([0.04, 0.5], 0.05))
    assert all(benjamini_hochberg([0.04, 0.05], 0.05))  # the largest k with p(k) <= k q/m


def test_a_rate_whose_events_cluster_in_games_has_a_wider_interval() -> None:
    """60 challenges in 30 games: spread evenly (each game 1 of 2) they are as good as
    independent, Wilson's interval; all the successes in 15 games and none in the others,
    the games disagree and the interval widens (fewer effective events)."""
    even = clustered_rate([1.0] * 30, [2.0] * 30)
    assert (even.low, even.high) == pytest.approx((wilson(30, 60).low, wilson(30, 60).high))
    lumped = clustered_rate([2.0] * 15 + [0.0] * 15, [2.0] * 30)
    assert lumped.value == even.value == 0.5 and lumped.n == 60
    assert lumped.high - lumped.low > 1.3 * (even.high - even.low)


def test_a_mean_per_event_takes_the_game_as_the_unit() -> None:
    """Turns per manche: with one manche a game it is the mean over games."""
    turns = [3.0, 5.0, 4.0, 8.0]
    assert ratio_ci(turns, [1.0] * 4) == mean_ci(turns)
    two = ratio_ci([6.0, 10.0, 8.0, 16.0], [2.0] * 4)  # each game twice as long, two manches
    assert two.value == 5.0 and two.high - two.low == pytest.approx(
        mean_ci(turns).high - 5.0 + 5.0 - mean_ci(turns).low
    )


def test_the_permutation_test_is_exact_for_a_tiny_sample() -> None:
    """Three games against three: of the 20 ways to split six games in two threes, two put
    every 1 on one side, so three 1s against three 0s give p = 2/20 (up to the draws)."""
    draws = relabellings(np.random.default_rng(1), resamples=4999)
    p = permutation_test(Samples((1.0, 1.0, 1.0)), Samples((0.0, 0.0, 0.0)), draws)
    assert p == pytest.approx(0.1, abs=0.015)
    assert permutation_test(Samples((1.0,)), Samples((0.0, 0.0)), draws) == 1


def _false_alarms(draw_a, draw_b, repeats: int = 300) -> float:
    rng, generator = random.Random(5), np.random.default_rng(5)
    alarms = 0
    for _ in range(repeats):
        a, b = draw_a(rng), draw_b(rng)
        alarms += permutation_test(a, b, relabellings(generator, 199)) <= 0.05
    return alarms / repeats


def test_the_permutation_test_holds_its_level_where_nothing_differs() -> None:
    """A skewed count, 4 games against 200: at most 5 % of tests (up to their noise) say
    p <= 0.05; and for a rate of events whose games hold few or many of them."""

    def counts(n: int):
        return lambda rng: Samples(tuple(float(int(rng.expovariate(0.3))) for _ in range(n)))

    assert _false_alarms(counts(4), counts(200)) <= 0.08

    def rates(n: int):
        def draw(rng: random.Random) -> Samples:
            trials = [float(rng.randint(0, 6)) for _ in range(n)]
            hits = [float(sum(rng.random() < 0.3 for _ in range(int(t)))) for t in trials]
            return Samples(tuple(hits), tuple(trials))

        return draw

    assert _false_alarms(rates(10), rates(300)) <= 0.08


def test_a_studentized_test_is_not_fooled_by_a_wider_spread_alone() -> None:
    """People more varied than bots, with the same mean: the difference of means alone
    would be judged on the bots' narrow spread and cry wolf; Welch's statistic does not."""

    def normal(n: int, sd: float):
        return lambda rng: Samples(tuple(rng.gauss(10, sd) for _ in range(n)))

    assert _false_alarms(normal(30, 4.0), normal(1000, 1.0)) <= 0.08


def test_a_clear_difference_gives_a_small_p_value() -> None:
    rng = random.Random(3)
    a = Samples(tuple(rng.gauss(12, 1) for _ in range(15)))
    b = Samples(tuple(rng.gauss(10, 1) for _ in range(500)))
    draws = relabellings(np.random.default_rng(0))
    assert permutation_test(a, b, draws) == 1 / (stats.RESAMPLES + 1)


def test_random_subsets_are_uniform() -> None:
    drawn = stats._subsets(np.random.default_rng(2), 12, 3, 60_000)
    assert all(len(set(row)) == 3 for row in drawn[:1000])
    counts = np.bincount(drawn.ravel(), minlength=12)
    assert counts / 60_000 == pytest.approx([3 / 12] * 12, abs=0.01)


def test_games_needed_for_a_difference_of_one_standard_deviation() -> None:
    """At 5 % and 80 % power against very many games, with Student's t at m - 1 degrees of
    freedom: 10 games give (t(0.975, 9) + t(0.8, 9)) sqrt(1/10) = (2.262 + 0.883) x 0.316
    = 0.995 standard deviations, 9 games 1.06: 10 are needed (the normal approximation
    would say 8). The stricter the level, the more games."""
    assert detectable(1.0, 10, 10**9, 0.05) == pytest.approx(0.9946, abs=1e-3)
    assert games_needed(10**9, 0.05) == 10
    assert 20 <= games_needed(1000, 0.05 / 40) <= 24
    assert games_needed(5, 0.05) is None  # five games on the other side cannot tell
