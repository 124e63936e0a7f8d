"""The thinking bot: decisions per second per game, its edge over each game's own bot on
the seeds it was tuned on, how much skill decides each game and what restricted elements
are worth on seeds it was not tuned on, and a skill ladder's time.

`.venv/bin/python bench/mcts_speed.py [--iterations N] [--games G] [--workers W] [PART...]`
with PART among `speed`, `edge`, `skill`, `restricted`, `ladder` (default: all).

- speed: decisions per second of `mcts:N` in each game, on one core (decisions with one
  legal action are not thought about and not counted);
- edge: `mcts:N` alone against the game's own bot at the other seats (first seat
  rotating), on the TUNING seed (the games the bots' constants were tuned on): its win
  rate and 95 % interval, against 1/n (and at the strength docs/lab.md states, `STATED`);
- skill: the same duel on the REPORTING seed, never used to tune: the share of games
  decided by skill, q = (P - 1/n) / (1 - 1/n) (companion/lab/ladder.py), for every game
  at 30 and 100 iterations (`SKILL_ITERATIONS`), `SKILL_GAMES` games each;
- restricted: two-player PtiPassPass and Swiped, three-player Flip Done, on the REPORTING
  seed: each restriction of `mcts:N` against the free `mcts:N` on the same deals, the
  restricted agent at every seat of each deal (companion/lab/restricted.py); the intervals
  hold together over all the rows (Bonferroni);
- ladder: the time of a PtiPassPass ladder random < heuristic < mcts:N/3 < mcts:N of G
  games a pairing (12 pairings), and what 1,000 games would take.

`--cache DIR` (or $MCTS_SPEED_CACHE) keeps each variant's records in DIR and reuses them
(game i depends on (seed, i) alone): clear it after changing a bot.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import pickle
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.lab import ladder as skill_ladder
from companion.lab import restricted as restricted_play
from companion.lab.model import GameRecord, Variant
from companion.lab.runner import run
from companion.lab.stats import Estimate, wilson
from companion.lab.tally import Tally, tally
from companion.lab.variants import load_lab, parse_variants

GAMES = {  # game: (players, its own bot)
    "ptipasspass": (2, "heuristic"),
    "phipasspass": (3, "heuristic"),
    "flipdone": (3, "heuristic"),
    "vnp": (2, "largest"),
    "swiped": (2, "deducing"),
}
STATED = {"phipasspass": 100, "vnp": 100}
"""Games whose edge docs/lab.md states at more iterations than the README's run (the
`edge` part plays them at both)."""
TUNING_SEED = 7
"""The seed of the games the thinking bots' constants were chosen on (Flip Done's token
value, PassPass's belief): figures on it flatter the bots."""
REPORTING_SEED = 2027
"""The seed of the figures docs/lab.md reports (skill, restricted play): never used to
tune anything."""
SKILL_GAMES = 200
SKILL_ITERATIONS = {game: (30, 100) for game in GAMES} | {"swiped": (30,), "vnp": (30,)}
"""The strengths `skill` plays each game at: Swiped's bot wins as much at 1 iteration as at
30 (its edge is not the search's), so more would say nothing more; Vous ne passerez pas !
at 100 iterations takes 2 s of a core a game, too long for this run (`edge` plays it on
the tuning seed)."""
RESTRICTED_DEALS = {"ptipasspass": 200, "swiped": 40, "flipdone": 20}
"""Deals of each game's restricted play (each played at every seat). Swiped's and Flip
Done's elements are worth tens of points, which a few dozen deals tell, and theirs are the
slowest games (three thinking bots a Flip Done game)."""
CACHE: Path | None = (
    Path(os.environ["MCTS_SPEED_CACHE"]) if "MCTS_SPEED_CACHE" in os.environ else None
)
"""`--cache DIR`, or $MCTS_SPEED_CACHE (for bench/readme.py, which passes no option)."""


def play(variants: Sequence[Variant], workers: int) -> list[list[GameRecord]]:
    """`run`, through the cache when one is given (`--cache`)."""
    if CACHE is None:
        return run(variants, workers)
    CACHE.mkdir(parents=True, exist_ok=True)
    paths = [CACHE / f"{hashlib.sha256(repr(v).encode()).hexdigest()[:20]}.pickle"
             for v in variants]  # fmt: skip
    missing = [v for v, path in zip(variants, paths, strict=True) if not path.exists()]
    for v, records in zip(missing, run(missing, workers) if missing else [], strict=True):
        path = paths[variants.index(v)]
        path.write_bytes(pickle.dumps(records))
    return [pickle.loads(path.read_bytes()) for path in paths]


