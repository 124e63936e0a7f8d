"""Vous ne passerez pas ! in the designer's lab: seeded bot games played on the engine's
board (`companion/games/vnp/rules/board.py`), and the figures of a game, read from its
turns or from a refereed game's events.

Seats and colours. Jaune always plays first (VNP-2), so the seat playing jaune is the first
seat, and it rotates with the game's index: game i's first seat is i mod players. With
four players the seats play jaune, bleu, rouge, vert clockwise from the first; with two,
the first seat plays jaune and rouge and the other bleu and vert (VNP-7). A refereed game's
events name each colour's seat, and those are read instead. Game i is seeded as
`companion selfplay vnp` seeds it: one random.Random from "seed:i", then one per seat
drawn from it, in seat order.

The record's figures (the keys of `SECTIONS`): pieces left, scores and the -10 bonus per
colour (VNP-6), passes (VNP-5), side sums and wins by side (VNP-7: a side is a colour with
four players each for themselves, else bleu + vert against jaune + rouge), and the length in
placements. `RULINGS` lists the special cases counted from the events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, cast

from companion.games.vnp import referee
from companion.games.vnp.bots import BOTS, Bot, play_game
from companion.games.vnp.lab_words import WORDS, note
from companion.games.vnp.rule_settings import wrong_mode, wrong_starts
from companion.games.vnp.rules.board import PASS, Board
from companion.games.vnp.rules.config import (
    ALL_PLACED_BONUS,
    COLOURS,
    Config,
    Crossing,
    Mode,
    make_config,
)
from companion.games.vnp.rules.pieces import PIECES, TOTAL_SEGMENTS, geometry
from companion.lab import checks
from companion.lab.model import (
    GameRecord,
    LabGame,
    Lead,
    Mean,
    PerSeat,
    Rate,
    Row,
    Section,
    ThinkingTable,
    Variant,
)
from companion.lab.thinking import extend
from companion.rules.errors import BadInput

GAME = "vnp"
SEATS = (2, 4)
"""VNP-7: two players (two colours each) or four (one colour each)."""
RULE_KEYS = (*referee.RULE_KEYS, *referee.TABLE_KEYS)
"""The keys of a table's `[game.rules]`; the engine's Config has no other field. The
table's `undo_placement` is accepted and changes nothing: bots never take back a
placement."""

RULINGS: dict[str, str] = {
    "VNP-2": "a colour's turn skipped: it is out",
    "VNP-3": "a first piece touched another colour's",
    "VNP-4": "met inside a piece (strict forbids)",
    "VNP-5": "a colour passed, pieces left",
    "VNP-6": "a colour placed all its pieces (-10)",
    "VNP-7": "the best colour's side lost on the sum",
}
"""Each ruling's special case as `record_of` counts it:
VNP-2, a colour that passed or placed all is skipped and the order goes on;
VNP-3, a colour's first piece touched an intersection another colour had reached (its
start was reached first);
VNP-4, a piece met a piece (of any colour) at an intersection inside one of them (a
passage, Fig. 6): allowed by the Nexos rule, what the strict reading forbids;
VNP-5, a colour passed (it never plays again);
VNP-6, a colour placed its 24 pieces and scores -10;
VNP-7 (two players, teams), the side of the lowest colour score did not win on the sum."""


def _per_colour(make: Callable[[str], Row]) -> tuple[Row, ...]:
    """One row a colour, in playing order."""
    return tuple(make(str(c)) for c in COLOURS)


SECTIONS: tuple[Section, ...] = (
    Section(
        "Length",
        (
            Mean("placements per game", "placements"),
            Mean("passes per game (VNP-5)", "passes"),
        ),
    ),
    Section(
        "Wins by side (lowest side score, VNP-6, VNP-7)",
        (
            *_per_colour(lambda c: Rate(f"side of {c}", f"won:{c}", "games")),
            Rate("lowest score shared (a tie)", "tied", "games"),
        ),
    ),
    Section(
        "Scores (VNP-6: segments left, -10 if all placed)",
        (
            *_per_colour(lambda c: Mean(f"score, {c}", f"score:{c}")),
            *_per_colour(lambda c: Mean(f"side sum, side of {c} (VNP-7)", f"side:{c}")),
            Mean("winning side's score", "winning_score"),
            Mean("margin: next side's score minus the winner's", "margin"),
            PerSeat("score of the seat's colours", "score"),
            PerSeat("score of the seat's side", "side_score"),
        ),
    ),
    Section(
        "Pieces left",
        (
            *_per_colour(lambda c: Mean(f"pieces left, {c}", f"left:{c}")),
            PerSeat("pieces left, the seat's colours", "left"),
        ),
    ),
    Section(
        "Passes (VNP-5)",
        (
            *_per_colour(lambda c: Rate(f"{c} passed", f"passed:{c}", "games")),
            Rate("passed before its first piece (VNP-3)", "blocked_start", "colours"),
            PerSeat("passes", "passes"),
        ),
    ),
    Section(
        "All pieces placed (-10, VNP-6)",
        (
            *_per_colour(lambda c: Rate(f"{c} placed all", f"all_placed:{c}", "games")),
            Rate("any colour (share of colours)", "all_placed", "colours"),
        ),
    ),
)

_COLOUR_INDEX = {str(c): i for i, c in enumerate(COLOURS)}
_KEYS = tuple(
    tuple(f"{figure}:{c}" for figure in ("left", "score", "side", "passed", "all_placed", "won"))
    for c in COLOURS
)
"""Per colour, the keys of its counts in a record (`SECTIONS`), in the record's order."""


