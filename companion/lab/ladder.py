"""The skill ladder: bots of rising strength, rated from the lab's games.

A variants file's ``[ladder]`` table names bot kinds, weakest first (``rungs = ["random",
"heuristic", "mcts:20", "mcts:100"]``), and the games to play for each pairing. For every
ordered pair (A, B), A sits alone against B at every other seat, for `games` games; the
first seat rotates with the game's number, so A plays at every place of the turn order.

Ratings: the Luce model (Bradley-Terry for two seats): A wins a game against the field of
B's with probability r_A / (r_A + (n-1) r_B). Fitted by Hunter's MM algorithm, shown on
the Elo scale (400 log10 of the ratio) with the first rung at 0, and a 95 % interval from
a seeded bootstrap of each pairing's games. How much skill decides: the strongest rung's
win rate alone against the weakest, with its Wilson interval, against the 1/n of luck.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.lab.model import GameRecord, Variant
from companion.lab.stats import Estimate, wilson
from companion.lab.variants import VariantError, parse_variants

KEYS = ("rungs", "games", "game", "players", "seed", "rules")
BOOTSTRAP = 200
"""Resamples for the ratings' intervals."""
ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Ladder:
    """The rungs to rate, and the pairings' games as variants (one per ordered pair)."""

    game: str
    players: int
    rungs: tuple[str, ...]
    pairings: tuple[tuple[int, int, Variant], ...]
    """(the lone rung, the field's rung, its variant)."""


@dataclass(frozen=True)
class Rating:
    bot: str
    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class LadderFigures:
    ladder: Ladder
    ratings: tuple[Rating, ...]
    pairs: tuple[tuple[str, str, Estimate], ...]
    """(the lone bot, the field's bot, the lone bot's win rate)."""
    skill: Estimate
    """The strongest rung's win rate alone against the weakest."""
    luck: float
    """1 / players: a lone seat's share when skill decides nothing."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.ladder.game,
            "players": self.ladder.players,
            "ratings": [r.__dict__ for r in self.ratings],
            "pairs": [{"alone": a, "field": b, "wins": e.to_json()} for a, b, e in self.pairs],
            "skill": self.skill.to_json(),
            "luck": self.luck,
        }


def read_ladder(data: Mapping[str, Any], name: str) -> Ladder | None:
    """The file's ladder (its ``[ladder]`` table, over the file's defaults), None when it
    has none; VariantError naming the key otherwise."""
    table = data.get("ladder")
    if table is None:
        return None
    where = f"{name}: ladder"
    if not isinstance(table, dict):
        raise VariantError(where, "write it as a table, [ladder]")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise VariantError(where, f"unknown key {', '.join(unknown)}; keys are {', '.join(KEYS)}")
    rungs = table.get("rungs")
    if (
        not isinstance(rungs, list)
        or len(rungs) < 2
        or not all(isinstance(r, str) for r in rungs)
        or len(set(rungs)) != len(rungs)
    ):
        raise VariantError(where, "rungs: two or more different bot kinds, weakest first")
    defaults = {k: data[k] for k in ("game", "players", "seed", "rules") if k in data}
    settings = {**defaults, **{k: v for k, v in table.items() if k != "rungs"}}
    settings.setdefault("games", 100)
    first = parse_variants({**settings, "bots": [rungs[0]]}, where)[0]
    players = first.players
    pairings = []
    for a, lone in enumerate(rungs):
        for b, field in enumerate(rungs):
            if a != b:
                bots = [lone] + [field] * (players - 1)
                tables = [{"name": f"{lone} alone against {field}", "bots": bots}]
                variant = parse_variants({**settings, "variant": tables}, where)[0]
                pairings.append((a, b, variant))
    return Ladder(first.game, players, tuple(rungs), tuple(pairings))


def _wins(records: Sequence[GameRecord]) -> tuple[float, int]:
    """The lone seat's (seat 0) wins, a shared win a part, over the decided games."""
    decided = [r for r in records if r.winners]
    return sum(1 / len(r.winners) for r in decided if 0 in r.winners), len(decided)


def fit(rungs: int, players: int, results: Sequence[tuple[int, int, float, int]]) -> list[float]:
    """Luce ratings (log scale, the first rung 0) from (lone rung, field rung, lone wins,
    games) by Hunter's MM algorithm; a rung that never wins or never loses is held a
    little off the edge (half a win added to every pairing)."""
    r = [1.0] * rungs
    field = players - 1
    for _ in range(500):
        wins = [0.0] * rungs
        spent = [0.0] * rungs
        for a, b, w, n in results:
            w, n = w + 0.5, n + 1  # a prior half win each way: finite ratings
            total = r[a] + field * r[b]
            wins[a] += w
            wins[b] += n - w  # the field's win: one of its seats, the rung's
            spent[a] += n / total
            spent[b] += n * field / total
        new = [wins[i] / spent[i] if spent[i] else r[i] for i in range(rungs)]
        new = [x / new[0] for x in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, r, strict=True)) < 1e-9
        r = new
        if done:
            break
    return [math.log(x) for x in r]


