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

from companion import games
from companion.cli_words import language, numeral
from companion.lab.summary import (
    BRANCHING,
    COMEBACKS,
    DECIDED,
    GAME,
    INTEREST,
    LEAD_CHANGES,
    Figure,
    VariantFigures,
    interval,
    never_applied,
    number,
)
from companion.lab.words import rules_said, say, shown

FILES = ("report.html", "figures.json", "figures.csv")
"""What `write` puts in the output folder."""


def game_title(game: str) -> str:
    """The game's name as its rule book writes it (its descriptor's title), not its id."""
    try:
        return games.get(game).title
    except games.UnknownGame:
        return game


def describe(v: VariantFigures) -> str:
    """What was played, in one line."""
    variant = v.variant
    kinds = sorted(set(variant.bots))
    bots = say("every_seat", kind=shown(kinds[0])) if len(kinds) == 1 else ", ".join(variant.bots)
    rules = rules_said(variant.rules) or say("as_ruled")
    return say("describe", title=game_title(variant.game), players=variant.players, bots=bots,
               rules=rules, source=v.source)  # fmt: skip


def _never(v: VariantFigures) -> list[str]:
    """Every ruling that never applied, with what that claims (the upper bound)."""
    return [
        say(
            "never",
            ruling=r.ruling,
            meaning=shown(r.meaning),
            games=v.games,
            bound=number(r.games.high, True),
        )
        for r in never_applied(v)
    ]


# ------------------------------------------------------------------ terminal


def terminal(results: Sequence[VariantFigures]) -> str:
    """The summary printed after a run: for each game, its variants side by side (a column
    each, lettered A, B... and named above the table), a row per figure."""
    lines: list[str] = []
    for game, group in _by_game(results).items():
        letters = [_letter(n) for n in range(len(group))]
        lines.append(f"== {game_title(game)}")
        lines += [
            f"  {k}  {v.variant.name}: {describe(v)}" for k, v in zip(letters, group, strict=True)
        ]
        rows: list[tuple[str, list[str]]] = []  # (label, a cell per variant); "" heads a section
        for section, keys in _sections(group).items():
            rows.append((f"  {shown(section)}", []))
            for label, seat in keys:
                cells = [_cell(v, section, label, seat) for v in group]
                rows.append((f"    {_seat_label(label, seat, group)}", cells))
        applied = [r.ruling for r in group[0].rulings if any(_times(v, r.ruling) for v in group)]
        if applied:
            rows.append((f"  {say('applied')}", []))
            meanings = {r.ruling: shown(r.meaning) for r in group[0].rulings}
            for ruling in applied:
                cells = [_ruling_cell(v, ruling) for v in group]
                rows.append((f"    {ruling} {meanings[ruling]}", cells))
        lines += _columns(rows, letters)
        for line, names in _said(group):
            which = "" if len(names) == len(group) else f" ({', '.join(names)})"
            lines.append(f"  ! {line}{which}")
        for v in group:
            if v.differences:
                lines.append(f"  {say('people', name=v.variant.name)}")
                lines += [f"    {line}" for line in v.differences]
    return "\n".join(lines)


LABEL_WIDTH = 46
"""The terminal's figure names are cut to this (the HTML report has them whole)."""


def _columns(rows: Sequence[tuple[str, list[str]]], letters: Sequence[str]) -> list[str]:
    """The rows as a table: a label column, then a right-aligned column per variant."""
    widths = [max([len(k), *(len(c[n]) for _, c in rows if c)]) for n, k in enumerate(letters)]
    width = min(LABEL_WIDTH, max(len(label) for label, cells in rows if cells))
    head = " ".join(f"{k:>{w}}" for k, w in zip(letters, widths, strict=True))
    out = [f"{'':<{width}}  {head}"]
    for label, cells in rows:
        if not cells:
            out.append(label)
            continue
        cut = label if len(label) <= width else label[: width - 1] + "…"
        row = " ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
        out.append(f"{cut:<{width}}  {row}")
    return out


def _letter(n: int) -> str:
    return chr(ord("A") + n) if n < 26 else f"V{n + 1}"


