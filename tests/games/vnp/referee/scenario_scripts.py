"""The Vous ne passerez pas ! scenarios of tests/games/vnp/referee/scenarios/, as scripts
(`SCENARIOS`); `python -m tests.make_fixtures scenarios` writes them (run it after
changing one).

Each scenario is what the players' phones sent, in the journal format; test_scenarios.py
replays them through the referee and checks what VNP-1..VNP-7 and docs/table.md say must
happen. Four seats are Ana (jaune), Bob (bleu), Cy (rouge), Dan (vert); two seats are Ana
(bleu + vert) and Bob (jaune + rouge) (VNP-7). The starts are VNP-2's: jaune (2,2), bleu
(10,2), rouge (10,10), vert (2,10). One press a second unless said otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.games.vnp.referee.script import TWO, VnpScript

HERE = Path(__file__).parent / "scenarios"

TWO_SEED = 3
"""The greedy bot's seed of the two-player game."""
TEAMS_SIZE, TEAMS_SEED = 14, 8
"""On a 14 x 14 board the greedy bot from seed 8 places every vert piece (VNP-6: -10)."""


def opening(s: VnpScript) -> VnpScript:
    """Each colour's straight 4 from its start: jaune down from (2,0), bleu down from
    (10,0), rouge down from (10,8), vert across from (0,10)."""
    s.place(s.pid("4a", 2, 0))
    s.place(s.pid("4a", 10, 0))
    s.place(s.pid("4a", 10, 8))
    return s.place(s.pid("4a", 0, 10, o=1))


def two_players() -> VnpScript:
    """VNP-7 with two seats (no rules: the seats imply mode two): the greedy bot's game to
    the end, a hint asked before each pass (VNP-5: there is none), then presses after the
    end: a placement and a hint (not now, VNP-6) and back (the end is a public fact)."""
    s = VnpScript(TWO).bot_game("largest", TWO_SEED, hint_before_pass=True)
    s.press("place", 0, {"colour": "bleu", "placement": 0})
    s.press("hint", 1)
    return s.press("back", 0)


def teams_bonus() -> VnpScript:
    """VNP-7 teams on a 14 x 14 board: bleu + vert against jaune + rouge; vert places all
    its pieces (VNP-6: -10), the last act of the game; then Dan's back is refused (the end
    is final)."""
    s = VnpScript(rules={"mode": "teams", "size": TEAMS_SIZE})
    return s.bot_game("largest", TEAMS_SEED).press("back", 3)


def refusals() -> VnpScript:
    """Every press that cannot count, each shown: a control the game does not use, a seat
    nobody sits at, no seat, values that are not one, another seat's colour (VNP-7), the
    colour not to play (VNP-2), a pass while a placement exists (VNP-5), a first piece off
    its start (VNP-3), a double tap, two seats pressing at once, then jaune's second
    piece: one already placed (VNP-1), a crossing, a shared segment, one touching no jaune
    piece (VNP-4), and finally one that counts."""
    s = VnpScript()
    straight = s.pid("4a", 2, 0)
    s.press("announce", None, "lapin")
    s.press("place", 7, {"colour": "jaune", "placement": straight})
    s.press("place", None, {"colour": "jaune", "placement": straight})
    s.press("place", 0, "4a")
    s.press("place", 0, {"colour": "violet", "placement": straight})
    s.press("place", 0, {"colour": "jaune", "placement": -1})
    s.press("place", 0, {"colour": "jaune", "placement": True})
    s.press("place", 0, {"colour": "jaune"})
    s.press("place", 0, {"colour": "bleu", "placement": s.pid("4a", 10, 0)})
    s.press("place", 1, {"colour": "bleu", "placement": s.pid("4a", 10, 0)})
    s.pass_(counts=False)
    s.place(s.pid("4a", 6, 6), counts=False)
    s.place(straight)
    s.place(straight, colour="jaune", counts=False, gap=0.2)  # the double tap
    s.place(s.pid("4a", 10, 8), colour="rouge", counts=False, gap=0.8)  # Cy, just before Bob
    s.place(s.pid("4a", 10, 0), gap=0.1)  # Bob: it counts
    s.place(s.pid("4a", 0, 10, o=1), colour="vert", counts=False, gap=0.1)  # Dan, with Bob
    s.place(s.pid("4a", 10, 8))
    s.place(s.pid("4a", 0, 10, o=1))
    s.place(s.pid("4a", 0, 1, o=1), counts=False)  # VNP-1
    s.place(s.pid("2a", 1, 2, o=1), counts=False)  # VNP-4: crosses at (2,2)
    s.place(s.pid("1a", 2, 3), counts=False)  # VNP-4: on jaune's segment (2,3)-(2,4)
    s.place(s.pid("1a", 6, 6), counts=False)  # VNP-4: touches no jaune piece
    return s.place(s.pid("2b", 2, 4))


def hint() -> VnpScript:
    """The hint: asked by a seat not to play (refused), by Ana (shown until the next
    action, whatever the time), by the console for bleu; a refused pass meanwhile."""
    s = VnpScript()
    s.press("hint", 1)
    s.press("hint", 0)
    s.tick(5.0)
    s.place(s.pid("2a", 2, 1))
    s.press("hint")
    s.pass_(counts=False)
    s.tick(4.0)
    return s.place(s.pid("4a", 10, 0))


def undo() -> VnpScript:
    """back: nothing yet; from another seat (refused); Ana's own placement taken back, then
    nothing left to take back; Bob's taken back after Ana's stood, then Ana's (now a
    public fact: bleu acted on it); the console's back takes back Cy's."""
    s = VnpScript()
    s.press("back")
    s.place(s.pid("4a", 2, 0))
    s.press("back", 1)
    s.undo(0)
    s.press("back", 0)
    s.place(s.pid("4a", 0, 2, o=1))
    s.place(s.pid("4a", 10, 0))
    s.undo(1)
    s.press("back", 0)
    s.place(s.pid("4a", 10, 0))
    s.place(s.pid("4a", 10, 8))
    s.undo()
    return s.place(s.pid("3a", 10, 7))


def undo_off() -> VnpScript:
    """The table setting undo_placement false: back is refused, from a seat or not."""
    s = VnpScript(rules={"undo_placement": False})
    s.place(s.pid("4a", 2, 0))
    s.press("back", 0)
    return s.press("back")


SCENARIOS: dict[str, Callable[[], VnpScript]] = {
    "two_players": two_players,
    "teams_bonus": teams_bonus,
    "refusals": refusals,
    "hint": hint,
    "undo": undo,
    "undo_off": undo_off,
}
