"""`companion deck swiped`: the printable Swiped deck, checked on the drawing primitives, on
the PDF read back (its page tree and content streams) and on the PNGs' pixels.

Each check compares what is drawn with the deck data of the rules engine (make_deck), card
by card and square by square; the checks report mismatches, and the last tests show that a
swap of two colours in the drawing is caught by all three.
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from companion.games.swiped import deck_sheet as ds
from companion.games.swiped.rules.config import COLOURS
from companion.games.swiped.rules.deck import Card, make_deck

Deck = tuple[Card, ...]
TOLERANCE = 0.05  # mm: the PDF writes coordinates in points with 2 decimals


def _where(number: int) -> tuple[int, int]:
    """(page, slot) of card ``number``: nine a page, in reading order."""
    return divmod(number - 1, ds.CARDS_PER_PAGE)


def _inside(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


def _close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(p - q) <= TOLERANCE for p, q in zip(a, b, strict=True))


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# --- the primitives -------------------------------------------------------------------------


def primitive_mismatches(pages: list[ds.Page], deck: Deck) -> list[str]:
    """Where the primitives differ from ``deck``: card labels, square fills, colour names."""
    problems: list[str] = []
    labels = [(i, t) for i, page in enumerate(pages) for t in page if isinstance(t, ds.Text)]
    numbers = [int(t.text.split()[1]) for _, t in labels if re.fullmatch(r"Carte \d+", t.text)]
    if sorted(numbers) != list(range(1, len(deck) + 1)):
        problems.append(f"card labels {sorted(numbers)}")
    for number, card in enumerate(deck, start=1):
        page, slot = _where(number)
        x0, y0 = ds.card_origin(slot)
        frame = (x0, y0, ds.CARD_W, ds.CARD_H)
        if not any(
            t.text == f"Carte {number}" and _inside(t.x, t.y, frame) for i, t in labels if i == page
        ):
            problems.append(f"card {number}: no label 'Carte {number}' on its card")
        for square, colour in enumerate(card, start=1):
            box = ds.square_box(slot, square)
            fills = [
                r.fill
                for r in pages[page]
                if isinstance(r, ds.Rect) and _close((r.x, r.y, r.w, r.h), box)
            ]
            names = [
                t for i, t in labels if i == page and t.text in COLOURS and _inside(t.x, t.y, box)
            ]
            if fills != [ds.COLOUR_RGB[colour]]:
                problems.append(f"card {number} square {square}: fill {fills}, not {colour}")
            if [t.text for t in names] != [colour]:
                problems.append(f"card {number} square {square}: names {names}, not {colour}")
            elif names[0].colour != ds.text_colour(ds.COLOUR_RGB[colour]):
                problems.append(f"card {number} square {square}: name in {names[0].colour}")
    return problems


def test_the_primitives_draw_the_shipped_deck_card_by_card() -> None:
    deck = make_deck()
    pages = ds.layout(deck)
    assert len(pages) == 3
    assert primitive_mismatches(pages, deck) == []


def test_cards_are_playing_cards_inside_the_page_and_marks_never_touch_a_card() -> None:
    pages = ds.layout(make_deck())
    for page in pages:
        frames = [(r.x, r.y, r.w, r.h) for r in page if isinstance(r, ds.Rect) and r.fill is None]
        marks = [line for line in page if isinstance(line, ds.Line)]
        assert {(w, h) for _, _, w, h in frames} == {(63.0, 88.0)}
        for x, y, w, h in frames:
            assert min(x, y, ds.PAGE_W - x - w, ds.PAGE_H - y - h) >= 5  # printable
        assert len(marks) == 8 * len(frames)
        for m in marks:
            assert m.x1 == m.x2 or m.y1 == m.y2  # straight
            for x, y, w, h in frames:  # a mark's box misses every card (closed rectangle)
                lo_x, hi_x = sorted((m.x1, m.x2))
                lo_y, hi_y = sorted((m.y1, m.y2))
                assert hi_x < x or lo_x > x + w or hi_y < y or lo_y > y + h, (m, (x, y))
        for x, y, w, h in frames:  # every corner has its two marks, on its two edges
            for cx in (x, x + w):
                for cy in (y, y + h):
                    near = {  # (a neighbour's mark may lie on the same segment)
                        tuple(sorted(((m.x1, m.y1), (m.x2, m.y2))))
                        for m in marks
                        if ((m.y1 == m.y2 == cy) or (m.x1 == m.x2 == cx))
                        and min(abs(m.x1 - cx) + abs(m.y1 - cy), abs(m.x2 - cx) + abs(m.y2 - cy))
                        == ds.MARK_OFFSET
                    }
                    assert len(near) == 2, (cx, cy)


def test_the_nfc_circle_is_25_mm_on_the_card_below_the_grid() -> None:
    page = ds.layout(make_deck())[0]
    circles = [c for c in page if isinstance(c, ds.Circle)]
    assert len(circles) == 9
    for slot, c in enumerate(circles):
        x0, y0 = ds.card_origin(slot)
        assert c.r * 2 == 25 and c.dash > 0
        assert x0 < c.cx - c.r and c.cx + c.r < x0 + ds.CARD_W
        assert ds.square_box(slot, 9)[1] + ds.SQUARE < c.cy - c.r and c.cy + c.r < y0 + ds.CARD_H
        nfc = [t for t in page if isinstance(t, ds.Text) and (t.x, t.y) == (c.cx, c.cy)]
        assert [t.text for t in nfc] == ["NFC"]


def test_the_colours_are_distinct_named_readable_and_blanc_is_outlined() -> None:
    assert set(ds.COLOUR_RGB) == set(COLOURS)
    assert len(set(ds.COLOUR_RGB.values())) == len(COLOURS)
    for colour, rgb in ds.COLOUR_RGB.items():
        ink = ds.text_colour(rgb)
        assert ds.contrast(ink, rgb) >= 4.5, colour  # WCAG AA for normal text
    assert ds.text_colour(ds.COLOUR_RGB["noir"]) == ds.WHITE
    assert ds.text_colour(ds.COLOUR_RGB["blanc"]) == ds.BLACK
    page = ds.layout(make_deck())[0]
    squares = [r for r in page if isinstance(r, ds.Rect) and r.fill in ds.COLOUR_RGB.values()]
    outlined = {r.fill for r in squares if r.outline is not None}
    assert outlined == {ds.COLOUR_RGB["blanc"]}


def test_every_text_is_plain_ascii() -> None:
    texts = [t.text for page in ds.layout(make_deck(60, 3)) for t in page if isinstance(t, ds.Text)]
    assert all(t.isascii() and t.isprintable() for t in texts)


# --- the PDF, read back ---------------------------------------------------------------------


@dataclass(frozen=True)
class PdfPage:
    fills: list[tuple[tuple[float, float, float, float], tuple[float, float, float]]]
    """Filled rectangles: (x, y, w, h) in mm from the top-left, fill colour 0..1."""
    texts: list[tuple[float, float, str, tuple[float, float, float]]]
    """Shown strings: baseline start (x, y) in mm from the top-left, text, fill colour."""


TOKEN = re.compile(
    rb"\((?:\\.|[^\\()])*\)|\[|\]|/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z*']+"
)


def _pdf_string(token: bytes) -> str:
    body = re.sub(rb"\\([0-7]{1,3})", lambda m: bytes([int(m.group(1), 8)]), token[1:-1])
    return re.sub(rb"\\(.)", rb"\1", body).decode("latin-1")


def _page_content(stream: bytes) -> PdfPage:
    """Run a content stream: the fill colour through q/Q, rectangles filled, strings shown."""
    k, height = ds.PT_PER_MM, ds.PAGE_H
    page = PdfPage([], [])
    fill: tuple[float, float, float] = (0.0, 0.0, 0.0)
    saved: list[tuple[float, float, float]] = []
    stack: list[bytes] = []
    rect: tuple[float, ...] | None = None
    at = (0.0, 0.0)
    for token in TOKEN.findall(stream):
        if not token[:1].isalpha() and token[:1] not in b"*'":
            stack.append(token)
            continue
        nums = [float(t) for t in stack if re.fullmatch(rb"[-+.\d]+", t)]
        if token == b"q":
            saved.append(fill)
        elif token == b"Q":
            fill = saved.pop()
        elif token == b"rg":
            fill = (nums[-3], nums[-2], nums[-1])
        elif token == b"g":
            fill = (nums[-1],) * 3
        elif token == b"re":
            rect = tuple(nums[-4:])
        elif token in (b"f", b"F", b"B", b"f*", b"B*") and rect is not None:
            x, y, w, h = rect
            top = max(y, y + h)
            page.fills.append(((x / k, height - top / k, abs(w) / k, abs(h) / k), fill))
            rect = None
        elif token == b"Td":
            at = (nums[-2] / k, height - nums[-1] / k)
        elif token == b"Tj":
            page.texts.append((*at, _pdf_string(stack[-1]), fill))
        stack = []
    return page


def read_pdf(path: Path) -> list[PdfPage]:
    """The pages of a PDF in page-tree order (uncompressed or Flate streams)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")

    def obj(number: int) -> tuple[bytes, int]:
        m = re.search(rb"(?m)^%d 0 obj\s*" % number, data)
        assert m, number
        return data[m.end() : data.index(b"endobj", m.end())], m.end()

    def find(pattern: bytes, text: bytes) -> bytes:
        m = re.search(pattern, text, re.S)
        assert m, pattern
        return m.group(1)

    root = re.search(rb"/Type /Pages\b", data)
    assert root
    start = data.rindex(b" obj", 0, root.start())
    pages_obj = data[start : data.index(b"endobj", start)]
    kids = [int(n) for n in re.findall(rb"(\d+) 0 R", find(rb"/Kids \[(.*?)\]", pages_obj))]
    count = int(find(rb"/Count (\d+)", pages_obj))
    assert count == len(kids) == len(re.findall(rb"/Type /Page\b", data))
    pages = []
    for kid in kids:
        page_dict, _ = obj(kid)
        contents = int(find(rb"/Contents (\d+) 0 R", page_dict))
        _, offset = obj(contents)
        head = re.compile(rb"<<(.*?)>>\s*stream\r?\n", re.S).match(data, offset)
        assert head, contents
        length = int(find(rb"/Length (\d+)", head.group(1)))
        stream = data[head.end() : head.end() + length]
        if b"/FlateDecode" in head.group(1):
            stream = zlib.decompress(stream)
        pages.append(_page_content(stream))
    return pages


