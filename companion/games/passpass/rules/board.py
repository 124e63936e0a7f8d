"""A game of PtiPassPass or PhiPassPass as it stands: the engine's core, mutable.

One `Board` is played in place and copied with `fork`; the table sees it only through the
frozen `State` (state.py), which the engine's `apply` builds from a fork, and the lab, the
bots and the thinking bot play on it directly. What happens is told as it happens to the
board's `Watcher`: the engine turns it into events, the lab counts it (tally.py).

How the board holds a game:

- Seats are 0..n-1, clockwise; hats ("spots") are 0..N-1 here (the players' 1..N less
  one); a token kind is its index in the edition's tokens (`RuleSet.tokens`, sorted).
- A hand or a hat is a packed int (tables.py): a multiset of kinds, so taking a hat into a
  hand is one addition; `NO` is no spot, kind, seat or swap.
- The phase is the `Phase` itself; the challenges a window takes are bits (`DOUBLON`,
  `MENTEUR`).
- What the seats have seen of each hat (`seen`, `secret`) is kept with the tokens, for
  the bots: it changes only when the hats do.

The rules are checked by the methods named after the players' acts (`designate`,
`announce`, `say_ok`, `close_window`, `call`, `drop_reward`, `take_token`, `swap`,
`reveal`), which take the players' own numbers (hats 1..N, tokens and challenges by
name) and raise IllegalAction naming the ruling. The lab and the bots play unchecked
`codes` (one of `legal()`) with `play`:

    PLACE     spot * 3 + kind                Designate
    ANNOUNCE  kind                           Announce
    WINDOW    0                              Pass (ROUND), CloseWindow (TIMED)
              seat * 4 + DOUBLON / MENTEUR   Call
    REWARD    0, or 1 + spot * 3 + kind      RewardToken, RewardDrop (PTI-10)
    REVEAL    line, or lines + pair          Reveal, Swap (PTI-5)
"""

from __future__ import annotations

from companion.games.passpass.rules.actions import (
    Action,
    Announce,
    Call,
    CloseWindow,
    Designate,
    Pass,
    Reveal,
    RewardDrop,
    RewardToken,
    Swap,
)
from companion.games.passpass.rules.config import (
    VICTORIES_TO_WIN,
    Challenge,
    Config,
    Hand,
    Phase,
    Starter,
    WindowMode,
)
from companion.games.passpass.rules.tables import (
    FULL,
    MASK,
    PICK,
    SEAT_BITS,
    SIZE,
    UNIT,
    LayoutTables,
    layout_tables,
    names_of,
    still_winnable,
)
from companion.rules.errors import IllegalAction

PLACE, ANNOUNCE, WINDOW, REWARD, REVEAL, OVER = (
    Phase.PLACE, Phase.ANNOUNCE, Phase.WINDOW, Phase.REWARD, Phase.REVEAL, Phase.OVER,
)  # fmt: skip
"""The phases by short names (read at every step of a lab game)."""

DOUBLON, MENTEUR = 1, 2
"""Bits of `Board.open`, and the low bits of a call's code."""
BITS = {Challenge.DOUBLON: DOUBLON, Challenge.MENTEUR: MENTEUR}
CHALLENGES: dict[int, tuple[Challenge, ...]] = {
    0: (), DOUBLON: (Challenge.DOUBLON,), MENTEUR: (Challenge.MENTEUR,), 3: tuple(Challenge),
}  # fmt: skip
"""The open bits -> the challenges a window takes."""

_ROUND = tuple(
    (0, *(seat * 4 + c for c in (DOUBLON, MENTEUR) if open_ & c)) if open_ else ()
    for seat in range(8)
    for open_ in range(4)
)
"""(speaker * 4 + open challenges) -> the ROUND window's codes: OK, then calls (PTI-7)."""

NO = -1
"""No spot, kind, seat or pair."""