def _count_thinking(game: str) -> tuple[Callable[[], tuple[int, float]], Callable[[], None]]:
    """Wraps the search (companion.lab.mcts.think) to count and time its decisions."""
    from companion.lab import mcts

    original = mcts.think
    spent = [0, 0.0]

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()  # CPU time: this machine is shared
        chosen = original(*args, **kwargs)
        spent[1] += time.thread_time() - start
        spent[0] += len(args[3]) > 1
        return chosen

    modules = __import__(f"companion.games.{'passpass' if 'pass' in game else game}.mcts",
                         fromlist=["think"])  # fmt: skip
    modules.think = timed

    def undo() -> None:
        modules.think = original

    return (lambda: (spent[0], spent[1])), undo


SPEED_SECONDS = 10.0
"""CPU seconds of thinking timed per game at least, in blocks of `SPEED_BLOCK` seconds
(the spread is the blocks')."""
SPEED_BLOCK = 2.0


DUEL_GAMES = 200
PI_CORES = 4
TARGET_DUEL_MIN = 5.0
"""Minutes a Pi 4 may take, on its four cores, for a duel of `DUEL_GAMES` games of one
`mcts:30` against the game's own bots (what `skill` plays to tell how much skill decides
a game): a designer's question answered over a coffee, not overnight."""


def speed(n: int, seconds: float = SPEED_SECONDS) -> list[str]:
    """Each game's decisions per second of `mcts:n` (CPU time, blocks of `SPEED_BLOCK`
    seconds) and a duel's time on a Pi; returns each game's verdict on `TARGET_DUEL_MIN`."""
    from pi import ratio
    from verdict import judge

    pi = ratio()
    verdicts = []
    for game, (players, own) in GAMES.items():
        read, undo = _count_thinking(game)
        lab = load_lab(game)
        variant = parse_variants({"game": game, "players": players,
                                  "bots": [f"mcts:{n}"] + [own] * (players - 1)})[0]  # fmt: skip
        rates: list[float] = []
        per_game: list[float] = []  # CPU seconds a game, the whole game, in each block
        block = (0, 0.0, 0, time.process_time())
        try:
            for seed in itertools.count():
                lab.play(variant, seed)
                decisions, spent = read()
                if spent - block[1] >= min(SPEED_BLOCK, seconds):
                    rates.append((decisions - block[0]) / (spent - block[1]))
                    per_game.append((time.process_time() - block[3]) / (seed + 1 - block[2]))
                    block = (decisions, spent, seed + 1, time.process_time())
                    if spent >= seconds:
                        break
        finally:
            undo()
        rate = statistics.median(rates)
        duel = [g * DUEL_GAMES / PI_CORES / 60 * pi.pi4 for g in per_game]  # Pi 4 minutes
        zero = statistics.median(duel) * pi.zero2w / pi.pi4
        print(f"{game:12} mcts:{n}  {rate:6.1f} decisions/s (blocks {min(rates):.1f}–"
              f"{max(rates):.1f}; {decisions} decisions, {spent:.1f} s CPU, {seed + 1} games); "
              f"Pi 4 {rate / pi.pi4:.1f}, Zero 2 W {rate / pi.zero2w:.1f}; {DUEL_GAMES} games "
              f"on {PI_CORES} cores: Pi 4 {statistics.median(duel):.1f} min, Zero 2 W "
              f"{zero:.1f} min")  # fmt: skip
        verdict = judge(duel, TARGET_DUEL_MIN, unit="min", digits=1, tolerance=pi.spread)
        zero_said = "" if zero <= TARGET_DUEL_MIN else f"; a Zero 2 W misses it ({zero:.1f} min)"
        verdicts.append(f"- {game}: {verdict}{zero_said}")
    return verdicts


def duel(game: str, lone: str, games: int, workers: int, seed: int) -> Estimate:
    """`lone` alone against the game's own bot at every other seat: its share of the wins."""
    players, own = GAMES[game]
    variant = parse_variants({"game": game, "players": players, "games": games, "seed": seed,
                              "bots": [lone] + [own] * (players - 1)})[0]  # fmt: skip
    (records,) = play([variant], workers)
    return wilson(sum(r.share(0) for r in records), games)