def pdf_mismatches(pages: list[PdfPage], deck: Deck) -> list[str]:
    """Where the PDF differs from ``deck``: page count, card labels, square fills, names."""
    problems: list[str] = []
    if len(pages) != ds.pages_needed(len(deck)):
        problems.append(f"{len(pages)} pages for {len(deck)} cards")
        return problems
    labels = [
        int(m.group(1))
        for page in pages
        for _, _, text, _ in page.texts
        if (m := re.fullmatch(r"Carte (\d+)", text))
    ]
    if sorted(labels) != list(range(1, len(deck) + 1)):
        problems.append(f"card labels {sorted(labels)}")
    for number, card in enumerate(deck, start=1):
        page_no, slot = _where(number)
        page = pages[page_no]
        frame = (*ds.card_origin(slot), ds.CARD_W, ds.CARD_H)
        if not any(t == f"Carte {number}" and _inside(x, y, frame) for x, y, t, _ in page.texts):
            problems.append(f"card {number}: label not on its card")
        for square, colour in enumerate(card, start=1):
            box = ds.square_box(slot, square)
            want = tuple(c / 255 for c in ds.COLOUR_RGB[colour])
            fills = [f for b, f in page.fills if _close(b, box)]
            if len(fills) != 1 or not _close(fills[0], want):
                problems.append(f"card {number} square {square}: fill {fills}, not {colour}")
            names = [t for x, y, t, _ in page.texts if t in COLOURS and _inside(x, y, box)]
            if names != [colour]:
                problems.append(f"card {number} square {square}: names {names}, not {colour}")
    return problems


