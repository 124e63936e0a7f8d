"""Vous ne passerez pas ! scenario journals replayed through the referee, as the table's web
page feeds it.

The scenarios are in tests/games/vnp/referee/scenarios/ (written by
`python -m tests.make_fixtures scenarios`); each test
names what VNP-1..VNP-7 and docs/table.md say must come out of it. What is expected is
worked out from the rules and from what the players did (the builder's record of the
game), never copied from the referee's output.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.vnp.page import segments_of
from companion.games.vnp.referee import VnpReferee
from companion.games.vnp.rules import (
    ALL_PLACED_BONUS,
    COLOURS,
    PIECES,
    Pass,
    Passed,
    Place,
    Placed,
    geometry,
    is_over,
    legal_placements,
    new_game,
)
from companion.games.vnp.screens import VnpBoardScreen, VnpGameOverScreen, VnpNoticeScreen
from companion.games.vnp.words import VnpRefusal
from companion.journal import Input, PressInput, Setup, TickInput, read_journal
from companion.referee.pace import NOTICE_SECONDS, SetupError
from tests.games.vnp.referee.scenario_scripts import SCENARIOS, TEAMS_SIZE
from tests.games.vnp.referee.script import FOUR, TWO, VnpScript

HERE = Path(__file__).parent / "scenarios"


def walk(name: str) -> Iterator[tuple[Input, VnpReferee, list[dict[str, Any]]]]:
    """Each input of a scenario, the referee once it is fed, and the events it caused."""
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = VnpReferee(journal.setup)
    for record in journal.inputs:
        events = referee.feed(record)
        yield record, referee, events


def replay(name: str) -> VnpReferee:
    journal = read_journal(HERE / f"{name}.jsonl")
    referee = VnpReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
    return referee


def story(referee: VnpReferee, *kinds: str) -> list[dict[str, Any]]:
    """The events of the given kinds, without their time."""
    return [{k: v for k, v in e.items() if k != "t"} for e in referee.events if e["kind"] in kinds]


def ignored(referee: VnpReferee) -> list[tuple[str, int | None, str, str | None]]:
    return [
        (e["control"], e["seat"], e["reason"], e.get("ruling")) for e in story(referee, "ignored")
    ]


def book_scores(script: VnpScript) -> list[int]:
    """VNP-6 by the book, from what the players placed: per colour, the segments of its
    pieces not placed, or -10 when it placed them all."""
    g = geometry(script.track.config.size)
    scores = []
    for colour in COLOURS:
        used = {g.piece_of[a.placement] for a in script.acts
                if isinstance(a, Place) and a.colour == colour}  # fmt: skip
        left = [p.size for p in PIECES if p.index not in used]
        scores.append(sum(left) if left else ALL_PLACED_BONUS)
    return scores


# ------------------------------------------------------------------------ every scenario


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_files_are_the_ones_the_builder_writes(name: str) -> None:
    """Read back, each file is the builder's game: its setup and inputs. (The files keep
    the old setup line, with `window` and `doublon_min` at top level, which a VNP journal
    ignores: they are old journals that must still replay.)"""
    written, built = read_journal(HERE / f"{name}.jsonl"), SCENARIOS[name]()
    assert (written.setup, written.inputs) == (built.setup, built.inputs)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_referee_reaches_the_game_the_players_made(name: str) -> None:
    """The placements and passes that stand (one taken back is gone) are the players'."""
    script = SCENARIOS[name]()
    referee = replay(name)
    assert referee.state == script.track
    made = [
        ("place", str(e.colour), e.placement) if isinstance(e, Placed) else ("pass", str(e.colour))
        for e in referee.log
        if isinstance(e, Placed | Passed)
    ]
    acts = [
        ("place", str(a.colour), a.placement) if isinstance(a, Place) else ("pass", str(a.colour))
        for a in script.acts
    ]
    assert made == acts
    placed = story(referee, "placed")
    assert len(placed) == sum(isinstance(a, Place) for a in script.acts) + len(
        story(referee, "undo")
    )  # each placement taken back was made first
    assert referee.finished == is_over(script.track)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_press_is_answered_never_dropped(name: str) -> None:
    """docs/table.md: a press either counts or is shown as refused, at once."""
    for record, referee, events in walk(name):
        if isinstance(record, PressInput):
            assert events, record
            assert all(e["t"] == record.t for e in events)
            if any(e["kind"] == "ignored" for e in events):
                assert isinstance(referee.screen, VnpNoticeScreen)


