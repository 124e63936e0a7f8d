"""Swiped in the designer's lab: seeded bot games played on the engine's board, and the
figures of a game, read from its events.

Game i of a variant: one random.Random from "seed:i" draws each seat's bot seed, then the
deal's seed, and asks the seats in turn; player 1 (SW-4) is seat i mod 2. `LAB.play`
plays it on the engine's board (rules/board.py) with the bots (bots.py), the board telling
the lab's `Tally` and the deducing bots' evidence what happens; `play_reference` plays it
as a table does (the engine's `apply`, the bots asked through a `Decider`) and reads its
events as a journal is read (`record_of`): both give the same record
(tests/games/swiped/lab/test_swiped.py).

The figures (`SECTIONS`, keys in `tally.py`): claims by kind and verdict, false claims and
what followed them (SW-5), how games ended, the manche of each win, swaps and repeated
pairs (SW-4), draws at the manche limit (SW-6), and the deducing bot's belief in its
opponent's card after each of the first reveals (bot games only). A turn is one of a
manche's six swaps, applied or skipped.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from companion.games.swiped import tally as keys
from companion.games.swiped.bots import (
    BOTS,
    CLAIM_CARD,
    CLAIM_MATCHES,
    PROGRAM_SWAP,
    SWAP,
    Bot,
    BotFactory,
    Decider,
    DeducingBot,
    evidence_of,
    make_bot,
)
from companion.games.swiped.deduce import Evidence
from companion.games.swiped.lab_words import WORDS, note
from companion.games.swiped.referee import MID_SWAP, RULE_KEYS, TABLE_KEYS
from companion.games.swiped.rules.actions import ClaimCard, ClaimMatches
from companion.games.swiped.rules.board import OVER, Board
from companion.games.swiped.rules.config import MAX_DECK, MIN_DECK, PLAYERS, Config, make_config
from companion.games.swiped.rules.deck import MAX_AGREEMENT
from companion.games.swiped.rules.engine import apply, is_over, new_game
from companion.games.swiped.rules.events import Event, ProgramsRevealed
from companion.games.swiped.tally import BELIEF_MANCHES, Tally
from companion.lab import checks
from companion.lab.model import (
    GameRecord,
    LabGame,
    Mean,
    PerSeat,
    Rate,
    Section,
    ThinkingTable,
    Variant,
)
from companion.lab.thinking import extend

GAME = "swiped"
SEED_RANGE = 2**31
MAX_ACTIONS = 100_000
"""A game this long is a bug (it raises)."""
FALSE_CLAIMS = ("loses", "refused")

RULINGS: dict[str, str] = {
    "SW-4": "a phase's second swap repeated the first: applied once",
    "SW-5": "a false claim (it loses the game, or is only refused)",
    "SW-6": "the manche limit was reached: a draw",
}
"""Each ruling's special case as `record_of` counts it: SW-4, a SwapSkipped; SW-5, a claim
judged false (false_claim = "loses": the game is lost; "refused": it goes on); SW-6, the
game drawn when its last allowed manche ends. SW-1..SW-3 have no special case to count."""

SECTIONS: tuple[Section, ...] = (
    Section(
        "Claims (SW-5)",
        (
            Mean("claims per game", keys.CLAIMS),
            Rate('"I know your card": right', keys.CARD_RIGHT, keys.CARD_CLAIMS),
            Rate('"5 matches": right', keys.MATCHES_RIGHT, keys.MATCHES_CLAIMS),
            Mean("false claims per game", keys.FALSE_CLAIMS),
            Rate("false claims that lost the game", keys.FALSE_LOST, keys.FALSE_CLAIMS),
            Rate("false claims only refused", keys.FALSE_REFUSED, keys.FALSE_CLAIMS),
            Rate("refused, the claimant won after all", keys.FALSE_THEN_WON, keys.FALSE_REFUSED),
            Rate("refused, the claimant lost", keys.FALSE_THEN_LOST, keys.FALSE_REFUSED),
            PerSeat('"I know your card" claims', keys.SEAT_CARD),
            PerSeat('"5 matches" claims', keys.SEAT_MATCHES),
            PerSeat("false claims", keys.SEAT_FALSE),
        ),
    ),
    Section(
        "How games ended",
        (
            Rate('won by "5 matches"', keys.END_MATCHES, keys.GAMES),
            Rate("won by naming the card", keys.END_CARD, keys.GAMES),
            Rate("lost by a false claim (SW-5)", keys.END_FALSE, keys.GAMES),
            Rate("drawn at the manche limit (SW-6)", keys.END_DRAW, keys.GAMES),
        ),
    ),
    Section(
        "Manche of the win (share of won games)",
        (
            Rate("manche 1", keys.WON_IN[0], keys.WON),
            Rate("manche 2", keys.WON_IN[1], keys.WON),
            Rate("manche 3", keys.WON_IN[2], keys.WON),
            Rate("manche 4 or later", keys.WON_IN[3], keys.WON),
        ),
    ),
    Section(
        "Swaps (SW-4)",
        (
            Mean("swaps applied per game", keys.SWAPS),
            Mean("repeated pairs applied once per game", keys.SKIPPED),
        ),
    ),
    Section(
        "Deducing bot: its opponent's card after each reveal (bot games only)",
        tuple(
            row
            for m in range(keys.BELIEF_MANCHES)
            for row in (
                Rate(
                    f"mean p(true card), manche {m + 1}", keys.BELIEF_TRUE[m], keys.BELIEF_SEEN[m]
                ),
                Rate(f"true card on top, manche {m + 1}", keys.BELIEF_TOP[m], keys.BELIEF_SEEN[m]),
            )
        ),
    ),
)


# ---------------------------------------------------------------------- the variant


def settings_of(variant: Variant, kinds: Sequence[str] = BOTS) -> Config:
    """The engine Config of a variant (player 1 is seat 0: `config_of` turns it), or a
    `Refusal` naming the bad setting (a bot not among `kinds` too; the thinking bot's
    `play` has checked its own)."""
    checks.seats(GAME, variant.players)
    checks.bots(variant, kinds or variant.bots)  # no kinds: any
    checks.rule_keys(variant, (*RULE_KEYS, *TABLE_KEYS))
    rules, book = variant.rules, Config()
    false_claim = checks.one_of(rules, "false_claim", FALSE_CLAIMS, str(book.false_claim))
    # Checked only: bots claim between swaps, never with a cube in the air, so "after"
    # and "before" play the same games.
    checks.one_of(rules, "claim_mid_swap", MID_SWAP, MID_SWAP[0])
    return make_config(
        deck_size=checks.whole(rules, "deck_size", book.deck_size, MIN_DECK, MAX_DECK),
        deck_seed=checks.whole(rules, "deck_seed", book.deck_seed),
        false_claim=false_claim,
        manche_limit=checks.whole(rules, "manche_limit", book.manche_limit, 1),
        claims_per_gap=checks.whole(rules, "claims_per_gap", book.claims_per_gap, 1),
        claim_before_first_swap=checks.true_or_false(
            rules, "claim_before_first_swap", book.claim_before_first_swap
        ),
    )


def check(variant: Variant) -> None:
    """`Refusal` (one sentence naming the setting) for a variant Swiped cannot play."""
    checks.game(variant, GAME)
    settings_of(variant)


def config_of(settings: Config, first: int) -> Config:
    """The variant's Config with seat `first` as player 1 (SW-4)."""
    return settings if settings.first == first else replace(settings, first=first)


