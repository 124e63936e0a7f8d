"""What every game shows the table: the replay document's shape, and no hidden fact.

No-peek: each simulated game is replayed twice through the production path of the OLED,
the voice and the page (the referee's screen drawn by the renderer, its status lines, the
transcript, what the table says aloud, and `Publisher`, as the referee loop runs it):
once as played, once with two tokens of one kind (two animals, two cards) exchanged in
the tags, so every physical act is the same but what lies under a hat, in a hand or face
down differs. As long as the game's public events are the same, every public output must
be: the OLED's frames in both languages, the status and transcript lines, the spoken
announcements, the page's snapshots (the game's own table among them, its `page_view`,
which the replay draws too). They part only
when the game itself shows an exchanged token (a verdict, a reveal, a claim), which its
events then say. A game whose engine hides nothing (`Engine.hidden` empty) has nothing
to exchange.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from companion.games import Game, TableReferee
from companion.journal import Setup, SpotInput
from companion.screens.render import frame
from companion.speech import announcement
from companion.transcript import describe
from companion.web.public import Publisher
from tests.games import contract_games, descriptor, playing

LANGUAGES = ("fr", "en")
STEPS = 200
"""Steps of play compared per game, at least (PassPass shows a token early: many short
comparisons; Flip Done late: a few long ones)."""
SEEDS = range(60)
"""At most this many simulated games per game, each with its own pair exchanged."""


def hides_something(game: Game) -> bool:
    return game.engine is None or bool(game.engine.hidden)


def exchanged(setup: Setup, a: str, b: str) -> Setup:
    swap = {a: b, b: a}
    return dataclasses.replace(
        setup, tags={uid: swap.get(kind, kind) for uid, kind in setup.tags.items()}
    )


def pair(setup: Setup, read: set[str], seed: int) -> tuple[str, str] | None:
    """Two kinds of one family ("animal:", "layout:") to exchange, the families taken in
    turn by seed: one kind the table read in the game, and another of its family; None if
    no kind read has a sibling."""
    kinds = sorted(set(setup.tags.values()))
    families = sorted({family(k) for k in read if sum(family(o) == family(k) for o in kinds) > 1})
    if not families:
        return None
    chosen = families[seed % len(families)]
    first = [k for k in sorted(read) if family(k) == chosen]
    a = first[seed // len(families) % len(first)]
    others = [k for k in kinds if family(k) == chosen and k != a]
    return a, others[seed % len(others)]


def family(kind: str) -> str:
    return kind.split(":")[0]


def public(referee: TableReferee, seen: int) -> dict[str, Any]:
    """Every public output of the referee now but the page, by name, in both languages:
    the OLED, the status line, and the transcript lines and the spoken announcement of the
    events from `seen` on."""
    game, names = referee.setup.game, referee.names
    outputs: dict[str, Any] = {}
    for lang in LANGUAGES:
        outputs[f"OLED ({lang})"] = frame(referee.screen, lang).tobytes()
        outputs[f"status line ({lang})"] = referee.where(lang)
        outputs[f"transcript ({lang})"] = [
            describe(e, names, game, lang) for e in referee.events[seen:]
        ]
        outputs[f"speech ({lang})"] = announcement(
            referee.events[seen:], referee.screen, names, game, lang
        )
    return outputs


def compare(game: Game, setup: Setup, a: str, b: str) -> tuple[int, bool]:
    """Feed the game's inputs to both twins: how many steps had every public output
    compared, and whether the twins' events parted (the game showed a token)."""
    inputs = game.simulate(setup).inputs
    twins = [game.referee(s) for s in (setup, exchanged(setup, a, b))]
    publishers = [Publisher(r) for r in twins]
    compared = 0
    for record in inputs:
        seen = len(twins[0].events)
        for twin in twins:
            twin.feed(record)
        if twins[0].events != twins[1].events:
            return compared, True
        where = f"{setup.game}, seed {setup.seed}, {a} and {b} exchanged, after {record}"
        one, two = (p.snapshot() for p in publishers)
        assert (one is None) == (two is None), f"{where}: one page changed, not the other"
        if one is not None and two is not None:
            # The table the game's page view draws (its `page_view`), then the rest.
            assert (one.view["board"] is None) == (game.page_view is None), where
            assert one.view["board"] == two.view["board"], f"{where}: the page's table differs"
            assert one.view == two.view, f"{where}: the page differs"
            assert one.frame.tobytes() == two.frame.tobytes(), f"{where}: the page's OLED"
        mine, theirs = public(twins[0], seen), public(twins[1], seen)
        for output, shown in mine.items():
            assert shown == theirs[output], f"{where}: the {output} differs"
        compared += 1
    return compared, False


HIDING = tuple(name for name in contract_games() if hides_something(descriptor(name)))
"""The games with a hidden fact (a game without an engine is taken to have one)."""


def test_the_games_that_hide_nothing_say_so_in_their_engine() -> None:
    assert HIDING  # PassPass's hats, Flip Done's hands, Swiped's targets...
    for name in set(contract_games()) - set(HIDING):
        engine = descriptor(name).engine
        assert engine is not None and engine.hidden == frozenset(), name


@pytest.mark.parametrize("name", HIDING)
def test_no_public_output_depends_on_a_hidden_token(name: str) -> None:
    with playing(name) as game:
        compared, parted = 0, 0
        for seed in SEEDS:
            seats = list(game.seats)[seed % len(game.seats)]
            setup = game.simulated_setup(seats, seed)
            read = {
                setup.tags[uid]
                for record in game.simulate(setup).inputs
                if isinstance(record, SpotInput)
                for uid in record.uids
                if uid in setup.tags
            }
            kinds = pair(setup, read, seed)
            assert kinds is not None, f"{name} hides something, yet no token can be exchanged"
            steps, shown = compare(game, setup, *kinds)
            compared += steps
            parted += shown
            if compared >= STEPS and parted:
                break
    assert compared >= STEPS, f"{name}: only {compared} steps compared in {len(SEEDS)} games"
    assert parted, f"{name}: no exchanged token was ever shown, so none was in play"


@pytest.mark.parametrize("name", contract_games())
def test_the_result_is_the_replay_document(name: str) -> None:
    """`result()` is {game, events, scores, winner}: every event so far, one score per
    seat, the winning seat or None; JSON as it is, from the first input to the end."""
    game = descriptor(name)
    for seats in game.seats:
        setup = game.simulated_setup(seats, seats)
        referee = game.referee(setup)
        events: list[dict[str, Any]] = []
        shape(referee.result(), setup, events)
        for record in game.simulate(setup).inputs:
            events += referee.feed(record)
        result = referee.result()
        shape(result, setup, events)
        assert referee.finished, f"{name}: a whole simulated game of {seats} is finished"


def shape(result: dict[str, Any], setup: Setup, events: list[dict[str, Any]]) -> None:
    where = f"{setup.game}, {len(setup.seats)} seats"
    assert set(result) >= {"game", "events", "scores", "winner"}, where
    assert result["game"] == setup.game, where
    assert result["events"] == events, f"{where}: the document holds every event"
    assert len(result["scores"]) == len(setup.seats), f"{where}: one score per seat"
    winner = result["winner"]
    assert winner is None or winner in range(len(setup.seats)), where
    assert not isinstance(winner, bool), where
    assert json.loads(json.dumps(result)) == result, f"{where}: not JSON as it is"
