"""The Sound port (companion/devices/sound.py): never over itself (a newer announcement
replaces a waiting one; the one being spoken finishes, or is cut with ``interrupt``),
never blocking the caller, silent with a warning when espeak-ng cannot speak, and the real
espeak-ng making audio of a plausible length for a French and an English line."""

from __future__ import annotations

import logging
import subprocess
import wave
from pathlib import Path

import pytest

from companion.config.sound import SoundConfig
from companion.devices.sound import Capture, Espeak, Sound
from tests.tools import required

CAPTURE = SoundConfig(backend="capture")


def held() -> tuple[Sound, Capture]:
    """A voice whose every announcement lasts until the test releases it."""
    capture = Capture(hold=True)
    sound = Sound(CAPTURE, capture)
    assert sound.open("fr")
    return sound, capture


def started(capture: Capture) -> None:
    assert capture.started.acquire(timeout=10), "the worker did not start speaking"


def test_a_newer_announcement_replaces_the_waiting_one_and_the_spoken_one_finishes() -> None:
    sound, capture = held()
    try:
        sound.say("À toi, Ana.", 1.0, "fr")
        started(capture)  # being spoken, held
        sound.say("À toi, Bob.", 2.0, "fr")  # waits...
        sound.say("Menteur ! Cy a raison !", 3.0, "fr")  # ...and is replaced, never said
        assert capture.texts() == ["À toi, Ana."]  # say() returned while Ana's is held
        capture.release()
        started(capture)
        capture.release()
        assert sound.idle(10)
        assert capture.texts() == ["À toi, Ana.", "Menteur ! Cy a raison !"]
        assert capture.cut_off == []
        assert [a.t for a in capture.said] == [1.0, 3.0]  # each with its game time
    finally:
        sound.close()


def test_interrupt_cuts_the_announcement_being_spoken() -> None:
    capture = Capture(hold=True)
    sound = Sound(SoundConfig(backend="capture", interrupt=True), capture)
    sound.open("en")
    try:
        sound.say("Your turn, Ana.", 1.0, "en")
        started(capture)
        sound.say("Doublon! Bob is right!", 2.0, "en")
        started(capture)  # Ana's was cut, Bob's verdict starts at once
        capture.release()
        assert sound.idle(10)
        assert capture.texts() == ["Your turn, Ana.", "Doublon! Bob is right!"]
        assert [a.text for a in capture.cut_off] == ["Your turn, Ana."]
    finally:
        sound.close()


def test_close_cuts_what_is_being_said_and_drops_what_waits() -> None:
    sound, capture = held()
    sound.say("À toi, Ana.", 1.0, "fr")
    started(capture)
    sound.say("À toi, Bob.", 2.0, "fr")
    sound.close()
    assert capture.texts() == ["À toi, Ana."] and capture.cut_off == capture.said
    sound.say("Encore ?", 3.0, "fr")  # after close: nothing, and no error
    assert capture.texts() == ["À toi, Ana."]


def test_a_silent_config_opens_no_voice() -> None:
    for config in (SoundConfig(), SoundConfig(backend="capture", volume=0)):
        sound = Sound(config)
        assert sound.open("fr") and not sound.enabled and sound.fault is None
        sound.say("À toi, Ana.", 1.0, "fr")
        sound.close()


def test_a_capture_config_logs_each_announcement(caplog: pytest.LogCaptureFixture) -> None:
    sound = Sound(CAPTURE)
    sound.open("fr")
    with caplog.at_level(logging.INFO, logger="companion.devices.sound"):
        sound.say("À toi, Ana.", 12.5, "fr")
        assert sound.idle(10)
    sound.close()
    assert "say (t=12.500): À toi, Ana." in caplog.text


# ------------------------------------------------------------------ espeak-ng


def test_without_espeak_ng_the_table_is_silent_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH where no espeak-ng lives
    sound = Sound(SoundConfig(backend="espeak-ng"))
    with caplog.at_level(logging.WARNING):
        assert not sound.open("fr")
    assert not sound.enabled
    assert sound.fault == "sound: espeak-ng is not installed (sudo apt-get install espeak-ng)"
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "the game goes on silent" in warnings[0]
    sound.say("À toi, Ana.", 1.0, "fr")  # never raises
    sound.close()


def test_an_unknown_voice_is_said_at_start_and_the_table_is_silent() -> None:
    required("espeak-ng", "apt-get install espeak-ng")
    sound = Sound(SoundConfig(backend="espeak-ng", voice_en="qq"))
    assert not sound.open("en") and not sound.enabled
    assert sound.fault is not None
    assert sound.fault.startswith("sound: espeak-ng -v qq: ")
    assert "\n" not in sound.fault
    assert Sound(SoundConfig(backend="espeak-ng", voice_en="qq")).open("fr")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("fr", "Menteur ! Ana a raison ! Bob montre : Souris. À toi, Cy."),
        ("en", "Doublon! Bob is wrong! Hat 3 was empty. Your turn, Dee."),
    ],
)
def test_espeak_ng_says_a_line_in_audio_of_a_plausible_length(
    lang: str, text: str, tmp_path: Path
) -> None:
    """The command the voice runs, writing its WAV to stdout instead of the speakers: as
    long as the words take at the configured rate, give or take pauses and the voice's
    own pace (not a timing test: the length of the audio, not of the run)."""
    required("espeak-ng", "apt-get install espeak-ng")
    config = SoundConfig(backend="espeak-ng", rate=160)
    command = Espeak(config, "espeak-ng").command(lang) + ["--stdout"]
    done = subprocess.run(command, input=text.encode(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    wav = tmp_path / "line.wav"
    wav.write_bytes(done.stdout)
    with wave.open(str(wav)) as audio:  # a stream's header does not know its length
        rate, width = audio.getframerate(), audio.getsampwidth() * audio.getnchannels()
        samples = audio.readframes(len(done.stdout))
    seconds = len(samples) / width / rate
    words = len(text.split())
    spoken = words / config.rate * 60  # the words alone, at the configured rate
    assert 0.6 * spoken < seconds < 2.0 * spoken + 1.0, (seconds, spoken)
    loud = max(abs(int.from_bytes(samples[i : i + 2], "little", signed=True))
               for i in range(0, len(samples), 2))  # fmt: skip
    assert loud > 1000  # speech, not silence
