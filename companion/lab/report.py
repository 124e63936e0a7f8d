"""The lab's outputs: a terminal summary, figures.json, figures.csv and report.html.

The HTML report is one self-contained file (its plots are inline SVG drawn by
matplotlib, its style inline): it can be mailed, opened from a USB stick, or served by the
table's web page. Variants of one game are compared side by side, figure by figure.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.lab.summary import GAME, Figure, VariantFigures, never_applied

FILES = ("report.html", "figures.json", "figures.csv")
"""What `write` puts in the output folder."""


# ------------------------------------------------------------------ numbers in words


def number(value: float, rate: bool = False) -> str:
    if math.isnan(value):
        return "–"
    if rate:
        small = 1e-12 < value < 0.01  # "0.04 %", not "0.0 %": the upper bound of a rare case
        return f"{100 * value:.2f} %" if small else f"{100 * value:.1f} %"
    return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.1f}"


def interval(figure: Figure) -> str:
    """ "26.1 % [25.2–27.0]": the value and its 95 % interval."""
    e = figure.estimate
    value = number(e.value, figure.rate)
    if math.isnan(e.value) or e.low == e.high:
        return value
    return f"{value} [{number(e.low, figure.rate)}–{number(e.high, figure.rate)}]"


def describe(v: VariantFigures) -> str:
    """What was played, in one line."""
    variant = v.variant
    kinds = sorted(set(variant.bots))
    bots = f"{kinds[0]} at every seat" if len(kinds) == 1 else ", ".join(variant.bots)
    rules = ", ".join(f"{k} = {val}" for k, val in variant.rules.items()) or "rules as ruled"
    return f"{variant.game}, {variant.players} players ({bots}); {rules}; {v.source}"


def _label(figure: Figure, bots: Sequence[str]) -> str:
    """The figure's name; a seat's figure names the seat, and its bot when they differ."""
    if figure.seat is None:
        return figure.label
    seat = f"{figure.label}, seat {figure.seat + 1}"
    return f"{seat} ({bots[figure.seat]})" if len(set(bots)) > 1 else seat


def _never(v: VariantFigures) -> list[str]:
    """Every ruling that never applied, with what that claims (the upper bound)."""
    return [
        f"{r.ruling} ({r.meaning}) never applied in {v.games:,} games "
        f"(95 % upper bound: {number(r.games.high, True)} of games)"
        for r in never_applied(v)
    ]


# ------------------------------------------------------------------ terminal


def terminal(results: Sequence[VariantFigures]) -> str:
    """The summary printed after a run: the figures of each variant, one per line."""
    lines: list[str] = []
    for v in results:
        lines.append(f"== {v.variant.name}: {describe(v)}")
        section = None
        for figure in (*v.figures, *v.table):
            if figure.section != section:
                section = figure.section
                lines.append(f"  {section}")
            lines.append(f"    {_label(figure, v.variant.bots):<52} {interval(figure)}")
        applied = [r for r in v.rulings if r.times]
        if applied:
            lines.append("  Rulings applied (share of games, times in all)")
            for r in applied:
                share = number(r.games.value, True)
                lines.append(f"    {r.ruling:<8} {r.meaning:<40} {share:>8}  {r.times:,}")
        for line in [*_never(v), *v.notes]:
            lines.append(f"  ! {line}")
    return "\n".join(lines)


# ------------------------------------------------------------------ JSON and CSV


def to_json(results: Sequence[VariantFigures], title: str) -> dict[str, Any]:
    return {"title": title, "variants": [v.to_json() for v in results]}


CSV_COLUMNS = ("variant", "game", "section", "figure", "seat", "value", "low", "high", "n")


def to_csv(results: Sequence[VariantFigures]) -> str:
    """One row per figure and per ruling (section "Rulings": the share of games)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for v in results:
        name, game = v.variant.name, v.variant.game
        for f in (*v.figures, *v.table):
            e = f.estimate
            seat = "" if f.seat is None else f.seat + 1
            writer.writerow((name, game, f.section, f.label, seat, e.value, e.low, e.high, e.n))
        for r in v.rulings:
            e = r.games
            writer.writerow((name, game, "Rulings", r.ruling, "", e.value, e.low, e.high, e.n))
    return out.getvalue()


