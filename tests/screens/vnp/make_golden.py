"""Regenerate the golden PNGs of Vous ne passerez pas !'s screens (the tests never run this).

    .venv/bin/python -m tests.screens.vnp.make_golden [--show]

Look at every image before committing it: a golden file is a claim that the picture is
right.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.screens.render import frame
from companion.screens.terminal import to_text
from tests.screens.vnp.samples import golden_cases

GOLDEN = Path(__file__).parent / "golden"


def main(argv: list[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (screen, lang) in golden_cases().items():
        image = frame(screen, lang)
        image.save(GOLDEN / f"{name}.png")
        print(f"wrote {name}.png")
        if "--show" in argv:
            print(to_text(image))


if __name__ == "__main__":
    main(sys.argv[1:])