# ------------------------------------------------------------------------ whole games


def test_a_two_player_game_to_the_end_scores_by_the_book() -> None:
    """VNP-7: with two seats, Ana (seat 0) plays bleu and vert, Bob jaune and rouge, each
    adding their colours' scores; VNP-6: the lowest wins; VNP-5: each colour passes once it
    can place nothing (a hint then says so)."""
    script = SCENARIOS["two_players"]()
    referee = replay("two_players")
    scores = book_scores(script)
    jaune, bleu, rouge, vert = scores
    sides = [bleu + vert, jaune + rouge]
    (over,) = story(referee, "game_over")
    assert over["scores"] == scores
    assert over["side_scores"] == sides and over["sides"] == list(TWO)
    assert over["winners"] == [sides.index(min(sides))]
    result = referee.result()
    assert result["scores"] == sides and result["winner"] == sides.index(min(sides))
    passes = story(referee, "passed")
    assert sorted(p["colour"] for p in passes) == sorted(COLOURS)
    assert [p["seat"] for p in passes] == [0 if p["colour"] in ("bleu", "vert") else 1
                                           for p in passes]  # fmt: skip
    hints = story(referee, "hint")
    assert len(hints) == 4 and all(h["piece"] is None and h["segments"] == [] for h in hints)
    assert ignored(referee)[-3:] == [
        ("place", 0, "not_now", None),  # VNP-6: the game is over
        ("hint", 1, "not_now", None),
        ("back", 0, "public_fact", None),  # the end is final
    ]
    assert isinstance(referee.screen, VnpNoticeScreen)  # the last refusal, for a moment
    referee.feed(TickInput(referee.now + NOTICE_SECONDS))
    assert isinstance(referee.screen, VnpGameOverScreen)
    winner = TWO[sides.index(min(sides))]
    assert referee.where().startswith(f"game over: {winner} wins")
    assert f"Ana {sides[0]}, Bob {sides[1]}" in referee.where()


def test_a_team_game_to_the_end_with_the_all_placed_bonus() -> None:
    """VNP-7 teams: bleu + vert against jaune + rouge; VNP-6: vert placed all its 24
    pieces, so it scores -10 (and an all_placed event says so)."""
    script = SCENARIOS["teams_bonus"]()
    referee = replay("teams_bonus")
    assert referee.config.size == TEAMS_SIZE
    scores = book_scores(script)
    assert scores[COLOURS.index("vert")] == -10 and min(scores[:3]) > 0
    jaune, bleu, rouge, vert = scores
    sides = [bleu + vert, jaune + rouge]
    (over,) = story(referee, "game_over")
    assert over["scores"] == scores and over["side_scores"] == sides
    assert over["sides"] == ["bleu + vert", "jaune + rouge"]
    assert story(referee, "all_placed") == [{"kind": "all_placed", "colour": "vert", "seat": 3}]
    assert story(referee, "placed")[-1]["colour"] == "vert"  # the game ended on it
    assert ignored(referee) == [("back", 3, "public_fact", None)]  # VNP-6: the end is final
    result = referee.result()
    assert result["scores"] == [sides[1], sides[0], sides[1], sides[0]]  # each seat's team
    assert result["winner"] is None and result["winners"] == [sides.index(min(sides))]
    view = referee.board_view()
    assert view["scores"] == scores and view["side_scores"] == sides and view["over"]
    assert view["legal"] == [] and view["turn"] is None and view["left"][3] == []


# ------------------------------------------------------------------------------ refusals


