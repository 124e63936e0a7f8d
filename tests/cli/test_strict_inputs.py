"""Issue 15, item 9: a journal, scenario or simulated-input line is read strictly.

Exact types (a boolean is not a number, a string is not a list), finite numbers, the
bounds `config check` enforces, unknown keys named: every bad value is one `JournalError`
naming the key and what it expects, never a silent coercion and never a traceback.
"""

from __future__ import annotations

import io
import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.journal import (
    Input,
    JournalError,
    ReaderInput,
    Setup,
    SpotInput,
    dump_lines,
    game_id,
    new_game_id,
    parse_input,
    parse_setup,
    read_lines,
)

SETUP: dict[str, Any] = {
    "t": 0,
    "type": "setup",
    "scenario": True,
    "game": "ptipasspass",
    "seats": ["Ana", "Bob", "Cy"],
    "first": 0,
    "seed": 7,
    "window": 6,
    "settle": 0.5,
    "language": "fr",
    "tags": {"04A1B2C3D4E580": "animal:lapin", "B1000002": "animal:souris"},
}
INPUTS: dict[str, dict[str, Any]] = {
    "spot": {"t": 3.1, "type": "spot", "spot": 5, "uids": ["04A1B2C3D4E580"]},
    "press": {"t": 4.0, "type": "press", "control": "doublon", "seat": 2},
    "tick": {"t": 12.0, "type": "tick"},
    "reader": {"t": 40.2, "type": "reader", "spot": 7, "ok": False},
    "resume": {"t": 95.0, "type": "resume", "table": {"5": ["04A1B2C3D4E580"], "6": []}},
}


def setup_with(**changes: Any) -> dict[str, Any]:
    return {**SETUP, **changes}


def refused_setup(key: str, **changes: Any) -> str:
    """The message of the JournalError the setup with `changes` raises; it names `key`."""
    with pytest.raises(JournalError) as caught:
        parse_setup(setup_with(**changes))
    message = str(caught.value)
    assert repr(key) in message, message
    return message


def refused_input(kind: str, key: str, **changes: Any) -> str:
    with pytest.raises(JournalError) as caught:
        parse_input({**INPUTS[kind], **changes})
    message = str(caught.value)
    assert repr(key) in message, message
    return message


def test_the_documented_lines_are_read() -> None:
    setup = parse_setup(SETUP)
    assert setup.seats == ("Ana", "Bob", "Cy") and setup.rules == {"window_seconds": 6.0}
    assert parse_input(INPUTS["spot"]) == SpotInput(3.1, 5, frozenset({"04A1B2C3D4E580"}))
    assert parse_input(INPUTS["reader"]) == ReaderInput(40.2, 7, False)
    assert parse_input({**INPUTS["spot"], "uids": ["04a1b2c3d4e580"]}).uids == {"04A1B2C3D4E580"}


def test_seats_as_a_string_is_refused_not_split_into_letters() -> None:
    message = refused_setup("seats", seats="Ana")
    assert "list" in message


@pytest.mark.parametrize("seats", [["Ana", 3], ["Ana", ""], [["Ana"]], {"Ana": 1}])
def test_seats_must_be_a_list_of_names(seats: Any) -> None:
    refused_setup("seats", seats=seats)


@pytest.mark.parametrize("ok", ["false", "true", 0, 1, None])
def test_reader_ok_must_be_a_boolean(ok: Any) -> None:
    message = refused_input("reader", "ok", ok=ok)
    assert "true or false" in message


@pytest.mark.parametrize("spot", [5.7, 5.0, "5", True, -1, None])
def test_a_spot_is_a_whole_number_never_truncated(spot: Any) -> None:
    refused_input("spot", "spot", spot=spot)
    refused_input("reader", "spot", spot=spot)


@pytest.mark.parametrize("t", [math.inf, -math.inf, math.nan, -0.5, "3", True, None, 10**400])
def test_t_is_a_finite_time_from_zero(t: Any) -> None:
    for kind in INPUTS:
        refused_input(kind, "t", t=t)
    refused_setup("t", t=t)


