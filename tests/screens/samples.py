"""Screens to render in tests and golden files: real engine views, adjusted to a moment."""

from __future__ import annotations

import dataclasses

from companion.games.passpass.prompt import Prompt, Say
from companion.games.passpass.rules import (
    Challenge,
    Phase,
    PublicView,
    Verdict,
    make_config,
    new_game,
    public_view,
)
from companion.games.passpass.rules.layouts import default_layout
from companion.games.passpass.screens import (
    CountdownScreen,
    FaultScreen,
    GameWonScreen,
    InstructionScreen,
    MancheWonScreen,
    NoticeScreen,
    RevealMapScreen,
    RevealMissScreen,
    Screen,
    StatusScreen,
    VerdictScreen,
)
from companion.games.passpass.words import PassPassRefusal
from companion.screens.model import MenuScreen, Notice, Refusal

NAMES = ("Ana", "Bob", "Cyrille", "Dominique", "Élodie", "François")

# Plausible parameters for every prompt key (seats are 0-based), as the referee gives them.
PROMPT_PARAMS: dict[Say, dict[str, int | bool | str | tuple[int, ...]]] = {
    Say.PLACE: {"seat": 0},
    Say.ANNOUNCE: {"seat": 0},
    Say.WINDOW: {"seat": 0},
    Say.TAKE_BACK_HAT: {"seat": 0, "spot": 5},
    Say.GIVE_TOKEN: {"seat": 0, "to": 2, "spot": 5, "tokens": True},
    Say.KEEP_TOKEN: {"seat": 0, "spot": 5},
    Say.PLACE_ANNOUNCED: {"seat": 0, "token": "colombe"},
    Say.REWARD: {"seat": 2, "token": True},
    Say.TAKE_CHALLENGE_TOKEN: {"seat": 2, "from": 0},
    Say.REVEAL: {"seat": 1},
    Say.HATS_BACK: {"seat": 1},
    Say.CLEAR_TABLE: {},
    Say.VOID: {},
    Say.WAIT_TABLE: {"spots": (2, 6, 11)},
    Say.EXTRA_TAG: {"spot": 7},
    Say.MISSING_TAG: {"spot": 7},
    Say.UNKNOWN_TAG: {"spot": 0},
    Say.TWO_TAGS: {"spot": 3},
    Say.NOT_YOURS: {"spot": 3, "seat": 1},
    Say.NOT_CONTIGUOUS: {"a": 1, "b": 9},
    Say.ONE_SWAP: {"a": 2, "b": 6},
    Say.DESIGNATED_GONE: {"spot": 12},
    Say.READER_SILENT: {"spot": 12},
    Say.ACROSS_SPOTS: {"spots": (11, 12)},
    Say.OFF_MAT: {"spot": 1000},
    Say.RESTORE: {"spots": (4, 5)},
}


def prompts(say: Say) -> list[Prompt]:
    """Every variant of a prompt key: each bool parameter both ways."""
    params = PROMPT_PARAMS[say]
    out = [Prompt.of(say, **params)]
    for name, value in params.items():
        if isinstance(value, bool):
            out.append(Prompt.of(say, **{**params, name: not value}))
    return out


def view(game: str = "ptipasspass", players: int = 4, **public: object) -> PublicView:
    """The public view of a fresh game, with some public fields set."""
    fresh = public_view(new_game(make_config(game, players), 0)[0])
    return dataclasses.replace(fresh, **public)  # type: ignore[arg-type]


def menu_cases() -> dict[str, tuple[MenuScreen, str]]:
    """The power-on menu at each of its steps (docs/table.md, "Starting a game")."""
    resume = MenuScreen("resume", ("resume", "new"), 0)
    game = MenuScreen("game", ("ptipasspass", "phipasspass"), 1)
    seats = MenuScreen("seats", ("2", "3", "4", "5", "6"), 3, "ptipasspass")
    first = MenuScreen("first", NAMES[:4], 2, "ptipasspass")
    first_6 = MenuScreen("first", (*NAMES[:4], "Siège 5", "Siège 6"), 5, "phipasspass")
    ready = MenuScreen("ready", ("0", "3", "5"), -1, "ptipasspass")
    ready_push = MenuScreen("ready", (), 0, "phipasspass")
    return {
        "menu_resume_fr": (resume, "fr"),
        "menu_game_fr": (game, "fr"),
        "menu_seats_fr": (seats, "fr"),
        "menu_first_fr": (first, "fr"),
        "menu_first_6_fr": (first_6, "fr"),
        "menu_ready_fr": (ready, "fr"),
        "menu_ready_push_fr": (ready_push, "fr"),
        "menu_resume_en": (resume, "en"),
        "menu_first_en": (first, "en"),
        "menu_ready_en": (ready, "en"),
    }


