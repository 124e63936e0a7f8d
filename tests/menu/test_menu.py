"""The power-on menu as a pure state machine: every step, wrap-around, back, the seat
range of each game, resume offered only with an unfinished journal, and a game that starts
only when every spot reads empty."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from functools import reduce
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.passpass.rules.layouts import default_layout
from companion.menu import (
    Menu,
    NewGame,
    Resume,
    Step,
    back,
    new_menu,
    not_empty,
    push,
    screen,
    seat_names,
    seat_range,
    spot_count,
    table,
    turn,
)
from companion.screens.model import MenuScreen
from companion.screens.render import frame

NAMES = ("Ana", "Bob", "Cy", "Dom")
EMPTY: frozenset[str] = frozenset()


def menu(**options: object) -> Menu:
    kwargs: dict[str, object] = {"readers": True, **options}
    return new_menu("ptipasspass", NAMES, 1, **kwargs)  # type: ignore[arg-type]


def clear(m: Menu) -> Menu:
    """Every spot of the chosen game reads empty."""
    return reduce(lambda acc, spot: table(acc, spot, EMPTY), range(spot_count(m) + 1), m)


def test_steps_in_order_preset_from_the_config() -> None:
    m = menu()
    assert (m.step, m.game, m.seats, m.first) == (Step.GAME, "ptipasspass", 4, 1)
    assert screen(m) == MenuScreen(
        "game", ("ptipasspass", "phipasspass", "flipdone", "swiped", "vnp"), 0, ""
    )
    m = push(m)
    assert m.step is Step.SEATS
    assert screen(m) == MenuScreen("seats", ("2", "3", "4", "5", "6"), 2, "ptipasspass")
    m = push(m)
    assert m.step is Step.FIRST
    assert screen(m) == MenuScreen("first", NAMES, 1, "ptipasspass")
    m = push(m)
    assert m.step is Step.READY and m.result is None
    assert screen(m).step == "ready" and screen(m).cursor == -1


def test_a_whole_menu_to_a_new_game() -> None:
    m = turn(menu(), 1)  # PhiPassPass
    m = push(m)
    m = turn(m, -1)  # 3 players
    m = push(m)
    m = turn(m, 1)  # Cy
    m = push(m)
    m = clear(m)
    assert m.result == NewGame("phipasspass", ("Ana", "Bob", "Cy"), 2)


@pytest.mark.parametrize("steps", [1, -1, 3, -7, 12])
def test_every_list_wraps_around(steps: int) -> None:
    games = ("ptipasspass", "phipasspass", "flipdone", "swiped", "vnp")
    m = menu()
    assert turn(m, steps).game == games[steps % len(games)]
    m = push(m)
    allowed = list(seat_range("ptipasspass"))
    assert turn(m, steps).seats == allowed[(allowed.index(4) + steps) % len(allowed)]
    m = push(m)
    assert turn(m, steps).first == (1 + steps) % 4


def test_seat_range_per_game() -> None:
    assert seat_range("ptipasspass") == (2, 3, 4, 5, 6)
    assert seat_range("phipasspass") == (3, 4, 5, 6)
    assert seat_range("ptipasspass", max_seats=4) == (2, 3, 4)
    m = new_menu("ptipasspass", ("Ana", "Bob"), 1)
    assert m.seats == 2 and m.first == 1
    m = turn(m, 1)  # PhiPassPass needs 3 players: the seats are clamped, the first kept
    assert (m.game, m.seats, m.first) == ("phipasspass", 3, 1)
    m = turn(push(m), -1)  # from 3, one back wraps to 6
    assert m.seats == 6
    m = turn(new_menu("phipasspass", NAMES, 3), 0)
    m = push(m)
    m = turn(m, -1)  # 3 seats: the first player (seat 4) no longer sits: seat 1
    assert (m.seats, m.first) == (3, 0)


def test_a_console_wired_for_fewer_seats_caps_the_range() -> None:
    m = push(new_menu("ptipasspass", NAMES, 0, max_seats=4))
    assert screen(m).options == ("2", "3", "4")
    assert turn(m, 1).seats == 2


def test_seat_names_come_from_the_config_or_are_numbered() -> None:
    m = new_menu("ptipasspass", ("Ana", "Seat 2", "Cy"), 0)
    assert seat_names(m) == ("Ana", "Siège 2", "Cy")
    m = turn(push(m), 2)  # 5 seats
    assert seat_names(m) == ("Ana", "Siège 2", "Cy", "Siège 4", "Siège 5")
    m = new_menu("ptipasspass", ("Seat 1", "Seat 2"), 0, language="en")
    assert seat_names(m) == ("Seat 1", "Seat 2")


def test_back_goes_one_step_back_and_keeps_the_choices() -> None:
    m = push(push(turn(menu(), 0)))
    m = turn(m, 2)
    assert m.step is Step.FIRST and m.first == 3
    m = back(m)
    assert m.step is Step.SEATS and m.first == 3
    m = back(m)
    assert m.step is Step.GAME
    assert back(m) == m  # nothing before the game without a journal
    m = push(push(push(m)))
    assert m.step is Step.READY
    assert back(m).step is Step.FIRST


def test_the_sound_step_asks_the_voice_s_volume_when_the_table_has_one() -> None:
    """After the first player, a table with a voice ([sound]) asks its volume for the game,
    from the config's, "off" (0) among the choices; back and forth keep it."""
    m = push(push(push(menu(volume=70))))
    assert m.step is Step.SOUND
    assert screen(m) == MenuScreen("sound", ("0", "25", "50", "70", "75", "100"), 3, "ptipasspass")
    assert turn(m, 3).volume == 0 and turn(m, -3).volume == 0  # wraps around
    m = turn(m, 1)
    assert back(m).step is Step.FIRST and push(back(m)).volume == 75
    m = push(m)
    assert m.step is Step.READY and back(m).step is Step.SOUND
    assert clear(m).result == NewGame("ptipasspass", NAMES, 1, 75)
    off = clear(push(turn(push(push(push(menu(volume=25)))), -1)))
    assert off.result == NewGame("ptipasspass", NAMES, 1, 0)
    assert clear(push(push(push(menu())))).result == NewGame("ptipasspass", NAMES, 1, None)
    sound = push(push(push(menu(volume=70))))
    for lang in ("fr", "en"):  # drawn in both languages, the cursor on each choice
        frames = {frame(screen(turn(sound, n)), lang).tobytes() for n in range(6)}
        assert len(frames) == 6


