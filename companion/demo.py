"""`companion demo` and `companion replay`: a game told as a transcript with its OLED frames.

The demo plays a whole simulated game with bot seats through the real referee and the
real screen renderers (luma's dummy device), prints each event and each new OLED frame,
and writes the journal and an animated GIF of the frames to an output folder.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from PIL import Image

from companion import games
from companion.games import TableReferee
from companion.journal import Input, dump_lines
from companion.screens.model import same_moment
from companion.screens.render import frame
from companion.screens.terminal import save_gif, to_text
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

    def watch(self, record: Input, referee: TableReferee) -> None:
        for event in referee.events[self.seen :]:
            line = describe(event, referee.names, referee.setup.game, self.lang)
            if line and self.out:
                print(f"{event['t']:7.2f}  {line}", file=self.out)
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
    game: str, players: int, seed: int, out_dir: Path, lang: str = "fr", out: IO[str] | None = None
) -> dict[str, Any]:
    out = out or sys.stdout
    descriptor = games.get(game)
    setup = descriptor.simulated_setup(players, seed, language=lang)
    film = Film(lang, out)
    result = descriptor.simulate(setup, on_input=film.watch)
    assert result.referee is not None
    out_dir.mkdir(parents=True, exist_ok=True)
    journal = out_dir / "journal.jsonl"
    lines = dump_lines(setup, result.inputs, checksum=True)  # as a table writes its journal
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gif = out_dir / "oled.gif"
    save_gif(film.frames, gif, film.durations_ms())
    summary = result.referee.result()
    names = setup.seats
    winner = summary["winner"]
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, summary["scores"], strict=True))
    print(f"\nwinner: {names[winner] if winner is not None else 'none'}   scores: {scores}",
          file=out)  # fmt: skip
    print(f"{len(result.inputs)} inputs, {len(film.frames)} frames", file=out)
    print(f"journal: {journal}\nanimation: {gif}", file=out)
    print(f"replay it: companion replay {journal}", file=out)
    return summary


def replay(referee: TableReferee, as_json: bool, out: IO[str] | None = None) -> dict[str, Any]:
    """Print what a referee fed a whole journal made of it: the replay document, or a
    transcript."""
    out = out or sys.stdout
    result = referee.result()
    result["events"] = list(result["events"])  # a game may hand its EventLog itself
    if as_json:
        json.dump(result, out, ensure_ascii=False)
        out.write("\n")
        return result
    for event in result["events"]:
        line = describe(event, referee.names, referee.setup.game)
        if line:
            print(f"{event['t']:7.2f}  {line}", file=out)
    names = referee.setup.seats
    scores = ", ".join(f"{n} {v}" for n, v in zip(names, result["scores"], strict=True))
    status = "finished" if referee.finished else "not finished"
    print(f"game {status}; scores: {scores}", file=out)
    return result
