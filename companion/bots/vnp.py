"""Small Vous ne passerez pas ! bots, uniformly random and greedy largest piece first, and
the self-play report of `companion selfplay vnp`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.rules.vnp.actions import Action, Place
from companion.rules.vnp.config import BOARD_SIZE, COLOURS, Config, Crossing, Mode, make_config
from companion.rules.vnp.engine import apply, legal_actions, new_game
from companion.rules.vnp.pieces import PIECES, geometry
from companion.rules.vnp.state import State, side_scores, winners


def random_action(state: State, rng: random.Random) -> Action:
    """One legal action chosen by `rng`; raises ValueError once the game is over."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    return rng.choice(legal)


def largest_first(state: State, rng: random.Random) -> Action:
    """Greedy: a placement of one of the largest pieces it can place (VNP-6 counts the
    segments left), chosen by `rng` among those; a Pass when that is all there is."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: no action is legal")
    piece_of = geometry(state.config.size).piece_of

    def size(action: Action) -> int:
        return PIECES[piece_of[action.placement]].size if isinstance(action, Place) else 0

    best = max(size(a) for a in legal)
    return rng.choice([a for a in legal if size(a) == best])


# ------------------------------------------------------------------------ self-play

Bot = Callable[[State, random.Random], Action]

BOTS: dict[str, Bot] = {"largest": largest_first, "random": random_action}
"""The bot kinds, by the names `companion selfplay vnp --bots` and the sim use."""


def make_bot(kind: str) -> Bot:
    """The bot of a kind; ValueError naming the kinds for an unknown one."""
    if kind not in BOTS:
        raise ValueError(f"unknown Vous ne passerez pas ! bot {kind!r}; bots are {', '.join(BOTS)}")
    return BOTS[kind]


@dataclass
class Totals:
    """What `selfplay_report` counts over its games."""

    games: int = 0
    wins: list[int] = field(default_factory=list)
    """Per side: games it won alone (VNP-6: the lowest score)."""
    ties: list[int] = field(default_factory=list)
    """Per side: games it shared the lowest score with another side."""
    left: list[int] = field(default_factory=lambda: [0] * len(COLOURS))
    """Per colour: pieces left at the end, summed."""
    passes: list[int] = field(default_factory=lambda: [0] * len(COLOURS))
    """Per colour: games it passed (VNP-5) rather than placing all."""
    all_placed: list[int] = field(default_factory=lambda: [0] * len(COLOURS))
    """Per colour: games it placed every piece (VNP-6: -10)."""
    sums: list[int] = field(default_factory=list)
    """Per side: the side scores, summed."""
    actions: int = 0


def play_game(config: Config, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """One whole game: the bot of the seat playing each colour chooses its action."""
    state = new_game(config)
    while not state.over:
        seat = config.seat_of(state.turn)
        state, _ = apply(state, bots[seat](state, rngs[seat]))
    return state


def selfplay_report(
    kinds: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    mode: str | None = None,
    size: int = BOARD_SIZE,
    crossing: str = Crossing.NEXOS,
) -> str:
    """Win rate by side, ties, mean pieces left per colour, passes and mean side sums over
    `games` games between the bots of `kinds` (one a seat: 2 seats play mode two, 4 seats
    mode four unless `mode` says "teams", VNP-7). Game i is seeded from (seed, i), so the
    report is the same for the same seed."""
    bots = [make_bot(kind) for kind in kinds]
    seats = len(kinds)
    config = make_config(
        size=size, crossing=crossing, mode=mode or (Mode.TWO if seats == 2 else Mode.FOUR)
    )
    if config.seats != seats:
        raise ValueError(f"mode {config.mode} is for {config.seats} players, not {seats} (VNP-7)")
    totals = Totals(wins=[0] * config.sides, ties=[0] * config.sides, sums=[0] * config.sides)
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        rngs = [random.Random(rng.random()) for _ in range(seats)]
        state = play_game(config, bots, rngs)
        totals.games += 1
        best = winners(state)
        for side in best:
            (totals.wins if len(best) == 1 else totals.ties)[side] += 1
        for colour, left in enumerate(state.left):
            totals.left[colour] += len(left)
            totals.passes[colour] += state.passed[colour]
            totals.all_placed[colour] += not left
        for side, score in enumerate(side_scores(state)):
            totals.sums[side] += score
        totals.actions += sum(len(p) for p in state.placed) + sum(state.passed)
        if progress:
            progress(i + 1, games)
    return format_report(totals, config, kinds, games, seed)


def side_label(config: Config, kinds: Sequence[str], side: int) -> str:
    """A side as the report names it: "seat 2 (random): bleu", "bleu + vert (largest)"."""
    colours = [str(c) for i, c in enumerate(COLOURS) if config.side_of(i) == side]
    seats = sorted({config.seat_of(i) for i, _ in enumerate(COLOURS) if config.side_of(i) == side})
    bots = ", ".join(dict.fromkeys(kinds[s] for s in seats))
    if config.mode is Mode.TEAMS:
        return f"{' + '.join(colours)} (seats {', '.join(str(s + 1) for s in seats)}: {bots})"
    return f"seat {seats[0] + 1} ({bots}): {' + '.join(colours)}"


def format_report(
    totals: Totals, config: Config, kinds: Sequence[str], games: int, seed: int
) -> str:
    n = max(totals.games, 1)
    lines = [
        f"vnp, {len(kinds)} players, mode {config.mode}, {games} games, seed {seed}; "
        f"board {config.size}, crossing {config.crossing}",
        "wins by side (lowest score, VNP-6; ties apart):",
    ]
    for side in range(config.sides):
        won, tied = totals.wins[side], totals.ties[side]
        lines.append(
            f"  {side_label(config, kinds, side)}: {won} ({100 * won / n:.1f}%), ties {tied}, "
            f"mean score {totals.sums[side] / n:.2f}"
        )
    left = ", ".join(f"{c} {totals.left[i] / n:.2f}" for i, c in enumerate(COLOURS))
    lines.append(f"mean pieces left per colour: {left}")
    passes = ", ".join(f"{c} {totals.passes[i]}" for i, c in enumerate(COLOURS))
    lines.append(f"passes (games a colour passed, VNP-5): {passes}")
    placed = ", ".join(f"{c} {totals.all_placed[i]}" for i, c in enumerate(COLOURS))
    lines.append(f"all pieces placed (-10, VNP-6): {placed}")
    sums = ", ".join(f"{totals.sums[s] / n:.2f}" for s in range(config.sides))
    lines.append(f"mean side sums: {sums}; mean actions per game {totals.actions / n:.1f}")
    return "\n".join(lines)
