"""The thinking bot: decisions per second per game, its edge over each game's own bot,
restricted play, and a skill ladder's time.

`.venv/bin/python bench/mcts_speed.py [--iterations N] [--games G] [--workers W] [PART...]`
with PART among `speed`, `edge`, `restricted`, `ladder` (default: all).

- speed: decisions per second of `mcts:N` in each game, on one core (decisions with one
  legal action are not thought about and not counted);
- edge: `mcts:N` alone against the game's own bot at the other seats (first seat
  rotating): its win rate and 95 % interval, against 1/n (and at the strength docs/lab.md
  states, `STATED`, where it is more);
- restricted: in two-player PtiPassPass and Swiped and three-player Flip Done, each
  restricted `mcts:N/<restriction>` alone against the unrestricted `mcts:N` (Jaffe et al.
  2012): the restricted agent's win rate and what the element is worth (1/n minus it),
  with intervals;
- ladder: the time of a PtiPassPass ladder random < heuristic < mcts:N/3 < mcts:N of G
  games a pairing (12 pairings), and what 1,000 games would take.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.lab import ladder as skill
from companion.lab.runner import run
from companion.lab.stats import Estimate, wilson
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
RESTRICTED = ("ptipasspass", "swiped", "flipdone")
"""The games whose restricted agents `restricted` plays (at GAMES' number of seats)."""


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


def speed(n: int, seconds: float = SPEED_SECONDS) -> None:
    from pi import ratio

    pi = ratio()
    for game, (players, own) in GAMES.items():
        read, undo = _count_thinking(game)
        lab = load_lab(game)
        variant = parse_variants({"game": game, "players": players,
                                  "bots": [f"mcts:{n}"] + [own] * (players - 1)})[0]  # fmt: skip
        rates: list[float] = []
        block = (0, 0.0)
        try:
            for seed in itertools.count():
                lab.play(variant, seed)
                decisions, spent = read()
                if spent - block[1] >= min(SPEED_BLOCK, seconds):
                    rates.append((decisions - block[0]) / (spent - block[1]))
                    block = (decisions, spent)
                    if spent >= seconds:
                        break
        finally:
            undo()
        rate = statistics.median(rates)
        print(f"{game:12} mcts:{n}  {rate:6.1f} decisions/s (blocks {min(rates):.1f}–"
              f"{max(rates):.1f}; {decisions} decisions, {spent:.1f} s CPU); Pi 4 "
              f"{rate / pi.pi4:.1f}, Zero 2 W {rate / pi.zero2w:.1f}")  # fmt: skip


def duel(game: str, players: int, lone: str, field: str, games: int, workers: int) -> Estimate:
    variant = parse_variants({"game": game, "players": players, "games": games, "seed": 7,
                              "bots": [lone] + [field] * (players - 1)})[0]  # fmt: skip
    (records,) = run([variant], workers)
    return wilson(sum(1 / len(r.winners) for r in records if 0 in r.winners), games)


def _pct(e: Estimate) -> str:
    return f"{e.value:.0%} [{e.low:.0%}, {e.high:.0%}]"


def edge(n: int, games: int, workers: int) -> None:
    for game, (players, own) in GAMES.items():
        for iterations in sorted({n, STATED.get(game, n)}):
            start = time.perf_counter()
            e = duel(game, players, f"mcts:{iterations}", own, games, workers)
            print(f"{game:12} mcts:{iterations} alone against {own}: {_pct(e)} of {games} "
                  f"(luck {1 / players:.0%}; {time.perf_counter() - start:.0f} s)")  # fmt: skip


def restricted(n: int, games: int, workers: int) -> None:
    for game in RESTRICTED:
        module = "passpass" if "pass" in game else game
        table = __import__(f"companion.games.{module}.mcts", fromlist=["TABLE"]).TABLE
        for name in table.restrictions:
            _restricted(game, name, n, games, workers)


def _restricted(game: str, name: str, n: int, games: int, workers: int) -> None:
    start = time.perf_counter()
    players = GAMES[game][0]
    e = duel(game, players, f"mcts:{n}/{name}", f"mcts:{n}", games, workers)
    luck = 1 / players
    worth = Estimate(luck - e.value, luck - e.high, luck - e.low, e.n)
    print(f"{game:12} {name:20} wins {_pct(e)}; worth {worth.value:+.0%} "
          f"[{worth.low:+.0%}, {worth.high:+.0%}] ({games} games, "
          f"{time.perf_counter() - start:.0f} s)")  # fmt: skip


def ladder(n: int, games: int, workers: int) -> None:
    data = {
        "game": "ptipasspass",
        "players": 2,
        "seed": 5,
        "ladder": {
            "rungs": ["random", "heuristic", f"mcts:{max(1, n // 3)}", f"mcts:{n}"],
            "games": games,
        },
    }
    rungs = skill.read_ladder(data, "bench")
    assert rungs is not None
    start = time.perf_counter()
    records = run([v for _, _, v in rungs.pairings], workers)
    seconds = time.perf_counter() - start
    print(skill.terminal(skill.figures(rungs, records)))
    played = games * len(rungs.pairings)
    print(f"ladder: {played} games in {seconds:.0f} s on {workers} workers; "
          f"1,000 games: about {seconds * 1000 / played:.0f} s")  # fmt: skip


def readme(quick: bool) -> str:
    """bench/README.md's section: every part at 30 iterations, 60 games a figure and 20
    games a ladder pairing (quick: 20 and 6)."""
    import contextlib
    import io

    games, pairing = (20, 6) if quick else (60, 20)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        timed = 4.0 if quick else SPEED_SECONDS
        for title, part in (("speed", lambda: speed(30, timed)),
                            ("edge", lambda: edge(30, games, 2)),
                            ("restricted", lambda: restricted(30, games, 2)),
                            ("ladder", lambda: ladder(30, pairing, 2))):  # fmt: skip
            print(f"--- {title}")
            part()
    return f"""## mcts_speed.py — the thinking bot: speed, edge, restricted play, a ladder's time

`.venv/bin/python bench/mcts_speed.py [--iterations N] [--games G] [--workers W] [PART...]`
(PART: `speed`, `edge`, `restricted`, `ladder`). The thinking bot (`mcts:N`, determinized
information-set MCTS over one seat's knowledge, companion/lab/mcts.py; Flip Done's is a
paired search on the fast path) plays on the readable engine. This run: 30 iterations a
decision, {games} games a figure (`edge`: the bot alone against the game's own bot, first
seat rotating; `restricted`: two-player PtiPassPass and Swiped, three-player Flip Done,
`mcts:30/<restriction>` alone against `mcts:30`, the element's worth being 1/n less the
restricted agent's share), a
ladder random < heuristic < mcts:10 < mcts:30 of
{pairing} games a pairing on 2 workers:

```
{out.getvalue().rstrip()}
```

The intervals are 95 % (Wilson); with {games} games a figure only large differences stand
out. docs/lab.md says how to read restricted play.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("parts", nargs="*", default=["speed", "edge", "restricted", "ladder"])
    args = parser.parse_args()
    n, g, w = args.iterations, args.games, args.workers
    for part in args.parts:
        print(f"--- {part}", flush=True)
        if part == "speed":
            speed(n)
        elif part == "edge":
            edge(n, g, w)
        elif part == "restricted":
            restricted(n, g, w)
        elif part == "ladder":
            ladder(n, g, w)


if __name__ == "__main__":
    main()
