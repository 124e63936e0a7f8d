"""People's pace through the live service (docs/table.md, "People's pace").

The complaint: a Magicien drops an animal and presses announce a moment later, while the
drop is still settling; the press was refused, the window never opened, a Menteur from
another seat was refused too, and the OLED went on asking for the announcement. Here the
`Service` runs on a clock advanced by hand, with a `Tick` every 0.1 s as the real clock
thread puts them, and the reader and button items the devices put on its queue.
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.config.model import DisplayConfig
from companion.devices.controls import Press
from companion.devices.display import Display
from companion.devices.readers import ReaderFault, ReaderOk, SpotContents
from companion.games.passpass.prompt import Prompt, Say
from companion.games.passpass.referee import CALL_GRACE, PassPassReferee
from companion.games.passpass.rules import RULESETS, Challenge, Phase, public_view
from companion.games.passpass.screens import StatusScreen, VerdictScreen
from companion.games.passpass.sim import make_setup
from companion.journal import ReaderInput, Setup, TickInput, read_journal
from companion.notify import Notifier
from companion.run.clock import TICK
from companion.run.items import Tick
from companion.run.loop import Service
from companion.session import Session
from tests.screens import texts_of

START = 1000.0
"""The monotonic clock's reading when the game starts (any value will do)."""
DROP = 2.0
"""When the Magicien's animal lands in the hat, in game seconds."""
SPOT = 2
"""The hat it lands in."""
MAGICIAN, CHALLENGER = 0, 1
OFFSETS = [0.05, 0.2, 0.4, 0.7, -0.5]
"""When announce is pressed, from the drop: while the drop settles (settle is 0.5 s),
after it was judged, and before the drop."""

Act = tuple[float, Any]
"""A queue item and the game time at which a device puts it on the queue."""


class FakeClock:
    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def ptipasspass() -> Setup:
    return make_setup("ptipasspass", 3, seed=11, first=MAGICIAN)


def token(setup: Setup, seat: int, kind: str) -> str:
    """The UID of a seat's token: seat s owns the s-th group of three tags."""
    uids = list(setup.tags)[3 * seat : 3 * seat + 3]
    (uid,) = (u for u in uids if setup.tags[u] == f"animal:{kind}")
    return uid


def announce(setup: Setup, kind: str) -> Press:
    """The console's announce button of `kind` (left to right: colombe, lapin, souris)."""
    return Press(f"announce:{RULESETS[setup.game].tokens.index(kind)}")


def start(tmp_path: Path, setup: Setup) -> tuple[Service, FakeClock]:
    clock = FakeClock()
    session = Session.start(tmp_path / "game.jsonl", setup)
    display = Display(DisplayConfig(driver="dummy"), setup.language, clock=clock)
    inbox: queue.Queue[Any] = queue.Queue()
    return Service(session, inbox, display, Notifier({}), clock=clock), clock


def run(service: Service, clock: FakeClock, acts: Sequence[Act], until: float) -> None:
    """Play `acts` with a tick every 0.1 s until `until`, as `Service.run` would take them
    from its queue: each item turned into inputs, fed, then the OLED refreshed. An act and
    a tick at the same moment: the act first."""
    ticks = [(round(k * TICK, 3), Tick()) for k in range(1, round(until / TICK) + 1)]
    timeline = sorted([*((t, 0, item) for t, item in acts), *((t, 1, i) for t, i in ticks)],
                      key=lambda entry: (entry[0], entry[1]))  # fmt: skip
    service.refresh()
    for t, _, item in timeline:
        clock.t = START + t
        for record in service.inputs_of(item):
            service.feed(record)
        service.refresh()


def the_complaint(setup: Setup, offset: float) -> tuple[list[Act], float]:
    """Ana drops her lapin, announces lapin `offset` s from the drop; Bob calls Menteur
    1 s after the later of the two."""
    menteur = DROP + max(offset, 0.0) + 1.0
    acts = [
        (DROP, SpotContents(SPOT, frozenset({token(setup, MAGICIAN, "lapin")}))),
        (round(DROP + offset, 3), announce(setup, "lapin")),
        (menteur, Press(f"menteur:{CHALLENGER}")),
    ]
    return acts, menteur


def kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == kind]


@pytest.mark.parametrize("offset", OFFSETS)
def test_an_announce_near_the_drop_counts_and_the_menteur_is_judged(
    tmp_path: Path, offset: float
) -> None:
    setup = ptipasspass()
    service, clock = start(tmp_path, setup)
    acts, menteur = the_complaint(setup, offset)
    run(service, clock, acts, until=menteur + 1.0)
    referee = service.referee
    events = referee.events

    assert not [e for e in kinds(events, "ignored") if e["control"] == "announce"], events
    assert not kinds(events, "ignored"), events
    assert [(e["seat"], e["token"]) for e in kinds(events, "announce")] == [(MAGICIAN, "lapin")]
    (designate,) = kinds(events, "designate")
    assert designate["spot"] == SPOT and designate["t"] == DROP + setup.settle
    (verdict,) = kinds(events, "verdict")
    assert verdict["challenge"] == "menteur" and verdict["seat"] == CHALLENGER
    assert verdict["success"] is False and verdict["shown"] == "lapin"  # she told the truth
    assert verdict["t"] == pytest.approx(menteur + CALL_GRACE)
    if offset < 0:
        assert kinds(events, "held") == [
            {
                "t": DROP + offset,
                "kind": "held",
                "seat": MAGICIAN,
                "control": "announce",
                "value": "lapin",
            }
        ]

    # The OLED: the verdict and what to do, not "announce your animal".
    screen = referee.screen
    assert isinstance(screen, VerdictScreen)
    assert screen.verdict.challenge is Challenge.MENTEUR and screen.verdict.seat == CHALLENGER
    device = service.display.device
    assert device is not None
    sent = device.image.tobytes()
    assert sent == service.display.render(screen).tobytes()
    asking = StatusScreen(
        public_view(referee.state), referee.names, Prompt.of(Say.ANNOUNCE, seat=MAGICIAN)
    )
    assert sent != service.display.render(asking).tobytes()


