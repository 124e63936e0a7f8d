"""The skill ladder: bots of rising strength, rated from the lab's games, and how much skill
decides the game.

A variants file's ``[ladder]`` table names bot kinds, weakest first (``rungs = ["random",
"heuristic", "mcts:20", "mcts:100"]``), and the games to play for each pairing (`GAMES`
unless it says). For every ordered pair (A, B), A sits alone against B at every other
seat, for `games` games; the first seat rotates with the game's number, so A plays at
every place of the turn order.

Ratings: the Luce model (Bradley-Terry for two seats): A wins a game against the field of
B's with probability r_A / (r_A + (n-1) r_B), fitted by maximum likelihood (Newton's
method on the log-ratings), shown on the Elo scale (400 log10 of the ratio). Its intervals
come from resampling each pairing's games (`RESAMPLES` times, the percentile interval):
the game is the unit, as it was played.

Where the rungs above won every game against the rungs below, no finite rating fits
(it would grow without bound): the ladder is cut there into blocks. Each block is rated on
its own, its first rung at 0, and between two blocks the report gives what the games do
bound: a one-sided 95 % lower bound of the gap, the gap at which winning every one of
those games would have had a chance of 5 % (as Clopper and Pearson bound a share of 100 %).

What the ladder says besides: whether one strength per bot explains the pairings (the
deviance of the fit, its p-value by a parametric bootstrap), whether the pairings are
transitive (no three rungs beating each other in a circle), each step up the ladder
(a rung against the one below it, the headline), and the share of games decided by skill
(`decided_by_skill`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.cli_words import numeral, said
from companion.lab.model import Variant
from companion.lab.stats import Estimate, wilson
from companion.lab.tally import Tally
from companion.lab.variants import (
    VariantError,
    distinct_names,
    load_lab,
    parse_variants,
    read_study,
)
from companion.report_words import LADDER_SAYS

if TYPE_CHECKING:
    import numpy as np

KEYS = ("rungs", "games", "reference", "game", "players", "seed", "rules")
GAMES = 100
"""Games a pairing when the file does not say: enough for the ratings' 95 % intervals to
hold the true strengths at least 90 % of the time (tests/lab/test_ladder.py)."""
RESAMPLES = 2000
"""Resamples of the games for the intervals."""
FIT_RESAMPLES = 1000
"""Ladders simulated from the fit for its goodness-of-fit p-value."""
ELO = 400 / math.log(10)
UNBOUNDED = 1500.0
"""An interval's end beyond this many Elo (odds of 5,000 to 1) is shown as unbounded: the
resamples that reach it are ladders some rung won every game of."""
RIDGE = 1e-4
"""A tiny pull of the log-ratings towards their block's first rung, so that a resample in
which one rung wins every game still gives a (huge) finite rating."""


@dataclass(frozen=True)
class Ladder:
    """The rungs to rate, and the pairings' games as variants (one per ordered pair)."""

    game: str
    players: int
    rungs: tuple[str, ...]
    pairings: tuple[tuple[int, int, Variant], ...]
    """(the lone rung, the field's rung, its variant)."""
    reference: int = 0
    """The rung the skill figure measures the strongest against (`decided_by_skill`)."""


@dataclass(frozen=True)
class Rating:
    bot: str
    elo: float
    """Within its block, the block's first rung at 0."""
    low: float
    high: float
    """The 95 % interval (an end may be infinite: `UNBOUNDED`)."""
    block: int
    """Its block, 0 the weakest (`Ladder`'s docstring)."""


@dataclass(frozen=True)
class Step:
    """Two rungs' own games (both pairings): how far the stronger stands above."""

    upper: str
    lower: str
    elo: float
    """The gap, from their games alone (infinite when `upper` won them all)."""
    low: float
    high: float
    games: int
    swept: bool
    """`upper` won every game: `low` is a one-sided 95 % bound, `high` infinite."""


@dataclass(frozen=True)
class Fit:
    """How well one strength per bot explains the pairings."""

    deviance: float
    freedom: int
    p: float
    """Its p-value by a parametric bootstrap (NaN with no degree of freedom)."""


