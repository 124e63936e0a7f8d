"""The report's plots, drawn by matplotlib as inline SVG (no file beside the report)."""

from __future__ import annotations

import html
import io
from collections import Counter
from collections.abc import Sequence
from typing import Any

from companion.cli_words import numeral
from companion.lab.summary import GAME, VariantFigures, figure_name
from companion.lab.words import say, shown


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no display: the lab runs on servers and on the Pi
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "companion-lab"  # the same figures give the same SVG
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    return plt


def figure(caption: str, svg: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _svg(fig: Any) -> str:
    plt = _pyplot()
    from matplotlib.ticker import ScalarFormatter

    for ax in fig.axes:  # the ticks' numbers as the report's language writes them (0,25)
        for axis in (ax.xaxis, ax.yaxis):
            if isinstance(axis.get_major_formatter(), ScalarFormatter):
                axis.set_major_formatter(lambda x, _: numeral(x))
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg") :]


def wins(group: Sequence[VariantFigures]) -> str:
    """Win share by seat and of the first player, a bar per variant with its interval; the
    dashed line is an even share (one game in N for N seats)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    width = 0.8 / len(group)
    seats = max(v.variant.players for v in group)
    for i, v in enumerate(group):
        bars = [f for f in v.figures if f.section == GAME and f.label == "wins"]
        bars.append(v.find(GAME, "won by the first player"))
        xs = [n + 1 - 0.4 + width * (i + 0.5) for n in range(len(bars) - 1)]
        xs.append(seats + 1.5 - 0.4 + width * (i + 0.5))
        values = [100 * f.estimate.value for f in bars]
        errors = [  # clamped: a Wilson bound may sit a rounding error past its value
            [max(0.0, 100 * (f.estimate.value - f.estimate.low)) for f in bars],
            [max(0.0, 100 * (f.estimate.high - f.estimate.value)) for f in bars],
        ]
        ax.bar(xs, values, width, yerr=errors, capsize=3, label=v.variant.name)
        ax.axhline(100 / v.variant.players, color="#888", linewidth=0.8, linestyle="--")
    ax.set_ylabel(say("won_axis"))
    ticks = [*range(1, seats + 1), seats + 1.5]
    seat_ticks = [say("seat_tick", n=n) for n in range(1, seats + 1)]
    ax.set_xticks(ticks, [*seat_ticks, say("first_player")])
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def _histogram(group: Sequence[VariantFigures], values: str, xlabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    for v in group:
        counts: Counter[int] = getattr(v, values)  # each value once, weighed by its games
        if counts:
            ax.hist(list(counts), bins=min(60, max(5, len(counts))), weights=list(counts.values()),
                    histtype="step", density=True, linewidth=1.4, label=v.variant.name)  # fmt: skip
    ax.set_xlabel(xlabel)
    ax.set_ylabel(say("share_axis"))
    if ax.get_legend_handles_labels()[1]:  # a group with no data draws an empty frame
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def lengths(group: Sequence[VariantFigures]) -> str:
    return _histogram(group, "lengths", say("decisions_axis"))


def manches(group: Sequence[VariantFigures]) -> str:
    return _histogram(group, "manche_turns", say("turns_axis", manche=shown(group[0].manche)))


def rulings(group: Sequence[VariantFigures]) -> str:
    """The share of games where each ruling applied; a ruling that never did shows 0."""
    plt = _pyplot()
    names = [r.ruling for r in group[0].rulings]
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.32 * max(1, len(names)) * len(group) ** 0.5))
    height = 0.8 / len(group)
    for i, v in enumerate(group):
        ys = [n - 0.4 + height * (i + 0.5) for n in range(len(names))]
        ax.barh(ys, [100 * r.games.value for r in v.rulings], height, label=v.variant.name)
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel(say("applied_axis"))
    ax.set_xlim(0, 100)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def decided(group: Sequence[VariantFigures]) -> str:
    """For each variant, the share of games (with a sole winner) whose winner already led
    for good at each point of the game: a curve that climbs early is a game decided early."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    for v in group:
        if v.decided:
            xs, ys = _steps(sorted(100 * d for d in v.decided))
            ax.step([0.0, *xs, 100.0], [0.0, *ys, 100.0], where="post", linewidth=1.4,
                    label=v.variant.name)  # fmt: skip
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_xlabel(say("point_axis"))
    ax.set_ylabel(say("leads_axis"))
    if ax.get_legend_handles_labels()[1]:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def _steps(xs: Sequence[float]) -> tuple[list[float], list[float]]:
    """The points of the cumulative share of sorted `xs`: each value once, at the share of
    the values up to it (a repeated value would only add points along the same rise)."""
    n = len(xs)
    last = [i for i in range(n) if i + 1 == n or xs[i + 1] != xs[i]]
    return [xs[i] for i in last], [100 * (i + 1) / n for i in last]


def people_and_bots(v: VariantFigures) -> str:
    """Each figure where people differ from the bots, as a share of the bots' value (100 %:
    the same), with the people's interval: left of the line, people do less."""
    plt = _pyplot()
    apart = [(f, b, bots) for f, b, bots in v.apart if b.estimate.value]
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.3 * max(1, len(apart))))
    for y, (f, b, _) in enumerate(apart):
        base = b.estimate.value
        value = 100 * f.estimate.value / base
        low, high = 100 * f.estimate.low / base, 100 * f.estimate.high / base
        ax.errorbar([value], [y], xerr=[[max(0.0, value - low)], [max(0.0, high - value)]],
                    fmt="o", color="#c33" if value < 100 else "#36c", capsize=3)  # fmt: skip
    ax.axvline(100, color="#888", linewidth=0.8, linestyle="--")
    names = [say("versus", figure=figure_name(f), bots=bots) for f, _, bots in apart]
    ax.set_yticks(range(len(apart)), names)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(lambda x, _: f"{numeral(x)} %")
    ax.set_xlabel(say("people_axis"))
    return _svg(fig)
