"""The Vous ne passerez pas ! referee: presses from the players' phones in, engine actions,
events and screens out.

The pieces lie on a lattice board no reader sees, so the readers play no part: every act
is a journal `press` that the table's web page sends for a seat (docs/table.md, "Vous ne
passerez pas !"; docs/journal.md for the values):

- `place` `{"colour": "bleu", "placement": PID}`: that colour puts the piece of placement
  PID (an id of `geometry(size).placements`) on the board (VNP-3, VNP-4);
- `pass` `{"colour": "bleu"}`: that colour passes, only when it can place nothing (VNP-5);
- `hint`: the OLED (and the web page) shows one legal placement of the colour to play, the
  largest piece's of lowest id, until the next action;
- `back`: takes back the last placement while the next colour has not acted and the game
  is not over (a mis-entered placement); the table setting `undo_placement` (default true)
  turns it off.

Each press that cannot count is refused with an `ignored` event and a notice on the OLED
(`PacedReferee.refuse`): a seat not seated, a value that is not one (BAD_VALUE), a colour
the seat does not play (NOT_YOUR_COLOUR, VNP-7), a colour not to play (NOT_YOUR_TURN,
VNP-2), the placement just made sent again (REPEATED), a placement the rules forbid
(ILLEGAL_PLACEMENT, with the engine's ruling and sentence), a pass while a placement
exists (MAY_NOT_PASS, VNP-5). Nothing is hidden, so every event may be shown.

The referee keeps time as every game's does (`pace.py`); it has no deadline, and the
readers' reports, if any come, are kept but judge nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.cli_words import said
from companion.games.vnp.rule_settings import starts_refused, wrong_mode, wrong_starts
from companion.games.vnp.rules import (
    ALL_PLACED_BONUS,
    COLOURS,
    PIECES,
    Action,
    AllPlaced,
    Colour,
    Config,
    Crossing,
    Event,
    GameOver,
    Mode,
    Pass,
    Passed,
    Place,
    Placed,
    PublicView,
    State,
    apply,
    geometry,
    is_over,
    legal_placements,
    make_config,
    new_game,
    public_view,
)
from companion.games.vnp.rules.board import tables
from companion.games.vnp.rules.config import BOARD_SIZES
from companion.games.vnp.screens import (
    Shown,
    VnpAnyScreen,
    VnpBoardScreen,
    VnpGameOverScreen,
    VnpNoticeScreen,
    colour_word,
    shown_of,
    why_text,
)
from companion.games.vnp.words import LINES, VnpRefusal
from companion.journal import PressInput, ResumeInput, Setup
from companion.referee.pace import (
    NOTICE_SECONDS,
    PacedReferee,
    SetupError,
    check_first,
    one_of_rule,
    raise_wrong,
    refused,
    rules_over,
    true_or_false_rule,
    whole_rule,
    wrong_players,
)
from companion.rules.errors import BadInput, IllegalAction
from companion.screens.model import Notice, Reason, Refusal
from companion.screens.text import check_lang, phrase

TITLE = "Vous ne passerez pas !"
CONTROLS = ("place", "pass", "hint", "back")
"""The presses the game reads; any other is refused (`not_now`)."""
RULE_KEYS = ("size", "starts", "crossing", "mode")
"""The engine settings a setup's `rules` may set (docs/journal.md, "Vous ne passerez pas !")."""
TABLE_KEYS = ("undo_placement",)
"""Settings of the table protocol, not of the engine: `undo_placement` (true by default)
lets `back` take back the last placement (a mis-entered one). No ruling covers it: nothing
is hidden in this game, so taking back a placement the next colour has not answered
unsays nothing."""

__all__ = [
    "CONTROLS", "RULE_KEYS", "TABLE_KEYS", "TITLE", "SetupError", "VnpReferee", "config_of",
    "describe", "hint_placement", "implied_mode", "side_names", "undo_placement",
]  # fmt: skip