_SETTINGS: dict[tuple[Any, ...], tuple[Config, Config]] = {}


def _cached_configs(variant: Variant) -> tuple[Config, Config]:
    """The variant's Config with seat 0, then seat 1, as player 1: once per variant (a
    worker plays thousands of games of each)."""
    try:
        key = (variant.players, variant.bots, tuple(sorted(variant.rules.items())))
        hash(key)
    except TypeError:
        config = settings_of(variant)
        return config, config_of(config, 1)
    found = _SETTINGS.get(key)
    if found is None:
        config = settings_of(variant)
        found = _SETTINGS[key] = (config, config_of(config, 1))
    return found


# ------------------------------------------------------------------------ playing


def _seats(variant: Variant, index: int) -> tuple[random.Random, list[random.Random]]:
    """Game `index`'s random (the deal's seed, then who is asked first) and each seat's."""
    rng = random.Random(f"{variant.seed}:{index}")
    return rng, [random.Random(rng.random()) for _ in range(PLAYERS)]


class EvidenceTally(Tally):
    """A lab game's watcher when a seat deduces (or thinks): its tally, and the public
    evidence the deducing bots read, fed as the board plays (SW-3: the programs shown;
    SW-5: each grid let pass unclaimed)."""

    __slots__ = ("evidence",)

    def __init__(self, first: int, evidence: Evidence) -> None:
        super().__init__(first)
        self.evidence = evidence

    def revealed(self, board: Board) -> None:
        assert board.revealed is not None
        self.evidence.reveal(board.grid, board.revealed)

    def swapped(self, board: Board, seat: int, phase: int, swap: int, left: int) -> None:
        self.evidence.passed(left)
        self.swap()