@dataclass(frozen=True)
class LadderFigures:
    ladder: Ladder
    ratings: tuple[Rating, ...]
    gaps: tuple[Step, ...]
    """Between adjacent blocks (weakest first): the smallest gap's one-sided bound."""
    steps: tuple[Step, ...]
    """Each rung against the one below it in the file (the headline), intervals holding
    together over all the steps."""
    pairs: tuple[tuple[str, str, Estimate], ...]
    """(the lone bot, the field's bot, the lone bot's win rate)."""
    fit: Fit
    circles: tuple[tuple[str, str, str], ...]
    """Three rungs beating each other in a circle (each step's interval clear of 0)."""
    skill: Estimate
    """The strongest rung's win rate alone against the reference rung."""
    decided: Estimate
    """`decided_by_skill(skill)`: the share of games decided by skill."""
    luck: float
    """1 / players: a lone seat's share when skill decides nothing."""

    def to_json(self) -> dict[str, Any]:
        def step(s: Step) -> dict[str, Any]:
            return {"upper": s.upper, "lower": s.lower, "elo": _finite(s.elo),
                    "low": _finite(s.low), "high": _finite(s.high), "games": s.games,
                    "swept": s.swept}  # fmt: skip

        return {
            "game": self.ladder.game,
            "players": self.ladder.players,
            "ratings": [
                {"bot": r.bot, "elo": r.elo, "low": _finite(r.low), "high": _finite(r.high),
                 "block": r.block}  # fmt: skip
                for r in self.ratings
            ],
            "gaps": [step(g) for g in self.gaps],
            "steps": [step(s) for s in self.steps],
            "pairs": [{"alone": a, "field": b, "wins": e.to_json()} for a, b, e in self.pairs],
            "fit": {"deviance": self.fit.deviance, "freedom": self.fit.freedom,
                    "p": _finite(self.fit.p)},  # fmt: skip
            "circles": [list(c) for c in self.circles],
            "skill": {"strongest": self.ladder.rungs[-1],
                      "reference": self.ladder.rungs[self.ladder.reference],
                      "wins": self.skill.to_json(), "decided_by_skill": self.decided.to_json()},
            "luck": self.luck,
        }  # fmt: skip


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


# ------------------------------------------------------------------ the file's [ladder]


def read_ladder(data: Mapping[str, Any], name: str) -> Ladder | None:
    """The file's ladder (its ``[ladder]`` table, over the file's defaults), None when it
    has none; VariantError naming the key otherwise."""
    found = read_study(data, "ladder", name, KEYS, ("rungs", "reference"))
    if found is None:
        return None
    table, where, settings = found
    rungs = table.get("rungs")
    if not distinct_names(rungs, 2):
        raise VariantError(where, "rungs: two or more different bot kinds, weakest first")
    settings.setdefault("games", GAMES)
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
    reference = table.get("reference", _own_bot(first.game, rungs))
    if reference not in rungs[:-1]:
        raise VariantError(where, "reference: a rung below the last (the skill figure's yardstick)")
    return Ladder(first.game, players, tuple(rungs), tuple(pairings), rungs.index(reference))


def _own_bot(game: str, rungs: Sequence[str]) -> str:
    """The game's own bot (its first kind) when it is a rung below the last, else the
    first rung."""
    from companion import games

    own = games.get(game).bots[0]
    load_lab(game)  # a game the lab plays (its error named by parse_variants already)
    return own if own in rungs[:-1] else rungs[0]


# ------------------------------------------------------------------ figures


Played = tuple[int, int, Sequence[float]]
"""(lone rung, field rung, the lone seat's share of each game)."""


def figures(ladder: Ladder, tallies: Sequence[Tally], seed: int = 0) -> LadderFigures:
    """The ladder's figures from its pairings' tallies (in the order of `ladder.pairings`):
    the lone seat's (seat 1's) wins, in any order (the games are resampled)."""
    played = [
        (a, b, counted.wins(0)) for (a, b, _), counted in zip(ladder.pairings, tallies, strict=True)
    ]
    return rate(ladder, played, seed)