def test_infinity_and_nan_from_a_journal_line_are_refused() -> None:
    """Python's json reads `Infinity` and `NaN`; the journal must not."""
    lines = [json.dumps(SETUP), '{"t":Infinity,"type":"tick"}']
    with pytest.raises(JournalError, match=r"journal:2: .*'t'"):
        read_lines(lines)
    with pytest.raises(JournalError, match=r"'window'"):
        read_lines([json.dumps(SETUP).replace('"window": 6', '"window": NaN')])


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("window", -5),
        ("window", math.nan),
        ("window", 0.5),
        ("window", 61),
        ("window", True),
        ("window", "6"),
        ("settle", 0.0),
        ("settle", 5.5),
        ("doublon_min", -0.1),
        ("doublon_min", math.inf),
    ],
)
def test_durations_keep_the_bounds_of_config_check(key: str, value: Any) -> None:
    from companion.cli_words import text_of
    from companion.config.bounds import SETTLE
    from companion.games.passpass.table_settings import DOUBLON_MIN, WINDOW

    bounds = {"window": WINDOW, "settle": SETTLE, "doublon_min": DOUBLON_MIN}[key]
    assert text_of(bounds.fix) in refused_setup(key, **{key: value})


def test_durations_at_their_bounds_are_accepted_and_ints_are_floats() -> None:
    """An old line's top-level window and doublon_min land in PassPass's rules."""
    setup = parse_setup(setup_with(window=1, settle=5, doublon_min=0))
    assert setup.settle == 5.0
    assert setup.rules == {"window_seconds": 1.0, "doublon_min": 0.0}
    assert isinstance((setup.rules or {})["window_seconds"], float)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("first", 1.5),
        ("first", True),
        ("first", -1),
        ("seed", 2.5),
        ("seed", False),
        ("game", 3),
        ("game", ""),
        ("language", "de"),
        ("language", 1),
        ("layout", [1, 2]),
        ("tags", ["04A1B2C3D4E580"]),
        ("tags", {"04A1B2C3D4E580": 3}),
        ("tags", {"not hex": "animal:lapin"}),
        ("rules", [1]),
        ("scenario", "yes"),
        ("scenario", 1),
    ],
)
def test_setup_values_of_the_wrong_type_or_range_are_refused(key: str, value: Any) -> None:
    refused_setup(key, **{key: value})


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("spot", "uids", "04A1B2C3D4E580"),
        ("spot", "uids", [4]),
        ("spot", "uids", ["XYZ"]),
        ("spot", "age", -0.5),  # a reading made after its report
        ("press", "seat", 1.5),
        ("press", "seat", True),
        ("press", "seat", -1),
        ("press", "control", 3),
        ("press", "control", "Announce!"),
        ("resume", "table", [["5", []]]),
        ("resume", "table", {"five": []}),
        ("resume", "table", {"5": "04A1B2C3D4E580"}),
    ],
)
def test_input_values_of_the_wrong_type_are_refused(kind: str, key: str, value: Any) -> None:
    refused_input(kind, key, **{key: value})


@pytest.mark.parametrize("kind", ["setup", *INPUTS])
def test_unknown_keys_are_named(kind: str) -> None:
    with pytest.raises(JournalError, match="'colour'") as caught:
        if kind == "setup":
            parse_setup(setup_with(colour="bleu"))
        else:
            parse_input({**INPUTS[kind], "colour": "bleu"})
    assert "unknown key" in str(caught.value)


@pytest.mark.parametrize("key", ["game", "seats", "t"])
def test_missing_required_keys_are_named(key: str) -> None:
    with pytest.raises(JournalError, match=repr(key)):
        if key == "t":
            parse_input({"type": "tick"})
        else:
            parse_setup({k: v for k, v in SETUP.items() if k != key})


def test_a_bad_line_is_named_by_file_and_line_without_quoting_the_record() -> None:
    bad = {**INPUTS["spot"], "spot": 5.7}
    lines = [json.dumps(SETUP), json.dumps(INPUTS["tick"]), json.dumps(bad)]
    with pytest.raises(JournalError) as caught:
        read_lines(lines, "game.jsonl")
    message = str(caught.value)
    assert message.startswith("game.jsonl:3: ") and "'spot'" in message
    assert "04A1B2C3D4E580" not in message


