"""One or more tests per ruling VNP-1..VNP-7, on small hand-built positions."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.games.vnp.bots import largest_first, random_action
from companion.games.vnp.rules import (
    COLOURS,
    PIECES,
    TOTAL_SEGMENTS,
    AllPlaced,
    Colour,
    Config,
    Event,
    GameOver,
    Pass,
    Passed,
    Place,
    Placed,
    State,
    action_from_json,
    actors,
    apply,
    can_place,
    colour_scores,
    free_polysticks,
    geometry,
    is_over,
    legal_actions,
    legal_placements,
    make_config,
    new_game,
    public_view,
    side_scores,
    winners,
)
from companion.games.vnp.rules.board import PASS, Board
from companion.games.vnp.rules.pieces import ends
from companion.rules.errors import BadInput, IllegalAction
from tests.games.vnp.rules.helpers import line, pid, position

# Bleu starts just below jaune, so the two meet at once.
NEAR = make_config(starts=((2, 2), (2, 4), (10, 10), (2, 10)))
NEAR_STRICT = make_config(starts=((2, 2), (2, 4), (10, 10), (2, 10)), crossing="strict")
JAUNE_THROUGH = line((1, 2), (2, 2), (3, 2))  # goes straight through (2, 2)


def ruling(exc: pytest.ExceptionInfo[IllegalAction]) -> str:
    return exc.value.ruling


# ------------------------------------------------------------------------------ VNP-1


def test_vnp_1_free_polysticks_are_1_2_5_16_generated_with_84_segments() -> None:
    assert [len(level) for level in free_polysticks(4)] == [1, 2, 5, 16]
    assert len(PIECES) == 24
    assert TOTAL_SEGMENTS == 84 == sum(p.size for p in PIECES)
    # fixed polysticks (every orientation, deduplicated): 2, 6, 22, 88 (OEIS A096267)
    fixed = [sum(len(p.orientations) for p in PIECES if p.size == n) for n in (1, 2, 3, 4)]
    assert fixed == [2, 6, 22, 88]


def test_vnp_1_pieces_are_connected_and_distinct_under_turning_over() -> None:
    seen: set[frozenset[tuple[int, int]]] = set()
    for piece in PIECES:
        for shape in piece.orientations:
            assert len(shape) == piece.size
            # connected: grow from one segment through shared intersections
            reached = {shape[0]}
            grew = True
            while grew:
                grew = False
                for seg in shape:
                    if seg not in reached and any(set(ends(seg)) & set(ends(r)) for r in reached):
                        reached.add(seg)
                        grew = True
            assert reached == set(shape)
            assert frozenset(shape) not in seen  # no orientation of two pieces coincide
            seen.add(frozenset(shape))


def test_vnp_1_a_piece_is_placed_once_per_colour() -> None:
    state = position(NEAR, turn="jaune", jaune=(JAUNE_THROUGH,))
    again = line((3, 2), (4, 2), (5, 2))  # the straight 2 again, attached
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.JAUNE, again))
    assert ruling(exc) == "VNP-1"


def test_vnp_1_every_placement_of_a_placed_piece_is_refused_for_it() -> None:
    """The first and the last placement of a piece's (its ids run on to the next piece's):
    once jaune placed the piece, each is refused as that piece's (VNP-1)."""
    config = make_config()
    piece_of = geometry(config.size).piece_of
    board = Board(config)
    board.place(next(i for i in range(len(piece_of)) if board.legal(0) >> i & 1))
    placed = piece_of[board.placed[0][0]]
    ids = [i for i, piece in enumerate(piece_of) if piece == placed]
    assert ids[-1] + 1 < len(piece_of) and piece_of[ids[-1] + 1] != placed
    for again in (ids[0], ids[-1]):
        assert board.refusal(0, again).ruling == "VNP-1"


# ------------------------------------------------------------------------------ VNP-2


def test_vnp_2_board_has_13_by_13_intersections_and_312_segments() -> None:
    g = geometry(13)
    assert g.segment_count == 312
    points = [(x, y) for y in range(13) for x in range(13)]
    assert [g.point_id(p) for p in points] == list(range(169))
    assert [g.point(i) for i in range(169)] == points
    every = 0
    for mask in g.segment_masks:
        every |= mask
    assert every == (1 << 312) - 1
    assert g.segment(g.segment_id(((4, 5), (4, 6)))) == ((4, 5), (4, 6))
    assert [g.segment_id(g.segment(i)) for i in range(312)] == list(range(312))


