"""The virtual table over a real socket (`companion run --virtual`, docs/web.md): a paired
phone's hands touch only what its seat's hands could touch at a real table, as the
referee's state says (never the page): not another seat's turn, token or card, no spot
outside the table, no malformed move; a flood is slowed; each refusal is a sentence in
the table's language and journals nothing. Each phone gets its own seat's facts (its hand,
its secret card) and nobody else's; what a kit holds survives a restart."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import time
from typing import Any

import pytest

from companion import games
from companion.journal import PressInput, SpotInput, TickInput, read_journal
from companion.web.virtual import MOVES_AT_ONCE, STATE_FILE, VirtualTable, said

from .table import Client, LiveTable


def virtual_table(tmp_path, game: str, seats: int, seed: int, **rules: Any) -> LiveTable:
    """A virtual table of `game` (its `rules` over the simulated setup's), Ana first."""
    setup = games.get(game).simulated_setup(seats, seed, first=0)
    setup = dataclasses.replace(setup, settle=0.2, rules={**(setup.rules or {}), **rules})
    return LiveTable(tmp_path, setup, virtual=True)


@pytest.fixture
def pti(tmp_path):
    table = virtual_table(tmp_path, "ptipasspass", 3, 7, window_seconds=30.0)
    yield table
    table.close()


@pytest.fixture
def flip(tmp_path):
    table = virtual_table(tmp_path, "flipdone", 3, 7)
    yield table
    table.close()


def paired(table: LiveTable, seats: int, unhurried: bool = True) -> list[Client]:
    """A phone paired for each seat; `unhurried`: the hands' pace is not what is tested
    (`test_a_flood_is_slowed...` tests it), so a test may send many moves at once."""
    if unhurried:
        table.unhurried()
    clients = []
    for seat in range(seats):
        client = table.client()
        assert client.pair(table, seat).status == 200
        clients.append(client)
    return clients


def acts(table: LiveTable) -> list[Any]:
    """The journal's inputs but the clock's ticks."""
    table.settle()
    journal = read_journal(table.data_dir / "game.jsonl")
    return [r for r in journal.inputs if not isinstance(r, TickInput)]


def refusal(answer, status: int, key: str, lang: str = "fr", **fields: Any) -> None:
    assert answer.status == status, answer.body
    assert answer.json()["error"] == said(key, lang, **fields)


def until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not get there"
        time.sleep(0.05)


def test_a_seat_drops_its_own_token_where_and_when_the_rules_let_it(pti):
    ana, bob, cy = paired(pti, 3)
    magician = pti.session.referee.state.magician
    assert magician == 0  # PTI-13: the setup's first player
    assert ana.mine()["can"] == {"drop": True, "take": [], "slide": False}
    assert bob.mine()["can"]["drop"] is False

    # Bob's hands may not drop now (PTI-6: the Magicien's placement), nor slide hats (the
    # Magicien's, before a reveal), nor take a token no hat holds too many of.
    refusal(bob.move("drop", token="lapin", spot=3), 403, "turn")
    refusal(bob.move("slide", a=1, b=2), 403, "turn")
    refusal(bob.move("take", spot=3), 409, "empty")
    # No spot outside the table's hats (3 x 3 for three seats, PTI-2), the pad neither.
    for spot in (0, 10, -1, 99):
        refusal(ana.move("drop", token="lapin", spot=spot), 400, "spot", spot=spot, first=1, last=9)
    for spot in ("3", True, 2.5, None):
        refusal(ana.move("drop", token="lapin", spot=spot), 400, "number", name="spot")
    # Malformed: a token of no game, an unknown move, a key too many, no move at all.
    refusal(ana.move("drop", token="dragon", spot=3), 400, "token")
    refusal(ana.move("juggle"), 400, "move", move="'juggle'", moves="drop, take, slide")
    refusal(ana.move("drop", token="lapin", spot=3, seat=1), 400, "keys", keys="token, spot")
    assert ana.post("/api/virtual", {"moves": []}).status == 400
    assert acts(pti) == []  # nothing of it journaled

    # Ana drops her lapin and announces it in the same gesture (a press with its act).
    assert ana.move("drop", token="lapin", spot=3, announce="lapin").status == 200
    until(lambda: pti.session.referee.state.phase == "window")
    spot, press = acts(pti)
    assert isinstance(spot, SpotInput) and spot.spot == 3 and len(spot.uids) == 1
    assert press == PressInput(press.t, "announce", 0, "lapin")
    # Her hand is one token short; the token is hers (she sees where it lies), nobody
    # else's page knows what it is; the hat shows one more (public).
    mine = ana.mine()
    assert mine["hand"] == ["colombe", "souris"] and mine["holding"] == "lapin"
    assert mine["placed"] == [{"spot": 3, "token": "lapin"}]
    assert bob.mine()["placed"] == [] and bob.mine()["holding"] is None
    # A token in flight is where the table expects it: no one takes it out.
    refusal(bob.move("take", spot=3), 409, "empty")
    refusal(ana.move("take", spot=3), 409, "empty")
    # A second drop: not her move any more (the window is open).
    refusal(ana.move("drop", token="souris", spot=4), 403, "turn")


def test_every_refusal_is_said_in_the_tables_language(tmp_path):
    setup = games.get("ptipasspass").simulated_setup(3, 7, first=0)
    setup = dataclasses.replace(setup, language="en")
    table = LiveTable(tmp_path, setup, virtual=True)
    try:
        _, bob, _ = paired(table, 3)
        refusal(bob.move("drop", token="lapin", spot=3), 403, "turn", "en")
        twelve = bob.move("drop", token="lapin", spot=12)
        refusal(twelve, 400, "spot", "en", spot=12, first=1, last=9)
    finally:
        table.close()


def test_a_seat_plays_only_its_own_cards_at_its_own_turn(flip):
    ana, bob, cy = paired(flip, 3)
    phones = [ana, bob, cy]
    # Anyone deals (FD-2): nine cards down, the face-up one on the centre, four a hand.
    assert bob.move("deal", all=True).status == 200
    until(lambda: flip.session.referee.state.stage == "play")
    hands = [phone.mine()["hand"] for phone in phones]
    assert [len(h) for h in hands] == [4, 4, 4]
    assert len({card for hand in hands for card in hand}) == 12
    refusal(ana.move("deal"), 409, "not_now")
    turn = flip.session.referee.state.turn
    other = (turn + 1) % 3
    # Another seat's card, at one's own turn; one's own card at another's turn.
    refusal(phones[turn].move("build", card=hands[other][0], square=1), 403, "hand")
    refusal(phones[other].move("build", card=hands[other][0], square=1), 403, "turn")
    refusal(phones[other].move("flip", square=5), 403, "turn")
    refusal(phones[turn].move("build", card=hands[turn][0], square=10), 400, "spot",
            spot=10, first=1, last=9)  # fmt: skip
    refusal(phones[turn].move("take", spot=1), 409, "empty")
    before = len(acts(flip))
    # At its turn, its own card on a face-down card: a build (FD-3).
    card = hands[turn][0]
    assert phones[turn].move("build", card=card, square=1).status == 200
    until(lambda: flip.session.referee.state.turn != turn)
    assert card not in phones[turn].mine()["hand"]
    assert flip.session.referee.state.faces[0] == card
    assert len(acts(flip)) == before + 1


def test_each_phone_gets_its_own_seats_facts_and_no_one_elses(flip):
    phones = paired(flip, 3)
    watcher = flip.client()
    assert phones[0].move("deal", all=True).status == 200
    until(lambda: flip.session.referee.state.stage == "play")
    hands = [phone.mine()["hand"] for phone in phones]
    for seat, phone in enumerate(phones):
        state = phone.get("/api/state")
        assert state.json()["mine"]["hand"] == hands[seat]
        others = {card for s, hand in enumerate(hands) if s != seat for card in hand}
        assert not any(f'"{card}"' in state.body.decode() for card in others)
    shared = watcher.get("/api/state")
    assert "mine" not in shared.json()
    assert not any(f'"{card}"' in shared.body.decode() for hand in hands for card in hand)
    # The live stream as well: Bob's carries his hand, never another's.
    stream = phones[1].stream_first_event()
    assert json.loads(stream)["mine"]["hand"] == hands[1]
    assert not any(f'"{card}"' in stream for s in (0, 2) for card in hands[s])


def test_a_flood_is_slowed_and_the_others_play_on(pti):
    ana, bob, _ = paired(pti, 3, unhurried=False)
    statuses = []
    for _ in range(40):
        statuses.append(bob.move("take", spot=3).status)
    assert statuses.count(429) >= 40 - MOVES_AT_ONCE - 8, statuses
    slowed = bob.move("take", spot=3)
    if slowed.status == 429:
        assert int(slowed.headers["Retry-After"]) >= 1
        assert "Une main à la fois" in slowed.json()["error"]
    # Another seat is not slowed by it.
    assert ana.move("drop", token="colombe", spot=1).status == 200


def test_a_real_tables_page_takes_no_move(tmp_path):
    table = LiveTable(tmp_path, games.get("ptipasspass").simulated_setup(3, 7))
    try:
        ana = table.client()
        assert ana.pair(table, 0).status == 200
        refusal(ana.move("drop", token="lapin", spot=3), 409, "off")
        assert "mine" not in ana.get("/api/state").json()
        assert acts(table) == []
    finally:
        table.close()


def test_unpaired_or_forged_moves_are_refused(pti):
    stranger = pti.client()
    assert stranger.move("drop", token="lapin", spot=3).status == 401
    ana = pti.client()
    assert ana.pair(pti, 0).status == 200
    ana.csrf = "forged"
    assert ana.move("drop", token="lapin", spot=3).status == 403
    assert acts(pti) == []


def test_what_a_kit_holds_survives_a_restart_of_the_same_game_only(flip):
    phones = paired(flip, 3)
    assert phones[2].move("deal", all=True).status == 200
    until(lambda: flip.session.referee.state.stage == "play")
    hands = [phone.mine()["hand"] for phone in phones]
    path = flip.data_dir / STATE_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # it holds every hand
    game = games.get("flipdone")
    referee = flip.session.referee
    again = VirtualTable(game, referee, flip.data_dir, flip.web.virtual.key)
    assert [again.kit.seat_view(referee, s)["hand"] for s in range(3)] == hands
    other = VirtualTable(game, referee, flip.data_dir, "another game")
    assert [other.kit.seat_view(referee, s)["hand"] for s in range(3)] == [[], [], []]


HOSTILE = [
    {"move": "drop", "token": ["lapin"], "spot": 1},
    {"move": "drop", "token": {"a": 1}, "spot": 1},
    {"move": "drop", "token": "lapin", "spot": "1"},
    {"move": "drop", "token": "lapin", "spot": True},
    {"move": "drop", "token": "lapin", "spot": 10**30},
    {"move": "drop", "token": "lapin", "spot": -1.5},
    {"move": "build", "card": None, "square": 1},
    {"move": "build", "card": ["QH"], "square": 4},
    {"move": "flip", "square": None},
    {"move": "take", "spot": [1]},
    {"move": "slide", "a": 1, "b": 1},
    {"move": "swap", "a": 1},
    {"move": "deal", "all": "yes"},
    {"move": "gather", "extra": 1},
    {"move": 7},
    {"move": None},
    {"move": "x" * 5000},
    {},
]
"""Moves no page of ours sends: each game's kit refuses them, whatever their shape."""


@pytest.mark.parametrize("game, seats", [("ptipasspass", 3), ("flipdone", 3), ("swiped", 2)])
def test_no_move_a_phone_sends_makes_the_table_raise(tmp_path, game, seats):
    """Over a real socket, every hostile move is refused with a sentence (4xx, never 500),
    nothing is journaled, and the table plays on."""
    table = virtual_table(tmp_path, game, seats, 3)
    try:
        phone = paired(table, seats)[0]
        for move in HOSTILE:
            answer = phone.post("/api/virtual", {"move": move})
            assert 400 <= answer.status < 500, (move, answer.status, answer.body)
            assert answer.json()["error"]
        assert acts(table) == []
        assert phone.get("/api/state").status == 200 and not table.session.referee.finished
    finally:
        table.close()


def test_a_paired_phones_stream_carries_its_own_facts_at_every_change(flip):
    """The live stream sends watchers public deltas (the same to all); a paired phone of
    the virtual table is sent the whole state each time instead, with its own `mine`:
    after a deal its stream brings the hand just dealt."""
    import http.client

    ana, bob, _ = paired(flip, 3)
    connection = http.client.HTTPConnection(flip.host, flip.port, timeout=10)
    cookies = "; ".join(f"{k}={v}" for k, v in bob.cookies.items())
    connection.request("GET", "/api/live", headers={"Cookie": cookies})
    response = connection.getresponse()
    events: list[tuple[str, dict[str, Any]]] = []
    kind = ""
    try:
        for raw in response:
            line = raw.decode().strip()
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind, json.loads(line.removeprefix("data: "))))
                if len(events) == 1:
                    assert ana.move("deal", all=True).status == 200
                elif events[-1][1].get("mine", {}).get("hand"):
                    break
    finally:
        connection.close()
    assert {k for k, _ in events} == {"state"}  # never a delta to this phone
    hand = events[-1][1]["mine"]["hand"]
    assert len(hand) == 4 and hand == bob.mine()["hand"]