# ---------------------------------------------------------------------- the variant


def config_of(variant: Variant) -> Config:
    """The engine Config of a variant's rules, or a `Refusal` naming the bad setting."""
    players = variant.players
    checks.seats(GAME, players)
    rules = variant.rules
    checks.rule_keys(variant, RULE_KEYS)
    checks.true_or_false(rules, "undo_placement", True)
    size = checks.whole(rules, "size", 13, 5, 40)
    crossing = checks.one_of(rules, "crossing", [str(c) for c in Crossing], Crossing.NEXOS)
    default = Mode.TWO if players == 2 else Mode.FOUR
    mode = checks.one_of(rules, "mode", [str(m) for m in Mode], default)
    checks.raise_wrong(wrong_mode(Mode(mode), players))
    starts = rules.get("starts", [])
    checks.raise_wrong(wrong_starts(starts, size))
    try:
        return make_config(
            size=size,
            starts=tuple((s[0], s[1]) for s in starts),
            crossing=crossing,
            mode=mode,
        )
    except BadInput as exc:  # pragma: no cover - every bad value is named above
        raise ValueError(f"rules: {exc}") from exc


def check(variant: Variant) -> None:
    """`Refusal` (one sentence naming the setting) for a variant the game cannot play."""
    checks.game(variant, GAME)
    config_of(variant)
    checks.bots(variant, BOTS)


def colour_seats(config: Config, first: int) -> tuple[int, ...]:
    """The seat playing each colour when seat `first` plays jaune (see the module's doc):
    the engine's seats (`Config.seat_of`, VNP-7) turned so that jaune's is `first`."""
    seats = config.seats
    shift = first - config.seat_of(0)
    return tuple((config.seat_of(c) + shift) % seats for c in range(len(COLOURS)))


@dataclass(frozen=True)
class Seating:
    """Who plays game `index` of a variant, and with which rngs (see the module's doc)."""

    config: Config
    first: int
    """The seat playing jaune (VNP-2: it plays first)."""
    seats: tuple[int, ...]
    """The seat playing each colour."""
    rngs: tuple[random.Random, ...]
    """One a seat, in seat order."""


