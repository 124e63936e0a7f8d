"""Guided enrolment against a scripted Readers source, and its argparse wiring."""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.devices.enroll import (
    Step,
    add_doctor_parser,
    add_enroll_parser,
    enroll_session,
    game_steps,
    kind_steps,
)
from companion.devices.readers import Observation, Sink, SpotContents
from companion.devices.registry import TagRegistry

A, B, C = "04A1B2C3D4E5F6", "8A2C11F0", "04FFEEDDCCBBAA"


def pad(*uids: str) -> SpotContents:
    return SpotContents(0, frozenset(uids))


class Script:
    """A Readers source playing ``(delay, observation)`` pairs on its own thread."""

    def __init__(self, events: list[tuple[float, Observation]]) -> None:
        self.events = events
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, sink: Sink) -> None:
        def play() -> None:
            for delay, obs in self.events:
                if self.stopped.wait(delay):
                    return
                sink.put_nowait(obs)

        self.thread = threading.Thread(target=play, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread:
            self.thread.join(1)


class Hands:
    """A pad source driven by what enrolment says, as a person does it: the next tokens
    laid on the pad when a step asks for a tag, taken off once enrolment has answered
    (recorded or refused), so no step races the clock however busy the machine is."""

    ANSWERS = ("recorded", "already enrolled", "at once")

    def __init__(self, laid: Sequence[str | tuple[str, ...]]) -> None:
        """`laid`: what each prompt gets on the pad, one tag or several at once."""
        self.laid = iter((one,) if isinstance(one, str) else one for one in laid)
        self.sink: Sink | None = None

    def start(self, sink: Sink) -> None:
        self.sink = sink
        sink.put_nowait(pad())

    def stop(self) -> None:
        pass

    def hear(self, said: str) -> None:
        assert self.sink is not None
        uids = next(self.laid, None) if said.startswith("[") else None
        if uids is not None:
            self.sink.put_nowait(pad(*uids))
        elif any(answer in said for answer in self.ANSWERS):
            self.sink.put_nowait(pad())


def run(
    tmp_path: Path, events: list[tuple[float, Observation]], steps: list[Step], timeout: float = 1.0
) -> tuple[list[str], object, TagRegistry]:
    said: list[str] = []
    reg = TagRegistry(tmp_path)
    result = enroll_session(
        Script(events), reg, steps, say=said.append, timeout=timeout, settle=0.03
    )
    return said, result, reg


def by_hand(
    tmp_path: Path, laid: list[tuple[str, ...]], steps: list[Step]
) -> tuple[list[str], object, TagRegistry]:
    """Enrolment with a person answering its prompts (`Hands`): what was said, the
    result, the registry."""
    said: list[str] = []
    hands = Hands(laid)

    def say(line: str) -> None:
        said.append(line)
        hands.hear(line)

    reg = TagRegistry(tmp_path)
    result = enroll_session(hands, reg, steps, say=say, timeout=30.0, settle=0.03)
    return said, result, reg


def test_happy_path(tmp_path: Path) -> None:
    steps = game_steps("ptipasspass", seats=1)[:2]
    assert steps[0] == Step("tap seat 1's Dove on the pad", "animal:colombe")
    said, result, reg = by_hand(tmp_path, [(A,), (B,)], steps)
    assert result.complete and result.enrolled == [(A, "animal:colombe"), (B, "animal:lapin")]  # type: ignore[attr-defined]
    assert dict(TagRegistry(tmp_path)) == {A: "animal:colombe", B: "animal:lapin"}
    assert any("tap seat 1's Rabbit" in s for s in said)


def test_refuses_an_enrolled_tag_and_two_at_once(tmp_path: Path) -> None:
    TagRegistry(tmp_path).enroll(A, "animal:souris")
    laid = [(A,), (B, C), (C,)]  # already enrolled, two at once, then the right one
    said, result, reg = by_hand(tmp_path, laid, [Step("tap the Lapin", "animal:lapin")])
    assert result.enrolled == [(C, "animal:lapin")]  # type: ignore[attr-defined]
    text = "\n".join(said)
    assert "already enrolled as animal:souris" in text
    assert "2 tags at once on the pad" in text


def test_times_out_with_a_message(tmp_path: Path) -> None:
    started = time.monotonic()
    said, result, reg = run(tmp_path, [(0.01, pad())], [Step("tap it", "colour:bleu")], timeout=0.3)
    assert not result.complete  # type: ignore[attr-defined]
    assert "timed out after 0.3 s waiting for a tag on the pad at step 1" in said[-1]
    assert time.monotonic() - started < 2 and len(reg) == 0


def test_parsers_set_func(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", required=True)
    add_enroll_parser(sub)
    add_doctor_parser(sub)
    args = parser.parse_args(["enroll", "--data-dir", str(tmp_path), "--list"])
    assert args.func(args) == 0
    args = parser.parse_args(["enroll", "--data-dir", str(tmp_path), "animal:dragon"])
    assert args.func(args) == 2
    args = parser.parse_args(["doctor", "--port", "/x", "--seconds", "1", "--readers", "19"])
    assert callable(args.func) and args.readers == 19


def test_kind_steps_refuse_a_bad_count() -> None:
    assert [s.kind for s in kind_steps(["colour:bleu*2", "animal:lapin"])] == [
        "colour:bleu",
        "colour:bleu",
        "animal:lapin",
    ]
    for spec in ("animal:lapin*0", "animal:lapin*x", "animal:lapin*", "animal:lapin*1001"):
        with pytest.raises(ValueError, match="KIND\\*N with N a whole number from 1 to 1000"):
            kind_steps([spec])


def test_enrolling_a_game_follows_its_rules_deck_size() -> None:
    """Swiped's deck is 24 cards by the book; a table whose rules say 30 enrols 30."""
    book = [s.kind for s in game_steps("swiped", seats=2)]
    bigger = [s.kind for s in game_steps("swiped", seats=2, rules={"deck_size": 30})]
    assert "layout:24" in book and "layout:25" not in book
    assert bigger[:30] == [f"layout:{n}" for n in range(1, 31)] and len(bigger) == len(book) + 6
