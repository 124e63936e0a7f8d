"""A target's verdict from several runs: met or missed with its margin, or within noise.

Every bench that states a target says it through `judge`: given the runs it measured (a
deterministic model gives one, with its known error as `tolerance`) and the target, it
says "met by 38 % (median 6.2 s against 10 s, runs 5.9–6.8)", "within noise (median
9.6 s, runs 8.9–11.2, against 10 s)" or "missed by 12 % (...)". The target is within
noise when it lies inside the runs' range, widened on each side by `tolerance` times the
median: what this machine (or the model) cannot tell apart is not called "met".
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """A measured figure held against its target."""

    median: float
    low: float
    high: float
    target: float
    runs: int
    higher_is_better: bool = False
    unit: str = ""
    digits: int = 1
    tolerance: float = 0.0
    error: float = 0.0

    @property
    def state(self) -> str:
        """ "met", "within noise" or "missed"."""
        band = self.tolerance * abs(self.median) + self.error
        if self.low - band <= self.target <= self.high + band:
            return "within noise"
        better = self.median > self.target if self.higher_is_better else self.median < self.target
        return "met" if better else "missed"

    @property
    def margin(self) -> float:
        """How far the median is from the target, as a fraction of the target."""
        return abs(self.median - self.target) / abs(self.target) if self.target else 0.0

    @property
    def percent(self) -> str:
        """The margin as "38 %" (one decimal under 1 %)."""
        value = self.margin * 100
        return f"{value:.1f} %" if value < 1 else f"{value:.0f} %"

    @property
    def met(self) -> bool:
        return self.state == "met"

    def figure(self, value: float) -> str:
        return f"{value:,.{self.digits}f}"

    def figures(self) -> str:
        """The median, the spread of the runs (or the model's error) and the target."""
        unit = f" {self.unit}" if self.unit else ""
        against = f"against {self.figure(self.target)}{unit}"
        if self.runs > 1:
            spread = f", runs {self.figure(self.low)}–{self.figure(self.high)}"
            what = f"median {self.figure(self.median)}{unit}{spread}"
        else:
            what = f"{self.figure(self.median)}{unit}"
        if self.tolerance:
            what += f", model error ±{self.tolerance * 100:g} %"
        if self.error:
            what += f", model error ±{self.figure(self.error)}{unit}"
        return f"{what}, {against}"

    def __str__(self) -> str:
        state = self.state
        if state == "within noise":
            return f"within noise ({self.figures()})"
        return f"{state} by {self.percent} ({self.figures()})"

    @property
    def short(self) -> str:
        """For a table's cell: "met by 38 %", "within noise", "missed by 12 %"."""
        state = self.state
        return state if state == "within noise" else f"{state} by {self.percent}"


def judge(
    runs: Sequence[float],
    target: float,
    *,
    higher_is_better: bool = False,
    unit: str = "",
    digits: int = 1,
    tolerance: float = 0.0,
    error: float = 0.0,
) -> Verdict:
    """The verdict of `runs` (one figure a run; at least one) against `target`; lower is
    better unless `higher_is_better`. `tolerance`: the relative error of a figure that has
    no run-to-run spread (a model), counted as noise on each side of the median; `error`
    the same as an absolute figure, in `unit`."""
    if not runs:
        raise ValueError("a verdict needs at least one run")
    return Verdict(
        median=statistics.median(runs),
        low=min(runs),
        high=max(runs),
        target=target,
        runs=len(runs),
        higher_is_better=higher_is_better,
        unit=unit,
        digits=digits,
        tolerance=tolerance,
        error=error,
    )
