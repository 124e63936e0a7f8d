"""The Swiped scenarios of tests/games/swiped/referee/scenarios/, as scripts (`SCENARIOS`);
`python -m tests.make_fixtures scenarios` writes them (run it after changing one).

Each scenario is a real table's inputs in the journal format; test_scenarios.py replays
them through the referee and checks what SW-1..SW-6 and docs/table.md say must happen.
Ana (seat 0) is player 1 unless said otherwise. The layout card is card 1; Ana's secret
target is card 2, Bob's card 3. Each act comes a second after the last, so the table
settles (0.5 s) between acts unless said otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.games.swiped.rules import agreement
from tests.games.swiped.referee.script import SwScript, card_of

HERE = Path(__file__).parent / "scenarios"

LAYOUT = 1
ANA_CARD = 2
BOB_CARD = 3
OTHER_CARD = 9
"""A card nobody holds."""

ROUND = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 1), (2, 3)]
"""Six swaps for a manche; the two swaps of each phase exchange four different squares, so
never the same pair (SW-4)."""


def toward(grid: tuple[str, ...], card: int, matches: int) -> list[tuple[int, int]]:
    """Swaps (squares) that take `grid` to at least `matches` squares where `card` puts
    them: each time the swap that adds the most, the lowest squares first."""
    goal = card_of(card)
    cells = list(grid)
    out: list[tuple[int, int]] = []
    while agreement(tuple(cells), goal) < matches:
        best: tuple[int, int, int] | None = None
        for i in range(9):
            for j in range(i + 1, 9):
                moved = cells[:]
                moved[i], moved[j] = moved[j], moved[i]
                gain = agreement(tuple(moved), goal)
                if best is None or gain > best[0]:
                    best = (gain, i, j)
        assert best is not None
        _, i, j = best
        cells[i], cells[j] = cells[j], cells[i]
        out.append((i + 1, j + 1))
    return out


TO_FIVE = toward(card_of(LAYOUT), ANA_CARD, 5)
"""Swaps that bring the mat to 5 matches with Ana's card (SW-5)."""


def opening() -> SwScript:
    """SW-2 with Bob as player 1: the layout card on the pad, the cubes placed one at a
    time in no particular order, squares 4 and 6 exchanged by mistake (a fault naming both
    and the cube each must hold), put right; then Bob's target card, then Ana's."""
    s = SwScript(first=1).tap(LAYOUT)
    shows = list(card_of(LAYOUT))
    shows[3], shows[5] = shows[5], shows[3]
    for square in (5, 1, 9, 3, 7, 2, 8, 4, 6):
        s.put(square, shows[square - 1])
    s.swap(4, 6)
    return s.tap(BOB_CARD).tap(ANA_CARD)


def played() -> SwScript:
    return SwScript().opening(LAYOUT, (ANA_CARD, BOB_CARD))


def swap_order() -> SwScript:
    """SW-4: three whole manches, 18 swaps, none the same pair as its phase's first."""
    s = played()
    for _ in range(3):
        for i, j in ROUND:
            s.swap(i, j)
    return s


def swap_order_bob_first() -> SwScript:
    """The same with Bob as player 1, over two manches."""
    s = SwScript(first=1).opening(LAYOUT, (BOB_CARD, ANA_CARD))
    for _ in range(2):
        for i, j in ROUND:
            s.swap(i, j)
    return s


def skip() -> SwScript:
    """SW-4: a skip pushed at the first swap of a phase is refused; Ana swaps 1 and 2, Bob's
    program repeats the pair: he pushes "same pair, skip"; phase 2 is Bob's 3 and 4 then
    Ana's 5 and 6."""
    s = played().skip().swap(1, 2).tick(dt=0.6).skip(dt=0.4)
    return s.swap(3, 4).tick(dt=0.6).swap(5, 6)