@pytest.fixture(scope="module")
def shipped_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pdf") / "deck.pdf"
    assert main(["deck", "swiped", "--out", str(out)]) == 0
    return out


def test_the_pdf_has_three_a4_pages_and_every_card_as_the_deck_says(shipped_pdf: Path) -> None:
    data = shipped_pdf.read_bytes()
    assert b"/MediaBox [0 0 595.28 841.89]" in data  # A4 portrait in points
    pages = read_pdf(shipped_pdf)
    assert len(pages) == 3
    assert pdf_mismatches(pages, make_deck()) == []
    labels = [t for p in pages for _, _, t, _ in p.texts if t.startswith("Carte ")]
    assert len(labels) == 24 and len(set(labels)) == 24


def test_an_uncompressed_pdf_reads_back_the_same(tmp_path: Path) -> None:
    deck = make_deck(12, 1)
    out = tmp_path / "plain.pdf"
    ds.write_pdf(ds.layout(deck), out, compress=False)
    assert b"(Carte 12) Tj" in out.read_bytes()
    assert pdf_mismatches(read_pdf(out), deck) == []


def test_size_30_seed_5_is_30_cards_on_4_pages_of_that_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "big.pdf"
    code, stdout, err = _run(
        ["deck", "swiped", "--out", str(out), "--size", "30", "--seed", "5"], capsys
    )
    assert (code, err) == (0, "")
    assert stdout == f"wrote {out}: 30 cards on 4 pages\n"
    pages = read_pdf(out)
    assert len(pages) == 4
    deck = make_deck(30, 5)
    assert deck != make_deck()[:24]
    assert pdf_mismatches(pages, deck) == []
    assert pdf_mismatches(pages, make_deck(30, 0)) != []  # the seed matters