@pytest.mark.parametrize("offset", OFFSETS)
def test_the_journal_replays_to_the_same_game_without_its_ticks(
    tmp_path: Path, offset: float
) -> None:
    """The complaint, then the rest of the turn and a whole unchallenged one: Ana gives her
    lapin to Bob as the OLED asks; Bob drops his colombe and announces it `offset` s from
    the drop; nobody calls, so the window closes with everyone OK by the clock alone. The
    service journals the ticks that changed something (judgments, the window's end);
    without them the journal replays to the same game. A reader repeating what it saw
    (an unchanged spot) is the last input, so every deadline before it fires in both."""
    setup = ptipasspass()
    service, clock = start(tmp_path, setup)
    acts, menteur = the_complaint(setup, offset)
    give_back = menteur + 1.5
    bob_drop = give_back + 2.0
    acts += [
        (give_back, SpotContents(SPOT, frozenset())),
        (bob_drop, SpotContents(5, frozenset({token(setup, CHALLENGER, "colombe")}))),
        (round(bob_drop + offset, 3), announce(setup, "colombe")),
    ]
    window = (setup.rules or {})["window_seconds"]
    end = bob_drop + max(offset, 0.0) + setup.settle + window + 1.0
    acts.append((end, SpotContents(0, frozenset())))  # the pad reports again: still empty
    run(service, clock, acts, until=end)
    live = service.referee
    assert [e["kind"] for e in kinds(live.events, "place")] == ["place"]
    assert live.state.phase is Phase.PLACE and live.state.magician == 2
    service.session.close()

    journal = read_journal(tmp_path / "game.jsonl")
    assert service.journaled_ticks > 0 and service.skipped_ticks > 0
    ticks = [r for r in journal.inputs if isinstance(r, TickInput)]
    assert len(ticks) == service.journaled_ticks
    replayed = PassPassReferee(journal.setup)
    for record in journal.inputs:
        if not isinstance(record, TickInput):
            replayed.feed(record)
    assert replayed.result() == live.result()
    assert replayed.moment()[:3] == live.moment()[:3]  # the state, no fault, no instruction


def test_a_tag_the_pico_reports_across_two_hats_is_journaled_and_stops_play(
    tmp_path: Path,
) -> None:
    """The Pico's ``E 4 shared_5`` and ``E 5 shared_4`` (one animal pushed half onto the
    next hat): the service journals each reader with the other spot, the referee stops
    play naming both hats, a press meanwhile is refused; once the readers answer again,
    play goes on."""
    setup = ptipasspass()
    service, clock = start(tmp_path, setup)

    def at(t: float, *items: Any) -> None:
        clock.t = START + t
        for item in items:
            for record in service.inputs_of(item):
                service.feed(record)
        service.refresh()

    at(1.0, ReaderFault(4, "shared_5"), ReaderFault(5, "shared_4"), Tick())
    shown = " ".join(texts_of(service.referee.screen, "fr"))
    assert "Chapeaux 4 et 5 : un animal à cheval sur les deux." in shown, shown
    at(1.5, announce(setup, "lapin"))
    at(2.0, ReaderOk(4), ReaderOk(5), Tick())
    service.session.close()
    events = service.referee.events
    assert [(e["kind"], e.get("reason")) for e in events if e["t"] >= 1.0] == [
        ("fault", "across_spots"),
        ("ignored", "table_first"),
        ("fixed", None),
    ]
    journal = read_journal(tmp_path / "game.jsonl")
    readers = [r for r in journal.inputs if isinstance(r, ReaderInput)]
    assert [(r.spot, r.ok, r.across) for r in readers] == [
        (4, False, 5),
        (5, False, 4),
        (4, True, None),
        (5, True, None),
    ]


def test_the_loop_judges_a_settled_drop_by_itself_counting_from_the_reading(
    tmp_path: Path,
) -> None:
    """No clock thread: the loop wakes when the settle ends (`next_due`) and judges the
    drop, its settle counted from the reading (the Pico's age, journaled)."""
    import threading
    import time

    setup = ptipasspass()
    session = Session.start(tmp_path / "game.jsonl", setup)
    display = Display(DisplayConfig(driver="dummy"), setup.language)
    inbox: queue.Queue[Any] = queue.Queue()
    service = Service(session, inbox, display, Notifier({}))
    referee = service.referee
    thread = threading.Thread(target=service.run)
    thread.start()
    try:
        time.sleep(0.1)  # the reading after the game's start
        inbox.put(SpotContents(SPOT, frozenset([token(setup, MAGICIAN, "souris")]), 0.04))
        deadline = time.monotonic() + 10
        while referee.observed.uids[SPOT] == frozenset() or referee.unjudged:
            assert time.monotonic() < deadline, "the drop was never judged"
            time.sleep(0.01)
    finally:
        service.stop()
        thread.join(5)
    (spot,) = [
        i for i in read_journal(tmp_path / "game.jsonl").inputs if i.to_json()["type"] == "spot"
    ]
    assert spot.to_json()["age"] == 0.04
    assert isinstance(referee, PassPassReferee)
    assert referee.last_change == pytest.approx(spot.t - 0.04)