def fault_same_pair() -> SwScript:
    """SW-4: Ana swaps 1 and 2; Bob swaps them again (it would undo Ana's): Stop, naming
    squares 1 and 2 and the cube each must hold; a skip pushed meanwhile is refused; Bob
    puts them back, then pushes skip."""
    s = played().swap(1, 2).swap(1, 2).skip()
    return s.swap(1, 2).skip().swap(3, 4)


def draw_limit() -> SwScript:
    """SW-6 with a limit of one manche: the sixth swap ends the game, a draw."""
    s = SwScript(rules={"manche_limit": 1}).opening(LAYOUT, (ANA_CARD, BOB_CARD))
    for i, j in ROUND:
        s.swap(i, j)
    return s


# ----------------------------------------------------------------------------- claims


def matches_true() -> SwScript:
    """SW-5: swaps bring the mat to 5 matches with Ana's card; Ana claims "5 matches" and
    wins; Bob's claim after the end is refused."""
    s = played()
    for i, j in TO_FIVE:
        s.swap(i, j)
    return s.doublon(0).doublon(1)


def matches_false() -> SwScript:
    """SW-5: Bob claims "5 matches" after one swap: false, so Bob loses (the book's rule)."""
    return played().swap(1, 2).doublon(1)


def card_right() -> SwScript:
    """SW-5: after one swap Bob says "I know your card" and taps card 2, Ana's: Bob wins."""
    return played().swap(1, 2).menteur(1, ANA_CARD)


def card_wrong() -> SwScript:
    """SW-5: Ana says "I know your card" before any swap and taps card 9: she loses."""
    return played().menteur(0, OTHER_CARD)


def false_claims_refused() -> SwScript:
    """SW-5 with `false_claim` "refused" (one claim per seat between two swaps): Ana's
    false "5 matches" is only refused; her second claim in the same gap is refused too;
    Bob's wrong card is refused; after a swap Ana may claim again (false again); after
    another, Bob names Ana's card and wins."""
    s = SwScript(rules={"false_claim": "refused"}).opening(LAYOUT, (ANA_CARD, BOB_CARD))
    s.doublon(0).doublon(0).menteur(1, OTHER_CARD)
    s.swap(1, 2).doublon(0)
    return s.swap(3, 4).menteur(1, ANA_CARD)


def claims_any_number() -> SwScript:
    """SW-5 with "refused" and no limit per gap: Bob names cards 4, 5, 6 in a row (all
    wrong), then card 2, Ana's: he wins, all between the same two swaps."""
    rules = {"false_claim": "refused", "claims_per_gap": None}
    s = SwScript(rules=rules).opening(LAYOUT, (ANA_CARD, BOB_CARD)).swap(1, 2)
    for card in (4, 5, 6):
        s.menteur(1, card)
    return s.menteur(1, ANA_CARD)


def claims_refused() -> SwScript:
    """Claims that cannot count, each shown: "5 matches" while the cards are drawn, before
    the first swap (`claim_before_first_swap` off), from a seat nobody sits at, from Ana
    while Bob names a card; a card on the pad when nothing asks for one; after Bob's
    refused claim (`false_claim` "refused"), his second in the same gap."""
    s = SwScript(rules={"claim_before_first_swap": False, "false_claim": "refused"})
    s.tap(LAYOUT).doublon(0).place(LAYOUT).tap(ANA_CARD).tap(BOB_CARD)
    s.doublon(0).doublon(3).tap(7)
    s.swap(1, 2).press("menteur", 1).doublon(0).tap(OTHER_CARD)
    return s.doublon(1).swap(3, 4)


# ----------------------------------------------------------------------------- faults


def fault_put_back() -> SwScript:
    """The cubes of squares 1, 2, 3 moved round (1 to 2, 2 to 3, 3 to 1): not a swap. Stop
    naming the three squares and their cubes; put back, then Ana's swap counts."""
    s = played()
    a, b, c = s.colours(1)[0], s.colours(2)[0], s.colours(3)[0]
    s.take(1, a).take(2, b).take(3, c).put(2, a).put(3, b).put(1, c)
    s.take(1, c).take(2, a).take(3, b).put(1, a).put(2, b).put(3, c)
    return s.swap(4, 5)


