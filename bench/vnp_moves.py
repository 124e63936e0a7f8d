"""Vous ne passerez pas ! engine speed: whole random games as the table plays them (the
engine contract: a frozen State, `legal_actions`, `apply` and its events) and as the lab
plays them (one board played in place, companion/games/vnp/rules/board.py).

Both play the same seeded uniformly random 4-colour games (checked: same placements); the
table's legal moves are the whole `legal_actions` tuple of every position.
Run: `.venv/bin/python bench/vnp_moves.py [--games N] [--crossing nexos|strict]`. Its
README section is `readme` (bench/readme.py).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.games.vnp.bots import play_game, random_action, random_bot
from companion.games.vnp.rules import (
    Place,
    apply,
    geometry,
    is_over,
    legal_actions,
    make_config,
    new_game,
)
from companion.games.vnp.rules.board import tables


def measure(games: int, crossing: str) -> dict[str, float]:
    """Every figure of the bench: the precomputations' seconds, then games/s, actions/s
    and legal moves/s on each path."""
    out: dict[str, float] = {}
    start = time.perf_counter()
    out["placements"] = len(geometry(13).placements)
    out["precompute_s"] = time.perf_counter() - start
    config = make_config(crossing=crossing)
    start = time.perf_counter()
    _ = tables(config.size, config.crossing).users  # the conflict tables: built on first read
    out["bitsets_s"] = time.perf_counter() - start

    ends, actions, moves = [], 0, 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(f"1:{i}")
        state, _ = new_game(config, 0)
        while not is_over(state):
            moves += sum(isinstance(a, Place) for a in legal_actions(state))
            state, _ = apply(state, random_action(state, rng))
            actions += 1
        ends.append(state.placed)
    seconds = time.perf_counter() - start
    out["games_s"], out["actions_s"], out["moves_s"] = (
        games / seconds, actions / seconds, moves / seconds
    )  # fmt: skip
    out["moves_position"] = moves / actions

    start = time.perf_counter()
    played = [play_game(config, [random_bot] * 4, [random.Random(f"1:{i}")] * 4)
              for i in range(games)]  # fmt: skip
    seconds = time.perf_counter() - start
    assert [tuple(map(tuple, p.board.placed)) for p in played] == ends, (
        "the board played other games"
    )
    board_actions = sum(len(p.turns) for p in played)
    board_moves = sum(p.choices[0] for p in played)
    out["board_games_s"], out["board_actions_s"] = games / seconds, board_actions / seconds
    out["board_moves_s"] = board_moves / seconds
    return out


def readme(quick: bool) -> str:
    """bench/README.md's section: 200 games (quick: 60)."""
    games = 60 if quick else 200
    f = measure(games, "nexos")
    return f"""## vnp_moves.py — "Vous ne passerez pas !" at the table and in the lab

`.venv/bin/python bench/vnp_moves.py [--crossing strict]` plays {games} random four-colour
games on the 13 × 13 board with one engine, twice: as the table plays them (a frozen
State a step, `legal_actions` listed, `apply` with its events) and as the lab plays them
(one board played in place, legal moves as a bitset), which must play the same games.
Every placement ({f["placements"]:,.0f} of them) is precomputed once per board size
({f["precompute_s"]:.2f} s; the board's bitsets {f["bitsets_s"]:.2f} s more). One run (no
target).

| path | games/s | actions/s | legal placements/s | placements per position |
|---|---|---|---|---|
| table (State, legal_actions, apply) | {f["games_s"]:,.0f} | {f["actions_s"]:,.0f} | {f["moves_s"] / 1e6:.2f} M | {f["moves_position"]:.0f} |
| lab (one board in place) | {f["board_games_s"]:,.0f} | {f["board_actions_s"]:,.0f} | {f["board_moves_s"] / 1e6:.0f} M | {f["moves_position"]:.0f} |
"""  # noqa: E501


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--crossing", default="nexos", choices=["nexos", "strict"])
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    f = measure(args.games, args.crossing)
    print(f"precompute {f['placements']:.0f} placements: {f['precompute_s']:.3f} s")
    print(f"precompute the board's bitsets: {f['bitsets_s']:.3f} s")
    print(
        f"table  {f['games_s']:8.1f} games/s  {f['actions_s']:9.0f} actions/s  "
        f"{f['moves_s']:10.0f} legal placements/s  {f['moves_position']:.1f} a position"
    )
    print(
        f"lab    {f['board_games_s']:8.1f} games/s  {f['board_actions_s']:9.0f} actions/s  "
        f"{f['board_moves_s']:10.0f} legal placements/s (bitsets, counted)"
    )


if __name__ == "__main__":
    main()