def _pct(e: Estimate) -> str:
    return f"{e.value:.0%} [{e.low:.0%}, {e.high:.0%}]"


def edge(n: int, games: int, workers: int) -> None:
    for game, (players, own) in GAMES.items():
        for iterations in sorted({n, STATED.get(game, n)}):
            start = time.perf_counter()
            e = duel(game, f"mcts:{iterations}", games, workers, TUNING_SEED)
            print(f"{game:12} mcts:{iterations} alone against {own}: {_pct(e)} of {games} "
                  f"(luck {1 / players:.0%}; {time.perf_counter() - start:.0f} s)")  # fmt: skip


def skill(games: int, workers: int) -> None:
    """q, the share of games decided by skill, for every game (REPORTING seed)."""
    for game, (players, own) in GAMES.items():
        for iterations in SKILL_ITERATIONS[game]:
            start = time.perf_counter()
            p = duel(game, f"mcts:{iterations}", games, workers, REPORTING_SEED)
            q = skill_ladder.decided_by_skill(p, players)
            print(f"{game:12} mcts:{iterations} against {own}: wins {_pct(p)} of {games} "
                  f"(luck {1 / players:.0%}); q = {q.value:.2f} [{q.low:.2f}, {q.high:.2f}] "
                  f"({_took(start)})")  # fmt: skip


def _took(start: float) -> str:
    """A part's time, or that its games came from the cache."""
    return "games from the cache" if CACHE is not None else f"{time.perf_counter() - start:.0f} s"


def tallied(variants: Sequence[Variant], workers: int, ordered: bool = False) -> list[Tally]:
    """Each variant's games (`play`, through the cache) tallied as the lab's figures take
    them (`ordered`: deal by deal, for restricted play)."""
    return [tally(load_lab(v.game), v.players, records, ordered)
            for v, records in zip(variants, play(variants, workers), strict=True)]  # fmt: skip


def restricted(n: int, workers: int, deals: dict[str, int], family: int | None = None) -> None:
    """Every restriction of the games of `deals` (REPORTING seed); the intervals hold
    together over all of them (or over `family` intervals)."""
    tables = []
    for game, count in deals.items():
        table = __import__(f"companion.games.{'passpass' if 'pass' in game else game}.mcts",
                           fromlist=["TABLE"]).TABLE  # fmt: skip
        data = {"game": game, "players": GAMES[game][0], "seed": REPORTING_SEED,
                "restricted": {"agent": f"mcts:{n}", "games": count,
                               "restrictions": list(table.restrictions)}}  # fmt: skip
        tables.append(restricted_play.read_restricted(data, "bench"))
    rows = sum(len(t.restrictions) for t in tables if t is not None)
    for t in tables:
        assert t is not None
        start = time.perf_counter()
        f = restricted_play.figures(t, tallied(t.variants, workers, ordered=True),
                                     family=family or rows)  # fmt: skip
        print(restricted_play.terminal(f))
        print(f"  ({len(t.variants) * t.baseline.games:,} games, {_took(start)})")


def ladder(n: int, games: int, workers: int) -> None:
    data = {
        "game": "ptipasspass",
        "players": 2,
        "seed": REPORTING_SEED,
        "ladder": {
            "rungs": ["random", "heuristic", f"mcts:{max(1, n // 3)}", f"mcts:{n}"],
            "games": games,
        },
    }
    rungs = skill_ladder.read_ladder(data, "bench")
    assert rungs is not None
    start = time.perf_counter()
    counted = tallied([v for _, _, v in rungs.pairings], workers)
    seconds = time.perf_counter() - start
    print(skill_ladder.terminal(skill_ladder.figures(rungs, counted)))
    played = games * len(rungs.pairings)
    if CACHE is not None:
        print(f"ladder: {played} games, read from the cache (not timed)")
        return
    print(f"ladder: {played} games in {seconds:.0f} s on {workers} workers; "
          f"1,000 games: about {seconds * 1000 / played:.0f} s")  # fmt: skip