@pytest.mark.parametrize(
    "segment",
    [
        ((-1, 0), (0, 0)),
        ((12, 3), (13, 3)),
        ((3, 13), (4, 13)),
        ((-1, 0), (-1, 1)),
        ((0, -1), (0, 0)),
        ((13, 0), (13, 1)),
        ((0, 12), (0, 13)),
        ((0, 0), (1, 1)),
        ((0, 0), (2, 0)),
        ((0, 0), (0, 0)),
    ],
)
def test_vnp_2_a_segment_off_the_board_or_not_between_neighbours_has_no_id(segment) -> None:
    """VNP-2: the 312 unit segments join neighbouring intersections of the 13 x 13 board;
    any other pair (off an edge, diagonal, two apart) is refused, never read as another."""
    with pytest.raises(ValueError, match="not a unit segment of the board"):
        geometry(13).segment_id(segment)


def test_vnp_2_starts_and_colour_order_clockwise_from_top_left() -> None:
    cfg = make_config()
    assert [str(c) for c in COLOURS] == ["jaune", "bleu", "rouge", "vert"]
    assert cfg.starts == ((2, 2), (10, 2), (10, 10), (2, 10))
    state, _ = new_game(cfg, 0)
    order = []
    for _ in range(8):
        order.append(str(COLOURS[state.turn]))
        state, _ = apply(state, legal_actions(state)[0])
    assert order == ["jaune", "bleu", "rouge", "vert"] * 2


def test_vnp_2_out_of_turn_is_refused_and_state_unchanged() -> None:
    state, _ = new_game(make_config(), 0)
    move = legal_actions(state)[0]
    assert isinstance(move, Place)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.BLEU, move.placement))
    assert ruling(exc) == "VNP-2"
    assert state == new_game(make_config(), 0)[0]


# ------------------------------------------------------------------------------ VNP-3


def test_vnp_3_first_piece_must_touch_the_start_intersection() -> None:
    state, _ = new_game(make_config(), 0)
    g = geometry(13)
    start = g.point_id((2, 2))
    firsts = legal_placements(state, 0)
    assert firsts and all(g.point_masks[p] >> start & 1 for p in firsts)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.JAUNE, line((3, 3), (4, 3))))
    assert ruling(exc) == "VNP-3"
    # going straight through the start touches it too
    apply(state, Place(Colour.JAUNE, JAUNE_THROUGH))


# ------------------------------------------------------------------------------ VNP-4


def test_vnp_4_a_piece_through_an_intersection_forbids_a_crossing_piece() -> None:
    state = position(NEAR, turn="bleu", jaune=(JAUNE_THROUGH,))
    crossing = line((2, 1), (2, 2), (2, 3), (2, 4))
    assert crossing not in legal_placements(state, 1)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.BLEU, crossing))
    assert ruling(exc) == "VNP-4"


def test_vnp_4_a_t_meeting_is_allowed() -> None:
    state = position(NEAR, turn="bleu", jaune=(JAUNE_THROUGH,))
    t_meeting = line((2, 2), (2, 3), (2, 4))
    assert t_meeting in legal_placements(state, 1)
    after, events = apply(state, Place(Colour.BLEU, t_meeting))
    assert isinstance(events[0], Placed) and events[0].piece == "2a"
    assert after.placed[1] == (t_meeting,)


def test_vnp_4_corner_to_corner_and_end_to_end_are_allowed() -> None:
    corner = pid(((1, 2), (2, 2), (2, 1)))
    state = position(NEAR, turn="bleu", jaune=(corner,))
    other_corner = pid(((3, 2), (2, 2), (2, 3), (2, 4)))
    assert other_corner in legal_placements(state, 1)
    end = line((2, 2), (1, 2))
    state = position(NEAR, turn="bleu", jaune=(end,))
    assert pid(((2, 2), (3, 2)), ((2, 2), (2, 3), (2, 4))) in legal_placements(state, 1)


