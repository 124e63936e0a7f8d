"""Swiped on the virtual table (`companion run --virtual`): the deck, the big cubes and what
each seat's hands may do on its paired phone (`companion.web.virtual`).

The kit draws the cards (SW-2) from the deck; the mat holds the cubes its readers report,
the pad the card laid on it. A seat's hands may:

- **draw the face-up card** (any seat, at the start: `{"move": "draw_layout"}`): a card
  drawn at random, laid on the pad;
- **place the cubes** as that card shows, one square after the other (any seat:
  `{"move": "place_cubes"}`);
- **draw its secret target card** (`{"move": "draw_target"}`, from the first player on): a
  card drawn at random, laid on the pad for the table to read, then kept in its hand: only
  its own phone shows it (and the grid it asks for);
- **swap** two big cubes when the OLED names it (SW-4: `{"move": "swap", "a": 2, "b": 7}`),
  both lifted then put down each on the other's square.

A card on the pad is taken off by the next move, once the table has read it. The claims are
the seat buttons (Doublon: "5 matches"; Menteur: "I know your card", then the card named
with the encoder: `POST /api/act` `choose` `[card]`), the skip of a repeated pair the
encoder's push, as at a table. The referee judges every movement as a real table's readers
report it. A seat sees its own target card and how many cubes stand where it wants them,
never the other's card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.swiped.referee import SwipedReferee
from companion.games.swiped.rules import SQUARES, Phase, next_swap
from companion.games.swiped.rules.deck import make_deck
from companion.games.virtual_kit import Report, Touch
from companion.web.virtual import exchange, on_spot, only_keys, refused, spot_of

PAD = 0
MOVES = ("draw_layout", "place_cubes", "draw_target", "swap")


class SwipedKit:
    """The deck and the cubes of a Swiped table played on the page."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.draws = 0
        """Cards drawn so far (each draw's chance is its own: Random(seed, draws))."""

    # ----------------------------------------------------------------- moves

    def act(self, referee: Any, seat: int, move: Mapping[str, Any]) -> Sequence[Touch]:
        assert isinstance(referee, SwipedReferee)
        name = move["move"]
        if name not in MOVES:
            raise refused(400, "move", move=repr(name), moves=", ".join(MOVES))
        only_keys(move, ("a", "b") if name == "swap" else ())
        touches = self._clear_pad(referee)
        if name == "draw_layout":
            touches += self._draw(referee, layout=True)
        elif name == "draw_target":
            if seat != target_seat(referee):
                raise refused(403, "turn")
            touches += self._draw(referee, layout=False)
        elif name == "place_cubes":
            touches += self._place(referee)
        else:
            a = spot_of(move, "a", 1, SQUARES)
            b = spot_of(move, "b", 1, SQUARES)
            touches += self._swap(referee, seat, a, b)
        return touches

    def _clear_pad(self, referee: SwipedReferee) -> list[Touch]:
        """A card the table read is taken off the pad before the next move; one it has not
        read yet must wait (the table reads a card once it lies still)."""
        cards = on_spot(referee, PAD)
        if not cards:
            return []
        state = referee.state
        known = {state.layout_card, *state.targets}
        if any(referee.tokens.get(uid) not in known for uid in cards):
            raise refused(409, "table")
        return [Report(PAD, frozenset())]

    def _draw(self, referee: SwipedReferee, layout: bool) -> list[Touch]:
        """SW-2: a card drawn at random from those no one holds, laid on the pad."""
        state = referee.state
        if state.phase is not Phase.DRAW or (state.layout_card is None) != layout:
            raise refused(409, "not_now")
        taken = {state.layout_card, *state.targets}
        cards = sorted(
            (card, uid)
            for uid, card in referee.tokens.items()
            if isinstance(card, int) and card not in taken
        )
        rng = random.Random(f"virtual draw:{self.seed}:{self.draws}")
        self.draws += 1
        _, uid = rng.choice(cards)
        return [Report(PAD, frozenset({uid}))]

    def _place(self, referee: SwipedReferee) -> list[Touch]:
        """SW-2: each big cube on the square the face-up card gives it, one at a time."""
        state = referee.state
        if state.layout_card is None or referee.placed:
            raise refused(409, "not_now")
        cube = {colour: uid for uid, colour in referee.tokens.items() if isinstance(colour, str)}
        on_mat = {uid for sq in range(1, SQUARES + 1) for uid in on_spot(referee, sq)}
        touches: list[Touch] = []
        for square in range(1, SQUARES + 1):
            uid = cube[state.grid[square - 1]]
            if not on_spot(referee, square) and uid not in on_mat:
                touches.append(Report(square, frozenset({uid})))
        if not touches:
            raise refused(409, "not_now")
        return touches

    def _swap(self, referee: SwipedReferee, seat: int, a: int, b: int) -> list[Touch]:
        """SW-4: the two big cubes lifted, then each put down on the other's square."""
        if a == b:
            raise refused(400, "same")
        state = referee.state
        if state.phase is not Phase.EXECUTE or not referee.placed:
            raise refused(409, "not_now")
        if seat != next_swap(state):
            raise refused(403, "turn")
        return exchange(referee, a, b)

    # ------------------------------------------------------------------ views

    def seat_view(self, referee: Any, seat: int) -> dict[str, Any]:
        assert isinstance(referee, SwipedReferee)
        state = referee.state
        target = state.targets[seat]
        grid = None
        matches = None
        if target is not None:
            config = state.config
            grid = list(make_deck(config.deck_size, config.deck_seed)[target - 1])
            matches = sum(a == b for a, b in zip(grid, state.grid, strict=True))
        drawing = state.phase is Phase.DRAW
        return {
            "target": target,
            "target_grid": grid,
            "matches": matches,
            "can": {
                "draw_layout": drawing and state.layout_card is None,
                "place_cubes": state.layout_card is not None and not referee.placed,
                "draw_target": drawing
                and state.layout_card is not None
                and target_seat(referee) == seat,
                "swap": state.phase is Phase.EXECUTE
                and referee.placed
                and next_swap(state) == seat,
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {"draws": self.draws}

    def restore(self, data: Mapping[str, Any]) -> None:
        draws = data["draws"]
        if not isinstance(draws, int) or draws < 0:
            raise ValueError("draws: a count")
        self.draws = draws


def target_seat(referee: SwipedReferee) -> int | None:
    """SW-2: the seat whose target card is drawn next, from the first player on."""
    state = referee.state
    first = state.config.first
    return next((s for s in (first, 1 - first) if state.targets[s] is None), None)


def make_kit(setup: Any) -> SwipedKit:
    """`Game.virtual`: the kit of a setup's table."""
    return SwipedKit(setup.seed)