def implied_mode(seats: int, rules: Mapping[str, Any] | None) -> Mode:
    """VNP-7: the mode of a table of `seats` players: the setup's `rules` say it, else 2
    seats play mode two and 4 seats mode four. Raises SetupError when they disagree."""
    given = (rules or {}).get("mode")
    one_of_rule(rules or {}, "mode", Mode)
    mode = Mode(given) if given is not None else None
    if seats not in (2, 4):
        raise wrong_players(TITLE, said("cli.players.list", counts="2", last=4), seats)
    if mode is None:
        return Mode.TWO if seats == 2 else Mode.FOUR
    raise_wrong(wrong_mode(mode, seats))
    return mode


def config_of(setup: Setup, config: Config | None = None) -> Config:
    """The engine Config of a table's game: `config` (or the book's rules) with the setup's
    `rules` over it. The mode is the rules', else the config's, else the one the seats imply
    (VNP-7); it must fit the seats. The starts are VNP-2's for the board's size unless set."""
    values = rules_over(setup, config or Config(), RULE_KEYS, TITLE, TABLE_KEYS)
    rules = setup.rules or {}
    whole_rule(rules, "size", BOARD_SIZES[0], BOARD_SIZES[-1])
    one_of_rule(rules, "crossing", Crossing)
    if "starts" not in rules and (config is None or "size" in rules):
        values["starts"] = ()
    if config is not None and "mode" not in rules:
        rules = {**rules, "mode": str(config.mode)}
    values["mode"] = implied_mode(len(setup.seats), rules)
    given = rules.get("starts", values["starts"])
    raise_wrong(wrong_starts(given, values["size"]))
    try:
        starts = tuple(tuple(s) for s in values["starts"])
        return make_config(
            size=values["size"], starts=starts, crossing=values["crossing"], mode=values["mode"]
        )
    except BadInput:  # the size, crossing and starts' shape are checked above
        raise SetupError(starts_refused(given, values["size"]).said()) from None


def undo_placement(setup: Setup) -> bool:
    """The setup's `undo_placement` (TABLE_KEYS), true unless set."""
    rules = setup.rules or {}
    true_or_false_rule(rules, "undo_placement")
    return bool(rules.get("undo_placement", True))


def side_names(config: Config, names: Sequence[str]) -> tuple[str, ...]:
    """VNP-7: each side as people name it: a seat's name, or a team "bleu + vert"."""
    if config.mode is Mode.TEAMS:
        return tuple(
            " + ".join(str(c) for i, c in enumerate(COLOURS) if config.side_of(i) == side)
            for side in range(config.sides)
        )
    return tuple(names[side] for side in range(config.sides))


def hint_placement(state: State) -> int | None:
    """The hint for the colour to play: of its legal placements, one of its largest piece
    (VNP-6 counts the segments left), the lowest id; None when it can only pass (VNP-5)."""
    ids = legal_placements(state, state.turn)
    if not ids:
        return None
    piece_of = geometry(state.config.size).piece_of
    return min(ids, key=lambda pid: (-PIECES[piece_of[pid]].size, pid))


def _colour(value: object) -> Colour | None:
    try:
        return Colour(value) if isinstance(value, str) else None
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class _Undoable:
    """The last placement, while `back` may take it back."""

    before: State
    logged: int
    """How many engine events the game had before it."""
    seat: int
    shown: Shown


