"""The table as the readers see it (OBSERVED) against the table the rules imply (EXPECTED).

Readers report UIDs; the game's tags turn them into token kinds; the engine's hats hold
kinds. Tokens of one kind are interchangeable for the rules, so spots are compared as
multisets of kinds, and unknown UIDs are reported, never guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

Kinds = tuple[str, ...]
"""A sorted multiset of token kinds as the engine names them ("QH" of "card:QH")."""


@dataclass(frozen=True, slots=True)
class SpotDiff:
    """How one spot differs from what is expected."""

    spot: int
    extra: Kinds
    """Kinds seen that should not be there."""
    missing: Kinds
    """Kinds expected that are not seen."""
    unknown: tuple[str, ...]
    """UIDs no token is enrolled under."""


class TagKinds:
    """The game's tags (the journal's `tags`, taken from the tag registry at setup): UID ->
    the engine's kind name (`card:QH` gives `QH`, `layout:12` gives `12`)."""

    def __init__(self, tags: Mapping[str, str]) -> None:
        self._kinds = {uid.upper(): kind.split(":", 1)[-1] for uid, kind in tags.items()}

    def kind(self, uid: str) -> str | None:
        return self._kinds.get(uid.upper())

    def uids_of(self, kind: str) -> list[str]:
        return sorted(uid for uid, k in self._kinds.items() if k == kind)


class ObservedTable:
    """The latest debounced contents of every reader of the game's mat (spots 0..N, 0 the
    pad). A table may have more readers than the game has spots (a 3 x 3 mat laid over a
    table of twelve hats): what those hold is kept apart, in `stray`, so a game only ever
    reads its own spots."""

    def __init__(self, spots: int) -> None:
        self.uids: dict[int, frozenset[str]] = {s: frozenset() for s in range(spots + 1)}
        self.silent: set[int] = set()
        self.across: dict[int, int] = {}
        """Readers (on the mat or off it) whose tag lies across another reader's spot, by
        reader: the other one. Both read it, so neither knows which spot holds it."""
        self.stray: dict[int, frozenset[str]] = {}
        """The readers off the mat that hold something, by spot: something lies where the
        game has no spot (a fault until it is taken off)."""

    def on_mat(self, spot: int) -> bool:
        """Is `spot` one of the game's (the pad or a hat, square, ...)?"""
        return spot in self.uids

    def across_pair(self) -> tuple[int, int] | None:
        """The first two spots a tag lies across (lower spot first), or None."""
        if not self.across:
            return None
        spot = min(self.across)
        return tuple(sorted((spot, self.across[spot])))  # type: ignore[return-value]

    def kinds(self, spot: int, kinds_of: TagKinds) -> tuple[Kinds, tuple[str, ...]]:
        """Known kinds (sorted) and unknown UIDs of one spot."""
        known = []
        unknown = []
        for uid in sorted(self.uids.get(spot, frozenset())):
            kind = kinds_of.kind(uid)
            if kind is None:
                unknown.append(uid)
            else:
                known.append(kind)
        return tuple(sorted(known)), tuple(unknown)


def compare(
    observed: ObservedTable, expected: Sequence[Kinds], kinds_of: TagKinds
) -> list[SpotDiff]:
    """Every hat (spots 1..N) that differs from `expected`, in spot order. The pad is free."""
    diffs = []
    for spot in range(1, len(expected) + 1):
        seen, unknown = observed.kinds(spot, kinds_of)
        want = expected[spot - 1]
        if seen == tuple(sorted(want)) and not unknown:
            continue
        extra = Counter(seen) - Counter(want)
        missing = Counter(want) - Counter(seen)
        diffs.append(SpotDiff(spot, _kinds(extra), _kinds(missing), unknown))
    return diffs


def _kinds(counter: Counter[str]) -> Kinds:
    return tuple(sorted(counter.elements()))


class Fix(StrEnum):
    """The fixes any game's table may need, by the prompt key a game's screens say them
    with (a game's own prompt keys reuse these values, so the sentence is the game's).
    Parameters: `spot` (one spot) or `spots` (several, in order).

    WAIT_TABLE spots      after an undo or a resume: put the spots back as expected
    EXTRA_TAG spot        a tag appeared: take it out
    MISSING_TAG spot      a tag vanished: put it back
    UNKNOWN_TAG spot      a tag no piece is enrolled under: take it out
    TWO_TAGS spot         two tags dropped at once: one at a time
    READER_SILENT spot    the spot's reader stopped answering
    ACROSS_SPOTS spots    one token lies across two spots (both readers read it): put it
                          in one (`spots`: the two, lower first)
    OFF_MAT spot          something lies on a reader that is no spot of the game
    RESTORE spots         the spots are not as expected: put them back
    """

    WAIT_TABLE = "wait_table"
    EXTRA_TAG = "extra_tag"
    MISSING_TAG = "missing_tag"
    UNKNOWN_TAG = "unknown_tag"
    TWO_TAGS = "two_tags"
    READER_SILENT = "reader_silent"
    ACROSS_SPOTS = "across_spots"
    OFF_MAT = "off_mat"
    RESTORE = "restore"


FixParams = dict[str, int | tuple[int, ...]]
"""A fix's parameters: {"spot": 3} or {"spots": (2, 5)}."""


def fix_prompt(diffs: Sequence[SpotDiff]) -> tuple[Fix, FixParams]:
    """What is wrong and its fix, naming every spot concerned; a single spot's fault says
    what kind of difference it is (a tag too many, one missing, one not enrolled). The
    game turns it into its own prompt (its key of the same value, these parameters)."""
    if len(diffs) > 1:
        return Fix.RESTORE, {"spots": tuple(d.spot for d in diffs)}
    (d,) = diffs
    if d.unknown:
        return Fix.UNKNOWN_TAG, {"spot": d.spot}
    if d.extra and not d.missing:
        return Fix.EXTRA_TAG, {"spot": d.spot}
    if d.missing and not d.extra:
        return Fix.MISSING_TAG, {"spot": d.spot}
    return Fix.RESTORE, {"spots": (d.spot,)}


def exchanged(diffs: Iterable[SpotDiff]) -> tuple[int, int] | None:
    """Two spots that swapped their contents (a slide), or None."""
    pair = list(diffs)
    if len(pair) != 2 or any(d.unknown for d in pair):
        return None
    a, b = pair
    if a.extra == b.missing and b.extra == a.missing and a.extra != a.missing:
        return (a.spot, b.spot)
    return None
