"""The files the page serves: its own (`companion/web/static/`) and each game's page view.

The page's core knows no game. A game that draws itself on the page ships a folder of
files in its own package (`Game.page_assets`: `view.js`, `view.css`...), served at
`/games/<game>/<file>`; the snapshot lists them (`page_assets`) so the page knows which
module to import and which style sheets to link (docs/games.md, "The game's page view").
Only a registered game's files are served, and of those only the names `ASSET_NAME`
allows (no folder, no dot file, a known kind): nothing else of the package ever leaves.
"""

from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

from companion import games
from companion.web.errors import told

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
ASSET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\.(?:js|css|json|svg|png)")
"""A game's file the page may ask for: a plain lower-case name of a served kind (no html:
a game draws inside the page, it adds no page of its own)."""


@functools.cache
def page_files(game: str) -> tuple[str, ...]:
    """The files of `game`'s page view, sorted; () for a game without one. Raises
    `UnknownGame` for a name the registry does not know."""
    folder = games.get(game).page_assets
    if folder is None or not folder.is_dir():
        return ()
    return tuple(
        sorted(f.name for f in folder.iterdir() if ASSET_NAME.fullmatch(f.name) and f.is_file())
    )


def page_file(game: str, name: str) -> tuple[bytes, str]:
    """(content, content type) of one file of `game`'s page view; Refused 404 for an
    unknown game or a file that is not one of its `page_files`."""
    try:
        files = page_files(game)
    except games.UnknownGame as exc:
        raise told(404, "no.game") from exc
    folder = games.get(game).page_assets
    if name not in files or folder is None:
        raise told(404, "no.file", name=name)
    return (folder / name).read_bytes(), CONTENT_TYPES[PurePosixPath(name).suffix]