def play(variant: Variant, index: int) -> GameRecord:
    """Game `index` of the variant, on the engine's board."""
    return _play(variant, index, _cached_configs(variant)[index % 2], make_bot)


def play_with(variant: Variant, index: int, bot_of: BotFactory) -> GameRecord:
    """Game `index` of a variant whose seats `bot_of` seats (the thinking bot's, mcts.py,
    which has checked its kinds)."""
    return _play(variant, index, config_of(settings_of(variant, ()), index % 2), bot_of)


def _play(variant: Variant, index: int, config: Config, bot_of: BotFactory) -> GameRecord:
    """At each moment both seats are asked, in an order drawn from the game's random: a
    claim goes first (SW-5: between two swaps either player may speak), else the first
    action offered (a programmed swap, or the swap SW-4 says is next)."""
    rng, seat_rngs = _seats(variant, index)
    board = Board(config, rng.randrange(SEED_RANGE))
    evidence = evidence_of(board)
    deducing = any(kind != "random" for kind in variant.bots)
    tally = EvidenceTally(config.first, evidence) if deducing else Tally(config.first)
    board.watch = tally
    bots = [bot_of(variant.bots[s], s, board, evidence, seat_rngs[s]) for s in range(PLAYERS)]
    draw = rng.random
    for _ in range(MAX_ACTIONS):
        if board.phase is OVER:
            break
        asked = (0, 1) if draw() < 0.5 else (1, 0)
        one = bots[asked[0]].act(board)
        two = bots[asked[1]].act(board)
        if one is not None and one[0] >= CLAIM_MATCHES:
            seat, offer = asked[0], one
        elif two is not None and two[0] >= CLAIM_MATCHES:
            seat, offer = asked[1], two
        elif one is not None:
            seat, offer = asked[0], one
        elif two is not None:
            seat, offer = asked[1], two
        else:
            raise RuntimeError(f"no bot acts in manche {board.manche}")
        kind = offer[0]
        if kind == SWAP:
            board.play_next_swap()
        elif kind == PROGRAM_SWAP:
            if board.program(seat, offer[1]) and board.manche <= BELIEF_MANCHES:
                _beliefs(board.manche, board.targets, bots, tally)
        elif board.claim(seat, offer[1] if kind == CLAIM_CARD else None) and kind == CLAIM_CARD:
            bots[seat].refused()
    else:  # pragma: no cover - a manche limit or the bots end every game
        raise RuntimeError("a lab game did not end")
    return tally.record()


def _beliefs(manche: int, targets: Sequence[int | None], bots: Sequence[Bot], tally: Tally) -> None:
    """The deducing bots' belief in the true card after a reveal: its probability and
    its rank."""
    for seat, bot in enumerate(bots):
        if isinstance(bot, DeducingBot):
            belief = bot.belief()
            target = targets[1 - seat]
            assert target is not None  # a SEEDED deal
            p = belief.get(target, 0.0)
            tally.belief(manche, p, 1 + sum(w > p for w in belief.values()))


def play_reference(variant: Variant, index: int) -> GameRecord:
    """The same game as a table plays it: through the engine's `apply`, the bots asked
    through a `Decider` (told every event), its record read from its events as a
    journal's is (`record_of`), and the deducing bots' beliefs after the reveals (no event
    carries them)."""
    config = _cached_configs(variant)[index % 2]
    rng, seat_rngs = _seats(variant, index)
    state, opening = new_game(config, rng.randrange(SEED_RANGE))
    decide = Decider(variant.bots, config, seat_rngs)
    events: list[Event] = list(opening)
    decide.observe(opening)
    beliefs = Tally(config.first)
    for _ in range(MAX_ACTIONS):
        if is_over(state):
            break
        asked = (0, 1) if rng.random() < 0.5 else (1, 0)
        offers = [(seat, decide(state, seat)) for seat in asked]
        claims = [(s, a) for s, a in offers if isinstance(a, ClaimMatches | ClaimCard)]
        moves = [(s, a) for s, a in offers if a is not None]
        if not moves:
            raise RuntimeError(f"no bot acts in manche {state.manche}")
        _, action = claims[0] if claims else moves[0]
        state, happened = apply(state, action)
        events.extend(happened)
        decide.observe(happened)
        revealed = any(isinstance(e, ProgramsRevealed) for e in happened)
        if revealed and state.manche <= BELIEF_MANCHES:
            _beliefs(state.manche, state.targets, decide.bots, beliefs)
    else:  # pragma: no cover - a manche limit or the bots end every game
        raise RuntimeError("a table game did not end")
    tally = tally_of(config.first, [e.to_json() for e in events])
    tally.beliefs = beliefs.beliefs
    return tally.record()


