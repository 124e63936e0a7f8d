"""Screens as pictures: golden files, staying on the screen, determinism, no peeking, and
real luma devices (never a hand-written fake)."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from PIL import Image, ImageChops, ImageDraw

from companion.games.passpass.prompt import Prompt, Say
from companion.games.passpass.rules import (
    Challenge,
    Event,
    Phase,
    PublicView,
    State,
    Verdict,
    apply,
    legal_actions,
    make_config,
    new_game,
    public_view,
)
from companion.games.passpass.screens import (
    SCREENS,
    CountdownScreen,
    FaultScreen,
    GameWonScreen,
    InstructionScreen,
    MancheWonScreen,
    RevealMapScreen,
    Screen,
    StatusScreen,
    VerdictScreen,
)
from companion.screens import render
from companion.screens.font import Box
from companion.screens.model import MenuScreen
from companion.screens.render import RENDERERS, draw, frame, show
from tests.games.helpers import compare_golden
from tests.screens.samples import NAMES, golden_cases, prompts, view

GOLDEN = Path(__file__).parent / "golden"
CASES = golden_cases()


def on_screen(boxes: tuple[Box, ...]) -> bool:
    return all(0 <= x0 < x1 <= 128 and 0 <= y0 < y1 <= 64 for x0, y0, x1, y1 in boxes)


def boxes_of(screen: Screen | MenuScreen, lang: str = "fr") -> tuple[Box, ...]:
    image = Image.new("1", (128, 64))
    return draw(ImageDraw.Draw(image), screen, lang)


# ---------------------------------------------------------------------------- golden


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_png(name: str) -> None:
    screen, lang = CASES[name]
    compare_golden(GOLDEN, "passpass", name, frame(screen, lang))


def test_golden_files_cover_every_screen_kind_in_french_and_some_in_english() -> None:
    french = {type(s) for s, lang in CASES.values() if lang == "fr"}
    ours = {kind for kind in RENDERERS if kind.__module__ == "companion.screens.model"}
    ours |= set(SCREENS)
    assert french == ours  # the menu and PassPass's; other games have their own golden tests
    assert sum(lang == "en" for _, lang in CASES.values()) >= 2


def test_frame_is_a_128x64_one_bit_image() -> None:
    image = frame(*CASES["status_fr"])
    assert image.mode == "1"
    assert image.size == (128, 64)


# ------------------------------------------------------------------- on the screen


def every_kind(v: PublicView, names: tuple[str, ...], prompt: Prompt) -> Iterator[Screen]:
    n = v.players
    yield StatusScreen(v, names, prompt)
    yield InstructionScreen(v, names, prompt)
    yield FaultScreen(v, names, prompt)
    full_hat = ("colombe", "colombe", "lapin", "souris")
    verdicts = (
        Verdict(Challenge.DOUBLON, 1 % n, 0, True, 18, full_hat, None),
        Verdict(Challenge.DOUBLON, n - 1, 0, False, 18, (), None),
        Verdict(Challenge.MENTEUR, n - 1, 0, True, 3, None, "colombe"),
    )
    for verdict in verdicts:
        yield VerdictScreen(v, names, verdict, prompt)


LONG_NAMES = ("Marie-Christine de La Rochefoucauld", "Wolfgang", "Łukasz", "Zoë", "李", "Ω" * 30)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(
    "game,players", [("ptipasspass", 2), ("ptipasspass", 6), ("phipasspass", 5)]
)
def test_every_prompt_in_every_screen_stays_on_screen(lang: str, game: str, players: int) -> None:
    names = LONG_NAMES[:players]
    v = view(game, players, challenge_tokens=(12,) * players, speaker=players - 1)
    for key in Say:
        for prompt in prompts(key):
            for screen in every_kind(v, names, prompt):
                boxes = boxes_of(screen, lang)
                assert boxes and on_screen(boxes), (key, type(screen).__name__)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screens_stay_on_screen(name: str) -> None:
    screen, lang = CASES[name]
    assert on_screen(boxes_of(screen, lang))


def test_long_names_are_cut_with_an_ellipsis() -> None:
    names = ("Marie-Christine", "Bob")
    won = boxes_of(GameWonScreen(view(players=2), names, 0))
    assert on_screen(won)
    image = frame(MancheWonScreen(view(players=2), names, 0, ("lapin",) * 3, (1, 2, 3)))
    shorter = frame(
        MancheWonScreen(view(players=2), ("Marie-Chri…", "Bob"), 0, ("lapin",) * 3, (1, 2, 3))
    )
    assert ImageChops.difference(image, shorter).getbbox() is None


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(st.text(max_size=30), min_size=6, max_size=6),
    players=st.integers(min_value=3, max_value=6),
    tokens=st.integers(min_value=0, max_value=12),
    remaining=st.floats(min_value=-5, max_value=50, allow_nan=False),
    total=st.floats(min_value=-1, max_value=30, allow_nan=False),
    seat=st.integers(min_value=0, max_value=5),
    lang=st.sampled_from(["fr", "en"]),
)
def test_arbitrary_names_and_counts_stay_on_screen(
    names: list[str],
    players: int,
    tokens: int,
    remaining: float,
    total: float,
    seat: int,
    lang: str,
) -> None:
    v = view("ptipasspass", players, challenge_tokens=(tokens,) * players, spot=17,
             announced="colombe", magician=seat % players)  # fmt: skip
    named = tuple(names[:players])
    seat %= players
    screens: list[Screen] = [
        StatusScreen(v, named, Prompt.of(Say.NOT_YOURS, spot=17, seat=seat)),
        CountdownScreen(v, named, remaining, total),
        RevealMapScreen(v, named, ((0, 0), (0, 1), (0, 2), (5, 9)), (1, 2, 3), (2, 3)),
        MancheWonScreen(v, named, seat, ("colombe",) * 3, (16, 17, 18)),
        GameWonScreen(v, named, seat),
    ]
    for screen in screens:
        assert on_screen(boxes_of(screen, lang)), type(screen).__name__


def test_countdown_bar_drains() -> None:
    v = view(phase=Phase.WINDOW, spot=2, announced="lapin")

    def bar_pixels(remaining: float) -> int:
        image = frame(CountdownScreen(v, NAMES[:4], remaining, 6.0))
        return sum(1 for x in range(2, 100) if image.getpixel((x, 59)))

    levels = [bar_pixels(r) for r in (6.0, 4.5, 3.0, 0.5, 0.0)]
    assert levels == sorted(levels, reverse=True)
    assert levels[0] > levels[2] > 0 == levels[-1]


def test_reveal_map_marks_the_line_and_the_swap() -> None:
    v = view(phase=Phase.REVEAL)
    plain = frame(RevealMapScreen(v, NAMES[:4], ((0, 0), (0, 1), (0, 2), (1, 0)), None, None))
    lined = frame(RevealMapScreen(v, NAMES[:4], ((0, 0), (0, 1), (0, 2), (1, 0)), (1, 2, 3), None))
    swapped = frame(RevealMapScreen(v, NAMES[:4], ((0, 0), (0, 1), (0, 2), (1, 0)), None, (1, 4)))

    def count(image: Image.Image) -> int:
        return image.histogram()[-1]

    assert count(lined) > count(plain) + 3 * 100
    assert count(swapped) > count(plain)


# --------------------------------------------------------------------- determinism


def test_equal_views_render_identically() -> None:
    state, _ = new_game(make_config("ptipasspass", 4), 0)
    for action in legal_actions(state)[:1]:
        state, _ = apply(state, action)
    twin = State.from_json(json.loads(json.dumps(state.to_json())))
    a, b = public_view(state), public_view(twin)
    assert a == b and a is not b
    for kind in screens_for(a, NAMES[:4], state.config.layout.positions, ()):
        same = next(s for s in screens_for(b, NAMES[:4], twin.config.layout.positions, ())
                    if type(s) is type(kind))  # fmt: skip
        for lang in ("fr", "en"):
            assert frame(kind, lang).tobytes() == frame(same, lang).tobytes()


# ------------------------------------------------------------------------- no peek


def screens_for(
    v: PublicView,
    names: tuple[str, ...],
    positions: tuple[tuple[int, int], ...],
    events: tuple[Event, ...],
) -> list[Screen]:
    """What a referee could show at this moment, from public facts only."""
    m = v.magician
    by_phase = {
        Phase.PLACE: Prompt.of(Say.PLACE, seat=m),
        Phase.ANNOUNCE: Prompt.of(Say.ANNOUNCE, seat=m),
        Phase.WINDOW: Prompt.of(Say.WINDOW, seat=m),
        Phase.REWARD: Prompt.of(
            Say.REWARD, seat=v.challenger or 0, token=v.challenge_tokens[m] > 0
        ),
        Phase.REVEAL: Prompt.of(Say.REVEAL, seat=m),
        Phase.OVER: Prompt.of(Say.CLEAR_TABLE),
    }
    screens: list[Screen] = [
        StatusScreen(v, names, by_phase[v.phase]),
        InstructionScreen(v, names, Prompt.of(Say.WAIT_TABLE, spots=(3,))),
        FaultScreen(v, names, Prompt.of(Say.RESTORE, spots=(v.spot or 1,))),
    ]
    if v.phase is Phase.WINDOW:
        screens.append(CountdownScreen(v, names, 2.5, 6.0))
    if v.phase is Phase.REVEAL:
        screens.append(RevealMapScreen(v, names, positions, None, v.swapped))
    if v.winner is not None:
        screens.append(GameWonScreen(v, names, v.winner))
    for event in events:
        if isinstance(event, Verdict):
            prompt = Prompt.of(Say.TAKE_BACK_HAT, seat=event.magician, spot=event.spot)
            screens.append(VerdictScreen(v, names, event, prompt))
    return screens


def scrambled(state: State, rng: random.Random) -> State:
    """The same public position with every hidden fact moved around."""
    pool = [t for hat in state.hats for t in hat] + [t for hand in state.hands for t in hand]
    pool += list(state.config.rules.tokens) * 2
    rng.shuffle(pool)
    hats: list[list[str]] = [[] for _ in state.hats]
    hands: list[list[str]] = [[] for _ in state.hands]
    for token in pool:
        rng.choice([*hats, *hands]).append(token)
    return dataclasses.replace(
        state,
        hats=tuple(tuple(sorted(h)) for h in hats),
        hands=tuple(tuple(sorted(h)) for h in hands),
        holding=rng.choice([None, *state.config.rules.tokens]),
    )


def test_screens_do_not_peek_at_hidden_facts() -> None:
    rendered = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = ("ptipasspass", "phipasspass")[seed % 2]
        players = rng.randint(3, 6)
        window = ("round", "timed")[seed // 2 % 2]
        state, _ = new_game(make_config(game, players, window=window), 0)
        names = NAMES[:players]
        positions = state.config.layout.positions
        events: tuple[Event, ...] = ()
        for step in range(120):
            if step % 3 == 0 or any(isinstance(e, Verdict) for e in events):
                twin = scrambled(state, rng)
                assert twin.hats != state.hats or twin.hands != state.hands
                mine = screens_for(public_view(state), names, positions, events)
                theirs = screens_for(public_view(twin), names, positions, events)
                for a, b in zip(mine, theirs, strict=True):
                    assert frame(a).tobytes() == frame(b).tobytes(), type(a).__name__
                    rendered += 1
            actions = legal_actions(state)
            if not actions:
                break
            state, events = apply(state, rng.choice(actions))
    assert rendered > 300


def test_screens_package_never_touches_hidden_state() -> None:
    """A cheap structural guard on top of the typed `PublicView`: no module of
    companion.screens, nor any game's screens, imports `State` or reads a hat, a hand or
    the token in flight."""
    package = Path(render.__file__).parent
    games = package.parent / "games"
    screens = [*package.glob("*.py"), *games.glob("*/screens.py"), games / "passpass/prompt.py"]
    assert len(screens) > len(list(package.glob("*.py"))) + 4  # every game's screens too
    for path in screens:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert "State" not in {a.name for a in node.names}, path.name
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"hats", "hands", "holding"}, (path.name, node.attr)


# -------------------------------------------------------------------- luma devices


def test_show_draws_on_a_colour_luma_device_too() -> None:
    screen, lang = CASES["verdict_doublon_won_fr"]
    device = dummy(width=128, height=64, mode="RGB")
    show(device, screen, lang)
    assert device.image.mode == "RGB"
    assert device.image.convert("1").tobytes() == frame(screen, lang).tobytes()


def test_show_refuses_a_display_of_another_size() -> None:
    with pytest.raises(ValueError, match="128x64"):
        show(dummy(width=128, height=32, mode="1"), CASES["fault_fr"][0])


def test_unknown_language_and_screen_kind_are_errors() -> None:
    screen = CASES["fault_fr"][0]
    with pytest.raises(ValueError, match='"fr", "en"'):
        frame(screen, "de")
    image = Image.new("1", (128, 64))
    with pytest.raises(TypeError, match="Screen"):
        draw(ImageDraw.Draw(image), Screen(screen.view, NAMES), "fr")


def test_luma_emulator_capture_device_saves_the_same_picture(tmp_path: Path) -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from luma.emulator.device import capture

    screen, lang = CASES["reveal_map_fr"]
    device = capture(
        width=128, height=64, mode="1", transform="none", scale=1,
        file_template=str(tmp_path / "oled_{0:03}.png"),
    )  # fmt: skip
    show(device, screen, lang)
    saved = Image.open(tmp_path / "oled_001.png").convert("1")
    assert saved.tobytes() == frame(screen, lang).tobytes()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_menu_step_stays_on_screen_with_long_names(lang: str) -> None:
    long_names = tuple(LONG_NAMES) + ("Siège 6",)
    screens = [
        MenuScreen("resume", ("resume", "new"), 1),
        MenuScreen("game", ("ptipasspass", "phipasspass"), 0),
        MenuScreen("ready", tuple(str(s) for s in range(19)), -1, "phipasspass"),
        MenuScreen("ready", (), 0, "ptipasspass"),
    ]
    for cursor in range(6):
        screens.append(MenuScreen("seats", ("2", "3", "4", "5", "6"), cursor % 5, "ptipasspass"))
        screens.append(MenuScreen("first", long_names[:6], cursor, "ptipasspass"))
    for screen in screens:
        boxes = boxes_of(screen, lang)
        assert boxes and on_screen(boxes), screen
