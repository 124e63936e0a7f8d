"""People's pace: time first, presses held while the table settles (docs/table.md).

What every game's referee shares about time. Inputs come one at a time with their time
`t` (reader contents, presses, ticks), exactly as the journal records them. Two rules make
a live game and any replay of its journal the same computation, whatever ticks were
recorded, and make sure nothing a person does at a plausible pace is lost:

1. **Time first, then the input.** Before an input at time t is applied, every deadline
   due at or before t fires, in time order: the table's settle time, and the game's own
   deadlines (a call grace, a window's end, a held announcement). A tick is never needed
   for correctness; it only lets a live table show the passing time.
2. **Presses wait for the table.** A change of the table is judged once the table has been
   still for `settle` seconds, counted from when its reader read it (a `spot` input's
   `age` before its `t`, at most `MAX_AGE`: the Pico says how long its report took). A
   press that arrives before that is held, then applied in arrival order once the change
   is judged. A game deadline that falls after a held press waits for it, so presses and
   deadlines still take effect in time order. (A game may take a held press while it
   judges the change: a claim that its rules count before the pieces that moved.)

It is also the one place that maps readers to the game's spots (0..N): a game only ever
reads its own. A table may have more readers than the game has spots; something on a
reader off the mat stops play with the game's fault naming that reader (`judge_stray`),
every press refused meanwhile, and a silent reader off the mat stops nothing. A tag lying
across two spots (both readers read it: the firmware reports each as unknown, naming the
other) stops play the same way, with the game's fault naming both (`judge_across`); across
a spot and a reader off the mat, with the off-mat fault naming that reader.

A game's referee subclasses `PacedReferee` and supplies what is game-specific: how to
judge the still table, how to take a press, its next deadline and what happens then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from companion.cli_words import said
from companion.journal import (
    MAX_AGE,
    Input,
    PressInput,
    ReaderInput,
    ResumeInput,
    Setup,
    SpotInput,
)
from companion.referee.event_log import EventLog, TableEvent
from companion.referee.table import ObservedTable
from companion.rule_checks import Wrong, not_one_of, not_true_or_false, not_whole, unknown_rules
from companion.rule_checks import listed as listed  # the referees quote with them
from companion.rule_checks import typed as typed
from companion.screens.model import Notice, Reason, Refusal


class SetupError(ValueError):
    """A setup that cannot start a game; the message says what to fix, in the command
    line's language (the table's: `companion.cli_words.language`)."""


def refused(key: str, /, **fields: object) -> SetupError:
    """The refusal `key` of the catalogue (``cli.setup.no_rule``, a game's own key) said
    in the command line's language, to raise."""
    return SetupError(said(key, **fields))


def raise_wrong(wrong: Wrong | None) -> None:
    """Raise what is wrong with a rule, if anything, as a `SetupError`."""
    if wrong is not None:
        raise SetupError(wrong.said())


def wrong_players(title: str, players: str, seats: int) -> SetupError:
    """A setup of `seats` players for a game played by `players` ("3 joueurs")."""
    return refused("cli.lab.check.players", title=title, players=players, n=typed(seats))


def check_first(setup: Setup) -> None:
    """A first player who is not one of the setup's seats."""
    if not 0 <= setup.first < len(setup.seats):
        raise refused("cli.setup.first", last=len(setup.seats) - 1, first=typed(setup.first))


def check_mat_game(setup: Setup, players: int, title: str) -> None:
    """A game for exactly `players` on its own 3 x 3 mat: the seats, the first seat, and
    no hat layout."""
    if len(setup.seats) != players:
        raise wrong_players(title, said("cli.players.one", n=players), len(setup.seats))
    check_first(setup)
    if (setup.rules or {}).get("layout"):  # an old journal's top-level layout lands here
        raise refused("cli.setup.own_mat", title=title)


def rules_over(
    setup: Setup,
    base: object | None,
    keys: Sequence[str],
    title: str,
    table_keys: Sequence[str] = (),
) -> dict[str, Any]:
    """The engine settings `keys` of `base` (a Config) with the setup's `rules` over them;
    `table_keys` are settings of the referee, left out here. Any other key is refused.
    Without a `base`, only the setup's `rules` of `keys`."""
    rules = {k: v for k, v in (setup.rules or {}).items() if k not in table_keys}
    known = (*keys, *table_keys)
    if rules and not known:
        raise refused("cli.setup.no_rule", keys=listed(sorted(rules)), title=title)
    raise_wrong(unknown_rules(rules, known, title))
    if base is None:
        return {key: rules[key] for key in keys if key in rules}
    return {key: getattr(base, key) for key in keys} | rules


def whole_rule(
    rules: Mapping[str, Any], key: str, least: int | None = None, most: int | None = None,
    *, none: bool = False,
) -> None:  # fmt: skip
    """The rule `key`, when set: a whole number (from `least`, to `most`), or None where
    `none` says it means "no limit" (a journal's null; a TOML file cannot write it)."""
    if key in rules and not (none and rules[key] is None):
        raise_wrong(not_whole(key, rules[key], least, most))


def one_of_rule(rules: Mapping[str, Any], key: str, choices: Iterable[str]) -> None:
    """The rule `key`, when set: one of `choices` (words, as the file writes them)."""
    if key in rules:
        raise_wrong(not_one_of(key, rules[key], tuple(choices)))


def true_or_false_rule(rules: Mapping[str, Any], key: str) -> None:
    """The rule `key`, when set: true or false."""
    if key in rules:
        raise_wrong(not_true_or_false(key, rules[key]))


NOTICE_SECONDS = 3.0
"""How long a refused press stays on the OLED (docs/table.md, "People's pace")."""

LOOP_GUARD = 10_000
"""More deadlines than this for one input means a deadline that never moves: a bug."""


class PacedReferee:
    """The clock, the observed table, the settle time and held presses of any game."""

    def __init__(self, t: float, spots: int, settle: float) -> None:
        self.now = t
        self.settle = settle
        self.observed = ObservedTable(spots)
        self.last_change = t
        self.unjudged = False
        """The table changed since it was last judged (its settle time is running)."""
        self._read_at: float | None = None
        """When the reader read the change being fed (None: at `now`)."""
        self.held: list[PressInput] = []
        """Presses that arrived while the table was settling, in arrival order."""
        self.events: EventLog[TableEvent] = EventLog()
        """Every event so far, by number; a live session keeps only the last ones."""
        self._fresh: list[TableEvent] = []
        """The events of the input being fed (what `feed` returns, whatever is kept)."""
        self.notice: Notice | None = None
        """The last press that could not count, shown until `notice.until`."""

    def warm_up(self) -> None:
        """Nothing to build once the table is ready (a game with tables its inputs need
        but showing the table does not overrides this)."""

    # ------------------------------------------------------------------ inputs

    def feed(self, record: Input) -> list[TableEvent]:
        """Take one input; return the events it caused (JSON-ready, with their time)."""
        fresh: list[TableEvent] = []
        self._fresh = fresh
        self._run_until(record.t)
        self.now = max(self.now, record.t)
        if isinstance(record, SpotInput):
            self._read_at = self.now - min(max(record.age, 0.0), MAX_AGE)
            self._report(record.spot, record.uids)
            self._read_at = None
        elif isinstance(record, ReaderInput):
            self._reader(record)
        elif isinstance(record, PressInput):
            if self.unjudged:
                self.held.append(record)
            else:
                self._press(record)
        elif isinstance(record, ResumeInput):
            self._resume(record)
        self._run_until(self.now)
        return fresh

    def _report(self, spot: int, uids: frozenset[str]) -> None:
        """What one reader holds. The game's spots are the game's to read (`table_changed`);
        a reader off its mat only tells whether something lies there (`observed.stray`)."""
        observed = self.observed
        if observed.on_mat(spot):
            if observed.uids[spot] != uids:
                observed.uids[spot] = uids
                self.table_changed()
        elif observed.stray.get(spot, frozenset()) != uids:
            if uids:
                observed.stray[spot] = uids
            else:
                del observed.stray[spot]
            if self.reads_table:
                self._unsettled()

    def _reader(self, record: ReaderInput) -> None:
        """A reader stopped answering, answers again, or reads a tag lying across its spot
        and another (`across`): a silent reader off the mat stops nothing, a tag across
        any two readers stops a game that reads the table. Judged as soon as the table
        is still."""
        observed = self.observed
        spot = record.spot
        on_mat = observed.on_mat(spot)
        if record.ok:
            observed.silent.discard(spot)
            was_across = observed.across.pop(spot, None) is not None
            if on_mat or (was_across and self.reads_table):
                self.unjudged = True
        elif record.across is not None:
            observed.silent.discard(spot)
            observed.across[spot] = record.across
            if on_mat or self.reads_table:
                self.unjudged = True
        elif on_mat:
            observed.silent.add(spot)
            self.unjudged = True

    def _resume(self, record: ResumeInput) -> None:
        """A restart: the readers off the mat are taken as reports; the game resumes with
        its own spots."""
        mat = {spot: uids for spot, uids in record.table.items() if self.observed.on_mat(spot)}
        for spot, uids in record.table.items():
            if spot not in mat:
                self._report(spot, uids)
        self.resume(record if len(mat) == len(record.table) else ResumeInput(record.t, mat))

    def _press(self, press: PressInput) -> None:
        """A press on a judged table: refused while something lies off the mat or across
        two spots (set right first, even before a back), else the game's."""
        if self.reads_table and (self.observed.stray or self.observed.across):
            self.refuse(press, Refusal.TABLE_FIRST)
        else:
            self.press(press)

    def table_changed(self) -> None:
        """A spot of the mat changed (a game adds its own bookkeeping)."""
        self._unsettled()

    def _unsettled(self) -> None:
        """The settle time starts again: from the reading of the change being fed, never
        before the table's last change."""
        read = self.now if self._read_at is None else self._read_at
        self.last_change = max(self.last_change, read)
        self.unjudged = True

    def emit(self, event: Mapping[str, Any]) -> None:
        """Record the game's `event` (its kind and its own keys) at the current time."""
        # The one place a game's free-form event becomes a TableEvent: the shared keys
        # mean the same in every game (the contract tests check their types).
        made = cast(TableEvent, {"t": round(self.now, 3), **event})
        self.events.append(made)
        self._fresh.append(made)

    def refuse(self, press: PressInput, reason: Reason) -> None:
        """A press that cannot count: journaled as an `ignored` event and shown on the OLED
        for a moment with its seat and the reason, never silently dropped."""
        self.emit({"kind": "ignored", "control": press.control, "seat": press.seat,
                   "reason": str(reason)})  # fmt: skip
        self.notice = Notice(press.control, press.seat, reason, self.now + NOTICE_SECONDS)

    def notice_shown(self) -> Notice | None:
        """The notice, while it is still on the screen."""
        notice = self.notice
        return notice if notice is not None and self.now < notice.until else None

    # -------------------------------------------------------------------- time

    def next_judgment(self) -> float | None:
        """When the settling table will be judged, if it is settling."""
        return self.last_change + self.settle if self.unjudged else None

    def next_due(self) -> float | None:
        """When the next deadline `_run_until` would fire falls (the settle's judgment or
        the game's own), or None: the live loop wakes then rather than at its next tick."""
        judge_at = self.next_judgment()
        game_at = self.deadline()
        if judge_at is not None and self._held_before(game_at):
            return judge_at  # a held press waits for the judgment, and the game for it
        return min([at for at in (judge_at, game_at) if at is not None], default=None)

    def _held_before(self, game_at: float | None) -> bool:
        """A press held while the table settles was pressed before the game's deadline
        `game_at`, which then waits for it."""
        return bool(self.held) and game_at is not None and self.held[0].t < game_at

    def _run_until(self, t: float) -> None:
        """Fire, in time order, every deadline due at or before `t`."""
        for _ in range(LOOP_GUARD):
            judge_at = self.next_judgment()
            game_at = self.deadline()
            if judge_at is not None and self._held_before(game_at):
                game_at = None  # a press held before it must be applied first
            if judge_at is not None and (game_at is None or judge_at <= game_at):
                if judge_at > t:
                    return
                self.now = max(self.now, judge_at)
                self._judged()
            elif game_at is not None:
                if game_at > t:
                    return
                self.now = max(self.now, game_at)
                self.on_deadline()
            else:
                return
        raise RuntimeError(f"deadlines do not advance at t={self.now}: {self.deadline()}")

    def _judged(self) -> None:
        """The table is still: judge it, then apply the presses held meanwhile, each after
        the deadlines due before it."""
        self.unjudged = False
        self.judge()
        held, self.held = self.held, []
        for press in held:
            self._run_until(press.t)
            self._press(press)

    def judge(self) -> None:
        """Judge the still table: a tag lying across two of the game's spots first (the
        game's fault naming both), then something lying off the mat (naming that reader;
        a tag across a spot and a reader off the mat is one: it must come off that reader),
        until it is fixed; else the game's own spots."""
        if not self.reads_table:
            self.judge_table()
            return
        observed = self.observed
        across = observed.across_pair()
        off = [s for s in across or () if not observed.on_mat(s)]
        stray = min([*observed.stray, *off], default=None)
        if across is not None and not off:
            self.judge_across(across)
        elif stray is not None:
            self.judge_stray(stray)
        else:
            self.judge_table()

    # ---------------------------------------------------------- game-specific

    reads_table = True
    """The game reads its readers. A game played without them (on the phones) sets False:
    nothing lying on any reader stops it."""

    def judge_table(self) -> None:
        """Read the still table: a move, progress on an instruction, a fault, a fix."""
        raise NotImplementedError

    def judge_stray(self, spot: int) -> None:
        """Something lies on reader `spot`, where the game has no spot: play stops on the
        game's fault naming that reader (reason `off_mat`); presses are refused until it is
        taken off, then the table is judged again (docs/table.md, "Faults and fixes")."""
        raise NotImplementedError

    def judge_across(self, spots: tuple[int, int]) -> None:
        """One tag lies across two of the game's spots (`spots`, lower first, 0 the pad):
        both readers read it, so neither says which spot holds it. Play stops on the
        game's fault naming both (reason `across_spots`, `Fix.ACROSS_SPOTS`) until it lies
        in one; then the table is judged again (docs/table.md, "Faults and fixes")."""
        raise NotImplementedError

    def press(self, press: PressInput) -> None:
        """Apply a press to a judged table (`press.t` is when it was pressed)."""
        raise NotImplementedError

    def deadline(self) -> float | None:
        """When the game next acts on its own (a window's end...), or None."""
        raise NotImplementedError

    def on_deadline(self) -> None:
        """The game's deadline has come (`self.now` is its time). It must remove or move
        the deadline."""
        raise NotImplementedError

    def resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the readers' live table replaces the last journaled."""
        raise NotImplementedError
