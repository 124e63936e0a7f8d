"""Layouts as data (PTI-2, PTI-3): a table may supply its own."""

from __future__ import annotations

import pytest

from companion.games.passpass.rules import make_config
from companion.games.passpass.rules.layouts import Layout, LayoutError, default_layout
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