def test_resume_is_offered_only_with_an_unfinished_journal() -> None:
    assert menu().step is Step.GAME
    m = menu(resumable=True)
    assert m.step is Step.RESUME
    assert screen(m) == MenuScreen("resume", ("resume", "new"), 0, "")
    assert push(m).result == Resume()
    m = turn(m, 1)
    assert screen(m).cursor == 1
    assert turn(m, 1).resume_cursor == 0  # wraps
    m = push(m)
    assert m.step is Step.GAME and m.result is None
    assert back(m).step is Step.RESUME
    assert back(back(m)).step is Step.RESUME


def test_the_game_starts_only_when_every_spot_reads_empty() -> None:
    m = push(push(push(menu())))
    spots = spot_count(m)
    assert spots == default_layout(4).spots
    assert push(m).result is None  # with readers, a push does not start it
    m = table(m, 3, frozenset({"04A1B2C3"}))
    for spot in range(spots + 1):
        if spot != 3:
            m = table(m, spot, EMPTY)
    assert m.result is None
    assert not_empty(m) == (3,)
    assert screen(m).options == ("3",)
    m = table(m, 3, None)  # its reader went silent: not known to be empty
    assert m.result is None and not_empty(m) == (3,)
    m = table(m, 3, EMPTY)
    assert m.result == NewGame("ptipasspass", NAMES, 1)
    assert table(m, 3, frozenset({"X"})) == m  # once started, the menu is done


def test_an_empty_table_before_ready_starts_on_the_push_to_ready() -> None:
    m = clear(push(push(menu())))
    assert m.step is Step.FIRST and m.result is None
    assert push(m).result == NewGame("ptipasspass", NAMES, 1)


def test_without_readers_a_push_at_ready_starts() -> None:
    m = push(push(push(menu(readers=False))))
    assert m.step is Step.READY and m.result is None
    assert screen(m) == MenuScreen("ready", (), 0, "ptipasspass")
    assert push(m).result == NewGame("ptipasspass", NAMES, 1)


def test_a_config_layout_counts_for_its_own_game_and_seats_only() -> None:
    layout = default_layout(6).to_json()
    m = new_menu("ptipasspass", NAMES, 0, layout=layout)
    assert spot_count(m) == default_layout(6).spots
    assert spot_count(dataclasses.replace(m, seats=3)) == default_layout(3).spots


def test_a_game_the_console_cannot_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="phipasspass"):
        new_menu("phipasspass", NAMES[:2], 0, max_seats=2)


