"""What the OLED shows, as plain data built from public facts only.

The referee builds one of these screens after every input; a renderer draws it. Every
screen carries the engine's `PublicView` (never a `State`) and the seat names; the extra
fields are public too: a verdict event, a prompt, a fault. Nothing here can hold a hat's
contents or a hand, so no screen can leak one.

Prompts are structured (a key and its parameters), not sentences: the text catalogue in
`companion/screens/text.py` turns them into French (default) or English.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.rules.passpass import PublicView, Verdict


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
    WAIT_TABLE = "wait_table"
    EXTRA_TAG = "extra_tag"
    MISSING_TAG = "missing_tag"
    UNKNOWN_TAG = "unknown_tag"
    TWO_TAGS = "two_tags"
    NOT_YOURS = "not_yours"
    NOT_CONTIGUOUS = "not_contiguous"
    ONE_SWAP = "one_swap"
    DESIGNATED_GONE = "designated_gone"
    READER_SILENT = "reader_silent"
    RESTORE = "restore"


class Refusal(StrEnum):
    """Why a press could not count (TABLE.md: shown on the OLED, never silently dropped).
    The journal's `ignored` events carry these values as `reason`."""

    NOT_NOW = "not_now"
    """The button means nothing at this point of the turn (or came too late)."""
    TABLE_FIRST = "table_first"
    """The table must match what is expected first (a fault or an instruction is open)."""
    VISIBLE_TURN = "visible_turn"
    """PTI-4/PTI-9: a Visible turn shows the animal: no announcement, no Menteur."""
    NO_TOKEN = "no_token"
    """PTI-7: a seat with no Challenge token can only say OK."""
    MAGICIAN = "magician"
    """The Magicien cannot challenge their own placement."""
    NO_ANNOUNCEMENT = "no_announcement"
    """PTI-9: Menteur before there is an announcement."""
    WRONG_WINDOW = "wrong_window"
    """PHI-2: Menteur in window 1, or Doublon in window 2."""
    NOT_SEATED = "not_seated"
    """A seat button where nobody sits in this game."""
    ALREADY_CALLED = "already_called"
    """The seat already called in this window."""
    NOT_A_LINE = "not_a_line"
    """The encoder's choice is not a line of three hats (PTI-3)."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    PUBLIC_FACT = "public_fact"
    """Undo never takes back a verdict, a reveal, a closed window or a manche result."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A press that could not count, shown for a moment: whose, which button, why."""

    control: str
    seat: int | None
    reason: Refusal
    until: float
    """The referee's time at which the notice leaves the screen."""


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


@dataclass(frozen=True, slots=True)
class Screen:
    """Base of every screen: the public view and the names of the seats (clockwise)."""

    view: PublicView
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StatusScreen(Screen):
    """Manche, Masqué/Visible, the Magicien, each seat's Challenge and victory tokens, and
    what is expected now."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class CountdownScreen(Screen):
    """The challenge window is open (hat `view.spot`, announced `view.announced`)."""

    remaining: float
    """Seconds left before silence means OK."""
    total: float


@dataclass(frozen=True, slots=True)
class VerdictScreen(Screen):
    """A settled challenge with the facts the book makes public, and what to do now."""

    verdict: Verdict
    prompt: Prompt


@dataclass(frozen=True, slots=True)
class InstructionScreen(Screen):
    """A physical instruction the table must carry out before play goes on."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class RevealMapScreen(Screen):
    """The map of the hats (grid positions of spots 1..N) with the line being chosen."""

    positions: tuple[tuple[int, int], ...]
    line: tuple[int, int, int] | None
    swapped: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class FaultScreen(Screen):
    """ "Stop": what is wrong and how to fix it; play resumes when the table matches."""

    prompt: Prompt


@dataclass(frozen=True, slots=True)
class NoticeScreen(Screen):
    """A refused press, for a few seconds: the seat, the button and the reason."""

    notice: Notice


@dataclass(frozen=True, slots=True)
class RevealMissScreen(Screen):
    """A failed reveal (PTI-11): the three hats lifted and what each held (the table saw
    them), then the hats go back as they were."""

    seat: int
    spots: tuple[int, int, int]
    lifted: tuple[tuple[str, ...], ...]
    """What each lifted hat held, in the order of `spots`."""


@dataclass(frozen=True, slots=True)
class MancheWonScreen(Screen):
    seat: int
    pick: tuple[str, ...]
    spots: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class GameWonScreen(Screen):
    seat: int


@dataclass(frozen=True, slots=True)
class MenuScreen:
    """The power-on menu (TABLE.md, "Starting a game"), before any game exists: no public
    view, no seat of a game, only the menu's own choices.

    ``step`` is the menu step (``resume``, ``game``, ``seats``, ``first``, ``ready``) and
    says which question the title asks. ``options`` are what the encoder chooses from:
    ``resume`` / ``new`` for the resume step, game names (``ptipasspass``), numbers of
    seats (``"4"``) or seat names; at the ``ready`` step, the spots not yet read empty
    (``"0"`` is the pad). ``cursor`` indexes ``options`` (at ``ready``: 0 when a push starts
    the game, -1 while the readers decide). ``title`` is the game chosen so far (empty
    before)."""

    step: str
    options: tuple[str, ...]
    cursor: int
    title: str = ""


AnyScreen = Screen | MenuScreen
"""Whatever the console may draw: a game's screen or the menu before the game."""