def _cell(v: VariantFigures, section: str, label: str, seat: int | None) -> str:
    """ "26.1 % [25.2–27.0]": `interval` with the unit once."""
    try:
        f = v.find(section, label, seat)
    except KeyError:
        return ""
    return interval(f).replace(" %–", "–").replace(" %]", "]")


def _seat_label(label: str, seat: int | None, group: Sequence[VariantFigures]) -> str:
    """A seat's figure names the seat, and its bot when the seats' bots differ (in every
    variant alike: otherwise the column's variant says it)."""
    if seat is None:
        return shown(label)
    bots = {v.variant.bots[seat] for v in group if seat < len(v.variant.bots)}
    mixed = any(len(set(v.variant.bots)) > 1 for v in group)
    if mixed and len(bots) == 1:
        return say("seat_bot", label=shown(label), seat=seat + 1, bot=bots.pop())
    return say("seat", label=shown(label), seat=seat + 1)


def _times(v: VariantFigures, ruling: str) -> int:
    return next((r.times for r in v.rulings if r.ruling == ruling), 0)


def _ruling_cell(v: VariantFigures, ruling: str) -> str:
    r = next((x for x in v.rulings if x.ruling == ruling), None)
    return "" if r is None else f"{number(r.games.value, True)} ({numeral(r.times, ',')})"


def _said(group: Sequence[VariantFigures]) -> list[tuple[str, list[str]]]:
    """Each note once, with the variants it is about: rulings that never applied first (a
    finding), then what the rules' arithmetic says."""
    said: list[tuple[str, list[str]]] = []
    for lines_of in (_never, lambda v: v.notes):
        seen: dict[str, list[str]] = {}
        for v in group:
            for line in lines_of(v):
                seen.setdefault(line, []).append(v.variant.name)
        said += list(seen.items())
    return said


def _sections(group: Sequence[VariantFigures]) -> dict[str, list[tuple[str, int | None]]]:
    """Every section's figures (label, seat) over the variants, in the order they come."""
    keys: dict[str, list[tuple[str, int | None]]] = {}
    for v in group:
        for f in (*v.figures, *v.table):
            row = keys.setdefault(f.section, [])
            if (f.label, f.seat) not in row:
                row.append((f.label, f.seat))
    return keys


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


def standalone(title: str, fragment: str) -> str:
    """A whole HTML page of one section (a ladder's, restricted play's), beside the report."""
    return (
        f"<!doctype html><html lang={language()}><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style>{fragment}</html>\n"
    )


def html_report(results: Sequence[VariantFigures], title: str, sections: Sequence[str] = ()) -> str:
    """The whole report as one HTML document; `sections` (HTML fragments: a skill ladder's)
    come after the list of variants, before each game's figures."""
    from companion.lab import plots

    parts = [
        f"<!doctype html><html lang={language()}><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width,initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(say('written', when=f'{datetime.now():%Y-%m-%d %H:%M}'))}</p>",
        f"<table class=variants><tr><th>{say('variant')}<th>{say('what_played')}</tr>",
        *(
            f"<tr><td>{html.escape(v.variant.name)}<td>{html.escape(describe(v))}</tr>"
            for v in results
        ),
        "</table>",
        *sections,
    ]
    for game, group in _by_game(results).items():
        parts.append(f"<h2>{html.escape(game_title(game))}</h2>")
        parts += _notes(group)
        parts.append(plots.figure(say("wins_plot"), plots.wins(group)))
        parts += _tables(group)
        parts += _interest(group)
        parts += _people_and_bots(group)
        parts.append(plots.figure(say("length_plot"), plots.lengths(group)))
        manche = shown(group[0].manche)
        parts.append(plots.figure(say("turns_plot", manche=manche), plots.manches(group)))
        parts.append(_rulings_table(group))
        parts.append(plots.figure(say("rulings_plot"), plots.rulings(group)))
    return "\n".join(parts) + "\n</html>\n"


