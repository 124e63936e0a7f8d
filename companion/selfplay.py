"""Self-play: whole games between bots, and the statistics a designer wants from them.

`companion selfplay ptipasspass --players 4 --games 1000 --seed 1` prints win rate by
seat, mean turns per manche and challenge success rates. Game i of a run is seeded from
(seed, i) alone, so the same seed always gives the same output.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.bots.passpass import Bot, make_bot
from companion.rules.passpass import (
    Action,
    Call,
    CloseWindow,
    Config,
    MancheVoid,
    Pass,
    Phase,
    State,
    Verdict,
    actors,
    apply,
    clockwise_first,
    legal_actions,
    new_game,
    player_view,
)


@dataclass
class GameStats:
    """What one finished game contributes to the totals."""

    winner: int | None
    actions: int = 0
    turns_per_manche: list[int] = field(default_factory=list)
    void_manches: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    successes: Counter[str] = field(default_factory=Counter)


def window_calls(state: State, bots: Sequence[Bot]) -> list[Call]:
    """A timed window: every seat that may call is asked (silence is a Pass)."""
    legal = legal_actions(state)
    calls = []
    for seat in sorted(actors(state)):
        own = [a for a in legal if isinstance(a, Call) and a.seat == seat]
        picked = bots[seat].choose(player_view(state, seat), [Pass(seat), *own])
        if isinstance(picked, Call):
            calls.append(picked)
    return calls


def choose(state: State, bots: Sequence[Bot]) -> Action:
    """Ask the seat(s) that may act. In a timed window the calls that come together are
    settled clockwise (PTI-7), and silence closes the window."""
    if state.phase is Phase.WINDOW and state.speaker is None:
        calls = {call.seat: call for call in window_calls(state, bots)}
        return calls[clockwise_first(state, calls)] if calls else CloseWindow()
    (seat,) = actors(state)
    return bots[seat].choose(player_view(state, seat), legal_actions(state))


def play_game(config: Config, bots: Sequence[Bot], max_actions: int = 1_000_000) -> GameStats:
    """Play one game to its end (or `max_actions`, then `winner` is None)."""
    state = new_game(config)
    stats = GameStats(winner=None)
    while state.phase is not Phase.OVER and stats.actions < max_actions:
        before = state
        state, events = apply(state, choose(state, bots))
        stats.actions += 1
        for bot in bots:
            bot.observe(events)
        for e in events:
            if isinstance(e, Verdict):
                stats.calls[e.challenge] += 1
                stats.successes[e.challenge] += e.success
            elif isinstance(e, MancheVoid):
                stats.void_manches += 1
        if state.manche != before.manche or state.phase is Phase.OVER:
            stats.turns_per_manche.append(before.turn + 1)  # it ended in that turn
    stats.winner = state.winner
    return stats


@dataclass
class Summary:
    players: int
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    unfinished: int = 0
    actions: int = 0
    manches: int = 0
    turns: int = 0
    void_manches: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    successes: Counter[str] = field(default_factory=Counter)

    def add(self, g: GameStats) -> None:
        self.games += 1
        if g.winner is None:
            self.unfinished += 1
        else:
            self.wins[g.winner] += 1
        self.actions += g.actions
        self.manches += len(g.turns_per_manche)
        self.turns += sum(g.turns_per_manche)
        self.void_manches += g.void_manches
        self.calls.update(g.calls)
        self.successes.update(g.successes)

    def report(self, bots: Sequence[str]) -> str:
        lines = [f"games: {self.games}   actions: {self.actions}   manches: {self.manches}"]
        lines.append("win rate by seat:")
        for seat in range(self.players):
            rate = self.wins[seat] / self.games if self.games else 0.0
            lines.append(f"  seat {seat + 1} ({bots[seat]}): {rate:6.1%}  ({self.wins[seat]})")
        if self.unfinished:
            lines.append(f"  unfinished: {self.unfinished}")
        mean = self.turns / self.manches if self.manches else 0.0
        lines.append(
            f"mean turns per manche: {mean:.1f}   void manches (PTI-15): {self.void_manches}"
        )
        lines.append("challenges:")
        for kind in ("doublon", "menteur"):
            n = self.calls[kind]
            rate = self.successes[kind] / n if n else 0.0
            lines.append(f"  {kind:8} {n:7} calls, {rate:6.1%} succeed")
        return "\n".join(lines)


def run(
    config_for: Callable[[int], Config],
    bot_kinds: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play `games` games; `config_for(i)` gives game i's config (so first players rotate)."""
    summary: Summary | None = None
    for i in range(games):
        config = config_for(i)
        summary = summary or Summary(config.players)
        bots = [
            make_bot(kind, random.Random(f"{seed}:{i}:{seat}"), seat, config.layout)
            for seat, kind in enumerate(bot_kinds)
        ]
        summary.add(play_game(config, bots))
        if progress:
            progress(i + 1, games)
    return summary or Summary(0)
