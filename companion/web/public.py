"""What may leave the server: the public snapshot of the game, built in the referee loop.

The page is a public screen like the OLED, so it is fed the same way: from the referee's
public screen, its transcript (events are public by construction, `companion.transcript`)
and the one-line status the logs already show, in the table's language and, for a screen
of another language (the club's board, `statuses`), in each of the catalogue's. A game may
add its own public facts (`Game.page_view`, built from its engine's public view and public
events only: the hats and their counts, a grid of cards or cubes, a board), which the
game's own page view draws (`Game.page_assets`, whose files the snapshot lists). Nothing
else of the referee is read here, and the web thread never sees the referee at all: it
only receives `Snapshot`s, so a hidden fact cannot reach a response unless one of these
public sources already leaked it (which the no-peek tests check, for the OLED and for
the page).

A page that has a view gets what changed since (`diff`, which the page's script applies
as `patch` does): a change of a game's board costs what changed in it (a placement, a
score, a line of history), whatever the size of the whole view.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from companion import games
from companion.contract.game import Game, TableReferee
from companion.screens.render import frame as render_frame
from companion.screens.text import LANGUAGES
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
        now = table_now(self.game, referee, self.lang)
        view = {
            "game": self.game.name,
            "title": self.game.title,
            "language": self.lang,
            "seats": list(names),
            **now,
            "statuses": {
                lang: now["status"] if lang == self.lang else referee.where(lang)
                for lang in LANGUAGES
            },
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


# ------------------------------------------------------------------ what changed

Op = dict[str, Any]
"""One change of a view, JSON-ready, at `p` (a path of keys and list indexes):
`{"p", "v"}` sets it to `v`; `{"p", "x": 1}` removes that key; `{"p", "d", "a"}` drops the
first `d` items of that list and appends the items `a` (a history that slides)."""

SLIDE_TRIES = 4
"""Where a list's first kept item may have been found: the few first places only (a list
of repeated items is sent whole rather than searched)."""


def diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Op]:
    """The ops that make `new` of `old` (`patch(old, diff(old, new)) == new`), two
    JSON-ready views (dicts, lists, strings, numbers, booleans, None). Values compare as
    Python compares them, so a view must not change a number into a flag in place (1 and
    True are equal). A list is changed item by item when a few items changed, slid when
    it lost items at its start and gained items at its end, else sent whole."""
    ops: list[Op] = []
    _dict_diff(old, new, [], ops)
    return ops


def _dict_diff(old: Mapping[str, Any], new: Mapping[str, Any], path: list[Any],
               ops: list[Op]) -> None:  # fmt: skip
    for key, value in new.items():
        if key in old:
            _value_diff(old[key], value, [*path, key], ops)
        else:
            ops.append({"p": [*path, key], "v": value})
    ops.extend({"p": [*path, key], "x": 1} for key in old if key not in new)


def _changed(a: Any, b: Any) -> bool:
    return a is not b and (type(a) is not type(b) or a != b)


def _value_diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    if not _changed(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        _dict_diff(old, new, path, ops)
    elif isinstance(old, list) and isinstance(new, list) and new:
        _list_diff(old, new, path, ops)
    else:
        ops.append({"p": path, "v": new})


def _list_diff(old: list[Any], new: list[Any], path: list[Any], ops: list[Op]) -> None:
    if len(old) == len(new):
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if _changed(a, b)]
        if len(changed) <= max(1, len(new) // 4):
            for i in changed:
                _value_diff(old[i], new[i], [*path, i], ops)
            return
    dropped = _slide(old, new)
    if dropped is None:
        ops.append({"p": path, "v": new})
    else:
        ops.append({"p": path, "d": dropped, "a": new[len(old) - dropped :]})


def _slide(old: Sequence[Any], new: Sequence[Any]) -> int | None:
    """How many first items of `old` to drop so that the rest begins `new` (at least one
    item kept), or None."""
    first = new[0]
    tries = 0
    for dropped in range(max(0, len(old) - len(new)), len(old)):
        if old[dropped] is not first and old[dropped] != first:
            continue
        if old[dropped:] == new[: len(old) - dropped]:
            return dropped
        tries += 1
        if tries == SLIDE_TRIES:
            break
    return None


def patch(view: Mapping[str, Any], ops: Sequence[Op]) -> dict[str, Any]:
    """`view` with `ops` applied (`diff`), as a new view: `view` itself is left as it was
    (what it shares with the new one is what did not change). The page's script applies
    them the same way (companion/web/static/live.js)."""
    root = dict(view)
    copied: dict[int, Any] = {id(root): root}  # the containers this patch made (kept alive)
    for op in ops:
        node: Any = root
        *parents, last = op["p"]
        for key in parents:
            child = node[key]
            if id(child) not in copied:
                child = list(child) if isinstance(child, list) else dict(child)
                copied[id(child)] = child
                node[key] = child
            node = child
        if "v" in op:
            node[last] = op["v"]
        elif "x" in op:
            del node[last]
        else:
            node[last] = [*node[last][op["d"] :], *op["a"]]
    return root
