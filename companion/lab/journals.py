"""`companion report JOURNAL...`: the lab's figures from games refereed at a real table.

Each journal is replayed through the game's own referee (as `companion replay` does); the
engine events it journals give the same `GameRecord` a lab game gives, so a playtest and a
lab run are measured alike. A real table adds what bots cannot show: how long turns and
decisions take, which faults stopped the table and for how long, refused presses.
Journals of the same game, seat count and rules are one group, reported together.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import games
from companion.cli_words import language
from companion.journal import MAX_JOURNAL, JournalReader, Setup, file_lines, open_journal
from companion.lab.model import GameRecord, LabGame, Variant
from companion.lab.stats import mean_ci
from companion.lab.summary import Figure, VariantFigures, summarize
from companion.lab.variants import load_lab
from companion.lab.words import rules_said, say
from companion.referee.event_log import TableEvent
from companion.screens.text import phrase
from companion.session import feed_journal
from companion.transcript import engine_word, pieces

TABLE = "At the table"
FAULTS = "Faults (seconds lost per game, by what the OLED asked)"
REFUSED = "Refused presses per game, by reason"


@dataclass
class PlayedGame:
    """One journal, replayed."""

    path: Path
    game: str
    players: int
    rules: Mapping[str, Any]
    record: GameRecord
    events: list[TableEvent]
    start: float
    bots: tuple[str, ...] | None = None
    """Who played: the setup's `bots` for a game bots played (`companion demo`);
    `SIMULATED` a seat for one typed at the simulated table (`simulated_table`); None for
    people at a real table."""
    digest: str = ""
    """The journal's content, hashed: the same journal given twice is counted once."""
    virtual: bool = False
    """Played by people on the virtual table (`companion run --virtual`): grouped apart from
    a real table's games and marked so."""


def replay(path: str | os.PathLike[str]) -> PlayedGame:
    """A journal through its referee (JournalError, SetupError, UnknownGame or ValueError for
    a journal the report cannot read: the caller names the file; `NotApplied`, a
    JournalError naming the line, for an input the referee raised on)."""
    with open_journal(path, MAX_JOURNAL) as f:
        reader = JournalReader(file_lines(f), str(path))
        setup = reader.setup
        lab = load_lab(setup.game)
        referee = games.make_referee(setup)
        feed_journal(reader, referee)
    players = len(setup.seats)
    events = list(referee.events)
    return PlayedGame(
        Path(path),
        setup.game,
        players,
        dict(setup.rules or {}),
        lab.record_of(players, setup.first, events),
        events,
        setup.t,
        setup.bots or ((SIMULATED,) * players if simulated_table(setup) else None),
        _digest(path),
        setup.virtual,
    )


SIMULATED = "simulated table"
"""Who played a game typed at the simulated table, in its group's `bots`."""


def simulated_table(setup: Setup) -> bool:
    """Whether a journal was played at the simulated table (`companion play --sim`, or a
    simulated game): its seats and tags are those the simulated table makes from the
    journal's own seed (a real table's tags are the tokens enrolled there, its seed drawn
    at random). A game that reads no token (Vous ne passerez pas !) is told by its seats'
    names alone."""
    try:
        made = games.get(setup.game).simulated_setup(
            len(setup.seats), setup.seed, rules=dict(setup.rules or {})
        )
    except (ValueError, TypeError, KeyError):  # the simulated table cannot make it: not its own
        return False
    return (made.seats, dict(made.tags)) == (setup.seats, dict(setup.tags))


def _digest(path: str | os.PathLike[str]) -> str:
    """The journal's bytes, hashed (read once more: it was just read whole, below
    `MAX_JOURNAL`, so it is a regular file of a few megabytes at most)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(MAX_JOURNAL + 1)).hexdigest()


def report(
    paths: Sequence[str | os.PathLike[str]], progress: Callable[[int, int], None] | None = None
) -> list[VariantFigures]:
    """The figures of every group of journals, in the order their first journal came."""
    groups: dict[tuple[str, int, str, tuple[str, ...] | None, bool], list[PlayedGame]] = {}
    seen: dict[str, PlayedGame] = {}
    twice: dict[tuple[str, int, str, tuple[str, ...] | None, bool], list[str]] = {}
    for done, path in enumerate(paths, start=1):
        try:
            played = replay(path)
        except ValueError as exc:  # a bad journal, setup or game: name the file
            message = str(exc)
            raise ValueError(message if str(path) in message else f"{path}: {message}") from exc
        ruleset = repr(sorted(played.rules.items()))
        key = (played.game, played.players, ruleset, played.bots, played.virtual)
        first = seen.setdefault(played.digest, played)
        if first is not played:
            twice.setdefault(key, []).append(_given_twice(played.path, first.path))
        else:
            groups.setdefault(key, []).append(played)
        if progress:
            progress(done, len(paths))
    results = []
    for key, group in groups.items():
        game, players, _, bots, virtual = key
        lab = load_lab(game)
        title = games.get(game).title
        rules = group[0].rules
        if rules:
            name = say("group_rules", title=title, players=players, rules=rules_said(rules))
        else:
            name = say("group", title=title, players=players)
        if bots is not None:
            name = say("group_simulated" if SIMULATED in bots else "group_bots", name=name)
        elif virtual:
            name = say("group_virtual", name=name)
        variant = Variant(name, game, players, bots or ("people",) * players, len(group), 0, rules)
        source = _source(len(group), bots, virtual)
        figures = summarize(lab, variant, [g.record for g in group], source)
        figures.table = table_figures(lab, group)
        figures.notes[:0] = twice.get(key, [])
        results.append(figures)
    return results


def _source(count: int, bots: tuple[str, ...] | None, virtual: bool = False) -> str:
    """Where a group's games come from: people at a table or on the virtual table, bots (a
    demo's journals) or the simulated table."""
    journals = say("journals", n=count) if count > 1 else say("journal")
    if bots is None:
        return say("source_virtual" if virtual else "source_real", journals=journals)
    return say("source_simulated" if SIMULATED in bots else "source_bots", journals=journals)