def rate(ladder: Ladder, played: Sequence[Played], seed: int = 0) -> LadderFigures:
    """The ladder's figures from each pairing's games (`Played`)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n, players = len(ladder.rungs), ladder.players
    names = ladder.rungs
    lone, field, games, wins = _arrays(played)
    resampled = _resample(played, rng)  # (RESAMPLES, pairings)
    blocks = _blocks(n, lone, field, wins, games)
    ratings, theta = _ratings(names, players, blocks, lone, field, wins, games, resampled)
    gaps = tuple(
        _sweep_bound(names, played, blocks[k + 1], blocks[k], players)
        for k in range(len(blocks) - 1)
    )
    steps = _steps(ladder, played, resampled, games)
    circles = _circles(names, _all_steps(ladder, played, resampled, games))
    pairs = tuple(
        (names[a], names[b], wilson(math.fsum(shares), len(shares))) for a, b, shares in played
    )
    skill = next(e for a, b, e in pairs if (a, b) == (names[-1], names[ladder.reference]))
    fit = _goodness(blocks, lone, field, wins, games, theta, players, rng)
    return LadderFigures(ladder, ratings, gaps, steps, pairs, fit, circles, skill,
                         decided_by_skill(skill, players), 1 / players)  # fmt: skip


def ratings(ladder: Ladder, played: Sequence[Played], seed: int = 0) -> tuple[Rating, ...]:
    """The ratings alone (`rate` says all the rest)."""
    import numpy as np

    lone, field, games, wins = _arrays(played)
    resampled = _resample(played, np.random.default_rng(seed))
    blocks = _blocks(len(ladder.rungs), lone, field, wins, games)
    found = _ratings(ladder.rungs, ladder.players, blocks, lone, field, wins, games, resampled)
    return found[0]


def _arrays(played: Sequence[Played]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pairing's lone rung, field rung, games and the lone rung's wins."""
    import numpy as np

    lone, field = np.array([p[0] for p in played]), np.array([p[1] for p in played])
    games = np.array([len(p[2]) for p in played], dtype=float)
    return lone, field, games, np.array([math.fsum(p[2]) for p in played])


def _ratings(
    names: Sequence[str],
    players: int,
    blocks: Sequence[Sequence[int]],
    lone: np.ndarray,
    field: np.ndarray,
    wins: np.ndarray,
    games: np.ndarray,
    resampled: np.ndarray,
) -> tuple[tuple[Rating, ...], np.ndarray]:
    """Each block's ratings, fitted to the games and to each resample of them: the ratings
    with their percentile intervals, and the log-ratings fitted."""
    import numpy as np

    theta = np.zeros(len(names))
    drawn = np.zeros((len(resampled), len(names)))
    block_of = {}
    for number, block in enumerate(blocks):
        theta[block] = _fit_block(block, lone, field, wins[None, :], games, players)[0]
        drawn[:, block] = _fit_block(block, lone, field, resampled, games, players)
        block_of.update(dict.fromkeys(block, number))
    found = []
    for rung, name in enumerate(names):
        low, high = np.percentile(drawn[:, rung], [2.5, 97.5])
        found.append(Rating(name, ELO * theta[rung], _capped(ELO * low), _capped(ELO * high),
                            block_of[rung]))  # fmt: skip
    return tuple(found), theta


def _capped(elo: float) -> float:
    return elo if abs(elo) < UNBOUNDED else math.copysign(math.inf, elo)


def _resample(played: Sequence[Played], rng: np.random.Generator) -> np.ndarray:
    """Each pairing's lone wins in `RESAMPLES` resamples of its games (drawn with
    replacement, as many as were played)."""
    import numpy as np

    out = np.zeros((RESAMPLES, len(played)))
    for column, (_, _, shares) in enumerate(played):
        if not shares:
            continue
        values, counts = np.unique(np.array(shares, dtype=float), return_counts=True)
        drawn = rng.multinomial(len(shares), counts / counts.sum(), size=RESAMPLES)
        out[:, column] = drawn @ values
    return out


