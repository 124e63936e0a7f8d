"""The page's replay viewer: past journals as public steps, each with its OLED frame and
the table as the live page drew it.

A journal holds every secret of its game (which tag is which token), so it never leaves
the server, not even as a download: what the page offers to download is the game's public
record (`record_text`). A journal is replayed here through its game's referee, and only
what the table saw is kept: after each input that changed something, the transcript
lines it caused, the OLED screen (drawn to a PNG when asked for) and, when asked for, the
public table (`companion.web.public.table_now`: status, scores, the game's `page_view`),
which the game's page view draws as it did live. Ticks that changed nothing are not
steps. Replays are cached by file, size and modification time; those with their tables
(a board can be large) only for the last few journals opened.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import games
from companion.journal import JournalError, read_journal
from companion.screens.render import frame
from companion.screens.text import check_lang
from companion.transcript import describe
from companion.web.assets import page_files
from companion.web.public import table_now

JOURNAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.jsonl")
"""What a journal's name may be on the page (no folder, nothing to climb out with)."""


TABLES_KEPT = 2
"""Replays kept with their steps' tables: the journals last opened in the viewer."""


@dataclass(frozen=True, slots=True)
class Step:
    t: float
    lines: tuple[str, ...]
    screen: Any
    table: str | None = None
    """The public table at this step as JSON (`table_now`), when the replay made them."""


@dataclass(frozen=True, slots=True)
class Replay:
    name: str
    game: str
    title: str
    seats: tuple[str, ...]
    language: str
    steps: tuple[Step, ...]
    finished: bool
    scores: tuple[int, ...]
    winner: int | None
    date: float = 0.0
    """When the journal was last written (its last input), in seconds since the epoch."""
    stopped: int | None = None
    """The input (counted from 1) the game's referee could not apply: the replay ends
    before it, with the result of the inputs before it."""

    @property
    def winner_name(self) -> str | None:
        winner = self.winner
        return self.seats[winner] if winner is not None and 0 <= winner < len(self.seats) else None

    def listing(self, current: bool) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "title": self.title,
            "date": datetime.fromtimestamp(self.date, UTC).isoformat(timespec="seconds"),
            "seats": list(self.seats),
            "steps": len(self.steps),
            "finished": self.finished,
            "winner": self.winner_name if self.finished else None,
            "current": current,
            "stopped": self.stopped,
            "record": f"/api/journals/{self.name}/record.txt",
        }

    def document(self) -> dict[str, Any]:
        return {
            **self.listing(False),
            "language": self.language,
            "page_assets": list(page_files(self.game)),
            "controls": list(games.get(self.game).controls),
            "steps": [
                {
                    "i": i,
                    "t": step.t,
                    "lines": list(step.lines),
                    "frame": f"/api/journals/{self.name}/frames/{i}.png",
                    "table": f"/api/journals/{self.name}/steps/{i}.json",
                }
                for i, step in enumerate(self.steps)
            ],
            "result": (
                {"scores": list(self.scores), "winner": self.winner} if self.finished else None
            ),
        }


def replay(path: Path, tables: bool = False) -> Replay:
    """Replay the journal at `path` into public steps (JournalError if it is unreadable);
    with `tables`, each step keeps the public table at that step (`Step.table`).

    An input the game's referee raises on (a fault of the referee, see
    `companion.session.NotApplied`) ends the steps: the result is that of the inputs
    before it, replayed on a new referee, as the service resumes such a game."""
    date = path.stat().st_mtime
    journal = read_journal(path)
    game = games.get(journal.setup.game)
    lang = journal.setup.language
    referee = game.referee(journal.setup)
    names = referee.names

    def table() -> str | None:
        return json.dumps(table_now(game, referee, lang)) if tables else None

    steps = [Step(journal.setup.t, (), referee.screen, table())]
    seen = 0
    stopped = None
    for number, record in enumerate(journal.inputs, start=1):
        before = steps[-1].screen
        try:
            referee.feed(record)
        except Exception:  # the referee's fault, never the page's: its text may hold a tag
            stopped = number
            referee = game.referee(journal.setup)
            for applied in journal.inputs[: number - 1]:
                referee.feed(applied)
            break
        lines = tuple(
            line
            for event in referee.events[seen:]
            if (line := describe(event, names, game.name, lang)) is not None
        )
        seen = len(referee.events)
        screen = referee.screen
        if lines or screen != before:
            steps.append(Step(record.t, lines, screen, table()))
    result = referee.result()
    return Replay(
        name=path.name,
        game=game.name,
        title=game.title,
        seats=tuple(names),
        language=lang,
        steps=tuple(steps),
        finished=referee.finished,
        scores=tuple(result["scores"]),
        winner=result["winner"],
        date=date,
        stopped=stopped,
    )


