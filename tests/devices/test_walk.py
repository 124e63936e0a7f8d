"""`companion doctor --walk` on a scripted table: the builder puts each token where told,
the readers report as their wiring makes them, and the walk names each fault.

The table here is a small model of a mat (which reader sits under which spot, which
neighbour reads across, which reader is dead or noisy) that answers the walk's prompts
with the observations a Pico would send; the emulated board runs the same walk on the
real firmware (tests/pico/test_pico_walk.py)."""

from __future__ import annotations

import json
import queue
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.config.model import ReadersConfig
from companion.devices.profile import (
    PROFILE,
    ProfileError,
    Remapped,
    load_profile,
    played_as,
    table_profile,
    write_profile,
)
from companion.devices.readers import (
    Observation,
    ReaderFault,
    ReaderOk,
    SpotContents,
)
from companion.devices.walk import PROMPTS, FindSettle, WalkScreen, Wiring, walk_session
from companion.kit.table import load_table


@dataclass
class Mat:
    readers: int
    under: dict[int, int] = field(default_factory=dict)
    """Spot -> the reader that actually sits under it (default: the same number)."""
    across: dict[int, int] = field(default_factory=dict)
    """Spot -> a neighbour reader that also reads a token there now and then."""
    shared: dict[int, int] = field(default_factory=dict)
    """Spot -> a neighbour reader that reads a token there as well as its own reader, visit
    after visit: the Pico reports the two sharing one tag (``E r shared_n``, no UID)."""
    dead: set[int] = field(default_factory=set)
    noisy: set[int] = field(default_factory=set)
    inbox: queue.Queue[Observation] = field(default_factory=queue.Queue)
    said: list[str] = field(default_factory=list)
    shown: list[WalkScreen] = field(default_factory=list)
    tokens: int = 0
    lay: tuple[int, ...] = ()
    """Spots the builder lays a token on when asked for the power-up wait's search."""
    lang: str = "en"
    """The walk's language, which the builder reads its prompts in."""

    def __post_init__(self) -> None:
        for r in range(self.readers):
            if r in self.dead:
                self.inbox.put(ReaderFault(r, "absent"))
            else:
                self.inbox.put(SpotContents(r, frozenset()))

    def reader_at(self, spot: int) -> int:
        return self.under.get(spot, spot)

    def say(self, text: str) -> None:
        self.said.append(text)
        words = PROMPTS[self.lang]
        where = "(?:{}|{})".format(re.escape(words["spot"]).replace(r"\{n\}", r"(\d+)"),
                                   re.escape(words["pad"]))  # fmt: skip
        put = re.match(re.escape(words["put"]).replace(r"\{place\}", where), text)
        take = re.match(re.escape(words["take"]).replace(r"\{place\}", where), text)
        if text == words["lay"]:
            for spot in self.lay:  # one at a time, as a builder does
                self._report(spot, frozenset({f"04C0FFEE0000{spot:02X}"}))
        if put:
            spot = int(put.group(1) or 0)
            self.tokens += 1
            uid = f"04A1B2C3D4E5{self.tokens:02X}"
            self.placed = (spot, uid)
            self._report(spot, frozenset({uid}))
        elif take:
            spot, _ = self.placed
            self._report(spot, frozenset())

    def _report(self, spot: int, uids: frozenset[str]) -> None:
        reader = self.reader_at(spot)
        if reader in self.dead:
            return
        if spot in self.shared:
            other = self.shared[spot]
            for a, b in ((reader, other), (other, reader)):
                self.inbox.put(ReaderFault(a, f"shared_{b}") if uids else ReaderOk(a))
            if not uids:  # the S frames after E ok: still the tag, gone a debounce later
                for held in (frozenset({self.placed[1]}), uids):
                    for r in (reader, other):
                        self.inbox.put(SpotContents(r, held))
            return
        if reader in self.noisy and uids:
            self.inbox.put(SpotContents(reader, uids))
            self.inbox.put(SpotContents(reader, frozenset()))  # dropped while held
            self.inbox.put(ReaderFault(reader, "absent"))
            self.inbox.put(ReaderOk(reader))
        if spot in self.across:  # the neighbour happens to report first
            self.inbox.put(SpotContents(self.across[spot], uids))
        self.inbox.put(SpotContents(reader, uids))

    def walk(self, wiring: Wiring | None = None, find_settle: FindSettle | None = None) -> Any:
        return walk_session(
            self.inbox,
            self.readers,
            self.say,
            self.shown.append,
            hold=0.05,
            timeout=0.3,
            lang=self.lang,
            wiring=wiring,
            find_settle=find_settle,
        )