def _blocks(
    n: int, lone: np.ndarray, field: np.ndarray, wins: np.ndarray, games: np.ndarray
) -> list[list[int]]:
    """The rungs cut where the rungs above won every game against those below: the
    strongly connected parts of "won a game against", weakest part first (Zermelo's
    condition: within each, the ratings have a finite maximum of likelihood)."""
    beat = [[False] * n for _ in range(n)]
    for a, b, w, g in zip(lone, field, wins, games, strict=True):
        beat[a][b] = beat[a][b] or w > 0  # the lone rung won a game
        beat[b][a] = beat[b][a] or w < g  # the field won one
    reach = [[beat[i][j] or i == j for j in range(n)] for i in range(n)]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                reach[i][j] = reach[i][j] or (reach[i][k] and reach[k][j])
    blocks: list[list[int]] = []
    for rung in range(n):
        for block in blocks:
            if reach[rung][block[0]] and reach[block[0]][rung]:
                block.append(rung)
                break
        else:
            blocks.append([rung])
    # A block below another never reached it (it lost every game to it).
    return sorted(blocks, key=lambda block: sum(reach[block[0]][other[0]] for other in blocks))


def _fit_block(
    block: Sequence[int],
    lone: np.ndarray,
    field: np.ndarray,
    wins: np.ndarray,
    games: np.ndarray,
    players: int,
) -> np.ndarray:
    """The block's log-ratings (its first rung 0) for each row of `wins` (lone wins of
    every pairing): the maximum of the Luce likelihood over the block's pairings, with a
    tiny `RIDGE`, by Newton's method, all rows at once."""
    import numpy as np

    rows = wins.shape[0]
    if len(block) == 1:
        return np.zeros((rows, 1))
    index = {rung: i for i, rung in enumerate(block)}
    inside = [k for k in range(len(lone)) if lone[k] in index and field[k] in index]
    x = np.zeros((len(inside), len(block)))
    for row, k in enumerate(inside):
        x[row, index[lone[k]]], x[row, index[field[k]]] = 1.0, -1.0
    x = x[:, 1:]  # the block's first rung is 0
    w, g = wins[:, inside], games[inside]
    offset = math.log(players - 1)
    theta = np.zeros((rows, len(block) - 1))
    for _ in range(100):
        p = 1 / (1 + np.exp(-(theta @ x.T - offset)))
        gradient = (w - g * p) @ x - RIDGE * theta
        weight = g * p * (1 - p)
        hessian = np.einsum("rk,ki,kj->rij", weight, x, x) + RIDGE * np.eye(len(block) - 1)
        step = np.linalg.solve(hessian, gradient[..., None])[..., 0]
        step = np.clip(step, -2.0, 2.0)  # a separated resample climbs, never jumps
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    return np.concatenate([np.zeros((rows, 1)), theta], axis=1)


def _sweep_bound(
    names: Sequence[str],
    played: Sequence[Played],
    upper: Sequence[int],
    lower: Sequence[int],
    players: int,
) -> Step:
    """Between a block and the one below, whose every game it won: a one-sided 95 % lower
    bound of the smallest gap between a rung above and one below. Each such pair's games
    bound its own gap (the gap at which winning them all had a chance of 5 %); the
    smallest gap is at least the smallest of those bounds."""
    bounds = []
    for u in upper:
        for v in lower:
            alone = [len(s) for a, b, s in played if (a, b) == (u, v)]
            fielded = [len(s) for a, b, s in played if (a, b) == (v, u)]
            bounds.append((_swept_at_least(sum(alone), sum(fielded), players), u, v))
    bound, u, v = min(bounds)
    games = sum(
        len(s) for a, b, s in played if (a in upper and b in lower) or (a in lower and b in upper)
    )
    return Step(names[u], names[v], math.inf, bound, math.inf, games, swept=True)


