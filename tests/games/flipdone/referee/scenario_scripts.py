"""The Flip Done scenarios of tests/games/flipdone/referee/scenarios/, as scripts (`SCENARIOS`);
`python -m tests.make_fixtures scenarios` writes them (run it after changing one).

Each scenario is a real table's inputs in the journal format; test_scenarios.py replays
them through the referee and checks what FD-1..FD-10 and docs/table.md say must happen.
Ana (seat 0) starts; each act comes a second after the last, so the table settles
(0.5 s) between acts unless said otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.games.flipdone.referee.script import FdScript

HERE = Path(__file__).parent / "scenarios"

# The face-down cards of squares 1..9. Row 2 is squares 4, 5, 6; the centre's face-up card
# is the red KH, and under it lies the black 5S.
KEEP = ["2C", "3C", "4C", "2D", "5S", "6D", "7C", "8C", "9C"]
"""Under square 4 a red card: a flip of 4 keeps a red row 2 aligned."""
BREAK = ["2C", "3C", "4C", "4S", "5S", "6D", "7C", "8C", "9C"]
"""Under square 4 a black card: a flip of 4 breaks a red row 2."""
UP = "KH"


def cy_makes_row_2(s: FdScript) -> FdScript:
    """Ana builds the red AH on 4, Bob the black 2S on 1, Cy the red QD on 6: row 2 (4, 5,
    6) is red, Cy takes 2 tokens and owns it (FD-5)."""
    return s.build(4, "AH").build(1, "2S").build(6, "QD")


def deal() -> FdScript:
    return FdScript().deal(KEEP, UP)


def build_line() -> FdScript:
    return cy_makes_row_2(deal())


def flip_breaks_line() -> FdScript:
    """FD-6: Ana flips square 4 (the 3S on the pad): the black 4S comes up, row 2 breaks,
    Ana takes its 2 tokens from Cy."""
    return cy_makes_row_2(FdScript().deal(BREAK, UP)).flip(4, "3S")


def flip_keeps_line() -> FdScript:
    """FD-6: Ana flips square 4: the red 2D comes up, row 2 stays red, Cy takes 1 token
    from the bank."""
    return cy_makes_row_2(deal()).flip(4, "3S")


def own_line() -> FdScript:
    """FD-7: Ana and Bob discard, then Cy flips square 4 of its own row 2: it breaks, Cy
    just loses it."""
    s = cy_makes_row_2(FdScript().deal(BREAK, UP))
    return s.discard("3S").discard("4H").flip(4, "5H")


def third_flip() -> FdScript:
    """FD-8: Ana flips 4 (red under: Cy +1), Bob flips 6 (red under: Cy +1), Cy discards,
    Ana flips 5, the third of row 2: the black 5S comes up, the row breaks with no
    transfer."""
    s = cy_makes_row_2(deal())
    return s.flip(4, "3S").flip(6, "4H").discard("JC").flip(5, "7H")


def discard() -> FdScript:
    """FD-3: Ana drops the 3S on the pad and pushes "no flip"; Bob's card on the pad, the
    encoder pointing at the pad ([0]) and pushed."""
    s = deal().discard("3S")
    return s.put(0, "4H").press("choose", value=[0])


def phase_end() -> FdScript:
    """FD-9: twelve plays empty the hands: the phase ends; nobody holds a card, so nobody
    pays (FD-9 never takes a token with the book's rules). Every card is gathered, then
    the second phase is dealt; Bob starts it (FD-2)."""
    s = cy_makes_row_2(deal())
    s.build(2, "3H").build(3, "4S").build(7, "5H").build(8, "6S").build(9, "7H")
    s.discard("8S").discard("9H").discard("10S").discard("JH")
    s.gather()
    return s.deal(BREAK, "QH")


def fast_acts() -> FdScript:
    """People's pace: a flip done in 0.4 s (card on the pad, element lifted and put back,
    all before the table settles) and a "no flip" pushed 0.1 s after the card lands."""
    s = deal().put(0, "3S").lift(5, dt=0.2).back(5, dt=0.2)
    return s.put(0, "4H", dt=1.0).press("choose", value="discard", dt=0.1)


def undo() -> FdScript:
    """back takes back a build that scored nothing (the card comes off again), and a
    discard (its card waits on the pad again, so Ana flips instead), but never a flip."""
    s = deal().build(4, "AH").press("back").take(4, "AH")
    s.discard("3S").press("back").lift(5).back(5)
    return s.press("back")


def refusals() -> FdScript:
    """Presses that cannot count: "no flip" with nothing on the pad, a seat button (Flip
    Done has no calls), "no flip" during a fault."""
    s = deal().press("choose", value="discard").press("doublon", seat=1)
    return s.put(3, "AH").put(3, "2H", dt=0.0 + 1.0).press("choose", value="discard")


def fault_stacked() -> FdScript:
    s = deal().build(4, "AH").put(4, "2S")
    return s.take(4, "2S").build(1, "2S")


def fault_flipped_twice() -> FdScript:
    """Ana flips the centre; Bob turns it over again: Stop; Bob turns it back (lifts it
    once more), then discards his card."""
    s = deal().flip(5, "3S")
    s.put(0, "4H").lift(5).back(5)
    return s.lift(5).back(5).press("choose", value="discard")


def fault_in_play() -> FdScript:
    """Ana discards the 3S; Bob takes it from the pad and builds with it: Stop; back on
    the pad, then Bob builds with his own card."""
    s = deal().discard("3S").take(0, "3S").put(1, "3S")
    return s.take(1, "3S").put(0, "3S").build(1, "2S")


def fault_out_of_turn() -> FdScript:
    """Ana builds on 4 and Bob on 1 a moment later, before the table settled: Stop, Bob's
    card is the later; he takes it back, Ana's build is read, then Bob builds again."""
    s = deal().build(4, "AH").put(1, "2S", dt=0.2)
    return s.take(1, "2S").build(1, "2S")


