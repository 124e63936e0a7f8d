"""bench/verdict.py: a target is met or missed with its margin only when no run (and no
model error) reaches it; otherwise it is within noise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from verdict import judge  # noqa: E402


def test_a_time_under_its_target_in_every_run_is_met_with_its_margin() -> None:
    verdict = judge([6.2, 5.9, 6.8], 10, unit="s")
    assert verdict.state == "met"
    assert str(verdict) == "met by 38 % (median 6.2 s, runs 5.9–6.8, against 10.0 s)"


def test_a_target_inside_the_runs_spread_is_within_noise_not_met() -> None:
    verdict = judge([9.6, 8.9, 11.2], 10, unit="s")
    assert verdict.state == "within noise"
    assert str(verdict) == "within noise (median 9.6 s, runs 8.9–11.2, against 10.0 s)"
    assert verdict.short == "within noise"


def test_a_time_over_its_target_in_every_run_is_missed_by_its_margin() -> None:
    verdict = judge([11.2, 11.0, 11.5], 10, unit="s")
    assert verdict.short == "missed by 12 %"


def test_a_rate_is_met_when_it_is_above_its_target() -> None:
    assert judge([83_000, 80_000], 50_000, higher_is_better=True).state == "met"
    assert judge([40_000, 45_000], 50_000, higher_is_better=True).short == "missed by 15 %"


def test_a_model_within_its_error_of_the_target_is_within_noise() -> None:
    assert judge([45.6], 45, tolerance=0.03).state == "within noise"
    assert judge([47.9], 45, tolerance=0.03).short == "missed by 6 %"
    assert judge([592.0], 600, error=1.5).short == "met by 1 %"
    assert judge([599.0], 600, error=1.5).state == "within noise"


def test_a_margin_under_one_percent_keeps_a_decimal() -> None:
    assert judge([10.05], 10).short == "missed by 0.5 %"


def test_a_verdict_needs_a_run() -> None:
    with pytest.raises(ValueError):
        judge([], 10)
