"""The Swiped referee: big cubes seen on the 3 x 3 mat, cards tapped on the pad, seat
buttons in; engine actions and screens out.

Two players; the mat's 9 spots are the squares 1..9 (SW-1, reading order), the pad (spot
0) reads the printed cards. Tags: "layout:7" for card 7 of the deck, "cube:rouge" for the
big cubes. The engine runs with an OBSERVED deal (`companion/games/swiped/rules/`): it takes the
cards the pad reads and each swap the readers see. How the table maps to actions
(docs/table.md, "Swiped"):

- **Opening** (SW-2): the card drawn face up is tapped on the pad (DrawLayout), the cubes
  are placed as it shows (each wrong square named), then each player taps a secret target
  card, in seat order from the first player (DrawTarget: the OLED says only "card of Ana
  recorded"). A card stays readable until it leaves the pad; the next card is read when
  it appears there.
- **Swaps** (SW-4): the OLED names whose swap comes next; two squares that exchanged their
  cubes are that seat's Swap. Cubes in the air (a square empty, or holding two) are a swap
  under way, never a fault. When the second swap of a phase is the pair just applied, the
  swapper pushes the encoder ("same pair, skip": SkipSwap); swapping that pair again is a
  fault, since it would undo the first.
- **Claims** (SW-5): a seat's Doublon button is "5 matches" (ClaimMatches); its Menteur
  button is "I know your card", and the next card tapped on the pad is the card it names
  (ClaimCard). The verdict shows neither card.

The referee keeps the EXPECTED grid and judges the OBSERVED one once it has been still for
`settle` seconds (`companion/referee/pace.py`). Anything else is a fault with a fix prompt
naming the squares, never a move. The target cards are hidden facts: they stay in the
engine's State; screens get its `PublicView`, and only the game-over screen and a final
`targets` event, made once the game is over, name them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import Aiming
from companion.games.swiped.rules import (
    COLOURS,
    PLAYERS,
    SQUARES,
    Action,
    ClaimCard,
    ClaimChecked,
    ClaimMatches,
    Config,
    Deal,
    DrawLayout,
    DrawTarget,
    Event,
    GameDrawn,
    GameWon,
    MancheEnded,
    Phase,
    SkipSwap,
    State,
    Swap,
    apply,
    is_over,
    make_config,
    may_claim,
    new_game,
    next_swap,
    pair,
    public_view,
)
from companion.games.swiped.rules.config import MAX_DECK, MIN_DECK, FalseClaim
from companion.games.swiped.screens import (
    SwAnyScreen,
    SwBoardScreen,
    SwFaultScreen,
    SwGameOverScreen,
    SwNoticeScreen,
    SwPrompt,
    SwSay,
    colour_name,
    sw_say,
)
from companion.games.swiped.words import LINES
from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import (
    PacedReferee,
    SetupError,
    check_mat_game,
    one_of_rule,
    refused,
    rules_over,
    true_or_false_rule,
    typed,
    whole_rule,
)
from companion.referee.undo import UndoHistory
from companion.rules.errors import RuleError
from companion.screens.model import Notice, Refusal
from companion.screens.text import check_lang

PAD = 0
SPOTS = tuple(range(SQUARES + 1))
"""The pad, then the squares 1..9."""
PUBLIC = (ClaimChecked, MancheEnded, GameWon, GameDrawn)
"""Public facts: undo never takes back the step that made one, nor anything before it."""
CLAIMS = ("doublon", "menteur")
"""The seat buttons: "5 matches" and "I know your card"."""
GRID_FAULTS = (SwSay.PUT_BACK, SwSay.SAME_PAIR, SwSay.GUESS_FIRST)
"""Faults of the cubes: fixed only when the grid is as expected again."""
NOT_FIRST = ("back", "skip", "choose")
"""Presses that act on the swaps (back, the skip push): never taken before the cubes that
moved while they were held (`_claims_first`), unless a card is being named."""
SKIP_VALUES = ("skip", "same_pair")
"""The encoder push's value for "same pair, skip" (any seat-less push also counts)."""