def fault_swap_before_targets() -> SwScript:
    """Two cubes swapped before the target cards are drawn (SW-2 comes first): Stop."""
    s = SwScript().tap(LAYOUT).place(LAYOUT).swap(1, 2).swap(1, 2)
    return s.tap(ANA_CARD).tap(BOB_CARD).swap(1, 2)


def fault_guess_first() -> SwScript:
    """Ana says "I know your card"; before she taps it, Bob swaps 1 and 2: Stop; he puts
    them back, Ana taps card 3, Bob's: she wins."""
    s = played().press("menteur", 0).swap(1, 2).swap(1, 2)
    return s.tap(BOB_CARD)


def fault_unknown_tag() -> SwScript:
    """A tag not of the game on square 5, a doublon pressed meanwhile (table first); it is
    taken off, then Ana's swap counts."""
    s = played().put(5, "DEADBEEF").tick().doublon(0).take(5, "DEADBEEF")
    return s.swap(4, 5)


def fault_card_on_square() -> SwScript:
    """Card 7 laid on square 3: Stop until it is taken off, then Ana's swap counts."""
    return played().put(3, 7).take(3, 7).swap(1, 2)


def fault_two_cards() -> SwScript:
    """Both target cards laid on the pad in one report: Stop; card 3 taken off, so card 2
    is read (Ana's); then card 3 tapped (Bob's)."""
    s = SwScript().tap(LAYOUT).place(LAYOUT)
    s.put(0, ANA_CARD, BOB_CARD).take(0, BOB_CARD).take(0, ANA_CARD)
    return s.tap(BOB_CARD).swap(1, 2)


def fault_card_taken() -> SwScript:
    """Ana taps the face-up layout card as her target: Stop; she takes it off and taps
    her own card; then Bob's."""
    s = SwScript().tap(LAYOUT).place(LAYOUT).tap(LAYOUT)
    return s.tap(ANA_CARD).tap(BOB_CARD).swap(1, 2)


def fault_reader_silent() -> SwScript:
    s = played().reader(7, False).reader(7, True)
    return s.swap(7, 8)


# ------------------------------------------------------------------------------- undo


def undo() -> SwScript:
    """back with nothing to take back; then it takes back Bob's target card (tapped
    again), Ana's swap (put back as the OLED asks, a press meanwhile refused), Bob's
    skip, Ana's "I know your card" before the card; never Ana's refused claim (a public
    verdict) nor anything before it, but the swap after it."""
    s = SwScript(rules={"false_claim": "refused"}).back()
    s.opening(LAYOUT, (ANA_CARD, BOB_CARD)).back().tap(BOB_CARD)
    s.swap(1, 2).back().doublon(1).swap(1, 2)
    s.swap(4, 5).skip().back().swap(7, 8)
    s.press("menteur", 0).back()
    s.doublon(0).back()
    return s.swap(2, 3).back().swap(2, 3).back()


def undo_manche_end() -> SwScript:
    """back after the sixth swap: the manche's end is a public fact, never taken back."""
    s = played()
    for i, j in ROUND:
        s.swap(i, j)
    return s.back().swap(1, 2)


def fault_while_waiting() -> SwScript:
    """Ana's swap taken back, and while squares 1 and 2 wait to be put back a stray tag
    lands on square 5: Stop; once it is off, the board asks for squares 1 and 2 again (a
    Stop that outlived its cause would hide them); they are put back, Ana swaps 4 and 5."""
    s = played().swap(1, 2).back().put(5, "DEADBEEF").take(5, "DEADBEEF")
    return s.swap(1, 2).swap(4, 5)


def undo_during_fault() -> SwScript:
    """Reader 7 stops answering; back takes back Ana's swap but the Stop stays until the
    reader answers again; then squares 1 and 2 are put back and Ana swaps 4 and 5."""
    s = played().swap(1, 2).reader(7, False).back().reader(7, True)
    return s.swap(1, 2).swap(4, 5)