def readme(quick: bool) -> str:
    """bench/README.md's section: speed, skill and restricted play (on the REPORTING seed)
    and a ladder's time, at 30 iterations (quick: fewer games). The `edge` part, on the
    seed the bots were tuned on, is for tuning and is not published."""
    import contextlib
    import io

    from pi import ratio

    skill_games = 40 if quick else SKILL_GAMES
    deals = {g: 10 for g in RESTRICTED_DEALS} if quick else RESTRICTED_DEALS
    pairing = 20 if quick else skill_ladder.GAMES
    out = io.StringIO()
    start = time.perf_counter()
    verdicts: list[str] = []
    with contextlib.redirect_stdout(out):
        timed = 4.0 if quick else SPEED_SECONDS
        for title, part in (("speed", lambda: verdicts.extend(speed(30, timed))),
                            ("skill", lambda: skill(skill_games, 2)),
                            ("restricted", lambda: restricted(30, 2, deals)),
                            ("ladder", lambda: ladder(30, pairing, 2))):  # fmt: skip
            print(f"--- {title}")
            part()
    minutes = (time.perf_counter() - start) / 60
    cached = (
        "; the games of `skill`, `restricted` and `ladder` were read from the cache of the run"
        " that played them (`--cache`), so only `speed` was timed here"
        if CACHE is not None
        else ""
    )
    return f"""## mcts_speed.py — the thinking bot: speed, skill, restricted play, a ladder's time

`.venv/bin/python bench/mcts_speed.py [--iterations N] [--games G] [--workers W] [--cache
DIR] [PART...]` (PART: `speed`, `edge`, `skill`, `restricted`, `ladder`). The thinking bot
(`mcts:N`, determinized information-set MCTS over one seat's knowledge,
companion/lab/mcts.py; Flip Done's a paired search) plays each game's engine board in
place, forking it. Seeds: the bots' constants were tuned on seed {TUNING_SEED} (the `edge`
part, not shown here); every figure below is on seed {REPORTING_SEED}, never used to tune.
`skill`: `mcts:N` alone against the game's own bot, first seat rotating, {skill_games}
games each, and q = (P - 1/n) / (1 - 1/n), the share of games decided by skill;
`restricted`: two-player PtiPassPass and Swiped, three-player Flip Done, each restriction
of `mcts:30` against the free `mcts:30` on the same deals, at every seat of each deal
({", ".join(f"{g} {n}" for g, n in deals.items())} deals), the intervals holding together
over all the rows (Bonferroni); a ladder random < heuristic < mcts:10 < mcts:30 of
{pairing} games a pairing. On 2 workers, {minutes:.0f} minutes in all (wall clock on a
shared, noisy machine){cached}:

```
{out.getvalue().rstrip()}
```

`speed` timed each game's thinking for at least {timed:g} s of CPU (this machine is shared:
CPU time, not the wall clock), in blocks of {SPEED_BLOCK:g} s whose spread is shown; a Pi
figure is the host's times the measured ratio. {ratio().line()} The thinking bot is the
lab's, never the table's: what it costs on a Pi is the designer's wait. Target: a duel of
{DUEL_GAMES} games (one `mcts:30` against the game's own bots, as `skill` plays) within
{TARGET_DUEL_MIN:g} minutes of a Pi 4's {PI_CORES} cores (the whole games' CPU time in
each block, ×{DUEL_GAMES} games, ÷{PI_CORES} cores):

{chr(10).join(verdicts)}

A Zero 2 W has four cores too, each about three times slower (estimated): a duel takes
it three times a Pi 4's time. Where it misses (said above), a user on a Zero 2 W should
ask for fewer games or iterations (`mcts:10`), or run the lab on another computer and
bring its report.

docs/lab.md says how to read each figure.
"""


def main() -> None:
    global CACHE
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("parts", nargs="*",
                        default=["speed", "edge", "skill", "restricted", "ladder"])  # fmt: skip
    args = parser.parse_args()
    n, g, w = args.iterations, args.games, args.workers
    CACHE = args.cache or CACHE
    for part in args.parts:
        print(f"--- {part}", flush=True)
        if part == "speed":
            speed(n)
        elif part == "edge":
            edge(n, g, w)
        elif part == "skill":
            skill(SKILL_GAMES, w)
        elif part == "restricted":
            restricted(n, w, RESTRICTED_DEALS)
        elif part == "ladder":
            ladder(n, g, w)


if __name__ == "__main__":
    main()
