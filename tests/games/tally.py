"""Tally: a tiny game that exists only to prove the runtime knows no game.

Everything it needs lives in this module and reaches the companion only through
`companion.games.register` (and a renderer through `register_renderer`): set
`COMPANION_GAMES=tests.games.tally` and `run --sim`, `replay`, `demo` and `selfplay` play
it. The rules: 2 to 4 seats, one hat (spot 1), each seat owns two pebbles. In turn, each
seat drops one of its pebbles into the hat; the first seat to have dropped both wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import Game, register
from companion.journal import Input, PressInput, ResumeInput, Setup, SpotInput, TickInput
from companion.referee.pace import PacedReferee, SetupError
from companion.screens.model import Refusal
from companion.screens.render import WIDTH, Pen, register_renderer

PEBBLES = 2


@dataclass(frozen=True, slots=True)
class TallyScreen:
    names: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int
    winner: int | None


def render_tally(pen: Pen, screen: TallyScreen, lang: str) -> None:
    title = "Tally" if screen.winner is None else f"{screen.names[screen.winner]} wins"
    pen.centered(0, title)
    for seat, (name, score) in enumerate(zip(screen.names, screen.scores, strict=True)):
        mark = ">" if seat == screen.turn and screen.winner is None else " "
        pen.text((0, 10 + 9 * seat), f"{mark}{name} {score}"[: WIDTH // 6])


register_renderer(TallyScreen, render_tally)


class TallyReferee(PacedReferee):
    def __init__(self, setup: Setup) -> None:
        if not 2 <= len(setup.seats) <= 4:
            raise SetupError("tally is for 2 to 4 players")
        super().__init__(setup.t, 1, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.scores = [0] * len(setup.seats)
        self.turn = setup.first
        self.winner: int | None = None
        self.in_hat = 0
        self.aim: tuple[int, ...] | None = None

    spots = 1
    announce_values: tuple[str, ...] = ()

    def encoder_choices(self) -> tuple[tuple[int, ...], ...]:
        return ()

    def judge_table(self) -> None:
        seen = len(self.observed.uids.get(1, frozenset()))
        if seen == self.in_hat + 1 and self.winner is None:
            self.in_hat = seen
            seat = self.turn
            self.scores[seat] += 1
            self.emit({"kind": "pebble", "seat": seat})
            if self.scores[seat] == PEBBLES:
                self.winner = seat
                self.emit({"kind": "game_won", "seat": seat})
            self.turn = (seat + 1) % len(self.names)
        elif seen != self.in_hat:
            self.emit({"kind": "fault", "spot": 1, "reason": "restore"})

    def judge_stray(self, spot: int) -> None:
        self.emit({"kind": "fault", "spot": spot, "reason": "off_mat"})

    def press(self, press: PressInput) -> None:
        self.emit({"kind": "ignored", "control": press.control, "seat": press.seat,
                   "reason": "not_now"})  # fmt: skip

    def seat_refusal(self, seat: int, control: str, value: Any) -> Refusal | None:
        """No button is anyone's: a pebble in the hat is Tally's only move."""
        return Refusal.NOT_NOW

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError("tally has no deadline")

    def resume(self, record: ResumeInput) -> None:
        self.emit({"kind": "resume", "changed": []})

    @property
    def screen(self) -> TallyScreen:
        return TallyScreen(self.names, tuple(self.scores), self.turn, self.winner)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def result(self) -> dict[str, Any]:
        return {"game": "tally", "events": self.events, "scores": list(self.scores),
                "winner": self.winner}  # fmt: skip

    def moment(self) -> tuple[Any, ...]:
        return (tuple(self.scores), self.turn, self.in_hat, self.unjudged, len(self.events))

    def where(self, lang: str = "en") -> str:  # one language: numbers and names only
        return (
            f"tally: {', '.join(f'{n} {s}' for n, s in zip(self.names, self.scores, strict=True))}"
        )


def tokens(seats: int) -> Sequence[tuple[int | None, str]]:
    return [(seat, "tally:pebble") for seat in range(seats) for _ in range(PEBBLES)]


def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
    rng = random.Random(seed)
    tags = {f"{rng.getrandbits(32):08X}": kind for _, kind in tokens(seats)}
    keep = {k: v for k, v in options.items() if k in ("settle", "language")}
    return Setup("tally", ("Ana", "Bob", "Cy", "Dee")[:seats], tags, seed % seats, seed, **keep)


@dataclass
class TallyResult:
    setup: Setup
    inputs: list[Input] = field(default_factory=list)
    referee: TallyReferee | None = None


def simulate(setup: Setup, on_input: Callable[[Input, Any], None] | None = None,
             bots: Any = None, **options: Any) -> TallyResult:  # fmt: skip
    referee = TallyReferee(setup)
    result = TallyResult(setup, [], referee)
    hat: set[str] = set()
    t = 0.0
    needed = PEBBLES * len(setup.seats) - (len(setup.seats) - 1)  # the first seat's last
    for uid in sorted(setup.tags)[:needed]:
        t += 1.0
        hat.add(uid)
        record = SpotInput(t, 1, frozenset(hat))
        result.inputs.append(record)
        referee.feed(record)
        if on_input:
            on_input(record, referee)
    last = TickInput(t + setup.settle + 0.1)  # the table's clock after the last drop
    result.inputs.append(last)
    referee.feed(last)
    if on_input:
        on_input(last, referee)
    return result


def lab() -> Any:
    """Tally's part of `companion lab`: a rule `pebbles` (how many each seat drops) and
    one figure, so the lab is shown to run a game it has never heard of."""
    from companion.lab.model import GameRecord, LabGame, Mean, Section, Variant

    def pebbles(variant: Variant) -> int:
        value = variant.rules.get("pebbles", PEBBLES)
        if set(variant.rules) - {"pebbles"} or not isinstance(value, int) or value < 1:
            raise ValueError("tally's only rule is pebbles, a whole number from 1")
        return value

    def check_variant(variant: Variant) -> None:
        pebbles(variant)
        if set(variant.bots) - {"any"}:
            raise ValueError("tally's only bot is any")

    def play(variant: Variant, index: int) -> GameRecord:
        first = index % variant.players
        events = [
            {"kind": "pebble", "seat": (first + i) % variant.players}
            for i in range(pebbles(variant) * variant.players - variant.players + 1)
        ]
        events.append({"kind": "game_won", "seat": first})
        return record_of(variant.players, first, events)  # fmt: skip

    def record_of(players: int, first: int, events: Any) -> GameRecord:
        events = list(events)
        dropped = [e for e in events if e.get("kind") == "pebble"]
        won = [e["seat"] for e in events if e.get("kind") == "game_won"]
        return GameRecord(players, first, tuple(won), bool(won), len(dropped),
                          (len(dropped),), {"pebbles": len(dropped)}, {},
                          {"TALLY-1": len(won)})  # fmt: skip

    return LabGame(
        game="tally",
        rulings={"TALLY-1": "a seat drops its last pebble"},
        sections=(Section("Pebbles", (Mean("pebbles dropped per game", "pebbles"),)),),
        check=check_variant,
        play=play,
        record_of=record_of,
        turn_kinds=frozenset({"pebble"}),
        decision_kinds=frozenset({"pebble"}),
    )


def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
    if not 0 <= first < seats:
        raise ValueError(f"first player must be a seat 1..{seats}")


TALLY = register(
    Game(
        name="tally",
        title="Tally",
        seats=range(2, 5),
        default_seats=2,
        referee=TallyReferee,
        check=check,
        spots=lambda seats, layout: 1,
        tokens=tokens,
        simulated_setup=simulated_setup,
        simulate=simulate,
        bots=("any",),
        lab=lab,
    )
)