def test_every_press_that_cannot_count_is_refused_with_its_reason() -> None:
    referee = replay("refusals")
    assert ignored(referee) == [
        ("announce", None, "not_now", None),  # a control VNP does not use
        ("place", 7, "not_seated", None),
        ("place", None, "not_seated", None),
        ("place", 0, "bad_value", None),  # not an object
        ("place", 0, "bad_value", None),  # no such colour
        ("place", 0, "bad_value", None),  # no placement -1
        ("place", 0, "bad_value", None),  # true is no placement
        ("place", 0, "bad_value", None),  # no placement at all
        ("place", 0, "not_your_colour", None),  # VNP-7: Ana plays jaune only
        ("place", 1, "not_your_turn", None),  # VNP-2: jaune first
        ("pass", 0, "may_not_pass", "VNP-5"),
        ("place", 0, "illegal_placement", "VNP-3"),
        ("place", 0, "repeated", None),  # the double tap
        ("place", 2, "not_your_turn", None),  # Cy just before Bob
        ("place", 3, "not_your_turn", None),  # Dan with Bob
        ("place", 0, "illegal_placement", "VNP-1"),
        ("place", 0, "illegal_placement", "VNP-4"),
        ("place", 0, "illegal_placement", "VNP-4"),
        ("place", 0, "illegal_placement", "VNP-4"),
    ]
    whys = [e["why"] for e in story(referee, "ignored") if "why" in e]
    assert whys == [
        "jaune may not pass: it can place a piece",
        "jaune's first piece must touch its start intersection",
        "jaune already placed piece 4a",
        "pieces never cross: both would go straight through",
        "pieces never share a unit segment",
        "the piece must share an intersection with a jaune piece",
    ]
    assert [e["piece"] for e in story(referee, "placed")] == ["4a", "4a", "4a", "4a", "2b"]


def test_a_rule_refusal_shows_its_ruling_on_the_oled_for_the_notice_seconds() -> None:
    """The OLED shows the refused placement's ruling and sentence for NOTICE_SECONDS (3 s:
    long enough to read, gone before the next turn's press), then the board again."""
    journal = read_journal(HERE / "refusals.jsonl")
    referee = VnpReferee(journal.setup)
    for record in journal.inputs:
        referee.feed(record)
        if referee.events[-1].get("ruling") == "VNP-3":
            break
    t = referee.now
    screen = referee.screen
    assert isinstance(screen, VnpNoticeScreen)
    assert (screen.notice.reason, screen.notice.seat, screen.ruling) == (
        VnpRefusal.ILLEGAL_PLACEMENT, 0, "VNP-3",
    )  # fmt: skip
    assert screen.why == "jaune's first piece must touch its start intersection"
    referee.feed(TickInput(t + 2.99))
    assert isinstance(referee.screen, VnpNoticeScreen)
    referee.feed(TickInput(t + 3.0))
    assert isinstance(referee.screen, VnpBoardScreen)


def test_a_placement_that_counts_clears_the_refusal_on_the_oled() -> None:
    referee = VnpReferee(Setup("vnp", FOUR, {}))
    s = VnpScript()
    referee.feed(PressInput(1.0, "pass", 0, {"colour": "jaune"}))
    assert isinstance(referee.screen, VnpNoticeScreen)
    referee.feed(PressInput(1.5, "place", 0, {"colour": "jaune", "placement": s.pid("1a", 2, 2)}))
    screen = referee.screen
    assert isinstance(screen, VnpBoardScreen) and screen.last is not None
    assert (screen.last.colour, screen.last.piece) == ("jaune", "1a")


def test_feed_never_raises_whatever_the_value() -> None:
    referee = VnpReferee(Setup("vnp", TWO, {}))
    values: list[Any] = [
        None, 3, "x", [], {}, {"colour": None}, {"colour": 3}, {"colour": ["jaune"]},
        {"colour": "bleu", "placement": "7"}, {"colour": "bleu", "placement": 1.5},
        {"colour": "jaune", "placement": 10**12},
    ]  # fmt: skip
    t = 0.0
    for control in ("place", "pass", "hint", "back", "aim"):
        for seat in (None, 0, 1, 2, -1):
            for value in values:
                t += 0.1
                events = referee.feed(PressInput(round(t, 1), control, seat, value))
                assert events
    assert not referee.state.placed[0] and not any(referee.state.passed)