def _notes(group: Sequence[VariantFigures]) -> list[str]:
    """Each note once, naming the variants it is about unless it is about all of them:
    rulings that never applied first (a finding), then what the rules' arithmetic says."""
    never = {line for v in group for line in _never(v)}
    parts = []
    for line, names in _said(group):
        css = "never" if line in never else "note"
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
    parts = []
    for section, rows in _sections(group).items():
        named = shown(section) if section != GAME else say("wins_and_length")
        parts.append(f"<h3>{html.escape(named)}</h3>")
        parts.append(f"<div class=scroll><table><tr><th>{say('figure')}{head}</tr>")
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
            name = shown(label) if seat is None else say("seat", label=shown(label), seat=seat + 1)
            parts.append(f"<tr><td>{html.escape(name)}{''.join(cells)}</tr>")
        parts.append("</table></div>")
    return parts


def interest_sentence(v: VariantFigures) -> str | None:
    """What the interest figures of a variant say, in one sentence, with how sure."""
    try:
        changes, decided, comebacks = (
            v.find(INTEREST, label) for label in (LEAD_CHANGES, DECIDED, COMEBACKS)
        )
    except KeyError:
        return None
    said = say("interest", name=v.variant.name, changes=interval(changes),
               decided=interval(decided), comebacks=interval(comebacks))  # fmt: skip
    if any(f.section == INTEREST and f.label == BRANCHING for f in v.figures):
        said = say("interest_choices", said=said, choices=interval(v.find(INTEREST, BRANCHING)))
    return say("interest_end", said=said, games=v.games)


def _interest(group: Sequence[VariantFigures]) -> list[str]:
    """The interest plot and what it says, for a game whose records follow a score."""
    from companion.lab import plots

    sentences = [line for v in group if (line := interest_sentence(v))]
    if not sentences:
        return []
    return [
        f"<h3>{say('lead_head')}</h3>",
        *(f"<p>{html.escape(line)}</p>" for line in sentences),
        plots.figure(say("lead_caption"), plots.decided(group)),
    ]


def _people_and_bots(group: Sequence[VariantFigures]) -> list[str]:
    """Where real games differ from the bots' on the same game (`report --against`)."""
    from companion.lab import plots

    parts = []
    for v in group:
        if v.differences:
            parts.append(f"<h3>{html.escape(say('people_head', name=v.variant.name))}</h3>")
            parts.append(f"<p>{html.escape(say('people_method'))}</p><ul>")
            parts += [f"<li>{html.escape(line)}</li>" for line in v.differences]
            parts.append("</ul>")
            if any(b.estimate.value for _, b, _ in v.apart):
                parts.append(plots.figure(say("people_caption"), plots.people_and_bots(v)))
    return parts


def _ci(f: Figure) -> str:
    e = f.estimate
    if math.isnan(e.value) or e.low == e.high:
        return ""
    return f" <span class=ci>[{number(e.low, f.rate)}–{number(e.high, f.rate)}]</span>"


def _rulings_table(group: Sequence[VariantFigures]) -> str:
    head = "".join(f"<th>{html.escape(v.variant.name)}" for v in group)
    rows = [f"<h3>{html.escape(say('rulings_head'))}</h3>"
            f"<table><tr><th>{say('ruling')}{head}</tr>"]  # fmt: skip
    for ruling in group[0].rulings:
        cells = []
        for v in group:
            r = next(x for x in v.rulings if x.ruling == ruling.ruling)
            never = " class=never" if r.times == 0 else ""
            cells.append(f"<td{never}>{number(r.games.value, True)} ({numeral(r.times, ',')})")
        label = say("ruling_label", ruling=ruling.ruling, meaning=shown(ruling.meaning))
        rows.append(f"<tr><td>{html.escape(label)}{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


# ------------------------------------------------------------------ files


def write(
    out: Path, results: Sequence[VariantFigures], title: str, sections: Sequence[str] = ()
) -> list[Path]:
    """report.html (with `sections`, see `html_report`), figures.json and figures.csv in
    `out` (created if missing); each is written beside and renamed, so a reader (the web
    page) never sees half a file."""
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "report.html": html_report(results, title, sections),
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