# -------------------------------------------------------------------------- people's pace


def slow_swap() -> SwScript:
    """A swap made one cube at a time, a cube held in the air for four seconds; then one
    made by putting a cube beside the other: never a fault."""
    s = played()
    (a,) = s.colours(1)
    (b,) = s.colours(2)
    s.take(1, a).tick().tick().tick().tick().take(2, b).put(2, a).put(1, b)
    s.swaps.append((1, 2))
    return s.swap(3, 4, beside=True)


def skip_pace() -> SwScript:
    """ "Same pair, skip" pushed 0.1 s after the phase's first swap lands (the table still
    settling), with the last cube, and 0.1 s before it lands in a quick swap: each held,
    then counted after the swap."""
    s = played().swap(1, 2).skip(dt=0.1)
    s.swap(3, 4).skip(dt=0.0)
    (a,) = s.colours(5)
    (b,) = s.colours(6)
    s.take(5, a, dt=1.0).take(6, b, dt=0.2).put(6, a, dt=0.2).skip(dt=0.1).put(5, b, dt=0.1)
    s.swaps.append((5, 6))
    return s


def claim_pace() -> SwScript:
    """With false claims refused: Ana's "5 matches" pressed 0.1 s before the last cube of
    the swap that makes her fifth match lands (a quick swap): held, judged after it, true.
    Before that swap it would have been false."""
    s = SwScript(rules={"false_claim": "refused"}).opening(LAYOUT, (ANA_CARD, BOB_CARD))
    for i, j in TO_FIVE[:-1]:
        s.swap(i, j)
    i, j = TO_FIVE[-1]
    (a,) = s.colours(i)
    (b,) = s.colours(j)
    s.take(i, a).take(j, b, dt=0.2).put(j, a, dt=0.2).doublon(0, dt=0.1).put(i, b, dt=0.1)
    s.swaps.append((i, j))
    return s


def claim_with_swap() -> SwScript:
    """The same claim pressed with the last cube of that swap (the same instant, just
    after the reader's report): held, judged after the swap, true."""
    s = SwScript(rules={"false_claim": "refused"}).opening(LAYOUT, (ANA_CARD, BOB_CARD))
    for i, j in TO_FIVE:
        s.swap(i, j)
    return s.doublon(0, dt=0.0)


def two_swaps_at_once() -> SwScript:
    """Ana swaps 5 and 6 while Bob swaps 1 and 2, hands moving 0.1 s apart; Ana's cubes are
    down first: hers is the first swap, his the second, then phase 2 goes on with Bob."""
    s = played()
    c5, c6 = s.colours(5)[0], s.colours(6)[0]
    c1, c2 = s.colours(1)[0], s.colours(2)[0]
    s.take(5, c5).take(1, c1, dt=0.1).take(6, c6, dt=0.1).take(2, c2, dt=0.1)
    s.put(6, c5, dt=0.1).put(5, c6, dt=0.1).put(2, c1, dt=0.1).put(1, c2, dt=0.1)
    s.swaps += [(5, 6), (1, 2)]
    return s.swap(3, 4)


SCENARIOS: dict[str, Callable[[], SwScript]] = {
    f.__name__: f
    for f in (
        opening, swap_order, swap_order_bob_first, skip, fault_same_pair, draw_limit,
        matches_true, matches_false, card_right, card_wrong, false_claims_refused,
        claims_any_number, claims_refused, fault_put_back, fault_swap_before_targets,
        fault_guess_first, fault_unknown_tag, fault_card_on_square, fault_two_cards,
        fault_card_taken, fault_reader_silent, undo, undo_manche_end, fault_while_waiting,
        undo_during_fault, slow_swap, skip_pace, claim_pace, claim_with_swap,
        two_swaps_at_once,
    )
}  # fmt: skip