# --------------------------------------------------------------------- the events

ENGINE_KINDS = frozenset(
    {"layout", "target", "manche_start", "programmed", "programs_revealed", "swap",
     "swap_skipped", "manche_end", "claim", "game_won", "game_drawn"}
)  # fmt: skip
_STEP_STARTS = frozenset({"layout", "target", "swap", "swap_skipped"})
"""The first event of each step a table's `back` may take back."""
_PUBLIC = frozenset({"claim", "manche_end", "game_won", "game_drawn"})
"""A step that made one of these is never taken back, nor anything before it."""
_UNDONE = frozenset({"layout", "target", "swap", "skip"})
"""The referee's names of the steps an `undo` event took back."""


def kept_events(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The engine events of a game, without the steps a table took back (`undo`)."""
    kept: list[Mapping[str, Any]] = []
    steps: list[int] = []
    for event in events:
        kind = event.get("kind")
        if kind == "undo":
            if event.get("step") in _UNDONE and steps:
                del kept[steps.pop() :]
            continue
        if kind not in ENGINE_KINDS:
            continue
        if kind in _STEP_STARTS:
            steps.append(len(kept))
        kept.append(event)
        if kind in _PUBLIC:
            steps.clear()
    return kept


def tally_of(first: int, events: Iterable[Mapping[str, Any]]) -> Tally:
    """The Tally of a game's JSON events."""
    tally = Tally(first)
    observed = False
    for event in kept_events(events):
        kind = event["kind"]
        if kind in ("layout", "target"):  # an observed deal: the table draws (SW-2)
            observed = True
            tally.actions += 1
        elif kind == "programmed":
            tally.actions += 1
        elif kind == "manche_start":
            tally.manche(int(event["manche"]))
        elif kind == "swap":
            tally.swap()
        elif kind == "swap_skipped":
            tally.skip(observed)
        elif kind == "claim":
            tally.claim(int(event["seat"]), event["claim"] == "card", bool(event["correct"]))
        elif kind == "game_won":
            tally.win(int(event["seat"]))
        elif kind == "game_drawn":
            tally.draw()
    return tally


def record_of(players: int, first: int, events: Iterable[Mapping[str, Any]]) -> GameRecord:
    """The record of a game from its events' JSON (engine events; a referee's other
    kinds are skipped, and steps it took back are left out)."""
    checks.seats(GAME, players)
    return tally_of(first, events).record()


def notes(variant: Variant) -> Sequence[str]:
    """What the deck's arithmetic makes certain (SW-1, SW-2, SW-6)."""
    rules = variant.rules
    size = rules.get("deck_size", Config().deck_size)
    out = [note("sw1", most=MAX_AGREEMENT)]
    if isinstance(size, int) and size >= MIN_DECK:
        out.append(note("sw2", chances=size - 2, size=size))
    limit = rules.get("manche_limit")
    if isinstance(limit, int) and limit >= 1:
        out.append(note("sw6", limit=limit, swaps=6 * limit))
    return out


@cache
def _thinking() -> ThinkingTable:
    """The thinking bot's table, its games played on the engine's board (its module
    imported only when a variant seats one)."""
    from companion.games.swiped.mcts import RESTRICTIONS, seat_bot

    return ThinkingTable(
        restrictions={name: words for name, (words, _) in RESTRICTIONS.items()},
        stand_in="deducing",
        play=lambda variant, index: play_with(variant, index, seat_bot),
    )


LAB = extend(LabGame(
    game=GAME,
    rulings=RULINGS,
    sections=SECTIONS,
    check=check,
    play=play,
    record_of=record_of,
    turn_kinds=frozenset({"swap", "swap_skipped"}),
    decision_kinds=frozenset({"swap", "swap_skipped", "guess", "claim"}),
    notes=notes,
    words=WORDS,
), _thinking)  # fmt: skip
"""Swiped's lab; variants may seat the thinking bot (`mcts.py`)."""