def test_vnp_4_a_shared_segment_is_refused() -> None:
    state = position(NEAR, turn="bleu", jaune=(JAUNE_THROUGH,))
    sharing = pid(((3, 2), (2, 2), (2, 3), (2, 4)))
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.BLEU, sharing))
    assert ruling(exc) == "VNP-4"
    assert "segment" in str(exc.value)


def test_vnp_4_later_pieces_share_an_intersection_with_the_same_colour() -> None:
    state = position(NEAR, turn="jaune", jaune=(JAUNE_THROUGH,))
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.JAUNE, line((5, 5), (5, 6))))
    assert ruling(exc) == "VNP-4"
    g = geometry(13)
    for p in legal_placements(state, 0):
        assert g.point_masks[p] & state.reach[0]
    # the same colour never crosses itself either
    assert line((2, 1), (2, 2), (2, 3)) not in legal_placements(state, 0)
    assert line((2, 2), (2, 3)) in legal_placements(state, 0)


def test_vnp_4_a_colour_continues_through_a_passage_where_another_passes() -> None:
    """Fig. 5/6: jaune reached (2, 3); bleu's corner there leaves it a way through."""
    jaune = line((2, 2), (2, 3))
    bleu = pid(((1, 3), (2, 3), (2, 4)))  # a corner at (2, 3), touching bleu's start
    state = position(NEAR, turn="jaune", jaune=(jaune,), bleu=(bleu,))
    onward = pid(((2, 3), (3, 3), (4, 3)))
    assert onward in legal_placements(state, 0)


def test_vnp_4_stricter_reading_is_configurable() -> None:
    state = position(NEAR_STRICT, turn="bleu", jaune=(JAUNE_THROUGH,))
    t_meeting = line((2, 2), (2, 3), (2, 4))
    assert t_meeting not in legal_placements(state, 1)
    with pytest.raises(IllegalAction) as exc:
        apply(state, Place(Colour.BLEU, t_meeting))
    assert ruling(exc) == "VNP-4" and "strict" in str(exc.value)
    # meeting at the end of a piece is still allowed
    end = line((1, 2), (2, 2))
    state = position(NEAR_STRICT, turn="bleu", jaune=(end,))
    assert t_meeting in legal_placements(state, 1)
    # and a piece's end may not touch another's corner
    corner = pid(((1, 2), (2, 2), (2, 1)))
    state = position(NEAR_STRICT, turn="bleu", jaune=(corner,))
    assert t_meeting not in legal_placements(state, 1)


# ------------------------------------------------------------------------------ VNP-5


def test_vnp_5_a_pass_is_refused_while_a_placement_exists() -> None:
    state, _ = new_game(make_config(), 0)
    assert all(isinstance(a, Place) for a in legal_actions(state))
    with pytest.raises(IllegalAction) as exc:
        apply(state, Pass(Colour.JAUNE))
    assert ruling(exc) == "VNP-5"


def test_vnp_5_a_blocked_colour_passes_and_is_skipped_afterwards() -> None:
    plus = pid(((1, 3), (2, 3), (3, 3)), ((2, 2), (2, 3), (2, 4)))  # bleu's plus at (2, 3)
    cfg = make_config(starts=((2, 3), (2, 4), (10, 10), (2, 10)))
    state = position(cfg, turn="jaune", bleu=(plus,))
    assert legal_actions(state) == (Pass(Colour.JAUNE),)
    state, events = apply(state, Pass(Colour.JAUNE))
    assert events == (Passed(Colour.JAUNE),)
    assert state.passed[0] and COLOURS[state.turn] is Colour.BLEU
    for _ in range(3):
        state, _ = apply(state, legal_actions(state)[0])
    assert COLOURS[state.turn] is Colour.BLEU  # jaune is skipped


def test_vnp_5_a_board_played_by_the_lab_passes_a_blocked_colour_and_only_it() -> None:
    """The lab and the bots play a board by ids, PASS for a pass (`Board.play`): the
    blocked colour passes (VNP-5), one that can place may not."""
    plus = pid(((1, 3), (2, 3), (3, 3)), ((2, 2), (2, 3), (2, 4)))  # bleu's plus at (2, 3)
    cfg = make_config(starts=((2, 3), (2, 4), (10, 10), (2, 10)))
    board = position(cfg, turn="jaune", bleu=(plus,)).fork()
    board.play(PASS)
    assert board.passed[0] and COLOURS[board.turn] is Colour.BLEU
    with pytest.raises(IllegalAction) as exc:
        board.play(PASS)  # bleu can place
    assert ruling(exc) == "VNP-5"
    assert not board.passed[1] and COLOURS[board.turn] is Colour.BLEU