RULE_KEYS = (
    "deck_size",
    "deck_seed",
    "false_claim",
    "manche_limit",
    "claims_per_gap",
    "claim_before_first_swap",
)
"""The engine settings a setup's `rules` may set (docs/journal.md, "Swiped")."""

MID_SWAP = ("after", "before")
"""The table setting `claim_mid_swap`: how a claim pressed while a swap is under way (a
cube in the air) is judged. No ruling covers it; "after" (the default) holds the press
until the swap lands, since SW-5 judges claims between two swaps and a half-made swap
leaves no grid to judge; "before" judges it on the grid as it stood before that swap.

For the readers a swap is under way from the first change of the cubes until the table is
still again with one cube on every square (then it is judged, and the OLED shows it): a
cube lifted and put back is no swap, and two swaps made without the table being still
between them are one movement. So "before" judges a claim on the grid the OLED showed when
it was pressed, at any pace: on a still table with a cube in the air at once; held while
the table settled (pace.py), before the swaps or the fault that judgment finds."""
TABLE_KEYS = ("claim_mid_swap",)
"""Settings of the table protocol, not of the engine, that `rules` may also set."""

__all__ = [
    "MID_SWAP", "RULE_KEYS", "TABLE_KEYS", "SetupError", "SwipedReferee", "claim_mid_swap",
    "config_of", "token_of_kind",
]  # fmt: skip


def config_of(setup: Setup, config: Config | None = None) -> Config:
    """The engine Config of a table's game: `config` (or the book's rules) with the setup's
    `rules` over it, the setup's first seat and the OBSERVED deal."""
    values = rules_over(setup, config or Config(), RULE_KEYS, "Swiped", TABLE_KEYS)
    rules = setup.rules or {}
    whole_rule(rules, "deck_size", MIN_DECK, MAX_DECK)
    whole_rule(rules, "deck_seed")
    whole_rule(rules, "manche_limit", 1, none=True)  # None: no limit (SW-6)
    whole_rule(rules, "claims_per_gap", 1, none=True)  # None: any number
    true_or_false_rule(rules, "claim_before_first_swap")
    one_of_rule(rules, "false_claim", FalseClaim)
    check_mat_game(setup, PLAYERS, "Swiped")  # the seats and first the engine takes
    values["false_claim"] = str(values["false_claim"])
    return make_config(first=setup.first, deal=Deal.OBSERVED, **values)


def claim_mid_swap(setup: Setup) -> str:
    """The setup's `claim_mid_swap` (MID_SWAP), "after" unless set."""
    rules = setup.rules or {}
    one_of_rule(rules, "claim_mid_swap", MID_SWAP)
    return str(rules.get("claim_mid_swap", MID_SWAP[0]))


def token_of_kind(kind: str, deck_size: int) -> int | str | None:
    """A tag kind as the engine names it: "layout:7" -> card 7, "cube:rouge" -> "rouge";
    None for anything else."""
    family, _, name = kind.partition(":")
    if family == "cube" and name in COLOURS:
        return name
    if family == "layout" and name.isdigit() and 1 <= int(name) <= deck_size:
        return int(name)
    return None


@dataclass(frozen=True, slots=True)
class Square:
    """One square as the readers see it: its cubes (colours) and other tags."""

    cubes: tuple[str, ...]
    cards: tuple[int, ...]