def seating(variant: Variant, index: int) -> Seating:
    """Game `index`'s config, seats and rngs: the rngs as `selfplay_report` seeds them,
    the first seat i mod players."""
    config = config_of(variant)
    rng = random.Random(f"{variant.seed}:{index}")
    rngs = tuple(random.Random(rng.random()) for _ in range(variant.players))
    first = index % variant.players
    return Seating(config, first, colour_seats(config, first), rngs)


# ------------------------------------------------------------------------- playing


def play_with(variant: Variant, index: int, bot_of: Callable[[str], Bot]) -> GameRecord:
    """Game `index` of the variant on the engine's board, each seat's bot made by `bot_of`
    from its kind, as its record (the legal choices of each decision counted)."""
    sit = seating(variant, index)
    game = play_game(
        sit.config,
        [bot_of(variant.bots[s]) for s in sit.seats],
        [sit.rngs[s] for s in sit.seats],
    )
    return turns_record(
        variant.players, sit.config, sit.seats, game.turns, game.board, game.choices
    )


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of the variant, as its record."""
    return play_with(variant, index, BOTS.__getitem__)


def turns_record(
    players: int,
    config: Config,
    seats: tuple[int, ...],
    turns: Sequence[tuple[int, int]],
    board: Board,
    choices: tuple[int, int] = (0, 0),
) -> GameRecord:
    """The record of a game played on a board, from its turns ((colour, placement id or
    PASS), as `bots.Played.turns`) and the board it ended with (its scores, VNP-6, VNP-7);
    `seats`: each colour's seat; `choices` as `GameRecord.choices`."""
    shapes = _shapes(config.size)
    acts = [(colour, 0, 0, 0) if pid == PASS else (colour,) + shapes[pid] for colour, pid in turns]
    over = board.result() if board.over else None
    return _record(players, config, seats, acts, board.over, over, choices)


@cache
def _thinking() -> ThinkingTable:
    """The thinking bot's table, its games played on the engine's board (its module
    imported only when a variant seats one)."""
    from companion.games.vnp.mcts import RESTRICTIONS, seat_bot

    return ThinkingTable(
        restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
        stand_in="largest",
        play=lambda variant, index: play_with(variant, index, seat_bot),
    )


# ------------------------------------------------------------------ from the events

Act = tuple[int, int, int, int]
"""One action as the figures need it: (colour index, segments of the piece placed, or 0
for a pass, the intersections it touches, those inside it), the intersections as bits
y * 64 + x (any board size up to 40 fits, and no size is needed to read events)."""

_ROW = 64

Over = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A GameOver's scores per colour, side scores and winning sides."""