def _wiring() -> Wiring:
    table = load_table()
    return Wiring({r.number: r.cs for r in table.readers})


def test_a_clean_table_passes_and_every_step_was_asked_on_the_oled() -> None:
    mat = Mat(7)
    result = mat.walk()
    assert result.healthy and result.findings == []
    assert set(result.verdicts.values()) == {"ok"}
    asked = [s.text for s in mat.shown if s.text.startswith("Put a token")]
    assert asked == ["Put a token on the pad."] + [f"Put a token on spot {n}." for n in range(1, 7)]
    assert mat.shown[-1].text == "Done: all is well."
    assert "table passed the walk" in mat.said


def test_two_swapped_chip_selects_are_named_with_their_gpios_and_connectors() -> None:
    mat = Mat(7, under={3: 4, 4: 3})
    result = mat.walk(_wiring())
    assert result.verdicts[3] == result.verdicts[4] == "swapped"
    assert result.spot_of == {3: 4, 4: 3}
    (finding,) = result.findings
    assert "readers 3 and 4 are swapped" in finding
    assert "connector J3, chip select GP2" in finding and "connector J4, chip select GP3" in finding


def test_a_reader_under_the_wrong_spot_alone_is_a_moved_cable() -> None:
    mat = Mat(7, under={5: 6, 6: 6})
    result = mat.walk()
    assert result.verdicts[5] == "moved"
    assert any("the token on spot 5 was read by reader 6" in f for f in result.findings)


def test_a_dead_reader_a_neighbour_reading_across_and_a_noisy_miso_are_each_named() -> None:
    mat = Mat(7, dead={2}, across={4: 5}, noisy={6})
    result = mat.walk()
    assert result.verdicts == {
        0: "ok",
        1: "ok",
        2: "dead",
        3: "ok",
        4: "ok",
        5: "reads across",
        6: "unreliable",
    }
    text = " | ".join(result.findings)
    assert "reader 2 never answered (absent)" in text
    assert "reader 5 also reads the token on spot 4" in text
    assert "reader 6 is unreliable" in text and "floating MISO" in text
    assert not result.healthy


def test_a_tag_the_pico_reports_shared_by_two_readers_is_a_neighbour_reading_across() -> None:
    mat = Mat(7, shared={4: 5})
    result = mat.walk()
    assert result.verdicts == {r: "reads across" if r == 5 else "ok" for r in range(7)}
    (finding,) = result.findings
    assert finding.startswith("reader 5 also reads the token on spot 4")
    assert "  reader 4 and reader 5 both read it (the Pico reports them sharing one tag)" in (
        mat.said
    )
    assert mat.said[-1] == "table did NOT pass the walk"


def test_a_tag_shared_with_a_reader_past_the_walked_ones_is_the_spots_own_read() -> None:
    """Walking 7 readers of a larger Pico: spot 4's token shared with reader 9, which the
    walk does not cover, is read by reader 4 (nothing to name reader 9 by)."""
    mat = Mat(7, shared={4: 9})
    result = mat.walk()
    assert result.steps[4].seen_on == [4] and result.verdicts[4] == "ok"


def test_tags_left_on_the_mat_are_asked_off_first_and_never_taken_for_a_token() -> None:
    mat = Mat(3)
    mat.inbox.put(SpotContents(1, frozenset({"DEADBEEF"})))
    mat.inbox.put(SpotContents(1, frozenset({"DEADBEEF"})))
    result = mat.walk()
    assert mat.said[0] == "Take every token off the mat."
    assert result.steps[1].token != "DEADBEEF"


def test_the_profile_is_written_read_back_and_swaps_the_readers_for_the_service(
    tmp_path: Path,
) -> None:
    mat = Mat(7, under={3: 4, 4: 3})
    result = mat.walk(_wiring())
    write_profile(tmp_path, result.profile())
    profile = load_profile(tmp_path)
    assert profile is not None and not profile.healthy and profile.spot_of == {3: 4, 4: 3}

    class Source:
        def start(self, sink: queue.Queue[Observation]) -> None:
            sink.put_nowait(SpotContents(3, frozenset({"AA"})))
            sink.put_nowait(ReaderFault(4, "absent"))

        def stop(self) -> None:
            pass

    played = played_as(Source(), table_profile(tmp_path))
    assert isinstance(played, Remapped)
    out: queue.Queue[Observation] = queue.Queue()
    played.start(out)
    assert [out.get_nowait(), out.get_nowait()] == [
        SpotContents(4, frozenset({"AA"})),
        ReaderFault(3, "absent"),
    ]


