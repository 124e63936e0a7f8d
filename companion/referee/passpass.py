"""The PtiPassPass / PhiPassPass referee: physical facts in, engine actions and screens out.

It owns no clock and no device: inputs (reader contents, presses, ticks, each with its
time `t`) come in one at a time, exactly as the journal records them, so a live game and
a replay of its journal are the same computation (ARCHITECTURE.md, "Threads and time").

How a table maps to actions (TABLE.md): a token dropped into a hat is the designation,
the announce button the announcement, the seat buttons the calls; a slide of two hats is
the swap; the encoder's confirmed line is the reveal. The referee keeps the EXPECTED
table (the engine's hats, plus the token in flight which a real table has already
dropped) and judges the OBSERVED one only once it has been still for `settle` seconds.
A difference it cannot read as the move the rules expect now is a fault, never a move;
play resumes when the table matches again. After a verdict it waits for the players to
carry out the physical instruction before it takes the next move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.journal import Input, PressInput, ReaderInput, ResumeInput, Setup, SpotInput
from companion.referee.table import Kinds, ObservedTable, SpotDiff, TagKinds, compare, exchanged
from companion.rules.errors import RuleError
from companion.rules.layouts import Layout
from companion.rules.passpass import (
    Action,
    Announce,
    Call,
    Challenge,
    CloseWindow,
    Designate,
    Event,
    MancheVoid,
    MancheWon,
    Phase,
    Reveal,
    Revealed,
    RewardDrop,
    RewardToken,
    State,
    Swap,
    Verdict,
    apply,
    clockwise_first,
    legal_actions,
    make_config,
    new_game,
    public_view,
)
from companion.screens.model import (
    CountdownScreen,
    FaultScreen,
    GameWonScreen,
    InstructionScreen,
    MancheWonScreen,
    Prompt,
    RevealMapScreen,
    Say,
    Screen,
    StatusScreen,
    VerdictScreen,
)

CALL_GRACE = 0.3
"""Calls within 300 ms of the first are settled clockwise from the Magicien's left
(TABLE.md; PTI-7 timed mode, PHI-2)."""


class SetupError(ValueError):
    """A setup that cannot start a game; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A physical instruction the table must carry out; `spots` are the hats it concerns,
    so a difference there is progress, not a fault."""

    prompt: Prompt
    spots: frozenset[int]


class PassPassReferee:
    """Feed it inputs in time order; read `screen` and the events it returns."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.names = setup.seats
        try:
            layout = Layout.from_json(setup.layout) if setup.layout else None
            config = make_config(
                setup.game, len(setup.seats), layout=layout, first=setup.first, window="timed"
            )
        except (RuleError, ValueError) as exc:
            raise SetupError(str(exc)) from exc
        self.tag_kinds = TagKinds(setup.tags)
        _check_tags(setup.tags, config.rules.tokens)
        self.state: State = new_game(config)
        self.history: list[State] = []
        self.observed = ObservedTable(config.layout.spots)
        self.matched: dict[int, frozenset[str]] = dict(self.observed.uids)
        """The readers' UIDs when the table last matched the expected one."""
        self.now = setup.t
        self.last_change = setup.t
        self.window_opened = setup.t
        self.calls: list[tuple[float, int, Challenge]] = []
        self.pending: Pending | None = None
        self.fault: Prompt | None = None
        self.verdict: Verdict | None = None
        self.celebration: Revealed | None = None
        self.aim: tuple[int, int, int] | None = None
        self.events: list[dict[str, Any]] = []
        self.log: list[Event] = []
        """The engine's events so far (all public), for bots seated at a simulated table."""

    # ------------------------------------------------------------------ inputs

    def feed(self, record: Input) -> list[dict[str, Any]]:
        """Take one input; return the events it caused (JSON-ready, with their time)."""
        start = len(self.events)
        self.now = max(self.now, record.t)
        if isinstance(record, SpotInput):
            if self.observed.uids.get(record.spot) != record.uids:
                self.observed.uids[record.spot] = record.uids
                self.last_change = self.now
        elif isinstance(record, ReaderInput):
            (self.observed.silent.discard if record.ok else self.observed.silent.add)(record.spot)
        elif isinstance(record, PressInput):
            self._press(record)
        elif isinstance(record, ResumeInput):
            self._resume(record)
        self._advance()
        return self.events[start:]

    def _resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the readers' live table replaces the last one journaled.
        Hats that changed while the companion was down are guided back to the expected
        table before any move is read; an unchanged table just goes on."""
        changed = {s for s, uids in record.table.items() if self.observed.uids.get(s) != uids}
        for spot in changed:
            self.observed.uids[spot] = record.table[spot]
        self._emit({"kind": "resume", "changed": sorted(changed)})
        if changed:
            self.last_change = self.now
            wrong = frozenset(d.spot for d in self._diffs())
            if wrong:
                self.pending = Pending(Prompt.of(Say.WAIT_TABLE), wrong)

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change here except the clock: a tick that leaves it
        alone changed nothing a later input depends on, so a live loop need not journal
        it (the countdown on the screen is drawn from the clock, not from here)."""
        return (
            self.state, self.fault, self.pending, self.verdict, self.celebration, self.aim,
            tuple(sorted(self.matched.items())), tuple(sorted(self.observed.uids.items())),
            frozenset(self.observed.silent), tuple(self.calls), self.window_opened,
            self.last_change, len(self.events), len(self.history),
        )  # fmt: skip

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    # ----------------------------------------------------------------- presses

    def _press(self, press: PressInput) -> None:
        state = self.state
        control = press.control
        if control == "back":
            self._undo()
            return
        if self.fault is not None or self.pending is not None:
            self._ignore(press, "the table must match first")
            return
        if control == "announce" and state.phase is Phase.ANNOUNCE:
            token = str(press.value).split(":", 1)[-1]
            self._try(Announce(state.magician, token), press)
        elif control in ("doublon", "menteur") and state.phase is Phase.WINDOW:
            call = Call(_seat(press), Challenge(control))
            if call not in legal_actions(state):
                self._ignore(press, "not a call this seat may make now")
            elif all(seat != call.seat for _, seat, _ in self.calls):
                self.calls.append((self.now, call.seat, call.challenge))
        elif state.phase is Phase.REWARD and (
            (control == "doublon" and press.seat == state.challenger)
            or (control == "choose" and press.value == "token")
        ):
            assert state.challenger is not None
            self._try(RewardToken(state.challenger), press)
        elif control == "aim" and state.phase is Phase.REVEAL:
            self.aim = _line(press.value)
        elif control == "choose" and state.phase is Phase.REVEAL:
            line = _line(press.value)
            if line is None:
                self._ignore(press, "choose a line of three hats")
            else:
                self._try(Reveal(state.magician, line), press)
        else:
            self._ignore(press, f"nothing to {control} now")

    def _try(self, action: Action, press: PressInput) -> None:
        try:
            self._step(action)
        except RuleError as exc:
            self._ignore(press, str(exc))

    def _ignore(self, press: PressInput, reason: str) -> None:
        self._emit({"kind": "ignored", "control": press.control, "seat": press.seat,
                    "reason": reason})  # fmt: skip

    def _undo(self) -> None:
        """`back`: the state before the last step; the table is then guided back to it."""
        if not self.history:
            self._emit({"kind": "ignored", "control": "back", "reason": "nothing to undo"})
            return
        self.state = self.history.pop()
        self.calls = []
        self.verdict = self.celebration = self.aim = None
        self.fault = None
        self.window_opened = self.now
        self._emit({"kind": "undo"})
        diffs = self._diffs()
        spots = frozenset(d.spot for d in diffs)
        self.pending = Pending(Prompt.of(Say.WAIT_TABLE), spots) if spots else None

    # ------------------------------------------------------------------- time

    def _advance(self) -> None:
        if self.fault is None and self.pending is None and self.state.phase is Phase.WINDOW:
            if self.calls and self.now >= self.calls[0][0] + CALL_GRACE:
                seat = clockwise_first(self.state, [s for _, s, _ in self.calls])
                challenge = next(c for _, s, c in self.calls if s == seat)
                self.calls = []
                self._step(Call(seat, challenge))
            elif not self.calls and self.now >= self.window_opened + self.setup.window:
                self._step(CloseWindow())
        if self.now - self.last_change >= self.setup.settle:
            self._judge_table()

    # ------------------------------------------------------------------ table

    def expected(self) -> list[Kinds]:
        """The engine's hats, plus the token in flight: on a real table it is already in
        the designated hat (drop first, then the window: TABLE.md)."""
        hats = list(self.state.hats)
        if self.state.holding is not None and self.state.spot is not None:
            i = self.state.spot - 1
            hats[i] = tuple(sorted((*hats[i], self.state.holding)))
        return hats

    def _diffs(self) -> list[SpotDiff]:
        return compare(self.observed, self.expected(), self.tag_kinds)

    def _judge_table(self) -> None:
        silent = sorted(s for s in self.observed.silent if s >= 1)
        if silent:
            self._set_fault(Prompt.of(Say.READER_SILENT, spot=silent[0]), silent[0])
            return
        diffs = self._diffs()
        if not diffs:
            swap = self._quiet_swap()
            if swap is not None:
                self._take(swap)
                return
            self.matched = dict(self.observed.uids)
            if self.fault is not None:
                self._emit({"kind": "fixed"})
                if self.state.phase is Phase.WINDOW:
                    self.window_opened = self.now  # the window starts again on a still table
            self.fault = self.pending = self.verdict = self.celebration = None
            return
        pending = self.pending
        if pending is not None:
            if all(d.spot in pending.spots and not d.unknown for d in diffs):
                if self.fault is not None:
                    self._emit({"kind": "fixed"})
                    self.fault = None
                return
            outside = next(d for d in diffs if d.spot not in pending.spots or d.unknown)
            self._set_fault(_fault_prompt(outside), outside.spot)
            return
        move = self._move(diffs)
        if move is not None:
            self._take(move)
            return
        self._set_fault(self._move_fault(diffs) or _fault_prompt(diffs[0]), diffs[0].spot)

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
        if self.fault is not None:
            self._emit({"kind": "fixed"})
            self.fault = None
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
        pair = exchanged(diffs)
        if state.phase is Phase.REVEAL and pair is not None:
            if state.swapped is None:
                return Prompt.of(Say.NOT_CONTIGUOUS, a=pair[0], b=pair[1])
            return Prompt.of(Say.RESTORE, spot=pair[0])
        return None

    def _set_fault(self, prompt: Prompt, spot: int | None) -> None:
        if prompt != self.fault:
            self.fault = prompt
            self._emit({"kind": "fault", "spot": spot, "reason": str(prompt.say)})

    # ------------------------------------------------------------------ steps

    def _step(self, action: Action) -> None:
        """Apply one engine action and set up what the table must do next."""
        before = self.state
        self.state, events = apply(before, action)
        self.history.append(before)
        self.aim = None
        self.matched = dict(self.observed.uids)
        self.log.extend(events)
        for event in events:
            self._emit(event.to_json())
        self._consequences(events)
        if self.state.phase is Phase.WINDOW:
            self.window_opened = self.now
            self.calls = []

    def _consequences(self, events: Iterable[Event]) -> None:
        spots = frozenset(range(1, self.state.config.layout.spots + 1))
        for e in events:
            if isinstance(e, Verdict):
                self.verdict = e
                self.pending = Pending(_verdict_prompt(e, self.state), frozenset((e.spot,)))
            elif isinstance(e, Revealed) and e.success:
                self.celebration = e
            elif isinstance(e, MancheWon) and self.state.phase is not Phase.OVER:
                self.pending = Pending(Prompt.of(Say.CLEAR_TABLE), spots)
            elif isinstance(e, MancheVoid):
                self.pending = Pending(Prompt.of(Say.VOID), spots)

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append({"t": round(self.now, 3), **event})

    # ----------------------------------------------------------------- screen

    @property
    def screen(self) -> Screen:
        """What the OLED shows now: built from the public view and public events only."""
        view = public_view(self.state)
        names = self.names
        state = self.state
        if state.phase is Phase.OVER:
            assert state.winner is not None
            return GameWonScreen(view, names, state.winner)
        if self.fault is not None:
            return FaultScreen(view, names, self.fault)
        if self.pending is not None:
            if self.celebration is not None:
                c = self.celebration
                return MancheWonScreen(view, names, c.seat, c.pick or (), c.spots)
            if self.verdict is not None:
                return VerdictScreen(view, names, self.verdict, self.pending.prompt)
            return InstructionScreen(view, names, self.pending.prompt)
        if state.phase is Phase.WINDOW:
            total = self.setup.window
            remaining = max(0.0, self.window_opened + total - self.now)
            return CountdownScreen(view, names, remaining, total)
        if state.phase is Phase.REVEAL:
            positions = state.config.layout.positions
            return RevealMapScreen(view, names, positions, self.aim, state.swapped)
        return StatusScreen(view, names, _status_prompt(state))

    def result(self) -> dict[str, Any]:
        """The replay document of ARCHITECTURE.md."""
        return {
            "game": self.setup.game,
            "events": self.events,
            "scores": list(self.state.victories),
            "winner": self.state.winner,
        }


