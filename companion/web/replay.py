"""The page's replay viewer: past journals as public steps, each with its OLED frame.

A journal holds every secret of its game (which tag is which token), so it never leaves
the server. A journal is replayed here through its game's referee, and only what the
table saw is kept: after each input that changed something, the transcript lines it
caused and the OLED screen (drawn to a PNG when asked for). Ticks that changed nothing
are not steps. Replays are cached by file, size and modification time.
"""

from __future__ import annotations

import io
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import games
from companion.journal import JournalError, read_journal
from companion.screens.render import frame
from companion.transcript import describe

JOURNAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.jsonl")
"""What a journal's name may be on the page (no folder, nothing to climb out with)."""


@dataclass(frozen=True, slots=True)
class Step:
    t: float
    lines: tuple[str, ...]
    screen: Any


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
    stopped: int | None = None
    """The input (counted from 1) the game's referee could not apply: the replay ends
    before it, with the result of the inputs before it."""

    def listing(self, current: bool) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "title": self.title,
            "seats": list(self.seats),
            "steps": len(self.steps),
            "finished": self.finished,
            "current": current,
            "stopped": self.stopped,
        }

    def document(self) -> dict[str, Any]:
        return {
            **self.listing(False),
            "steps": [
                {
                    "i": i,
                    "t": step.t,
                    "lines": list(step.lines),
                    "frame": f"/api/journals/{self.name}/frames/{i}.png",
                }
                for i, step in enumerate(self.steps)
            ],
            "result": (
                {"scores": list(self.scores), "winner": self.winner} if self.finished else None
            ),
        }


def replay(path: Path) -> Replay:
    """Replay the journal at `path` into public steps (JournalError if it is unreadable).

    An input the game's referee raises on (a fault of the referee, see
    `companion.session.NotApplied`) ends the steps: the result is that of the inputs
    before it, replayed on a new referee, as the service resumes such a game."""
    journal = read_journal(path)
    game = games.get(journal.setup.game)
    referee = game.referee(journal.setup)
    names = referee.names
    steps = [Step(journal.setup.t, (), referee.screen)]
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
            if (line := describe(event, names, game.name, journal.setup.language)) is not None
        )
        seen = len(referee.events)
        screen = referee.screen
        if lines or screen != before:
            steps.append(Step(record.t, lines, screen))
    result = referee.result()
    return Replay(
        name=path.name,
        game=game.name,
        title=game.title,
        seats=tuple(names),
        language=journal.setup.language,
        steps=tuple(steps),
        finished=referee.finished,
        scores=tuple(result["scores"]),
        winner=result["winner"],
        stopped=stopped,
    )


class Journals:
    """The data directory's journals (the game on now and `archive/`), replayed on demand."""

    def __init__(self, data_dir: Path, current: str = "game.jsonl") -> None:
        self.data_dir = data_dir
        self.current = current
        self._cache: dict[Path, tuple[tuple[int, int], Replay]] = {}
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