# ------------------------------------------------------------------ properties

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["04A1B2C3D4E580", "B1000002", "animal:lapin", "5", "fr", "back"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
SETUP_KEYS = [*SETUP, "doublon_min", "layout", "rules"]
INPUT_KEYS = ["t", "spot", "uids", "control", "seat", "value", "ok", "table"]


def mutated(base: dict[str, Any], keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """`base` with some of `keys` given arbitrary JSON values, some removed, maybe one
    unknown key added."""
    changes = st.dictionaries(st.sampled_from(keys), JSON, max_size=4)
    drops = st.sets(st.sampled_from(keys), max_size=2)
    return st.builds(
        lambda c, d: {k: v for k, v in {**base, **c}.items() if k not in d}, changes, drops
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SETUP, SETUP_KEYS))
def test_parse_setup_gives_a_setup_or_a_journal_error(data: dict[str, Any]) -> None:
    try:
        setup = parse_setup(data)
    except JournalError:
        return
    assert isinstance(setup, Setup)
    assert parse_setup(setup.to_json()) == setup  # what is read is written back the same


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(INPUTS)).flatmap(lambda k: mutated(INPUTS[k], INPUT_KEYS)))
def test_parse_input_gives_an_input_or_a_journal_error(data: dict[str, Any]) -> None:
    try:
        record: Input = parse_input(data)
    except JournalError:
        return
    assert parse_input(record.to_json()) == record
    assert math.isfinite(record.t) and record.t >= 0


def test_every_scenario_line_written_by_dump_lines_reads_back() -> None:
    setup = parse_setup(SETUP)
    inputs = [parse_input(data) for data in INPUTS.values()]
    journal = read_lines(dump_lines(setup, inputs))
    assert journal.setup == setup and journal.inputs == inputs


# ------------------------------------------------------------------ item 12: the logs

TABLE_TAGS = {
    "04A00000000001": "animal:colombe",
    "04A00000000002": "animal:lapin",
    "04A00000000003": "animal:souris",
    "B1000001": "animal:colombe",
    "B1000002": "animal:lapin",
    "B1000003": "animal:souris",
}
UNKNOWN_TAG = "DEADBEEF"


def test_the_service_log_names_line_and_field_never_uids_or_token_kinds(tmp_path: Any) -> None:
    """A simulated table fed a known tag, an unknown tag and then a bad line (a spot with a
    fraction, holding a UID): the log says which line and which key, and no UID of the
    setup's tags, no unknown UID and no token kind appears anywhere in it."""
    from tests.pi.conftest import run_service

    setup = {**SETUP, "seats": ["Ana", "Bob"], "tags": TABLE_TAGS}
    lines = [
        setup,
        {"t": 5.1, "type": "spot", "spot": 2, "uids": ["04A00000000002"]},
        {"t": 5.15, "type": "press", "control": "announce", "value": "lapin"},
        {"t": 6.1, "type": "spot", "spot": 3, "uids": [UNKNOWN_TAG]},
        {"t": 7.0, "type": "tick"},
        {"t": 8.0, "type": "spot", "spot": 5.7, "uids": ["04A00000000003"]},
    ]
    script = "".join(json.dumps(line) + "\n" for line in lines)
    command = ["run", "--sim", "--sim-clock", "script", "--sim-input", "-"]
    done = run_service(*command, "--data-dir", str(tmp_path / "data"), stdin=script, timeout=60)
    log = done.stdout + done.stderr
    assert "stdin:6: spot line: 'spot' must be a whole number" in log, log
    assert '"reason":"unknown_tag"' in log, log  # the unknown tag was seen, and logged
    secrets = {*TABLE_TAGS, *TABLE_TAGS.values(), UNKNOWN_TAG}
    quoted = [s for s in secrets if s in log or s.lower() in log]
    assert not quoted, (quoted, log)


