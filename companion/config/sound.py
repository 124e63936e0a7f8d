"""``[sound]``: the table's voice (docs/table.md, "The table speaks").

The back end (``none``, ``espeak-ng`` through the Pi's audio output, ``capture`` for tests
and desktops), the volume, the speaking rate, a voice per language and whether a newer
announcement cuts the one being spoken. Like every table of the file it is read by the
`Checker` (`sound_table`: one line per problem, naming the key and the fix). This module
holds what a valid table becomes and imports nothing of the companion (`model` imports
it, and the reading of the file imports `model`).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass

SOUND_BACKENDS = ("none", "espeak-ng", "capture")
"""none: silent; espeak-ng: Debian's espeak-ng speaks through the default audio output;
capture: nothing is played, every announcement is logged with its time (tests, a
desktop)."""

VOICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]{0,39}")
"""An espeak-ng voice name: "fr", "en-us", "mb-fr1", "fr+f3" (a voice and a variant)."""


@dataclass(frozen=True, slots=True)
class SoundConfig:
    backend: str = "none"
    """Left out, the table is silent (a config written before [sound] existed stays as it
    was); docs/companion.example.toml turns espeak-ng on for a new table."""
    volume: int = 70
    """0 (silent) to 100: espeak-ng's amplitude is twice it (its own default, 100, is 50)."""
    rate: int = 160
    """Words per minute, 80 to 400 (espeak-ng's own default is 175)."""
    voice_fr: str = "fr"
    voice_en: str = "en"
    interrupt: bool = False
    """A newer announcement cuts the one being spoken (False: it finishes first; a queued
    one that has not started is always replaced)."""

    @property
    def on(self) -> bool:
        """Does the table speak at all?"""
        return self.backend != "none" and self.volume > 0

    def voice(self, lang: str) -> str:
        """The espeak-ng voice of the table's language."""
        return self.voice_en if lang == "en" else self.voice_fr

    def summary(self) -> str:
        """One line for `companion config check`, saying when espeak-ng is missing here."""
        from companion.config.words import say

        if self.backend == "none":
            return say("sum.silent")
        line = say("sum.sound", backend=self.backend, volume=self.volume, rate=self.rate,
                   voice_fr=self.voice_fr, voice_en=self.voice_en,
                   interrupt=say("sum.cuts" if self.interrupt else "sum.whole"))  # fmt: skip
        if self.backend == "espeak-ng" and shutil.which("espeak-ng") is None:
            line = say("sum.no_espeak", line=line)
        return line