def _swept_at_least(alone: int, fielded: int, players: int) -> float:
    """The Elo gap d at which a rung wins all of `alone` games alone against the lower
    rung's field and all of `fielded` games as the field against it alone with chance
    5 %: below d, sweeping them all is less likely than that."""
    k = players - 1

    def sweep(d: float) -> float:
        r = math.exp(d / ELO)
        return (r / (r + k)) ** alone * (1 - 1 / (1 + k * r)) ** fielded

    low, high = -3000.0, 6000.0
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if sweep(mid) < 0.05 else (low, mid)
    return low


def _pair_games(played: Sequence[Played], i: int, j: int) -> list[int]:
    """The pairings' numbers of rungs i and j (either alone)."""
    return [k for k, (a, b, _) in enumerate(played) if {a, b} == {i, j}]


def _step(
    ladder: Ladder,
    played: Sequence[Played],
    resampled: np.ndarray,
    games: np.ndarray,
    upper: int,
    lower: int,
    tail: float,
) -> Step:
    """Rung `upper` against rung `lower` from their own games: the gap and its interval
    (`tail` in each end), or a sweep's one-sided bound."""
    import numpy as np

    names, players = ladder.rungs, ladder.players
    mine = _pair_games(played, upper, lower)
    lone = np.array([0 if played[k][0] == upper else 1 for k in mine])
    field = 1 - lone
    wins = np.array([math.fsum(played[k][2]) for k in mine])
    g = games[mine]
    count = int(g.sum())
    blocks = _blocks(2, lone, field, wins, g)
    if len(blocks) == 2:  # one won every game
        top, bottom = (upper, lower) if blocks[1] == [0] else (lower, upper)
        bound = _sweep_bound(names, played, [top], [bottom], players)
        return bound if top == upper else Step(names[upper], names[lower], -math.inf,
                                                -math.inf, -bound.low, count, True)  # fmt: skip
    seen = _fit_block([1, 0], lone, field, wins[None, :], g, players)[0, 1]
    drawn = _fit_block([1, 0], lone, field, resampled[:, mine], g, players)[:, 1]
    low, high = np.percentile(drawn, [100 * tail, 100 * (1 - tail)])
    return Step(names[upper], names[lower], ELO * seen, _capped(ELO * low), _capped(ELO * high),
                count, swept=False)  # fmt: skip


def _steps(
    ladder: Ladder, played: Sequence[Played], resampled: np.ndarray, games: np.ndarray
) -> tuple[Step, ...]:
    """Each rung against the one below it in the file, the intervals holding together
    (Bonferroni over the steps)."""
    count = len(ladder.rungs) - 1
    tail = 0.025 / count
    return tuple(_step(ladder, played, resampled, games, i + 1, i, tail) for i in range(count))


def _all_steps(
    ladder: Ladder, played: Sequence[Played], resampled: np.ndarray, games: np.ndarray
) -> dict[tuple[int, int], Step]:
    n = len(ladder.rungs)
    return {
        (i, j): _step(ladder, played, resampled, games, i, j, 0.025)
        for i in range(n)
        for j in range(i)
    }


def _circles(
    names: Sequence[str], steps: Mapping[tuple[int, int], Step]
) -> tuple[tuple[str, str, str], ...]:
    """Three rungs each beating the next in a circle (every gap's interval clear of 0):
    no single strength per bot can say that."""
    n = len(names)

    def beats(i: int, j: int) -> bool:
        if (i, j) in steps:
            return steps[(i, j)].low > 0
        return steps[(j, i)].high < 0

    found = []
    for a in range(n):
        for b in range(n):
            for c in range(n):
                if a < b and a < c and b != c and beats(a, b) and beats(b, c) and beats(c, a):
                    found.append((names[a], names[b], names[c]))
    return tuple(found)


