"""How PassPass bots take their turns at a table's seats: who is asked, and how calls
made together in a timed window are settled (PTI-7). The lab's table path
(companion/games/passpass/lab.py), the simulated table and the engine's property tests use
it."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.passpass.bots import Bot
from companion.games.passpass.rules import (
    Action,
    Call,
    CloseWindow,
    Pass,
    Phase,
    State,
    actors,
    clockwise_first,
    legal_actions,
    player_view,
)


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
