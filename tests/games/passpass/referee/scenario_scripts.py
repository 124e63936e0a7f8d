"""The PtiPassPass and PhiPassPass scenarios of tests/games/passpass/referee/scenarios/, as scripts
(`SCENARIOS`); `python -m tests.make_fixtures scenarios` writes them (run it after
changing one).

Each scenario is a real table's inputs in the journal format; test_scenarios.py replays
them through the referee and checks what the rule books and docs/table.md say must happen.
Two players (Ana, Bob) sit at a 2 x 3 mat unless said otherwise:  1 2 3 / 4 5 6.
"""

from __future__ import annotations

from pathlib import Path

from tests.games.passpass.referee.script import Script

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
    """Back takes back a designation and an announcement, never a verdict."""
    s = Script().drop(1, "L0").settle().press("back")
    s.take(1, "L0").settle()  # the table goes back as it was
    s.drop(2, "L0").settle().press("announce", value="lapin").press("back")
    s.press("announce", value="souris")  # announced again, a bluff this time
    s.call(1, "doublon")  # hat 2 was empty: Bob is wrong
    s.press("back")  # refused: the verdict is a public fact
    return s.take(2, "L0").settle()  # Ana gives her lapin to Bob


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
    """PHI-2: window 1 (Doublon) from the drop until the announcement, held until
    `doublon_min` (2 s) after the drop; then window 2 (Menteur)."""
    s = Script(game="phipasspass", seats=("Ana", "Bob", "Cy"))
    s.drop(1, "B0").settle().press("announce", value="vert", dt=0.5)  # held until 2 s
    s.press("menteur", 1, dt=0.5)  # still window 1: refused
    s.tick(1.0).call(1, "menteur")  # window 2: Ana announced vert over a bleu
    s.take(1, "B0").settle()  # Ana lied and keeps her token
    s.drop(2, "V1").settle().call(2, "doublon")  # cup 2 was empty: Cy takes the token
    return s.take(2, "V1").settle()


# People's pace (docs/table.md): nothing a person does in a plausible order is lost. No ticks.


def announce_before_drop() -> Script:
    """The announce pressed 0.8 s before the drop: held, and the window opens once the drop
    is judged; Bob's Menteur wins (a souris announced as lapin)."""
    s = Script().press("announce", value="lapin", dt=1.0).drop(4, "S0", dt=0.8)
    return s.press("menteur", 1, dt=1.5).take(4, "S0", dt=1.0)


def announce_with_drop() -> Script:
    """The announce 0.05 s after the drop, while the table settles: held, then applied."""
    s = Script().drop(4, "S0").press("announce", value="souris", dt=0.05)
    return s.press("menteur", 1, dt=1.5).take(4, "S0", dt=1.0)


def announce_after_drop() -> Script:
    """The announce 0.4 s after the drop (before it is judged) and a Doublon from Bob
    between the drop and the announcement: it counts when the window opens."""
    s = Script(seats=("Ana", "Bob", "Cy")).drop(5, "C0")
    s.press("announce", value="colombe", dt=0.4)
    return s.press("doublon", 1, dt=0.05).take(5, "C0", dt=1.5)


def doublon_before_window() -> Script:
    """Bob is Magicien. Ana's Doublon, pressed after his drop is judged but before his
    announcement, is held and counts at the opening; Cy's, 0.2 s after the opening, is
    within 300 ms of it, and Cy sits first clockwise from Bob's left: Cy's call is the one
    settled (PTI-7). Had Ana's counted when pressed, Cy's would have come too late."""
    s = Script(seats=("Ana", "Bob", "Cy")).place(1, "L0", "lapin")
    s.drop(2, "C1").press("doublon", 0, dt=0.8)
    s.press("menteur", 2, dt=0.1)  # Cy: nothing announced yet, refused
    s.press("announce", value="colombe", dt=0.5).press("doublon", 2, dt=0.2)
    return s.take(2, "C1", dt=1.0)


def calls_during_settle() -> Script:
    """A Visible turn of Ana's: Cy's Doublon 0.2 s after the drop (the table still
    settling) and Bob's 0.25 s later are held and both count when the window opens: Bob
    sits first clockwise from Ana's left, so his call is settled (PTI-7)."""
    s = Script(seats=("Ana", "Bob", "Cy"))
    s.place(1, "C0", "colombe").place(2, "C1", "colombe").place(3, "C2", "colombe")
    s.drop(3, "L0").press("doublon", 2, dt=0.2).press("doublon", 1, dt=0.25)
    return s.take(3, "L0", "C2", dt=1.5)


def refused_presses() -> Script:
    """Presses that cannot count, each shown: a Menteur in a Visible turn, the Magicien's
    own call, a seat nobody sits at, a call twice, an announcement in a Visible turn."""
    s = Script(seats=("Ana", "Bob", "Cy"))
    s.place(1, "C0", "colombe").place(2, "C1", "colombe").place(3, "C2", "colombe")
    s.drop(4, "L0", dt=1.0).press("announce", value="lapin", dt=1.0)  # Visible: shown
    s.press("menteur", 1, dt=0.5).press("doublon", 0, dt=0.5).press("doublon", 5, dt=0.5)
    return s.quiet_window()


def undo_swap_then_one_swap_only() -> Script:
    """Ana must reveal. Back takes back her swap (the hats are slid back); her next swap
    stands, a second one is a fault naming both hats, slid back it is fixed; her line
    misses (hat 6 is empty) and back cannot take the reveal back."""
    s = Script().place(1, "C0", "colombe").place(4, "C1", "colombe")
    s.place(2, "L0").place(5, "L1")  # tour 2: Visible
    s.place(3, "S0", "souris").place(5, "S1", "souris")  # Bob's souris joins hat 5
    s.slide(1, 2).press("back").slide(1, 2)
    s.slide(2, 3).slide(2, 3).slide(2, 3)
    return s.press("choose", 0, [4, 5, 6]).press("back")


def undo_reward() -> Script:
    """Bob wins a Menteur and takes a Challenge token, then thinks better of it: back, and
    he drops a colombe instead (PTI-10)."""
    s = menteur_success_reward_token().press("back")
    return s.drop(2, "C1").settle()


def designated_gone() -> Script:
    """Ana's lapin leaves hat 2 during the window: the OLED offers to put it back or to
    redo the placement; back takes back both the announcement and the drop."""
    s = Script().drop(2, "L0").settle().press("announce", value="lapin")
    s.take(2, "L0").settle().press("back")
    return s.drop(3, "L0").settle().press("announce", value="souris").quiet_window()


SCENARIOS = {
    f.__name__: f
    for f in (
        doublon_success_reward_drop, doublon_failure, menteur_success_reward_token,
        menteur_failure, reward_none, game_won_with_swap, swap_not_contiguous,
        reveal_multi_animal, faults, undo, window_timing, phipasspass_two_windows,
        announce_before_drop, announce_with_drop, announce_after_drop, doublon_before_window,
        calls_during_settle, refused_presses, undo_swap_then_one_swap_only, undo_reward,
        designated_gone,
    )
}  # fmt: skip
