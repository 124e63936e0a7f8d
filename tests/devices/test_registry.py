"""The tag registry: atomic JSON file, clear refusals."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.devices.registry import (
    BadUid,
    CorruptRegistry,
    DuplicateUid,
    TagRegistry,
    UnknownKind,
    check_kind,
)


def test_enroll_persists_atomically(tmp_path: Path) -> None:
    reg = TagRegistry(tmp_path / "data")
    reg.enroll("04a1b2c3d4e5f6", "animal:lapin")
    reg.enroll("8A2C11F0", "colour:bleu")
    again = TagRegistry(tmp_path / "data")
    assert dict(again) == {"04A1B2C3D4E5F6": "animal:lapin", "8A2C11F0": "colour:bleu"}
    assert again.kind("04A1B2C3D4E5F6") == "animal:lapin" and "8a2c11f0" in again
    assert json.loads((tmp_path / "data" / "tags.json").read_text())["schema"] == 1
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["tags.json"]  # no temp left
    assert again.forget("8A2C11F0") == "colour:bleu" and len(TagRegistry(tmp_path / "data")) == 1


def test_refusals_are_clear(tmp_path: Path) -> None:
    reg = TagRegistry(tmp_path)
    reg.enroll("8A2C11F0", "animal:souris")
    with pytest.raises(DuplicateUid, match="already enrolled as animal:souris"):
        reg.enroll("8a2c11f0", "animal:lapin")
    with pytest.raises(UnknownKind, match="unknown token kind 'animal:dragon'"):
        reg.enroll("04A1B2C3D4E5F6", "animal:dragon")
    with pytest.raises(BadUid):
        reg.enroll("XYZ", "animal:lapin")
    assert len(TagRegistry(tmp_path)) == 1
    for kind in ("card:QH", "card:10S", "cube:rouge", "layout:12", "colour:vert"):
        assert check_kind(kind) == kind
    for kind in ("card:1H", "cube:", "layout", "tally:pebble"):  # no registered game's
        with pytest.raises(UnknownKind, match=r"the games' kinds are animal:colombe\|lapin"):
            check_kind(kind)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not JSON"),
        ('{"schema": 1, "tags": {"8A2C11F0": "animal:lapin", "8A2C11F0": "x"}}', "twice"),
        (
            '{"schema": 1, "tags": {"8A2C11F0": "animal:lapin", "8a2c11f0": "animal:lapin"}}',
            "twice",
        ),
        ('{"schema": 1, "tags": {"8A2C11F0": "dragon"}}', "not a token kind"),
        ('{"schema": 1, "tags": {"8A2C11F0": "animal: lapin"}}', "not a token kind"),
        ('{"schema": 2, "tags": {}}', "schema"),
        ("[]", 'no "tags"'),
    ],
)
def test_corrupt_file_names_the_file_and_the_fix(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / "tags.json").write_text(text)
    with pytest.raises(CorruptRegistry) as err:
        TagRegistry(tmp_path)
    message = str(err.value)
    assert str(tmp_path / "tags.json") in message and why in message
    assert "companion enroll" in message


def test_a_tag_of_a_game_no_longer_installed_is_kept(tmp_path: Path) -> None:
    """The file holds its tags to the shape of a kind only: a tag enrolled for a game since
    uninstalled neither makes the file corrupt nor reaches another game (each plays with
    its own kinds' tags, `companion.run.game_start.new_setup`)."""
    (tmp_path / "tags.json").write_text('{"schema": 1, "tags": {"8A2C11F0": "tally:pebble"}}')
    assert TagRegistry(tmp_path).kind("8A2C11F0") == "tally:pebble"


# The registry says which tag is which token, a secret of the game: tags.json is 0600 and
# a folder made for it 0700 whatever the umask, its rewrites included (as the journal).


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    previous = os.umask(request.param)
    yield request.param
    os.umask(previous)


def test_tags_and_their_new_folders_are_private_after_enroll_and_rewrites(
    tmp_path: Path, umask: int
) -> None:
    data = tmp_path / "var" / "companion"
    reg = TagRegistry(data)
    reg.enroll("04A1B2C3D4E5F6", "animal:lapin")
    assert mode(data / "tags.json") == 0o600
    assert mode(data) == 0o700 and mode(tmp_path / "var") == 0o700
    reg.enroll("8A2C11F0", "colour:bleu")  # a rewrite of the whole file
    assert mode(data / "tags.json") == 0o600 and mode(data) == 0o700
    reg.forget("04A1B2C3D4E5F6")
    assert mode(data / "tags.json") == 0o600 and mode(data) == 0o700
    assert [p.name for p in data.iterdir()] == ["tags.json"]  # no temporary file left
    assert dict(TagRegistry(data)) == {"8A2C11F0": "colour:bleu"}


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"schema": 1, "tags": {}, "n": ' + "9" * 5000 + "}", '{"schema": "04A1B2C3"}'],
)
def test_a_registry_the_parser_chokes_on_is_one_error(tmp_path: Path, text: str) -> None:
    """Nested too deep, a number past Python's digit limit, a UID where the schema goes:
    one `CorruptRegistry`, never a traceback, never the file's content."""
    (tmp_path / "tags.json").write_text(text)
    with pytest.raises(CorruptRegistry) as caught:
        TagRegistry(tmp_path)
    assert "04A1B2C3" not in str(caught.value) and "99999" not in str(caught.value)
