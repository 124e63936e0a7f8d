"""Vous ne passerez pas ! engine speed: legal-move generation and whole random games, on
the readable engine and on the fast path (`companion/games/vnp/rules/fast.py`).

Plays seeded uniformly random 4-colour games, times `legal_actions` alone on every
position reached, then whole games (legal_actions + apply, bot included). The fast path
plays the same seeded games (checked: same placements), then replays their actions on a
`fast.Position`, timing the update and the legal bitset of every position.
Run: `.venv/bin/python bench/vnp_moves.py [--games N] [--crossing nexos|strict]`. Its
README section is `readme` (bench/readme.py).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.games.vnp.bots import random_action
from companion.games.vnp.rules import (
    State,
    apply,
    fast,
    geometry,
    is_over,
    legal_actions,
    make_config,
    new_game,
)


def positions(games: int, crossing: str, seed: int) -> tuple[float, list[State], list[State]]:
    """Seconds taken by `games` random games, every position they went through, and
    each game's end."""
    seen: list[State] = []
    ends: list[State] = []
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        state, _ = new_game(make_config(crossing=crossing), 0)
        while not is_over(state):
            seen.append(state)
            state, _ = apply(state, random_action(state, rng))
        ends.append(state)
    return time.perf_counter() - start, seen, ends


def fast_games(games: int, crossing: str, seed: int) -> tuple[float, list[fast.Game]]:
    """The same games on the fast path (the random bot at every colour, one rng)."""
    config = make_config(crossing=crossing)
    played = []
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        played.append(fast.play(config, [fast.random_bot] * 4, [rng] * 4))
    return time.perf_counter() - start, played


def measure(games: int, crossing: str) -> dict[str, float]:
    """Every figure of the bench: the precomputations' seconds, then games/s, calls/s,
    moves/s and moves per position on each path."""
    out: dict[str, float] = {}
    start = time.perf_counter()
    out["placements"] = len(geometry(13).placements)
    out["precompute_s"] = time.perf_counter() - start
    config = make_config(crossing=crossing)
    start = time.perf_counter()
    fast.rules_for(config.size, config.crossing)
    out["bitsets_s"] = time.perf_counter() - start
    seconds, seen, ends = positions(games, crossing, seed=1)
    out["games_s"], out["actions_s"] = games / seconds, len(seen) / seconds
    out["actions_game"] = len(seen) / games
    moves = 0
    start = time.perf_counter()
    for state in seen:
        moves += len(legal_actions(state))
    seconds = time.perf_counter() - start
    out["calls_s"], out["moves_s"] = len(seen) / seconds, moves / seconds
    out["moves_position"] = moves / len(seen)
    seconds, played = fast_games(games, crossing, seed=1)
    actions = sum(len(g.turns) for g in played)
    out["fast_games_s"], out["fast_actions_s"] = games / seconds, actions / seconds
    for game, end in zip(played, ends, strict=True):
        placed = tuple(
            tuple(pid for c, pid in game.turns if c == colour and pid != fast.PASS)
            for colour in range(len(end.placed))
        )
        assert placed == end.placed, "the fast path played another game"
    fast_moves = 0
    start = time.perf_counter()
    for game in played:
        position = fast.Position(config)
        for _colour, pid in game.turns:
            fast_moves += position.legal(position.turn).bit_count() or 1
            if pid == fast.PASS:
                position.pass_turn()
            else:
                position.place(pid)
    seconds = time.perf_counter() - start
    assert fast_moves == moves, "the fast path saw other legal moves"
    out["fast_calls_s"], out["fast_moves_s"] = actions / seconds, fast_moves / seconds
    out["fast_moves_position"] = fast_moves / actions
    return out


def readme(quick: bool) -> str:
    """bench/README.md's section: 200 games (quick: 60)."""
    games = 60 if quick else 200
    f = measure(games, "nexos")
    return f"""## vnp_moves.py — "Vous ne passerez pas !" move generation

`.venv/bin/python bench/vnp_moves.py [--crossing strict]` plays {games} random four-colour
games on the 13 × 13 board, on the readable engine and on the lab's fast path (which
must play the same games). Every placement ({f["placements"]:,.0f} of them) is
precomputed once per board size ({f["precompute_s"]:.2f} s; the fast path's bitsets
{f["bitsets_s"]:.2f} s more). One run (no target).

| path | games/s | legal-move calls/s | moves/s | moves per position |
|---|---|---|---|---|
| readable (from scratch each position) | {f["games_s"]:,.0f} | {f["calls_s"]:,.0f} | {f["moves_s"] / 1e6:.2f} M | {f["moves_position"]:.0f} |
| fast (incremental bitsets) | {f["fast_games_s"]:,.0f} | {f["fast_calls_s"]:,.0f} | {f["fast_moves_s"] / 1e6:.0f} M | {f["fast_moves_position"]:.0f} |
"""  # noqa: E501


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--crossing", default="nexos", choices=["nexos", "strict"])
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    f = measure(args.games, args.crossing)
    print(f"precompute {f['placements']:.0f} placements: {f['precompute_s']:.3f} s")
    print(f"precompute the fast path's bitsets: {f['bitsets_s']:.3f} s")
    print(
        f"random games   {f['games_s']:8.1f} games/s  {f['actions_s']:9.0f} actions/s  "
        f"{f['actions_game']:.1f} actions/game"
    )
    print(
        f"legal_actions  {f['calls_s']:8.0f} calls/s  {f['moves_s']:9.0f} moves/s  "
        f"{f['moves_position']:.1f} moves/position"
    )
    print(f"fast games     {f['fast_games_s']:8.1f} games/s  {f['fast_actions_s']:9.0f} actions/s")
    print(
        f"fast legal     {f['fast_calls_s']:8.0f} calls/s  {f['fast_moves_s']:9.0f} moves/s  "
        f"{f['fast_moves_position']:.1f} moves/position (update + legal bitset)"
    )


if __name__ == "__main__":
    main()
