"""The data directory: the journal, finished games and the enrolled tags, in one place.

It is one for every command that uses it (`enroll`, `run`, `doctor`, `config check`):
``--data-dir DIR``, else ``$COMPANION_DATA``, else ``paths.data_dir`` of the config
(`locate_data_dir`). One rule, so the tags `enroll` writes are the tags `run` reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from companion.config.model import Config
from companion.config.words import say
from companion.journal import make_private_dirs

DATA_ENV = "COMPANION_DATA"
"""The environment variable naming the data directory (beaten only by ``--data-dir``)."""


def expand(text: str) -> Path:
    """``text`` as a path, a leading ``~`` or ``~user`` expanded; a ValueError saying why
    it names none (a NUL byte, a user this system does not have). The one check of every
    path a person writes for the commands (``paths.data_dir``, ``paths.pins``,
    ``--data-dir``, ``$COMPANION_DATA``), so `config check` refuses what `run` refuses."""
    if "\0" in text:
        raise ValueError(say("nul"))
    try:
        return Path(text).expanduser()
    except RuntimeError:  # ~user of no such user, or ~ without a home
        user = text.split("/", 1)[0][1:]
        raise ValueError(say("no_user", user=user) if user else say("no_home")) from None


@dataclass(frozen=True, slots=True)
class DataDir:
    """Where the data directory is, and where that came from (for messages)."""

    path: Path
    origin: str

    def problem(self, writable: bool = False) -> str | None:
        """Why it can never be a folder (or, ``writable``, why this user may not write
        there), in one line naming where it came from; None when it will do."""
        why = folder_problem(self.path) or (data_dir_unwritable(self.path) if writable else None)
        return None if why is None else say("data_dir", origin=self.origin, why=why)


def locate_data_dir(config: Config, override: str | os.PathLike[str] | None = None) -> DataDir:
    """The one data directory of `enroll`, `run`, `doctor` and `config check`: ``override``
    (their ``--data-dir``) beats ``$COMPANION_DATA``, which beats the config's
    ``paths.data_dir``. One rule, so the tags `enroll` writes are the tags `run` reads."""
    if override is not None and str(override):
        return DataDir(_expanded(str(override)), "--data-dir")
    env = os.environ.get(DATA_ENV)
    if env:
        return DataDir(_expanded(env), f"${DATA_ENV}")
    if config.source is None:
        return DataDir(config.data_dir, say("origin.default"))
    return DataDir(config.data_dir, say("origin.config", source=config.source))


def _expanded(text: str) -> Path:
    """``text`` expanded (`expand`), else as it is: `folder_problem` then says why."""
    try:
        return expand(text)
    except ValueError:
        return Path(text)


def find_data_dir(config: Config, override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory's path (see `locate_data_dir`)."""
    return locate_data_dir(config, override).path


def make_data_dir(path: Path) -> None:
    """Create the data directory (and its missing parents) 0700 whatever the umask: it
    holds the journal, every secret of a game. One that exists is left as it is."""
    make_private_dirs(path)


def folder_problem(path: Path) -> str | None:
    """Why ``path`` can never be a folder (it, or a parent, is a file), or None. A folder
    that does not exist yet is fine: the commands that write create it (the data
    directory, `demo --out`)."""
    try:
        expand(str(path))  # what `locate_data_dir` could not expand
    except ValueError as exc:
        return say("line", name=path, problem=exc)
    for folder in (path, *path.absolute().parents):
        if folder.exists():
            if folder.is_dir():
                return None
            if folder == path:
                return say("is_file", path=path)
            return say("parent_file", path=path, folder=folder)
    return None


def data_dir_unwritable(path: Path) -> str | None:
    """Why this user may not write in ``path`` (or create it), or None when it may."""
    folder = path.absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    if folder == path.absolute():
        return say("unwritable", path=path)
    return say("uncreatable", path=path, folder=folder)
