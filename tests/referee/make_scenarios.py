"""Writes the scenario journals of tests/referee/scenarios/ (run it after changing one).

Each scenario is a real table's inputs in the journal format; test_scenarios.py replays
them through the referee and checks what the rule books and TABLE.md say must happen.
Two players (Ana, Bob) sit at a 2 x 3 mat unless said otherwise:  1 2 3 / 4 5 6.
"""

from __future__ import annotations

from pathlib import Path

from tests.referee.script import Script

HERE = Path(__file__).parent / "scenarios"


def first_manche(s: Script) -> Script:
    """Six unchallenged placements: hats 1..3 get colombe, lapin, souris; 4..6 as well.
    Masqué, Masqué, Visible, Visible, Masqué, Masqué (PTI-4)."""
    s.place(1, "C0", "colombe").place(4, "C1", "colombe")
    s.place(2, "L0").place(5, "L1")
    return s.place(3, "S0", "souris").place(6, "S1", "souris")


def doublon_success_reward_drop() -> Script:
    s = Script().place(1, "L0", "lapin")
    s.drop(1, "C1").settle().press("announce", value="colombe").call(0, "doublon")
    s.take(1, "L0", "C1").settle()  # Bob takes back all of hat 1
    return s.drop(2, "C0").settle()  # Ana's reward: one of her animals, shown


def doublon_failure() -> Script:
    s = Script().drop(2, "S0").settle().press("announce", value="souris").call(1, "doublon")
    s.take(2, "S0").settle()  # Ana gives her souris to Bob
    return s.place(3, "S0", "souris")  # Bob may place the souris he won


def menteur_success_reward_token() -> Script:
    s = Script().drop(4, "S0").settle().press("announce", value="lapin").call(1, "menteur")
    s.take(4, "S0").settle()  # Ana keeps her souris
    return s.press("doublon", 1)  # Bob's reward: a Challenge token from Ana


def menteur_failure() -> Script:
    s = Script().drop(5, "C0").settle().press("announce", value="colombe").call(1, "menteur")
    return s.take(5, "C0").settle()


def reward_none() -> Script:
    """Ana loses both her Challenge tokens on failed Doublons, Bob empties his hand, then
    Bob wins a Doublon: he holds nothing to drop and Ana has no token to take."""
    s = Script().place(1, "C0", "colombe")
    s.drop(2, "C1").settle().press("announce", value="colombe").call(0, "doublon")
    s.take(2, "C1").settle()
    s.place(2, "C1")  # Ana, Visible
    s.drop(3, "L1").settle().call(0, "doublon").take(3, "L1").settle()
    s.place(3, "L0", "lapin").place(4, "S1", "souris")
    s.drop(4, "L1").settle().call(1, "doublon")  # Ana, Visible, into an occupied hat
    return s.take(4, "L1", "S1").settle()


def game_won_with_swap() -> Script:
    """Manche 1: Ana reveals colombe, lapin, souris. Manche 2 (Bob starts): Bob reveals a
    losing line, Ana swaps hats 3 and 6 (contiguous) and wins her second token."""
    s = first_manche(Script()).press("choose", 0, [1, 2, 3]).settle()
    s.clear(1, 2, 3, 4, 5, 6)
    s.place(1, "C1", "colombe").place(4, "C0", "colombe")
    s.place(2, "L1").place(5, "L0")
    s.place(1, "S1", "souris").place(3, "S0", "souris")
    s.press("choose", 1, [4, 5, 6]).settle()  # hat 6 is empty: no victory
    s.press("aim", 0, [4, 5, 6]).slide(3, 6)
    return s.press("choose", 0, [4, 5, 6])


def swap_not_contiguous() -> Script:
    s = first_manche(Script())
    s.slide(1, 6)  # diagonal corners: a fault, not a move
    s.slide(1, 6)  # put back
    return s.slide(2, 5).press("choose", 0, [4, 5, 6])  # now a real swap, then a line


def reveal_multi_animal() -> Script:
    s = Script().place(1, "L0", "lapin").place(1, "C1", "colombe")  # two in hat 1
    s.place(2, "S0").place(3, "L1")
    s.place(4, "C0", "colombe").place(5, "S1", "souris")
    return s.press("choose", 0, [1, 2, 3])  # colombe from hat 1, souris, lapin


def faults() -> Script:
    s = Script()
    s.drop(3, "DEADBEEF").settle().take(3, "DEADBEEF").settle()  # unknown tag
    s.drop(2, "L0", "S0").settle().take(2, "S0").settle()  # two at once: one taken out
    s.press("announce", value="lapin")
    s.drop(6, "C1").settle().take(6, "C1").settle()  # a token in another hat mid-window
    s.quiet_window()
    s.take(2, "L0").settle().drop(2, "L0").settle()  # a placed animal vanishes
    s.reader(3, ok=False).settle().reader(3, ok=True).settle()  # a reader goes silent
    s.place(4, "C1", "colombe")  # Bob's turn
    return s.drop(5, "L1").settle().take(5, "L1").settle()  # Ana holds no lapin now


def undo() -> Script:
    s = Script().drop(1, "L0").settle().press("back")
    s.take(1, "L0").settle()  # the table goes back as it was
    s.drop(2, "L0").settle().press("announce", value="lapin").call(1, "doublon")
    s.press("back")  # the failed Doublon is undone: the window opens again
    return s.quiet_window()


def window_timing() -> Script:
    """3 players on a 3 x 3 mat. Calls within 300 ms go clockwise from the Magicien's left;
    a call in the last moment counts, one after the window is ignored."""
    s = Script(seats=("Ana", "Bob", "Cy"))
    s.drop(5, "S0").settle().press("announce", value="lapin")
    s.press("menteur", 2).press("doublon", 1, dt=0.2).tick(0.35)  # Cy first, Bob wins
    s.take(5, "S0").settle()
    s.drop(1, "L1").settle().press("announce", value="lapin")
    s.press("menteur", 2, dt=5.9).tick(0.35)  # just in time
    s.take(1, "L1").settle()
    s.place(2, "C2", "colombe")
    return s.press("doublon", 0, dt=0.5)  # after the window: ignored


def phipasspass_two_windows() -> Script:
    s = Script(game="phipasspass", seats=("Ana", "Bob", "Cy"))
    s.drop(1, "B0").settle().press("announce", value="bleu")  # too early: window 1
    s.quiet_window().press("announce", value="vert").call(1, "menteur")
    s.take(1, "B0").settle()  # Ana lied and keeps her token
    s.drop(2, "V1").settle().call(2, "doublon")  # cup 2 was empty: Cy takes the token
    return s.take(2, "V1").settle()


SCENARIOS = {
    f.__name__: f
    for f in (
        doublon_success_reward_drop, doublon_failure, menteur_success_reward_token,
        menteur_failure, reward_none, game_won_with_swap, swap_not_contiguous,
        reveal_multi_animal, faults, undo, window_timing, phipasspass_two_windows,
    )
}  # fmt: skip


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, build in SCENARIOS.items():
        (HERE / f"{name}.jsonl").write_text(build().text())
        print("wrote", name)


if __name__ == "__main__":
    main()
