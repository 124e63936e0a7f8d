"""Regenerate the golden PNGs of Swiped's screens (the tests never run this).

    .venv/bin/python -m tests.screens.swiped.make_golden [--show]

It writes one PNG per sample screen and `whole_game_fr.png`, the contact sheet of every
distinct OLED frame of one spaced simulated game (samples.WHOLE_GAME_SEED). Look at every
image before committing it: a golden file is a claim that the picture is right.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.screens.render import frame
from companion.screens.terminal import to_text
from tests.screens.swiped.samples import golden_cases, whole_game_sheet

GOLDEN = Path(__file__).parent / "golden"


def main(argv: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (screen, lang) in golden_cases().items():
        image = frame(screen, lang)
        image.save(GOLDEN / f"{name}.png")
        print(f"wrote {name}.png")
        if "--show" in argv:
            print(to_text(image))
    whole_game_sheet("fr").save(GOLDEN / "whole_game_fr.png")
    print("wrote whole_game_fr.png")


if __name__ == "__main__":
    main(sys.argv[1:])
