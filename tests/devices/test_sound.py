"""The Sound port (companion/devices/sound.py): never over itself (a newer announcement
replaces a waiting one; the one being spoken finishes, or is cut with ``interrupt``),
never blocking the caller, silent with a warning when espeak-ng cannot speak, and the real
espeak-ng, played to ALSA (a file as its output), making audio of a plausible length for a
French and an English line, at the configured volume and rate."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.config.sound import SoundConfig
from companion.devices.sound import Capture, Sound, check_sound
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


RATE = 16000
"""The sample rate of the recorded output (mono, 16-bit): the ALSA "plug" converts to it."""


def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ALSA's default output, for the processes this test starts, is a file: what
    espeak-ng plays lands there as raw samples (ALSA's own null, file and plug plugins,
    no sound card needed)."""
    audio = tmp_path / "played.raw"
    conf = tmp_path / "asound.conf"
    conf.write_text(
        "pcm.nothing { type null }\n"
        f'pcm.recorder {{ type file slave.pcm "nothing" file "{audio}" format "raw" '
        "truncate false }\n"  # espeak-ng opens its output twice: keep what it played
        f'pcm.!default {{ type plug slave {{ pcm "recorder" rate {RATE} channels 1 '
        "format S16_LE } }\n"
    )
    monkeypatch.setenv("ALSA_CONFIG_PATH", str(conf))
    return audio


def played(audio: Path) -> tuple[float, int]:
    """(seconds, the loudest sample) of what was played."""
    data = audio.read_bytes()
    samples = [int.from_bytes(data[i : i + 2], "little", signed=True)
               for i in range(0, len(data) - 1, 2)]  # fmt: skip
    return len(samples) / RATE, max(map(abs, samples), default=0)


def speak(config: SoundConfig, lang: str, text: str) -> None:
    sound = Sound(config)
    assert sound.open(lang), sound.fault
    sound.say(text, 1.0, lang)
    assert sound.idle(30)
    sound.close()


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("fr", "Menteur ! Ana a raison ! Bob montre : Souris. À toi, Cy."),
        ("en", "Doublon! Bob is wrong! Hat 3 was empty. Your turn, Dee."),
    ],
)
def test_espeak_ng_says_a_line_through_alsa_in_audio_of_a_plausible_length(
    lang: str, text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The voice as the service runs it (the worker, the espeak-ng process, its voice and
    rate), played to ALSA's default output: as long as the words take at the configured
    rate, give or take pauses and the voice's own pace (the length of the audio, not of
    the run), and speech, not silence."""
    required("espeak-ng", "apt-get install espeak-ng")
    audio = recording(tmp_path, monkeypatch)
    config = SoundConfig(backend="espeak-ng", rate=160)
    speak(config, lang, text)
    seconds, loudest = played(audio)
    words = len(text.split())
    spoken = words / config.rate * 60  # the words alone, at the configured rate
    assert 0.6 * spoken < seconds < 2.0 * spoken + 1.0, (seconds, spoken)
    assert loudest > 1000


def test_the_volume_and_the_rate_are_espeak_ng_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    required("espeak-ng", "apt-get install espeak-ng")
    line = "À toi, Ana. Le jeu reprend."
    heard = {}
    for volume, rate in ((100, 160), (20, 160), (100, 320)):
        folder = tmp_path / f"{volume}-{rate}"
        folder.mkdir()
        audio = recording(folder, monkeypatch)
        speak(SoundConfig(backend="espeak-ng", volume=volume, rate=rate), "fr", line)
        heard[volume, rate] = played(audio)
    (loud_s, loud), (quiet_s, quiet), (fast_s, _) = heard.values()
    assert quiet < loud / 3  # amplitude 40 against 200
    assert fast_s < 0.7 * loud_s and abs(quiet_s - loud_s) < 0.1 * loud_s


def test_a_voice_with_no_audio_output_warns_once_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    required("espeak-ng", "apt-get install espeak-ng")
    conf = tmp_path / "asound.conf"
    conf.write_text("pcm.!default { type hw card 99 }\n")  # no such card
    monkeypatch.setenv("ALSA_CONFIG_PATH", str(conf))
    sound = Sound(SoundConfig(backend="espeak-ng"))
    assert sound.open("fr")  # espeak-ng and its voice are there
    with caplog.at_level(logging.WARNING, logger="companion.devices.sound"):
        for t, text in enumerate(("À toi, Ana.", "À toi, Bob.")):
            sound.say(text, float(t), "fr")
            assert sound.idle(30)
    sound.close()
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("sound: espeak-ng: ") and "the game goes on" in warnings[0]


def test_the_doctor_says_a_test_sentence_or_why_it_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    required("espeak-ng", "apt-get install espeak-ng")
    voice = SoundConfig(backend="espeak-ng")
    audio = recording(tmp_path, monkeypatch)
    assert check_sound(voice, "fr") == (
        True,
        'sound: espeak-ng, voice fr, volume 70: "La table parle."',
    )
    assert played(audio)[0] > 0.5  # it was said, through ALSA
    (tmp_path / "asound.conf").write_text("pcm.!default { type hw card 99 }\n")
    ok, message = check_sound(voice, "en")
    assert not ok and message.startswith("sound: espeak-ng: ") and "\n" not in message
    assert message.endswith('(docs/install.md, "The table\'s voice")')
    assert check_sound(SoundConfig(), "fr") == (True, "sound: none")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert check_sound(voice, "fr") == (
        False,
        "sound: espeak-ng is not installed (sudo apt-get install espeak-ng)",
    )