def _status_prompt(state: State) -> Prompt:
    if state.phase is Phase.ANNOUNCE:
        return Prompt.of(Say.ANNOUNCE, seat=state.magician)
    if state.phase is Phase.REWARD:
        assert state.challenger is not None
        can_take = state.challenge_tokens[state.magician] > 0
        return Prompt.of(Say.REWARD, seat=state.challenger, token=can_take)
    return Prompt.of(Say.PLACE, seat=state.magician)


def _verdict_prompt(v: Verdict, after: State) -> Prompt:
    """The physical instruction of TABLE.md for a settled challenge."""
    if v.success and v.challenge is Challenge.DOUBLON:
        return Prompt.of(Say.TAKE_BACK_HAT, seat=v.magician, spot=v.spot)
    if v.success:
        return Prompt.of(Say.KEEP_TOKEN, seat=v.magician, spot=v.spot)
    tokens = after.config.rules.challenge_tokens > 0
    return Prompt.of(Say.GIVE_TOKEN, seat=v.magician, to=v.seat, spot=v.spot, tokens=tokens)


def _fault_prompt(d: SpotDiff) -> Prompt:
    if d.unknown:
        return Prompt.of(Say.UNKNOWN_TAG, spot=d.spot)
    if d.extra and not d.missing:
        return Prompt.of(Say.EXTRA_TAG, spot=d.spot)
    if d.missing and not d.extra:
        return Prompt.of(Say.MISSING_TAG, spot=d.spot)
    return Prompt.of(Say.RESTORE, spot=d.spot)


def _seat(press: PressInput) -> int:
    return -1 if press.seat is None else press.seat


def _line(value: Any) -> tuple[int, int, int] | None:
    try:
        a, b, c = (int(v) for v in value)
    except (TypeError, ValueError):
        return None
    return (a, b, c)


def _check_tags(tags: Mapping[str, str], tokens: tuple[str, ...]) -> None:
    bad = sorted({kind for kind in tags.values() if kind.split(":", 1)[-1] not in tokens})
    if bad:
        raise SetupError(
            f"tags of kinds {bad} do not belong to this game (its tokens: {', '.join(tokens)})"
        )
