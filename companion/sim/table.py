"""A virtual table: spots with readers, tagged tokens, cups that take a drop or slide.

It reports exactly what the real readers report: the debounced set of UIDs of one spot,
as `SpotInput` records, in the order a real scan would send them (a slide shows its
transient: both spots empty for a moment, then the exchanged contents).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from companion.journal import SpotInput


def make_tags(
    prefix: str, tokens: tuple[str, ...], players: int, rng: random.Random
) -> dict[str, str]:
    """One tag per token of each seat, its kind `prefix:token` (a game's `TokenFamily`): NTAG-like
    7-byte UIDs (04...) and MIFARE-like 4-byte ones mixed, as a real box of tokens would be."""
    tags: dict[str, str] = {}
    for seat in range(players):
        for kind in tokens:
            while True:
                size = 7 if (seat + len(tags)) % 2 == 0 else 4
                raw = bytes([0x04] if size == 7 else []) + rng.randbytes(size - (size == 7))
                uid = raw.hex().upper()
                if uid not in tags:
                    break
            tags[uid] = f"{prefix}:{kind}"
    return tags


class VirtualTable:
    """Where every tag is: in a spot (0 is the pad), or off the table in someone's hand."""

    def __init__(self, spots: int, tags: Mapping[str, str]) -> None:
        self.spots: dict[int, set[str]] = {s: set() for s in range(spots + 1)}
        self.kind_of = {uid: kind.split(":", 1)[-1] for uid, kind in tags.items()}
        self.off: set[str] = set(tags)

    def contents(self, spot: int) -> frozenset[str]:
        return frozenset(self.spots[spot])

    def report(self, t: float, spot: int) -> SpotInput:
        return SpotInput(t, spot, self.contents(spot))

    def _spot(self, spot: int) -> set[str]:
        if spot not in self.spots:
            raise ValueError(f"no spot {spot}: the hats are 1..{len(self.spots) - 1}, 0 the pad")
        return self.spots[spot]

    def drop(self, t: float, spot: int, kind: str) -> SpotInput:
        """A token of `kind` from a hand into `spot`."""
        hat = self._spot(spot)
        free = sorted(u for u in self.off if self.kind_of.get(u) == kind)
        if not free:
            raise ValueError(f"every {kind} is already on the table")
        self.off.discard(free[0])
        hat.add(free[0])
        return self.report(t, spot)

    def take(self, t: float, spot: int, kind: str) -> SpotInput:
        """A token of `kind` out of `spot`, back into a hand."""
        hat = self._spot(spot)
        there = sorted(u for u in hat if self.kind_of.get(u) == kind)
        if not there:
            raise ValueError(f"there is no {kind} in spot {spot}")
        hat.discard(there[0])
        self.off.add(there[0])
        return self.report(t, spot)

    def stray(self, t: float, spot: int, uid: str) -> SpotInput:
        """A tag that is no token of the game (a bank card, a sticker) lands on a spot."""
        self._spot(spot).add(uid)
        return self.report(t, spot)

    def remove(self, t: float, spot: int, uid: str) -> SpotInput:
        self._spot(spot).discard(uid)
        if uid in self.kind_of:
            self.off.add(uid)
        return self.report(t, spot)

    def slide(self, t: float, a: int, b: int, rng: random.Random | None = None) -> list[SpotInput]:
        """Two cups slide past each other: both readers lose their tags for a moment, then
        see the exchanged contents, in whichever order the scan reaches them (`rng`)."""
        gone = [SpotInput(t, a, frozenset()), SpotInput(t, b, frozenset())]
        self.spots[a], self.spots[b] = self._spot(b), self._spot(a)
        back = [self.report(t + 0.2, a), self.report(t + 0.2, b)]
        if rng is not None:
            rng.shuffle(gone)
            rng.shuffle(back)
        return gone + back

    def kinds(self, spot: int) -> list[str]:
        return sorted(self.kind_of[u] for u in self._spot(spot) if u in self.kind_of)

    def strays(self, spot: int) -> list[str]:
        return sorted(u for u in self._spot(spot) if u not in self.kind_of)
