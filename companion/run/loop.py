"""The referee loop: one thread owns all state, everything else only puts on its queue.

One referee loop owns all state. Device threads (gpiozero callbacks, the Pico's serial
link, the clock, the simulated input source) only put items on one ``queue.Queue``; the
loop takes them in order, stamps each with ``t`` (seconds since the game started), turns
it into a journal input, feeds the ``Session`` (journal first, fsync'd, then the referee),
redraws the OLED when the screen changed, hands what is worth saying aloud to the sound
worker (`companion.speech`; it never blocks the loop) and pings the systemd watchdog.

Deaths. A device thread that died (`companion.run.supervise`: its `DeviceDied` on the
queue, the simulated input's `ScriptEnd` with an error, or a watched thread found dead at
a tick) ends the loop with status 1 after a Stop naming the device on the OLED, so systemd
restarts the service. The web page of a game not played on the page is the exception:
the game goes on without it (as when the page cannot listen at start), the log and the
systemd status say so.

Time. ``t = time.monotonic() - origin``, where the origin is chosen so that a resumed game
continues its time line from the last journaled ``t``. The clock thread puts a tick every
0.1 s, and the loop itself ticks when the referee's next deadline comes (`next_due`: the
settle time, the end of a challenge window, the 300 ms call grace), so a verdict is not a
clock period late; every tick goes to the referee, but only a tick that changed something
besides the referee's notion of "now" is journaled. A tick that changed nothing cannot
matter to a replay: the next input carries a later ``t`` and the referee only keeps the
latest.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.contract.game import Aiming, Announcing, TableReferee
from companion.devices.controls import EdgeFilter, EncoderTurn, Press, press_input, turn_input
from companion.devices.display import Display
from companion.devices.readers import (
    ButtonEvent,
    LinkStatus,
    ReaderFault,
    ReaderOk,
    SpotContents,
)
from companion.journal import Input, PressInput, ReaderInput, SpotInput, TickInput
from companion.notify import Notifier
from companion.referee.event_log import TableEvent
from companion.run.items import (
    Inbox,
    Item,
    PagePress,
    Scripted,
    ScriptEnd,
    ScriptSetup,
    Tick,
    VirtualMove,
)
from companion.run.supervise import DeviceDied
from companion.screens.device_stop import DeviceStopScreen
from companion.screens.journal_damage import JournalDamageScreen
from companion.session import Session
from companion.speech import Speaker
from companion.web.errors import Refused
from companion.web.virtual import refused

if TYPE_CHECKING:
    from companion.club.link import TableLink
    from companion.run.web_port import WebPort

log = logging.getLogger("companion")


def where(referee: TableReferee) -> str:
    """Where the game stands, in one line for the log and the systemd status."""
    return referee.where()


def show_stop(died: DeviceDied, display: Display, notifier: Notifier) -> int:
    """The Stop naming a dead device, on the OLED and in the systemd status; the exit
    status that makes systemd restart the service (1)."""
    log.error("%s is gone: the service stops with status 1 (systemd restarts it)", died.name)
    display.show(DeviceStopScreen(died.name), force=True)
    notifier.status(f"STOP: {died.name} died: {died.reason}")
    return 1


def damage_card(session: Session) -> JournalDamageScreen | None:
    """The card saying the journal was damaged (`Session.show_damage`), drawn over the
    game's screen for `DAMAGE_CARD_SECONDS` of game time after the start; else None."""
    damage = session.damage
    if damage is None or session.referee.now >= session.damage_until:
        return None
    return JournalDamageScreen(damage.line, damage.inputs, resumed=not damage.setup)


WAKE_MIN = 0.001
"""The shortest wait for the queue (s): a deadline that a tick at the rounded time does not
reach yet is waited for again, never spun on."""


