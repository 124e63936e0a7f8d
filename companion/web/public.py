"""What may leave the server: the public snapshot of the game, built in the referee loop.

The page is a public screen like the OLED, so it is fed the same way: from the referee's
public screen, its transcript (events are public by construction, `companion.transcript`)
and the one-line status the logs already show. A game may add its own public facts
(`Game.page_view`, built from its engine's public view and public events only: the hats
and their counts, a grid of cards or cubes, a board), which the game's own page view
draws (`Game.page_assets`, whose files the snapshot lists). Nothing else of the
referee is read here, and the web thread never sees the referee at all: it only receives
`Snapshot`s, so a hidden fact cannot reach a response unless one of these public sources
already leaked it (which the no-peek tests check, for the OLED and for the page).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from companion import games
from companion.games import Game, TableReferee
from companion.screens.render import frame as render_frame
from companion.transcript import describe
from companion.web.assets import page_files

HISTORY_LINES = 200
"""The latest lines of the history a snapshot carries (the replay viewer has them all)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One public state of the table: `view` as JSON-ready data and the OLED `frame`."""

    version: int
    view: dict[str, Any]
    frame: Image.Image = field(compare=False)


def table_now(game: Game, referee: TableReferee, lang: str) -> dict[str, Any]:
    """What the page draws of the table now, besides the OLED and the history: the status
    line, whether the game is over, the scores and winner, and the game's own public facts
    (`board`, its `page_view`). The live snapshot and every step of a replay are made of
    it, so a replay draws each step as the live page drew it."""
    result = referee.result()
    return {
        "status": referee.where(lang),
        "finished": referee.finished,
        "scores": list(result["scores"]),
        "winner": result["winner"],
        "board": game.page_view(referee) if game.page_view else None,
    }


class Publisher:
    """Builds a `Snapshot` after each referee step (in the referee loop's thread).

    The history is kept incrementally (events are only ever appended), and the frame is
    drawn again only when the screen changed."""

    def __init__(self, referee: TableReferee, virtual: bool = False) -> None:
        self.referee = referee
        self.virtual = virtual
        """The table is virtual: its page views draw the seats' hands and controls."""
        self.game = games.get(referee.setup.game)
        self.lang = referee.setup.language
        self.history: deque[str] = deque(maxlen=HISTORY_LINES)
        """The latest lines only: a long game's page costs no more memory than a short one."""
        self.history_total = 0
        self._described = 0
        self._screen: Any = None
        self._frame: Image.Image | None = None
        self._frame_no = 0
        self._last: dict[str, Any] | None = None
        self._key: tuple[Any, ...] | None = None
        self.version = 0

    def snapshot(self) -> Snapshot | None:
        """The new snapshot, or None when nothing public changed since the last one."""
        referee = self.referee
        events = referee.events
        screen = referee.screen
        key = (len(events), referee.moment(), screen)
        if key == self._key:
            return None  # the same step, the same screen: a tick that changed nothing
        self._key = key
        names = referee.names
        for event in events[self._described :]:
            line = describe(event, names, referee.setup.game, self.lang)
            if line is not None:
                self.history.append(line)
                self.history_total += 1
        self._described = len(events)
        if self._frame is None or screen != self._screen:
            self._screen = screen
            self._frame = render_frame(screen, self.lang).copy()
            self._frame_no += 1
        view = {
            "game": self.game.name,
            "title": self.game.title,
            "language": self.lang,
            "seats": list(names),
            **table_now(self.game, referee, self.lang),
            "history": list(self.history),
            "history_total": self.history_total,
            "controls": list(self.game.controls),
            "played_on_page": self.game.played_on_page,
            "virtual": self.virtual,
            "page_assets": list(page_files(self.game.name)),
            "frame_no": self._frame_no,
        }
        if view == self._last:
            return None
        self._last = view
        self.version += 1
        return Snapshot(self.version, view, self._frame)