def test_vnp_5_strict_reading_blocks_a_start_inside_another_piece() -> None:
    cfg = make_config(starts=((2, 3), (2, 4), (10, 10), (2, 10)), crossing="strict")
    state = position(cfg, turn="jaune", bleu=(line((2, 2), (2, 3), (2, 4)),))
    assert legal_actions(state) == (Pass(Colour.JAUNE),)


# ------------------------------------------------------------------------------ VNP-6


def test_vnp_6_game_ends_when_no_colour_can_place_lowest_wins() -> None:
    plus = pid(((1, 3), (2, 3), (3, 3)), ((2, 2), (2, 3), (2, 4)))
    cfg = make_config(starts=((2, 3), (2, 4), (10, 10), (2, 10)))
    state = position(cfg, turn="jaune", passed=("bleu", "rouge", "vert"), bleu=(plus,))
    assert not state.over and actors(state) == frozenset({0})
    state, events = apply(state, Pass(Colour.JAUNE))
    assert state.over and legal_actions(state) == () and actors(state) == frozenset()
    for colour in range(4):  # VNP-5: a colour that passed never places again
        assert legal_placements(state, colour) == () and not can_place(state, colour)
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.scores == (84, 80, 84, 84) and over.winners == (1,)
    assert is_over(state)
    for action in (Pass(Colour.JAUNE), Pass(Colour.VERT), Place(Colour.BLEU, 0)):
        with pytest.raises(IllegalAction) as exc:  # whoever it is: over, not out of turn
            apply(state, action)
        assert ruling(exc) == "VNP-6"


def test_vnp_6_all_pieces_placed_scores_minus_10() -> None:
    g = geometry(13)
    one_each = tuple(g.piece_of.index(p.index) for p in PIECES)  # scoring ignores where
    state = position(turn="bleu", jaune=one_each, passed=("bleu", "rouge", "vert"))
    assert state.over
    assert colour_scores(state) == (-10, 84, 84, 84)
    assert winners(state) == (0,)
    assert public_view(state).winners == (0,)


def test_vnp_6_placing_the_last_piece_gives_the_bonus_event() -> None:
    """Jaune plays alone (the others passed) with the greedy bot and places all 24."""
    state = State(make_config(), 0, ((),) * 4, (False, True, True, True))
    rng = random.Random(3)
    events: tuple[Event, ...] = ()
    while not state.over:
        state, events = apply(state, largest_first(state, rng))
    assert state.left[0] == () and not state.passed[0]
    assert legal_placements(state, 0) == () and not can_place(state, 0)  # nothing left
    assert isinstance(events[-2], AllPlaced) and isinstance(events[-1], GameOver)
    assert colour_scores(state) == (-10, 84, 84, 84)


# ------------------------------------------------------------------------------ VNP-7


def test_vnp_7_two_players_play_two_colours_and_add_scores() -> None:
    cfg = make_config(mode="two")
    state, _ = new_game(cfg, 0)
    seats = []
    for _ in range(4):
        (seat,) = actors(state)
        seats.append(seat)
        state, _ = apply(state, legal_actions(state)[0])
    assert seats == [1, 0, 1, 0]  # jaune, rouge: player 2; bleu, vert: player 1
    left = colour_scores(state)
    assert side_scores(state) == (left[1] + left[3], left[0] + left[2])
    assert public_view(state).seat == 1


def test_vnp_7_teams_add_scores_bleu_vert_against_jaune_rouge() -> None:
    state = position(make_config(mode="teams"), turn="jaune", passed=tuple(map(str, COLOURS)))
    assert state.over
    assert side_scores(state) == (168, 168) and winners(state) == (0, 1)
    assert actors(new_game(make_config(mode="teams"), 0)[0]) == frozenset({0})


# ------------------------------------------------------------------------------ contract