class Service:
    """The referee loop. ``run`` returns when stopped, or the game ends (``until_finished``),
    or the script ends (script clock)."""

    def __init__(
        self,
        session: Session,
        inbox: Inbox,
        display: Display,
        notifier: Notifier,
        *,
        script_clock: bool = False,
        until_finished: bool = False,
        origin: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        spots: int | None = None,
        web: WebPort | None = None,
        watch: Callable[[], DeviceDied | None] | None = None,
        speaker: Speaker | None = None,
        club: TableLink | None = None,
    ) -> None:
        self.session = session
        self.referee = session.referee
        self.inbox = inbox
        self.display = display
        self.notifier = notifier
        self.script_clock = script_clock
        self.until_finished = until_finished
        self.clock = clock
        self.last_t = self.referee.now
        self.origin = clock() - self.last_t if origin is None else origin
        self.spots = self.referee.spots if spots is None else spots
        self.web = web
        self.watch = watch
        """The liveness check at each tick: a watched thread found dead, or None."""
        self.speaker = speaker
        """The table's voice: told after each queue item (`companion.speech`)."""
        self.club = club
        """The club's broker ([club]): told after each step, as the page is."""
        self.exit_status = 0
        self.gone: set[str] = set()
        """Threads whose death was handled (a death is reported once, seen maybe twice)."""
        self.notes: list[str] = []
        """What the systemd status says besides where the game stands (the page stopped,
        a damaged journal found at start)."""
        damage = session.damage
        if damage is not None:
            resumed = "a new game" if damage.setup else f"resumed from input {damage.inputs}"
            self.notes.append(f"journal damaged at line {damage.line}: {resumed}")
        self.pico_buttons = EdgeFilter(bounce=0.0)
        self.link_down = False
        self.stopping = False
        self.journaled_ticks = 0
        self.skipped_ticks = 0
        self._status = ""

    def unrounded(self) -> float:
        """The game time now, unrounded (when a deadline has passed)."""
        return self.clock() - self.origin

    def now(self) -> float:
        self.last_t = max(self.last_t, round(self.clock() - self.origin, 3))
        return self.last_t

    def stop(self, *_: object) -> None:
        self.stopping = True

    # -------------------------------------------------------------- conversion

    def inputs_of(self, item: Item) -> list[Input]:
        """The journal inputs of one queue item (none for what means nothing now)."""
        if isinstance(item, Scripted):
            return self._scripted(item.record)
        if isinstance(item, Tick):
            return [TickInput(self.now())]
        if isinstance(item, Press):
            return self._press(item)
        if isinstance(item, PagePress):
            return [PressInput(self.now(), item.control, item.seat, item.value)]
        if isinstance(item, EncoderTurn):
            return self._turn(item)
        if isinstance(item, SpotContents):
            return [SpotInput(self.now(), item.reader, item.uids, item.age)]
        if isinstance(item, ReaderFault):
            log.warning("reader %d: %s", item.reader, item.code)
            return [ReaderInput(self.now(), item.reader, False, item.across)]
        if isinstance(item, ReaderOk):
            return [ReaderInput(self.now(), item.reader, True)]
        if isinstance(item, ButtonEvent):
            pressed = self.pico_buttons.edge(item.name, item.down, self.clock())
            return [] if pressed is None else self.inputs_of(pressed)
        if isinstance(item, LinkStatus):
            return self._link(item)
        return []

    def _scripted(self, record: Input) -> list[Input]:
        """A script's line: at its own ``t`` (script clock), else now; its ticks only with
        the script clock (the clock thread ticks otherwise)."""
        if self.script_clock:
            self.last_t = max(self.last_t, record.t)
            return [dataclasses.replace(record, t=self.last_t)]
        if isinstance(record, TickInput):
            return []
        return [dataclasses.replace(record, t=self.now())]

    def _press(self, item: Press) -> list[Input]:
        referee = self.referee
        tokens = referee.announce_values if isinstance(referee, Announcing) else ()
        aimed = referee.aim if isinstance(referee, Aiming) else None
        press = press_input(item, self.now(), tokens, aimed)
        if press is None or (press.seat is not None and press.seat >= len(referee.setup.seats)):
            return []  # nothing here, or the button of a seat nobody sits at in this game
        return [press]

    def _turn(self, item: EncoderTurn) -> list[Input]:
        referee = self.referee
        if not isinstance(referee, Aiming):
            return []  # the game has no encoder
        choices = referee.encoder_choices()
        if not choices:
            return []
        turn = turn_input(item, self.now(), choices, referee.aim)
        return [] if turn is None else [turn]

    def _link(self, status: LinkStatus) -> list[Input]:
        """A lost link makes every reader silent (the referee says Stop) until it is back."""
        t = self.now()
        if not status.connected and not self.link_down:
            log.error("reader link lost: %s", status.reason or "no reason given")
            self.link_down = True
            return [ReaderInput(t, spot, False) for spot in range(self.spots + 1)]
        if status.connected:
            log.info(
                "reader link up: %s firmware %s, %s readers",
                status.port,
                status.firmware or "?",
                status.readers or "?",
            )
            if self.link_down:
                self.link_down = False
                return [ReaderInput(t, spot, True) for spot in range(self.spots + 1)]
        return []

    # -------------------------------------------------------------------- feed

    def feed(self, record: Input) -> list[TableEvent]:
        events = self._tick(record) if isinstance(record, TickInput) else self.session.feed(record)
        for event in events:
            log.info("event %s", json.dumps(event, separators=(",", ":")))
        return events

    def _tick(self, record: TickInput) -> list[TableEvent]:
        """A tick goes to the referee; it is journaled only when it changed something."""
        before = self.referee.moment()
        events = self.referee.feed(record)
        if events or self.referee.moment() != before:
            self.session.journal(record)  # before anything leaves the process
            self.journaled_ticks += 1
        else:
            self.skipped_ticks += 1
        return events

    # -------------------------------------------------------------------- loop

    def refresh(self) -> None:
        if self.speaker is not None:
            self.speaker.hear()  # hands its announcement to the sound worker: never blocks
        overlay: object = None
        if self.web is not None:
            published = self.web.publish()
            overlay = self.web.overlay()  # the pairing card, over the game's screen
            if self.club is not None:  # the page's snapshot, to the link's thread
                self.club.take(published)
        elif self.club is not None:
            self.club.step()  # its own snapshot, to the link's thread: never waits
        overlay = overlay or damage_card(self.session)
        self.display.show(overlay or self.referee.screen)
        status = where(self.referee)
        if self.display.fault:
            status += f"; {self.display.fault}"
        for note in self.notes:
            status += f"; {note}"
        if status != self._status:
            self._status = status
            self.notifier.status(status)

    def run(self) -> int:
        self.refresh()
        while not self.stopping:
            self.notifier.alive()
            due = None if self.script_clock else self.referee.next_due()
            wait = 0.2 if due is None else min(0.2, max(WAKE_MIN, due - self.unrounded()))
            try:
                item = self.inbox.get(timeout=wait)
            except queue.Empty:
                item = None
                if due is not None and self.unrounded() >= due:
                    item = Tick()  # the deadline now, not at the clock thread's next tick
            if item is None or isinstance(item, Tick):
                died = self._dead()
                if died is not None and not self._died(died):
                    break
            if item is not None and not self._take(item):
                break
        return self.exit_status

    def _virtual(self, item: VirtualMove) -> list[Input] | None:
        """The journal inputs of a move on the virtual table, or None when its kit refused
        it (the page is told why; nothing is journaled)."""
        table = self.web.virtual if self.web is not None else None
        if table is None:
            item.reply(refused(409, "off"))
            return None
        try:
            records = table.act(item.seat, item.move, self.now())
        except Refused as exc:
            log.debug("web: a move of seat %d refused: %s", item.seat, exc)
            item.reply(exc)
            return None
        except Exception as exc:  # the kit's fault, never the phone's: the game goes on
            log.exception("web: the virtual kit failed on a move of seat %d", item.seat)
            item.reply(exc)
            return None
        return records

    def _dead(self) -> DeviceDied | None:
        """The liveness check: a watched thread that ended though not stopped (its own
        report lost, or never sent), or None."""
        return None if self.watch is None else self.watch()

    def _died(self, died: DeviceDied) -> bool:
        """A device thread is gone: False (the loop ends, status 1) after the Stop; True
        when the game goes on (the web page of a game not played on it, or a death
        already handled)."""
        if died.name in self.gone:
            return True
        self.gone.add(died.name)
        web = self.web
        if died.name == "web" and not (web is not None and web.played_on_page):
            log.error("the web page stopped; the game goes on without it: %s", died.reason)
            self.web = None
            self.notes.append("the web page stopped")
            self.refresh()
            return True
        self.exit_status = show_stop(died, self.display, self.notifier)
        return False

    def _take(self, item: Item) -> bool:
        """One queue item through the referee; False when the loop must end (the script
        ended on the script clock, or the game is over with ``until_finished``)."""
        if isinstance(item, DeviceDied):
            return self._died(item)
        if isinstance(item, ScriptEnd):
            if item.error:
                log.error("simulated input: %s", item.error)
                return self._died(DeviceDied("sim-input", item.error))
            if self.script_clock:
                log.info("simulated input ended")
                return False
            return True
        if isinstance(item, ScriptSetup):
            log.info(
                "a setup line in the simulated input is ignored: a game is on (a FIFO "
                "or stdin starts the config's game at once; a file or --sim-clock script "
                "may begin with a setup line)"
            )
            return True
        if isinstance(item, PagePress):
            refusal = self.referee.seat_refusal(item.seat, item.control, item.value)
            if refusal is not None:  # not this seat's act: nothing is journaled
                log.debug("web: %s from seat %d refused: %s", item.control, item.seat, refusal)
                item.reply(refusal)
                return True
        if isinstance(item, VirtualMove):
            records = self._virtual(item)
            if records is None:
                return True
        else:
            records = self.inputs_of(item)
        events = [event for record in records for event in self.feed(record)]
        if isinstance(item, VirtualMove) and self.web is not None and self.web.virtual:
            self.web.virtual.save()  # once journaled: a cut between keeps the table's word
        if isinstance(item, PagePress | VirtualMove):
            item.reply(events)
        self.refresh()
        if self.until_finished and self.referee.finished:
            log.info("%s", where(self.referee))
            return False
        return True