# --- the PNGs -------------------------------------------------------------------------------


def png_mismatches(images: list[Image.Image], deck: Deck, scale: float = ds.PX_PER_MM) -> list[str]:
    """Where the PNGs differ from ``deck``: each square's paint, sampled in its lower-right
    part (away from its name and number), and its name's ink in the middle band."""
    problems: list[str] = []
    if len(images) != ds.pages_needed(len(deck)):
        return [f"{len(images)} images for {len(deck)} cards"]
    for number, card in enumerate(deck, start=1):
        page, slot = _where(number)
        image = images[page].convert("RGB")
        for square, colour in enumerate(card, start=1):
            x, y, w, h = ds.square_box(slot, square)
            cx, cy = round((x + 0.8 * w) * scale), round((y + 0.8 * h) * scale)
            patch = {image.getpixel((cx + dx, cy + dy)) for dx in (-2, 0, 2) for dy in (-2, 0, 2)}
            if patch != {ds.COLOUR_RGB[colour]}:
                problems.append(f"card {number} square {square}: painted {patch}, not {colour}")
            band = image.crop(
                (x * scale, (y + h / 2 - 1) * scale, (x + w) * scale, (y + h / 2 + 1) * scale)
            )
            ink = ds.text_colour(ds.COLOUR_RGB[colour])
            inked = sum(
                band.getpixel((i, j)) == ink for i in range(band.width) for j in range(band.height)
            )
            if inked < 20:
                problems.append(f"card {number} square {square}: no name written in {ink}")
    return problems


def _open_all(paths: list[Path]) -> list[Image.Image]:
    images = []
    for path in paths:
        with Image.open(path) as image:
            images.append(image.copy())
    return images


def test_the_pngs_are_one_per_page_and_paint_every_square_as_the_deck_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "look" / "deck.png"
    out.parent.mkdir()  # a folder that exists: `deck` creates none (issue 24)
    code, stdout, err = _run(["deck", "swiped", "--out", str(out)], capsys)
    assert (code, err) == (0, "")
    pages = [out, tmp_path / "look" / "deck-2.png", tmp_path / "look" / "deck-3.png"]
    assert stdout == f"wrote {out}: 24 cards on 3 pages (pages 2 on: {pages[1]}, {pages[2]})\n"
    assert sorted(p.name for p in out.parent.iterdir()) == sorted(p.name for p in pages)
    images = _open_all(pages)
    assert {i.size for i in images} == {(1260, 1782)}  # A4 at 6 px/mm
    assert png_mismatches(images, make_deck()) == []