@given(
    st.booleans(),
    st.lists(st.sampled_from(["turn+", "turn-", "turn3", "push", "back", "empty"]), max_size=40),
    st.sampled_from([None, 70]),
)
def test_any_sequence_stays_consistent_and_drawable(
    resumable: bool, moves: list[str], volume: int | None
) -> None:
    m = menu(resumable=resumable, volume=volume)
    for move in moves:
        if move.startswith("turn"):
            m = turn(m, {"turn+": 1, "turn-": -1, "turn3": 3}[move])
        elif move == "push":
            m = push(m)
        elif move == "back":
            m = back(m)
        else:
            m = clear(m)
        assert m.seats in seat_range(m.game)
        assert 0 <= m.first < m.seats
        assert (m.volume is None) is (volume is None)  # a voice only where the table has one
        view = screen(m)
        assert -1 <= view.cursor < max(len(view.options), 1)
    if isinstance(m.result, NewGame):
        assert len(m.result.seats) in seat_range(m.result.game)
    frame(screen(m), "fr")


def test_a_game_for_two_or_four_offers_only_those():
    """VNP-7: "Vous ne passerez pas !" is for two players or four, never three."""
    assert seat_range("vnp") == (2, 4)
    m = dataclasses.replace(new_menu("vnp", ["A", "B", "C", "D"]), step=Step.SEATS)
    assert screen(m).options == ("2", "4")
    assert turn(m, 1).seats == 2 and turn(turn(m, 1), 1).seats == 4


def test_the_ready_step_says_what_each_game_needs_cleared() -> None:
    """PassPass's tokens go back to their owners, hats empty; Flip Done (cards) and Swiped
    (cards and cubes) need their mat clear; "Vous ne passerez pas !" is played on the
    phones, so only the pad."""
    from companion.screens.render import frame, menu_question
    from companion.screens.text import phrase

    keys = {
        g: menu_question(MenuScreen("ready", (), 0, g))
        for g in ("ptipasspass", "flipdone", "swiped", "vnp")
    }
    assert keys["ptipasspass"] == "menu.title.ready"
    assert (keys["flipdone"], keys["swiped"]) == ("menu.title.ready.cards", "menu.title.ready.mat")
    assert "téléphones" in phrase(keys["vnp"], "fr") and "phones" in phrase(keys["vnp"], "en")
    assert "jeton" not in phrase(keys["flipdone"], "fr")
    shown = {
        g: frame(MenuScreen("ready", (), 0, g), "fr").tobytes() for g in ("ptipasspass", "vnp")
    }
    assert shown["ptipasspass"] != shown["vnp"]


def test_the_menu_loads_no_game_until_one_is_chosen(tmp_path) -> None:
    """Issue 41: the menu is on the OLED within a second of power-on on a Pi 4, so it lists
    the games, their numbers of players and their questions from each game's `facts`
    module and loads none of them (no engine, referee or words); the game chosen is loaded
    at the READY step, which counts its spots, since it is about to start."""
    code = """
import json, sys
from companion import menu as m
from companion.screens.render import frame

def games():
    return sorted(k for k in sys.modules if k.startswith("companion.games."))

menu = m.new_menu("vnp", ["A", "B", "C", "D"])
for _ in range(5):  # each game's name, its numbers of players, its first question: drawn
    frame(m.screen(menu), "en")
    frame(m.screen(menu := m.push(menu)), "en")
    frame(m.screen(menu := m.push(menu)), "en")
    menu = m.turn(m.back(m.back(menu)), 1)
shown = games()
menu = m.push(m.push(m.push(m.turn(menu, 3))))  # flipdone, 3 seats, first player: READY
frame(m.screen(menu), "en")
print(json.dumps([shown, games(), menu.step, menu.game]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown, chosen, step, game = json.loads(done.stdout)
    packages = ("passpass", "flipdone", "swiped", "vnp")
    assert set(shown) == {f"companion.games.{p}{part}" for p in packages for part in ("", ".facts")}
    assert (step, game) == ("ready", "flipdone")
    assert "companion.games.flipdone.game" in chosen
    assert not any(m.startswith(("companion.games.vnp.", "companion.games.swiped."))
                   for m in set(chosen) - set(shown))  # fmt: skip


def test_a_game_installed_on_its_own_joins_the_menu_after_its_first_frame(tmp_path) -> None:
    """The first frame lists the built-in games (and any already loaded) without the scan
    of the installed distributions; `with_every_game`, which the service calls right after
    that frame, adds a game installed on its own (here through $COMPANION_GAMES)."""
    code = """
from companion import menu as m
first = m.new_menu("ptipasspass", ["A", "B", "C"])
print(" ".join(first.games), "|", " ".join(m.with_every_game(first).games))
"""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "COMPANION_GAMES": "tests.games.tally", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, every = (side.split() for side in done.stdout.split("|"))
    assert first == ["ptipasspass", "phipasspass", "flipdone", "swiped", "vnp"]
    assert every == [*first, "tally"]