def _given_twice(path: Path, first: Path) -> str:
    """The note of a journal given twice (the same file, or a copy of it)."""
    if path.resolve() == first.resolve():
        return say("given_twice", path=path)
    return say("same_journal", path=path, first=first)


def table_figures(lab: LabGame, group: Sequence[PlayedGame]) -> list[Figure]:
    """Time per game, turn and decision; faults and refused presses."""
    turns: list[float] = []
    decisions: list[float] = []
    minutes: list[float] = []
    faults: list[defaultdict[str, float]] = []
    refused: list[Counter[str]] = []
    for played in group:
        events = played.events
        end = events[-1]["t"] if events else played.start
        minutes.append((end - played.start) / 60)
        turns += _gaps(e["t"] for e in events if e.get("kind") in lab.turn_kinds)
        decisions += _decision_waits(events, lab.decision_kinds, played.start)
        faults.append(_fault_seconds(events, end))
        refused.append(Counter(str(e.get("reason")) for e in events if e.get("kind") == "ignored"))
    figures = [
        Figure(TABLE, "minutes per game", mean_ci(minutes)),
        Figure(TABLE, "seconds per turn", mean_ci(turns)),
        Figure(TABLE, "seconds per decision", mean_ci(decisions)),
        Figure(TABLE, "faults per game", mean_ci([f["#"] for f in faults])),
        Figure(
            TABLE,
            "seconds lost to faults per game",
            mean_ci([f.get("seconds", 0.0) for f in faults]),
        ),
        Figure(TABLE, "refused presses per game", mean_ci([sum(r.values()) for r in refused])),
    ]
    reasons = sorted({k for f in faults for k in f if k not in ("#", "seconds")})
    own = games.get(group[0].game).engine_words if group else None
    figures += [
        Figure(
            FAULTS,
            engine_word("fault", reason, language(), own).format(**pieces(language())),
            mean_ci([f.get(reason, 0.0) for f in faults]),
        )
        for reason in reasons
    ]
    refusals = sorted({k for r in refused for k in r})
    figures += [
        Figure(REFUSED, refusal_words(why, language()), mean_ci([r[why] for r in refused]))
        for why in refusals
    ]
    return figures


def refusal_words(reason: str, lang: str = "en") -> str:
    """A refusal's reason as the OLED says it (the core's words or the game's own, which
    replaying its journal registered), in the report's language; an unknown code as is."""
    try:
        return phrase(f"notice.{reason}", lang)
    except KeyError:
        return reason


def _gaps(times: Iterable[float]) -> list[float]:
    marks = list(times)
    return [b - a for a, b in zip(marks, marks[1:], strict=False)]


def _decision_waits(events: Sequence[Mapping[str, Any]], kinds: frozenset[str],
                    start: float) -> list[float]:  # fmt: skip
    """The time before each decision since the event before it (the moment the table
    asked for it)."""
    waits = []
    before = start
    for e in events:
        if e.get("kind") in kinds:
            waits.append(e["t"] - before)
        before = e["t"]
    return waits


def _fault_seconds(events: Sequence[Mapping[str, Any]], end: float) -> defaultdict[str, float]:
    """Seconds from each fault to the table put right, by the fault's reason; "#" counts
    the faults and "seconds" sums them. A fault still open at the end lasts to the end."""
    lost: defaultdict[str, float] = defaultdict(float)
    opened: tuple[float, str] | None = None
    for e in events:
        kind = e.get("kind")
        if kind == "fault" and opened is None:
            opened = (e["t"], str(e.get("reason")))
        elif kind == "fixed" and opened is not None:
            _close(lost, opened, e["t"])
            opened = None
    if opened is not None:
        _close(lost, opened, end)
    return lost


def _close(lost: dict[str, float], opened: tuple[float, str], t: float) -> None:
    seconds = t - opened[0]
    lost[opened[1]] += seconds
    lost["seconds"] += seconds
    lost["#"] += 1
