"""What a PtiPassPass / PhiPassPass prompt asks of the table: a `Say` key and its parameters.

The referee puts a `Prompt` on its screens and the game's words (`words.py`) turn it
into a sentence, so prompts are structured data, never sentences. They live apart from
the screens (`screens.py`) because the words need them and the screens' renderers need
the words: this module imports nothing of the companion but the shared fixes (`Fix`),
whose values its own keys reuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.referee.table import Fix, SpotDiff, fix_prompt


class Say(StrEnum):
    """What a prompt asks of the players. Parameters by key (seat numbers are 0-based):

    PLACE seat            the Magicien drops a token into a hat
    ANNOUNCE seat         the Magicien presses the announce button of the token named aloud
    WINDOW seat           challenge window is open (PTI: "Doublon ? Menteur ?")
    TAKE_BACK_HAT seat, spot             Doublon won: the Magicien takes back all of hat `spot`
    GIVE_TOKEN seat, to, spot, tokens    the Magicien takes the token from hat `spot` and gives
                                          it to seat `to`; if `tokens`, `to` gives a Challenge
                                          token back
    PLACE_ANNOUNCED seat, token          announced before the drop (held): now drop it
    KEEP_TOKEN seat, spot                Menteur won: the Magicien takes their token back
                                          from hat `spot`
    REWARD seat, token                   successful Challenger: drop a token (shown) or, if
                                          `token`, press Doublon to take a Challenge token
    TAKE_CHALLENGE_TOKEN seat, from      seat takes a Challenge token from seat `from`
    REVEAL seat                          optional swap of two neighbouring hats, then choose
                                          a line with the encoder
    HATS_BACK seat                       failed reveal: the hats go back as they were
    CLEAR_TABLE                          everyone takes their tokens back: the next manche
                                          starts when every hat is empty
    VOID                                 dead manche (PTI-15): nobody can win, clear the table
    WAIT_TABLE spots                     hats `spots` must be put back as expected (after
                                          undo or resume)
    EXTRA_TAG spot                       fault: a token appeared in hat `spot`: remove it
    MISSING_TAG spot                     fault: a token vanished from hat `spot`: put it back
    UNKNOWN_TAG spot                     fault: an unenrolled tag in hat `spot`: remove it
    TWO_TAGS spot                        fault: two tokens dropped at once: take one out
    NOT_YOURS spot, seat                 fault: seat holds no such token: take it out
    NOT_CONTIGUOUS a, b                  fault: swapped hats a and b are not neighbours
    ONE_SWAP a, b                        fault: hats a and b swapped after this turn's swap
    DESIGNATED_GONE spot                 fault: the token just placed left hat `spot`: put it
                                          back, or press back to redo the placement
    READER_SILENT spot                   fault: the reader of hat `spot` stopped answering
    ACROSS_SPOTS spots                   fault: a token lies across the two spots `spots`:
                                          put it in one
    OFF_MAT spot                         fault: something lies on reader `spot`, which is no
                                          hat of this game: take it off
    RESTORE spots                        hats `spots` are not as expected: put them back
    """

    PLACE = "place"
    ANNOUNCE = "announce"
    WINDOW = "window"
    TAKE_BACK_HAT = "take_back_hat"
    GIVE_TOKEN = "give_token"
    KEEP_TOKEN = "keep_token"
    PLACE_ANNOUNCED = "place_announced"
    REWARD = "reward"
    TAKE_CHALLENGE_TOKEN = "take_challenge_token"
    REVEAL = "reveal"
    HATS_BACK = "hats_back"
    CLEAR_TABLE = "clear_table"
    VOID = "void"
    WAIT_TABLE = Fix.WAIT_TABLE.value
    EXTRA_TAG = Fix.EXTRA_TAG.value
    MISSING_TAG = Fix.MISSING_TAG.value
    UNKNOWN_TAG = Fix.UNKNOWN_TAG.value
    TWO_TAGS = Fix.TWO_TAGS.value
    NOT_YOURS = "not_yours"
    NOT_CONTIGUOUS = "not_contiguous"
    ONE_SWAP = "one_swap"
    DESIGNATED_GONE = "designated_gone"
    READER_SILENT = Fix.READER_SILENT.value
    ACROSS_SPOTS = Fix.ACROSS_SPOTS.value
    OFF_MAT = Fix.OFF_MAT.value
    RESTORE = Fix.RESTORE.value


Param = int | str | bool | tuple[str, ...] | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Prompt:
    say: Say
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, say: Say, **params: Param) -> Prompt:
        return cls(say, tuple(sorted(params.items())))

    def get(self, name: str) -> Param:
        return dict(self.params)[name]


def fix(diffs: Sequence[SpotDiff]) -> Prompt:
    """The shared fix for the hats that differ (`fix_prompt`), as PassPass's prompt."""
    key, params = fix_prompt(diffs)
    return Prompt.of(Say(key.value), **params)
