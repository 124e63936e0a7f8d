"""The PtiPassPass / PhiPassPass referee: physical facts in, engine actions and screens out.

It owns no clock and no device: inputs (reader contents, presses, ticks, each with its
time `t`) come in one at a time, exactly as the journal records them, and time passes
before each is applied (`companion/referee/pace.py`), so a live game and a replay of its
journal are the same computation whatever ticks were recorded.

How a table maps to actions (docs/table.md): a token dropped into a hat is the designation,
the announce button the announcement, the seat buttons the calls; a slide of two hats is
the swap; the encoder's confirmed line is the reveal. The referee keeps the EXPECTED
table (the engine's hats, plus the token in flight which a real table has already
dropped) and judges the OBSERVED one only once it has been still for `settle` seconds.
A difference it cannot read as the move the rules expect now is a fault, never a move;
play resumes when the table matches again. After a verdict it waits for the players to
carry out the physical instruction before it takes the next move.

People's pace (docs/table.md): the announcement may come before the drop, with it or after
it, and the window opens once both are in; a Doublon pressed after the drop but before the
window opens counts from the opening; PhiPassPass's window 1 (PHI-2) closes when the
announcement comes in, no sooner than `doublon_min` after the drop; a press that cannot
count is journaled as `ignored` and shown on the OLED for a moment. Undo never takes back
a public fact (a verdict, a closed window, a reveal, a manche result) nor anything before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.cli_words import said
from companion.games import Aiming, Announcing
from companion.games.passpass.facts import PHIPASSPASS as PHIPASSPASS_FACTS
from companion.games.passpass.facts import PTIPASSPASS as PTIPASSPASS_FACTS
from companion.games.passpass.prompt import Prompt, Say, fix
from companion.games.passpass.rule_settings import (
    CLOCK_KEYS,
    VARIANT_KEYS,
    engine_rules,
    wrong_rule,
)
from companion.games.passpass.rules import (
    RULESETS,
    Action,
    Announce,
    Call,
    Challenge,
    CloseWindow,
    Designate,
    Event,
    GameWon,
    MancheVoid,
    MancheWon,
    Phase,
    Placed,
    Reveal,
    Revealed,
    RewardDrop,
    RewardToken,
    State,
    Swap,
    Verdict,
    WindowMode,
    apply,
    clockwise_first,
    is_over,
    legal_actions,
    make_config,
    new_game,
    public_view,
)
from companion.games.passpass.rules.layouts import LayoutError
from companion.games.passpass.screens import (
    CountdownScreen,
    FaultScreen,
    GameWonScreen,
    InstructionScreen,
    MancheWonScreen,
    NoticeScreen,
    RevealMapScreen,
    RevealMissScreen,
    Screen,
    StatusScreen,
    VerdictScreen,
)
from companion.games.passpass.table_settings import layout_refused, table_settings
from companion.games.passpass.transcript import ENGINE_WORDS, line
from companion.games.passpass.words import PassPassRefusal
from companion.games.passpass.words import say as say_text
from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import (
    NOTICE_SECONDS,
    PacedReferee,
    SetupError,
    check_first,
    listed,
    raise_wrong,
    refused,
    rules_over,
    typed,
    wrong_players,
)
from companion.referee.table import Kinds, SpotDiff, TagKinds, compare, exchanged
from companion.referee.undo import UndoHistory
from companion.rules.errors import RuleError
from companion.screens.model import Refusal
from companion.transcript import engine_word

CALL_GRACE = 0.3
"""Calls within 300 ms of the first are settled clockwise from the Magicien's left
(PTI-7 timed mode, PHI-2)."""

SHOW_SECONDS = 5.0
"""How long a failed reveal's hats, or a won manche, stay on the OLED before the
instruction that follows."""

BARRIERS = (Verdict, Placed, Revealed, MancheWon, MancheVoid, GameWon)
"""Public facts: undo never takes back the step that made one, nor anything before it."""

__all__ = ["CALL_GRACE", "NOTICE_SECONDS", "SHOW_SECONDS", "PassPassReferee", "SetupError",
           "expected_table"]  # fmt: skip

STEP_NAMES = {
    Designate: "designate",
    Announce: "announce",
    Swap: "swap",
    RewardDrop: "reward",
    RewardToken: "reward",
}


@dataclass(frozen=True, slots=True)
class Pending:
    """A physical instruction the table must carry out; `spots` are the hats it concerns,
    so a difference there is progress, not a fault."""

    prompt: Prompt
    spots: frozenset[int]


@dataclass(frozen=True, slots=True)
class HeldCall:
    """A call pressed at `t`; it counts from the window's opening if pressed before."""

    t: float
    seat: int
    challenge: Challenge