# ----------------------------------------------------------------------------- the hint


def test_the_hint_shows_the_largest_piece_of_lowest_id_until_the_next_action() -> None:
    referee = None
    seen = []
    for record, referee, events in walk("hint"):
        seen.append((record, referee.screen, referee.board_view()["hint"], events))
    assert referee is not None
    hints = story(referee, "hint")
    start, _ = new_game(referee.config, 0)
    ids = legal_placements(start, 0)
    piece_of = geometry(13).piece_of
    biggest = max(PIECES[piece_of[p]].size for p in ids)
    expected = min(p for p in ids if PIECES[piece_of[p]].size == biggest)
    assert hints[0]["colour"] == "jaune" and hints[0]["seat"] == 0
    assert hints[0]["placement"] == expected and hints[0]["piece"] == "4a"
    g = geometry(13)
    segments = [[*a, *b] for a, b in (g.segment(s) for s in g.placements[expected].segments)]
    assert hints[0]["segments"] == segments
    assert ignored(referee)[0] == ("hint", 1, "not_your_turn", None)  # Bob: not his turn
    # shown from Ana's press to her placement, whatever the time between
    asked, ticked, placed = seen[1], seen[2], seen[3]
    for _, screen, view_hint, _ in (asked, ticked):
        assert isinstance(screen, VnpBoardScreen) and screen.hint is not None
        assert screen.hint.placement == expected and view_hint["piece"] == "4a"
    assert isinstance(placed[1], VnpBoardScreen) and placed[1].hint is None and placed[2] is None
    # the console's hint names no seat; a refused pass covers it only for a moment
    assert hints[1]["colour"] == "bleu" and hints[1]["seat"] is None
    _, refused, view_hint, _ = seen[5]
    assert isinstance(refused, VnpNoticeScreen) and refused.ruling == "VNP-5"
    assert view_hint is not None and view_hint["colour"] == "bleu"
    _, later, _, _ = seen[6]
    assert isinstance(later, VnpBoardScreen) and later.hint is not None


# --------------------------------------------------------------------------------- undo


def test_back_takes_back_only_the_last_placement_while_nothing_answered_it() -> None:
    referee = replay("undo")
    assert [(r, s) for _, s, r, _ in ignored(referee)] == [
        ("nothing_to_undo", None),
        ("not_your_colour", 1),  # Bob cannot take back Ana's placement
        ("nothing_to_undo", 0),
        ("public_fact", 0),  # bleu acted after Ana's placement
    ]
    assert [(e["colour"], e["piece"], e["seat"]) for e in story(referee, "undo")] == [
        ("jaune", "4a", 0), ("bleu", "4a", 1), ("rouge", "4a", 2),
    ]  # fmt: skip
    assert [e["piece"] for e in story(referee, "placed")][-1] == "3a"
    assert referee.board_view()["last"]["piece"] == "3a"


def test_after_back_the_board_and_turn_are_as_before_the_placement() -> None:
    for _, referee, events in walk("undo"):
        if events and events[0]["kind"] == "undo" and events[0]["colour"] == "jaune":
            view = referee.board_view()
            assert view["placed"] == [[], [], [], []] and view["last"] is None
            assert (view["turn"], view["seat"]) == ("jaune", 0)
            assert isinstance(referee.screen, VnpBoardScreen)
            return
    raise AssertionError("no undo of jaune")


def test_undo_placement_false_refuses_back() -> None:
    referee = replay("undo_off")
    assert ignored(referee) == [("back", 0, "undo_off", None), ("back", None, "undo_off", None)]
    assert [len(p) for p in referee.state.placed] == [1, 0, 0, 0]