class SwipedReferee(PacedReferee, Aiming):
    """Feed it inputs in time order; read `screen` and the events it returns."""

    def __init__(self, setup: Setup, config: Config | None = None) -> None:
        check_mat_game(setup, PLAYERS, "Swiped")
        config = config_of(setup, config)
        self.mid_swap = claim_mid_swap(setup)
        tokens: dict[str, int | str] = {}
        for uid, kind in setup.tags.items():
            token = token_of_kind(kind, config.deck_size)
            if token is None:
                raise refused("swiped.setup.tag", uid=uid, kind=typed(kind), n=config.deck_size)
            tokens[uid.upper()] = token
        super().__init__(setup.t, SQUARES, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.tokens = tokens
        """UID -> a card number or a cube's colour: the game's tags."""
        self.state: State
        self.state, opening = new_game(config, setup.seed)  # OBSERVED: no event before the deal
        self.history: UndoHistory[tuple[State, bool]] = UndoHistory()
        self.log: list[Event] = list(opening)
        """The engine's events so far (all public)."""
        self.placed = False
        """The cubes stood as the layout card shows at least once (the swaps may begin)."""
        self.fault: SwPrompt | None = None
        self.waiting: SwPrompt | None = None
        """Squares to put back as they were (after back or a restart) before play goes on."""
        self.read: frozenset[str] = frozenset()
        """Cards on the pad already read: the next card is one that appears there."""
        self.guess: int | None = None
        """The seat whose "I know your card" waits for the card it names: tapped on the
        pad, or aimed at with the encoder and pushed (the card is in the other player's
        hands when the guess is right, so the encoder is how a right guess is named)."""
        self.named: int | None = None
        """The card the encoder aims at while a guess waits."""
        self.verdict: ClaimChecked | None = None
        """The last claim's verdict (shown until the next swap)."""
        self.recorded: int | None = None
        """The seat whose target card was just recorded (shown until the next step)."""
        self.changed_at: dict[int, int] = {}
        """When each spot last changed (a report number): which of two swaps came first."""
        self.reports = 0
        self._last = dict(self.observed.uids)

    # ------------------------------------------------------ the runtime's view

    spots = SQUARES

    def encoder_choices(self) -> tuple[tuple[int, ...], ...]:
        """The deck's cards, while a seat names one (every card: the list tells nothing)."""
        if self.guess is None:
            return ()
        return tuple((card,) for card in range(1, self.state.config.deck_size + 1))

    @property
    def aim(self) -> tuple[int, ...] | None:
        return (self.named,) if self.guess is not None and self.named is not None else None

    @property
    def finished(self) -> bool:
        return is_over(self.state)

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change here except the clock."""
        return (
            self.state, self.placed, self.fault, self.waiting, self.read, self.guess, self.named,
            self.verdict, self.recorded, tuple(sorted(self.changed_at.items())),
            tuple(sorted(self.observed.uids.items())), frozenset(self.observed.silent),
            tuple(sorted(self.observed.stray.items())), tuple(self.held), self.unjudged,
            self.last_change, len(self.events),
            len(self.history),
        )  # fmt: skip

    def where(self, lang: str = "en") -> str:
        """One line for logs (English) or the web page (its language): never a target card,
        even when the game is over. A fault is the OLED's own sentence."""
        state = self.state
        if is_over(state):
            if state.winner is None:
                return _line("where.drawn", lang, manches=state.manche)
            return _line("where.won", lang, name=self.names[state.winner])
        if self.fault is not None:
            fault = sw_say(self.fault, self.names, lang)
            what = _line("where.stopped", lang, fault=fault)
        elif state.phase is Phase.DRAW:
            what = _line("where.draw", lang)
        else:
            swapper = next_swap(state)
            if swapper is None:
                what = _line("where.between", lang)
            else:
                what = _line("where.swap", lang, name=self.names[swapper])
        return _line("where", lang, manche=state.manche, what=what)

    def result(self) -> dict[str, Any]:
        winner = self.state.winner
        return {
            "game": self.setup.game,
            "events": list(self.events),
            "scores": [int(winner == seat) for seat in range(PLAYERS)],
            "winner": winner,
        }

    # ------------------------------------------------------------------ table

    def table_changed(self) -> None:
        super().table_changed()
        self.reports += 1
        for spot, uids in self.observed.uids.items():
            if uids != self._last.get(spot):
                self.changed_at[spot] = self.reports
        self._last = dict(self.observed.uids)

    def _square(self, spot: int) -> Square:
        cubes: list[str] = []
        cards: list[int] = []
        for uid in sorted(self.observed.uids.get(spot, frozenset())):
            token = self.tokens.get(uid)
            if isinstance(token, str):
                cubes.append(token)
            elif isinstance(token, int):
                cards.append(token)
        return Square(tuple(sorted(cubes)), tuple(sorted(cards)))

    def judge_table(self) -> None:
        silent = sorted(self.observed.silent)
        if silent:
            self._set_fault(SwPrompt.of(SwSay.READER_SILENT, spot=silent[0]))
            return
        for spot in SPOTS:
            if any(uid not in self.tokens for uid in self.observed.uids.get(spot, ())):
                self._set_fault(SwPrompt.of(SwSay.UNKNOWN_TAG, spot=spot))
                return
            if spot != PAD and self._square(spot).cards:
                self._set_fault(SwPrompt.of(SwSay.CARD_ON_SQUARE, spot=spot))
                return
        if self.finished:
            self._fixed()
            return
        if not self._judge_pad():
            return
        if self.fault is not None and self.fault.say not in GRID_FAULTS:
            self._fixed()  # what stopped play is gone, even with a cube still in the air
        if self.state.layout_card is None:
            self._fixed()  # cubes may wait on the mat until the layout card is read
            return
        self._judge_grid()

    def judge_stray(self, spot: int) -> None:
        self._set_fault(SwPrompt.of(SwSay.OFF_MAT, spot=spot))

    def judge_across(self, spots: tuple[int, int]) -> None:
        self._set_fault(SwPrompt.of(SwSay.ACROSS_SPOTS, spots=spots))

    # -------------------------------------------------------------------- pad

    def _judge_pad(self) -> bool:
        """Read a card that appeared on the pad. False: a fault stops the judgment."""
        on_pad = {uid for uid in self.observed.uids.get(PAD, frozenset()) if self._is_card(uid)}
        self.read &= on_pad  # a card taken off may be read again
        new = sorted(on_pad - self.read)
        if len(new) > 1:
            self._set_fault(SwPrompt.of(SwSay.TWO_CARDS, spot=PAD))
            return False
        if not new:
            return True
        (uid,) = new
        card = self.tokens[uid]
        assert isinstance(card, int)
        action = self._pad_action(card)
        if action is None and any(p.control == "menteur" for p in self.held):
            return True  # the card named by a held "I know your card": read once it counts
        if action is None:
            self.read |= {uid}
            self._pad_not_now()
            return True
        if isinstance(action, DrawTarget) and card in (self.state.layout_card, *self.state.targets):
            self._set_fault(SwPrompt.of(SwSay.CARD_TAKEN, spot=PAD))
            return False
        self.read |= {uid}
        self._fixed()
        if isinstance(action, ClaimCard):
            self._name_card(action.card)
        else:
            if self._step(action, "layout" if isinstance(action, DrawLayout) else "target"):
                self.recorded = action.seat if isinstance(action, DrawTarget) else None
        return True

    def _pad_action(self, card: int) -> Action | None:
        state = self.state
        if state.phase is Phase.DRAW:
            if state.layout_card is None:
                return DrawLayout(card)
            return DrawTarget(self._next_target(), card)
        if self.guess is not None:
            return ClaimCard(self.guess, card)
        return None

    def _next_target(self) -> int:
        """SW-2: the players tap their target cards from the first player on."""
        first = self.state.config.first
        return next(s for s in (first, 1 - first) if self.state.targets[s] is None)

    def _pad_not_now(self) -> None:
        """A card tapped when nothing asks for one: shown, never read."""
        self.emit({"kind": "ignored", "control": "pad", "seat": None, "reason": "not_now"})
        self.notice = Notice("pad", None, Refusal.NOT_NOW, self.now + 3.0)

    def _is_card(self, uid: str) -> bool:
        return isinstance(self.tokens.get(uid), int)

    # ------------------------------------------------------------------- grid

    def _judge_grid(self) -> None:
        """The cubes against the grid: placed as the layout card shows, a swap, a swap
        under way (some cube in the air), or a fault naming every wrong square."""
        grid = self.state.grid
        squares = {spot: self._square(spot) for spot in range(1, SQUARES + 1)}
        if any(len(sq.cubes) != 1 for sq in squares.values()):
            return  # a cube in the air, or two on a square: a swap or the placing under way
        seen = tuple(squares[spot].cubes[0] for spot in range(1, SQUARES + 1))
        wrong = tuple(spot for spot in range(1, SQUARES + 1) if seen[spot - 1] != grid[spot - 1])
        if not wrong:
            self._fixed()
            self.waiting = None
            if not self.placed:
                self.placed = True
                self.emit({"kind": "placed"})
            return
        if self.mid_swap == "before" and self._claims_first():
            return  # a claim ended the game before these cubes moved
        if self.waiting is not None:
            self.waiting = SwPrompt.of(SwSay.WAIT_TABLE, spots=wrong)
            return
        if not self.placed or self.state.phase is not Phase.EXECUTE:
            self._set_fault(_put_back(wrong, grid))
            return
        swaps = _exchanges(wrong, seen, grid)
        if swaps is None:
            self._set_fault(_put_back(wrong, grid))
            return
        if self.guess is not None:
            self._set_fault(SwPrompt.of(SwSay.GUESS_FIRST, seat=self.guess))
            return
        swaps.sort(key=lambda pair: max(self.changed_at.get(s, 0) for s in pair))
        for i, j in swaps:
            seat = next_swap(self.state)
            a, b = pair(grid[i - 1], grid[j - 1])
            if seat is None or (a, b) == self.state.phase_pair:  # SW-4: applied once
                self._set_fault(_put_back(wrong, self.state.grid, SwSay.SAME_PAIR))
                return
            self._fixed()
            if not self._step(Swap(seat, a, b), "swap"):  # pragma: no cover - checked above
                self._set_fault(_put_back(wrong, self.state.grid))
                return
            if self.finished:  # SW-6: the last swap of the last manche
                return

    # ----------------------------------------------------------------- faults

    def _set_fault(self, prompt: SwPrompt) -> None:
        if self.fault == prompt:
            return
        self.fault = prompt
        spots = prompt.spots()
        self.emit({"kind": "fault", "spot": spots[0] if spots else None, "reason": str(prompt.say)})

    def _fixed(self) -> None:
        if self.fault is not None:
            self.emit({"kind": "fixed"})
            self.fault = None

    # ----------------------------------------------------------------- presses

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """Whose act a phone's press is (`TableReferee.seat_refusal`): the claim buttons
        are the seat's own; the encoder is the seat naming a card while it names one, else
        the swapper's ("same pair, skip"); `back` takes back only the seat's own step: the
        card it is naming, its target card, its swap or skip (the layout card is
        everyone's)."""
        if control in CLAIMS:
            return None
        if control != "back":
            owner = self.guess if self.guess is not None else next_swap(self.state)
            if owner is None:
                return Refusal.NOT_NOW  # nobody's encoder now
            return None if owner == seat else Refusal.NOT_YOUR_TURN
        last = self.history.last()
        if self.guess is not None:
            owner = self.guess
        elif last is None or last[1] == "layout":
            return None  # nothing to take back (the referee says so), or everyone's step
        else:
            (before, _), step = last
            first = before.config.first
            drew = next((s for s in (first, 1 - first) if before.targets[s] is None), None)
            owner = drew if step == "target" else next_swap(before)
        return None if owner == seat else Refusal.NOT_YOUR_STEP

    def press(self, press: PressInput) -> None:
        control = press.control
        if self.held:  # behind a claim waiting for a swap to land: presses keep their order
            self.held.append(press)
        elif control == "back":
            self._undo(press)
        elif press.seat is not None and not 0 <= press.seat < PLAYERS:
            self.refuse(press, Refusal.NOT_SEATED)
        elif self.fault is not None or self.waiting is not None:
            self.refuse(press, Refusal.TABLE_FIRST)
        elif control in CLAIMS and press.seat is not None:
            if self.mid_swap == "after" and self._swap_under_way():
                self.held.append(press)  # judged once the swap lands (MID_SWAP)
            else:
                self._claim_press(press)
        elif control in ("aim", "choose") and self.guess is not None:
            self._encoder_names(press)
        elif control == "skip" or (control == "choose" and _is_skip(press.value)):
            self._skip(press)
        else:
            self.refuse(press, Refusal.NOT_NOW)

    def _encoder_names(self, press: PressInput) -> None:
        """While a seat names a card: a turn aims at a card, a push names the card aimed."""
        card = _card_of(press.value, self.state.config.deck_size)
        chosen = card if card is not None else self.named
        if press.control == "aim" and card is not None:
            self.named = card
        elif press.control == "choose" and chosen is not None:
            self._name_card(chosen)
        else:
            self.refuse(press, Refusal.NOT_NOW)

    def _name_card(self, card: int) -> None:
        """The card a waiting "I know your card" names, tapped or pushed: judged now."""
        assert self.guess is not None
        action = ClaimCard(self.guess, card)
        self.guess = self.named = None
        self._claim(action)

    def _swap_under_way(self) -> bool:
        """A cube in the air (a square empty, or holding two) while the swaps go on."""
        if not self.placed or self.state.phase is not Phase.EXECUTE:
            return False
        return any(len(self._square(s).cubes) != 1 for s in range(1, SQUARES + 1))

    def _claims_first(self) -> bool:
        """MID_SWAP "before": the claims held while these cubes moved were pressed on the
        grid the OLED showed, so they are judged before the cubes count (a swap or a fault),
        in arrival order, with the presses naming a Menteur's card or cancelling it. The
        run stops at back or the skip push, which act on the swaps themselves and keep
        their place after the judgment. True when a claim ended the game."""
        while self.held and (self.guess is not None or self.held[0].control not in NOT_FIRST):
            press = self.held.pop(0)
            rest, self.held = self.held, []
            self.press(press)  # with nothing held, as pressed on a still table
            self.held += rest
        return self.finished

    def _claim_press(self, press: PressInput) -> None:
        seat = press.seat
        assert seat is not None
        if self.guess is not None:
            self.refuse(press, Refusal.ALREADY_CALLED)
        elif not may_claim(self.state, seat):
            limited = self.state.phase is Phase.EXECUTE and self.state.claims[seat] > 0
            self.refuse(press, Refusal.ALREADY_CALLED if limited else Refusal.NOT_NOW)
        elif press.control == "doublon":
            self._claim(ClaimMatches(seat))
        else:
            self.guess = seat
            self.verdict = None
            self.emit({"kind": "guess", "seat": seat})
            self._judge_pad()  # a card laid on the pad while the press was held

    def _skip(self, press: PressInput) -> None:
        state = self.state
        seat = next_swap(state)
        other = press.seat is not None and press.seat != seat
        if seat is None or state.phase_pair is None or other or self.guess is not None:
            self.refuse(press, Refusal.NOT_NOW)
            return
        self._step(SkipSwap(seat), "skip")

    def _undo(self, press: PressInput) -> None:
        """`back` cancels a card being named, else takes back a draw, a swap or a skip
        since the last public fact (a claim's verdict, a manche's end)."""
        if self.guess is not None:
            self.emit({"kind": "undo", "step": "guess"})
            self.guess = self.named = None
            return
        taken = self.history.take_back()
        if isinstance(taken, Refusal):
            self.refuse(press, taken)
            return
        (self.state, self.placed), step = taken
        self.emit({"kind": "undo", "step": step})
        self.fault = None
        self.recorded = None
        self.verdict = None
        self._expect_table()
        if not self.unjudged:
            self.judge()  # at once: a fault the back did not fix stays on the screen

    def resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the readers' live table replaces the last one journaled.
        Squares that changed while the companion was down are put back before play goes on."""
        changed = {s for s, uids in record.table.items() if self.observed.uids.get(s) != uids}
        for spot in changed:
            self.observed.uids[spot] = record.table[spot]
        self.emit({"kind": "resume", "changed": sorted(changed)})
        if changed:
            self.table_changed()
            if self.placed:
                self._expect_table()

    def _expect_table(self) -> None:
        """Ask for the squares that differ from the grid to be put back (a still table is
        judged against it; nothing on them is read as a swap until then)."""
        if not self.placed:
            return
        grid = self.state.grid
        wrong = tuple(
            spot for spot in range(1, SQUARES + 1) if self._square(spot).cubes != (grid[spot - 1],)
        )
        self.waiting = SwPrompt.of(SwSay.WAIT_TABLE, spots=wrong) if wrong else None

    # -------------------------------------------------------------------- time

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError("Swiped has no deadline")

    # ------------------------------------------------------------------ steps

    def _apply(self, action: Action) -> tuple[Event, ...] | None:
        """Apply one engine action and emit its events; None if the rules refuse it."""
        try:
            self.state, events = apply(self.state, action)
        except RuleError:
            return None
        self.log.extend(events)
        for event in events:
            self.emit(event.to_json())
        if self.finished:  # SW-5: the cards may be shown once the game is over
            self.emit({"kind": "targets", "cards": list(self.state.targets)})
        return events

    def _step(self, action: Action, name: str) -> bool:
        """An undoable step, unless it made a public fact."""
        before = (self.state, self.placed)
        events = self._apply(action)
        if events is None:
            return False
        self.history.record(before, name, any(isinstance(e, PUBLIC) for e in events))
        self.verdict = None
        self.recorded = None
        return True

    def _claim(self, action: ClaimMatches | ClaimCard) -> None:
        before = (self.state, self.placed)
        events = self._apply(action)
        if events is None:
            return
        self.history.record(before, "claim", True)
        self.verdict = next(e for e in events if isinstance(e, ClaimChecked))

    # ----------------------------------------------------------------- screen

    @property
    def screen(self) -> SwAnyScreen:
        """What the OLED shows now: the public view and public events only; the target
        cards only once the game is over."""
        view = public_view(self.state)
        names = self.names
        if self.finished:
            targets = tuple(t for t in self.state.targets if t is not None)
            return SwGameOverScreen(view, names, self.verdict, targets)
        notice = self.notice_shown()
        if notice is not None:
            return SwNoticeScreen(view, names, notice)
        if self.fault is not None:
            return SwFaultScreen(view, names, self.fault)
        return SwBoardScreen(view, names, self._prompt(), self.verdict, self.recorded)

    def _prompt(self) -> SwPrompt:
        state = self.state
        if self.waiting is not None:
            return self.waiting
        if self.guess is not None and self.named is not None:
            return SwPrompt.of(SwSay.NAMING, seat=self.guess, card=self.named)
        if self.guess is not None:
            return SwPrompt.of(SwSay.GUESS, seat=self.guess)
        if state.layout_card is None:
            return SwPrompt.of(SwSay.LAYOUT)
        if not self.placed:
            return SwPrompt.of(SwSay.PLACE, card=state.layout_card)
        if state.phase is Phase.DRAW:
            return SwPrompt.of(SwSay.TARGET, seat=self._next_target())
        seat = next_swap(state)
        assert seat is not None
        air = tuple(s for s in range(1, SQUARES + 1) if len(self._square(s).cubes) != 1)
        if air:
            claims = [p.seat for p in self.held if p.control in CLAIMS and p.seat is not None]
            if claims:  # a claim pressed mid-swap, judged once it lands (MID_SWAP)
                return SwPrompt.of(SwSay.SWAPPING, seat=seat, spots=air, claimer=claims[0])
            return SwPrompt.of(SwSay.SWAPPING, seat=seat, spots=air)
        if state.phase_pair is not None:
            return SwPrompt.of(SwSay.SWAP_OR_SKIP, seat=seat)
        if state.step == 0:
            return SwPrompt.of(SwSay.PROGRAM, seat=seat)
        return SwPrompt.of(SwSay.SWAP, seat=seat)


def _exchanges(
    wrong: Sequence[int], seen: Sequence[str], grid: Sequence[str]
) -> list[tuple[int, int]] | None:
    """The squares that exchanged their cubes in pairs (one swap, or two at once), or None
    when the wrong squares are no such thing."""
    left = set(wrong)
    pairs: list[tuple[int, int]] = []
    for i in sorted(wrong):
        if i not in left:
            continue
        j = next((j for j in left if j != i and seen[j - 1] == grid[i - 1]), None)
        if j is None or seen[i - 1] != grid[j - 1]:
            return None
        left -= {i, j}
        pairs.append((i, j))
    return pairs if len(pairs) <= 2 else None


def _put_back(wrong: Sequence[int], grid: Sequence[str], say: SwSay | None = None) -> SwPrompt:
    """The fix naming every wrong square and the cube it must hold."""
    colours = tuple(grid[spot - 1] for spot in wrong)
    return SwPrompt.of(say or SwSay.PUT_BACK, spots=tuple(wrong), colours=colours)


def _card_of(value: object, deck_size: int) -> int | None:
    """The card an encoder press names: [7] (or 7), within the deck; None otherwise."""
    if isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= deck_size:
        return value
    return None


def _is_skip(value: object) -> bool:
    return value is None or value in SKIP_VALUES


# ------------------------------------------------------------------ transcript


_FAULTS = ("put_back", "same_pair", "guess_first", "card_on_square", "two_cards", "card_taken")
"""The faults only Swiped has (`fault.*` above)."""
_UNDONE = ("layout", "target", "swap", "skip", "guess")
"""The steps `back` takes back (`undo.*` above)."""


def _line(key: str, lang: str, **fields: object) -> str:
    """The sentence `key` of `lang` ("en" or "fr"), filled in."""
    return LINES[check_lang(lang)][key].format(**fields)


def _colour(colour: str, lang: str) -> str:
    """A big cube's colour as a line names it: the OLED's name, "Rouge" in French, "red"
    mid-sentence in English."""
    name = colour_name(colour, lang)
    return name.lower() if check_lang(lang) == "en" else name


def _pair(colours: Sequence[str], lang: str) -> str:
    """A swap's two colours, "red-blue" (en) or "Rouge-Bleu" (fr)."""
    return "-".join(_colour(c, lang) for c in colours)


def describe(event: Mapping[str, Any], names: Sequence[str], lang: str = "en") -> str | None:
    """One readable line for a Swiped event in `lang` ("en" or "fr"): `companion replay`
    and `companion demo` (English), the table's web page (its language); None for the
    events every game shares (fixed, resume, ignored...). No line names a target card but
    the last one, `targets`, made once the game is over (SW-5)."""
    kind = event["kind"]
    key = kind
    fields: dict[str, object] = {"who": _who(event.get("seat"), names)}
    if kind == "layout":
        grid = " ".join(_colour(c, lang) for c in event["grid"])
        fields.update(card=event["card"], grid=grid)
    elif kind == "manche_start":
        order = ", ".join(_who(seat, names) for seat in event["order"])
        fields.update(manche=event["manche"], order=order)
    elif kind == "programmed":
        fields["count"] = event["count"]
    elif kind == "programs_revealed":
        fields["programs"] = _line("semicolon", lang).join(
            f"{_who(seat, names)} " + ", ".join(_pair(pair, lang) for pair in program)
            for seat, program in enumerate(event["programs"])
        )
    elif kind in ("swap", "swap_skipped"):
        a, b = (_colour(c, lang) for c in event["colours"])
        i, j = event.get("squares", (None, None))
        fields.update(a=a, b=b, i=i, j=j)
    elif kind == "claim":
        seat = event["seat"]
        key = "claim.matches" if event["claim"] == "matches" else "claim.card"
        other = _who(1 - seat, names) if isinstance(seat, int) else "?"
        verdict = _line("verdict.true" if event["correct"] else "verdict.false", lang)
        fields.update(other=other, verdict=verdict)
    elif kind in ("manche_end", "game_drawn"):
        fields.update(manche=event.get("manche"), manches=event.get("manches"))
    elif kind == "targets":
        fields["cards"] = ", ".join(
            _line("targets.card", lang, who=_who(seat, names), card=card)
            for seat, card in enumerate(event["cards"])
            if card is not None
        )
    elif kind == "fault" and event.get("reason") in _FAULTS:
        spot = event.get("spot")
        where = "fault.pad" if spot == PAD else "fault.square" if spot else "fault.table"
        why = _line(f"fault.{event['reason']}", lang)
        fields.update(where=_line(where, lang, spot=spot), why=why)
    elif kind == "undo" and event.get("step") in _UNDONE:
        fields["what"] = _line(f"undo.{event['step']}", lang)
    elif kind not in ("target", "placed", "guess"):
        return None
    return _line(key, lang, **fields)


def _who(seat: object, names: Sequence[str]) -> str:
    """A seat's name, "?" for no seat (the same in every language)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
