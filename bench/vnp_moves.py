"""Vous ne passerez pas ! engine speed: legal-move generation and whole random games, on
the readable engine and on the fast path (`companion/games/vnp/rules/fast.py`).

Plays seeded uniformly random 4-colour games, times `legal_actions` alone on every
position reached, then whole games (legal_actions + apply, bot included). The fast path
plays the same seeded games (checked: same placements), then replays their actions on a
`fast.Position`, timing the update and the legal bitset of every position.
Run: `.venv/bin/python bench/vnp_moves.py [--games N] [--crossing nexos|strict]`.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--crossing", default="nexos", choices=["nexos", "strict"])
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    start = time.perf_counter()
    placements = len(geometry(13).placements)
    print(f"precompute {placements} placements: {time.perf_counter() - start:.3f} s")
    config = make_config(crossing=args.crossing)
    start = time.perf_counter()
    fast.rules_for(config.size, config.crossing)
    print(f"precompute the fast path's bitsets: {time.perf_counter() - start:.3f} s")
    seconds, seen, ends = positions(args.games, args.crossing, seed=1)
    print(
        f"random games   {args.games / seconds:8.1f} games/s  "
        f"{len(seen) / seconds:9.0f} actions/s  {len(seen) / args.games:.1f} actions/game"
    )
    moves = 0
    start = time.perf_counter()
    for state in seen:
        moves += len(legal_actions(state))
    seconds = time.perf_counter() - start
    print(
        f"legal_actions  {len(seen) / seconds:8.0f} calls/s  {moves / seconds:9.0f} moves/s  "
        f"{moves / len(seen):.1f} moves/position"
    )

    seconds, played = fast_games(args.games, args.crossing, seed=1)
    actions = sum(len(g.turns) for g in played)
    print(
        f"fast games     {args.games / seconds:8.1f} games/s  "
        f"{actions / seconds:9.0f} actions/s  {actions / args.games:.1f} actions/game"
    )
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
    print(
        f"fast legal     {actions / seconds:8.0f} calls/s  {fast_moves / seconds:9.0f} moves/s  "
        f"{fast_moves / actions:.1f} moves/position (update + legal bitset)"
    )
    assert fast_moves == moves, "the fast path saw other legal moves"


if __name__ == "__main__":
    main()
