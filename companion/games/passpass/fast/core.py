"""The fast PassPass core: the readable engine's rules on one mutable state of ints.

`FastGame(config)` is the readable `new_game(config)`; `legal()` gives the legal actions
as small int codes, in the readable `legal_actions` order (so a seeded `rng.choice` picks
the same action on both); `apply(code)` plays one. The contract test
(tests/lab/test_fast_equals_engine.py) keeps it equal to the readable engine
(companion/games/passpass/rules/), which stays the reference: same legal actions, same
states (`to_state`), same events (`log`, as `Event.to_json()`).

Codes depend on the phase, as the readable actions do:

    PLACE     spot * 3 + kind                Designate (spots and kinds 0-based)
    ANNOUNCE  kind                           Announce
    WINDOW    0                              Pass (ROUND), CloseWindow (TIMED)
              seat * 4 + 1 / seat * 4 + 2    Call Doublon / Menteur
    REWARD    0, or 1 + spot * 3 + kind      RewardToken, RewardDrop (PTI-10)
    REVEAL    line, or lines + pair          Reveal, Swap (PTI-5)

Hands and hats are packed ints (`tables`). The core also keeps what the bots remember of
the hats (`known`, `mine`: the readable bots' `HatMemory`, which only ever changes when the
state does) and the game's figures (`figures`), so a lab game needs no events at all.
`log` (a list) asks for the events as JSON, for tests and for `record_of`.
"""

from __future__ import annotations

from typing import Any

from companion.games.passpass.fast import figures as F
from companion.games.passpass.fast.tables import (
    FULL,
    MASK,
    PICK,
    SEAT_BITS,
    SIZE,
    UNIT,
    LayoutTables,
    can_still_win,
    layout_tables,
    names_of,
)
from companion.games.passpass.rules import (
    DEAD_MANCHE,
    TURN_LIMIT,
    VICTORIES_TO_WIN,
    Action,
    Announce,
    Call,
    Challenge,
    CloseWindow,
    Config,
    Designate,
    Pass,
    Phase,
    Reveal,
    RewardDrop,
    RewardToken,
    Starter,
    State,
    Swap,
    WindowMode,
)

PLACE, ANNOUNCE, WINDOW, REWARD, REVEAL, OVER = range(6)
PHASES = (Phase.PLACE, Phase.ANNOUNCE, Phase.WINDOW, Phase.REWARD, Phase.REVEAL, Phase.OVER)
PHASE_NAMES = tuple(str(p) for p in PHASES)

DOUBLON, MENTEUR = 1, 2
"""Bits of `FastGame.open`, and the low bits of a Call code."""
OPEN = {0: (), 1: (Challenge.DOUBLON,), 2: (Challenge.MENTEUR,), 3: tuple(Challenge)}
CHALLENGE_NAMES = {DOUBLON: "doublon", MENTEUR: "menteur"}

_ROUND = tuple(
    (0, *(seat * 4 + c for c in (DOUBLON, MENTEUR) if open_ & c)) if open_ else ()
    for seat in range(8)
    for open_ in range(4)
)
"""(speaker * 4 + open challenges) -> the ROUND window's codes: Pass, then Calls (PTI-7)."""

NO = -1
"""No spot, kind, seat or pair."""