def test_phipasspass_is_played_with_the_same_hands(tmp_path):
    """PhiPassPass on the virtual table (PHI-2, PHI-3): Ana's drop designates hat 2; in
    window 1 Bob may call only Doublon; his Doublon on an empty hat fails, so her token
    goes to his hand once she takes it back out of the hat."""
    table = virtual_table(tmp_path, "phipasspass", 3, 5)
    try:
        ana, bob, _ = paired(table, 3)
        referee: Any = table.session.referee
        assert ana.mine()["hand"] == ["bleu", "orange", "vert"]
        assert ana.move("drop", token="bleu", spot=2).status == 200
        until(lambda: str(referee.state.phase) == "window")
        assert bob.act("menteur").status == 409  # window 1: Doublon only (PHI-2)
        assert bob.act("doublon").status == 200
        until(lambda: referee.verdict is not None)
        assert not referee.verdict.success
        # The token comes back out of the hat (the page's view, read once the table's step
        # is over: the verdict is seen from this thread before the step ends).
        until(lambda: ana.mine()["can"]["take"] == [2])
        assert ana.move("take", spot=2).status == 200
        until(lambda: not referee.pending and "bleu" in bob.mine()["hand"])
        assert sorted(bob.mine()["hand"]) == ["bleu", "bleu", "orange", "vert"]
        assert sorted(ana.mine()["hand"]) == ["orange", "vert"]
    finally:
        table.close()