# -------------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    "seats,rules,words",
    [
        (("A", "B", "C"), None, "2 or 4 players"),
        (("A",), None, "2 or 4 players"),
        (("A", "B"), {"mode": "four"}, 'the mode `"four"` is for 4 players, not `2`'),
        (("A", "B", "C", "D"), {"mode": "two"}, 'the mode `"two"` is for 2 players, not `4`'),
        (FOUR, {"mode": "pairs"}, '`mode` is `"four"` or `"two"` or `"teams"`, not `"pairs"`'),
        (FOUR, {"size": 3}, "`size` is a whole number from 5 to 40, not `3`"),
        (FOUR, {"crossing": "never"}, "rules:"),
        (
            FOUR,
            {"starts": [[2, 2]]},
            "`starts` is 4 intersections .* on the 13 × 13 board .*, not `.*2, 2.*`",
        ),
        (FOUR, {"starts": "no"}, '`starts` is 4 intersections .* not `"no"`'),
        (FOUR, {"colours": 3}, "unknown setting `colours`; the settings of Vous ne passerez pas !"),
        (FOUR, {"undo_placement": "yes"}, '`undo_placement` is `true` or `false`, not `"yes"`'),
    ],
)
def test_a_setup_that_cannot_start_the_game_is_refused(
    seats: tuple[str, ...], rules: dict[str, Any] | None, words: str
) -> None:
    with pytest.raises(SetupError, match=words.replace("(", r"\(")):
        VnpReferee(Setup("vnp", seats, {}, rules=rules))


def test_the_seats_imply_the_mode_and_the_rules_set_the_rest() -> None:
    """VNP-7: 2 seats play mode two, 4 mode four unless the rules say teams; VNP-2: the
    starts follow the board's size unless set."""
    assert VnpReferee(Setup("vnp", TWO, {})).config.mode == "two"
    assert VnpReferee(Setup("vnp", FOUR, {})).config.mode == "four"
    teams = VnpReferee(Setup("vnp", FOUR, {}, rules={"mode": "teams", "size": 9}))
    assert teams.config.mode == "teams" and teams.config.starts == ((2, 2), (6, 2), (6, 6), (2, 6))
    view = teams.board_view()
    assert view["sides"] == ["bleu + vert", "jaune + rouge"]
    assert view["colour_seats"] == [0, 1, 2, 3]
    corners = [[0, 0], [12, 0], [12, 12], [0, 12]]
    two = VnpReferee(Setup("vnp", TWO, {}, rules={"crossing": "strict", "starts": corners}))
    assert two.board_view()["colour_seats"] == [1, 0, 1, 0] and two.config.crossing == "strict"
    assert two.board_view()["starts"] == corners


def test_the_board_view_is_the_page_s_document() -> None:
    referee = replay("refusals")
    view = referee.board_view()
    assert list(view) == [
        "size", "starts", "colours", "colour_seats", "mode", "sides", "turn", "seat", "placed",
        "left", "passed", "scores", "side_scores", "winners", "over", "legal", "last", "hint",
    ]  # fmt: skip
    assert view["colours"] == ["jaune", "bleu", "rouge", "vert"] and view["mode"] == "four"
    assert view["sides"] == list(FOUR) and (view["turn"], view["seat"]) == ("bleu", 1)
    # Placements by id (the page draws them from the size's placement table).
    g = geometry(13)
    piece = lambda pid: PIECES[g.piece_of[pid]].name  # noqa: E731
    assert [[piece(pid) for pid in ids] for ids in view["placed"]] == [["4a", "2b"], ["4a"],
                                                                      ["4a"], ["4a"]]  # fmt: skip
    assert segments_of(13, view["placed"][0][1]) == [[2, 4, 3, 4], [2, 4, 2, 5]]
    state = referee.state
    assert view["legal"] == list(legal_placements(state, 1))
    assert all(piece(pid) in view["left"][1] for pid in view["legal"])
    assert view["last"] == {"colour": "jaune", "piece": "2b", "placement": view["placed"][0][1]}
    assert view["scores"] == [84 - 6, 80, 80, 80] and view["winners"] == [] and not view["over"]
    assert view["hint"] is None and view["passed"] == [False] * 4


def test_the_book_order_and_a_pass_are_what_the_engine_decides() -> None:
    """The builder's record and the referee agree on a pass too (VNP-5)."""
    script = SCENARIOS["two_players"]()
    assert any(isinstance(a, Pass) for a in script.acts)