class VnpReferee(PacedReferee):
    """Feed it inputs in time order; read `screen`, `board_view()` and the events."""

    spots = 0
    reads_table = False

    def __init__(self, setup: Setup, config: Config | None = None) -> None:
        if (setup.rules or {}).get("layout"):
            raise refused("vnp.setup.own_board", title=TITLE)
        self.config = config_of(setup, config)
        check_first(setup)
        self.undo_allowed = undo_placement(setup)
        super().__init__(setup.t, 0, setup.settle)
        self.setup = setup
        self.names = setup.seats
        self.sides = side_names(self.config, setup.seats)
        self.state: State
        self.state, opening = new_game(self.config, setup.seed)
        self.log: list[Event] = list(opening)
        """The engine events of the game as it stands (a placement taken back leaves it)."""
        self.undoable: _Undoable | None = None
        self.hint: Shown | None = None
        self.repeat: tuple[Colour, int] | None = None
        """The placement that counted last, until anything else happens: the same sent
        again (a double tap) is refused as REPEATED."""
        self.detail: tuple[str, str] | None = None
        """The ruling and the engine's sentence of the notice shown, if a rule refused it."""
        self._legal: tuple[State, tuple[int, ...]] | None = None
        self._public: tuple[State, PublicView] | None = None

    # ------------------------------------------------------ the runtime's view

    @property
    def finished(self) -> bool:
        return is_over(self.state)

    @property
    def colour_seats(self) -> tuple[int, ...]:
        return tuple(self.config.seat_of(i) for i in range(len(COLOURS)))

    def moment(self) -> tuple[Any, ...]:
        """Everything an input can change here except the clock."""
        return (
            self.state, len(self.log), self.undoable, self.hint, self.repeat, self.detail,
            tuple(sorted(self.observed.uids.items())), frozenset(self.observed.silent),
            tuple(sorted(self.observed.stray.items())),
            tuple(self.held), self.unjudged, len(self.events),
        )  # fmt: skip

    def where(self, lang: str = "en") -> str:
        """One public line in `lang` ("en" or "fr"): whose turn and the scores, or the
        result."""
        view = self.public()
        scores = _scores(COLOURS, view.scores, lang)
        if len(self.sides) != len(COLOURS):
            sums = _scores(self.sides, view.side_scores, lang)
            scores = _line("where.sides", lang, scores=scores, sums=sums)
        if view.over:
            won = _won([self.sides[s] for s in view.winners], lang)
            return _line("where.over", lang, won=won, scores=scores)
        assert view.turn is not None and view.seat is not None
        name = self.names[view.seat]
        colour = colour_word(str(view.turn), lang)
        return _line("where.turn", lang, colour=colour, name=name, scores=scores)

    def result(self) -> dict[str, Any]:
        """The replay document. `scores` has one entry a seat, what `companion replay` and
        `demo` print beside the names: the score of the seat's side (VNP-6, VNP-7: a
        player's, or in teams the team's), the lowest winning. `winner` is the seat that
        won alone, else null (a tie, a team, or not over); `winners` the winning sides."""
        view = self.public()
        side = [self._side_of_seat(seat) for seat in range(len(self.names))]
        winner = None
        if len(view.winners) == 1 and self.config.mode is not Mode.TEAMS:
            winner = view.winners[0]
        return {
            "game": self.setup.game,
            "events": list(self.events),
            "scores": [view.side_scores[s] for s in side],
            "winner": winner,
            "side_scores": list(view.side_scores),
            "sides": list(self.sides),
            "winners": list(view.winners),
        }

    def _side_of_seat(self, seat: int) -> int:
        colour = next(i for i in range(len(COLOURS)) if self.config.seat_of(i) == seat)
        return self.config.side_of(colour)

    def public(self) -> PublicView:
        """The engine's public view of the position (built once per position: the page, the
        status line and the OLED all ask for it after every step)."""
        if self._public is None or self._public[0] is not self.state:
            self._public = (self.state, public_view(self.state))
        return self._public[1]

    def legal(self) -> tuple[int, ...]:
        """Every legal placement of the colour to play (cached for the position)."""
        if is_over(self.state):
            return ()
        if self._legal is None or self._legal[0] is not self.state:
            self._legal = (self.state, legal_placements(self.state, self.state.turn))
        return self._legal[1]

    def last_placed(self) -> Shown | None:
        """The last placement on the board, from the events of the game as it stands."""
        for event in reversed(self.log):
            if isinstance(event, Placed):
                return Shown(event.colour, event.piece, event.segments, event.placement)
        return None

    def warm_up(self) -> None:
        """The board's placements and conflict tables, built while the table is idle: a
        new or resumed game shows without them, but a placement past a whole game's worth
        worked out one by one would wait for them (0.6 s on a Pi 4)."""
        tables(self.config.size, self.config.crossing).build()

    def board_view(self) -> dict[str, Any]:
        """The game's public facts for the table's web page (Game.page_view), JSON-ready:
        the board, the pieces left, the scores, the legal placements of the colour to play,
        the last placement and the hint. A placement is its id in `geometry(size)`, which
        the page draws from the size's placement table (companion/games/vnp/page.py): a
        change sends a few numbers, never the segments of every legal placement."""
        view = self.public()
        last = self.last_placed()
        return {
            "size": view.size,
            "starts": [list(s) for s in view.starts],
            "colours": [str(c) for c in COLOURS],
            "colour_seats": list(self.colour_seats),
            "mode": str(self.config.mode),
            "sides": list(self.sides),
            "turn": None if view.turn is None else str(view.turn),
            "seat": view.seat,
            "placed": [list(ids) for ids in view.placed],
            "left": [list(names) for names in view.left],
            "passed": list(view.passed),
            "scores": list(view.scores),
            "side_scores": list(view.side_scores),
            "winners": list(view.winners),
            "over": view.over,
            "legal": list(self.legal()),
            "last": _shown_json(last),
            "hint": _shown_json(self.hint),
        }

    # ------------------------------------------------------------------ table

    def table_changed(self) -> None:
        """No reader sees the board: a report is kept (`observed`) but holds no press."""

    def judge_table(self) -> None:
        """Nothing on the readers is a move in this game."""

    def deadline(self) -> float | None:
        return None

    def on_deadline(self) -> None:
        raise AssertionError("Vous ne passerez pas ! has no deadline")

    def resume(self, record: ResumeInput) -> None:
        """A restart after a cut: the game is all in the journal; the readers' table is
        only recorded."""
        changed = {s for s, uids in record.table.items() if self.observed.uids.get(s) != uids}
        for spot in changed:
            self.observed.uids[spot] = record.table[spot]
        self.emit({"kind": "resume", "changed": sorted(changed)})

    # ----------------------------------------------------------------- presses

    def refuse(self, press: PressInput, reason: Reason) -> None:
        self.detail = None
        super().refuse(press, reason)

    def _refuse_rule(self, press: PressInput, reason: Reason, exc: IllegalAction) -> None:
        """A press the rules refused: its event and notice name the ruling and the
        engine's sentence."""
        why = str(exc).removeprefix(f"{exc.ruling}: ")
        self.emit({"kind": "ignored", "control": press.control, "seat": press.seat,
                   "reason": str(reason), "ruling": exc.ruling, "why": why})  # fmt: skip
        self.notice = Notice(press.control, press.seat, reason, self.now + NOTICE_SECONDS)
        self.detail = (exc.ruling, why)

    def seat_refusal(self, seat: int, control: str, value: Any) -> Reason | None:
        """Whose act a phone's press is (`TableReferee.seat_refusal`): a place or a pass
        names one of the seat's own colours (VNP-7); a hint is the seat to play's; `back`
        takes back only the seat's own placement. Whether the act is legal now (VNP-2...)
        stays the referee's to say."""
        if control in ("place", "pass"):
            colour = _colour(value.get("colour")) if isinstance(value, dict) else None
            mine = colour is None or self._plays(seat, colour)  # no colour: refused as such
            return None if mine else VnpRefusal.NOT_YOUR_COLOUR
        if control == "hint":
            to_play = self.config.seat_of(self.state.turn)
            return None if to_play == seat else Refusal.NOT_YOUR_TURN
        if control == "back" and self.undoable is not None and self.undoable.seat != seat:
            return Refusal.NOT_YOUR_STEP
        return None

    def press(self, press: PressInput) -> None:
        control, seat = press.control, press.seat
        if control not in CONTROLS:
            self.refuse(press, Refusal.NOT_NOW)
        elif seat is not None and not 0 <= seat < len(self.names):
            self.refuse(press, Refusal.NOT_SEATED)
        elif control == "back":
            self._undo(press)
        elif self.finished:
            self.refuse(press, Refusal.NOT_NOW)  # VNP-6: the game is over
        elif control == "hint":
            self._hint(press)
        elif seat is None:
            self.refuse(press, Refusal.NOT_SEATED)
        else:
            self._act(press, seat)

    def _plays(self, seat: int, colour: Colour) -> bool:
        return self.config.seat_of(COLOURS.index(colour)) == seat

    def _act(self, press: PressInput, seat: int) -> None:
        """A seat's place or pass: checked in the order a player would want to be told."""
        value = press.value
        colour = _colour(value.get("colour")) if isinstance(value, dict) else None
        if colour is None:
            self.refuse(press, VnpRefusal.BAD_VALUE)
            return
        if not self._plays(seat, colour):
            self.refuse(press, VnpRefusal.NOT_YOUR_COLOUR)  # VNP-7
            return
        action: Action
        if press.control == "place":
            assert isinstance(value, dict)
            pid = value.get("placement")
            size = geometry(self.config.size).count
            if isinstance(pid, bool) or not isinstance(pid, int) or not 0 <= pid < size:
                self.refuse(press, VnpRefusal.BAD_VALUE)
                return
            if self.repeat == (colour, pid):
                self.refuse(press, VnpRefusal.REPEATED)
                return
            action = Place(colour, pid)
        else:
            action = Pass(colour)
        if COLOURS.index(colour) != self.state.turn:
            self.refuse(press, Refusal.NOT_YOUR_TURN)  # VNP-2
            return
        try:
            self._step(action, seat)
        except IllegalAction as exc:
            placing = isinstance(action, Place)
            reason = VnpRefusal.ILLEGAL_PLACEMENT if placing else VnpRefusal.MAY_NOT_PASS
            self._refuse_rule(press, reason, exc)
        except BadInput:  # pragma: no cover - every malformed value is refused above
            self.refuse(press, VnpRefusal.BAD_VALUE)

    def _step(self, action: Place | Pass, seat: int) -> None:
        """Apply one engine action (raises what the engine raises, changing nothing) and
        emit its events, each with the seat of its colour."""
        before, logged = self.state, len(self.log)
        self.state, events = apply(self.state, action)
        self.log.extend(events)
        self.hint = self.repeat = self.undoable = None
        self.notice = None  # what counted replaces a refusal still on the OLED
        for event in events:
            self.emit(self._event_json(event))
        if isinstance(action, Place):
            self.repeat = (Colour(action.colour), action.placement)
            if not is_over(self.state):  # VNP-6: the end is final
                shown = shown_of(Colour(action.colour), action.placement, self.config.size)
                self.undoable = _Undoable(before, logged, seat, shown)

    def _event_json(self, event: Event) -> dict[str, Any]:
        data = event.to_json()
        if isinstance(event, Placed | Passed | AllPlaced):
            data["seat"] = self.config.seat_of(COLOURS.index(event.colour))
        if isinstance(event, GameOver):
            data["sides"] = list(self.sides)
        return data

    def _hint(self, press: PressInput) -> None:
        """Any seat may ask, but only the seat to play (or the console) is answered."""
        turn = self.state.turn
        if press.seat is not None and press.seat != self.config.seat_of(turn):
            self.refuse(press, Refusal.NOT_YOUR_TURN)
            return
        pid = hint_placement(self.state)
        self.notice = None
        self.hint = shown_of(COLOURS[turn], pid, self.config.size)
        self.emit({"kind": "hint", "seat": press.seat, **self.hint.to_json(), "placement": pid})

    def _undo(self, press: PressInput) -> None:
        """`back`: the last placement, while the next colour has not acted and the game is
        not over; from a seat, only its own. Once another act answered it (or the game
        ended), it is a public fact of the table."""
        undoable = self.undoable
        if not self.undo_allowed:
            self.refuse(press, VnpRefusal.UNDO_OFF)
        elif undoable is None:
            placed = any(self.state.placed)
            self.refuse(press, Refusal.PUBLIC_FACT if placed else Refusal.NOTHING_TO_UNDO)
        elif press.seat is not None and press.seat != undoable.seat:
            self.refuse(press, VnpRefusal.NOT_YOUR_COLOUR)
        else:
            self.state = undoable.before
            del self.log[undoable.logged :]
            self.undoable = self.hint = self.repeat = self.notice = None
            shown = undoable.shown
            self.emit({"kind": "undo", "step": "place", "seat": undoable.seat,
                       "colour": str(shown.colour), "piece": shown.piece,
                       "placement": shown.placement})  # fmt: skip

    # ----------------------------------------------------------------- screen

    @property
    def screen(self) -> VnpAnyScreen:
        """What the OLED shows now: a refused press for a moment, else the board, or the
        game over."""
        view = self.public()
        base = (view, self.names, self.colour_seats, self.sides)
        notice = self.notice_shown()
        if notice is not None:
            ruling, why = self.detail if self.detail is not None else (None, None)
            return VnpNoticeScreen(*base, notice, ruling, why)
        if is_over(self.state):
            return VnpGameOverScreen(*base)
        last = self.log[-1] if self.log else None
        passed = last.colour if isinstance(last, Passed) else None
        return VnpBoardScreen(*base, self.last_placed(), passed, self.hint)


