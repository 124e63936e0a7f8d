"""A claim pressed while a swap is under way (a cube in the air). No ruling covers it; the
table setting `claim_mid_swap` chooses: "after" (default) holds the press until the swap
lands, "before" judges it on the grid as it stood before that swap. And a card named
with a held "I know your card" is read once the press counts."""

from __future__ import annotations

import dataclasses

import pytest

from companion.journal import PressInput, Setup, SpotInput, TickInput
from companion.referee.swiped import SetupError, SwipedReferee
from companion.rules.swiped import agreement, make_deck
from companion.sim.swiped import make_setup


class Table:
    """A referee and the tags on its spots, driven one report at a time."""

    def __init__(self, setup: Setup) -> None:
        self.referee = SwipedReferee(setup)
        self.uid = {kind: uid for uid, kind in setup.tags.items()}
        self.t = setup.t
        self.spots: dict[int, set[str]] = {s: set() for s in range(10)}

    def put(self, spot: int, kind: str, dt: float = 0.3) -> None:
        self.spots[spot].add(self.uid[kind])
        self.report(spot, dt)

    def take(self, spot: int, kind: str, dt: float = 0.3) -> None:
        self.spots[spot].discard(self.uid[kind])
        self.report(spot, dt)

    def report(self, spot: int, dt: float) -> None:
        self.t = round(self.t + dt, 3)
        self.referee.feed(SpotInput(self.t, spot, frozenset(self.spots[spot])))

    def press(self, control: str, seat: int, dt: float = 0.1) -> None:
        self.t = round(self.t + dt, 3)
        self.referee.feed(PressInput(self.t, control, seat))

    def settle(self) -> None:
        self.t = round(self.t + 2.0, 3)
        self.referee.feed(TickInput(self.t))

    def tap(self, card: int) -> None:
        self.put(0, f"layout:{card}")
        self.settle()
        self.take(0, f"layout:{card}")
        self.settle()

    def open(self, layout: int, targets: tuple[int, int]) -> None:
        """SW-2: the face-up card, the cubes as it shows, each target from the first."""
        self.tap(layout)
        for square, colour in enumerate(self.referee.state.grid, start=1):
            self.put(square, f"cube:{colour}")
        self.settle()
        first = self.referee.state.config.first
        for seat in (first, 1 - first):
            self.tap(targets[seat])
        assert self.referee.state.targets == targets

    def grid(self) -> tuple[str, ...]:
        return self.referee.state.grid


def swapped(grid: tuple[str, ...], i: int, j: int) -> tuple[str, ...]:
    out = list(grid)
    out[i - 1], out[j - 1] = out[j - 1], out[i - 1]
    return tuple(out)


def path_to_five(grid: tuple[str, ...], target: tuple[str, ...]) -> list[tuple[int, int]]:
    """Swaps (squares) raising the matches with `target`, the last one to 5 or more
    (SW-1: two cards agree on 2 squares at most, so it takes a few)."""
    path: list[tuple[int, int]] = []
    while agreement(grid, target) < 5:
        pairs = [(i, j) for i in range(1, 10) for j in range(i + 1, 10)]
        i, j = max(pairs, key=lambda p: agreement(swapped(grid, *p), target))
        grid = swapped(grid, i, j)
        path.append((i, j))
    return path


def swap(table: Table, i: int, j: int) -> None:
    """Both cubes lifted, then both put down."""
    a, b = table.grid()[i - 1], table.grid()[j - 1]
    table.take(i, f"cube:{a}")
    table.take(j, f"cube:{b}")
    table.put(j, f"cube:{a}")
    table.put(i, f"cube:{b}")
    table.settle()


LAYOUT, TARGET, OTHER = 1, 2, 3


@pytest.mark.parametrize("mode", ["after", "before"])
def test_a_5_matches_claim_pressed_while_the_swap_lands(mode):
    setup = dataclasses.replace(make_setup(0, first=0), rules={"claim_mid_swap": mode})
    table = Table(setup)
    claimer = 1
    table.open(LAYOUT, (OTHER, TARGET))
    *before, (i, j) = path_to_five(table.grid(), make_deck(24, 0)[TARGET - 1])
    for square, other in before:
        swap(table, square, other)
    a, b = table.grid()[i - 1], table.grid()[j - 1]
    # The last swap: both cubes lifted; the claimer presses before the last is down.
    table.take(i, f"cube:{a}")
    table.take(j, f"cube:{b}")
    table.put(j, f"cube:{a}")
    table.settle()  # the last cube held in the air longer than the settle time
    table.press("doublon", claimer)
    if mode == "after":  # the OLED says the claim waits for the swap: never dropped
        prompt = table.referee.screen.prompt
        assert prompt.say == "swapping" and prompt.get("claimer") == claimer
    table.put(i, f"cube:{b}")
    table.settle()
    events = table.referee.events
    claim = next(k for k, e in enumerate(events) if e["kind"] == "claim")
    swaps = [k for k, e in enumerate(events) if e["kind"] == "swap"]
    if mode == "after":  # held till the swap landed: 5 matches, true, the game is won
        assert len(swaps) == len(before) + 1 and claim > swaps[-1]
        assert events[claim]["correct"] and table.referee.state.winner == claimer
    else:  # judged on the grid before that swap: false, and SW-5 makes it lose
        assert len(swaps) == len(before) and claim > swaps[-1]
        assert not events[claim]["correct"] and table.referee.state.winner == 1 - claimer
    assert not any(e["kind"] == "ignored" for e in events)


def test_a_card_laid_on_the_pad_while_its_menteur_press_is_held_is_read_as_named():
    table = Table(make_setup(0, first=0))
    table.open(LAYOUT, (OTHER, TARGET))
    i, j = 1, 2
    a, b = table.grid()[i - 1], table.grid()[j - 1]
    table.take(i, f"cube:{a}")
    table.put(j, f"cube:{a}")
    table.settle()
    # Seat 0 presses and lays the card it names while the last cube goes down.
    table.press("menteur", 0)
    table.put(0, f"layout:{TARGET}", dt=0.1)
    table.take(j, f"cube:{b}", dt=0.1)
    table.put(i, f"cube:{b}", dt=0.1)
    table.settle()
    kinds = [e["kind"] for e in table.referee.events]
    assert kinds.index("swap") < kinds.index("guess") < kinds.index("claim")
    assert "ignored" not in kinds
    assert table.referee.state.winner == 0  # it named seat 1's card


def test_a_bad_claim_mid_swap_setting_is_a_setup_error():
    setup = dataclasses.replace(make_setup(0), rules={"claim_mid_swap": "during"})
    with pytest.raises(SetupError, match="claim_mid_swap is after or before"):
        SwipedReferee(setup)