@cache
def _shapes(size: int) -> tuple[tuple[int, int, int], ...]:
    """Per placement id of the board: (segments, touched, inside) as in `Act`."""
    g = geometry(size)

    def wide(mask: int) -> int:
        out = 0
        for point in range(size * size):
            if mask >> point & 1:
                out |= 1 << (point // size * _ROW + point % size)
        return out

    return tuple(
        (PIECES[p.piece].size, wide(p.point_mask), wide(p.inner_mask)) for p in g.placements
    )


def _act(colour: int, segments: Sequence[Sequence[Sequence[int]]]) -> Act:
    """A placement's Act from its `Placed` segments [[x1, y1], [x2, y2]]."""
    ends: dict[tuple[int, int], int] = {}
    for seg in segments:
        for x, y in seg:
            ends[(x, y)] = ends.get((x, y), 0) + 1
    touched = inside = 0
    for (x, y), meeting in ends.items():
        bit = 1 << (y * _ROW + x)
        touched |= bit
        if meeting >= 2:  # two or more of its segments meet there
            inside |= bit
    return colour, len(segments), touched, inside


def record_of(players: int, first: int, events: Iterable[Mapping[str, Any]]) -> GameRecord:
    """The record of a game from its events (`Event.to_json()`, or a referee's journal:
    its `seat` fields are read, a placement taken back (`undo`) is forgotten, other kinds
    are skipped). `first` is the seat that played jaune when the events do not say."""
    acts: list[tuple[Act, int | None]] = []
    seat_of: dict[int, int] = {}
    over: Over | None = None
    for event in events:
        kind = event.get("kind")
        if kind not in ("placed", "passed", "undo", "game_over"):
            continue
        if kind == "game_over":
            over = (tuple(event["scores"]), tuple(event["side_scores"]), tuple(event["winners"]))
            continue
        colour = _COLOUR_INDEX[str(event["colour"])]
        if isinstance(event.get("seat"), int):
            seat_of[colour] = event["seat"]
        if kind == "placed":
            acts.append((_act(colour, event["segments"]), event.get("placement")))
        elif kind == "passed":
            acts.append(((colour, 0, 0, 0), None))
        elif event.get("step") == "place":
            taken = (colour, event.get("placement"))
            for i in range(len(acts) - 1, -1, -1):
                if (acts[i][0][0], acts[i][1]) == taken:
                    del acts[i]
                    break
    if players == 2:
        mode = Mode.TWO
    else:
        mode = Mode.TEAMS if over is not None and len(over[1]) == 2 else Mode.FOUR
    config = Config(mode=mode)  # only its seats and sides are read
    seats = list(colour_seats(config, first % players))
    for colour, seat in seat_of.items():
        seats[colour] = seat
    return _record(players, config, tuple(seats), [a for a, _ in acts], over is not None, over)


def _record(
    players: int,
    config: Config,
    seats: tuple[int, ...],
    acts: Sequence[Act],
    finished: bool,
    over: Over | None,
    choices: tuple[int, int] = (0, 0),
) -> GameRecord:
    """The figures of a game from its actions in order (`seats`: each colour's seat).
    The scores are the engine's (a GameOver event's, or the board's) when the game ended;
    an unfinished journal's are computed here (VNP-6, VNP-7)."""
    n = len(COLOURS)
    placed = [0] * n
    segments = [0] * n
    passed = [0] * n
    rulings = dict.fromkeys(RULINGS, 0)
    blocked = 0
    touched = inside = 0
    previous = -1  # VNP-2: jaune plays first, nobody is skipped before it
    for colour, size, points, inner in acts:
        rulings["VNP-2"] += (colour - previous - 1) % n
        previous = colour
        if not size:
            passed[colour] = 1
            rulings["VNP-5"] += 1
            blocked += not placed[colour]
            continue
        if not placed[colour] and points & touched:
            rulings["VNP-3"] += 1
        if points & inside or inner & touched:
            rulings["VNP-4"] += 1
        touched |= points
        inside |= inner
        placed[colour] += 1
        segments[colour] += size
    everything = len(PIECES)
    all_placed = [int(p == everything) for p in placed]
    rulings["VNP-6"] = sum(all_placed)
    side_of = [config.side_of(c) for c in range(n)]
    if over is not None:
        scores, side_scores, winning = over
    else:
        scores = tuple(
            ALL_PLACED_BONUS if a else TOTAL_SEGMENTS - s
            for a, s in zip(all_placed, segments, strict=True)
        )
        totals = [0] * config.sides
        for colour, score in enumerate(scores):
            totals[side_of[colour]] += score
        side_scores = tuple(totals)
        low = min(side_scores)
        winning = tuple(s for s, t in enumerate(side_scores) if t == low)
    if not finished:
        winning = ()
    counts: dict[str, float] = {
        "games": 1,
        "colours": n,
        "placements": sum(placed),
        "passes": sum(passed),
        "all_placed": sum(all_placed),
        "blocked_start": blocked,
    }
    for colour, (left_key, score_key, side_key, passed_key, all_key, won_key) in enumerate(_KEYS):
        side = side_of[colour]
        counts[left_key] = everything - placed[colour]
        counts[score_key] = scores[colour]
        counts[side_key] = side_scores[side]
        counts[passed_key] = passed[colour]
        counts[all_key] = all_placed[colour]
        counts[won_key] = 1 / len(winning) if side in winning else 0
    if finished:
        ordered = sorted(side_scores)
        counts["winning_score"] = ordered[0]
        counts["margin"] = ordered[1] - ordered[0]
        counts["tied"] = int(len(winning) > 1)
        if config.mode is not Mode.FOUR:
            best = min(scores)
            if not {side_of[c] for c in range(n) if scores[c] == best} & set(winning):
                rulings["VNP-7"] += 1
    seat_colours = [[c for c in range(n) if seats[c] == seat] for seat in range(players)]
    seat_counts: dict[str, tuple[float, ...]] = {
        "left": tuple(sum(everything - placed[c] for c in cs) for cs in seat_colours),
        "score": tuple(sum(scores[c] for c in cs) for cs in seat_colours),
        "side_score": tuple(side_scores[side_of[cs[0]]] if cs else 0 for cs in seat_colours),
        "passes": tuple(sum(passed[c] for c in cs) for cs in seat_colours),
    }
    winners = tuple(sorted({seats[c] for c in range(n) if side_of[c] in winning}))
    return GameRecord(
        players=players,
        first=seats[0],
        winners=winners,
        finished=finished,
        actions=len(acts),
        manches=(len(acts),),
        counts=counts,
        seat_counts=seat_counts,
        rulings={k: v for k, v in rulings.items() if v},
        leads=_leads(acts, seats, side_of, players),
        choices=choices,
    )


def _leads(
    acts: Sequence[Act], seats: Sequence[int], side_of: Sequence[int], players: int
) -> tuple[Lead, ...]:
    """The lead's story: after each placement, each seat's side score so far (its colours'
    segments not placed, or the bonus of a colour with every piece placed, VNP-6), negated
    (the lowest side wins, VNP-7). Followed where each side is one seat's; in teams the
    lead is a side's, which the interest figures do not follow."""
    owners: dict[int, set[int]] = {}
    for colour, side in enumerate(side_of):
        owners.setdefault(side, set()).add(seats[colour])
    if len(owners) != players or any(len(seat) != 1 for seat in owners.values()):
        return ()
    seat_of = [min(owners[side]) for side in side_of]
    pieces = [0] * len(side_of)  # each colour's pieces placed
    last = len(PIECES)
    scores = [0.0] * players
    for seat in seat_of:
        scores[seat] -= TOTAL_SEGMENTS
    story = []
    for at, (colour, size, _, _) in enumerate(acts, start=1):
        if size:  # a pass changes no score
            # Only the colour placed changes its score: its segments left fall by the
            # piece's, and its last piece leaves it the bonus (whole numbers: exact).
            pieces[colour] += 1
            scores[seat_of[colour]] += size if pieces[colour] < last else size - ALL_PLACED_BONUS
            story.append((at, tuple(scores)))
    return tuple(map(_lead, story))


_lead = cast(Callable[[tuple[int, tuple[float, ...]]], Lead], partial(tuple.__new__, Lead))
"""`Lead` of an (at, scores) pair: what `Lead(at, scores)` builds, without a Python call
per lead (a game has about 80)."""


def notes(variant: Variant) -> Sequence[str]:
    """What the board's arithmetic makes certain (VNP-1, VNP-2, VNP-6)."""
    try:
        config = config_of(variant)
    except ValueError:
        return ()
    room = geometry(config.size).segment_count
    pieces = len(COLOURS) * TOTAL_SEGMENTS
    said = []
    if room < pieces:
        said.append(note("room", size=config.size, room=room, pieces=pieces, left=pieces - room))
    if "undo_placement" in variant.rules:
        said.append(note("undo"))
    return said


LAB = extend(LabGame(
    game=GAME,
    rulings=RULINGS,
    sections=SECTIONS,
    check=check,
    play=play,
    record_of=record_of,
    turn_kinds=frozenset({"placed", "passed"}),
    decision_kinds=frozenset({"placed", "passed"}),
    notes=notes,
    words=WORDS,
), _thinking)  # fmt: skip
"""Vous ne passerez pas !'s part of the lab (the descriptor's `lab`); its variants may
seat the thinking bot (`mcts.py`)."""
