"""A referee never raises on what a table, a phone or a file can send (docs/games.md).

For every game of the registry, and the test game (`tests/games/tally/`): any
sequence of journal inputs (any reader, any tag, any press of any control name, seat and
JSON value, ticks, readers going silent, resume tables, time going back) is applied,
refused or answered with a fault, never an exception. Pure random inputs rarely get far
into a game, so most examples are real games (a simulated game's inputs) with inputs
inserted, taken out, retimed or replaced, and things put on the table then taken off
again: verdicts, rewards, reveals, flips, claims and ends are reached with the damage
among them. For each example the screens, status lines and transcript lines are made, and
the same inputs fed again, to a fresh referee and through a journal written and read
back, give the same events and result (a live game and its replay are one computation).
"""

from __future__ import annotations

import dataclasses
import json
import typing
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion import games
from companion.games import Aiming, Announcing, Game, TableReferee
from companion.journal import (
    CONTROL_NAME,
    Input,
    PressInput,
    ReaderInput,
    ResumeInput,
    Setup,
    SpotInput,
    TickInput,
    dump_lines,
    read_lines,
)
from companion.referee.event_log import TableEvent
from companion.screens.render import frame
from companion.transcript import describe
from tests.games import contract_games, descriptor

GAMES = contract_games()

NEVER_ENROLLED = ("DEADBEEF", "04A1B2C3D4E5F6", "0102030405060708090A")
WORDS = (
    "lapin", "animal:lapin", "colombe", "bleu", "colour:vert", "discard", "no_flip", "skip",
    "same_pair", "token", "card:QH", "rouge", "jaune", "",
)  # fmt: skip
"""Press values a game reads, of every game, and some that mean nothing."""
FAR_SPOTS = (10, 12, 18, 19, 64, 10**12)
"""Readers off a small mat (Flip Done's 3 x 3 over a PassPass table's 18), and beyond."""
STEPS = (0.0, 0.01, 0.2, 0.6, 3.0, 7.0, 30.0)
"""Seconds between two inputs: together, within and after the settle time, past a
window's end."""


@cache
def simulated(name: str, seats: int, seed: int) -> tuple[Setup, tuple[Input, ...]]:
    """A whole simulated game of `name` (its setup and its inputs)."""
    game = descriptor(name)
    setup = game.simulated_setup(seats, seed)
    return setup, tuple(game.simulate(setup).inputs)


@cache
def mat_spots(name: str, seats: int) -> int:
    """How many spots the game's mat has (the pad comes on top)."""
    return descriptor(name).referee(simulated(name, seats, 0)[0]).spots


@cache
def other_tags() -> tuple[str, ...]:
    """The tags of every game's simulated table: a tag of another game, for each."""
    made = (games.get(name) for name in games.names())
    return tuple(sorted({uid for g in made for uid in g.simulated_setup(g.default_seats, 0).tags}))


# ----------------------------------------------------------------------- strategies

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(WORDS),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(("colour", "placement", "card", "")), inner, max_size=3)
    ),
    max_leaves=6,
)
VALUES = (
    JSON_VALUES
    | st.lists(st.integers(-2, 20), min_size=1, max_size=4)  # lines, cards, the pad
    | st.fixed_dictionaries(
        {
            "colour": st.sampled_from(("jaune", "bleu", "rouge", "vert", "noir")),
            "placement": st.integers(-1, 4000) | st.integers(),
        }  # fmt: skip
    )
)


def controls(game: Game) -> st.SearchStrategy[str]:
    every = sorted({c for name in games.names() for c in games.get(name).controls})
    names = (*game.controls, *every, "skip", "pad", "tick", "z" * 32)
    return st.sampled_from(names) | st.from_regex(CONTROL_NAME, fullmatch=True)


