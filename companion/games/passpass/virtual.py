"""PtiPassPass and PhiPassPass on the virtual table (`companion run --virtual`): what each
seat's hands may do on its paired phone (`companion.web.virtual`).

Every token is in one place (PTI-14): under a hat, where its reader reports it, or in a
hand, which the engine keeps (a hand is what the game gave or took back, whoever still has
to carry a token there). A seat's hands may:

- **drop** one of its own tokens into a hat (`{"move": "drop", "token": "lapin", "spot":
  5}`) when a drop is its move: the Magicien's placement (PTI-6), the challenger's reward
  (PTI-10), on a table as the screen expects it. The announce button may come with it in
  the same gesture (`"announce": "lapin"`), or be pressed before or after (`POST
  /api/act`), as at a table;
- **take** a token out of a hat that holds one too many for the table the screen expects
  (`{"move": "take", "spot": 5}`): its own drop first (an undone placement, a drop the
  referee refused, a token a verdict gives back or to someone else); the last verdict's
  Magicien takes back the challenged hat (PTI-8); at a manche's end everyone empties the
  hats (PTI-12). What it takes is not shown: the hand it joins is the engine's;
- **slide** two hats past each other (`{"move": "slide", "a": 4, "b": 5}`), the Magicien
  before the reveal (PTI-5); the referee judges the swap (contiguous or a fault).

A seat sees its own hand, its token in flight, and where its own drops lie (it put them
there, and saw every slide since), never another seat's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.passpass.referee import PassPassReferee, expected_table
from companion.games.passpass.rules import Phase, Verdict, player_view
from companion.games.virtual_kit import Pressed, Report, Touch
from companion.referee.table import TagKinds
from companion.web.virtual import exchange, on_spot, only_keys, refused, spot_of

MOVES = ("drop", "take", "slide")


class PassPassKit:
    """The hands of a PassPass table played on the page."""

    def __init__(self, tags: Mapping[str, str]) -> None:
        self.kinds = TagKinds(tags)
        self.placed: dict[str, int] = {}
        """UID -> the seat that dropped it, while it lies under a hat."""

    # ----------------------------------------------------------------- moves

    def act(self, referee: Any, seat: int, move: Mapping[str, Any]) -> Sequence[Touch]:
        assert isinstance(referee, PassPassReferee)
        name = move["move"]
        if name == "drop":
            return self._drop(referee, seat, move)
        if name == "take":
            only_keys(move, ("spot",))
            return self._take(referee, seat, spot_of(move, "spot", 1, referee.spots))
        if name == "slide":
            only_keys(move, ("a", "b"))
            a = spot_of(move, "a", 1, referee.spots)
            b = spot_of(move, "b", 1, referee.spots)
            return self._slide(referee, seat, a, b)
        raise refused(400, "move", move=repr(name), moves=", ".join(MOVES))

    def _drop(self, referee: PassPassReferee, seat: int, move: Mapping[str, Any]) -> list[Touch]:
        keys = ("token", "spot", "announce") if "announce" in move else ("token", "spot")
        only_keys(move, keys)
        spot = spot_of(move, "spot", 1, referee.spots)
        tokens = referee.state.config.rules.tokens
        token = move["token"]
        announce = move.get("announce", token)
        if token not in tokens or announce not in tokens:
            raise refused(400, "token")
        if seat != dropper(referee):
            raise refused(403, "turn")
        if token not in player_view(referee.state, seat).hand:
            raise refused(403, "hand")
        if wrong_hats(referee):
            raise refused(409, "table")
        free = self._free(referee, token)
        if not free:  # pragma: no cover - a hand's token is off the table when it matches
            raise refused(409, "table")
        uid = free[0]
        self.placed[uid] = seat
        touches: list[Touch] = [Report(spot, on_spot(referee, spot) | {uid})]
        if "announce" in move:
            touches.append(Pressed("announce", announce))
        return touches

    def _free(self, referee: PassPassReferee, token: str) -> list[str]:
        """The tags of `token` lying under no hat."""
        under = {uid for spot in range(1, referee.spots + 1) for uid in on_spot(referee, spot)}
        return [uid for uid in self.kinds.uids_of(token) if uid not in under]

    def _take(self, referee: PassPassReferee, seat: int, spot: int) -> list[Touch]:
        extra = self._extra(referee, spot)
        if not extra:
            raise refused(409, "empty")
        if referee.state.phase is Phase.REVEAL:
            raise refused(409, "slide_back")
        own = [uid for uid in extra if self.placed.get(uid) == seat]
        if not (own or self._may_empty(referee, seat, spot)):
            raise refused(403, "turn")
        uid = (own or extra)[-1]
        self.placed.pop(uid, None)
        return [Report(spot, on_spot(referee, spot) - {uid})]

    def _extra(self, referee: PassPassReferee, spot: int) -> list[str]:
        """The tags under hat `spot` beyond what the screen expects there (those of a
        kind the hat holds too many of), in a fixed order. While the Magicien reveals, a
        hat holds what it should only after a slide: such a difference is slid back,
        never taken out."""
        want = Counter(expected_table(referee.state)[spot - 1])
        there = sorted(on_spot(referee, spot))
        kind = {uid: self.kinds.kind(uid) or "" for uid in there}
        surplus = Counter(kind.values()) - want
        return [uid for uid in there if surplus[kind[uid]] > 0]

    def _may_empty(self, referee: PassPassReferee, seat: int, spot: int) -> bool:
        """Whether `seat` may take others' tokens out of hat `spot`: every hat is to be
        emptied (a manche's end, PTI-12), or it is the last verdict's Magicien and the
        challenged hat (PTI-8: the Magicien takes back all of it)."""
        if not any(expected_table(referee.state)):
            return True
        verdict = next((e for e in reversed(referee.log) if isinstance(e, Verdict)), None)
        return verdict is not None and (verdict.magician, verdict.spot) == (seat, spot)

    def _slide(self, referee: PassPassReferee, seat: int, a: int, b: int) -> list[Touch]:
        if a == b:
            raise refused(400, "same")
        state = referee.state
        if state.phase is not Phase.REVEAL or seat != state.magician:
            raise refused(403, "turn")
        return exchange(referee, a, b)

    # ------------------------------------------------------------------ views

    def seat_view(self, referee: Any, seat: int) -> dict[str, Any]:
        assert isinstance(referee, PassPassReferee)
        view = player_view(referee.state, seat)
        placed = [
            {"spot": spot, "token": self.kinds.kind(uid)}
            for spot in range(1, referee.spots + 1)
            for uid in sorted(on_spot(referee, spot))
            if self.placed.get(uid) == seat
        ]
        revealing = referee.state.phase is Phase.REVEAL
        take = [
            spot
            for spot in range(1, referee.spots + 1)
            if not revealing
            and (extra := self._extra(referee, spot))
            and (
                any(self.placed.get(uid) == seat for uid in extra)
                or self._may_empty(referee, seat, spot)
            )
        ]
        state = referee.state
        return {
            "hand": list(view.hand),
            "holding": view.holding,
            "placed": placed,
            "can": {
                "drop": dropper(referee) == seat and bool(view.hand) and not wrong_hats(referee),
                "take": take,
                "slide": state.phase is Phase.REVEAL and state.magician == seat,
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {"placed": dict(self.placed)}

    def restore(self, data: Mapping[str, Any]) -> None:
        placed = data["placed"]
        if not isinstance(placed, dict) or not all(
            isinstance(uid, str) and isinstance(s, int) for uid, s in placed.items()
        ):
            raise ValueError("placed: a map of tags to seats")
        self.placed = dict(placed)


def dropper(referee: PassPassReferee) -> int | None:
    """The seat whose drop the rules await now: the Magicien placing (PTI-6), the
    challenger rewarded (PTI-10); None when no drop is a move."""
    state = referee.state
    if state.phase is Phase.PLACE:
        return state.magician
    if state.phase is Phase.REWARD:
        return state.challenger
    return None


def wrong_hats(referee: PassPassReferee) -> bool:
    """Some hat is not as the screen expects it (an instruction or a fault to carry out)."""
    expected = expected_table(referee.state)
    return any(
        sorted(filter(None, map(referee.tag_kinds.kind, on_spot(referee, spot))))
        != sorted(expected[spot - 1])
        for spot in range(1, referee.spots + 1)
    )


def make_kit(setup: Any) -> PassPassKit:
    """`Game.virtual`: the kit of a setup's table."""
    return PassPassKit(setup.tags)
