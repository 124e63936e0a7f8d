"""`companion demo` and `companion replay`: a game told as a transcript with its OLED frames,
in the table's language.

The demo plays a whole simulated game with bot seats through the real referee and the
real screen renderers (luma's dummy device), prints each event and each new OLED frame,
and writes the journal and an animated GIF of the frames to an output folder.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from PIL import Image

from companion import games
from companion.cli_words import said_in
from companion.contract.game import TableReferee
from companion.journal import EndLine, Input, JournalReader, dump_lines
from companion.screens.model import same_moment
from companion.screens.render import frame
from companion.screens.terminal import save_gif, to_text
from companion.screens.text import number
from companion.session import EVENTS_KEPT, end_line, feed_journal
from companion.transcript import describe


@dataclass
class Film:
    """The frames of a game, each with the (table) time it appeared."""

    lang: str
    out: IO[str] | None
    frames: list[Image.Image] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    last: Any = None
    seen: int = 0
    inputs: int = 0
    end: tuple[int, EndLine] | None = None
    """The end-of-game line, after how many inputs (a table writes it there)."""

    def watch(self, record: Input, referee: TableReferee) -> None:
        self.inputs += 1
        if referee.finished and self.end is None:
            self.end = (self.inputs, end_line(referee))
        for event in referee.events[self.seen :]:
            line = describe(event, referee.names, referee.setup.game, self.lang)
            if line and self.out:
                print(f"{number(event['t'], '7.2f', self.lang)}  {line}", file=self.out)
        self.seen = len(referee.events)
        screen = referee.screen
        if screen == self.last or same_moment(screen, self.last):
            return
        self.last = screen
        image = frame(screen, self.lang)
        self.frames.append(image)
        self.times.append(record.t)
        if self.out:
            print(to_text(image), file=self.out)

    def durations_ms(self) -> list[int]:
        """Each frame shown for its table time, squeezed into 0.4..2.5 s for a GIF."""
        gaps = [b - a for a, b in zip(self.times, self.times[1:], strict=False)] + [3.0]
        return [int(min(2.5, max(0.4, gap / 3)) * 1000) for gap in gaps]


def run_demo(
    game: str,
    players: int,
    seed: int,
    out_dir: Path,
    lang: str = "fr",
    out: IO[str] | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Play a whole game with bots; print its transcript and every new OLED frame (not
    when `quiet`), then the result and where the journal and the GIF are."""
    out = out or sys.stdout
    descriptor = games.get(game)
    setup = descriptor.simulated_setup(players, seed, language=lang)
    film = Film(lang, None if quiet else out)
    result = descriptor.simulate(setup, on_input=film.watch)
    assert result.referee is not None
    out_dir.mkdir(parents=True, exist_ok=True)
    journal = out_dir / "journal.jsonl"
    # As a table writes its journal, saying that bots played every seat (the report
    # labels such games as bot games, never as real ones).
    played_by = replace(setup, bots=("bot",) * len(setup.seats))
    lines = dump_lines(played_by, result.inputs, checksum=True, end=film.end)
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gif = out_dir / "oled.gif"
    save_gif(film.frames, gif, film.durations_ms())
    summary = result.referee.result()
    names = setup.seats
    winner = summary["winner"]
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, summary["scores"], strict=True))
    if not quiet:
        print(file=out)
    won = names[winner] if winner is not None else said_in("cli.none", lang)
    print(said_in("cli.demo.winner", lang, winner=won, scores=scores), file=out)
    print(said_in("cli.demo.counts", lang, inputs=len(result.inputs), frames=len(film.frames)),
          file=out)  # fmt: skip
    print(said_in("cli.demo.files", lang, journal=journal, gif=gif), file=out)
    print(said_in("cli.demo.replay", lang, journal=journal), file=out)
    return summary


def replay(
    reader: JournalReader, as_json: bool, out: IO[str] | None = None, lang: str | None = None
) -> None:
    """Feed the journal `reader` reads to its game's referee and print, as it goes, what
    the referee made of it: the replay document (JSON: `{game, events, ...}` as the
    referee's `result()`), or a transcript in `lang` (default: the table's, the setup's).
    The referee keeps only its last events (`EVENTS_KEPT`), so memory stays flat however
    long the journal."""
    out = out or sys.stdout
    lang = lang or reader.setup.language
    referee = games.make_referee(reader.setup)
    referee.events.bound(EVENTS_KEPT)
    seen = 0
    if as_json:
        out.write(f'{{"game": {json.dumps(reader.setup.game)}, "events": [')

    def print_new() -> None:
        nonlocal seen
        for event in referee.events[seen:]:
            if as_json:
                out.write((", " if seen else "") + json.dumps(event, ensure_ascii=False))
            elif line := describe(event, referee.names, referee.setup.game, lang):
                print(f"{number(event['t'], '7.2f', lang)}  {line}", file=out)
            seen += 1

    print_new()
    feed_journal(reader, referee, print_new)
    result = referee.result()
    if as_json:
        rest = (f", {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
                for key, value in result.items() if key not in ("game", "events"))  # fmt: skip
        out.write("]" + "".join(rest) + "}\n")
        return
    names = referee.setup.seats
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, result["scores"], strict=True))
    status = said_in("cli.replay.finished" if referee.finished else "cli.replay.unfinished", lang)
    print(said_in("cli.replay.end", lang, status=status, scores=scores), file=out)
