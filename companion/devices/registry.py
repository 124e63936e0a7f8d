"""The tag registry: which token each NFC tag UID belongs to (its kind, ``card:QH``).

Kept as ``tags.json`` in the companion's data directory::

    {"schema": 1, "tags": {"04A1B2C3D4E5F6": "card:QH", "8A2C11F0": "card:10S"}}

Every change is written atomically (temporary file in the same directory, fsync, rename,
fsync of the directory), so a power cut leaves the old file or the new one, never half of
one. Which tag is which token is a secret of the game: the file is 0600 and a folder made
for it 0700 whatever the umask, as the journal's (`companion.journal`).

Unknown UIDs are reported by the referee, never guessed; this module refuses a UID
enrolled twice, a kind no registered game declares (`check_kind`), and a file it cannot
trust, each with a message that names the file and the fix. A file's kinds are only held
to the shape of a kind (`KIND`): a tag enrolled for a game since uninstalled stays, and
each game plays with its own kinds' tags only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from companion.journal import fsync_dir, make_private_dirs, open_private
from companion.journal_fields import json_error, shown

FILENAME = "tags.json"
SCHEMA = 1

KIND = re.compile(r"[a-z][a-z0-9_]*:[A-Za-z0-9_:]+")
"""What every token kind looks like: its family, ":", then the family's own part. Which
families exist is the registered games' business (their `TokenFamily`s)."""
_UID_RE = re.compile("[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")


class RegistryError(Exception):
    """A registry operation that cannot be done; the message says why and what to do."""


class DuplicateUid(RegistryError):
    pass


class UnknownKind(RegistryError):
    pass


class BadUid(RegistryError):
    pass


class CorruptRegistry(RegistryError):
    pass


def check_kind(kind: str) -> str:
    """``kind`` if it is a kind of a registered game's token family, else ``UnknownKind``
    listing every family's kinds (every registered game is loaded)."""
    from companion import games  # the games are loaded only when a kind is checked

    families = games.token_families()
    family = families.get(kind.partition(":")[0])
    if family is None or not family.holds(kind):
        from companion.cli_words import text_of
        from companion.devices.words import say

        known = ", ".join(text_of(f.shown) for f in families.values())

        raise UnknownKind(say("unknown_kind", kind=repr(kind), known=known))
    return kind


def normalise_uid(uid: str) -> str:
    """The canonical spelling of a UID: upper-case hex, 8, 14 or 20 digits."""
    text = uid.strip().upper()
    if not _UID_RE.fullmatch(text):
        raise BadUid(f"{uid!r} is not a tag UID (4, 7 or 10 bytes as hex digits)")
    return text


class TagRegistry(Mapping[str, str]):
    """UID -> kind, loaded from and saved to ``<data_dir>/tags.json``.

    A read-only ``Mapping`` (``registry[uid]``, ``uid in registry``, ``len``); changes go
    through ``enroll`` and ``forget``, which save at once.
    """

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.path = Path(data_dir) / FILENAME
        self._tags: dict[str, str] = self._load()

    # ---- Mapping ------------------------------------------------------------------------------
    def __getitem__(self, uid: str) -> str:
        return self._tags[normalise_uid(uid)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags)

    def __len__(self) -> int:
        return len(self._tags)

    def __contains__(self, uid: object) -> bool:
        if not isinstance(uid, str):
            return False
        try:
            return normalise_uid(uid) in self._tags
        except BadUid:
            return False

    def kind(self, uid: str) -> str | None:
        """The kind of ``uid``, or None if it was never enrolled."""
        return self._tags.get(normalise_uid(uid))

    # ---- changes ------------------------------------------------------------------------------
    def enroll(self, uid: str, kind: str) -> None:
        """Record ``uid`` as ``kind`` and save. A UID already enrolled is refused."""
        uid = normalise_uid(uid)
        check_kind(kind)
        if uid in self._tags:
            from companion.devices.words import say

            raise DuplicateUid(say("duplicate", uid=uid, kind=self._tags[uid], path=self.path))
        self._tags[uid] = kind
        try:
            self.save()
        except BaseException:
            del self._tags[uid]
            raise

    def forget(self, uid: str) -> str:
        """Remove ``uid`` and save; returns the kind it had (``KeyError`` if unknown)."""
        uid = normalise_uid(uid)
        kind = self._tags.pop(uid)
        self.save()
        return kind

    def save(self) -> None:
        """Write the file atomically and privately: a 0600 temporary file, fsync'd,
        renamed over ``tags.json``, the rename fsync'd; missing folders are made 0700."""
        make_private_dirs(self.path.parent)
        text = json.dumps({"schema": SCHEMA, "tags": dict(sorted(self._tags.items()))}, indent=1)
        tmp = self.path.with_name(f".{FILENAME}.{os.getpid()}.tmp")
        try:
            with open_private(tmp, append=False) as f:
                f.write(text + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        fsync_dir(self.path.parent)  # make the rename itself durable

    # ---- loading ------------------------------------------------------------------------------
    def _corrupt(self, what: str) -> CorruptRegistry:
        return CorruptRegistry(
            f"the tag registry {self.path} is corrupt ({what}). Fix it by hand (format: "
            '{"schema": 1, "tags": {"<UID>": "<kind>", ...}}), or move it aside and enrol '
            "the tokens again with `companion enroll`."
        )

    def _load(self) -> dict[str, str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except UnicodeDecodeError:
            raise self._corrupt("not UTF-8 text") from None

        def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
            out: dict[str, Any] = {}
            for key, value in items:
                if key in out:
                    raise self._corrupt("a key appears twice")
                out[key] = value
            return out

        try:
            data = json.loads(text, object_pairs_hook=pairs)
        except json.JSONDecodeError as exc:
            raise self._corrupt(f"not JSON: {exc.msg} at line {exc.lineno}") from None
        except (ValueError, RecursionError) as exc:  # a 5,000-digit number, [[[[...
            raise self._corrupt(f"not JSON we read: {json_error(exc)}") from None
        if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
            raise self._corrupt('no "tags" object')
        if data.get("schema") != SCHEMA:
            raise self._corrupt(f"schema {shown(data.get('schema'))}, expected {SCHEMA}")
        tags: dict[str, str] = {}
        for number, (uid, kind) in enumerate(data["tags"].items(), start=1):
            where = f'tag {number} of "tags"'  # never the UID or the kind: this is logged
            try:
                canonical = normalise_uid(uid)
            except RegistryError:
                raise self._corrupt(f"{where}: not a UID (4, 7 or 10 bytes as hex)") from None
            if not isinstance(kind, str) or not KIND.fullmatch(kind):
                raise self._corrupt(f"{where}: not a token kind (family:name)")
            if canonical in tags:
                raise self._corrupt(f"{where}: its UID appears twice (in another case)")
            tags[canonical] = kind
        return tags