def test_a_damaged_profile_is_ignored_and_the_table_plays_as_wired(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / PROFILE).write_text(
        json.dumps(
            {"profile": 1, "readers": 3, "walked": "x", "healthy": True, "spot_of": {"1": 2}}
        )
    )
    source = object()
    assert table_profile(tmp_path) is None
    assert played_as(source, None) is source  # type: ignore[arg-type]
    assert "spot_of must swap readers among themselves" in caplog.text


class Search:
    """The power-up wait's search as the walk calls it: what it was given, and a result."""

    def __init__(self, found: tuple[int, int] | None) -> None:
        self.found = found
        self.given: dict[int, frozenset[str]] = {}

    def __call__(self, contents: dict[int, frozenset[str]]) -> tuple[int, int] | None:
        self.given = {r: uids for r, uids in contents.items() if uids}
        return self.found


def test_the_walk_times_the_tokens_laid_on_both_buses_and_the_profile_keeps_it(
    tmp_path: Path,
) -> None:
    mat = Mat(4, lay=(1, 3))
    search = Search((1950, 3900))
    result = mat.walk(Wiring(bus={0: 0, 1: 0, 2: 1, 3: 1}), search)
    assert result.healthy, result.findings
    assert set(search.given) == {1, 3}  # the search ran once both buses held a token
    assert "  (bus 0: the pad, spot 1; bus 1: spot 2, spot 3)" in mat.said
    assert [s.text for s in mat.shown[-3:]] == [
        "Lay tokens on the spots (one per bus at least), then leave them still.",
        "Timing the tokens' power-up: do not touch them.",
        "Done: all is well.",
    ]
    assert any("every token read at 1950 µs" in line for line in mat.said)
    write_profile(tmp_path, result.profile())
    profile = load_profile(tmp_path)
    assert profile is not None
    assert (profile.settle_lowest_us, profile.settle_us) == (1950, 3900)


def test_a_bus_left_without_a_token_is_said_and_the_search_runs_on_the_other() -> None:
    mat = Mat(4, lay=(1,))
    search = Search((500, 1000))
    result = mat.walk(Wiring(bus={0: 0, 1: 0, 2: 1, 3: 1}), search)
    assert "  no token on bus 1: its readers' power-up is not timed" in mat.said
    assert set(search.given) == {1} and result.settle == (500, 1000)


def test_no_token_laid_leaves_the_wait_unmeasured_and_a_failed_search_is_a_finding() -> None:
    mat = Mat(3)
    search = Search((500, 1000))
    result = mat.walk(find_settle=search)
    assert search.given == {} and result.settle is None and result.healthy
    assert result.profile().settle_us is None
    failed = Mat(3, lay=(2,)).walk(find_settle=Search(None))
    assert not failed.healthy and failed.settle is None
    assert "no power-up wait read every token" in failed.findings[-1]


def _profile_data(**fields: object) -> dict[str, object]:
    return {"profile": 1, "readers": 3, "walked": "x", "healthy": True, **fields}


def test_a_profile_without_the_wait_still_loads_and_the_service_uses_300(tmp_path: Path) -> None:
    (tmp_path / PROFILE).write_text(json.dumps(_profile_data()))
    profile = load_profile(tmp_path)
    assert profile is not None and profile.settle_us is None
    assert ReadersConfig().settle(profile.settle_us) == 300


@pytest.mark.parametrize("value", ["900", True, -1, 20001, 900.5, [900]])
def test_a_bad_wait_in_the_profile_is_a_clear_error_and_the_profile_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, value: object
) -> None:
    (tmp_path / PROFILE).write_text(json.dumps(_profile_data(settle_us=value)))
    with pytest.raises(
        ProfileError,
        match="settle_us = .*: must be a whole number of "
        "microseconds from 0 to 20000; run companion doctor --walk again",
    ):
        load_profile(tmp_path)
    assert table_profile(tmp_path) is None
    assert "table profile ignored" in caplog.text and "Traceback" not in caplog.text


def test_the_wait_set_by_hand_wins_over_the_profiles(tmp_path: Path) -> None:
    from companion.config import load_config
    from companion.devices.serial_link import SerialLink
    from companion.run.devices import _readers

    (tmp_path / PROFILE).write_text(
        json.dumps(_profile_data(settle_us=3900, settle_lowest_us=1950))
    )
    profile = table_profile(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text("[readers]\n")
    link = _readers(load_config(str(config)), profile)
    assert isinstance(link, SerialLink) and link.settings == {"settle_us": 3900}
    config.write_text("[readers]\nsettle_us = 200\n")
    link = _readers(load_config(str(config)), profile)
    assert link.settings == {"settle_us": 200}
    assert ReadersConfig(settle_us=0).settle(3900) == 0  # 0 set by hand is set
