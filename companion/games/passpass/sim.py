"""A whole game on the virtual table, played by simulated people at their own pace.

The bots decide; the simulated people carry their decisions out on the `VirtualTable` and
the console the way people do (docs/table.md, "People's pace"): the announce button a moment
before, with or after the drop, calls anywhere in the window and sometimes within 300 ms
of each other, instructions one token at a time, a hand lingering in a hat, readers
reporting at their own cadence, and no tick between acts. Their timing comes from a
`Pace`; `Pace.spaced()` is the slow, ticked table of our first scenario files.

The decisions are made on the sim's own copy of the game (`track`), advanced by the pure
engine, never by reading the referee: the people act on what they decided, and the
referee must reach the same game from the journal of their acts alone. `run` checks that
it did (same engine events), so every simulated game is a test of the referee.

`Noise` adds what rough tables do: flickering tags, duplicated reader reports, stray
unknown tags, presses out of turn. None of it may change a verdict.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.games.passpass.bots import Bot, make_bot
from companion.games.passpass.referee import CALL_GRACE, PassPassReferee, expected_table
from companion.games.passpass.rules import (
    RULESETS,
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
    RewardDrop,
    RewardToken,
    State,
    Swap,
    Verdict,
    apply,
    clockwise_first,
    is_over,
    legal_actions,
    player_view,
)
from companion.games.passpass.selfplay import window_calls
from companion.games.passpass.table_settings import DOUBLON_MIN_SECONDS, SETUP_FIELDS
from companion.games.passpass.tokens import FAMILY
from companion.journal import Input, Setup, SpotInput, TickInput
from companion.referee.table import Kinds
from companion.sim.people import STEP as STEP
from companion.sim.people import Diverged as Diverged
from companion.sim.people import Noise as Noise
from companion.sim.people import SimulatedPeople, first_difference
from companion.sim.table import VirtualTable, make_tags


@dataclass(frozen=True)
class Pace:
    """When simulated people act, as ranges of seconds drawn uniformly."""

    announce: tuple[float, float] = (-1.0, 1.5)
    """The announce press, from the drop (negative: before it)."""
    call: tuple[float, float] = (0.1, 4.0)
    """The call that counts, into the window."""
    early_call: float = 0.3
    """Chance a Doublon is pressed after the drop but before the window opens."""
    together: float = 0.5
    """Chance another caller presses within 300 ms of the one that counts."""
    react: tuple[float, float] = (0.3, 1.5)
    """From the OLED showing what to do to the first hand moving."""
    step: tuple[float, float] = (0.2, 1.2)
    """Between two tokens of one instruction: people move one token at a time."""
    linger: float = 0.3
    """Chance a hand lingers in the hat after a drop, so its tag blinks."""
    scan: float = 0.06
    """A reader reports up to this late: each scans at its own cadence."""
    ticks: bool = False
    """Tick whenever the table is ready (a spaced table's scenario files did)."""

    @classmethod
    def spaced(cls) -> Pace:
        """Acts a second apart, each after the table settled, with ticks between."""
        return cls(
            announce=(1.6, 1.6), call=(1.0, 1.0), early_call=0.0, together=1.0,
            react=(1.0, 1.0), step=(0.0, 0.0), linger=0.0, scan=0.0, ticks=True,
        )  # fmt: skip


@dataclass
class SimResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: PassPassReferee | None = None
    decided: list[Event] = field(default_factory=list)
    """The engine events of the decisions, as the sim's own copy of the game made them."""


def make_setup(
    game: str,
    players: int,
    seed: int,
    window: float = 6.0,
    settle: float = 0.5,
    first: int | None = None,
    **kw: object,
) -> Setup:
    """A simulated table's setup: seats Ana, Bob, ..., a box of tags made from `seed`, and
    (PTI-13) a first player that, unless given, rotates with the seed. Its table settings
    (`window`; `doublon_min` and `layout` in `kw`) go into its `rules`, as a table's do."""
    rng = random.Random(f"tags:{seed}")
    tokens = RULESETS[game].tokens
    names = tuple(["Ana", "Bob", "Cy", "Dee", "Eve", "Fay"][:players])
    tags = make_tags(FAMILY[game], tokens, players, rng)
    first = seed % players if first is None else first
    settings = {"window": window, "doublon_min": kw.pop("doublon_min", DOUBLON_MIN_SECONDS)}
    if kw.get("layout") is not None:
        settings["layout"] = kw.pop("layout")
    kw.pop("layout", None)
    rules = {SETUP_FIELDS[name]: value for name, value in settings.items()}
    rules |= dict(kw.pop("rules", None) or {})  # type: ignore[call-overload]
    return Setup(
        game=game, seats=names, tags=tags, first=first, seed=seed, settle=settle, rules=rules,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


class SimulatedGame(SimulatedPeople):
    """Plays one game; every input goes to `on_input` (a journal writer, a frame grabber)."""

    referee: PassPassReferee
    pace: Pace

    def __init__(
        self,
        setup: Setup,
        bots: list[str] | None = None,
        noise: Noise | None = None,
        on_input: Callable[[Input, PassPassReferee], None] | None = None,
        pace: Pace | None = None,
    ) -> None:
        super().__init__(setup, PassPassReferee(setup), pace or Pace(), noise, on_input)
        self.track: State = self.referee.state
        self.decided: list[Event] = []
        self.voided = False
        """A manche was voided this turn: the players clear the table and deal again."""
        layout = self.track.config.layout
        kinds = bots or ["heuristic"] * len(setup.seats)
        self.bots: list[Bot] = [
            make_bot(kinds[s % len(kinds)], random.Random(f"{setup.seed}:{s}"), s, layout)
            for s in range(len(setup.seats))
        ]
        self.table = VirtualTable(layout.spots, setup.tags)

    def contents(self, spot: int) -> frozenset[str]:
        return self.table.contents(spot)

    # -------------------------------------------------------------- physical

    def _drop(self, t: float, spot: int, kind: str) -> tuple[float, float]:
        """A token dropped into a hat; returns when the reader first and last reported."""
        self.table.drop(t, spot, kind)
        first = self.report(t, spot)
        last = first
        if self.time_rng.random() < self.pace.linger:
            last = self.blink(round(first + self.time_rng.uniform(0.05, 0.2), 3), spot,
                               self.table.contents(spot))  # fmt: skip
            self.schedule(SpotInput(last, spot, self.table.contents(spot)))
        return first, last

    def _carry_out(self, start: float, together: bool = False) -> None:
        """Make the table match the decided game, one token at a time (`together`: every
        player at once, as when a manche ends)."""
        moves = _moves(self.table, expected_table(self.track))
        t = start + self.uniform(self.pace.react)
        timed = []
        for move in moves:
            timed.append((t + (self.uniform((0.0, 3.0)) if together else 0.0), move))
            t += 0.0 if together else self.uniform(self.pace.step)
        last = start
        for when, (spot, kind, put) in sorted(timed, key=lambda x: x[0]):
            (self.table.drop if put else self.table.take)(when, spot, kind)
            last = max(last, self.report(when, spot))
        self.ready(last + self.setup.settle)

    # -------------------------------------------------------------- decisions

    def _apply(self, action: Action) -> tuple[Event, ...]:
        self.track, events = apply(self.track, action)
        self.decided.extend(events)
        self.voided = self.voided or any(isinstance(e, MancheVoid) for e in events)
        for bot in self.bots:
            bot.observe(events)
        return events

    def _ask(self, seat: int) -> Action:
        return self.bots[seat].choose(player_view(self.track, seat), legal_actions(self.track))

    # ------------------------------------------------------------------- play

    def run(self, max_actions: int = 200_000) -> SimResult:
        self.ready(self.t + self.setup.settle)
        while not is_over(self.track) and len(self.decided) < max_actions:
            self._maybe_noise()
            self._turn()
            if self.voided:  # PTI-15: a turn limit voids a manche however the turn ended
                self.voided = False
                if not is_over(self.track) and _moves(self.table, expected_table(self.track)):
                    self._carry_out(self.t, together=True)
            self.flush()
        self.schedule(TickInput(round(self.t + self.setup.settle + 1.0, 3)))
        self.flush()
        made = [e.to_json() for e in self.referee.log]
        if made != [e.to_json() for e in self.decided]:
            raise Diverged(first_difference(made, [e.to_json() for e in self.decided]))
        return SimResult(self.setup, self.inputs, self.referee, self.decided)

    def _turn(self) -> None:
        state = self.track
        if state.phase is Phase.PLACE:
            self._placement()
            return
        (seat,) = {state.challenger} if state.phase is Phase.REWARD else {state.magician}
        assert seat is not None
        action = self._ask(seat)
        start = self.t + self.uniform(self.pace.react)
        if isinstance(action, RewardDrop):
            _, last = self._drop(start, action.spot, action.token)
            self.ready(last + self.setup.settle)
        elif isinstance(action, RewardToken):
            self.press(start, "doublon", seat)
            self.ready(start)
        elif isinstance(action, Swap):
            self.ready(self._slide(start, action.a, action.b) + self.setup.settle)
        elif isinstance(action, Reveal):
            self._reveal(action)
            return
        else:
            raise AssertionError(f"a bot chose {action!r} outside a window")
        self._aftermath(self._apply(action), self.t)

    def _slide(self, t: float, a: int, b: int) -> float:
        """Two cups slide past each other: both readers lose their tags for a moment, then
        see the exchanged contents, in whichever order the scan reaches them."""
        spots = [a, b]
        self.act_rng.shuffle(spots)
        self.table.spots[a], self.table.spots[b] = self.table.spots[b], self.table.spots[a]
        last = t
        for spot in spots:
            when = round(max(t, self.last_report(spot) + 0.01), 3)
            self.schedule(SpotInput(when, spot, frozenset()))
            self._reported[spot] = when
        for spot in spots:
            last = max(last, self.report(t + 0.2, spot))
        return last

    def _reveal(self, action: Reveal) -> None:
        """The encoder pointed at a line, then pushed; right after a swap the push may come
        while the slide still settles (it is held until the swap is judged)."""
        seat = action.seat
        aim = self.t - self.setup.settle + self.uniform(self.pace.react)
        aim = max(aim, max(self._reported.values(), default=0.0) + 0.01)
        push = aim + self.uniform((0.3, 1.5)) if not self.pace.ticks else self.t + 1.0
        if self.pace.ticks:
            aim = self.t
        self.press(aim, "aim", seat, list(action.spots))
        self.press(push, "choose", seat, list(action.spots))
        self.ready(push)
        self._aftermath(self._apply(action), push)

    def _placement(self) -> None:
        """The Magicien's drop and announcement, and the window that follows."""
        m = self.track.magician
        start = self.t
        designate = self._ask(m)
        assert isinstance(designate, Designate)
        d = start + self.uniform(self.pace.react)
        first, last = self._drop(d, designate.spot, designate.token)
        judged = last + self.setup.settle
        self._apply(designate)
        state = self.track
        if state.phase is Phase.ANNOUNCE:  # PTI Masqué: the window opens once both are in
            announce = self._ask(m)
            assert isinstance(announce, Announce)
            a = max(start + 0.05, d + self.uniform(self.pace.announce))
            self.press(a, "announce", None, announce.token)
            self._apply(announce)
            opens = max(judged, a)
            self._window(opens, early_from=judged + 0.02 if a > judged + 0.1 else None)
        elif state.phase is not Phase.WINDOW:  # nobody may call: placed at once
            self.ready(judged)
        elif state.announced is None:  # PHI-2: window 1, then the announcement
            self._phi_windows(start, d, judged)
        else:  # PTI Visible: the window opens at the drop
            self._window(judged, early_from=first + 0.02)
        self.flush()

    def _phi_windows(self, start: float, d: float, opens: float) -> None:
        """PHI-2: Doublon in window 1 until the announcement, held until `doublon_min`
        after the drop; then Menteur in window 2."""
        m = self.track.magician
        a = max(start + 0.05, d + self.uniform(self.pace.announce))
        effective = max(a, opens + self.referee.settings.doublon_min)
        calls = window_calls(self.track, self.bots)
        if calls:
            self._window(opens, until=effective, calls=calls)
            return
        self._apply(CloseWindow())
        announce = self._ask(m)
        assert isinstance(announce, Announce)
        self.press(a, "announce", None, announce.token)
        self._apply(announce)
        self._window(effective)

    def _window(
        self,
        opens: float,
        early_from: float | None = None,
        until: float = 0,
        calls: list[Call] | None = None,
    ) -> None:
        """The seats that call press in the window, the one that counts first or within
        300 ms of the first and first clockwise (PTI-7); the others come too late. `until`
        (PHI-2 window 1) is when the window ends by the announcement; else it lasts
        `window` seconds of silence. `calls`: the seats' decisions, if already asked."""
        state = self.track
        if state.phase is not Phase.WINDOW:  # nobody may call: placed at once
            self.ready(opens)
            return
        calls = window_calls(state, self.bots) if calls is None else calls
        if not calls:
            self._apply(CloseWindow())
            self.ready(opens + self.referee.settings.window)
            return
        seat = clockwise_first(state, [c.seat for c in calls])
        counted = next(c for c in calls if c.seat == seat)
        low, high = self.pace.call
        if until:
            high = min(high, until - opens - 0.05)
            low = min(low, high)
        t = opens + self.uniform((low, high))
        early = early_from is not None and early_from < opens - 0.05
        doublon = counted.challenge is Challenge.DOUBLON
        if early and doublon and self.time_rng.random() < self.pace.early_call:
            assert early_from is not None
            t = self.time_rng.uniform(early_from, opens - 0.05)
        effective = max(t, opens)
        self.press(t, str(counted.challenge), seat)
        presses = [effective]
        after = _clockwise_rank(state, seat)
        for call in calls:
            if call is counted:
                continue
            if _clockwise_rank(state, call.seat) > after and self.time_rng.random() < (
                self.pace.together
            ):
                x = self.time_rng.uniform(max(effective - 0.25, opens + 0.02), effective + 0.25)
                if until:
                    x = min(x, until - 0.02)
                presses.append(max(x, opens))
            else:  # too late: the verdict is out, the press is refused and shown
                x = effective + CALL_GRACE + self.time_rng.uniform(0.05, 0.25)
            self.press(x, str(call.challenge), call.seat)
        verdict_at = min(presses) + CALL_GRACE
        events = self._apply(Call(seat, counted.challenge))
        self.ready(verdict_at)
        self._aftermath(events, verdict_at)

    def _aftermath(self, events: Sequence[Event], at: float) -> None:
        """After a verdict or a manche, the players carry out what the OLED says."""
        if any(isinstance(e, Verdict) for e in events):
            self._carry_out(at)
        elif not is_over(self.track) and any(isinstance(e, MancheWon | MancheVoid) for e in events):
            self._carry_out(at, together=True)

    def _maybe_noise(self) -> None:
        rng = self.noise_rng
        noise = self.noise
        spots = self.track.config.layout.spots
        if rng.random() < noise.stray:
            spot = rng.randint(1, spots)
            uid = "DEADBEEF"
            self.table.stray(self.t, spot, uid)
            self.report(self.t + 0.1, spot)
            self.table.remove(self.t, spot, uid)  # longer than `settle`: the referee says Stop
            last = self.report(self.t + 0.1 + noise.stray_lasts, spot)
            self.ready(last + self.setup.settle)
        phase = self.track.phase
        if rng.random() < noise.out_of_turn and phase in (Phase.PLACE, Phase.REVEAL):
            seat = rng.randrange(len(self.setup.seats))
            controls = ["doublon", "menteur"] + (["announce"] if phase is Phase.REVEAL else [])
            control = rng.choice(controls)
            value = rng.choice(RULESETS[self.setup.game].tokens) if control == "announce" else None
            self.press(self.t + 0.1, control, seat, value)
        self.flush()


def _moves(table: VirtualTable, expected: Sequence[Kinds]) -> list[tuple[int, str, bool]]:
    """(spot, kind, put) for every token to put in or take out so the table matches."""
    moves = []
    for spot in range(1, len(expected) + 1):
        have = table.kinds(spot)
        want = list(expected[spot - 1])
        for kind in sorted(set(have) | set(want)):
            extra = have.count(kind) - want.count(kind)
            moves += [(spot, kind, extra < 0)] * abs(extra)
    return moves


def _clockwise_rank(state: State, seat: int) -> int:
    """0 for the seat on the Magicien's left, then clockwise."""
    return (seat - state.magician - 1) % state.config.players
