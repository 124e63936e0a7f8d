"""Flip Done on the virtual table (`companion run --virtual`): the deck, each seat's hand and
what each seat's hands may do on its paired phone (`companion.web.virtual`).

The kit holds what no reader sees (FD-2): the deck, shuffled for each phase, and the four
cards of each hand; the mat and the pad hold what their readers report. A seat's hands may:

- **deal** (any seat, when the table waits for the deal): the next card face down on an
  empty square, then the face-up card on the centre, which also deals four cards to each
  hand (`{"move": "deal"}`, one card; `"all": true` for the rest of the deal). With the
  "first player chooses" variant the phase's first player lays the face-up card where it
  chooses (`{"move": "place_first", "square": 4}`);
- at its turn (FD-3), **build** a hand card on a square (`{"move": "build", "card": "QH",
  "square": 4}`), **discard** one on the pad (`{"move": "discard", "card": "QH"}`), then
  **flip** an element, lifted and put back turned over (`{"move": "flip", "square": 4}`),
  or press "no flip" (the encoder's push, `POST /api/act`);
- **take** back a card it laid that the table the screen expects does not hold (a build
  refused or undone: `{"move": "take", "spot": 4}`);
- **gather** every card once a phase is over (any seat, FD-9: the hands go back too).

The referee judges every card as a real table's readers report it: a card built on an
element, two plays at once or a flip of a flipped element are its faults, fixed the same
way. A seat sees its own hand, never another's, nor a face-down card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.flipdone.referee import FlipDoneReferee, expected_table
from companion.games.flipdone.rules import (
    CENTRE,
    HAND_SIZE,
    PLAYERS,
    SQUARES,
    FirstElement,
    Stage,
)
from companion.games.virtual_kit import Report, Touch
from companion.web.virtual import on_spot, only_keys, refused, spot_of

PAD = 0
MOVES = ("deal", "place_first", "build", "discard", "flip", "take", "gather")


class FlipDoneKit:
    """The deck and the hands of a Flip Done table played on the page."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.deck: list[str] = []
        """This phase's undealt cards, in the order they are dealt (UIDs)."""
        self.hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        self.laid: dict[str, int] = {}
        """UID -> the seat that laid it from its hand, while it lies on the table."""

    # ----------------------------------------------------------------- moves

    def act(self, referee: Any, seat: int, move: Mapping[str, Any]) -> Sequence[Touch]:
        assert isinstance(referee, FlipDoneReferee)
        self._reconcile(referee)
        name = move["move"]
        if name == "deal":
            only_keys(move, ("all",) if "all" in move else ())
            everything = move.get("all", False)
            if not isinstance(everything, bool):
                raise refused(400, "flag", name="all")
            return self._deal(referee, everything)
        if name == "place_first":
            only_keys(move, ("square",))
            return self._place_first(referee, seat, spot_of(move, "square", 1, SQUARES))
        if name in ("build", "discard"):
            only_keys(move, ("card", "square") if name == "build" else ("card",))
            spot = spot_of(move, "square", 1, SQUARES) if name == "build" else PAD
            return self._lay(referee, seat, move["card"], spot)
        if name == "flip":
            only_keys(move, ("square",))
            return self._flip(referee, seat, spot_of(move, "square", 1, SQUARES))
        if name == "take":
            only_keys(move, ("spot",))
            return self._take(referee, seat, spot_of(move, "spot", PAD, SQUARES))
        if name == "gather":
            only_keys(move, ())
            return self._gather(referee)
        raise refused(400, "move", move=repr(name), moves=", ".join(MOVES))

    def _deal(self, referee: FlipDoneReferee, everything: bool) -> list[Touch]:
        """FD-2: the nine face-down cards, one a square, then the face-up card on the
        centre with the hands (the OLED's order: one card at a time)."""
        if not self._dealing(referee):
            raise refused(409, "not_now")
        if not self.deck:  # a new phase: the whole deck, shuffled
            self._shuffle(referee)
        table = {spot: set(on_spot(referee, spot)) for spot in range(SQUARES + 1)}
        touches: list[Touch] = []
        while True:
            empty = [sq for sq in range(1, SQUARES + 1) if not table[sq]]
            if empty:
                spot = empty[0]
            elif self._centre_up(referee) and len(table[CENTRE]) == 1:
                spot = CENTRE  # the face-up card: the later tag on the centre
            else:
                break
            uid = self.deck.pop(0)
            table[spot].add(uid)
            touches.append(Report(spot, frozenset(table[spot])))
            if spot == CENTRE and len(table[spot]) == 2:
                self._deal_hands()
                break
            if not everything:
                break
        if not touches:
            raise refused(409, "not_now")
        return touches

    @staticmethod
    def _centre_up(referee: FlipDoneReferee) -> bool:
        """The dealer lays the face-up card on the centre (FD-2), not the first player."""
        state = referee.state
        return state.stage is Stage.DEAL and state.config.first_element is FirstElement.CENTRE

    def _dealing(self, referee: FlipDoneReferee) -> bool:
        """The table waits for a deal: the engine's stage, everything of the last phase
        gathered, and the face-up card not yet laid."""
        state = referee.state
        if state.stage not in (Stage.DEAL, Stage.PLACE_FIRST) or referee.gather:
            return False
        return not on_spot(referee, PAD) and not any(self.hands)

    def _shuffle(self, referee: FlipDoneReferee) -> None:
        on_table = {uid for spot in range(SQUARES + 1) for uid in on_spot(referee, spot)}
        deck = sorted(uid for uid in referee.cards if uid not in on_table)
        random.Random(f"virtual deal:{self.seed}:{referee.state.deal}").shuffle(deck)
        self.deck = deck

    def _deal_hands(self) -> None:
        for _ in range(HAND_SIZE):
            for hand in self.hands:
                hand.append(self.deck.pop(0))

    def _place_first(self, referee: FlipDoneReferee, seat: int, square: int) -> list[Touch]:
        """FD-2's variant: the phase's first player lays the face-up card where it chooses
        (on a face-down card), and the hands are dealt."""
        state = referee.state
        if state.stage is not Stage.PLACE_FIRST or not self.deck:
            raise refused(409, "not_now")
        if seat != state.turn:
            raise refused(403, "turn")
        uid = self.deck.pop(0)
        self._deal_hands()
        return [Report(square, on_spot(referee, square) | {uid})]

    def _lay(self, referee: FlipDoneReferee, seat: int, card: Any, spot: int) -> list[Touch]:
        """FD-3: a hand card laid on a square (a build) or on the pad (a discard, maybe
        before a flip), at the seat's turn."""
        uid = self._in_hand(referee, seat, card)
        self._playing(referee, seat)
        self.hands[seat].remove(uid)
        self.laid[uid] = seat
        return [Report(spot, on_spot(referee, spot) | {uid})]

    def _in_hand(self, referee: FlipDoneReferee, seat: int, card: Any) -> str:
        uid = next((u for u in self.hands[seat] if referee.cards.get(u) == card), None)
        if uid is None:
            raise refused(403, "hand")
        return uid

    def _playing(self, referee: FlipDoneReferee, seat: int) -> None:
        """A play is the seat's to make: its turn, in play (FD-3)."""
        state = referee.state
        if state.stage is not Stage.PLAY or referee.gather:
            raise refused(409, "not_now")
        if seat != state.turn:
            raise refused(403, "turn")

    def _flip(self, referee: FlipDoneReferee, seat: int, square: int) -> list[Touch]:
        """The element lifted off its square and put back turned over: its reader loses
        both cards, then sees them again."""
        self._playing(referee, seat)
        cards = on_spot(referee, square)
        if not cards:
            raise refused(409, "empty")
        return [Report(square, frozenset()), Report(square, cards)]

    def _take(self, referee: FlipDoneReferee, seat: int, spot: int) -> list[Touch]:
        """A card this seat laid, taken back into its hand, where the table the screen
        expects does not have it."""
        mine = [uid for uid in self._extra(referee, spot) if self.laid.get(uid) == seat]
        if not mine:
            raise refused(409, "empty")
        uid = mine[-1]
        del self.laid[uid]
        self.hands[seat].append(uid)
        return [Report(spot, on_spot(referee, spot) - {uid})]

    def _extra(self, referee: FlipDoneReferee, spot: int) -> list[str]:
        """The cards on `spot` beyond what the screen expects there."""
        want = Counter(expected_table(referee.state)[spot])
        extra = []
        for uid in sorted(on_spot(referee, spot)):
            card = referee.cards.get(uid, "")
            if want[card] > 0:
                want[card] -= 1
            else:
                extra.append(uid)
        return extra

    def _gather(self, referee: FlipDoneReferee) -> list[Touch]:
        """FD-9: the phase is over; every card goes back to the deck, the hands too."""
        if not referee.gather:
            raise refused(409, "not_now")
        self.hands = [[] for _ in range(PLAYERS)]
        self.deck = []
        self.laid.clear()
        return [Report(spot, frozenset()) for spot in range(SQUARES + 1) if on_spot(referee, spot)]

    # ------------------------------------------------------------------ views

    def seat_view(self, referee: Any, seat: int) -> dict[str, Any]:
        assert isinstance(referee, FlipDoneReferee)
        state = referee.state
        self._reconcile(referee)
        playing = state.stage is Stage.PLAY and not referee.gather and state.turn == seat
        take = [
            s
            for s in range(SQUARES + 1)
            if any(self.laid.get(u) == seat for u in self._extra(referee, s))
        ]
        return {
            "hand": sorted(referee.cards[uid] for uid in self.hands[seat]),
            "can": {
                "deal": self._dealing(referee) and state.stage is Stage.DEAL,
                "place_first": state.stage is Stage.PLACE_FIRST and state.turn == seat,
                "play": playing,
                "pad": playing and referee.pad is not None,
                "take": take,
                "gather": referee.gather,
            },
        }

    def _reconcile(self, referee: FlipDoneReferee) -> None:
        """A card the table reads is in no hand (the kit saved before a cut that kept its
        move's report from the journal)."""
        on_table = {uid for spot in range(SQUARES + 1) for uid in on_spot(referee, spot)}
        for hand in self.hands:
            hand[:] = [uid for uid in hand if uid not in on_table]

    def to_json(self) -> dict[str, Any]:
        return {"deck": list(self.deck), "hands": [list(h) for h in self.hands],
                "laid": dict(self.laid)}  # fmt: skip

    def restore(self, data: Mapping[str, Any]) -> None:
        deck, hands, laid = data["deck"], data["hands"], data["laid"]
        if not (
            isinstance(deck, list)
            and isinstance(hands, list)
            and len(hands) == PLAYERS
            and all(isinstance(h, list) for h in hands)
            and isinstance(laid, dict)
        ):
            raise ValueError("a deck, three hands and the cards laid")
        self.deck = [str(u) for u in deck]
        self.hands = [[str(u) for u in h] for h in hands]
        self.laid = {str(u): int(s) for u, s in laid.items()}


def make_kit(setup: Any) -> FlipDoneKit:
    """`Game.virtual`: the kit of a setup's table."""
    return FlipDoneKit(setup.seed)