# ------------------------------------------------------------------ HTML

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:62rem;padding:1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
h3{font-size:1rem;margin:1.2rem 0 .3rem}
table{border-collapse:collapse;width:100%;margin:.3rem 0}
td,th{padding:.2rem .5rem;border-bottom:1px solid #eee;text-align:right;vertical-align:top}
td+td{white-space:nowrap}.scroll{overflow-x:auto}
td:first-child,th:first-child{text-align:left}
.ci{color:#777;font-size:.85em}td.never{color:#a40}
p.never{background:#fde8e0;padding:.4rem .6rem}p.note{background:#eef3fb;padding:.4rem .6rem}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}
.variants td:nth-child(2),.variants th:nth-child(2){text-align:left}
"""


def html_report(results: Sequence[VariantFigures], title: str) -> str:
    """The whole report as one HTML document."""
    from companion.lab import plots

    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width,initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Written {datetime.now():%Y-%m-%d %H:%M}. Intervals are 95 %: Wilson for "
        "shares, normal for means. A shared win counts a part to each winner.</p>",
        "<table class=variants><tr><th>variant<th>what was played</tr>",
        *(
            f"<tr><td>{html.escape(v.variant.name)}<td>{html.escape(describe(v))}</tr>"
            for v in results
        ),
        "</table>",
    ]
    for game, group in _by_game(results).items():
        parts.append(f"<h2>{html.escape(game)}</h2>")
        parts += _notes(group)
        parts.append(plots.figure("Wins by seat and of the first player", plots.wins(group)))
        parts += _tables(group)
        parts.append(plots.figure("Game length", plots.lengths(group)))
        parts.append(plots.figure(f"Turns per {group[0].manche}", plots.manches(group)))
        parts.append(_rulings_table(group))
        parts.append(plots.figure("How often each ruling applied", plots.rulings(group)))
    return "\n".join(parts) + "\n</html>\n"


def _notes(group: Sequence[VariantFigures]) -> list[str]:
    """Each note once, naming the variants it is about unless it is about all of them:
    rulings that never applied first (a finding), then what the rules' arithmetic says."""
    parts = []
    for css, lines_of in (("never", _never), ("note", lambda v: v.notes)):
        seen: dict[str, list[str]] = {}
        for v in group:
            for line in lines_of(v):
                seen.setdefault(line, []).append(v.variant.name)
        for line, names in seen.items():
            which = "" if len(names) == len(group) else f" ({', '.join(names)})"
            parts.append(f"<p class={css}>{html.escape(line + which)}</p>")
    return parts


def _by_game(results: Sequence[VariantFigures]) -> dict[str, list[VariantFigures]]:
    groups: dict[str, list[VariantFigures]] = {}
    for v in results:
        groups.setdefault(v.variant.game, []).append(v)
    return groups


def _tables(group: Sequence[VariantFigures]) -> list[str]:
    """One table per section: a row per figure, a column per variant."""
    head = "".join(f"<th>{html.escape(v.variant.name)}" for v in group)
    keys: dict[str, list[tuple[str, int | None]]] = {}
    for v in group:
        for f in (*v.figures, *v.table):
            row = keys.setdefault(f.section, [])
            if (f.label, f.seat) not in row:
                row.append((f.label, f.seat))
    parts = []
    for section, rows in keys.items():
        parts.append(f"<h3>{html.escape(section if section != GAME else 'Wins and length')}</h3>")
        parts.append(f"<div class=scroll><table><tr><th>figure{head}</tr>")
        for label, seat in rows:
            cells = []
            for v in group:
                try:
                    f = v.find(section, label, seat)
                except KeyError:
                    cells.append("<td>")
                    continue
                e = f.estimate
                cells.append(f"<td>{number(e.value, f.rate)}{_ci(f)}")
            name = label if seat is None else f"{label}, seat {seat + 1}"
            parts.append(f"<tr><td>{html.escape(name)}{''.join(cells)}</tr>")
        parts.append("</table></div>")
    return parts


def _ci(f: Figure) -> str:
    e = f.estimate
    if math.isnan(e.value) or e.low == e.high:
        return ""
    return f" <span class=ci>[{number(e.low, f.rate)}–{number(e.high, f.rate)}]</span>"


def _rulings_table(group: Sequence[VariantFigures]) -> str:
    head = "".join(f"<th>{html.escape(v.variant.name)}" for v in group)
    rows = [f"<h3>Rulings: share of games where each applied (times in all)</h3>"
            f"<table><tr><th>ruling{head}</tr>"]  # fmt: skip
    for ruling in group[0].rulings:
        cells = []
        for v in group:
            r = next(x for x in v.rulings if x.ruling == ruling.ruling)
            never = " class=never" if r.times == 0 else ""
            cells.append(f"<td{never}>{number(r.games.value, True)} ({r.times:,})")
        label = f"{ruling.ruling}: {ruling.meaning}"
        rows.append(f"<tr><td>{html.escape(label)}{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


# ------------------------------------------------------------------ files


def write(out: Path, results: Sequence[VariantFigures], title: str) -> list[Path]:
    """report.html, figures.json and figures.csv in `out` (created if missing); each is
    written beside and renamed, so a reader (the web page) never sees half a file."""
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "report.html": html_report(results, title),
        "figures.json": json.dumps(to_json(results, title), indent=1, allow_nan=False) + "\n",
        "figures.csv": to_csv(results),
    }
    paths = []
    for name, text in texts.items():
        path = out / name
        part = path.with_name(f".{name}.part")
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
        paths.append(path)
    return paths