class Journals:
    """The data directory's journals (the game on now and `archive/`), replayed on demand."""

    def __init__(self, data_dir: Path, current: str = "game.jsonl") -> None:
        self.data_dir = data_dir
        self.current = current
        self._cache: dict[Path, tuple[tuple[int, int], Replay]] = {}
        self._tables: OrderedDict[Path, tuple[tuple[int, int], Replay]] = OrderedDict()
        self._lock = threading.Lock()

    def paths(self) -> list[Path]:
        """The current journal first, then the archive, newest first."""
        found = []
        live = self.data_dir / self.current
        if live.is_file() and live.stat().st_size:
            found.append(live)
        archive = self.data_dir / "archive"
        if archive.is_dir():
            found.extend(
                sorted(
                    (p for p in archive.iterdir() if JOURNAL_NAME.fullmatch(p.name)),
                    key=lambda p: p.name,
                    reverse=True,
                )
            )
        return found

    def find(self, name: str) -> Path | None:
        """The journal called `name`, if it is one of `paths()`."""
        if not JOURNAL_NAME.fullmatch(name):
            return None
        return next((p for p in self.paths() if p.name == name), None)

    def get(self, path: Path) -> Replay:
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            cached = self._cache.get(path)
            if cached is not None and cached[0] == key:
                return cached[1]
        made = replay(path)
        with self._lock:
            self._cache[path] = (key, made)
        return made

    def with_tables(self, path: Path) -> Replay:
        """The replay of `path` with every step's table (`Step.table`), kept for the last
        `TABLES_KEPT` journals asked for."""
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            cached = self._tables.get(path)
            if cached is not None and cached[0] == key:
                self._tables.move_to_end(path)
                return cached[1]
        made = replay(path, tables=True)
        with self._lock:
            self._tables[path] = (key, made)
            self._tables.move_to_end(path)
            while len(self._tables) > TABLES_KEPT:
                self._tables.popitem(last=False)
        return made

    def listing(self) -> list[dict[str, Any]]:
        out = []
        for path in self.paths():
            try:
                out.append(self.get(path).listing(path.name == self.current))
            except (JournalError, ValueError, OSError):
                # The reason may quote the line, and a line may hold a tag: not on the page.
                out.append({"name": path.name, "error": "unreadable: `companion replay` says why"})
        return out


def frame_png(replay: Replay, i: int) -> bytes:
    """Step `i`'s OLED frame as a PNG."""
    image = frame(replay.steps[i].screen, replay.language)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


_RECORD_WORDS = {
    "fr": {
        "seats": "Joueurs : {v}",
        "result": "Résultat : {v}",
        "winner": "Gagnant : {v}",
        "unfinished": "Partie inachevée",
    },
    "en": {
        "seats": "Players: {v}",
        "result": "Result: {v}",
        "winner": "Winner: {v}",
        "unfinished": "Game not finished",
    },
}


def record_text(replay: Replay) -> str:
    """The game's public record, as the page offers to download it: its title, date and
    seats, every step's time and lines, and the result; nothing the journal alone holds
    (the tags), in the journal's language."""
    words = _RECORD_WORDS[check_lang(replay.language)]
    date = datetime.fromtimestamp(replay.date, UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [replay.title, date, words["seats"].format(v=", ".join(replay.seats)), ""]
    for step in replay.steps:
        out.extend(f"{step.t:9.1f} s  {line}" for line in step.lines)
    out.append("")
    if not replay.finished:
        out.append(words["unfinished"])
    else:
        scores = ", ".join(f"{n} {s}" for n, s in zip(replay.seats, replay.scores, strict=False))
        out.append(words["result"].format(v=scores))
        if replay.winner_name is not None:
            out.append(words["winner"].format(v=replay.winner_name))
    return "\n".join(out) + "\n"