def _shown_json(shown: Shown | None) -> dict[str, Any] | None:
    """A placement the page shows: its colour, piece and id (no piece nor id: a hint to
    pass)."""
    if shown is None:
        return None
    return {"colour": str(shown.colour), "piece": shown.piece, "placement": shown.placement}


# ------------------------------------------------------------------ transcript


def _line(key: str, lang: str, **fields: object) -> str:
    """The sentence `key` of `lang` ("en" or "fr"), filled in."""
    return LINES[check_lang(lang)][key].format(**fields)


def _scores(names: Sequence[str], scores: Sequence[int], lang: str) -> str:
    """Each name (a colour, a side) with its score, a colour in `lang`: "jaune 12, bleu
    -10, rouge 3" (fr), "yellow 12, blue -10, red 3" (en)."""
    return ", ".join(f"{colour_word(n, lang)} {s}" for n, s in zip(names, scores, strict=True))


def _won(names: Sequence[str], lang: str) -> str:
    """VNP-6: the winning sides, "Ana wins" or "Ana and Bob win" (a team by its colours)."""
    joined = _line("and", lang).join(colour_word(name, lang) for name in names)
    return _line("won" if len(names) == 1 else "won.many", lang, names=joined)


def _refusal(event: Mapping[str, Any], lang: str) -> tuple[str, str]:
    """The control and the engine's sentence of a press a rule refused (a place or a pass),
    as `lang` says them: the OLED's sentence (`why_text`), lowercased mid-line and without
    the full stop it has on a screen of its own; in French the control's label ("Pose")."""
    control, why = str(event["control"]), why_text(str(event["why"]), lang).removesuffix(".")
    if check_lang(lang) == "en":
        return control, why[:1].lower() + why[1:]
    return phrase(f"control.{control}", lang).lower(), why[:1].lower() + why[1:]