class Watcher:
    """Hears what happens on a board, as it happens. Every hook does nothing here."""

    def manche_started(self, board: Board) -> None:
        """PTI-12: the hats emptied, everything dealt again (`board.manche`, its starter)."""

    def turn_started(self, board: Board) -> None:
        """PTI-4, PTI-5: `board.magician`'s turn, Masqué or Visible, to place or reveal."""

    def designated(self, board: Board) -> None:
        """PTI-6: the Magicien holds `board.holding` over hat `board.spot` (shown in a
        Visible turn, PTI-4); the hat still holds what it held."""

    def announced(self, board: Board) -> None:
        """PTI-6: the Magicien announced `board.announced`, possibly a lie."""

    def passed(self, board: Board, seat: int) -> None:
        """PTI-7: `seat` said OK."""

    def placed(self, board: Board) -> None:
        """Nobody called: the token went into hat `board.spot`."""

    def settled(self, board: Board, seat: int, challenge: int, success: bool, hat: int) -> None:
        """PTI-8, PTI-9 (PHI-3, PHI-4): `seat`'s call of `challenge` (DOUBLON or MENTEUR)
        settled; `hat` is the lifted hat for a Doublon, and the Magicien's token (the
        board's `holding`) is shown for a Menteur."""

    def rewarded(self, board: Board, seat: int, choice: str, kind: int, spot: int) -> None:
        """PTI-10: the successful Challenger's `choice`: "drop" (`kind`, shown, into hat
        `spot`), "token" (one Challenge token taken from the Magicien), or "none" when
        neither is possible (`kind` and `spot` NO)."""

    def swapped(self, board: Board, a: int, b: int) -> None:
        """PTI-5: the Magicien exchanged the contiguous hats `a` and `b`."""

    def revealed(self, board: Board, line: int, pick: tuple[int, ...] | None) -> None:
        """PTI-11: the Magicien lifted `line`'s three hats; `pick` is the best pick's kinds,
        None when no pick wins."""

    def manche_won(self, board: Board, seat: int) -> None:
        """PTI-12: `seat` won the manche (`board.victories[seat]` counts it)."""

    def game_won(self, board: Board, seat: int) -> None:
        """PTI-1: `seat` won its second manche, and the game."""

    def manche_void(self, board: Board, limit: bool) -> None:
        """PTI-15: no three hats can ever win (`limit` False), or the configured turn limit
        is reached (`limit` True): dealt again."""


UNWATCHED = Watcher()

EVERY_TURN = ("announced", "passed", "placed", "turn_started")
"""The hooks of acts that come every turn (a window's OKs are most of a game's acts)."""


_HEARS: dict[type[Watcher], bool] = {}
"""A kind of watcher -> `hears_every_turn`, asked once a kind (a thinking bot forks a
board at every draw)."""


def hears_every_turn(kind: type[Watcher]) -> bool:
    """Whether a kind of watcher overrides a hook of `EVERY_TURN`: the engine's events
    do, the lab's tally does not, and the board tells those acts only to a watcher that
    listens."""
    hears = _HEARS.get(kind)
    if hears is None:
        hears = _HEARS[kind] = any(
            getattr(kind, hook) is not getattr(Watcher, hook) for hook in EVERY_TURN
        )
    return hears