TITLES = {facts.name: facts.title for facts in (PTIPASSPASS_FACTS, PHIPASSPASS_FACTS)}
"""Each edition's title, as a refusal names it."""


class PassPassReferee(PacedReferee, Announcing, Aiming):
    """Feed it inputs in time order; read `screen` and the events it returns."""

    def __init__(self, setup: Setup) -> None:
        try:
            # the table settings come from [game], so a refusal names only the engine's
            own = {k: v for k, v in (setup.rules or {}).items() if k not in CLOCK_KEYS}
            variants = rules_over(replace(setup, rules=own), None, VARIANT_KEYS, TITLES[setup.game])
            raise_wrong(wrong_rule(variants))
            if variants.get("window", WindowMode.TIMED) != WindowMode.TIMED:
                raise refused("passpass.setup.round_window", value=typed(variants["window"]))
            self.settings = table_settings(setup)
            _check_players(setup)
            check_first(setup)
            config = make_config(
                setup.game, len(setup.seats), layout=self.settings.layout, first=setup.first,
                **(engine_rules(variants) | {"window": WindowMode.TIMED}),
            )  # fmt: skip
        except SetupError:
            raise
        except (RuleError, ValueError) as exc:  # the engine's: an own layout it cannot play
            layout = exc if isinstance(exc, LayoutError) else exc.__cause__
            if isinstance(layout, LayoutError):
                raise layout_refused(layout) from exc
            raise SetupError(str(exc)) from exc
        _check_tags(setup.tags, config.rules.tokens)
        super().__init__(setup.t, config.layout.spots, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.tag_kinds = TagKinds(setup.tags)
        self.state: State = new_game(config, setup.seed)[0]
        self.history: UndoHistory[State] = UndoHistory()
        self.matched: dict[int, frozenset[str]] = dict(self.observed.uids)
        """The readers' UIDs when the table last matched the expected one."""
        self.window_opened = setup.t
        self.calls: list[HeldCall] = []
        """Calls of the open window, in the order pressed (each at most once a seat)."""
        self.early_doublons: list[HeldCall] = []
        """PTI-7: Doublons pressed after the drop but before the announcement."""
        self.announcement: tuple[float, str] | None = None
        """An announce pressed before it can apply: before the drop, or (PHI-2) sooner than
        `doublon_min` after it. (time pressed, token)"""
        self.pending: Pending | None = None
        self.fault: Prompt | None = None
        self.verdict: Verdict | None = None
        self.celebration: tuple[float, Revealed] | None = None
        self.missed: tuple[float, Revealed] | None = None
        self.aimed: tuple[int, int, int] | None = None
        self.log: list[Event] = []
        """The engine's events so far (all public), for bots seated at a simulated table."""

    def resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the readers' live table replaces the last one journaled.
        Hats that changed while the companion was down are guided back to the expected
        table before any move is read; an unchanged table just goes on."""
        changed = {s for s, uids in record.table.items() if self.observed.uids.get(s) != uids}
        for spot in changed:
            self.observed.uids[spot] = record.table[spot]
        self.emit({"kind": "resume", "changed": sorted(changed)})
        if changed:
            self.table_changed()
            wrong = tuple(sorted(d.spot for d in self._diffs()))
            if wrong:
                self.pending = Pending(Prompt.of(Say.WAIT_TABLE, spots=wrong), frozenset(wrong))

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change here except the clock: a tick that leaves it
        alone changed nothing a later input depends on, so a live loop need not journal
        it (the countdown on the screen is drawn from the clock, not from here)."""
        return (
            self.state, self.fault, self.pending, self.verdict, self.celebration, self.aimed,
            tuple(sorted(self.matched.items())), tuple(sorted(self.observed.uids.items())),
            frozenset(self.observed.silent), tuple(sorted(self.observed.stray.items())),
            tuple(self.calls), tuple(self.early_doublons),
            self.announcement, tuple(self.held), self.unjudged, self.window_opened,
            self.last_change, len(self.events), len(self.history),
        )  # fmt: skip

    @property
    def finished(self) -> bool:
        return is_over(self.state)

    # ------------------------------------------------------ the runtime's view

    @property
    def spots(self) -> int:
        return self.state.config.layout.spots

    @property
    def announce_values(self) -> tuple[str, ...]:
        return self.state.config.rules.tokens

    def encoder_choices(self) -> tuple[tuple[int, ...], ...]:
        """The lines, while the Magicien chooses one to reveal."""
        if self.state.phase is not Phase.REVEAL:
            return ()
        return tuple(self.state.config.layout.lines)

    @property
    def aim(self) -> tuple[int, ...] | None:
        """The line the encoder aims at, while revealing."""
        return self.aimed

    def where(self, lang: str = "en") -> str:
        """Where the game stands, in one line, in `lang`: for the log and the systemd status
        (English) and the table's web page (its language); a fault or an instruction is the
        OLED's own sentence."""
        state = self.state
        names = self.names

        def told(prompt: Prompt) -> str:
            """A prompt, as the OLED says it."""
            return say_text(prompt, names, lang, view=public_view(state)).removesuffix(".")

        score = ", ".join(f"{n} {v}" for n, v in zip(names, state.victories, strict=False))
        if self.finished:
            winner = names[state.winner] if state.winner is not None else "?"
            return line("where.over", lang, winner=winner, score=score)
        what = engine_word("phase", str(state.phase), lang, ENGINE_WORDS)
        if self.fault is not None:
            what = line("where.stopped", lang, prompt=told(self.fault))
        elif self.pending is not None:
            what = line("where.waiting", lang, prompt=told(self.pending.prompt))
        magician = names[state.magician]
        return line("where.play", lang, manche=state.manche, s=magician, what=what, score=score)

    # ----------------------------------------------------------------- presses

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """Whose act a phone's press is (`TableReferee.seat_refusal`): Doublon and Menteur
        are the seat's own buttons; the console (the announce buttons, the encoder) is the
        Magicien's, and the challenger's for taking a Challenge token as the reward;
        `back` takes back only the seat's own step (an announcement, a placement and a
        swap are the Magicien's, a reward the challenger's)."""
        state = self.state
        if control in ("doublon", "menteur"):
            return None
        if control == "back":
            last = self.history.last()
            if self.announcement is not None:
                owner: int | None = state.magician
            elif last is None:
                return None  # nothing to take back: the referee says so
            else:
                before, step = last
                owner = before.challenger if step == "reward" else before.magician
            return None if owner == seat else Refusal.NOT_YOUR_STEP
        rewarded = state.phase is Phase.REWARD and control == "choose"
        owner = state.challenger if rewarded else state.magician
        return None if owner == seat else Refusal.NOT_YOUR_TURN

    def press(self, press: PressInput) -> None:
        state = self.state
        control = press.control
        if control == "back":
            self._undo(press)
        elif self.fault is not None or self.pending is not None:
            self.refuse(press, Refusal.TABLE_FIRST)
        elif control == "announce":
            self._announce(press)
        elif state.phase is Phase.REWARD and (
            (control == "doublon" and press.seat == state.challenger)
            or (control == "choose" and press.value == "token")
        ):
            assert state.challenger is not None
            self._try(RewardToken(state.challenger), press)
        elif control in ("doublon", "menteur"):
            self._call(press, Challenge(control))
        elif control == "aim" and state.phase is Phase.REVEAL:
            self.aimed = _line(press.value)
        elif control == "choose" and state.phase is Phase.REVEAL:
            line = _line(press.value)
            if line is None or not state.config.layout.is_line(line):
                self.refuse(press, PassPassRefusal.NOT_A_LINE)
            else:
                self._try(Reveal(state.magician, line), press)
        else:
            self.refuse(press, Refusal.NOT_NOW)

    def _announce(self, press: PressInput) -> None:
        """The announcement may come before the drop, with it or after it (docs/table.md): the
        window opens once both are in. PHI-2: it closes window 1, but no sooner than
        `doublon_min` after the drop."""
        state = self.state
        token = str(press.value).split(":", 1)[-1]
        if token not in state.config.rules.tokens:
            self.refuse(press, Refusal.NOT_NOW)
        elif not state.masque and state.phase in (Phase.PLACE, Phase.WINDOW):
            self.refuse(press, PassPassRefusal.VISIBLE_TURN)
        elif state.phase is Phase.PLACE or self._window_one():
            self.announcement = (press.t, token)  # held: applied by the drop or the clock
            if state.phase is Phase.PLACE:
                self.emit(
                    {"kind": "held", "seat": state.magician, "control": "announce", "value": token}
                )
        elif state.phase is Phase.ANNOUNCE:
            self._try(Announce(state.magician, token), press)
        else:
            self.refuse(press, Refusal.NOT_NOW)

    def _call(self, press: PressInput, challenge: Challenge) -> None:
        state = self.state
        seat = press.seat
        if state.phase not in (Phase.WINDOW, Phase.ANNOUNCE):
            self.refuse(press, Refusal.NOT_NOW)
        elif seat is None or not 0 <= seat < state.config.players:
            self.refuse(press, Refusal.NOT_SEATED)
        elif seat == state.magician:
            self.refuse(press, PassPassRefusal.MAGICIAN)
        elif state.config.rules.challenge_tokens and state.challenge_tokens[seat] == 0:
            self.refuse(press, PassPassRefusal.NO_TOKEN)
        elif any(c.seat == seat for c in (*self.calls, *self.early_doublons)):
            self.refuse(press, Refusal.ALREADY_CALLED)
        elif state.phase is Phase.ANNOUNCE:  # PTI-7: the drop is in, the announcement not
            if challenge is Challenge.MENTEUR:
                self.refuse(press, PassPassRefusal.NO_ANNOUNCEMENT)
            else:
                self.early_doublons.append(HeldCall(press.t, seat, challenge))
        elif challenge not in state.open_challenges:
            split = state.config.rules.split_windows
            why = PassPassRefusal.WRONG_WINDOW if split else PassPassRefusal.VISIBLE_TURN
            self.refuse(press, why)
        else:
            self.calls.append(HeldCall(max(press.t, self.window_opened), seat, challenge))

    def _try(self, action: Action, press: PressInput) -> None:
        try:
            self._step(action)
        except RuleError:
            self.refuse(press, Refusal.NOT_NOW)

    def _undo(self, press: PressInput) -> None:
        """`back` takes back a step that revealed nothing, never a public fact nor anything
        before it (docs/table.md, "Undo"); the table is then guided back to the state before."""
        if self.announcement is not None:
            self.announcement = None
            self.emit({"kind": "undo", "step": "announce"})
            return
        redo_placement = self.fault is not None and self.fault.say is Say.DESIGNATED_GONE
        step = ""
        while step != "designate":
            taken = self.history.take_back()
            if isinstance(taken, Refusal):
                if not step:
                    self.refuse(press, taken)
                    return
                break
            self.state, step = taken
            self.emit({"kind": "undo", "step": step})
            if not redo_placement:  # the fault's fix takes back the whole placement
                break
        self.calls = []
        self.early_doublons = []
        self.verdict = self.celebration = self.missed = self.aimed = None
        self.fault = None
        self.window_opened = self.now
        wrong = tuple(sorted(d.spot for d in self._diffs()))
        self.pending = (
            Pending(Prompt.of(Say.WAIT_TABLE, spots=wrong), frozenset(wrong)) if wrong else None
        )

    # -------------------------------------------------------------------- time

    def _window_one(self) -> bool:
        """PHI-2's window 1: Doublon only, until the announcement."""
        state = self.state
        return state.phase is Phase.WINDOW and state.announced is None

    def deadline(self) -> float | None:
        if self.fault is not None or self.pending is not None:
            return None
        if self.state.phase is not Phase.WINDOW:
            return None
        if self.calls:
            return self.calls[0].t + CALL_GRACE
        if self._window_one():
            if self.announcement is None:
                return None  # PHI-2: window 1 lasts until the announcement
            return max(self.announcement[0], self.window_opened + self.settings.doublon_min)
        return self.window_opened + self.settings.window

    def on_deadline(self) -> None:
        if self.calls:
            self._settle_calls()
        elif self._window_one():
            assert self.announcement is not None
            token = self.announcement[1]
            self.announcement = None
            self._step(CloseWindow(), Announce(self.state.magician, token))
        else:
            self._step(CloseWindow())

    def _settle_calls(self) -> None:
        """The calls within the grace of the first are settled clockwise from the
        Magicien's left (PTI-7, PHI-2); a later one came after the verdict."""
        last = self.calls[0].t + CALL_GRACE
        together = [c for c in self.calls if c.t <= last]
        late = [c for c in self.calls if c.t > last]
        seat = clockwise_first(self.state, [c.seat for c in together])
        call = next(c for c in together if c.seat == seat)
        self.calls = []
        seats = sorted({c.seat for c in together})
        if len(seats) > 1:  # journaled: who was beaten to it (companion report counts it)
            self.emit({"kind": "calls_together", "seats": seats, "counted": seat})
        self._step(Call(seat, call.challenge))
        for c in late:
            self.refuse(PressInput(c.t, str(c.challenge), c.seat), Refusal.NOT_NOW)

    # ------------------------------------------------------------------ table

    def expected(self) -> list[Kinds]:
        return expected_table(self.state)

    def _diffs(self) -> list[SpotDiff]:
        return compare(self.observed, self.expected(), self.tag_kinds)

    def judge_table(self) -> None:
        silent = sorted(s for s in self.observed.silent if s >= 1)
        if silent:
            self._set_fault(Prompt.of(Say.READER_SILENT, spot=silent[0]), silent[0])
            return
        diffs = self._diffs()
        pending = self.pending
        if pending is not None and diffs:
            inside = [d for d in diffs if d.spot in pending.spots and not d.unknown]
            if len(inside) == len(diffs):  # progress on the instruction
                self._fixed()
                return
            if inside:
                outside = [d for d in diffs if d not in inside]
                self._set_fault(fix(outside), outside[0].spot)
                return
            # The instruction is carried out and the next move is already made.
            self._instruction_done()
        if not diffs:
            swap = self._quiet_swap()
            if swap is not None:
                self._take(swap)
                return
            self.matched = dict(self.observed.uids)
            if self.fault is not None and self.state.phase is Phase.WINDOW:
                self.window_opened = self.now  # the window starts again on a still table
            self._fixed()
            self._instruction_done()
            return
        move = self._move(diffs)
        if move is not None:
            self._take(move)
            return
        self._set_fault(self._move_fault(diffs) or fix(diffs), diffs[0].spot)

    def judge_stray(self, spot: int) -> None:
        self._set_fault(Prompt.of(Say.OFF_MAT, spot=spot), spot)

    def judge_across(self, spots: tuple[int, int]) -> None:
        self._set_fault(Prompt.of(Say.ACROSS_SPOTS, spots=spots), spots[0])

    def _fixed(self) -> None:
        if self.fault is not None:
            self.emit({"kind": "fixed"})
            self.fault = None

    def _instruction_done(self) -> None:
        self.pending = self.verdict = self.celebration = None

    def _move(self, diffs: list[SpotDiff]) -> Action | None:
        """The one legal move that explains the change, or None."""
        state = self.state
        action: Action | None = None
        if state.phase in (Phase.PLACE, Phase.REWARD) and len(diffs) == 1:
            d = diffs[0]
            if len(d.extra) == 1 and not d.missing and not d.unknown:
                if state.phase is Phase.PLACE:
                    action = Designate(state.magician, d.spot, d.extra[0])
                else:
                    assert state.challenger is not None
                    action = RewardDrop(state.challenger, d.extra[0], d.spot)
        elif state.phase is Phase.REVEAL:
            pair = exchanged(diffs)
            action = None if pair is None else Swap(state.magician, *pair)
        return action if action in legal_actions(state) else None

    def _quiet_swap(self) -> Action | None:
        """A swap of two hats holding the same kinds changes no kind, but the tags moved:
        two spots whose UIDs exchanged since the table last matched."""
        if self.state.phase is not Phase.REVEAL or self.pending is not None:
            return None
        moved = [s for s, uids in self.observed.uids.items() if self.matched.get(s) != uids]
        if len(moved) != 2:
            return None
        a, b = moved
        if self.observed.uids[a] != self.matched.get(b) or not self.observed.uids[a]:
            return None
        action = Swap(self.state.magician, a, b)
        return action if action in legal_actions(self.state) else None

    def _take(self, move: Action) -> None:
        """A move read from the table. It also ends a fault the players fixed by making
        it (one of two tags dropped at once taken out again)."""
        self._fixed()
        self._step(move)

    def _move_fault(self, diffs: list[SpotDiff]) -> Prompt | None:
        """A fault that names the rule the attempted move broke, when there was one."""
        state = self.state
        d = diffs[0]
        if len(diffs) == 1 and state.phase in (Phase.PLACE, Phase.REWARD) and not d.missing:
            if len(d.extra) > 1:
                return Prompt.of(Say.TWO_TAGS, spot=d.spot)
            if len(d.extra) == 1 and not d.unknown:
                seat = state.magician if state.phase is Phase.PLACE else state.challenger
                assert seat is not None
                return Prompt.of(Say.NOT_YOURS, spot=d.spot, seat=seat)
        if (
            len(diffs) == 1
            and state.phase in (Phase.ANNOUNCE, Phase.WINDOW)
            and d.spot == state.spot
            and d.missing
            and not d.extra
            and not d.unknown
        ):
            return Prompt.of(Say.DESIGNATED_GONE, spot=d.spot)
        pair = exchanged(diffs)
        if state.phase is Phase.REVEAL and pair is not None:
            if state.swapped is None:
                return Prompt.of(Say.NOT_CONTIGUOUS, a=pair[0], b=pair[1])
            return Prompt.of(Say.ONE_SWAP, a=pair[0], b=pair[1])
        return None

    def _set_fault(self, prompt: Prompt, spot: int | None) -> None:
        if prompt != self.fault:
            self.fault = prompt
            self.emit({"kind": "fault", "spot": spot, "reason": str(prompt.say)})

    # ------------------------------------------------------------------ steps

    def _step(self, *actions: Action) -> None:
        """Apply engine actions as one step and set up what the table must do next. A
        step that makes a public fact seals everything before it against undo."""
        before = self.state
        self.missed = None
        made: list[Event] = []
        for action in actions:
            self.state, events = apply(self.state, action)
            made.extend(events)
        public = any(isinstance(e, BARRIERS) for e in made)
        self.history.record(before, STEP_NAMES.get(type(actions[-1]), "step"), public)
        self.aimed = None
        self.matched = dict(self.observed.uids)
        self.log.extend(made)
        for event in made:
            self.emit(event.to_json())
        self._consequences(made)
        self._after_step()

    def _after_step(self) -> None:
        """What the new phase does with presses held for it: an announcement made before
        the drop (PTI), Doublons pressed before the window opened (PTI-7)."""
        state = self.state
        if state.phase is Phase.ANNOUNCE and self.announcement is not None:
            token = self.announcement[1]
            self.announcement = None
            self._step(Announce(state.magician, token))
            return
        if state.phase is Phase.WINDOW:
            self.window_opened = self.now
            self.calls = [HeldCall(self.now, c.seat, c.challenge) for c in self.early_doublons]
            self.early_doublons = []
        elif state.phase is not Phase.ANNOUNCE:
            self.early_doublons = []
            if state.phase is not Phase.PLACE:
                self.announcement = None

    def _consequences(self, events: Iterable[Event]) -> None:
        spots = frozenset(range(1, self.state.config.layout.spots + 1))
        for e in events:
            if isinstance(e, Verdict):
                self.verdict = e
                self.pending = Pending(_verdict_prompt(e, self.state), frozenset((e.spot,)))
            elif isinstance(e, Revealed):
                if e.success:
                    self.celebration = (self.now, e)
                else:
                    self.missed = (self.now, e)
            elif isinstance(e, MancheWon) and not is_over(self.state):
                self.pending = Pending(Prompt.of(Say.CLEAR_TABLE), spots)
            elif isinstance(e, MancheVoid):
                self.pending = Pending(Prompt.of(Say.VOID), spots)

    # ----------------------------------------------------------------- screen

    @property
    def screen(self) -> Screen:
        """What the OLED shows now: built from the public view and public events only."""
        view = public_view(self.state)
        names = self.names
        state = self.state
        now = self.now
        if is_over(state):
            assert state.winner is not None
            return GameWonScreen(view, names, state.winner)
        notice = self.notice_shown()
        if notice is not None:
            return NoticeScreen(view, names, notice)
        if self.fault is not None:
            return FaultScreen(view, names, self.fault)
        if self.pending is not None:
            if self.celebration is not None and now < self.celebration[0] + SHOW_SECONDS:
                c = self.celebration[1]
                return MancheWonScreen(view, names, c.seat, c.pick or (), c.spots)
            if self.verdict is not None:
                return VerdictScreen(view, names, self.verdict, self.pending.prompt)
            return InstructionScreen(view, names, self.pending.prompt)
        if self.missed is not None and now < self.missed[0] + SHOW_SECONDS:
            m = self.missed[1]
            return RevealMissScreen(view, names, m.seat, m.spots, m.hats)
        if state.phase is Phase.WINDOW:
            if self._window_one():
                total = self.settings.doublon_min
                due = self.deadline()
                remaining = total if due is None else max(0.0, due - now)
                return CountdownScreen(view, names, min(remaining, total), total)
            total = self.settings.window
            remaining = max(0.0, self.window_opened + total - now)
            return CountdownScreen(view, names, remaining, total)
        if state.phase is Phase.REVEAL:
            positions = state.config.layout.positions
            return RevealMapScreen(view, names, positions, self.aimed, state.swapped)
        return StatusScreen(view, names, self._status_prompt())

    def _status_prompt(self) -> Prompt:
        state = self.state
        if state.phase is Phase.PLACE and self.announcement is not None:
            return Prompt.of(Say.PLACE_ANNOUNCED, seat=state.magician, token=self.announcement[1])
        return _status_prompt(state)

    def result(self) -> dict[str, Any]:
        """The replay document (docs/journal.md)."""
        return {
            "game": self.setup.game,
            "events": list(self.events),
            "scores": list(self.state.victories),
            "winner": self.state.winner,
        }


def expected_table(state: State) -> list[Kinds]:
    """The engine's hats, plus the token in flight: on a real table it is already in the
    designated hat (drop first, then the window: docs/table.md)."""
    hats = list(state.hats)
    if state.holding is not None and state.spot is not None:
        i = state.spot - 1
        hats[i] = tuple(sorted((*hats[i], state.holding)))
    return hats


def _status_prompt(state: State) -> Prompt:
    if state.phase is Phase.ANNOUNCE:
        return Prompt.of(Say.ANNOUNCE, seat=state.magician)
    if state.phase is Phase.REWARD:
        assert state.challenger is not None
        can_take = state.challenge_tokens[state.magician] > 0
        return Prompt.of(Say.REWARD, seat=state.challenger, token=can_take)
    return Prompt.of(Say.PLACE, seat=state.magician)


def _verdict_prompt(v: Verdict, after: State) -> Prompt:
    """The physical instruction of docs/table.md for a settled challenge."""
    if v.success and v.challenge is Challenge.DOUBLON:
        return Prompt.of(Say.TAKE_BACK_HAT, seat=v.magician, spot=v.spot)
    if v.success:
        return Prompt.of(Say.KEEP_TOKEN, seat=v.magician, spot=v.spot)
    tokens = after.config.rules.challenge_tokens > 0
    return Prompt.of(Say.GIVE_TOKEN, seat=v.magician, to=v.seat, spot=v.spot, tokens=tokens)


def _line(value: Any) -> tuple[int, int, int] | None:
    """A line of three spots as the encoder sends it, `[4, 5, 6]`; None for anything else
    (the string "456", floats, booleans: never read as spots)."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    a, b, c = value
    return (a, b, c)


def _check_tags(tags: Mapping[str, str], tokens: tuple[str, ...]) -> None:
    bad = sorted({kind for kind in tags.values() if kind.split(":", 1)[-1] not in tokens})
    if bad:
        raise refused("passpass.setup.tags", kinds=listed(bad), tokens=listed(tokens))


def _check_players(setup: Setup) -> None:
    rules = RULESETS[setup.game]
    if not rules.min_players <= len(setup.seats) <= rules.max_players:
        players = said("cli.players.range", low=rules.min_players, high=rules.max_players)
        raise wrong_players(TITLES[setup.game], players, len(setup.seats))