def _goodness(
    blocks: Sequence[Sequence[int]],
    lone: np.ndarray,
    field: np.ndarray,
    wins: np.ndarray,
    games: np.ndarray,
    theta: np.ndarray,
    players: int,
    rng: np.random.Generator,
) -> Fit:
    """The deviance of the fitted strengths against each pairing's own win rate, and how
    often ladders drawn from the fit itself (`FIT_RESAMPLES`, each pairing's wins binomial)
    stray as far: its p-value."""
    import numpy as np

    inside = [k for k in range(len(lone)) if any(lone[k] in b and field[k] in b for b in blocks)]
    freedom = len(inside) - sum(len(b) - 1 for b in blocks)
    seen = _deviance(
        wins[None, inside], games[inside], _chances(theta, lone, field, players)[inside]
    )[0]
    if freedom <= 0:
        return Fit(seen, 0, math.nan)
    chances = _chances(theta, lone, field, players)
    simulated = rng.binomial(games.astype(int), chances, size=(FIT_RESAMPLES, len(games)))
    refit = np.zeros((FIT_RESAMPLES, len(theta)))
    for block in blocks:
        refit[:, block] = _fit_block(block, lone, field, simulated.astype(float), games, players)
    drawn = _deviance(simulated[:, inside].astype(float), games[inside],
                      _chances(refit, lone, field, players)[:, inside])  # fmt: skip
    return Fit(float(seen), freedom, float((1 + np.sum(drawn >= seen)) / (FIT_RESAMPLES + 1)))


def _chances(theta: np.ndarray, lone: np.ndarray, field: np.ndarray, players: int) -> np.ndarray:
    import numpy as np

    """Each pairing's chance that the lone rung wins, from log-ratings (a row, or rows)."""
    gap = theta[..., lone] - theta[..., field]
    chances: np.ndarray = 1 / (1 + np.exp(-(gap - math.log(players - 1))))
    return chances


def _deviance(wins: np.ndarray, games: np.ndarray, chances: np.ndarray) -> np.ndarray:
    """2 sum(w log(w / g p) + (g - w) log((g - w) / g (1 - p))) over the pairings."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        lost = games - wins
        a = np.where(wins > 0, wins * np.log(wins / (games * chances)), 0.0)
        b = np.where(lost > 0, lost * np.log(lost / (games * (1 - chances))), 0.0)
    deviance: np.ndarray = 2 * (a + b).sum(axis=-1)
    return deviance


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


# ------------------------------------------------------------------ in words


def _say(key: str, /, **fields: object) -> str:
    return LADDER_SAYS.say(key, **fields)


def _share(x: float) -> str:
    return f"{numeral(100 * x, '.0f')} %"


def _pct(e: Estimate) -> str:
    return f"{_share(e.value)} [{_share(e.low)}, {_share(e.high)}]"


def _elo(x: float) -> str:
    return _say("unbounded") if math.isinf(x) else f"{x:+.0f}"


def step_text(s: Step) -> str:
    """ "mcts:40 over mcts:10: +85 Elo [+20, +150] (200 games)", or a sweep's bound."""
    if s.swept and s.elo > 0:
        return _say("swept_up", upper=s.upper, lower=s.lower, games=s.games, low=s.low)
    if s.swept:
        return _say("swept_down", upper=s.upper, lower=s.lower, games=s.games, high=s.high)
    gap = f"{s.elo:+.0f} Elo [{_elo(s.low)}, {_elo(s.high)}]"
    return _say("step", upper=s.upper, lower=s.lower, gap=gap, games=s.games)


def _step_verdict(s: Step) -> str:
    if s.low > 0:
        return _say("stronger")
    if s.high < 0:
        return _say("out_of_order")
    return _say("cannot_tell")


def headline(f: LadderFigures) -> str:
    """Each step up the ladder, in one sentence (intervals holding together)."""
    steps = said("cli.semicolon").join(
        _say("verdict", step=step_text(s), verdict=_step_verdict(s)) for s in f.steps
    )
    together = _say("together") if len(f.steps) > 1 else ""
    return _say("headline", together=together, said=steps)


def skill_sentence(f: LadderFigures) -> str:
    """How much skill decides, in one sentence."""
    top, ref = f.ladder.rungs[-1], f.ladder.rungs[f.ladder.reference]
    q, s = f.decided, f.skill
    decided = f"{numeral(q.value, '.2f')} [{numeral(q.low, '.2f')}, {numeral(q.high, '.2f')}]"
    return _say("skill", q=decided, top=top, ref=ref, wins=_pct(s), n=s.n, luck=_share(f.luck))


