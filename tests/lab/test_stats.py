"""The two-sample test `companion report --against` says a difference with."""

from __future__ import annotations

import math

from companion.lab.stats import Estimate, differ, mean_ci, wilson


def test_shares_differ_by_a_pooled_two_proportion_test():
    # 30 % against 50 % of 100 games each: z = 0.2 / sqrt(0.4 * 0.6 * 2 / 100) = 2.89
    assert differ(wilson(30, 100), wilson(50, 100), rate=True)
    # 45 % against 50 %: z = 0.71, chance
    assert not differ(wilson(45, 100), wilson(50, 100), rate=True)


def test_means_differ_even_where_their_intervals_overlap():
    """Overlapping 95 % intervals can still differ at 5 %: 10 [9, 11] and 11.6 [10.6,
    12.6] give z = 1.6 / (0.51 * sqrt 2) = 2.2."""
    a, b = Estimate(10.0, 9.0, 11.0, 50), Estimate(11.6, 10.6, 12.6, 50)
    assert a.high > b.low and differ(a, b, rate=False)
    assert not differ(a, Estimate(10.8, 10.0, 11.6, 50), rate=False)


def test_a_single_game_or_nothing_measured_never_differs():
    assert not differ(mean_ci([3.0]), mean_ci([1.0, 1.0, 1.0]), rate=False)
    assert not differ(wilson(0, 0), wilson(5, 10), rate=True)
    nothing = Estimate(math.nan, math.nan, math.nan, 0)
    assert not differ(nothing, mean_ci([1.0, 2.0]), rate=False)


def test_a_count_clipped_at_zero_keeps_its_spread():
    """A count's interval is clipped at 0 below; its upper half still gives its spread."""
    few = mean_ci([0.0, 0.0, 0.0, 0.0, 1.0])  # 0.2, low clipped at 0
    assert few.low == 0.0 and not differ(few, mean_ci([0.0, 1.0, 0.0, 1.0, 0.0]), rate=False)
