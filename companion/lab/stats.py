"""Estimates with 95 % confidence intervals: what a figure from N seeded games can claim,
and the tests and corrections the lab's comparisons rest on."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where a test needs it: the lab's commands start fast
    import numpy as np

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


@dataclass(frozen=True)
class Samples:
    """A figure's parts, game by game: the game is the unit of its intervals and tests, since
    what happens within one game (challenges, turns) is not independent."""

    values: tuple[float, ...]
    """Per game: the figure's value (a mean's, a share's 0 or 1) or a rate's numerator."""
    trials: tuple[float, ...] | None = None
    """Per game, a rate's denominator (the figure is sum(values) / sum(trials)); None for a
    figure that is the mean of `values`."""


def clustered_rate(hits: Sequence[float], trials: Sequence[float]) -> Estimate:
    """A proportion of events pooled over games (challenges that succeed, of all calls),
    with Wilson's interval on the effective number of events: the events divided by the
    design effect, the variance of the pooled share with the game as the unit against the
    variance independent events would give (as Korn and Graubard 1998 do for clustered
    survey samples). Events of one game go together, so the interval is never narrower than
    Wilson's for independent events, and wider where games differ."""
    total, n = math.fsum(trials), len(trials)
    if total <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    got = math.fsum(hits)
    p = got / total
    effect = 1.0
    if n >= 2 and 0 < p < 1:
        spread = math.fsum((h - p * t) ** 2 for h, t in zip(hits, trials, strict=True))
        clustered = spread * n / (n - 1) / (total * total)
        effect = max(1.0, clustered / (p * (1 - p) / total))
    e = wilson(got / effect, total / effect)
    return Estimate(p, e.low, e.high, round(total))


def ratio_ci(values: Sequence[float], trials: Sequence[float]) -> Estimate:
    """A mean per event pooled over games (turns per manche: sum of turns / manches), with
    the normal interval of a ratio estimator whose variance takes the game as the unit
    (the linearized, cluster-robust variance)."""
    total, n = math.fsum(trials), len(trials)
    if total <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    r = math.fsum(values) / total
    if n < 2:
        return Estimate(r, r, r, round(total))
    spread = math.fsum((v - r * t) ** 2 for v, t in zip(values, trials, strict=True))
    half = Z95 * math.sqrt(spread * n / (n - 1)) / total
    low = r - half if min(values) < 0 else max(0.0, r - half)
    return Estimate(r, low, r + half, round(total))


RESAMPLES = 1999
"""Relabellings of a permutation test: its p-value is never below 1/(RESAMPLES + 1), fine
enough for a false-discovery correction over a report's few dozen figures."""


Draws = Callable[[int, int], "np.ndarray"]
"""(games in all, the smaller group's size) -> random subsets of that size, one a row."""


def relabellings(rng: np.random.Generator, resamples: int = RESAMPLES) -> Draws:
    """`resamples` random relabellings of games for `permutation_test`, drawn once for each
    shape and reused by every figure of one comparison (the same games moved)."""
    drawn: dict[tuple[int, int], np.ndarray] = {}

    def draws(population: int, size: int) -> np.ndarray:
        key = (population, size)
        if key not in drawn:
            drawn[key] = _subsets(rng, population, size, resamples)
        return drawn[key]

    return draws


def permutation_test(a: Samples, b: Samples, draws: Draws) -> float:
    """The two-sided p-value of a difference between two samples of games (`a`, `b`):
    games are drawn again into two groups of the same sizes, at random (`draws`, say
    `relabellings`), and the p-value is the share of drawings whose difference is at least
    the one seen, counting the one seen (so it is never 0: Phipson and Smyth 2010). The
    difference is Welch's: the difference of the means (a rate's: of the pooled ratios)
    over its standard error, the game as the unit. A permutation test is exact (it holds
    its level at any number of games) when both samples come from one source, whatever the
    figure's distribution (for a share of games it is Fisher's exact test in spirit);
    studentized, it also holds its level, for many games, when the two sources differ in
    spread but not in mean (Janssen 1997; Chung and Romano 2013). 1.0 when a side has
    fewer than two games or nothing to measure."""
    import numpy as np

    m, n = len(a.values), len(b.values)
    if min(m, n) < 2:
        return 1.0
    x = np.array(a.values + b.values, dtype=float)
    rate = a.trials is not None and b.trials is not None
    t = np.array((a.trials or ()) + (b.trials or ()), dtype=float) if rate else None
    small = min(m, n)
    seen = _welch(x, t, np.arange(small)[None, :] + (0 if small == m else m), m + n)[0]
    if np.isnan(seen):
        return 1.0
    drawn = _welch(x, t, draws(m + n, small), m + n)
    beyond = np.count_nonzero(np.abs(drawn) >= abs(seen) * (1 - 1e-9))
    return float((1 + beyond) / (len(drawn) + 1))