def figures(ladder: Ladder, records: Sequence[Sequence[GameRecord]]) -> LadderFigures:
    """The ladder's ratings, pairings and skill figure from its pairings' records (in the
    order of `ladder.pairings`)."""
    n = len(ladder.rungs)
    played = zip(ladder.pairings, records, strict=True)
    counts = [(a, b, *_wins(recs)) for (a, b, _), recs in played]
    best = fit(n, ladder.players, counts)
    rng = random.Random(0)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(BOOTSTRAP):
        drawn = []
        for a, b, w, games in counts:
            p = w / games if games else 0.0
            drawn.append((a, b, float(sum(rng.random() < p for _ in range(games))), games))
        for i, x in enumerate(fit(n, ladder.players, drawn)):
            samples[i].append(x)
    ratings = []
    for i, bot in enumerate(ladder.rungs):
        s = sorted(samples[i])
        low, high = s[int(0.025 * len(s))], s[min(len(s) - 1, int(0.975 * len(s)))]
        ratings.append(Rating(bot, ELO * best[i], ELO * low, ELO * high))
    pairs = tuple((ladder.rungs[a], ladder.rungs[b], wilson(w, games)) for a, b, w, games in counts)
    top = max(range(n), key=lambda i: best[i])
    bottom = min(range(n), key=lambda i: best[i])
    skill = next(e for a, b, e in pairs if (a, b) == (ladder.rungs[top], ladder.rungs[bottom]))
    return LadderFigures(ladder, tuple(ratings), pairs, skill, 1 / ladder.players)


def decided_by_skill(wins: Estimate, players: int) -> Estimate:
    """The share of games decided by skill, q = (P - 1/n) / (1 - 1/n), from the win rate P
    of a stronger player alone against weaker ones at the n - 1 other seats (and its
    interval, from P's): were a share q of games won by the better player outright and the
    rest drawn by lot (each seat 1/n), the better player would win q + (1 - q)/n. It is 0
    when the stronger player wins no more than luck gives, 1 when it wins every game, and
    it takes out the 1/n of luck, so that games of different seat counts compare."""
    luck = 1 / players

    def q(p: float) -> float:
        return (p - luck) / (1 - luck)

    return Estimate(q(wins.value), q(wins.low), q(wins.high), wins.n)


def transitive(figures: LadderFigures) -> bool:
    """Whether every rung that beats another alone also rates above it (within the
    intervals: a pairing whose interval holds the 1/n of luck proves nothing)."""
    elo = {r.bot: r for r in figures.ratings}
    beaten = [(a, b) for a, b, e in figures.pairs if e.low > figures.luck]
    return all(elo[a].high >= elo[b].low for a, b in beaten)


def _pct(e: Estimate) -> str:
    return f"{e.value:.0%} [{e.low:.0%}, {e.high:.0%}]"


def sentence(f: LadderFigures) -> str:
    """What the skill figure means, in one sentence."""
    top = max(f.ratings, key=lambda r: r.elo).bot
    bottom = min(f.ratings, key=lambda r: r.elo).bot
    s = f.skill
    if s.low > f.luck:
        verdict = "skill decides: the better player wins more than luck would give"
    elif s.high < f.luck:
        verdict = "the stronger bot wins less than luck would give: the ladder is upside down"
    else:
        verdict = "these games cannot tell skill from luck (the interval holds 1/n)"
    return (
        f"{top} alone against {bottom} wins {_pct(s)} of {s.n:,} games, against "
        f"{f.luck:.0%} by luck: {verdict}."
    )


def terminal(f: LadderFigures) -> str:
    """The ladder as the terminal prints it."""
    from companion.lab.report import game_title

    lines = [f"Skill ladder: {game_title(f.ladder.game)}, {f.ladder.players} players"]
    width = max(len(r.bot) for r in f.ratings)
    for r in sorted(f.ratings, key=lambda r: -r.elo):
        lines.append(f"  {r.bot:<{width}}  Elo {r.elo:+6.0f}  [{r.low:+.0f}, {r.high:+.0f}]")
    lines.append("  alone against the field, win rate:")
    for a, b, e in f.pairs:
        lines.append(f"    {a:<{width}} vs {b:<{width}}  {_pct(e)}")
    lines.append("  " + sentence(f))
    return "\n".join(lines)


def html(f: LadderFigures) -> str:
    """The ladder's section of a report (a self-contained HTML fragment, no script)."""
    from html import escape

    from companion.lab.report import game_title

    rows = "".join(
        f"<tr><td>{escape(r.bot)}</td><td>{r.elo:+.0f}</td><td>{r.low:+.0f} to {r.high:+.0f}"
        f"</td><td><span style='display:inline-block;height:0.8em;background:#4a7;"
        f"width:{max(1, round(r.elo - min(x.elo for x in f.ratings)) // 4)}px'></span></td></tr>"
        for r in sorted(f.ratings, key=lambda r: -r.elo)
    )
    pairs = "".join(
        f"<tr><td>{escape(a)}</td><td>{escape(b)}</td><td>{_pct(e)}</td></tr>"
        for a, b, e in f.pairs
    )
    return (
        f"<section><h2>Skill ladder: {escape(game_title(f.ladder.game))}, "
        f"{f.ladder.players} players</h2>"
        f"<p>{escape(sentence(f))}</p>"
        "<table><tr><th>bot</th><th>Elo</th><th>95 % interval</th><th></th></tr>"
        f"{rows}</table>"
        "<h3>Alone against the field</h3><table><tr><th>alone</th><th>field</th>"
        f"<th>wins (95 %)</th></tr>{pairs}</table></section>"
    )


def page(f: LadderFigures) -> str:
    """A whole HTML page of the ladder (beside report.html), its style inline."""
    from companion.lab.report import standalone

    return standalone("Skill ladder", html(f))