@pytest.mark.parametrize(
    "tags",
    [
        '{"8A2C11F0": "animal:lapin", "8a2c11f0": "animal:lapin"}',
        '{"8A2C11F0": "animal:lapin", "8A2C11F0": "animal:lapin"}',
        '{"8A2C11F0": "dragon"}',
        '{"8A2C11F0Z": "animal:lapin"}',
        '{"8A2C11F0": 3}',
    ],
)
def test_a_corrupt_tag_registry_is_logged_without_its_uids_or_kinds(
    tmp_path: Any, tags: str, caplog: pytest.LogCaptureFixture
) -> None:
    """`run` logs why the registry cannot be read (`load_tags`): by entry, not by UID."""
    from companion.run.game_start import load_tags

    (tmp_path / "tags.json").write_text(f'{{"schema": 1, "tags": {tags}}}', encoding="utf-8")
    with caplog.at_level("ERROR"):
        assert load_tags(tmp_path) == {}
    assert "tags.json is corrupt" in caplog.text
    assert not any(s in caplog.text for s in ("8A2C11F0", "8a2c11f0", "lapin", "dragon"))


def test_a_journal_the_table_wrote_plays_as_simulated_input(tmp_path: Any) -> None:
    """The table's own journal (each line ending in its number and checksum) replays on a
    simulated table as it is; a line changed after it was written is refused, naming its line."""
    from companion.journal import JournalWriter
    from companion.run.sim_input import script_items

    path = tmp_path / "game.jsonl"
    spot = SpotInput(1.5, 3, frozenset({"04A1B2C3D4E580"}))
    with JournalWriter(path) as writer:
        writer.write(parse_setup(SETUP))
        writer.write(spot)
    lines = path.read_text().splitlines(keepends=True)
    assert all(f'"seq":{n},"crc":"' in line for n, line in enumerate(lines, start=1))
    items = list(script_items(io.StringIO("".join(lines)), "game.jsonl"))
    assert items[0].setup == parse_setup(SETUP)  # type: ignore[union-attr]
    assert items[1].record == spot  # type: ignore[union-attr]
    changed = [lines[0], lines[1].replace('"spot":3', '"spot":4')]
    with pytest.raises(JournalError, match=r"game.jsonl:2: .*checksum"):
        list(script_items(io.StringIO("".join(changed)), "game.jsonl"))


@pytest.mark.parametrize(
    ("kind", "named"),
    [
        ("move", "'move'"),
        ("m" * 30, repr("m" * 20)),
        (7, "7"),
        (None, "null"),
        (["spot"], "a list"),
    ],
)
def test_an_unknown_record_type_is_named_at_most_20_characters_and_the_types_listed(
    kind: Any, named: str
) -> None:
    """A line is never quoted whole (it may hold UIDs): a type is shown to its first 20
    characters, a value that is not text by what it is."""
    with pytest.raises(JournalError) as caught:
        parse_input({"t": 1.0, "type": kind})
    types = "types are setup, spot, press, tick, reader, resume"
    assert str(caught.value) == f"unknown record type {named}; {types}"


def test_a_new_game_has_an_id_of_its_own_of_16_hex_digits() -> None:
    """`companion run` writes it on a new game's setup line (the club's result carries
    it): 16 lower-case hex digits, read back as written, never another game's."""
    ids = [new_game_id() for _ in range(1000)]
    assert len(set(ids)) == 1000
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
    setup = parse_setup(setup_with(id=ids[0]))
    assert setup.id == ids[0] and game_id(setup) == ids[0]


def test_a_setup_without_an_id_has_one_derived_from_it_the_same_at_every_replay() -> None:
    """A journal written before ids, or by another command: its game's id is made from its
    setup (16 hex digits), the same each time it is read, another setup's another."""
    setup = parse_setup(SETUP)
    assert setup.id is None
    derived = game_id(setup)
    assert re.fullmatch(r"[0-9a-f]{16}", derived)
    assert game_id(parse_setup(SETUP)) == derived
    assert game_id(parse_setup(setup_with(seed=8))) != derived


@pytest.mark.parametrize(("across", "ok"), [(3, False), (4, True)])
def test_a_tag_across_two_spots_names_another_spot_with_ok_false(across: int, ok: bool) -> None:
    refused_input("reader", "across", spot=3, ok=ok, across=across)
    read = parse_input({**INPUTS["reader"], "spot": 3, "ok": False, "across": 4})
    assert read == ReaderInput(40.2, 3, False, 4)