class FastGame:
    """A whole game position, mutable. Seats are 0-based; spots and kinds too."""

    __slots__ = (
        "config", "n", "spots", "tables", "lines", "pairs", "names", "hand_names",
        "challenge_tokens", "visible_turns", "split", "reward", "timed", "winner_starts",
        "limit", "log", "figures",
        "manche", "starter", "tour", "turn", "magician", "phase", "tokens", "victories",
        "spot", "announced", "open", "speaker", "challenger", "swapped", "winner",
        "hats", "hands", "holding", "occupied", "known", "mine",
    )  # fmt: skip

    config: Config
    n: int
    spots: int
    tables: LayoutTables
    lines: tuple[tuple[int, int, int], ...]
    pairs: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    hand_names: tuple[tuple[str, ...], ...]
    """code -> the readable Hand."""
    challenge_tokens: int
    visible_turns: bool
    split: bool
    reward: bool
    timed: bool
    winner_starts: bool
    limit: int
    """PTI-15's turn limit; 0 for none."""
    log: list[dict[str, Any]] | None
    """Events as `Event.to_json()` writes them are appended here, when it is a list."""
    figures: F.Figures
    manche: int
    starter: int
    tour: int
    turn: int
    magician: int
    phase: int
    tokens: list[int]
    """Challenge tokens per seat."""
    victories: list[int]
    spot: int
    announced: int
    open: int
    """The challenges the window takes: DOUBLON and MENTEUR bits."""
    speaker: int
    challenger: int
    swapped: int
    """The pair swapped this turn, or NO."""
    winner: int
    hats: list[int]
    hands: list[int]
    holding: int
    occupied: int
    """A bit per non-empty hat."""
    known: list[int]
    """Per hat, the tokens every seat knows are in it (shown, or revealed)."""
    mine: list[int]
    """Per hat, the tokens each seat alone knows are in it (its own masked placements), one
    packed code per seat (`SEAT_BITS` apart)."""

    def __init__(self, config: Config, log: list[dict[str, Any]] | None = None) -> None:
        rules = config.rules
        t = layout_tables(config.layout)
        self.config = config
        self.n = config.players
        self.spots = t.spots
        self.tables = t
        self.lines = t.lines
        self.pairs = t.pairs
        self.names = rules.tokens
        self.hand_names = names_of(rules.tokens)
        self.challenge_tokens = rules.challenge_tokens
        self.visible_turns = rules.visible_turns
        self.split = rules.split_windows
        self.reward = rules.reward
        self.timed = config.window is WindowMode.TIMED
        self.winner_starts = config.next_starter is Starter.WINNER
        self.limit = config.turn_limit or 0
        self.figures = F.Figures(self.n)
        self.manche = 0
        self.victories = [0] * self.n
        self.winner = NO
        self.turn = 0
        self.log = None  # the readable new_game keeps the first manche's events to itself
        self._new_manche(config.first)
        self.log = log

    _LISTS = ("tokens", "victories", "hats", "hands", "known", "mine")

    def fork(self) -> FastGame:
        """A position of its own to play on apart (the thinking bot deals each draw on a
        fork of the public position); its log and counted figures are the original's."""
        game = FastGame.__new__(FastGame)
        for name in self.__slots__:
            setattr(game, name, getattr(self, name))
        for name in self._LISTS:
            setattr(game, name, list(getattr(self, name)))
        return game

    # ------------------------------------------------------------------ what is legal

    @property
    def masque(self) -> bool:
        """PTI-4: odd tours are Masqué; PHI-1: always."""
        return not self.visible_turns or self.tour % 2 == 1

    def legal(self) -> tuple[int, ...]:
        """Every legal action's code, in the readable `legal_actions` order."""
        phase = self.phase
        if phase == WINDOW:
            if self.speaker >= 0:
                return _ROUND[self.speaker * 4 + self.open]
            return (0, *(s * 4 + c for s in self.eligible() for c in (1, 2) if self.open & c))
        if phase == PLACE:
            return self.tables.place[self.hands[self.magician]]
        if phase == ANNOUNCE:
            return (0, 1, 2)
        if phase == REVEAL:
            return self.tables.reveal_swap if self.swapped < 0 else self.tables.reveal_only
        if phase == REWARD:
            ch = self.challenger
            return self.tables.reward[self.hands[ch] << 1 | (self.tokens[self.magician] > 0)]
        return ()

    def may_call(self, seat: int) -> bool:
        """PTI-7: anyone but the Magicien holding a Challenge token; PHI-1: anyone but them."""
        return seat != self.magician and (not self.challenge_tokens or self.tokens[seat] > 0)

    def eligible(self) -> list[int]:
        """The seats that may call, clockwise from the Magicien's left (PTI-7, PHI-2)."""
        n, m = self.n, self.magician
        return [s for s in ((m + i) % n for i in range(1, n)) if self.may_call(s)]

    # ------------------------------------------------------------------------- apply

    def apply(self, code: int) -> None:
        """Play the action of `code` (one of `legal()`; anything else is not checked)."""
        phase = self.phase
        if phase == WINDOW:
            if code:
                self.call(code >> 2, code & 3)
            elif self.speaker >= 0:
                self.ok()
            else:
                self.close()
        elif phase == PLACE:
            self.designate(code // 3, code % 3)
        elif phase == ANNOUNCE:
            self.announce(code)
        elif phase == REVEAL:
            lines = len(self.lines)
            if code < lines:
                self.reveal(code)
            else:
                self.swap(code - lines)
        elif phase == REWARD:
            if code:
                self.reward_drop((code - 1) // 3, (code - 1) % 3)
            else:
                self.reward_token()

    def designate(self, spot: int, kind: int) -> None:
        """PTI-6: any hat, empty or not."""
        m = self.magician
        self.hands[m] -= UNIT[kind]
        self.holding = kind
        self.spot = spot
        masque = not self.visible_turns or self.tour & 1
        c = self.figures.counts
        c[F.PLACEMENTS] += 1
        c[F.MASQUE_PLACEMENTS if masque else F.VISIBLE_PLACEMENTS] += 1
        if self.occupied >> spot & 1:
            c[F.OCCUPIED_DROPS] += 1
        if self.log is not None:
            shown = None if masque else self.names[kind]
            self.log.append({"kind": "designate", "seat": m, "spot": spot + 1, "shown": shown})
        if self.split:  # PHI-2: window 1, Doublon only, before the announce
            self._open(DOUBLON)
        elif not masque:  # PTI-4: shown, so announced; only Doublon
            self.announced = kind
            self._open(DOUBLON)
        else:
            self.phase = ANNOUNCE

    def announce(self, kind: int) -> None:
        """PTI-6: possibly a lie."""
        self.announced = kind
        if self.log is not None:
            self.log.append({"kind": "announce", "seat": self.magician, "token": self.names[kind]})
        # PHI-2: window 2, Menteur only; PTI-7/PTI-9: a Masqué turn, both calls.
        self._open(MENTEUR if self.split else DOUBLON | MENTEUR)

    def _open(self, challenges: int) -> None:
        self.phase = WINDOW
        self.open = challenges
        first = self._speaker_after(self.magician)
        if first < 0:  # nobody may call: everyone's OK is implied
            self.close()
        elif not self.timed:
            self.speaker = first

    def _speaker_after(self, seat: int) -> int:
        """The next seat clockwise that may call, stopping before the Magicien (PTI-7)."""
        n, m = self.n, self.magician
        s = seat + 1 if seat + 1 < n else 0
        if not self.challenge_tokens:
            return NO if s == m else s
        tokens = self.tokens
        while s != m:
            if tokens[s]:
                return s
            s = s + 1 if s + 1 < n else 0
        return NO

    def ok(self) -> None:
        """The speaker says OK (PTI-7, ROUND)."""
        seat = self.speaker
        if self.log is not None:
            self.log.append({"kind": "ok", "seat": seat})
        nxt = self._speaker_after(seat)
        if nxt < 0:
            self.close()
        else:
            self.speaker = nxt

    def close(self) -> None:
        """Everyone said OK: on to the announce (PHI window 1) or the placement."""
        self.open = 0
        self.speaker = NO
        if self.announced < 0:  # PHI-2: after window 1 comes the announce
            self.phase = ANNOUNCE
            return
        m, spot, kind = self.magician, self.spot, self.holding
        unit = UNIT[kind]
        self.hats[spot] += unit
        self.occupied |= 1 << spot
        if not self.visible_turns or self.tour & 1:
            self.mine[spot] += unit << (SEAT_BITS * m)  # only the Magicien saw it
        else:
            self.known[spot] += unit  # shown (PTI-4)
        if self.log is not None:
            self.log.append({"kind": "place", "seat": m, "spot": spot + 1})
        self.holding = NO
        self._end_turn()

    def call(self, seat: int, challenge: int) -> None:
        """PTI-8, PTI-9, PHI-3, PHI-4: the call is settled at once."""
        m, spot, kind = self.magician, self.spot, self.holding
        unit = UNIT[kind]
        f = self.figures
        c = f.counts
        log = self.log
        if challenge == DOUBLON:
            hat = self.hats[spot]
            success = hat != 0
            c[F.DOUBLON_CALLS] += 1
            if log is not None:
                log.append(self._verdict("doublon", seat, success, self.hand_names[hat], None))
            if success:  # the Magicien takes back every token of that hat, keeps their own
                c[F.DOUBLON_WINS] += 1
                self.hands[m] += hat + unit
                self.hats[spot] = 0
                self.occupied &= ~(1 << spot)
            self.known[spot] = self.mine[spot] = 0  # lifted: empty either way
        else:
            success = kind != self.announced
            c[F.MENTEUR_CALLS] += 1
            if log is not None:
                log.append(self._verdict("menteur", seat, success, None, self.names[kind]))
            if success:  # the Magicien keeps the token
                c[F.MENTEUR_WINS] += 1
                self.hands[m] += unit
        if not self.visible_turns or self.tour & 1:
            c[F.MASQUE_CALLS] += 1
            c[F.MASQUE_WINS] += success
        else:
            c[F.VISIBLE_CALLS] += 1
            c[F.VISIBLE_WINS] += success
        f.calls[seat] += 1
        self.holding = NO
        self.open = 0
        self.speaker = NO
        if not success:  # the token goes to the Challenger, who pays a Challenge token
            self.hands[seat] += unit
            if self.challenge_tokens:
                self.tokens[seat] -= 1
                self.tokens[m] += 1
            self._end_turn()
            return
        f.call_wins[seat] += 1
        if not self.reward:  # PHI-5
            self._end_turn()
            return
        if self.hands[seat] or self.tokens[m] > 0:  # PTI-10: the Challenger chooses
            self.phase = REWARD
            self.challenger = seat
            return
        c[F.REWARD_NONE] += 1
        if log is not None:
            log.append(_rewarded(seat, "none", None, None))
        self._end_turn()

    def _verdict(
        self, challenge: str, seat: int, success: bool, hat: tuple[str, ...] | None,
        shown: str | None,
    ) -> dict[str, Any]:  # fmt: skip
        return {
            "kind": "verdict", "challenge": challenge, "seat": seat, "magician": self.magician,
            "success": success, "spot": self.spot + 1, "hat": None if hat is None else list(hat),
            "shown": shown,
        }  # fmt: skip

    def reward_drop(self, spot: int, kind: int) -> None:
        """PTI-10: one of the Challenger's tokens, shown, into any hat."""
        seat = self.challenger
        unit = UNIT[kind]
        self.hands[seat] -= unit
        self.hats[spot] += unit
        self.occupied |= 1 << spot
        self.known[spot] += unit
        self.figures.counts[F.REWARD_DROP] += 1
        if self.log is not None:
            self.log.append(_rewarded(seat, "drop", self.names[kind], spot + 1))
        self._end_turn()

    def reward_token(self) -> None:
        """PTI-10: one Challenge token taken from the Magicien."""
        seat = self.challenger
        self.tokens[self.magician] -= 1
        self.tokens[seat] += 1
        self.figures.counts[F.REWARD_TOKEN] += 1
        if self.log is not None:
            self.log.append(_rewarded(seat, "token", None, None))
        self._end_turn()

    def swap(self, pair: int) -> None:
        """PTI-5: two contiguous hats exchanged, once, before revealing."""
        a, b = self.pairs[pair]
        hats, known, mine = self.hats, self.known, self.mine
        hats[a], hats[b] = hats[b], hats[a]
        known[a], known[b] = known[b], known[a]
        mine[a], mine[b] = mine[b], mine[a]
        occ = self.occupied
        if (occ >> a ^ occ >> b) & 1:
            self.occupied = occ ^ (1 << a | 1 << b)
        self.swapped = pair
        self.figures.counts[F.SWAPS] += 1
        if self.log is not None:
            self.log.append({"kind": "swap", "seat": self.magician, "spots": [a + 1, b + 1]})

    def reveal(self, line: int) -> None:
        """PTI-11: the three hats of a line lifted; PTI-12: a win, and maybe the game."""
        a, b, c3 = self.lines[line]
        hats, known, mine = self.hats, self.known, self.mine
        ha, hb, hc = hats[a], hats[b], hats[c3]
        pick = PICK[MASK[ha] | MASK[hb] << 3 | MASK[hc] << 6]
        c = self.figures.counts
        c[F.REVEALS] += 1
        swapped = self.swapped >= 0
        if swapped:
            c[F.SWAP_REVEALS] += 1
        m = self.magician
        if self.log is not None:
            names, hn = self.names, self.hand_names
            self.log.append({
                "kind": "reveal", "seat": m, "spots": [a + 1, b + 1, c3 + 1],
                "success": pick is not None, "hats": [list(hn[ha]), list(hn[hb]), list(hn[hc])],
                "pick": None if pick is None else [names[k] for k in pick],
            })  # fmt: skip
        known[a], known[b], known[c3] = ha, hb, hc  # seen by all
        mine[a] = mine[b] = mine[c3] = 0
        if pick is None:  # PTI-11: the hats go back unchanged; a swap stays
            self._end_turn()
            return
        c[F.REVEAL_WINS] += 1
        if swapped:
            c[F.SWAP_REVEAL_WINS] += 1
        if SIZE[ha] > 1 or SIZE[hb] > 1 or SIZE[hc] > 1:
            c[F.RICH_PICKS] += 1
        f = self.figures
        f.manche_wins[m] += 1
        f.manches.append(self.turn + 1)
        self.victories[m] += 1
        if self.log is not None:
            self.log.append({"kind": "manche_won", "seat": m, "victories": self.victories[m]})
        if self.victories[m] >= VICTORIES_TO_WIN:  # PTI-1, PTI-12
            self.phase = OVER
            self.winner = m
            if self.log is not None:
                self.log.append({"kind": "game_won", "seat": m})
            return
        self._new_manche(m if self.winner_starts else (m + 1) % self.n)

    # -------------------------------------------------------------- turns and manches

    def _end_turn(self) -> None:
        """The seat on the Magicien's left becomes Magicien (never the Challenger's left)."""
        m = self.magician + 1
        if m == self.n:
            m = 0
        self.magician = m
        self.turn += 1
        if m == self.starter:  # PTI-4: a tour de table is complete
            self.tour += 1
        self.spot = self.announced = self.challenger = self.swapped = self.holding = NO
        self.open = 0
        self.speaker = NO
        limit = self.limit
        hands = self.hands
        if limit and self.turn >= limit:
            self._void(F.LIMIT_MANCHES, TURN_LIMIT.format(limit=limit))
        elif any(hands) or can_still_win(tuple(sorted(MASK[h] for h in self.hats if h))):
            self.phase = PLACE if hands[m] else REVEAL  # PTI-5
            if self.log is not None:
                self._log_turn()
        else:
            self._void(F.DEAD_MANCHES, DEAD_MANCHE)

    def _void(self, figure: int, reason: str) -> None:
        """PTI-15: a dead manche (or the turn limit): dealt again, the same Magicien starts."""
        self.figures.counts[figure] += 1
        self.figures.manches.append(self.turn)
        if self.log is not None:
            self.log.append({"kind": "manche_void", "reason": reason})
        self._new_manche(self.magician)

    def _log_turn(self) -> None:
        assert self.log is not None
        self.log.append({
            "kind": "turn", "seat": self.magician, "tour": self.tour,
            "masque": not self.visible_turns or self.tour % 2 == 1,
            "phase": PHASE_NAMES[self.phase],
        })  # fmt: skip

    def _new_manche(self, starter: int) -> None:
        """PTI-12: hats emptied, everything dealt again, the token back to Masqué."""
        n, spots = self.n, self.spots
        self.manche += 1
        self.starter = self.magician = starter
        self.tour = 1
        self.turn = 0
        self.hats = [0] * spots
        self.known = [0] * spots
        self.mine = [0] * spots
        self.occupied = 0
        self.hands = [FULL] * n
        self.tokens = [self.challenge_tokens] * n
        self.spot = self.announced = self.challenger = self.swapped = self.holding = NO
        self.open = 0
        self.speaker = NO
        self.phase = PLACE
        if self.log is not None:
            self.log.append({"kind": "manche_start", "manche": self.manche, "starter": starter})
            self._log_turn()

    # ------------------------------------------------------------- undo and the views

    def save(self) -> tuple[Any, ...]:
        """Everything `apply` changes, to `restore` (undo) after trying actions."""
        f = self.figures
        return (
            self.manche, self.starter, self.tour, self.turn, self.magician, self.phase,
            list(self.tokens), list(self.victories), self.spot, self.announced, self.open,
            self.speaker, self.challenger, self.swapped, self.winner, list(self.hats),
            list(self.hands), self.holding, self.occupied, list(self.known), list(self.mine),
            f.copy(),
        )  # fmt: skip

    def restore(self, saved: tuple[Any, ...]) -> None:
        (self.manche, self.starter, self.tour, self.turn, self.magician, self.phase, tokens,
         victories, self.spot, self.announced, self.open, self.speaker, self.challenger,
         self.swapped, self.winner, hats, hands, self.holding, self.occupied, known, mine,
         figures) = saved  # fmt: skip
        self.tokens, self.victories, self.hats = list(tokens), list(victories), list(hats)
        self.hands, self.known, self.mine = list(hands), list(known), list(mine)
        self.figures = figures.copy()

    def to_state(self) -> State:
        """The readable engine's State of this position (for tests and for bots that
        need one)."""
        hn = self.hand_names
        a, b = self.pairs[self.swapped] if self.swapped >= 0 else (NO, NO)
        return State(
            config=self.config,
            manche=self.manche,
            starter=self.starter,
            tour=self.tour,
            turn=self.turn,
            magician=self.magician,
            phase=PHASES[self.phase],
            challenge_tokens=tuple(self.tokens),
            victories=tuple(self.victories),
            spot=None if self.spot < 0 else self.spot + 1,
            announced=None if self.announced < 0 else self.names[self.announced],
            open_challenges=OPEN[self.open],
            speaker=None if self.speaker < 0 else self.speaker,
            challenger=None if self.challenger < 0 else self.challenger,
            swapped=None if a < 0 else (a + 1, b + 1),
            winner=None if self.winner < 0 else self.winner,
            hats=tuple(hn[h] for h in self.hats),
            hands=tuple(hn[h] for h in self.hands),
            holding=None if self.holding < 0 else self.names[self.holding],
        )

    def action(self, code: int) -> Action:
        """The readable action of a legal code in the current phase."""
        phase, names = self.phase, self.names
        if phase == WINDOW:
            if not code:
                return Pass(self.speaker) if self.speaker >= 0 else CloseWindow()
            kind = Challenge.DOUBLON if code & 3 == DOUBLON else Challenge.MENTEUR
            return Call(code >> 2, kind)
        if phase == PLACE:
            return Designate(self.magician, code // 3 + 1, names[code % 3])
        if phase == ANNOUNCE:
            return Announce(self.magician, names[code])
        if phase == REVEAL:
            lines = len(self.lines)
            if code < lines:
                x, y, z = self.lines[code]
                return Reveal(self.magician, (x + 1, y + 1, z + 1))
            a, b = self.pairs[code - lines]
            return Swap(self.magician, a + 1, b + 1)
        if phase == REWARD:
            if not code:
                return RewardToken(self.challenger)
            return RewardDrop(self.challenger, names[(code - 1) % 3], (code - 1) // 3 + 1)
        raise ValueError(f"no action in phase {PHASES[phase]}")

    def code(self, action: Action) -> int:
        """The code of a legal readable action in the current phase."""
        for code in self.legal():
            if self.action(code) == action:
                return code
        raise ValueError(f"{action!r} is not legal now")


def _rewarded(seat: int, choice: str, token: str | None, spot: int | None) -> dict[str, Any]:
    return {"kind": "reward", "seat": seat, "choice": choice, "token": token, "spot": spot}