class Board:
    """A game of PassPass in progress, mutable: the deal (PTI-1, PTI-12), the turn's
    placement, announce and challenge window (PTI-4..PTI-9, PHI-2..PHI-4), the reward
    (PTI-10), the swap and the reveal (PTI-5, PTI-11), and the manches (PTI-12, PTI-15).
    Play it in place, copy it with `fork`; never share one between games."""

    __slots__ = (
        "config", "players", "spots", "tables", "lines", "pairs", "names", "hand_names",
        "dealt_tokens", "visible_turns", "split_windows", "reward", "timed", "winner_starts",
        "turn_limit", "watch", "every_turn",
        "manche", "starter", "tour", "masque", "turn", "magician", "phase", "challenge_tokens",
        "victories", "spot", "announced", "open", "speaker", "challenger", "swapped",
        "winner", "hats", "hands", "holding", "occupied", "seen", "secret",
    )  # fmt: skip

    config: Config
    players: int
    spots: int
    tables: LayoutTables
    lines: tuple[tuple[int, int, int], ...]
    pairs: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    """kind -> its token's name."""
    hand_names: tuple[tuple[str, ...], ...]
    """code -> its `Hand` of names."""
    dealt_tokens: int
    """Challenge tokens dealt to each seat (PTI-1); 0: anyone calls, free (PHI-1)."""
    visible_turns: bool
    split_windows: bool
    reward: bool
    timed: bool
    """PTI-7 (configurable): silence means OK, the table's clock closes the window."""
    winner_starts: bool
    """PTI-12 (configurable): the winner starts the next manche."""
    turn_limit: int
    """PTI-15 (configurable): a manche of this many turns is void; 0 for no limit."""
    watch: Watcher
    every_turn: bool
    """Whether `watch` hears the acts of `EVERY_TURN`."""
    manche: int
    starter: int
    """The seat that started this manche: the Visible/Masqué token flips when it is back."""
    tour: int
    masque: bool
    """The Visible/Masqué token (PTI-4): odd tours are Masqué, even tours Visible; PHI-1:
    always Masqué."""
    turn: int
    magician: int
    phase: Phase
    challenge_tokens: list[int]
    victories: list[int]
    spot: int
    """The hat designated this turn, or NO."""
    announced: int
    open: int
    """The challenges the window takes: DOUBLON and MENTEUR bits."""
    speaker: int
    """ROUND window: the seat whose turn it is to say OK or call, else NO."""
    challenger: int
    """The successful Challenger choosing a reward (PTI-10), else NO."""
    swapped: int
    """The pair swapped this turn (an index of `pairs`), or NO."""
    winner: int
    hats: list[int]
    hands: list[int]
    holding: int
    """The Magicien's designated token, in flight until placed or settled (PTI-14)."""
    occupied: int
    """A bit per non-empty hat: every placement is seen, so this is public (PTI-14)."""
    seen: list[int]
    """Per hat, the tokens every seat saw go in or lifted (shown, dropped, revealed)."""
    secret: list[int]
    """Per hat, the tokens only their placer knows (its own masked placements), one code
    per seat, `SEAT_BITS` apart."""

    def __init__(self, config: Config, watch: Watcher = UNWATCHED) -> None:
        """The first manche dealt, the first player of PTI-13 to play, told to `watch`."""
        self._configure(config, watch)
        self.manche = 0
        self.victories = [0] * self.players
        self.winner = NO
        self._new_manche(config.first)

    def _configure(self, config: Config, watch: Watcher) -> None:
        rules = config.rules
        tables = layout_tables(config.layout)
        self.config = config
        self.watched_by(watch)
        self.players, self.spots, self.tables = config.players, tables.spots, tables
        self.lines, self.pairs = tables.lines, tables.pairs
        self.names, self.hand_names = rules.tokens, names_of(rules.tokens)
        self.dealt_tokens = rules.challenge_tokens
        self.visible_turns, self.split_windows = rules.visible_turns, rules.split_windows
        self.reward = rules.reward
        self.timed = config.window is WindowMode.TIMED
        self.winner_starts = config.next_starter is Starter.WINNER
        self.turn_limit = config.turn_limit or 0

    @classmethod
    def of(
        cls,
        config: Config,
        manche: int,
        starter: int,
        tour: int,
        turn: int,
        magician: int,
        phase: Phase,
        challenge_tokens: tuple[int, ...],
        victories: tuple[int, ...],
        spot: int | None,
        announced: str | None,
        open_challenges: tuple[Challenge, ...],
        speaker: int | None,
        challenger: int | None,
        swapped: tuple[int, int] | None,
        winner: int | None,
        hats: tuple[Hand, ...],
        hands: tuple[Hand, ...],
        holding: str | None,
    ) -> Board:
        """The board of a position given by its facts as a `State` names them (hats 1..N,
        tokens by name, None for none: a State's, or what a seat knows of one),
        unchecked and unwatched. What the seats saw of the hats is not among the facts: it
        starts empty (`seen`, `secret`)."""
        board = cls.__new__(cls)
        board._configure(config, UNWATCHED)
        kind = {name: k for k, name in enumerate(board.names)}
        board.manche, board.starter, board.tour, board.turn = manche, starter, tour, turn
        board.masque = not board.visible_turns or tour % 2 == 1
        board.magician, board.phase = magician, phase
        board.challenge_tokens, board.victories = list(challenge_tokens), list(victories)
        board.spot = NO if spot is None else spot - 1
        board.announced = NO if announced is None else kind[announced]
        board.open = sum(BITS[c] for c in open_challenges)
        board.speaker = NO if speaker is None else speaker
        board.challenger = NO if challenger is None else challenger
        board.swapped = NO
        if swapped is not None:
            a, b = sorted(swapped)
            board.swapped = board.tables.pair_index[a - 1, b - 1]
        board.winner = NO if winner is None else winner
        board.hats = [sum(UNIT[kind[token]] for token in hat) for hat in hats]
        board.hands = [sum(UNIT[kind[token]] for token in hand) for hand in hands]
        board.holding = NO if holding is None else kind[holding]
        board.occupied = sum(1 << s for s, hat in enumerate(hats) if hat)
        board.seen = [0] * board.spots
        board.secret = [0] * board.spots
        return board

    def fork(self, watch: Watcher = UNWATCHED) -> Board:
        """An independent copy to play on (told to `watch`), this one unchanged."""
        twin = Board.__new__(Board)
        twin.config = self.config
        twin.watched_by(watch)
        twin.players, twin.spots, twin.tables = self.players, self.spots, self.tables
        twin.lines, twin.pairs = self.lines, self.pairs
        twin.names, twin.hand_names = self.names, self.hand_names
        twin.dealt_tokens = self.dealt_tokens
        twin.visible_turns, twin.split_windows = self.visible_turns, self.split_windows
        twin.reward, twin.timed = self.reward, self.timed
        twin.winner_starts, twin.turn_limit = self.winner_starts, self.turn_limit
        twin.manche, twin.starter, twin.tour, twin.turn = (
            self.manche, self.starter, self.tour, self.turn
        )  # fmt: skip
        twin.masque, twin.magician, twin.phase = self.masque, self.magician, self.phase
        twin.challenge_tokens, twin.victories = list(self.challenge_tokens), list(self.victories)
        twin.spot, twin.announced, twin.open = self.spot, self.announced, self.open
        twin.speaker, twin.challenger = self.speaker, self.challenger
        twin.swapped, twin.winner = self.swapped, self.winner
        twin.hats, twin.hands, twin.holding = list(self.hats), list(self.hands), self.holding
        twin.occupied, twin.seen, twin.secret = self.occupied, list(self.seen), list(self.secret)
        return twin

    def watched_by(self, watch: Watcher) -> None:
        """From now on, tell what happens to `watch`."""
        self.watch, self.every_turn = watch, hears_every_turn(type(watch))

    # ------------------------------------------------------------------ what is known

    def may_call(self, seat: int) -> bool:
        """PTI-7: anyone but the Magicien holding a Challenge token; PHI-1: anyone but them."""
        return seat != self.magician and (not self.dealt_tokens or self.challenge_tokens[seat] > 0)

    def eligible(self) -> list[int]:
        """The seats that may call, clockwise from the Magicien's left (PTI-7, PHI-2)."""
        n, m = self.players, self.magician
        return [s for s in ((m + i) % n for i in range(1, n)) if self.may_call(s)]

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now: several at once in a TIMED challenge window."""
        phase = self.phase
        if phase is OVER:
            return ()
        if phase is WINDOW:
            return (self.speaker,) if self.speaker >= 0 else tuple(self.eligible())
        if phase is REWARD:
            return (self.challenger,)
        return (self.magician,)

    def legal(self) -> tuple[int, ...]:
        """Every legal action's code, in the engine's order of legal actions: hats, then
        kinds; OK or silence, then the calls seat by seat clockwise from the Magicien's
        left, Doublon first (the order PTI-7 settles calls made together); the token, then
        the drops; the lines, then the swaps."""
        phase = self.phase
        if phase is WINDOW:
            if self.speaker >= 0:
                return _ROUND[self.speaker * 4 + self.open]
            return (0, *(s * 4 + c for s in self.eligible() for c in (1, 2) if self.open & c))
        if phase is PLACE:
            return self.tables.place[self.hands[self.magician]]
        if phase is ANNOUNCE:
            return (0, 1, 2)
        if phase is REVEAL:
            return self.tables.reveal_swap if self.swapped < 0 else self.tables.reveal_only
        if phase is REWARD:
            token = self.challenge_tokens[self.magician] > 0
            return self.tables.reward[self.hands[self.challenger] << 1 | token]
        return ()

    def action(self, code: int) -> Action:
        """The engine's action of a legal code in the current phase."""
        return action_of(self.tables, self.names, self.phase, self.deciding(), code)

    def deciding(self) -> int:
        """The seat whose action a code is: the speaker of a ROUND window (NO in a TIMED
        one, where a call names its seat), the successful Challenger choosing a reward,
        else the Magicien."""
        phase = self.phase
        if phase is WINDOW:
            return self.speaker
        return self.challenger if phase is REWARD else self.magician

    # ------------------------------------------------------ the players' acts, checked

    def designate(self, seat: int, spot: int, token: str) -> None:
        """PTI-5, PTI-6: the Magicien holds one of its tokens over any hat, empty or not
        (on a real table: drops it in)."""
        if self.phase is REVEAL:
            raise IllegalAction("PTI-5", f"seat {seat} holds no token and must reveal")
        self._expect(PLACE, "PTI-7", "designating a hat")
        self._expect_magician(seat, "PTI-5")
        kind = self.names.index(token)
        if not self.hands[seat] >> 3 * kind & 7:
            raise IllegalAction("PTI-14", f"seat {seat} holds no {token}")
        self.play_designate(spot - 1, kind)

    def announce(self, seat: int, token: str) -> None:
        """PTI-6: the Magicien says which token it holds; in a Masqué turn, possibly a lie."""
        self._expect(ANNOUNCE, "PTI-7", "announcing")
        self._expect_magician(seat, "PTI-7")
        self.play_announce(self.names.index(token))

    def say_ok(self, seat: int) -> None:
        """PTI-7, ROUND window: the seat whose turn it is to speak lets the placement go."""
        self._expect(WINDOW, "PTI-7", "saying OK")
        if self.speaker < 0:
            raise IllegalAction(
                "PTI-7", "in a timed window silence means OK; nobody speaks in turn"
            )
        if seat != self.speaker:
            raise IllegalAction("PTI-7", f"it is seat {self.speaker}'s turn to speak")
        self.play_ok()

    def close_window(self) -> None:
        """PTI-7, TIMED window: the time ran out with no call, so everyone said OK."""
        self._expect(WINDOW, "PTI-7", "closing the challenge window")
        if self.speaker >= 0:
            raise IllegalAction("PTI-7", "a round window closes only when every seat has spoken")
        self.play_close()

    def call(self, seat: int, challenge: Challenge) -> None:
        """PTI-7: a seat other than the Magicien, holding a Challenge token (PHI-1: anyone
        but the Magicien), calls a challenge the window takes (PTI-9, PHI-2); in a ROUND
        window, in its turn to speak. Settled at once (PTI-8, PTI-9, PHI-3, PHI-4)."""
        self._expect(WINDOW, "PTI-7", f"calling {challenge}")
        bit = BITS[challenge]
        if not self.open & bit:
            ruling = "PHI-2" if self.split_windows else "PTI-9"
            why = "this window" if self.split_windows else "a Visible turn"
            raise IllegalAction(ruling, f"{challenge} cannot be called in {why}")
        if seat == self.magician:
            raise IllegalAction("PTI-7", "the Magicien cannot challenge their own placement")
        if self.dealt_tokens and self.challenge_tokens[seat] == 0:
            raise IllegalAction("PTI-7", f"seat {seat} has no Challenge token and can only say OK")
        if self.speaker >= 0 and seat != self.speaker:
            raise IllegalAction("PTI-7", f"it is seat {self.speaker}'s turn to speak")
        self.play_call(seat, bit)

    def drop_reward(self, seat: int, token: str, spot: int) -> None:
        """PTI-10: the successful Challenger puts one of its own tokens, shown, into a hat."""
        self._expect_reward(seat)
        kind = self.names.index(token)
        if not self.hands[seat] >> 3 * kind & 7:
            raise IllegalAction("PTI-10", f"seat {seat} holds no {token} to drop")
        self.play_drop(spot - 1, kind)

    def take_token(self, seat: int) -> None:
        """PTI-10: the successful Challenger takes one Challenge token from the Magicien."""
        self._expect_reward(seat)
        if self.challenge_tokens[self.magician] == 0:
            raise IllegalAction("PTI-10", "the Magicien has no Challenge token left to take")
        self.play_token()

    def swap(self, seat: int, a: int, b: int) -> None:
        """PTI-5: before revealing, the Magicien may exchange two contiguous hats (PTI-2),
        once."""
        self._expect(REVEAL, "PTI-5", "a swap")
        self._expect_magician(seat, "PTI-5")
        if self.swapped >= 0:
            raise IllegalAction("PTI-5", "only one swap before revealing")
        pair = self.tables.pair_index.get((min(a, b) - 1, max(a, b) - 1))
        if pair is None:
            raise IllegalAction("PTI-2", f"hats {a} and {b} are not contiguous")
        self.play_swap(pair)

    def reveal(self, seat: int, spots: tuple[int, ...]) -> None:
        """PTI-3, PTI-11: the Magicien lifts the three hats of a line (named in any order)."""
        self._expect(REVEAL, "PTI-5", "a reveal")
        self._expect_magician(seat, "PTI-5")
        lines: tuple[tuple[int, ...], ...] = self.config.layout.lines
        named = tuple(sorted(spots))
        if len(spots) != 3 or named not in lines:
            raise IllegalAction("PTI-3", f"hats {list(spots)} are not a line of three")
        self.play_reveal(lines.index(named))

    def _expect(self, phase: Phase, ruling: str, what: str) -> None:
        if self.phase is not phase:
            now = f"the turn is at '{self.phase}'"
            raise IllegalAction(ruling, f"{what} is not possible now: {now}")

    def _expect_magician(self, seat: int, ruling: str) -> None:
        if seat != self.magician:
            magician = f"seat {self.magician} is"
            raise IllegalAction(ruling, f"seat {seat} is not the Magicien ({magician})")

    def _expect_reward(self, seat: int) -> None:
        self._expect(REWARD, "PTI-10", "a reward")
        if seat != self.challenger:
            challenger = f"seat {self.challenger}"
            raise IllegalAction("PTI-10", f"only the successful Challenger ({challenger})")

    # --------------------------------------------------------- the plays, unchecked
    # What the players' acts do once checked; the lab and the bots call them directly
    # (`play` by a legal code, or the act itself: a window's answers are most of a game).

    def play(self, code: int) -> None:
        """Play the action of `code`, unchecked (one of `legal()`): the lab's and the bots'."""
        phase = self.phase
        if phase is WINDOW:
            if code:
                self.play_call(code >> 2, code & 3)
            elif self.speaker >= 0:
                self.play_ok()
            else:
                self.play_close()
        elif phase is PLACE:
            self.play_designate(code // 3, code % 3)
        elif phase is ANNOUNCE:
            self.play_announce(code)
        elif phase is REVEAL:
            lines = len(self.lines)
            if code < lines:
                self.play_reveal(code)
            else:
                self.play_swap(code - lines)
        elif phase is REWARD:
            if code:
                self.play_drop((code - 1) // 3, (code - 1) % 3)
            else:
                self.play_token()

    def play_designate(self, spot: int, kind: int) -> None:
        """`designate`: the Magicien's `kind` held over hat `spot`."""
        self.hands[self.magician] -= UNIT[kind]
        self.holding = kind
        self.spot = spot
        self.watch.designated(self)
        if self.split_windows:  # PHI-2: window 1, Doublon only, before the announce
            self._open(DOUBLON)
        elif not self.masque:  # PTI-4: shown, so announced; only Doublon
            self.announced = kind
            self._open(DOUBLON)
        else:
            self.phase = ANNOUNCE

    def play_announce(self, kind: int) -> None:
        """`announce`: the Magicien says `kind`."""
        self.announced = kind
        if self.every_turn:
            self.watch.announced(self)
        # PHI-2: window 2, Menteur only; PTI-7, PTI-9: a Masqué turn, both calls.
        self._open(MENTEUR if self.split_windows else DOUBLON | MENTEUR)

    def _open(self, challenges: int) -> None:
        """The challenge window (PTI-7, PHI-2); with nobody who may call, it is closed."""
        self.phase = WINDOW
        self.open = challenges
        first = self._speaker_after(self.magician)
        if first < 0:  # nobody may call: everyone's OK is implied
            self.play_close()
        elif not self.timed:
            self.speaker = first

    def _speaker_after(self, seat: int) -> int:
        """The next seat clockwise that may call, stopping before the Magicien (PTI-7)."""
        n, m = self.players, self.magician
        s = seat + 1 if seat + 1 < n else 0
        if not self.dealt_tokens:
            return NO if s == m else s
        tokens = self.challenge_tokens
        while s != m:
            if tokens[s]:
                return s
            s = s + 1 if s + 1 < n else 0
        return NO

    def play_ok(self) -> None:
        """`say_ok`: the speaker lets it go; the next seat that may call speaks."""
        seat = self.speaker
        if self.every_turn:
            self.watch.passed(self, seat)
        after = self._speaker_after(seat)
        if after < 0:
            self.play_close()
        else:
            self.speaker = after

    def play_close(self) -> None:
        """Everyone said OK: on to the announce (PHI-2's window 1) or the placement."""
        self.open = 0
        self.speaker = NO
        if self.announced < 0:  # PHI-2: after window 1 comes the announce
            self.phase = ANNOUNCE
            return
        m, spot = self.magician, self.spot
        unit = UNIT[self.holding]
        self.hats[spot] += unit
        self.occupied |= 1 << spot
        if self.masque:
            self.secret[spot] += unit << (SEAT_BITS * m)  # only the Magicien saw it
        else:
            self.seen[spot] += unit  # shown (PTI-4)
        if self.every_turn:
            self.watch.placed(self)
        self.holding = NO
        self._end_turn()

    def play_call(self, seat: int, challenge: int) -> None:
        """PTI-8, PTI-9, PHI-3, PHI-4: the call is settled at once."""
        m, spot = self.magician, self.spot
        unit = UNIT[self.holding]
        if challenge == DOUBLON:
            hat = self.hats[spot]
            success = hat != 0
            self.watch.settled(self, seat, challenge, success, hat)
            if success:  # the Magicien takes back every token of that hat, keeps their own
                self.hands[m] += hat + unit
                self.hats[spot] = 0
                self.occupied &= ~(1 << spot)
            self.seen[spot] = self.secret[spot] = 0  # lifted: empty either way
        else:
            success = self.holding != self.announced
            self.watch.settled(self, seat, challenge, success, NO)
            if success:  # the Magicien keeps the token
                self.hands[m] += unit
        self.holding = NO
        self.open = 0
        self.speaker = NO
        if not success:  # the token goes to the Challenger, who pays a Challenge token
            self.hands[seat] += unit
            if self.dealt_tokens:
                self.challenge_tokens[seat] -= 1
                self.challenge_tokens[m] += 1
            self._end_turn()
            return
        if not self.reward:  # PHI-5
            self._end_turn()
            return
        if self.hands[seat] or self.challenge_tokens[m] > 0:  # PTI-10: the Challenger chooses
            self.phase = REWARD
            self.challenger = seat
            return
        self.watch.rewarded(self, seat, "none", NO, NO)
        self._end_turn()

    def play_drop(self, spot: int, kind: int) -> None:
        """`drop_reward`: the Challenger's `kind`, shown, into hat `spot`."""
        seat = self.challenger
        unit = UNIT[kind]
        self.hands[seat] -= unit
        self.hats[spot] += unit
        self.occupied |= 1 << spot
        self.seen[spot] += unit
        self.watch.rewarded(self, seat, "drop", kind, spot)
        self._end_turn()

    def play_token(self) -> None:
        """`take_token`: a Challenge token from the Magicien to the Challenger."""
        seat = self.challenger
        self.challenge_tokens[self.magician] -= 1
        self.challenge_tokens[seat] += 1
        self.watch.rewarded(self, seat, "token", NO, NO)
        self._end_turn()

    def play_swap(self, pair: int) -> None:
        """`swap`: the hats of `pairs[pair]` exchanged."""
        a, b = self.pairs[pair]
        hats, seen, secret = self.hats, self.seen, self.secret
        hats[a], hats[b] = hats[b], hats[a]
        seen[a], seen[b] = seen[b], seen[a]
        secret[a], secret[b] = secret[b], secret[a]
        occupied = self.occupied
        if (occupied >> a ^ occupied >> b) & 1:
            self.occupied = occupied ^ (1 << a | 1 << b)
        self.swapped = pair
        self.watch.swapped(self, a, b)

    def play_reveal(self, line: int) -> None:
        """PTI-11: the three hats of a line lifted; PTI-12: a win, and maybe the game."""
        a, b, c = self.lines[line]
        hats, seen, secret = self.hats, self.seen, self.secret
        pick = PICK[MASK[hats[a]] | MASK[hats[b]] << 3 | MASK[hats[c]] << 6]
        self.watch.revealed(self, line, pick)
        seen[a], seen[b], seen[c] = hats[a], hats[b], hats[c]  # seen by all
        secret[a] = secret[b] = secret[c] = 0
        if pick is None:  # PTI-11: the hats go back unchanged; a swap stays
            self._end_turn()
            return
        m = self.magician
        self.victories[m] += 1
        self.watch.manche_won(self, m)
        if self.victories[m] >= VICTORIES_TO_WIN:  # PTI-1, PTI-12
            self.phase = OVER
            self.winner = m
            self.watch.game_won(self, m)
            return
        self._new_manche(m if self.winner_starts else (m + 1) % self.players)

    # -------------------------------------------------------------- turns and manches

    def _end_turn(self) -> None:
        """The seat on the Magicien's left becomes Magicien (never the Challenger's left);
        PTI-15: a manche nobody can win any more is void."""
        m = self.magician + 1
        if m == self.players:
            m = 0
        self.magician = m
        self.turn += 1
        if m == self.starter:  # PTI-4: a tour de table is complete, the token flips
            self.tour += 1
            self.masque = not self.visible_turns or self.tour % 2 == 1
        self.spot = self.announced = self.challenger = self.swapped = self.holding = NO
        self.open = 0
        self.speaker = NO
        hands = self.hands
        if self.turn_limit and self.turn >= self.turn_limit:
            self._void(True)
        elif any(hands) or still_winnable(tuple(sorted(MASK[h] for h in self.hats if h))):
            self.phase = PLACE if hands[m] else REVEAL  # PTI-5
            if self.every_turn:
                self.watch.turn_started(self)
        else:
            self._void(False)

    def _void(self, limit: bool) -> None:
        """PTI-15: dealt again, the same Magicien starts."""
        self.watch.manche_void(self, limit)
        self._new_manche(self.magician)

    def _new_manche(self, starter: int) -> None:
        """PTI-12: hats emptied, everything dealt again, the token back to Masqué."""
        n, spots = self.players, self.spots
        self.manche += 1
        self.starter = self.magician = starter
        self.tour = 1
        self.masque = True
        self.turn = 0
        self.hats = [0] * spots
        self.seen = [0] * spots
        self.secret = [0] * spots
        self.occupied = 0
        self.hands = [FULL] * n
        self.challenge_tokens = [self.dealt_tokens] * n
        self.spot = self.announced = self.challenger = self.swapped = self.holding = NO
        self.open = 0
        self.speaker = NO
        self.phase = PLACE
        self.watch.manche_started(self)
        self.watch.turn_started(self)


def action_of(
    tables: LayoutTables, names: tuple[str, ...], phase: Phase, seat: int, code: int
) -> Action:
    """The engine's action of a legal `code` in `phase`, decided by `seat` (as
    `Board.deciding` says), on a layout's `tables`, the kinds named `names`."""
    if phase is WINDOW:
        if not code:
            return Pass(seat) if seat >= 0 else CloseWindow()
        return Call(code >> 2, CHALLENGES[code & 3][0])
    if phase is PLACE:
        return Designate(seat, code // 3 + 1, names[code % 3])
    if phase is ANNOUNCE:
        return Announce(seat, names[code])
    if phase is REVEAL:
        lines = len(tables.lines)
        if code < lines:
            x, y, z = tables.lines[code]
            return Reveal(seat, (x + 1, y + 1, z + 1))
        a, b = tables.pairs[code - lines]
        return Swap(seat, a + 1, b + 1)
    if phase is REWARD:
        if not code:
            return RewardToken(seat)
        return RewardDrop(seat, names[(code - 1) % 3], (code - 1) // 3 + 1)
    raise ValueError(f"no action in phase {phase}")


__all__ = [
    "ANNOUNCE", "BITS", "CHALLENGES", "DOUBLON", "MENTEUR", "NO", "OVER", "PLACE", "REVEAL",
    "REWARD", "SIZE", "UNWATCHED", "WINDOW", "Board", "Watcher", "action_of",
]  # fmt: skip