def fault_unknown_tag() -> FdScript:
    return deal().put(3, "DEADBEEF").take(3, "DEADBEEF").build(3, "AH")


def fault_deal_first() -> FdScript:
    """A card on the pad while the deal is not finished."""
    s = FdScript()
    for square, card in enumerate(KEEP[:4], start=1):
        s.put(square, card)
    s.put(0, "AH").take(0, "AH")
    for square, card in enumerate(KEEP[4:], start=5):
        s.put(square, card)
    return s.put(5, UP)


def fault_two_tags() -> FdScript:
    """Two cards land on square 2 in one reader report while dealing."""
    s = FdScript().put(1, KEEP[0]).put(2, KEEP[1], "AH").take(2, "AH")
    for square, card in enumerate(KEEP[2:], start=3):
        s.put(square, card)
    return s.put(5, UP)


def fault_discard_first() -> FdScript:
    """Ana lifts the centre element with no card on the pad: Stop until it is back."""
    return deal().lift(5).back(5).discard("3S")


def fault_missing() -> FdScript:
    return deal().take(9, "9C").put(9, "9C").build(9, "AH")


def fault_not_element() -> FdScript:
    """Ana's card on the pad, then she turns over square 9, a face-down card only: Stop;
    she turns it back, then flips the centre."""
    s = deal().put(0, "3S").lift(9).back(9)
    return s.lift(9).back(9).lift(5).back(5)


def fault_one_flip() -> FdScript:
    """Bob turns over two elements for one card: Stop until both are turned back."""
    s = deal().build(4, "AH").put(0, "3S").lift(4, dt=0.1).lift(5, dt=0.1)
    s.back(4, dt=0.1).back(5, dt=0.1)
    return s.lift(4).back(4).lift(5).back(5).press("choose", value="discard")


def fault_reader_silent() -> FdScript:
    return deal().reader(7, False).reader(7, True).build(7, "AH")


SCENARIOS: dict[str, Callable[[], FdScript]] = {
    f.__name__: f
    for f in (
        deal, build_line, flip_breaks_line, flip_keeps_line, own_line, third_flip, discard,
        phase_end, fast_acts, undo, refusals, fault_stacked, fault_flipped_twice,
        fault_in_play, fault_out_of_turn, fault_unknown_tag, fault_deal_first,
        fault_two_tags, fault_discard_first, fault_missing, fault_not_element,
        fault_one_flip, fault_reader_silent,
    )
}  # fmt: skip
