"""The Sound port: the table's voice, beside its OLED (``[sound]`` of the config).

Back ends (``[sound] backend``): ``none`` (silent); ``espeak-ng`` (Debian's espeak-ng, one
subprocess per announcement, through the default audio output: the Pi's headphone jack,
HDMI or a USB speaker, whichever ALSA's default is); ``capture`` (nothing is played: each
announcement is kept with the game time it was made at and logged; tests and desktops).
What is said is `companion.speech`'s business; this port only speaks it.

Never blocking the referee loop: `say` leaves the announcement in a mailbox of one place
and returns at once; a worker thread speaks. Never over itself: a newer announcement
replaces the one waiting that has not started; the one being spoken finishes (a verdict
is heard whole: the announcements are one or two short sentences), unless ``[sound]
interrupt`` cuts it.

A missing espeak-ng, an unknown voice or a failing audio output never stops a game, like
a missing OLED: it is said once at start (one warning line, kept in ``fault`` for the
systemd status) and the table is silent. The worker never raises: a failure to speak one
announcement is logged once and the next one is tried.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from dataclasses import dataclass
from typing import Protocol

from companion.config.sound import SoundConfig

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
INSTALL_HINT = "sudo apt-get install espeak-ng"
SPEAK_TIMEOUT = 30.0
"""Seconds an announcement may take before espeak-ng is stopped (a stuck audio output):
one is a few seconds long."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to say: its text, the game time it was made at, the table's language."""

    text: str
    t: float
    lang: str


class Backend(Protocol):
    """How one announcement is spoken: `speak` returns once it has been (or was cut);
    `cut`, called from another thread, stops the one being spoken."""

    def speak(self, announcement: Announcement) -> None: ...

    def cut(self) -> None: ...


class Capture:
    """Records what would be said, as each announcement starts (`said`), and logs it.

    With ``hold``, each announcement lasts until `release` (or `cut`), and `started` is
    released once as each one starts: a test sees the queue rule with no clock."""

    def __init__(self, *, hold: bool = False) -> None:
        self.said: list[Announcement] = []
        self.cut_off: list[Announcement] = []
        """The announcements cut while being spoken (``interrupt``)."""
        self.started = threading.Semaphore(0)
        self._hold = hold
        self._done = threading.Semaphore(0)
        self._speaking: Announcement | None = None
        self._lock = threading.Lock()

    def speak(self, announcement: Announcement) -> None:
        with self._lock:
            self.said.append(announcement)
            self._speaking = announcement
        log.info("say (t=%.3f): %s", announcement.t, announcement.text)
        self.started.release()
        if self._hold:
            self._done.acquire()
        with self._lock:
            self._speaking = None

    def release(self) -> None:
        """The held announcement has been spoken (``hold``)."""
        self._done.release()

    def cut(self) -> None:
        with self._lock:
            if self._speaking is None:
                return
            self.cut_off.append(self._speaking)
            self._speaking = None
        if self._hold:
            self._done.release()

    def texts(self) -> list[str]:
        with self._lock:
            return [a.text for a in self.said]


