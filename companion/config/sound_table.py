"""``[sound]`` of the file checked into a `SoundConfig` (companion/config/sound.py)."""

from __future__ import annotations

from typing import Any

from companion.config.reading import Checker, Rule, boolean, choice, choices, int_in
from companion.config.sound import SOUND_BACKENDS, VOICE, SoundConfig


def _voice(value: Any) -> str | None:
    return value if isinstance(value, str) and VOICE.fullmatch(value) else None


_VOICE_FIX = (
    "an espeak-ng voice name of letters, digits, '-', '_' and '+', e.g. {example} "
    "(`espeak-ng --voices={lang}` lists them)"
)
SOUND_RULES: dict[str, Rule] = {
    "backend": (
        choice(SOUND_BACKENDS),
        f"choose one of {choices(SOUND_BACKENDS)} (espeak-ng: sudo apt-get install espeak-ng)",
    ),
    "volume": (int_in(0, 100), "a whole number from 0 (silent) to 100 (default 70)"),
    "rate": (int_in(80, 400), "words per minute: a whole number from 80 to 400 (default 160)"),
    "voice_fr": (_voice, _VOICE_FIX.format(example='"fr" or "mb-fr1"', lang="fr")),
    "voice_en": (_voice, _VOICE_FIX.format(example='"en" or "en-us"', lang="en")),
    "interrupt": (
        boolean,
        "true or false (no quotes): true cuts the sentence being spoken when a newer one comes",
    ),
}


def parse_sound(c: Checker) -> SoundConfig:
    """[sound]: the back end, volume, rate, voices and the interrupt rule."""
    s = c.table("sound")
    c.unknown("sound.", s, set(SOUND_RULES))
    return SoundConfig(**c.values(s, "sound", SoundConfig(), SOUND_RULES))
