"""Layouts as data (PTI-2, PTI-3): a table may supply its own."""

from __future__ import annotations

import pytest

from companion.games.passpass.rules import make_config
from companion.games.passpass.rules.layouts import Layout, LayoutError, default_layout
from companion.games.passpass.rules.tables import layout_tables
from companion.rules.errors import BadInput


def test_pti_2_a_table_may_supply_its_own_layout_as_positions():
    # A plus-shaped mat: a centre hat with four neighbours, plus a longer arm below.
    layout = Layout.from_json(
        {"name": "plus", "positions": [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [3, 1]]}
    )
    assert layout.spots == 6
    assert layout.lines == ((1, 3, 5), (2, 3, 4), (3, 5, 6))
    assert layout.contiguous(3, 1) and not layout.contiguous(1, 2)
    assert Layout.from_json(layout.to_json()) == layout
    config = make_config("ptipasspass", 2, layout=layout)
    assert config.layout.spots == 6


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"positions": [[0, 0], [0, 1]]}, "need 3"),
        ({"positions": [[0, 0], [0, 0], [0, 1]]}, "two spots on one position"),
        ({"positions": [[0, 1], [0, 0], [0, 2]]}, "reading order"),
        ({"positions": [[0, 0], [1, 1], [2, 2]]}, "no line"),
        ({"spots": 9}, "positions"),
        ({"positions": [[0, "x"]]}, "positions"),
    ],
)
def test_a_bad_layout_is_refused_with_a_message_saying_what_is_wrong(data, message):
    with pytest.raises(LayoutError, match=message):
        Layout.from_json(data)


def test_no_default_layout_outside_2_to_6_players():
    with pytest.raises(LayoutError, match="PTI-2"):
        default_layout(7)
    with pytest.raises(BadInput, match="unknown game"):
        make_config("pokerpasspass", 3)


PLUS = Layout.from_json(
    {"name": "plus", "positions": [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [3, 1]]}
)


@pytest.mark.parametrize("layout", [*(default_layout(n) for n in range(2, 7)), PLUS])
def test_pti_5_a_swap_changes_the_lines_holding_one_of_its_hats_and_no_other(layout):
    """PTI-5's swap exchanges two contiguous hats (PTI-2): a line (PTI-3) holding one of
    them then holds the other's contents; a line holding both or neither holds the same
    animals. What the board reads for a swap before a reveal (`swap_lines`: per pair, the
    lines it changes, as the hats whose contents they then hold) says exactly that."""
    tables = layout_tables(layout)
    for pair, changed in zip(tables.pairs, tables.swap_lines, strict=True):
        a, b = pair
        assert layout.contiguous(a + 1, b + 1)
        contents = list(range(layout.spots))  # each hat's contents told apart: its number
        contents[a], contents[b] = contents[b], contents[a]
        after = (tuple(contents[h] for h in line) for line in tables.lines)
        expected = [
            held for held, line in zip(after, tables.lines, strict=True) if set(held) != set(line)
        ]
        assert list(changed) == expected, pair
    pairs = {(min(p) - 1, max(p) - 1) for p in layout.adjacent}
    assert set(tables.pairs) == pairs and len(tables.pairs) == len(pairs)


@pytest.mark.parametrize("layout", [*(default_layout(n) for n in range(2, 7)), PLUS])
def test_pti_3_a_lines_mask_holds_its_three_hats_and_no_other(layout):
    """What the board reads of a line against the occupied hats (a bit per hat): a hat
    counts for a line exactly when it is one of the line's three (PTI-3)."""
    tables = layout_tables(layout)
    for line, mask in zip(tables.lines, tables.line_masks, strict=True):
        assert [s for s in range(layout.spots) if mask & (1 << s)] == sorted(line)
        assert mask < 1 << layout.spots


@pytest.mark.parametrize(
    ("data", "kind", "fields", "message"),
    [
        ({"name": "x", "positions": [[0, 0], [0, 1]]}, "few", {"name": "x", "n": 2},
         "layout 'x' has 2 spots; need 3"),
        ({"name": "x", "positions": [[0, 0], [0, 0], [0, 1]]}, "twice", {"name": "x"},
         "layout 'x' puts two spots on one position"),
        ({"name": "x", "positions": [[0, 1], [0, 0], [0, 2]]}, "order", {"name": "x"},
         "layout 'x': spots must be numbered in reading order (row by row, left to right)"),
        ({"name": "x", "positions": [[0, 0], [1, 1], [2, 2]]}, "no_line", {"name": "x"},
         "layout 'x' has no line of three contiguous hats"),
        ({"spots": 9}, "positions", {},
         "a layout needs 'positions': a list of [row, column] pairs in reading order"),
    ],
)  # fmt: skip
def test_a_bad_layout_says_why_by_a_kind_for_the_tables_words(data, kind, fields, message):
    """PTI-2, PTI-3: the referee words a refused layout in the table's language from its
    kind and fields; the message itself is the engine's one English line."""
    with pytest.raises(LayoutError) as refused:
        Layout.from_json(data)
    assert (refused.value.kind, refused.value.fields) == (kind, fields)
    assert str(refused.value) == message
    with pytest.raises(LayoutError) as refused:
        default_layout(7)
    assert (refused.value.kind, refused.value.fields) == ("no_grid", {"players": 7})
    assert str(refused.value) == "no hat layout for 7 players (PTI-2 covers 2 to 6)"


@pytest.mark.parametrize("layout", [*(default_layout(n) for n in range(2, 7)), PLUS])
def test_pti_3_three_hats_are_a_line_in_any_order_only_when_consecutive_in_a_row_or_column(
    layout,
):
    """What the referee asks of three lifted hats: consecutive in one row or one column
    (PTI-3), named in any order; never a diagonal, a broken row or fewer than three."""
    for a, b, c in layout.lines:
        assert layout.is_line((a, b, c)) and layout.is_line((c, a, b))
    at = {pos: spot for spot, pos in zip(layout.spot_numbers, layout.positions, strict=True)}
    for (row, col), spot in at.items():
        diagonal = (spot, at.get((row + 1, col + 1)), at.get((row + 2, col + 2)))
        if None not in diagonal:
            assert not layout.is_line(diagonal)
        gap = (spot, at.get((row, col + 1)), at.get((row, col + 3)))
        if None not in gap:
            assert not layout.is_line(gap)
    assert not layout.is_line(layout.lines[0][:2])


def test_a_layout_prints_as_its_name_and_positions() -> None:
    """A configuration in a log or a bug report: the layout's facts, not what is worked
    out from them (contiguity, PTI-2; lines, PTI-3)."""
    assert repr(default_layout(2)) == (
        "Layout(name='2x3', positions=((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)))"
    )