def inputs_at(game: Game, setup: Setup, t: float) -> st.SearchStrategy[Input]:
    """One input of any type at time `t`."""
    mat = mat_spots(setup.game, len(setup.seats))
    spots = st.integers(0, mat + 2) | st.sampled_from(FAR_SPOTS)
    table_spots = spots.filter(lambda spot: spot <= 999_999)  # a resume table's keys: 6 digits
    uid = st.sampled_from(sorted(setup.tags) or NEVER_ENROLLED) | st.sampled_from(
        (*other_tags(), *NEVER_ENROLLED)
    )
    uids = st.frozensets(uid, max_size=3)
    seats = st.none() | st.integers(0, 7) | st.integers(0, 2**64)
    return st.one_of(
        st.builds(SpotInput, st.just(t), spots, uids),
        st.builds(PressInput, st.just(t), controls(game), seats, VALUES),
        st.builds(ReaderInput, st.just(t), spots, st.booleans()),
        st.builds(ResumeInput, st.just(t), st.dictionaries(table_spots, uids, max_size=4)),
        st.builds(TickInput, st.just(t)),
    )


def random_inputs(data: st.DataObject, game: Game, setup: Setup) -> list[Input]:
    """A short game of random inputs, time mostly moving on."""
    inputs: list[Input] = []
    t = 0.0
    for _ in range(data.draw(st.integers(0, 30), label="length")):
        t = max(0.0, t + data.draw(st.sampled_from((*STEPS, -1.0))))
        inputs.append(data.draw(inputs_at(game, setup, t)))
    return inputs


CHANGES = ("transient",) * 4 + ("insert", "delete", "retime", "retime", "replace", "replace")
"""How a real game is changed: mostly something that comes and goes again (the game can
go on past it), now and then a change for good."""


def mutated(
    data: st.DataObject, game: Game, setup: Setup, base: tuple[Input, ...]
) -> tuple[list[Input], set[int]]:
    """A real game with a few inputs inserted, taken out, retimed or replaced, or a
    transient: something put on a reader then the reader as it was again, a reader silent
    then answering; and the positions of the inputs changed."""
    inputs = list(base)
    new = [False] * len(inputs)
    for _ in range(data.draw(st.integers(1, 4), label="changes")):
        at = data.draw(st.integers(0, len(inputs)), label="where")
        before = inputs[at - 1].t if at else 0.0
        op = data.draw(st.sampled_from(CHANGES))
        if op == "delete" and at < len(inputs):
            del inputs[at], new[at]
        elif op == "retime" and at < len(inputs):
            shift = data.draw(st.sampled_from((-1.0, -0.3, 0.3, 1.0, 6.0)))
            inputs[at] = dataclasses.replace(inputs[at], t=max(0.0, inputs[at].t + shift))
            new[at] = True
        elif op == "replace" and at < len(inputs):
            inputs[at] = data.draw(inputs_at(game, setup, inputs[at].t))
            new[at] = True
        else:
            t = before + data.draw(st.sampled_from(STEPS[:3]))
            made = data.draw(inputs_at(game, setup, t))
            later = made.t + data.draw(st.sampled_from(STEPS[1:5]))
            undone = _undone(made, later, inputs[:at]) if op == "transient" else None
            added = [made] if undone is None else [made, undone]
            inputs[at:at] = added
            new[at:at] = [True] * len(added)
    return inputs, {i for i, flag in enumerate(new) if flag}


def _undone(record: Input, t: float, before: list[Input]) -> Input | None:
    """What takes `record` back at `t`: the reader holding again what it held, or
    answering (or not) again."""
    if isinstance(record, SpotInput):
        return SpotInput(t, record.spot, _held(record.spot, before))
    if isinstance(record, ReaderInput):
        return ReaderInput(t, record.spot, not record.ok)
    return None


def _held(spot: int, before: list[Input]) -> frozenset[str]:
    """What reader `spot` last reported among `before`."""
    for record in reversed(before):
        if isinstance(record, SpotInput) and record.spot == spot:
            return record.uids
        if isinstance(record, ResumeInput) and spot in record.table:
            return record.table[spot]
    return frozenset()


# --------------------------------------------------------------------------- checks