def fit_sentence(f: LadderFigures) -> str:
    fit = f.fit
    if fit.freedom == 0:
        return _say("fit_none")
    told = _say("fit", deviance=fit.deviance, freedom=fit.freedom, p=fit.p,
                resamples=FIT_RESAMPLES)  # fmt: skip
    return _say("fit_bad" if fit.p < 0.05 else "fit_good", said=told)


def circles_sentence(f: LadderFigures) -> str:
    if not f.circles:
        return _say("transitive")
    circles = said("cli.semicolon").join(_say("circle", a=a, b=b, c=c) for a, b, c in f.circles)
    return _say("not_transitive", said=circles)


def _rows(f: LadderFigures) -> list[tuple[str, str, str] | str]:
    """The ratings strongest first, a line between blocks: (bot, Elo, interval) or a
    sentence."""
    rows: list[tuple[str, str, str] | str] = []
    for block in reversed(range(len(f.gaps) + 1)):
        mine = sorted((r for r in f.ratings if r.block == block), key=lambda r: -r.elo)
        for r in mine:
            anchor = r.elo == 0 and r.low == r.high == 0
            rows.append((r.bot, f"{r.elo:+.0f}", _say("anchor") if anchor else
                         f"[{_elo(r.low)}, {_elo(r.high)}]"))  # fmt: skip
        if block:
            gap = f.gaps[block - 1]
            rows.append(_say("gap", games=gap.games, upper=gap.upper, low=gap.low,
                             lower=gap.lower))  # fmt: skip
    return rows


def _title(f: LadderFigures) -> str:
    from companion.lab.report import game_title

    games = f.ladder.pairings[0][2].games
    return _say("title", title=game_title(f.ladder.game), players=f.ladder.players, games=games,
                resamples=RESAMPLES)  # fmt: skip


def terminal(f: LadderFigures) -> str:
    """The ladder as the terminal prints it."""
    lines = [_title(f)]
    width = max(len(r.bot) for r in f.ratings)
    for row in _rows(f):
        lines.append(f"  -- {row}" if isinstance(row, str) else
                     f"  {row[0]:<{width}}  Elo {row[1]:>6}  {row[2]}")  # fmt: skip
    lines.append(f"  {_say('alone_rate')}")
    versus = _say("versus")
    for a, b, e in f.pairs:
        lines.append(f"    {a:<{width}} {versus} {b:<{width}}  {_pct(e)}")
    lines += [f"  {s}" for s in (headline(f), skill_sentence(f), fit_sentence(f),
                                 circles_sentence(f))]  # fmt: skip
    return "\n".join(lines)


def html(f: LadderFigures) -> str:
    """The ladder's section of a report (a self-contained HTML fragment, no script)."""
    from html import escape

    rows = "".join(
        f"<tr><td colspan=3><i>{escape(row)}</i></td></tr>" if isinstance(row, str)
        else f"<tr><td>{escape(row[0])}</td><td>{row[1]}</td><td>{escape(row[2])}</td></tr>"
        for row in _rows(f)
    )  # fmt: skip
    pairs = "".join(
        f"<tr><td>{escape(a)}</td><td>{escape(b)}</td><td>{_pct(e)}</td></tr>"
        for a, b, e in f.pairs
    )
    sentences = (skill_sentence(f), headline(f), fit_sentence(f), circles_sentence(f))
    said = "".join(f"<p>{escape(s)}</p>" for s in sentences)
    return (
        f"<section><h2>{escape(_title(f))}</h2>{said}"
        f"<table><tr><th>{_say('bot')}</th><th>Elo</th><th>{_say('interval')}</th></tr>{rows}"
        f"</table><h3>{_say('alone_head')}</h3><table><tr><th>{_say('alone')}</th>"
        f"<th>{_say('field')}</th><th>{_say('wins')}</th></tr>{pairs}</table></section>"
    )


def page(f: LadderFigures) -> str:
    """A whole HTML page of the ladder (beside report.html), its style inline."""
    from companion.lab.report import standalone

    return standalone(_say("page"), html(f))