def describe(event: Mapping[str, Any], names: Sequence[str], lang: str = "en") -> str | None:
    """One readable line for a VNP event in `lang` ("en" or "fr"): `companion replay` and
    `companion demo` (English), the table's web page (its language); None for the events
    every game shares (resume...)."""
    kind = event["kind"]
    who = _who(event.get("seat"), names)
    colour = colour_word(str(event.get("colour")), lang)
    if kind in ("placed", "passed", "all_placed"):
        piece, bonus = event.get("piece"), ALL_PLACED_BONUS
        return _line(kind, lang, who=who, colour=colour, piece=piece, bonus=bonus)
    if kind == "game_over":
        sides = event.get("sides") or [str(i + 1) for i in range(len(event["side_scores"]))]
        won = _won([sides[i] for i in event["winners"]], lang)
        line = _line("game_over", lang, won=won, scores=_scores(COLOURS, event["scores"], lang))
        if len(sides) != len(COLOURS):
            sums = _scores(sides, event["side_scores"], lang)
            line = _line("game_over.sides", lang, line=line, sums=sums)
        return line
    if kind == "hint":
        whose = f"{colour} ({who})" if event.get("seat") is not None else str(colour)
        if event.get("piece") is None:
            return _line("hint.pass", lang, whose=whose)
        return _line("hint", lang, whose=whose, piece=event["piece"])
    if kind == "undo" and event.get("step") == "place":
        return _line("undo", lang, who=who, piece=event["piece"], colour=colour)
    if kind == "ignored" and event.get("ruling"):
        control, why = _refusal(event, lang)
        return _line("ignored", lang, who=who, control=control, ruling=event["ruling"], why=why)
    return None


def _who(seat: object, names: Sequence[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