def looked_at(game: Game, referee: TableReferee, draw: bool) -> None:
    """Everything the runtime reads of a referee after an input; when `draw`, also the
    status lines, the OLED drawn in both languages and the game's page view."""
    screen = referee.screen
    referee.moment()
    if isinstance(referee, Aiming):
        assert all(isinstance(choice, tuple) for choice in referee.encoder_choices())
        assert referee.aim is None or isinstance(referee.aim, tuple)
    if isinstance(referee, Announcing):
        assert isinstance(referee.announce_values, tuple)
    assert referee.spots >= 0
    if not draw:
        return
    for lang in ("fr", "en"):
        assert referee.where(lang)
        frame(screen, lang, game)
    if game.page_view is not None:
        json.dumps(game.page_view(referee))


SHARED_KEYS = typing.get_type_hints(TableEvent)
"""The keys of an event the core reads, and their types (`TableEvent`)."""


def assert_shared_keys(event: TableEvent) -> None:
    """An event crosses into the core typed: its time, its kind and every shared key it
    has are of the type the core reads (a float may be a whole number)."""
    assert "t" in event and "kind" in event, event
    for key, kind in SHARED_KEYS.items():
        if key in event:
            expected = (int, float) if kind is float else kind
            assert isinstance(event[key], expected), (key, event)  # type: ignore[literal-required]


def played(game: Game, setup: Setup, inputs: list[Input], draw: set[int]) -> dict[str, Any]:
    """Feed `inputs` to a fresh referee, looking at it after each; its replay document
    (every event, even on a referee that keeps only the last ones)."""
    referee = game.referee(setup)
    events: list[TableEvent] = []
    for i, record in enumerate(inputs):
        events += referee.feed(record)
        looked_at(game, referee, i in draw or i == len(inputs) - 1)
    result = dict(referee.result())
    result["events"] = events
    for event in events:
        assert_shared_keys(event)
        for lang in ("fr", "en"):
            describe(event, referee.names, setup.game, lang)
    json.dumps(result)
    return result


def check(game: Game, setup: Setup, inputs: list[Input], draw: set[int]) -> None:
    first = played(game, setup, inputs, draw)
    assert played(game, setup, inputs, set()) == first
    journal = read_lines(dump_lines(setup, inputs, checksum=True), "journal")
    assert journal.inputs == inputs
    assert played(game, journal.setup, journal.inputs, set()) == first


@pytest.mark.parametrize("name", GAMES)
def test_a_game_with_announce_buttons_or_an_encoder_has_their_capability(name: str) -> None:
    """The console's announce buttons mean something (`Announcing`) exactly in a game whose
    controls name them; a game whose controls name the encoder's aim uses it (`Aiming`; a
    game may also use its push alone, as "choose")."""
    game = descriptor(name)
    setup, _ = simulated(name, game.default_seats, 0)
    referee = game.referee(setup)
    assert isinstance(referee, Announcing) == ("announce" in game.controls)
    assert isinstance(referee, Aiming) or "aim" not in game.controls


EXAMPLES = {"flipdone": 30, "phipasspass": 30, "vnp": 25}
"""Examples per game: fewer for the longest games (~20 s for all on one core)."""


@pytest.mark.parametrize("name", GAMES)
def test_no_input_makes_the_referee_raise_and_its_replay_is_the_same(name: str) -> None:
    game = descriptor(name)

    @settings(
        max_examples=EXAMPLES.get(name, 40),
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],  # no shrinking: the failing example is shown as drawn
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def no_raise(data: st.DataObject) -> None:
        seats = data.draw(st.sampled_from(list(game.seats)), label="seats")
        seed = data.draw(st.integers(0, 2), label="seed")
        setup, base = simulated(name, seats, seed)
        if data.draw(st.integers(0, 4), label="kind") == 0:
            inputs = random_inputs(data, game, setup)
            draw = set(range(len(inputs)))
        else:
            inputs, draw = mutated(data, game, setup, base)
        check(game, setup, inputs, draw)

    no_raise()
