"""The page's snapshot keeps the latest history lines only, and counts them all: a long
game's page costs the service no more memory than a short one. What changed between two
snapshots (`diff`) makes the new one of the old (`patch`, as the page's script does)."""

from __future__ import annotations

import copy
import json
import queue

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import games
from companion.transcript import describe
from companion.web import public, server
from companion.web.pairing import Pairings
from companion.web.replay import Journals
from companion.web.server import Hub


def test_the_history_keeps_its_last_lines_and_counts_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(public, "HISTORY_LINES", 5)
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 7)
    played = game.simulate(setup)
    referee = game.referee(setup)
    publisher = public.Publisher(referee)
    for record in played.inputs:
        referee.feed(record)
        publisher.snapshot()
    lines = [describe(e, referee.names, setup.game, setup.language) for e in referee.events]
    every = [line for line in lines if line is not None]
    assert len(every) > 5
    assert list(publisher.history) == every[-5:]
    assert publisher.history_total == len(every)


# ------------------------------------------------------------------ what changed

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers().filter(lambda n: n not in (0, 1))  # 1 == True: a view never swaps them
    | st.text(max_size=3)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=2), inner, max_size=4)
    ),  # fmt: skip
    max_leaves=25,
)
VIEWS = st.dictionaries(st.text(max_size=2), VALUES, max_size=5)


@given(VIEWS, VIEWS)
def test_a_patch_of_the_diff_makes_the_new_view_and_leaves_the_old_one(old, new) -> None:
    before = copy.deepcopy(old)
    assert public.patch(old, public.diff(old, new)) == new
    assert old == before


@given(VIEWS, st.data())
def test_a_view_changed_in_a_few_places_is_patched_back(old, data) -> None:
    """From a view to the same one with a few values changed, added, removed or slid."""
    new = copy.deepcopy(old)
    for key in data.draw(st.lists(st.sampled_from(sorted(new) or ["k"]), max_size=3)):
        value = new.get(key)
        if isinstance(value, list) and value:
            new[key] = value[data.draw(st.integers(0, len(value))) :] + data.draw(
                st.lists(VALUES, max_size=3)
            )
        elif key in new and data.draw(st.booleans()):
            del new[key]
        else:
            new[key] = data.draw(VALUES)
    assert public.patch(old, public.diff(old, new)) == new


def test_what_changed_is_sent_not_the_whole_view() -> None:
    """A history that slid by a line, a score, a board's list that grew: each an op the
    size of what changed."""
    lines = [f"line {i}" for i in range(200)]
    old = {"history": lines, "scores": [3, 5, 8], "board": {"placed": [[1, 2], [], [7]]}}
    new = {"history": [*lines[1:], "line 200"], "scores": [3, 6, 8],
           "board": {"placed": [[1, 2], [9], [7]]}}  # fmt: skip
    assert public.diff(old, new) == [
        {"p": ["history"], "d": 1, "a": ["line 200"]},
        {"p": ["scores", 1], "v": 6},
        {"p": ["board", "placed", 1], "v": [9]},
    ]
    assert public.diff(new, new) == []
    assert public.diff({"a": 1, "b": 2}, {"a": 1}) == [{"p": ["b"], "x": 1}]
    replaced = [{"p": ["a"], "v": [5, 6, 7, 8]}]
    assert public.diff({"a": [1, 2, 3, 4]}, {"a": [5, 6, 7, 8]}) == replaced


# ------------------------------------------------------------- what a stream is sent


def test_a_stream_is_sent_the_changes_while_kept_and_its_you_holds_else_the_whole_state(
    tmp_path,
) -> None:
    """The hub as a live stream asks it (`stream_bytes`): the delta from the version it
    has; several when it fell behind; the whole state when it fell behind more than the
    changes kept, when it has none yet, or when who it is changed (unpaired: `you` null)."""
    game = games.get("ptipasspass")
    setup = game.simulated_setup(4, 7)
    referee = game.referee(setup)
    publisher = public.Publisher(referee)
    pairings = Pairings(referee.names, tmp_path / "pairings.json")
    hub = Hub(game, referee.names, queue.Queue(), pairings, Journals(tmp_path))
    inputs = iter(game.simulate(setup).inputs)

    def change() -> None:
        """Feed inputs until the snapshot changes; publish it (no web loop: the hub is
        told at once, as its loop would be)."""
        for record in inputs:
            referee.feed(record)
            snapshot = publisher.snapshot()
            if snapshot is not None:
                hub.publish(snapshot)
                hub._notify()
                return

    def follow(state: dict, sent: bytes) -> dict:
        """A page's state after `sent` (a whole state, or deltas applied)."""
        for event in sent.decode().split("\n\n")[:-1]:
            kind, data = event.split("\n", 1)
            body = json.loads(data.removeprefix("data: "))
            if kind == "event: state":
                state = body
            else:
                assert kind == "event: delta" and body["from"] == state["version"]
                state = {**public.patch(state, body["ops"]), "version": body["version"]}
        return state

    change()
    token = pairings.pair(pairings.code, 2).token
    first, version, you = hub.stream_bytes(token, -1, None)
    assert first.startswith(b"event: state") and you is not None
    state = follow({}, first)
    assert state["you"]["seat"] == 2
    for behind in (1, 3, server.DELTAS_KEPT):
        for _ in range(behind):
            change()
        sent, now, same = hub.stream_bytes(token, version, you)
        assert same == you and now == hub.version
        assert sent.count(b"event: delta") == behind and b"event: state" not in sent
        state = follow(state, sent)
        assert state == json.loads(hub.state_bytes(token))  # the same as asked whole
        version = now
    hub._notify()  # the version names a content: told again, it does not move
    assert hub.version == version
    other = pairings.pair(pairings.code, 0).token  # another phone paired: the seats open
    sent, now, _ = hub.stream_bytes(token, version, you)
    assert now == version + 1 and sent.count(b"event: delta") == 1
    state, version = follow(state, sent), now
    assert state["pairing"]["open_seats"] == [1, 3]
    pairings.forget(other)
    for _ in range(server.DELTAS_KEPT + 1):
        change()
    sent, version, _ = hub.stream_bytes(token, version, you)
    assert sent.startswith(b"event: state") and sent.count(b"event: ") == 1
    state = follow(state, sent)
    pairings.forget(token)  # unpaired: its next event is whole, with `you` null
    change()
    sent, version, you = hub.stream_bytes(token, version, you)
    assert sent.startswith(b"event: state") and you is None
    assert follow(state, sent)["you"] is None
