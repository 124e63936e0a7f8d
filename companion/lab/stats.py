"""Estimates with 95 % confidence intervals: what a figure from N seeded games can claim."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95 % interval, over `n` observations (games, manches, trials)."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        """JSON has no NaN: a figure with nothing to measure is null."""
        return {
            "value": _finite(self.value),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "n": self.n,
        }


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def wilson(hits: float, trials: float) -> Estimate:
    """A proportion with its Wilson score interval: unlike value ± z·se it stays inside
    [0, 1] and says something when nothing happened (0 in 10,000 trials: below 0.04 %).
    Hits may be fractional (a shared win counts a part)."""
    if trials <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = hits / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), round(trials))


def mean_ci(values: Sequence[float]) -> Estimate:
    """A mean with its normal-approximation interval (the lab's samples are thousands of
    independent games; with fewer than two values the interval is the value itself)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, mean, mean, n)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    low = mean - half if min(values) < 0 else max(0.0, mean - half)  # counts stay >= 0
    return Estimate(mean, low, mean + half, n)


def differ(a: Estimate, b: Estimate, rate: bool) -> bool:
    """Whether two samples' figures differ at the 5 % level (two-sided): a pooled
    two-proportion z-test for shares (`rate`), else a two-sample z-test of means whose
    standard errors come from their intervals (the upper half: a count's lower bound is
    clipped at 0). False where a side has fewer than two observations or nothing to
    measure."""
    if min(a.n, b.n) < 2 or any(math.isnan(x) for x in (a.value, a.high, b.value, b.high)):
        return False
    if rate:
        pooled = (a.value * a.n + b.value * b.n) / (a.n + b.n)
        se = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    else:
        se = math.hypot((a.high - a.value) / Z95, (b.high - b.value) / Z95)
    if se == 0:
        return a.value != b.value
    return abs(a.value - b.value) / se > Z95
