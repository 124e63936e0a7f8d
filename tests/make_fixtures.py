"""Regenerate what the tests compare with (the tests never run this), for every game:

    .venv/bin/python -m tests.make_fixtures scenarios [--game GAME]
    .venv/bin/python -m tests.make_fixtures golden [--game GAME] [--show]
    .venv/bin/python -m tests.make_fixtures mark

`scenarios` writes each game's scenario journals from its scripts (`SCENARIOS` of its
`scenario_scripts.py`); `golden` draws each game's golden OLED frames (`golden_cases()`
of its screens samples; `--show` prints each with half blocks); `mark` adds
`"scenario":true` to the setup line of every journal file written by hand in tests/ and
docs/ (a `.jsonl` without line numbers and checksums: docs/journal.md, "Scenario files"),
and to such setup lines in the docs' examples, leaving every other byte as it was. Look at
every file before committing it: a golden file or a scenario is a claim that it is right.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from companion.screens.render import frame
from companion.screens.terminal import to_text

TESTS = Path(__file__).parent
DOCS = TESTS.parent / "docs"
SETUP_TYPE = re.compile(r'("type"\s*:\s*"setup")')


@dataclass(frozen=True)
class Fixtures:
    scripts: str
    """The module of the game's scenario scripts (`SCENARIOS`, `HERE` its folder)."""
    samples: str
    """The module of the game's golden screens (`golden_cases()`, and `extra_golden()` for
    pictures that are not one screen)."""


GAMES = {
    "passpass": Fixtures("tests.games.passpass.referee.scenario_scripts", "tests.screens.samples"),
    "flipdone": Fixtures(
        "tests.games.flipdone.referee.scenario_scripts", "tests.games.flipdone.screens.samples"
    ),
    "swiped": Fixtures(
        "tests.games.swiped.referee.scenario_scripts", "tests.games.swiped.screens.samples"
    ),
    "vnp": Fixtures("tests.games.vnp.referee.scenario_scripts", "tests.games.vnp.screens.samples"),
}


def write_scenarios(fixtures: Fixtures) -> None:
    module = importlib.import_module(fixtures.scripts)
    folder: Path = module.HERE
    folder.mkdir(exist_ok=True)
    for name, build in module.SCENARIOS.items():
        (folder / f"{name}.jsonl").write_text(build().text())
        print(f"wrote {(folder / name).relative_to(TESTS)}.jsonl")


def write_golden(fixtures: Fixtures, show: bool) -> None:
    module = importlib.import_module(fixtures.samples)
    folder = Path(module.__file__ or "").parent / "golden"
    folder.mkdir(exist_ok=True)
    pictures = {name: frame(screen, lang) for name, (screen, lang) in module.golden_cases().items()}
    pictures.update(getattr(module, "extra_golden", dict)())
    for name, image in pictures.items():
        image.save(folder / f"{name}.png")
        print(f"wrote {(folder / name).relative_to(TESTS)}.png")
        if show:
            print(to_text(image))


def mark_line(line: str) -> str:
    """A setup line without a checksum, saying it is a scenario (`"scenario":true` after its
    type, spaced as the line is); any other line as it is."""
    try:
        data = json.loads(line)
    except ValueError:
        return line
    if not isinstance(data, dict) or data.get("type") != "setup" or "crc" in data:
        return line
    if "scenario" in data:
        return line
    spaced = ", " if '", "' in line or '": ' in line else ","
    colon = ": " if '": ' in line else ":"
    return SETUP_TYPE.sub(rf'\1{spaced}"scenario"{colon}true', line, count=1)


def mark_scenarios() -> None:
    """`mark`: every hand-written journal of tests/ and every example setup line of docs/
    says it is a scenario."""
    for path in sorted([*TESTS.rglob("*.jsonl"), *DOCS.rglob("*.md")]):
        text = path.read_text(encoding="utf-8")
        marked = "".join(mark_line(line) for line in text.splitlines(keepends=True))
        if marked != text:
            path.write_text(marked, encoding="utf-8")
            print(f"marked {path.relative_to(TESTS.parent)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.make_fixtures", description=__doc__)
    parser.add_argument("what", choices=("scenarios", "golden", "mark"))
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only (all by default)")
    parser.add_argument("--show", action="store_true", help="print each golden frame")
    args = parser.parse_args(argv)
    if args.what == "mark":
        mark_scenarios()
        return
    for name in [args.game] if args.game else list(GAMES):
        if args.what == "scenarios":
            write_scenarios(GAMES[name])
        else:
            write_golden(GAMES[name], args.show)


if __name__ == "__main__":
    main()