def test_bad_input_and_json() -> None:
    state, _ = new_game(make_config(), 0)
    count = len(geometry(13).placements)
    for placement in (10**6, count, -1, True, "0"):  # -1 would name the last placement
        with pytest.raises(
            BadInput, match=rf"^no placement {placement!r}: ids are 0\.\.{count - 1}$"
        ):
            apply(state, Place(Colour.JAUNE, placement))  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        apply(state, Place("noir", 0))  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="not a Vous ne passerez pas action"):
        apply(state, ("place", "jaune", 0))  # type: ignore[arg-type]
    assert can_place(state, 0) and not is_over(state)
    legal = legal_placements(state, 0)
    for placement in (0, count - 1):  # the first and the last ids are placements
        if placement in legal:
            apply(state, Place(Colour.JAUNE, placement))
        else:
            with pytest.raises(IllegalAction):  # VNP-3: a rule refuses it, not the input
                apply(state, Place(Colour.JAUNE, placement))
    with pytest.raises(BadInput):
        action_from_json({"action": "place", "colour": "noir", "placement": 1})
    with pytest.raises(BadInput):
        make_config(crossing="loose")
    move = legal_actions(state)[0]
    assert action_from_json(json.loads(json.dumps(move.to_json()))) == move
    after, events = apply(state, move)
    json.dumps([e.to_json() for e in events])
    json.dumps(public_view(after).to_json())
    assert State.from_json(json.loads(json.dumps(after.to_json()))) == after
    with pytest.raises(BadInput):
        State.from_json({**after.to_json(), "placed": [[10**6], [], [], []]})
    assert random_action(after, random.Random(1)) in legal_actions(after)


def test_vnp_3_every_intersection_a_piece_reaches_is_an_attach_point_its_start_too() -> None:
    """VNP-3: after the first piece, a colour's next piece touches any intersection its
    pieces reached: the far end of the first piece as well as the start."""
    state, _ = new_game(NEAR, 0)
    state, _ = apply(state, Place(Colour.JAUNE, pid(((2, 2), (3, 2)))))
    legal = legal_placements(state, 0)
    assert pid(((3, 2), (4, 2), (5, 2))) in legal  # from the far end
    assert pid(((2, 2), (2, 1), (2, 0))) in legal  # from the start


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"size": 4}, "the board has 5..40 intersections a side, not 4"),
        ({"size": 41}, "the board has 5..40 intersections a side, not 41"),
        ({"size": 13.0}, "the board has 5..40 intersections a side, not 13.0"),
        ({"starts": ((2, 2), (10, 2), (10, 10))}, "one start intersection a colour"),
        ({"starts": ((2, 2), (13, 2), (10, 10), (2, 10))}, "one start intersection a colour"),
        ({"starts": ((2, 2), (10, -1), (10, 10), (2, 10))}, "one start intersection a colour"),
        ({"starts": ((2, 2), (10, 2.0), (10, 10), (2, 10))}, "one start intersection a colour"),
        ({"starts": ((2, 2, 0), (10, 2), (10, 10), (2, 10))}, "a start intersection is (x, y)"),
        ({"mode": "three"}, "'three' is not a valid Mode"),
    ],
)
def test_vnp_2_a_board_or_a_start_off_its_range_is_bad_input_naming_it(options, says) -> None:
    """VNP-2: a board of 5..40 intersections a side, one start a colour on it."""
    with pytest.raises(BadInput, match=re.escape(says)):
        make_config(**options)
    with pytest.raises(BadInput, match="crossing and mode"):
        Config(crossing="nexos")  # type: ignore[arg-type]


def test_vnp_2_the_smallest_and_largest_boards_start_on_their_third_lines() -> None:
    """VNP-2: the starts are where the third lines from each corner cross, any board size;
    a start on the board's last line is on it."""
    assert make_config(size=5).starts == ((2, 2),) * 4
    assert make_config(size=40).starts == ((2, 2), (37, 2), (37, 37), (2, 37))
    edge = ((0, 0), (12, 0), (12, 12), (0, 12))
    assert make_config(starts=edge).starts == edge


