"""Write every artifact of the kit, and compare a written set with the committed one.

`ARTIFACTS` names each generator and the files it writes, relative to the repository's
root. `generate` runs them into a folder; `differences` compares two such folders file by
file, each kind of file by what it means rather than by its bytes where a tool stamps its
own version or date into it: a PDF by its page sizes and drawing streams, a PNG by its
pixels, an SVG without its generator comment, a netlist without its date line. So the
committed drawings can never drift from pins.toml and the games' mats unnoticed
(tests/kit/test_artifacts.py), while a newer fpdf2 or SKiDL alone does not fail the check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from companion.kit.table import Table
from companion.kit.words import kit_says

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Artifact:
    name: str
    """What it is, in words ("the BOM")."""
    folder: str
    """Where its files go, relative to the root; every file there is this artifact's."""
    make: Callable[[Table, Path], list[Path]]
    """(the table, the root to write under) -> the files written."""
    patterns: tuple[str, ...] = ("*",)
    """The files of `folder` it owns (a folder shared with hand-written files)."""


def _documents(table: Table, root: Path) -> list[Path]:
    from companion.kit import bom, mats

    folder = root / "hardware"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (("bom.md", bom.render(table)), ("mats.md", mats.render(table))):
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    return written


def _mats(table: Table, root: Path) -> list[Path]:
    from companion.kit import mats

    return mats.write(table, root / "hardware" / "mats")


def _harnesses(table: Table, root: Path) -> list[Path]:
    from companion.kit import harness

    return harness.write(table, root / "docs" / "wiring")


def _board(table: Table, root: Path) -> list[Path]:
    from companion.kit import board

    return board.write(table, root / "hardware" / "board")


def _figures(table: Table, root: Path) -> list[Path]:
    """The assembly guide's pictures (docs/figures/kit-wiring.png, kit-mat-tile.png): part
    of the wiring diagram and a mat tile, cut from the generated drawings (so they change
    when the drawings do)."""
    from PIL import Image

    from companion.kit import mats
    from companion.sheets import png_page

    folder = root / "docs" / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    wiring = root / "docs" / "wiring" / "bus0.png"
    if not wiring.exists():
        _harnesses(table, root)
    with Image.open(wiring) as image:
        crop = image.crop((0, 0, image.width, min(image.height, image.width * 2 // 5)))
        crop.save(folder / "kit-wiring.png", optimize=True)
    mat = min(table.mats, key=lambda m: (m.spots != 9, m.spots))  # the 3 x 3 of most games
    first = next(mats.tiles(table, mat, "A4"))
    tile = png_page(first, 4, mats.tiling(mat, "A4").size)
    tile.quantize(64, dither=Image.Dither.NONE).save(folder / "kit-mat-tile.png", optimize=True)
    return [folder / "kit-wiring.png", folder / "kit-mat-tile.png"]


ARTIFACTS: list[Artifact] = [
    Artifact("the bill of materials and the mats", "hardware", _documents, ("bom.md", "mats.md")),
    Artifact("the mat templates", "hardware/mats", _mats),
    Artifact("the pictures of the assembly guide", "docs/figures", _figures, ("kit-*.png",)),
    Artifact("the wiring harnesses", "docs/wiring", _harnesses),
    Artifact("the breakout board", "hardware/board", _board),
]


def generate(table: Table, root: Path, only: Iterable[str] = ()) -> list[Path]:
    """Write the artifacts (those whose folder is in ``only``, or all) under ``root``."""
    wanted = set(only)
    written: list[Path] = []
    for artifact in ARTIFACTS:
        if not wanted or artifact.folder in wanted:
            written += artifact.make(table, root)
    return written


def owned(root: Path, only: Iterable[str] = ()) -> set[str]:
    """The artifacts' files present under ``root`` (those of the folders in ``only``, or
    all), relative paths."""
    wanted = set(only)
    files: set[str] = set()
    for artifact in ARTIFACTS:
        if wanted and artifact.folder not in wanted:
            continue
        folder = root / artifact.folder
        if folder.is_dir():
            files |= {
                str(p.relative_to(root))
                for pattern in artifact.patterns
                for p in folder.glob(pattern)
                if p.is_file()
            }
    return files


def differences(committed: Path, fresh: Path, only: Iterable[str] = ()) -> list[str]:
    """Each file of the kit (of the folders in ``only``, or all) that differs between the
    two roots, with how (empty: none)."""
    problems: list[str] = []
    theirs, ours = owned(committed, only), owned(fresh, only)
    for name in sorted(ours - theirs):
        problems.append(kit_says("missing", name=name))
    for name in sorted(theirs - ours):
        problems.append(kit_says("gone", name=name))
    for name in sorted(ours & theirs):
        why = _differs(committed / name, fresh / name)
        if why:
            problems.append(kit_says("changed", name=name, why=why))
    return problems


def _differs(old: Path, new: Path) -> str | None:
    suffix = old.suffix.lower()
    if suffix == ".pdf":
        return _pdf_differs(old, new)
    if suffix == ".png":
        return _png_differs(old, new)
    a, b = old.read_bytes(), new.read_bytes()
    if suffix in (".svg", ".net"):
        a, b = _without_stamps(a), _without_stamps(b)
    return None if a == b else kit_says("bytes")


STAMPS = re.compile(rb"<!-- Generated by graphviz[^>]*-->|\(date \"[^\"]*\"\)|\(tool \"[^\"]*\"\)")


def _without_stamps(data: bytes) -> bytes:
    return STAMPS.sub(b"", data)


def _pdf_differs(old: Path, new: Path) -> str | None:
    from pypdf import PdfReader

    a, b = PdfReader(old), PdfReader(new)
    if len(a.pages) != len(b.pages):
        return kit_says("pages", have=len(a.pages), want=len(b.pages))
    for i, (p, q) in enumerate(zip(a.pages, b.pages, strict=True), start=1):
        if [float(v) for v in p.mediabox] != [float(v) for v in q.mediabox]:
            return kit_says("page_size", n=i)
        if p.get_contents().get_data() != q.get_contents().get_data():  # type: ignore[union-attr]
            return kit_says("page_drawing", n=i)
    return None


def _png_differs(old: Path, new: Path) -> str | None:
    from PIL import Image, ImageChops

    with Image.open(old) as a, Image.open(new) as b:
        if a.size != b.size:
            have, want = (f"{w}x{h}" for w, h in (a.size, b.size))
            return kit_says("size", have=have, want=want)
        if ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None:
            return kit_says("pixels")
    return None