def _welch(x: np.ndarray, t: np.ndarray | None, chosen: np.ndarray, total: int) -> np.ndarray:
    """Welch's statistic of each row of `chosen` (a group's game indices) against the
    other games: means of `x`, or ratios of sums of `x` over sums of `t`. NaN where a
    group has nothing to measure."""
    import numpy as np

    k, rest = chosen.shape[1], total - chosen.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        if t is None:
            x = x - x.mean()  # centred: sums of squares without cancellation
            s1, s2 = x[chosen].sum(axis=1), (x * x)[chosen].sum(axis=1)
            r1, r2 = x.sum() - s1, (x * x).sum() - s2
            mean_a, mean_b = s1 / k, r1 / rest
            var_a = np.maximum(s2 - k * mean_a**2, 0) / (k - 1) / k
            var_b = np.maximum(r2 - rest * mean_b**2, 0) / (rest - 1) / rest
            gap = mean_a - mean_b
        else:
            sums = [v[chosen].sum(axis=1) for v in (x, t, x * x, x * t, t * t)]
            alls = [v.sum() for v in (x, t, x * x, x * t, t * t)]
            rests = [whole - part for whole, part in zip(alls, sums, strict=True)]
            ratio_a, var_a = _ratio(sums, k)
            ratio_b, var_b = _ratio(rests, rest)
            gap = ratio_a - ratio_b
        spread = np.sqrt(var_a + var_b)
        stat = np.where(spread > 0, gap / spread, np.where(gap == 0, 0.0, np.inf * np.sign(gap)))
    return stat


def _ratio(sums: list[np.ndarray], games: int) -> tuple[np.ndarray, np.ndarray]:
    """A group's pooled ratio and its cluster-robust variance from its sums of x, t, x²,
    xt and t² over its games."""
    import numpy as np

    x, t, xx, xt, tt = sums
    ratio = x / t
    spread = np.maximum(xx - 2 * ratio * xt + ratio * ratio * tt, 0)
    return ratio, spread * games / (games - 1) / (t * t)


def _subsets(rng: np.random.Generator, population: int, size: int, count: int) -> np.ndarray:
    """`count` random subsets of `size` indices among `population`, one a row, each
    subset equally likely (Floyd's algorithm, a row at a time in step; for a large
    subset, the first `size` of a random order)."""
    import numpy as np

    if size > 200:
        return np.argsort(rng.random((count, population)), axis=1)[:, :size]
    out = np.empty((count, size), dtype=np.int64)
    for column, top in enumerate(range(population - size, population)):
        pick = rng.integers(0, top + 1, size=count)
        taken = (out[:, :column] == pick[:, None]).any(axis=1)
        out[:, column] = np.where(taken, top, pick)
    return out


POWER = 0.8
"""The chance of seeing a difference at which the report calls its games enough."""


def detectable(spread: float, m: int, n: int, level: float) -> float:
    """The difference two samples of `m` and `n` games would see with chance `POWER` in a
    two-sided test at `level`, for figures whose game-to-game standard deviation is
    `spread`: (t_level + t_power) spread sqrt(1/m + 1/n), Student's t taken at the
    smaller sample's degrees of freedom (Welch's test of a few games against many has about
    those), which the normal approximation would flatter."""
    freedom = max(min(m, n) - 1, 1)
    z = t_quantile(1 - level / 2, freedom) + t_quantile(POWER, freedom)
    return z * spread * math.sqrt(1 / m + 1 / n)


def games_needed(n: int, level: float, size: float = 1.0) -> int | None:
    """The fewest games that, against `n`, see a difference of `size` standard deviations
    with chance `POWER` at `level` (`detectable`); None when no number would do (`n`
    itself too few)."""
    if detectable(1.0, 10**9, n, level) > size:
        return None
    low, high = 2, 4
    while detectable(1.0, high, n, level) > size:
        low, high = high, 2 * high
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if detectable(1.0, mid, n, level) <= size else (mid + 1, high)
    return low


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