class Espeak:
    """Debian's espeak-ng: one process per announcement, the text on its standard input
    (never an argument it could read as an option), its voice, rate and amplitude from
    the config (amplitude = twice the volume; espeak-ng's own default is 100)."""

    def __init__(self, config: SoundConfig, binary: str) -> None:
        self.config = config
        self.binary = binary
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._reported = False

    def command(self, lang: str) -> list[str]:
        c = self.config
        return [
            self.binary, "-v", c.voice(lang), "-s", str(c.rate), "-a", str(2 * c.volume),
            "-b", "1", "--stdin",
        ]  # fmt: skip

    def check(self, lang: str) -> str | None:
        """Why the table's voice cannot be used (an unknown voice), or None: espeak-ng is
        run quiet (``-q``: no sound) on one word."""
        command = [self.binary, "-q", "-v", self.config.voice(lang), "."]
        try:
            done = subprocess.run(command, capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{ESPEAK}: {exc}"
        if done.returncode != 0:
            why = _first_line(done.stderr) or f"exit status {done.returncode}"
            return f"{ESPEAK} -v {self.config.voice(lang)}: {why}"
        return None

    def speak(self, announcement: Announcement) -> None:
        problem = self.play(announcement.text, announcement.lang)
        if problem is not None:
            self._failed(problem)

    def play(self, text: str, lang: str) -> str | None:
        """Say `text`: why it could not be said, in one line, or None (said, or cut)."""
        process = subprocess.Popen(
            self.command(lang), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        with self._lock:
            self._process = process
        try:
            _, err = process.communicate(text.encode(), timeout=SPEAK_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return f"no end after {SPEAK_TIMEOUT:g} s (is the audio output stuck?)"
        finally:
            with self._lock:
                self._process = None
        if process.returncode < 0:
            return None  # cut by `cut`: a newer announcement, or the voice closing
        if process.returncode != 0 or _first_line(err):
            return _first_line(err) or f"exit status {process.returncode}"
        return None

    def _failed(self, why: str) -> None:
        """espeak-ng could not speak (ALSA finds no output...): once at warning, then at
        debug; the game goes on."""
        if not self._reported:
            log.warning("sound: %s: %s; the game goes on", ESPEAK, why)
            self._reported = True
        else:
            log.debug("sound: %s: %s", ESPEAK, why)

    def cut(self) -> None:
        with self._lock:
            process = self._process
        if process is not None and process.poll() is None:
            process.terminate()


TEST_SENTENCE = {"fr": "La table parle.", "en": "The table speaks."}


def check_sound(config: SoundConfig, lang: str) -> tuple[bool, str]:
    """For ``companion doctor``: say a test sentence with the configured voice; (ok, one
    line). espeak-ng's exit status is checked, not the ears: whoever runs the doctor
    listens."""
    from companion.devices.words import doctor_says as told

    if not config.on:
        return True, told(
            "sound_off", backend="none" if config.backend == "none" else told("volume_0")
        )
    if config.backend == "capture":
        return True, told("sound_capture")
    missing = espeak_missing()
    if missing is not None:
        return False, told("sound_missing", missing=missing)
    espeak = Espeak(config, str(shutil.which(ESPEAK)))
    problem = espeak.check(lang)
    if problem is None:
        failed = espeak.play(TEST_SENTENCE[lang], lang)
        problem = None if failed is None else f"{ESPEAK}: {failed}"
    if problem is not None:
        return False, told("sound_problem", problem=problem)
    said = TEST_SENTENCE[lang]
    return True, told("sound_ok", voice=config.voice(lang), volume=config.volume, said=said)


def _first_line(data: bytes) -> str:
    """The first line a tool wrote, without its full stop (a message goes on after it)."""
    lines = data.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip().rstrip(".") if lines else ""


def espeak_missing() -> str | None:
    """Why espeak-ng cannot speak here (not installed), in one line; None when it can."""
    if shutil.which(ESPEAK) is None:
        return f"{ESPEAK} is not installed ({INSTALL_HINT})"
    return None


class Sound:
    """The table's voice as the referee loop uses it: `say(text, t, lang)` never blocks.

    `open` makes the back end of the config (None when silent) and starts the worker;
    `close` stops it (the announcement being spoken is cut)."""

    def __init__(self, config: SoundConfig, backend: Backend | None = None) -> None:
        self.config = config
        self.backend = backend
        self.fault: str | None = None
        """Why the configured voice is silent (espeak-ng missing...), for the status."""
        self._waiting: Announcement | None = None
        self._speaking: Announcement | None = None
        self._stopping = False
        self._wake = threading.Condition()
        self.thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return self.backend is not None

    def open(self, lang: str) -> bool:
        """Make the back end (unless given) and start the worker; False (said once, kept
        in `fault`) when the table stays silent for a reason the owner should know."""
        if self.backend is None and self.config.on:
            if self.config.backend == "capture":
                self.backend = Capture()
            else:
                self.backend = self._espeak(lang)
        if self.backend is None:
            return self.fault is None
        self.thread = threading.Thread(target=self._work, name="sound", daemon=True)
        self.thread.start()
        return True

    def _espeak(self, lang: str) -> Espeak | None:
        missing = espeak_missing()
        backend = None if missing else Espeak(self.config, str(shutil.which(ESPEAK)))
        problem = missing or (backend.check(lang) if backend is not None else None)
        if problem is not None:
            self.fault = f"sound: {problem}"
            log.warning("%s; the game goes on silent ([sound] in the config)", self.fault)
            return None
        return backend

    def say(self, text: str, t: float, lang: str) -> None:
        """Speak `text` as soon as the voice is free; it replaces an announcement still
        waiting (and, with ``interrupt``, cuts the one being spoken)."""
        if self.backend is None or not text:
            return
        with self._wake:
            if self._waiting is not None:
                log.debug("sound: replaced before it was said: %s", self._waiting.text)
            self._waiting = Announcement(text, t, lang)
            if self.config.interrupt and self._speaking is not None:
                self.backend.cut()  # under the lock: the one cut is the one being spoken
            self._wake.notify_all()

    def _work(self) -> None:
        backend = self.backend
        assert backend is not None
        while True:
            with self._wake:
                while self._waiting is None and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
                announcement, self._waiting = self._waiting, None
                self._speaking = announcement
            try:
                assert announcement is not None
                log.debug("sound: saying %s", announcement.text)
                backend.speak(announcement)
            except Exception as exc:  # the voice never stops the game
                log.warning("sound: could not say %r: %s", announcement, exc)
            finally:
                with self._wake:
                    self._speaking = None
                    self._wake.notify_all()

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until nothing is waiting or being spoken, at most `timeout` seconds; True
        when idle."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._waiting is None and self._speaking is None, timeout
            )

    def close(self, finish: float = 0.0) -> None:
        """Stop the voice: after at most `finish` seconds for what is being said and
        waiting (a simulated table that quits after the last sentence), the announcement
        still being spoken is cut."""
        if finish > 0 and self.thread is not None:
            self.idle(finish)
        with self._wake:
            self._stopping = True
            self._waiting = None
            speaking = self._speaking is not None
            self._wake.notify_all()
        if speaking and self.backend is not None:
            self.backend.cut()
        if self.thread is not None:
            self.thread.join(timeout=SPEAK_TIMEOUT)
            self.thread = None