def test_vnp_7_each_mode_says_who_plays_a_colour_and_whose_score_it_adds_to() -> None:
    """VNP-7: colours in order jaune, bleu, rouge, vert; bleu and vert are side (or seat) 0."""
    four, two, teams = (make_config(mode=m) for m in ("four", "two", "teams"))
    assert (four.seats, four.sides, two.seats, two.sides, teams.seats, teams.sides) == (
        4, 4, 2, 2, 4, 2,
    )  # fmt: skip
    colours = range(4)
    assert [four.seat_of(c) for c in colours] == [four.side_of(c) for c in colours] == [0, 1, 2, 3]
    assert [two.seat_of(c) for c in colours] == [two.side_of(c) for c in colours] == [1, 0, 1, 0]
    assert [teams.seat_of(c) for c in colours] == [0, 1, 2, 3]
    assert [teams.side_of(c) for c in colours] == [1, 0, 1, 0]


def test_a_config_round_trips_and_one_saved_without_its_settings_is_the_books() -> None:
    starts = ((1, 1), (7, 1), (7, 7), (1, 7))
    cfg = make_config(size=9, starts=starts, crossing="strict", mode="teams")
    assert Config.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    assert Config.from_json({"game": "vnp"}) == make_config() == Config()
    # starts given as lists (a JSON file's) are the same intersections, kept as (x, y)
    as_lists = Config(starts=[[2, 2], [10, 2], [10, 10], [2, 10]])  # type: ignore[arg-type]
    assert as_lists == make_config() and hash(as_lists) == hash(make_config())
    assert make_config().size == 13 and make_config().mode == "four"
    assert make_config().crossing == "nexos"


@pytest.mark.parametrize(
    ("turn", "placed", "passed"),
    [
        (-1, ((),) * 4, (False,) * 4),
        (4, ((),) * 4, (False,) * 4),
        (0, ((),) * 3, (False,) * 4),
        (0, ((),) * 4, (False,) * 3),
        (0, ((), (-1,), (), ()), (False,) * 4),
        (0, ((), (), (10**6,), ()), (False,) * 4),
        (0, ((), (), (geometry(13).count,), ()), (False,) * 4),
        (0, ((), (), (), ("0",)), (False,) * 4),
        # a bool is no number here, a number no yes-or-no: never read as bleu, id 1, passed
        (True, ((),) * 4, (False,) * 4),
        (0, ((), (True,), (), ()), (False,) * 4),
        (0, ((),) * 4, (False, 1, False, False)),
        (0, ((),) * 4, (False, None, False, False)),
    ],
)
def test_a_position_no_game_reaches_is_bad_input(turn, placed, passed) -> None:
    """VNP-2: four colours, one to play, every placement an id of the board (a saved game
    read back is checked: -1 would name the last placement)."""
    with pytest.raises(BadInput, match="not a Vous ne passerez pas position"):
        State(make_config(), turn, placed, passed)


def test_a_position_at_the_edges_of_its_range_is_a_position() -> None:
    last = len(geometry(13).placements) - 1
    state = State(make_config(), 3, ((0,), (), (), (last,)), (False,) * 4)
    assert state.placed == ((0,), (), (), (last,)) and state.turn == 3
    assert geometry(13).count == last + 1
    # a position prints as its facts (a log or a bug report), the same read back
    assert repr(state) == repr(State.from_json(json.loads(json.dumps(state.to_json()))))
    assert "Board" not in repr(state)


def test_vnp_6_the_public_view_says_who_plays_until_the_end_then_nobody() -> None:
    """VNP-2, VNP-7: the colour to play and its seat; VNP-6: once over, none, and the
    scores. What a screen receives is the view's JSON."""
    state = position(make_config(mode="two"), turn="rouge", passed=("jaune",))
    view = public_view(state)
    assert (view.turn, view.seat, view.over, view.game, view.size) == ("rouge", 1, False, "vnp", 13)
    assert view.left[2] == tuple(p.name for p in PIECES) and view.passed == (
        True,
        False,
        False,
        False,
    )
    sent = json.loads(json.dumps(view.to_json()))
    assert sent["turn"] == "rouge" and sent["seat"] == 1 and sent["starts"][1] == [10, 2]
    over = public_view(position(turn="vert", passed=tuple(map(str, COLOURS))))
    assert (over.turn, over.seat, over.over, over.winners) == (None, None, True, (0, 1, 2, 3))
    assert over.scores == (84,) * 4 and over.side_scores == (84,) * 4
