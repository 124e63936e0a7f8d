"""``[sound]`` of the file checked into a `SoundConfig` (companion/config/sound.py)."""

from __future__ import annotations

from typing import Any

from companion.config.reading import Checker, Rule, boolean, choice, choices, int_in
from companion.config.sound import SOUND_BACKENDS, VOICE, SoundConfig
from companion.config.words import fix, say


def _voice(value: Any) -> str | None:
    return value if isinstance(value, str) and VOICE.fullmatch(value) else None


def sound_rules() -> dict[str, Rule]:
    """How each [sound] key is checked, its fix in the command line's language."""
    voice = {lang: say("or").join(f'"{v}"' for v in voices)
             for lang, voices in (("fr", ("fr", "mb-fr1")), ("en", ("en", "en-us")))}  # fmt: skip
    return {
        "backend": (choice(SOUND_BACKENDS), say("backend", options=choices(SOUND_BACKENDS))),
        "volume": (int_in(0, 100), fix("volume")),
        "rate": (int_in(80, 400), fix("rate")),
        "voice_fr": (_voice, say("voice", example=voice["fr"], code="fr")),
        "voice_en": (_voice, say("voice", example=voice["en"], code="en")),
        "interrupt": (boolean, fix("interrupt")),
    }


def parse_sound(c: Checker) -> SoundConfig:
    """[sound]: the back end, volume, rate, voices and the interrupt rule."""
    s = c.table("sound")
    rules = sound_rules()
    c.unknown("sound.", s, set(rules))
    return SoundConfig(**c.values(s, "sound", SoundConfig(), rules))