def golden_cases() -> dict[str, tuple[Screen | MenuScreen, str]]:
    """One representative screen of each kind in French, a few in English."""
    four = NAMES[:4]
    status = StatusScreen(
        view(challenge_tokens=(2, 3, 0, 1), victories=(1, 0, 0, 1), magician=1, speaker=2,
             phase=Phase.WINDOW, spot=5, announced="lapin",
             open_challenges=(Challenge.DOUBLON, Challenge.MENTEUR)),
        four,
        Prompt.of(Say.WINDOW, seat=1),
    )  # fmt: skip
    visible = StatusScreen(
        view(players=2, tour=2, masque=False, magician=0), NAMES[:2], Prompt.of(Say.PLACE, seat=0)
    )
    phi = StatusScreen(
        view("phipasspass", 5, magician=3, phase=Phase.ANNOUNCE, spot=2),
        NAMES[:5],
        Prompt.of(Say.ANNOUNCE, seat=3),
    )
    countdown = CountdownScreen(
        view(magician=0, phase=Phase.WINDOW, spot=5, announced="lapin",
             open_challenges=(Challenge.DOUBLON, Challenge.MENTEUR)),
        four,
        2.4,
        6.0,
    )  # fmt: skip
    countdown_visible = CountdownScreen(
        view(magician=3, tour=2, masque=False, phase=Phase.WINDOW, spot=11,
             announced="souris", open_challenges=(Challenge.DOUBLON,)),
        four,
        5.0,
        6.0,
    )  # fmt: skip
    doublon_won = VerdictScreen(
        view(magician=0),
        four,
        Verdict(Challenge.DOUBLON, 2, 0, True, 5, ("lapin", "souris"), None),
        Prompt.of(Say.TAKE_BACK_HAT, seat=0, spot=5),
    )
    doublon_lost = VerdictScreen(
        view(magician=0),
        four,
        Verdict(Challenge.DOUBLON, 1, 0, False, 5, (), None),
        Prompt.of(Say.GIVE_TOKEN, seat=0, to=1, spot=5, tokens=True),
    )
    menteur = VerdictScreen(
        view(magician=1),
        four,
        Verdict(Challenge.MENTEUR, 3, 1, True, 8, None, "colombe"),
        Prompt.of(Say.KEEP_TOKEN, seat=1, spot=8),
    )
    instruction = InstructionScreen(view(manche=2), four, Prompt.of(Say.CLEAR_TABLE))
    reveal = RevealMapScreen(
        view(magician=2, phase=Phase.REVEAL, swapped=(6, 10)),
        four,
        default_layout(4).positions,
        (5, 6, 7),
        (6, 10),
    )
    reveal_6 = RevealMapScreen(
        view(players=6, magician=5, phase=Phase.REVEAL),
        NAMES,
        default_layout(6).positions,
        None,
        None,
    )
    fault = FaultScreen(view(), four, Prompt.of(Say.MISSING_TAG, spot=7))
    manche_won = MancheWonScreen(
        view(victories=(0, 0, 1, 0)), four, 2, ("lapin", "souris", "colombe"), (2, 6, 10)
    )
    game_won = GameWonScreen(view(victories=(1, 2, 1, 0), winner=1), four, 1)
    notice = NoticeScreen(
        view(tour=2, masque=False, phase=Phase.WINDOW), four,
        Notice("menteur", 3, PassPassRefusal.VISIBLE_TURN, 3.0),
    )  # fmt: skip
    notice_console = NoticeScreen(view(), four, Notice("back", None, Refusal.PUBLIC_FACT, 3.0))
    missed = RevealMissScreen(
        view(magician=1), four, 1, (5, 6, 7), (("lapin",), (), ("colombe", "souris"))
    )
    return {
        "status_fr": (status, "fr"),
        "status_visible_fr": (visible, "fr"),
        "status_phi_fr": (phi, "fr"),
        "countdown_fr": (countdown, "fr"),
        "countdown_visible_fr": (countdown_visible, "fr"),
        "verdict_doublon_won_fr": (doublon_won, "fr"),
        "verdict_doublon_lost_fr": (doublon_lost, "fr"),
        "verdict_menteur_fr": (menteur, "fr"),
        "instruction_fr": (instruction, "fr"),
        "reveal_map_fr": (reveal, "fr"),
        "reveal_map_6_fr": (reveal_6, "fr"),
        "fault_fr": (fault, "fr"),
        "manche_won_fr": (manche_won, "fr"),
        "game_won_fr": (game_won, "fr"),
        "notice_fr": (notice, "fr"),
        "notice_console_fr": (notice_console, "fr"),
        "reveal_missed_fr": (missed, "fr"),
        "notice_en": (notice, "en"),
        "reveal_missed_en": (missed, "en"),
        "status_en": (status, "en"),
        "verdict_doublon_lost_en": (doublon_lost, "en"),
        "fault_en": (fault, "en"),
        "reveal_map_en": (reveal, "en"),
        **menu_cases(),
    }