# --- the command's errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--out", "OUT/deck.svg"], "give a .pdf (to print) or a .png (to look at)"),
        (["--out", "OUT/deck"], "give a .pdf"),
        (["--out", "OUT/deck.pdf", "--size", "2"], "--size 2: a deck has 3..60 cards, not 2"),
        (["--out", "OUT/deck.pdf", "--size", "61"], "--size 61: a deck has 3..60 cards"),
        (["--out", "OUT/file.txt/deck.pdf"], "is a file, not a directory"),
        (["--out", "OUT/missing/deck.pdf"], "there is no folder OUT/missing: create it first"),
    ],
)
def test_bad_options_exit_2_with_one_line_and_write_nothing(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file.txt").write_text("not a folder\n")
    before = sorted(tmp_path.rglob("*"))
    argv = [a.replace("OUT", str(tmp_path)) for a in argv]
    code, stdout, err = _run(["deck", "swiped", *argv], capsys)
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and err.startswith("companion deck: "), err
    assert words.replace("OUT", str(tmp_path)) in err
    assert sorted(tmp_path.rglob("*")) == before


def test_a_game_with_nothing_to_print_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.pdf"
    code, stdout, err = _run(["deck", "ptipasspass", "--out", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert err == "companion deck: ptipasspass has nothing to print (games that do: swiped)\n"
    assert not out.exists()


# --- the checks can fail --------------------------------------------------------------------


def _swap_fills(pages: list[ds.Page], slot: int, a: int, b: int) -> list[ds.Page]:
    """Page 1 drawn with the paint of squares a and b of the card in ``slot`` exchanged (the
    names stay): a drawing bug the checks must catch."""
    boxes = {
        ds.square_box(slot, a): ds.square_box(slot, b),
        ds.square_box(slot, b): ds.square_box(slot, a),
    }
    fills = {(r.x, r.y, r.w, r.h): r.fill for r in pages[0] if isinstance(r, ds.Rect)}
    swapped: ds.Page = [
        dataclasses.replace(p, fill=fills[boxes[(p.x, p.y, p.w, p.h)]])
        if isinstance(p, ds.Rect) and (p.x, p.y, p.w, p.h) in boxes
        else p
        for p in pages[0]
    ]
    return [swapped, *pages[1:]]


def test_a_swap_of_two_colours_in_the_drawing_is_caught_everywhere(tmp_path: Path) -> None:
    deck = make_deck()
    a, b = 1, 2
    assert deck[4][a - 1] != deck[4][b - 1]
    bad = _swap_fills(ds.layout(deck), 4, a, b)  # card 5
    expected = {f"card 5 square {a}", f"card 5 square {b}"}

    def squares(problems: list[str]) -> set[str]:
        return {re.sub(r"(square \d+).*", r"\1", p) for p in problems}

    assert squares(primitive_mismatches(bad, deck)) == expected
    ds.write_pdf(bad, tmp_path / "bad.pdf")
    assert squares(pdf_mismatches(read_pdf(tmp_path / "bad.pdf"), deck)) == expected
    images = _open_all(ds.write_png(bad, tmp_path / "bad.png"))
    assert squares(png_mismatches(images, deck)) == expected


def test_a_deck_with_two_colours_swapped_on_a_card_is_not_the_deck(tmp_path: Path) -> None:
    deck = make_deck()
    card = list(deck[20])
    card[3], card[8] = card[8], card[3]
    tampered = (*deck[:20], tuple(card), *deck[21:])
    ds.write_pdf(ds.layout(tampered), tmp_path / "t.pdf")
    problems = pdf_mismatches(read_pdf(tmp_path / "t.pdf"), deck)
    assert len(problems) == 4 and all(p.startswith("card 21 square") for p in problems)
    assert len(primitive_mismatches(ds.layout(tampered), deck)) == 4
