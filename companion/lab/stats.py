"""Estimates with 95 % confidence intervals: what a figure from N seeded games can claim,
and the tests and corrections the lab's comparisons rest on."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


def two_sided_z(confidence: float) -> float:
    """The standard normal quantile of a two-sided interval at `confidence`."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


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


def wilson(hits: float, trials: float, z: float = Z95) -> Estimate:
    """A proportion with its Wilson score interval (95 %, or as wide as `z` says): unlike
    value ± z·se it stays inside [0, 1] and says something when nothing happened (0 in
    10,000 trials: below 0.04 %). Hits may be fractional (a shared win counts a part)."""
    if trials <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = hits / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
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


def t_quantile(p: float, freedom: float) -> float:
    """Student's t quantile: the t below which a share `p` of the distribution lies with
    `freedom` degrees of freedom (found by bisection on its distribution function, which
    is a regularized incomplete beta function)."""
    if not 0 < p < 1 or freedom <= 0:
        raise ValueError("t_quantile: 0 < p < 1 and freedom > 0")
    if p < 0.5:
        return -t_quantile(1 - p, freedom)
    low, high = 0.0, 1.0
    while t_cdf(high, freedom) < p:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if t_cdf(mid, freedom) < p else (low, mid)
    return (low + high) / 2


def t_cdf(t: float, freedom: float) -> float:
    """P(T <= t) for Student's t with `freedom` degrees of freedom."""
    tail = 0.5 * incomplete_beta(freedom / 2, 0.5, freedom / (freedom + t * t))
    return 1 - tail if t > 0 else tail


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (Lentz's method), on the side where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x > (a + 1) / (a + b + 2):
        return 1 - incomplete_beta(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return front * result / a


def mean_t(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """A mean with Student's t interval at `confidence` (for a few dozen paired
    differences, where the normal interval would be too narrow)."""
    n = len(values)
    if n < 2:
        return mean_ci(values)
    mean = math.fsum(values) / n
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * spread
    return Estimate(mean, mean - half, mean + half, n)


def benjamini_hochberg(pvalues: Sequence[float], rate: float = 0.05) -> list[bool]:
    """Which of many tests to call discoveries while keeping the false discovery rate (the
    expected share of false ones among those called) at `rate` (Benjamini and Hochberg
    1995): the p-values sorted, the largest k with p_(k) <= k rate / m, and the k smallest
    called. With no true difference at all, it calls one with a chance of at most `rate`."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    called = 0
    for rank, i in enumerate(order, start=1):
        if pvalues[i] <= rank * rate / m:
            called = rank
    found = [False] * m
    for i in order[:called]:
        found[i] = True
    return found
