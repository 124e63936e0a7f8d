"""The Flip Done referee: cards seen on the mat and the pad in, engine actions and screens out.

Three players; the mat has 9 spots in a 3 x 3 grid (the squares 1..9 of FD-2, in reading
order) and the pad (spot 0) is the discard pile. Every card carries a tag ("card:QH"). The
engine runs with an OBSERVED deal (`companion/games/flipdone/rules/`): it takes the deal the
readers see and each hand card only when it is played, and counts the hands, never sees
them. How the table maps to actions (docs/table.md, "Flip Done"):

- **The deal** of each phase, guided by the OLED: a card appearing on an empty square is
  dealt face down (DealDown); once the nine are down, the later of two tags on the centre
  is the face-up card (DealUp), or, with the "first player chooses" variant, the later tag
  on the square the first player chose (PlaceFirst).
- **Build**: a card appears on a square holding only its face-down card.
- **Flip**: a card appears on the pad (the discard), then one element's square goes empty
  and comes back with the same two tags (turned over).
- **Discard**: a card on the pad, and the encoder pushed for "no flip" (a `choose` press
  with the value "discard", or the pad `[0]` the encoder points at while a card waits).

Turn order, phases, lines made, broken and kept with their transfers and the bank, FD-9's
penalties, the manche bonus and the tie phases all come from the engine. The referee keeps
the EXPECTED table (each square's face-down and face-up cards, the phase's discards on the
pad) and judges the OBSERVED one once it has been still for `settle` seconds
(`companion/referee/pace.py`). Anything else is a fault with a fix prompt naming the spots,
never a move; play resumes when the readers show the expected table. A phase's end asks
for every card to be gathered (every spot and the pad empty) before the next deal.

Hidden facts (the face-down cards, the card waiting on the pad, the discards) stay here
and in the engine's State: screens get the engine's `PublicView` and public events only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import Aiming
from companion.games.flipdone.rules import (
    CARDS,
    CENTRE,
    LINES,
    PLAYERS,
    SQUARES,
    Action,
    Build,
    Config,
    Deal,
    DealDown,
    DealUp,
    Discard,
    Event,
    FirstElement,
    Flip,
    GameOver,
    LineBroken,
    LineHeld,
    LineLost,
    LineMade,
    MancheTie,
    MancheWon,
    PhaseEnded,
    PlaceFirst,
    Stage,
    State,
    Tied,
    apply,
    is_over,
    make_config,
    new_game,
    public_view,
    seen,
)
from companion.games.flipdone.screens import (
    FdAnyScreen,
    FdBoardScreen,
    FdFaultScreen,
    FdGameOverScreen,
    FdNoticeScreen,
    FdPhaseEndScreen,
    FdPrompt,
    FdSay,
    Scoring,
)
from companion.games.flipdone.words import REASONS, TEXTS, card_text
from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import (
    PacedReferee,
    SetupError,
    check_mat_game,
    one_of_rule,
    refused,
    rules_over,
    typed,
    whole_rule,
)
from companion.referee.undo import UndoHistory
from companion.rules.errors import RuleError
from companion.screens.model import Refusal
from companion.screens.text import check_lang

PAD = 0
SPOTS = tuple(range(SQUARES + 1))
"""The pad, then the squares 1..9."""
PUBLIC = (LineMade, LineBroken, LineHeld, LineLost, PhaseEnded, MancheWon, Tied, GameOver)
"""Public facts made by a play: undo never takes back the step that made one (a scored
line, a phase's end), nor anything before it. A flip, which shows a face-down card, is one
too (see `_play`)."""
DISCARD_VALUES = ("discard", "no_flip")

RULE_KEYS = ("phases", "manches", "first_element", "manche_tie", "tie_phase_limit")
"""The engine settings a setup's `rules` may set (docs/journal.md, "Flip Done")."""

__all__ = [
    "RULE_KEYS",
    "FlipDoneReferee",
    "SetupError",
    "card_of_kind",
    "config_of",
    "describe",
    "expected_table",
]


def config_of(setup: Setup, config: Config | None = None) -> Config:
    """The engine Config of a table's game: `config` (or the book's rules) with the setup's
    `rules` over it, the setup's first seat and the OBSERVED deal."""
    values = rules_over(setup, config or Config(), RULE_KEYS, "Flip Done")
    rules = setup.rules or {}
    whole_rule(rules, "manches", 1)
    whole_rule(rules, "phases", 1)
    whole_rule(rules, "tie_phase_limit", 0, none=True)  # None: the book's, no cap (FD-10)
    one_of_rule(rules, "first_element", FirstElement)
    one_of_rule(rules, "manche_tie", MancheTie)
    check_mat_game(setup, PLAYERS, "Flip Done")  # the seats and first the engine takes
    return make_config(first=setup.first, deal=Deal.OBSERVED, **values)


def card_of_kind(kind: str) -> str | None:
    """The engine's card of a tag kind: "card:QH" -> "QH", "card:TS" -> "10S"; None for a
    kind that is no card."""
    family, _, name = kind.partition(":")
    if family != "card":
        return None
    if name[:1] == "T":
        name = "10" + name[1:]
    return name if name in CARDS else None


@dataclass(frozen=True, slots=True)
class Fault:
    """A stop: the prompt and, for a wrong flip, the squares to turn back (each must go
    empty again before play goes on)."""

    prompt: FdPrompt
    relift: frozenset[int] = frozenset()
    wrong_flip: FdPrompt | None = None
    """Another stop shown over a wrong flip (a silent reader, something off the mat, the
    pad's card gone): the wrong flip's own prompt, shown again once that stop is fixed
    while its squares are still to turn back (`relift` is kept)."""


@dataclass(frozen=True, slots=True)
class Diff:
    """One spot against what is expected: tags too many (oldest first) and cards missing."""

    spot: int
    extra: tuple[str, ...]
    missing: tuple[str, ...]


class FlipDoneReferee(PacedReferee, Aiming):
    """Feed it inputs in time order; read `screen` and the events it returns."""

    def __init__(self, setup: Setup, config: Config | None = None) -> None:
        check_mat_game(setup, PLAYERS, "Flip Done")
        cards: dict[str, str] = {}
        for uid, kind in setup.tags.items():
            card = card_of_kind(kind)
            if card is None:
                raise refused("flipdone.setup.tag", uid=uid, kind=typed(kind))
            cards[uid.upper()] = card
        config = config_of(setup, config)
        super().__init__(setup.t, SQUARES, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.cards = cards
        """UID -> card ("QH"): the game's tags."""
        self.state: State
        self.state, opening = new_game(config, setup.seed)  # OBSERVED: no event before the deal
        self.history: UndoHistory[State] = UndoHistory()
        self.log: list[Event] = list(opening)
        """The engine's events so far (all public)."""
        self.fault: Fault | None = None
        self.waiting: FdPrompt | None = None
        """Spots to put back as they were (after back or a restart) before play goes on."""
        self.gather = False
        """A phase ended: every card must leave the table before the next deal."""
        self.pad: str | None = None
        """The card waiting on the pad for a flip or "no flip" (hidden: a discard)."""
        self.lifted: set[int] = set()
        """Squares seen empty since the table was last judged without a card on the pad."""
        self.order: dict[str, int] = {}
        """When each tag on the table arrived (a report number): the later tag on a spot
        is the top card."""
        self.gone: dict[str, int] = {}
        """Tags that left since the last judgment, with their arrival: a tag that blinks
        keeps its place."""
        self.reports = 0
        self.last_seen: dict[int, frozenset[str]] = dict(self.observed.uids)
        self.news: tuple[Scoring, ...] = ()
        self.ended: tuple[PhaseEnded, MancheWon | None, Tied | None] | None = None

    # ------------------------------------------------------ the runtime's view

    spots = SQUARES

    def encoder_choices(self) -> tuple[tuple[int, ...], ...]:
        """The pad, while a card waits there: a push is "no flip" (a discard)."""
        return ((PAD,),) if self.pad is not None else ()

    @property
    def aim(self) -> tuple[int, ...] | None:
        return (PAD,) if self.pad is not None else None

    @property
    def finished(self) -> bool:
        return is_over(self.state)

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change here except the clock."""
        return (
            self.state, self.fault, self.waiting, self.gather, self.pad,
            tuple(sorted(self.lifted)), tuple(sorted(self.order.items())),
            tuple(sorted(self.gone.items())), tuple(sorted(self.observed.uids.items())),
            frozenset(self.observed.silent), tuple(sorted(self.observed.stray.items())),
            tuple(self.held), self.unjudged,
            self.last_change, len(self.events), len(self.history), self.news, self.ended,
        )  # fmt: skip

    def where(self, lang: str = "en") -> str:
        """The status line of the table's web page (and the logs) in `lang`: the manche,
        the phase, what the table waits for and everyone's tokens."""
        state = self.state
        tokens = ", ".join(f"{n} {t}" for n, t in zip(self.names, state.tokens, strict=True))
        if self.finished:
            winners = " & ".join(self.names[s] for s in state.winners)
            return _text("where.over", lang).format(winners=winners, tokens=tokens)
        what = _text("where.turn", lang).format(seat=self.names[state.turn])
        if self.fault is not None:
            reason = _reason(str(self.fault.prompt.say), lang)
            what = _text("where.fault", lang).format(reason=reason)
        elif self.gather:
            what = _text("where.gather", lang)
        elif self.waiting is not None:
            reason = _reason(str(self.waiting.say), lang)
            what = _text("where.waiting", lang).format(reason=reason)
        elif state.stage is Stage.DEAL:
            what = _text("where.deal", lang)
        return _text("where", lang).format(
            manche=state.manche, phase=state.phase, what=what, tokens=tokens
        )

    def result(self) -> dict[str, Any]:
        winners = self.state.winners
        return {
            "game": self.setup.game,
            "events": list(self.events),
            "scores": list(self.state.tokens),
            "winner": winners[0] if len(winners) == 1 else None,
        }

    # ------------------------------------------------------------------ table

    def table_changed(self) -> None:
        """A reader's report changed the table: note when each tag arrived, and which
        squares went empty (a flip lifts the element off its spot)."""
        super().table_changed()
        self.reports += 1
        expected = expected_table(self.state)
        for spot, uids in self.observed.uids.items():
            before = self.last_seen.get(spot, frozenset())
            if uids == before:
                continue
            for uid in sorted(uids - before):
                self.order[uid] = self.gone.pop(uid, self.reports)
            for uid in sorted(before - uids):
                self.gone[uid] = self.order.pop(uid, self.reports)
            if spot != PAD and not uids and expected[spot]:
                self.lifted.add(spot)
            self.last_seen[spot] = uids

    def _card(self, uid: str) -> str | None:
        return self.cards.get(uid)

    def _diffs(self) -> dict[int, Diff]:
        """Every spot (the pad too) that differs from the expected table."""
        expected = expected_table(self.state)
        diffs: dict[int, Diff] = {}
        for spot in SPOTS:
            want = Counter(expected[spot])
            extra: list[str] = []
            uids = sorted(self.observed.uids.get(spot, frozenset()), key=self._arrival)
            for uid in uids:
                card = self.cards.get(uid)
                if card is None:
                    continue  # an unknown tag: a fault of its own
                if want[card] > 0:
                    want[card] -= 1
                else:
                    extra.append(uid)
            missing = tuple(sorted(want.elements()))
            if extra or missing:
                diffs[spot] = Diff(spot, tuple(extra), missing)
        return diffs

    def _arrival(self, uid: str) -> tuple[int, str]:
        return (self.order.get(uid, 0), uid)

    def judge_table(self) -> None:
        try:
            self._judge()
        finally:
            self.gone.clear()

    def judge_stray(self, spot: int) -> None:
        self.gone.clear()
        self._set_fault(FdPrompt.of(FdSay.OFF_MAT, spot=spot))

    def judge_across(self, spots: tuple[int, int]) -> None:
        self.gone.clear()
        self._set_fault(FdPrompt.of(FdSay.ACROSS_SPOTS, spots=spots))

    def _judge(self) -> None:
        silent = sorted(self.observed.silent)
        if silent:
            self._set_fault(FdPrompt.of(FdSay.READER_SILENT, spot=silent[0]))
            return
        for spot in SPOTS:
            if any(uid not in self.cards for uid in self.observed.uids.get(spot, ())):
                self._set_fault(FdPrompt.of(FdSay.UNKNOWN_TAG, spot=spot))
                return
        if self.finished:
            self._fixed()
            return
        if self.gather:
            if any(self.observed.uids.get(spot) for spot in SPOTS):
                self._fixed()  # gathering, one card after the other
                return
            self.gather = False
            self.lifted.clear()
            self.ended = None
        if self.waiting is not None and self._judge_waiting():
            return
        if self.state.stage in (Stage.DEAL, Stage.PLACE_FIRST):
            self._judge_deal()
        else:
            self._judge_play()

    def _judge_waiting(self) -> bool:
        """After back or a restart: the named spots are put back one after the other."""
        assert self.waiting is not None
        spots = set(_ints(self.waiting.get("spots")))
        diffs = self._diffs()
        inside = [d for s, d in diffs.items() if s in spots]
        if not inside:
            self.waiting = None
            return False
        outside = [d for s, d in diffs.items() if s not in spots and s != PAD]
        if outside:
            self._set_fault(_restore(outside))
        else:
            self._fixed()
        return True

    # ------------------------------------------------------------------- deal

    def _judge_deal(self) -> None:
        """FD-2: nine cards face down, one a square, then the face-up card on the centre (or
        on the square the first player chooses). Cards dealt quickly, before the table
        settled, are read in the order they arrived."""
        state = self.state
        diffs = self._diffs()
        self.lifted.clear()
        if PAD in diffs:
            d = diffs[PAD]
            say = FdSay.DEAL_FIRST if d.extra else FdSay.MISSING_TAG
            self._set_fault(FdPrompt.of(say, spot=PAD))
            return
        missing = [d for d in diffs.values() if d.missing]
        if missing:
            self._set_fault(_restore(missing))
            return
        downs: list[tuple[int, str]] = []
        ups: list[tuple[int, tuple[str, ...]]] = []
        for spot, d in sorted(diffs.items()):
            extra = d.extra
            if state.under[spot - 1] is None:
                if len(extra) > 1 and self._arrival(extra[0])[0] == self._arrival(extra[1])[0]:
                    self._set_fault(FdPrompt.of(FdSay.TWO_TAGS, spot=spot))
                    return
                downs.append((spot, extra[0]))
                extra = extra[1:]
            if extra:
                ups.append((spot, extra))
        chosen = state.config.first_element is FirstElement.CHOSEN
        for spot, extra in ups:
            if len(extra) > 1:
                self._set_fault(FdPrompt.of(FdSay.TWO_TAGS, spot=spot))
                return
            if not chosen and spot != CENTRE:
                self._set_fault(FdPrompt.of(FdSay.EXTRA_TAG, spot=spot))
                return
        if len(ups) > 1:
            later = max(ups, key=lambda u: self._arrival(u[1][0]))[0]
            self._set_fault(FdPrompt.of(FdSay.OUT_OF_TURN, spot=later))
            return
        in_play = seen(state)
        moved = [s for s, uid in downs if self.cards[uid] in in_play]
        moved += [s for s, extra in ups if self.cards[extra[0]] in in_play]
        if moved:
            self._set_fault(FdPrompt.of(FdSay.IN_PLAY, spot=min(moved)))
            return
        self._fixed()
        for spot, uid in downs:
            self._step(DealDown(spot, self.cards[uid]))
        if ups and not _undealt(self):  # the later tag: the face-up card
            ((spot, (uid,)),) = ups
            card = self.cards[uid]
            if self.state.stage is Stage.PLACE_FIRST:
                self._step(PlaceFirst(self.state.turn, spot, card))
            else:
                self._step(DealUp(card))

    # ------------------------------------------------------------------- play

    def _judge_play(self) -> None:
        """FD-3: one card a turn, on a face-down card (a build) or on the pad (then a flip
        of one element, or "no flip")."""
        state = self.state
        diffs = self._diffs()
        in_play = seen(state)
        for spot, d in sorted(diffs.items()):  # a card moved from where it lies in play
            if any(self.cards[uid] in in_play for uid in d.extra):
                self._set_fault(FdPrompt.of(FdSay.IN_PLAY, spot=spot))
                return
        pad = diffs.get(PAD)
        if pad is not None and pad.missing:
            self._set_fault(FdPrompt.of(FdSay.MISSING_TAG, spot=PAD))
            return
        pad_extra = pad.extra if pad is not None else ()
        builds: list[tuple[int, str]] = []
        lifting: list[int] = []
        for spot, d in sorted(diffs.items()):
            if spot == PAD:
                continue
            is_element = state.faces[spot - 1] is not None
            if d.extra and d.missing:
                self._set_fault(_restore([d]))
                return
            if d.extra and is_element:
                self._set_fault(FdPrompt.of(FdSay.STACKED, spot=spot))
                return
            if len(d.extra) > 1:
                self._set_fault(FdPrompt.of(FdSay.TWO_TAGS, spot=spot))
                return
            if d.extra:
                builds.append((spot, d.extra[0]))
            else:
                lifting.append(spot)
        fault = self.fault
        if fault is not None and fault.relift:  # a wrong flip: turned back first
            if lifting or not fault.relift <= self.lifted:
                if fault.wrong_flip is not None:  # the stop shown over it is fixed
                    self._set_fault(fault.wrong_flip, relift=sorted(fault.relift))
                return
            self.lifted.clear()
            self._fixed()
        if len(pad_extra) > 1:
            self._set_fault(FdPrompt.of(FdSay.TWO_TAGS, spot=PAD))
            return
        plays = builds + [(PAD, uid) for uid in pad_extra]
        if len(plays) > 1:
            later = max(plays, key=lambda p: self._arrival(p[1]))[0]
            self._set_fault(FdPrompt.of(FdSay.OUT_OF_TURN, spot=later))
            return
        if builds:
            self.pad = None
            if lifting:
                self._set_fault(_restore([diffs[s] for s in lifting]))
                return
            ((spot, uid),) = builds
            self._fixed()
            self._play(Build(state.turn, self.cards[uid], spot))
            return
        if not pad_extra:
            self.pad = None
            if lifting:
                elements = [s for s in lifting if state.faces[s - 1] is not None]
                say = FdSay.DISCARD_FIRST if elements else FdSay.MISSING_TAG
                self._set_fault(FdPrompt.of(say, spot=(elements or lifting)[0]))
                return
            self.lifted.clear()  # a square touched with no card on the pad: no flip
            self._fixed()
            return
        self.pad = self.cards[pad_extra[0]]
        self._fixed()
        if lifting:  # a flip under way: the element is off its spot
            return
        candidates = sorted(self.lifted)
        if not candidates:
            return
        self.lifted.clear()
        if len(candidates) > 1:
            prompt = FdPrompt.of(FdSay.ONE_FLIP, spots=tuple(candidates))
            self._set_fault(prompt, relift=candidates)
            return
        (spot,) = candidates
        if state.faces[spot - 1] is None:
            self._set_fault(FdPrompt.of(FdSay.NOT_ELEMENT, spot=spot), relift=candidates)
        elif state.flipped[spot - 1]:
            self._set_fault(FdPrompt.of(FdSay.FLIPPED_TWICE, spot=spot), relift=candidates)
        else:
            self._play(Flip(state.turn, self.pad, spot))

    # ----------------------------------------------------------------- faults

    def _set_fault(self, prompt: FdPrompt, relift: list[int] | None = None) -> None:
        old = self.fault
        if old is not None and old.prompt == prompt and not relift:
            return
        if relift is None and old is not None and old.relift:  # over a wrong flip: kept
            self.fault = Fault(prompt, old.relift, old.wrong_flip or old.prompt)
        else:
            self.fault = Fault(prompt, frozenset(relift or ()))
        params = dict(prompt.params)
        spot = params.get("spot")
        spots = params.get("spots")
        first = spot if isinstance(spot, int) else (spots[0] if isinstance(spots, tuple) else None)
        self.emit({"kind": "fault", "spot": first, "reason": str(prompt.say)})

    def _fixed(self) -> None:
        if self.fault is not None:
            self.emit({"kind": "fixed"})
            self.fault = None

    # ----------------------------------------------------------------- presses

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """Whose act a phone's press is (`TableReferee.seat_refusal`): the encoder (the
        discard, "no flip") is the seat to play's; `back` takes back only the seat's own
        build or discard."""
        if control == "back":
            last = self.history.last()
            if last is None:
                return None  # nothing to take back: the referee says so
            return None if last[0].turn == seat else Refusal.NOT_YOUR_STEP
        return None if self.state.turn == seat else Refusal.NOT_YOUR_TURN

    def press(self, press: PressInput) -> None:
        control = press.control
        if control == "back":
            self._undo(press)
        elif self.fault is not None or self.waiting is not None or self.gather:
            self.refuse(press, Refusal.TABLE_FIRST)
        elif control == "choose" and _is_discard(press.value):
            state = self.state
            other_seat = press.seat is not None and press.seat != state.turn
            if other_seat or state.stage is not Stage.PLAY or self.pad is None:
                self.refuse(press, Refusal.NOT_NOW)
            elif self._lifting():
                self.refuse(press, Refusal.TABLE_FIRST)
            else:
                self._play(Discard(state.turn, self.pad))
        else:
            self.refuse(press, Refusal.NOT_NOW)

    def _lifting(self) -> bool:
        """A square is short of its cards right now (an element off its spot)."""
        return any(d.missing for s, d in self._diffs().items() if s != PAD)

    def _undo(self, press: PressInput) -> None:
        """`back` takes back a build or a discard that scored nothing; never a flip (it
        showed a face-down card), a scored line or a phase's end, nor anything before."""
        taken = self.history.take_back()
        if isinstance(taken, Refusal):
            self.refuse(press, taken)
            return
        self.state, step = taken
        self.emit({"kind": "undo", "step": step})
        self.fault = None
        self.news = ()
        self.pad = None
        self.lifted.clear()
        wrong = tuple(s for s in self._diffs() if s != PAD)
        self.waiting = FdPrompt.of(FdSay.WAIT_TABLE, spots=wrong) if wrong else None
        if not self.unjudged:
            self.judge()  # at once: the card of an undone discard waits on the pad

    def resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the readers' live table replaces the last one journaled.
        Spots that changed while the companion was down are put back before play goes on."""
        changed = {s for s, uids in record.table.items() if self.observed.uids.get(s) != uids}
        for spot in changed:
            self.observed.uids[spot] = record.table[spot]
        self.emit({"kind": "resume", "changed": sorted(changed)})
        if changed:
            self.table_changed()
            if not self.gather:
                wrong = tuple(sorted(s for s in self._diffs() if s in changed))
                if wrong:
                    self.waiting = FdPrompt.of(FdSay.WAIT_TABLE, spots=wrong)

    # -------------------------------------------------------------------- time

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError("Flip Done has no deadline")

    # ------------------------------------------------------------------ steps

    def _step(self, action: Action) -> tuple[Event, ...]:
        """Apply one engine action and emit its events."""
        try:
            self.state, events = apply(self.state, action)
        except RuleError:  # a table the rules cannot take: put it back
            self._set_fault(FdPrompt.of(FdSay.RESTORE, spots=tuple(sorted(self._diffs()))))
            return ()
        self.log.extend(events)
        for event in events:
            self.emit(event.to_json())
        return events

    def _play(self, action: Build | Flip | Discard) -> None:
        """A play (FD-3) as one undoable step, unless it made a public fact."""
        before = self.state
        events = self._step(action)
        if not events:
            return
        public = isinstance(action, Flip) or any(isinstance(e, PUBLIC) for e in events)
        name = {Build: "build", Flip: "flip", Discard: "discard"}[type(action)]
        self.history.record(before, name, public)
        self.pad = None
        self.lifted.clear()
        self.news = tuple(e for e in events if isinstance(e, Scoring))
        ended = next((e for e in events if isinstance(e, PhaseEnded)), None)
        if ended is not None:
            manche = next((e for e in events if isinstance(e, MancheWon)), None)
            tie = next((e for e in events if isinstance(e, Tied)), None)
            self.ended = (ended, manche, tie)
            self.news = ()
            self.gather = not self.finished

    # ----------------------------------------------------------------- screen

    @property
    def screen(self) -> FdAnyScreen:
        """What the OLED shows now: built from the public view and public events only."""
        view = public_view(self.state)
        names = self.names
        if self.finished:
            over = next(e for e in reversed(self.log) if isinstance(e, GameOver))
            return FdGameOverScreen(view, names, over)
        notice = self.notice_shown()
        if notice is not None:
            return FdNoticeScreen(view, names, notice)
        if self.fault is not None:
            return FdFaultScreen(view, names, self.fault.prompt)
        left = tuple(s for s in SPOTS if self.observed.uids.get(s))
        if self.gather and self.ended is not None and left:
            ended, manche, tie = self.ended
            prompt = FdPrompt.of(FdSay.GATHER, spots=left)
            return FdPhaseEndScreen(view, names, ended, manche, tie, prompt)
        pad = self.pad is not None
        return FdBoardScreen(view, names, self._prompt(), pad, self.news)

    def _prompt(self) -> FdPrompt:
        state = self.state
        if self.waiting is not None:
            return self.waiting
        if state.stage is Stage.DEAL:
            left = len(_undealt(self))
            return FdPrompt.of(FdSay.DEAL_DOWN, n=left) if left else FdPrompt.of(FdSay.DEAL_UP)
        if state.stage is Stage.PLACE_FIRST:
            return FdPrompt.of(FdSay.PLACE_FIRST, seat=state.turn)
        if self.pad is not None:
            view = public_view(state)  # how many cards each square holds is public
            off = [
                sq
                for sq in range(1, SQUARES + 1)
                if len(self.observed.uids.get(sq, ()))
                < view.dealt[sq - 1] + (view.faces[sq - 1] is not None)
            ]
            if off:
                return FdPrompt.of(FdSay.TURNING, seat=state.turn, spot=off[0])
            return FdPrompt.of(FdSay.PAD, seat=state.turn)
        return FdPrompt.of(FdSay.PLAY, seat=state.turn)


def expected_table(state: State) -> dict[int, tuple[str, ...]]:
    """What each spot should hold: a square its face-down card and its face-up card, the
    pad the cards discarded this phase."""
    table: dict[int, tuple[str, ...]] = {PAD: tuple(sorted(state.discards))}
    for square in range(1, SQUARES + 1):
        cards = (state.under[square - 1], state.faces[square - 1])
        table[square] = tuple(c for c in cards if c is not None)
    return table


def _undealt(referee: FlipDoneReferee) -> list[int]:
    return [sq for sq in range(1, SQUARES + 1) if referee.state.under[sq - 1] is None]


def _restore(diffs: list[Diff]) -> FdPrompt:
    """The fix for spots that differ: one spot says what kind of difference it is."""
    if len(diffs) > 1:
        return FdPrompt.of(FdSay.RESTORE, spots=tuple(d.spot for d in diffs))
    (d,) = diffs
    if d.extra and not d.missing:
        return FdPrompt.of(FdSay.EXTRA_TAG, spot=d.spot)
    if d.missing and not d.extra:
        return FdPrompt.of(FdSay.MISSING_TAG, spot=d.spot)
    return FdPrompt.of(FdSay.RESTORE, spots=(d.spot,))


def _ints(value: object) -> tuple[int, ...]:
    if isinstance(value, tuple):
        return tuple(int(v) for v in value)
    return (int(value),) if isinstance(value, int) else ()


def _is_discard(value: object) -> bool:
    """The encoder's "no flip": the word, or the pad it points at while a card waits."""
    if isinstance(value, str):
        return value in DISCARD_VALUES
    if isinstance(value, list | tuple):
        return list(value) == [PAD]
    return False


# ----------------------------------------------------------------- transcript

_OWN_KINDS = frozenset(
    ("dealt_down", "phase_start", "first_element", "build", "flip", "discard", "line_made",
     "line_broken", "line_held", "line_lost", "phase_end", "tie", "tie_stands", "game_over")
)  # fmt: skip
_OWN_FAULTS = frozenset(str(say) for say in FdSay) - {
    "extra_tag", "missing_tag", "unknown_tag", "two_tags", "reader_silent", "across_spots",
    "off_mat", "restore"
}  # fmt: skip


def _text(key: str, lang: str) -> str:
    """The template `key` in `lang` ("en" or "fr"; anything else is a ValueError)."""
    return TEXTS[check_lang(lang)][key]


def _reason(say: str, lang: str) -> str:
    """A stop's reason in `lang`, as the OLED says it (the status line)."""
    return REASONS[check_lang(lang)].get(say, say.replace("_", " "))


def _logged_reason(say: str, lang: str) -> str:
    """A stop's reason in a transcript line: its key in English, as the logs and replays
    always showed it; the OLED's words in French."""
    return _reason(say, lang) if lang == "fr" else say.replace("_", " ")


def _line_name(line: int, lang: str) -> str:
    """A line (FD-4) in words: "row 2", "column 1", "diagonal 1-5-9" ("la rangée 2"...)."""
    spec = LINES[line]
    if spec.diagonal:
        squares = "-".join(map(str, spec.squares))
        return _text("word.line.diagonal", lang).format(squares=squares)
    kind, n = spec.name.split()
    return _text(f"word.line.{kind}", lang).format(n=n)


def _fields(event: Mapping[str, Any], names: Sequence[str], lang: str) -> dict[str, object]:
    """The event's fields made readable for its line, the same for every language but the
    words: seats by name, a line by its name, lists joined, a fault's reason and place."""

    def name(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def joined(seats: Sequence[int]) -> str:
        return _text("word.and", lang).join(names[s] for s in seats if 0 <= s < len(names))

    fields: dict[str, object] = {**event, "seat": name(event.get("seat"))}
    fields["owner"] = name(event.get("owner"))
    fields["first"] = name(event.get("first"))
    if "line" in event:
        fields["line"] = _line_name(event["line"], lang)
    for key in ("card", "shown", "hidden"):
        if isinstance(event.get(key), str):
            fields[key] = card_text(event[key], check_lang(lang))
    if "cards_left" in event:
        fields["cards_left"] = ", ".join(
            _text("word.seat_count", lang).format(seat=seat, n=n)
            for seat, n in zip(names, event["cards_left"], strict=False)
        )
    if "extra" in event:  # a phase played to break a tie (FD-10)
        fields["extra"] = _text("word.tie_break", lang) if event["extra"] else ""
    if "overtime" in event:
        fields["what"] = _text("word.game" if event["overtime"] else "word.manche", lang)
    for key in ("seats", "winners"):
        if key in event:
            fields[key] = joined(event[key])
    if "tokens" in event:
        fields["tokens"] = ", ".join(
            f"{n} {t}" for n, t in zip(names, event["tokens"], strict=False)
        )
    if "gains" in event:
        fields["gains"] = ", ".join(
            _text("word.seat_count", lang).format(seat=seat, n=n)
            for seat, n in zip(names, event["gains"], strict=False)
        )
    if "paid" in event:
        fields["paid"] = sum(event["paid"])
    if "reason" in event:
        fields["reason"] = _logged_reason(str(event["reason"]), lang)
        spot = event.get("spot")
        place = _text("word.spot", lang).format(spot=spot)
        fields["place"] = _text("word.pad", lang) if spot == 0 else place
    return fields


def describe(event: Mapping[str, Any], names: Sequence[str], lang: str = "en") -> str | None:
    """One readable line for a Flip Done event in `lang` ("en": `companion replay`,
    `companion demo`; "fr": the table's web page), or None for an event that is not Flip
    Done's own (the shared lines of `companion/transcript.py` tell those)."""
    kind = event["kind"]
    if kind == "manche_won":
        own = "gains" in event
    elif kind == "fault":
        own = event.get("reason") in _OWN_FAULTS
    else:
        own = kind in _OWN_KINDS and kind != "dealt_down"  # a face-down card: no line
    if not own:
        return None
    key = kind
    if kind == "first_element" and event["seat"] is None:
        key = "first_element.centre"
    return _text(key, lang).format(**_fields(event, names, lang))
