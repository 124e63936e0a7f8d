"""A claim pressed while a swap is under way (a cube in the air). No ruling covers it; the
table setting `claim_mid_swap` chooses: "after" (default) holds the press until the swap
lands, "before" judges it on the grid as it stood before that swap. And a card named
with a held "I know your card" is read once the press counts.

At people's pace (docs/table.md, "Swiped"): with "before" the verdict never depends on how
fast the hands move, from a press a moment before the first cube is lifted to one made as
the last lands or with a cube held in the air for seconds."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from companion.games.swiped.referee import SetupError, SwipedReferee
from companion.games.swiped.rules import agreement, make_deck
from companion.games.swiped.sim import make_setup
from companion.journal import PressInput, Setup, SpotInput, TickInput, read_lines
from tests.games.swiped.referee.scenario_scripts import ANA_CARD, BOB_CARD, TO_FIVE
from tests.games.swiped.referee.scenario_scripts import LAYOUT as LAYOUT_CARD
from tests.games.swiped.referee.script import SwScript, card_of


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
    refusal = '`claim_mid_swap` is `"after"` or `"before"`, not `"during"`'
    with pytest.raises(SetupError, match=refusal):
        SwipedReferee(setup)


# ------------------------------------------------------------- at people's pace
# The swap that brings the mat to Ana's fifth match (TO_FIVE's last): a "5 matches" is
# false on the grid before it and true after it, so the verdict says which grid judged it.

PRESSED = (-0.2, 0.05, 0.1, 0.3, 0.6, 1.0, 5.0)
"""When the claim is pressed, in seconds after the swap's first cube is lifted (-0.2: a
moment before, as people press and lift at once)."""


Act = Callable[[float], object]
"""One journal line written `dt` seconds after the last."""


def upto_last_swap(mode: str, rules: dict[str, object] | None = None) -> SwScript:
    """SW-2 opening, then every swap of TO_FIVE but the last, the table still after each."""
    s = SwScript(rules={"claim_mid_swap": mode, **(rules or {})})
    s.opening(LAYOUT_CARD, (ANA_CARD, BOB_CARD))
    for i, j in TO_FIVE[:-1]:
        s.swap(i, j)
    return s


def at_pace(s: SwScript, acts: list[tuple[float, Act]]) -> SwScript:
    """Acts of one journal line each (`act(dt)`), at their times after now + 1 s (the
    table still by then), in time order (at the same instant, in the order given)."""
    start = s.t + 1.0
    for at, act in sorted(acts, key=lambda a: a[0]):
        act(round(start + at - s.t, 3))
    return s


def last_swap(
    s: SwScript, pressed: float, lands_first: bool, beside: bool, press: Act | None = None
) -> SwScript:
    """The last swap of TO_FIVE, one cube at a time (both lifted, or one put `beside` the
    other), and Ana's "5 matches" (or `press`) pressed `pressed` s after the first cube is
    lifted; the swap's last cube lands 0.05 s before the press (`lands_first`), or the cube
    stays in the air until then and the swap ends 0.1 to 0.3 s after it."""
    i, j = TO_FIVE[-1]
    (a,) = s.colours(i)
    (b,) = s.colours(j)
    if beside:
        moves = [(s.take, i, a), (s.put, j, a), (s.take, j, b), (s.put, i, b)]
    else:
        moves = [(s.take, i, a), (s.take, j, b), (s.put, j, a), (s.put, i, b)]
    if lands_first:
        lands = pressed - 0.05
        times = [0.0, lands / 3, 2 * lands / 3, lands]
    else:
        after = max(pressed, 0.0)
        times = [0.0, after + 0.1, after + 0.2, after + 0.3]
    acts: list[tuple[float, Act]] = [
        (at, lambda dt, move=move, spot=spot, cube=cube: move(spot, cube, dt=dt))
        for at, (move, spot, cube) in zip(times, moves, strict=True)
    ]
    acts.append((pressed, press or (lambda dt: s.doublon(0, dt=dt))))
    s.swaps.append((i, j))
    return at_pace(s, acts)


def verdicts(referee: SwipedReferee) -> list[tuple[int, str, bool]]:
    return [(e["seat"], e["claim"], e["correct"]) for e in referee.events if e["kind"] == "claim"]


def played(s: SwScript) -> SwipedReferee:
    journal = read_lines(s.text().splitlines())
    referee = SwipedReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def swaps_taken(referee: SwipedReferee) -> int:
    return sum(e["kind"] == "swap" for e in referee.events)


def grid_after(swaps: list[tuple[int, int]]) -> tuple[str, ...]:
    """The mat after these exchanges of squares, from the layout card."""
    grid = card_of(LAYOUT_CARD)
    for i, j in swaps:
        grid = swapped(grid, i, j)
    return grid


def test_the_last_swap_of_to_five_makes_ana_s_fifth_match():
    goal = card_of(ANA_CARD)
    assert agreement(grid_after(TO_FIVE[:-1]), goal) < 5
    assert agreement(grid_after(TO_FIVE), goal) >= 5


PACES = [
    (pressed, lands_first, beside)
    for pressed in PRESSED
    for lands_first in (False, True)
    for beside in (False, True)
    if pressed >= 0.1 or not lands_first
]
"""Every press time, with the swap's last cube landing after the press or (when there is
time for it) just before it, the cubes both lifted or one put beside the other."""


@pytest.mark.parametrize(("pressed", "lands_first", "beside"), PACES)
def test_with_before_a_claim_pressed_around_a_lift_is_judged_on_the_grid_before_that_swap(
    pressed, lands_first, beside
):
    """claim_mid_swap "before" at people's pace: whenever the press comes while that swap
    is being made (or a moment before its first cube is lifted, or just as its last cube
    lands), the claim is judged on the grid before it: 4 matches, false, Ana loses (SW-5);
    the swap is not taken (the game is over)."""
    r = played(last_swap(upto_last_swap("before"), pressed, lands_first, beside))
    assert verdicts(r) == [(0, "matches", False)]
    assert r.state.winner == 1
    assert swaps_taken(r) == len(TO_FIVE) - 1
    assert not any(e["kind"] in ("fault", "ignored") for e in r.events)


@pytest.mark.parametrize(("pressed", "lands_first", "beside"), PACES)
def test_with_after_a_claim_pressed_during_a_swap_is_judged_after_it_as_documented(
    pressed, lands_first, beside
):
    """claim_mid_swap "after" (the default): a claim pressed with a cube in the air (or
    while the table settles after the swap) waits for the swap: 5 matches, true, Ana wins.
    Pressed before the first cube is lifted, on a still table, it is judged at once."""
    r = played(last_swap(upto_last_swap("after"), pressed, lands_first, beside))
    if pressed < 0:
        assert verdicts(r) == [(0, "matches", False)] and r.state.winner == 1
        assert swaps_taken(r) == len(TO_FIVE) - 1
    else:
        assert verdicts(r) == [(0, "matches", True)] and r.state.winner == 0
        assert swaps_taken(r) == len(TO_FIVE)
    assert not any(e["kind"] in ("fault", "ignored") for e in r.events)


def without_time(referee: SwipedReferee) -> list[dict[str, object]]:
    return [{k: v for k, v in e.items() if k != "t"} for e in referee.events]


@pytest.mark.parametrize("mode", ["before", "after"])
@pytest.mark.parametrize("pressed", [0.1, 0.6, 5.0])
def test_a_cube_lifted_and_put_back_is_no_swap_and_the_claim_is_judged_on_the_same_grid(
    mode, pressed
):
    """The swapper lifts a cube, Ana presses, the cube goes back where it was: no swap,
    nothing to put back, the claim judged on the grid that stands (4 matches: false)."""
    s = upto_last_swap(mode)
    i, _ = TO_FIVE[-1]
    (a,) = s.colours(i)
    at_pace(
        s,
        [
            (0.0, lambda dt: s.take(i, a, dt=dt)),
            (pressed, lambda dt: s.doublon(0, dt=dt)),
            (pressed + 0.2, lambda dt: s.put(i, a, dt=dt)),
        ],
    )
    r = played(s)
    assert verdicts(r) == [(0, "matches", False)] and r.state.winner == 1
    assert swaps_taken(r) == len(TO_FIVE) - 1
    assert not any(e["kind"] in ("fault", "ignored") for e in r.events)


def three_cubes_turned(s: SwScript, pressed: float, press: Act) -> None:
    """Not a swap: the cubes of squares 1, 2, 3 turned round (1 to 2, 2 to 3, 3 to 1), one
    hand movement 0.1 s after the other once the first cube is lifted and Ana has pressed."""
    c1, c2, c3 = (s.colours(q)[0] for q in (1, 2, 3))
    moves = [(s.put, 2, c1), (s.take, 2, c2), (s.put, 3, c2), (s.take, 3, c3), (s.put, 1, c3)]
    after = max(pressed, 0.0)
    acts: list[tuple[float, Act]] = [
        (0.0, lambda dt: s.take(1, c1, dt=dt)),
        (pressed, press),
    ]
    acts += [
        (after + 0.1 * (k + 1), lambda dt, m=m, q=q, c=c: m(q, c, dt=dt))
        for k, (m, q, c) in enumerate(moves)
    ]
    at_pace(s, acts)


@pytest.mark.parametrize("pressed", [-0.2, 0.1, 1.0])
def test_with_before_a_claim_pressed_as_a_lift_turns_into_a_fault_is_judged_first(pressed):
    """The mat at 5 matches with Ana's card; a hand lifts a cube and turns three round (a
    fault, STOP) while Ana presses "5 matches": with "before" the claim was pressed on the
    grid the OLED showed, so it is judged on it, true, whatever the pace; the game is over
    before the cubes count. With "after" it waits for a swap that never lands: the OLED
    says STOP, and a press then is refused (docs/table.md, "Faults")."""
    games = {}
    for mode in ("before", "after"):
        s = upto_last_swap(mode)
        s.swap(*TO_FIVE[-1])
        three_cubes_turned(s, pressed, lambda dt, s=s: s.doublon(0, dt=dt))
        games[mode] = played(s)
    before, after = games["before"], games["after"]
    assert verdicts(before) == [(0, "matches", True)] and before.state.winner == 0
    assert not any(e["kind"] in ("fault", "ignored") for e in before.events)
    if pressed < 0:  # on the still table, before the lift: judged at once either way
        assert verdicts(after) == [(0, "matches", True)]
    else:
        assert verdicts(after) == []
        kinds = [e["kind"] for e in after.events]
        assert kinds[-2:] == ["fault", "ignored"] and after.events[-1]["reason"] == "table_first"


@pytest.mark.parametrize("lands_first", [False, True])
@pytest.mark.parametrize("pressed", [0.1, 0.3, 1.0])
def test_with_before_a_claim_refused_mid_swap_counts_in_the_gap_before_that_swap(
    pressed, lands_first
):
    """false_claim "refused", one claim a gap (SW-5): Ana's false "5 matches" between two
    swaps, then another pressed during the next swap. With "before" it is in the same gap:
    refused (already called), and the swap is taken; pressed again after it, it is true.
    With "after" it is judged after that swap, in the next gap: true."""
    for mode in ("before", "after"):
        s = upto_last_swap(mode, {"false_claim": "refused"}).doublon(0)
        last_swap(s, pressed, lands_first, beside=False)
        if mode == "before":
            s.doublon(0, dt=1.0)
        r = played(s)
        again = [(0, "matches", True)]
        assert verdicts(r) == [(0, "matches", False), *again] and r.state.winner == 0, mode
        assert swaps_taken(r) == len(TO_FIVE)
        refused = [(e["control"], e["reason"]) for e in r.events if e["kind"] == "ignored"]
        assert refused == ([("doublon", "already_called")] if mode == "before" else [])


def test_with_before_a_menteur_pressed_mid_swap_comes_before_that_swap_at_any_pace():
    """ "I know your card" pressed 0.1 s or 0.6 s after the lift comes before that swap:
    the swap then lands while a card is being named, a fault at either pace (SW-5 as
    docs/table.md words it: put the cubes back, then name the card); the cubes put back,
    the card named with the encoder is right. The same events but their time."""
    games = []
    for pressed in (0.1, 0.6):
        s = upto_last_swap("before")
        last_swap(s, pressed, False, False, press=lambda dt, s=s: s.press("menteur", 0, dt=dt))
        s.swaps.pop()
        i, j = TO_FIVE[-1]
        (b,), (a,) = s.colours(i), s.colours(j)
        s.take(i, b).take(j, a).put(j, b).put(i, a).press("choose", value=[BOB_CARD])
        games.append(played(s))
    kinds = [e["kind"] for e in games[0].events]
    assert kinds[-6:] == ["guess", "fault", "fixed", "claim", "game_won", "targets"]
    assert games[0].events[-5]["reason"] == "guess_first"
    assert verdicts(games[0]) == [(0, "card", True)]
    assert swaps_taken(games[0]) == len(TO_FIVE) - 1
    assert without_time(games[0]) == without_time(games[1])


def test_with_before_two_swaps_made_without_a_still_table_between_are_one_movement():
    """The swap making Ana's fifth match lands; Ana presses 0.1 s later, as Bob lifts a cube
    of his swap 0.1 s after that: the table never stood still between the two swaps, so
    the OLED never showed the first; the claim is judged before both (4 matches, false)."""
    last, other = TO_FIVE[-1], (1, 2)
    assert not set(last) & set(other)
    s = upto_last_swap("before")
    i, j = last
    k, m = other
    (a,), (b,) = s.colours(i), s.colours(j)
    (c,), (d,) = s.colours(k), s.colours(m)
    at_pace(
        s,
        [
            (0.0, lambda dt: s.take(i, a, dt=dt)),
            (0.1, lambda dt: s.take(j, b, dt=dt)),
            (0.2, lambda dt: s.put(j, a, dt=dt)),
            (0.3, lambda dt: s.put(i, b, dt=dt)),
            (0.4, lambda dt: s.doublon(0, dt=dt)),
            (0.5, lambda dt: s.take(k, c, dt=dt)),
            (0.6, lambda dt: s.take(m, d, dt=dt)),
            (0.7, lambda dt: s.put(m, c, dt=dt)),
            (0.8, lambda dt: s.put(k, d, dt=dt)),
        ],
    )
    r = played(s)
    assert verdicts(r) == [(0, "matches", False)] and r.state.winner == 1
    assert swaps_taken(r) == len(TO_FIVE) - 1
