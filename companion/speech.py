"""What the table says aloud: the moments that matter, in the table's language.

Players look at the table, not at a 128x64 screen across it: whose turn it is, a verdict
(a challenge's outcome, a claim, a point), a fault and its fix, the end. Each is said in
one or two short sentences built from what is already public, the referee's events and
its screen (the OLED's words, `companion/screens/text.py`, and the transcript's,
`companion/transcript.py`), so nothing said can be a hidden fact (no tag, nothing under a
hat, no secret card): what the OLED and the transcript may show, the voice may say.

A game says which of its events are worth saying, and how, through its voice (its
descriptor's `Game.voice`, asked of the registry by the game's name, so a path that never
loaded one of the game's modules says its lines alike); this module knows no game and
says the lines every game shares: a won game, a fault the game has no sentence for, the
table fixed. `Speaker` follows one referee and hands each input's sentences,
joined into one announcement, to the Sound port (`companion/devices/sound.py`), which
never speaks over itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion import games
from companion.contract.game import Game, Sayer, Turn, Voice
from companion.referee.event_log import TableEvent
from companion.screens.text import check_lang
from companion.transcript import shared_line

if TYPE_CHECKING:
    from companion.contract.game import TableReferee
    from companion.devices.sound import Sound

__all__ = ["Speaker", "Turn", "Voice", "announcement", "fix", "line", "opening",
           "prompted_turn", "sentence"]  # fmt: skip

_LINES: dict[str, dict[str, str]] = {
    "fr": {"fixed": "Le jeu reprend.", "turn": "À toi, {s}."},
    "en": {"fixed": "Play goes on.", "turn": "Your turn, {s}."},
}
"""The shared spoken lines: the table fixed after a fault, and whose turn it is (a game's
voice may use it for its turns)."""


def prompted_turn(ends: frozenset[str], prompts: frozenset[str]) -> Turn:
    """The `Turn` of a game whose screen's prompt names the seat to play (its ``seat``
    parameter) when it is one of `prompts` (values of its prompts' ``say``): that seat,
    after an input that made one of the events `ends`."""

    def turn(events: Sequence[TableEvent], screen: object) -> int | None:
        prompt = getattr(screen, "prompt", None)
        if prompt is None or str(getattr(prompt, "say", "")) not in prompts:
            return None
        if not any(event["kind"] in ends for event in events):
            return None
        seat = dict(getattr(prompt, "params", ())).get("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    return turn


def line(key: str, lang: str, **fields: object) -> str:
    """A shared spoken line (``fixed``, ``turn``) in `lang`, filled in."""
    return _LINES[check_lang(lang)][key].format(**fields)


def sentence(
    event: TableEvent, screen: object, names: Sequence[str], game: str, lang: str
) -> str | None:
    """What to say of one event in `lang`: the game's voice, else the shared lines; None
    for an event not worth saying. A game the registry does not know (an old journal's)
    gets the shared lines only."""
    known = games.known(game)
    voice = known.voice if known is not None else None
    said = voice.speak(event, screen, names, lang) if voice is not None else None
    if said is not None:
        return said or None
    kind = event["kind"]
    if kind == "fixed":
        return line("fixed", lang)
    if kind == "fault" and known is not None and known.say is not None:
        fixed = fix(event, screen, names, lang, known.say)
        if fixed is not None:
            return fixed
    if kind in ("game_won", "fault"):
        own = known.engine_words if known is not None else None
        text = shared_line(event, names, lang, engine_words=own)
        return None if text is None else _sentence(text)
    return None


def fix(
    event: TableEvent, screen: object, names: Sequence[str], lang: str, say: Sayer
) -> str | None:
    """A fault's sentence as its STOP screen says it, the place, what is wrong and the
    fix ("Chapeau 3 : un animal en trop. Retire-le."): the screen's prompt, said by its
    game (`say`, its descriptor's), when it is the prompt of this fault (a game's fault
    event names its prompt as `reason`); None when the screen shows something else (a
    notice over it for a moment)."""
    prompt = getattr(screen, "prompt", None)
    if prompt is None or str(getattr(prompt, "say", "")) != event.get("reason"):
        return None
    return say(prompt, names, lang, screen)


def announcement(
    events: Sequence[TableEvent], screen: object, names: Sequence[str], game: str, lang: str
) -> str | None:
    """The sentences of one input's events, in order, then whose turn it is (the game's
    `Turn`), joined into one announcement (so a newer one never replaces a part of it),
    each said once; None when none is worth saying."""
    texts = [sentence(event, screen, names, game, lang) for event in events]
    turn = _turn(games.known(game))
    seat = turn(events, screen) if turn is not None and events else None
    if seat is not None:
        texts.append(line("turn", lang, s=names[seat] if 0 <= seat < len(names) else "?"))
    said: list[str] = []
    for text in texts:
        if text and text not in said:
            said.append(text)
    return " ".join(said) or None


def opening(screen: object, names: Sequence[str], game: str, lang: str) -> str | None:
    """What the table says as a game starts, before any input (no event says it): the
    screen's instruction (its prompt, as the OLED words it:
    "Bob, glisse un animal dans un chapeau.", said by the game's `say`), else whose turn it
    is (the game's `Turn` given no events)."""
    known = games.known(game)
    prompt = getattr(screen, "prompt", None)
    if prompt is not None and known is not None and known.say is not None:
        return known.say(prompt, names, lang, screen)
    turn = _turn(known)
    seat = turn((), screen) if turn is not None else None
    if seat is None:
        return None
    return line("turn", lang, s=names[seat] if 0 <= seat < len(names) else "?")


def _turn(game: Game | None) -> Turn | None:
    """The game's turns, if its voice says them."""
    return game.voice.turn if game is not None and game.voice is not None else None


def _sentence(text: str) -> str:
    """A line as a spoken sentence: a capital first, a stop at the end."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class Speaker:
    """Follows one referee: `start` says how a game that has had no event yet begins,
    `hear` after each input says its new events' announcement. What the game made before
    the speaker started (a resumed game's history) is not said."""

    def __init__(self, referee: TableReferee, sound: Sound) -> None:
        self.referee = referee
        self.sound = sound
        self.seen = len(referee.events)

    def start(self) -> str | None:
        """A game with no event yet: say how it begins (whose turn, or what to do first);
        a game under way: nothing (its history is not said again). The text, or None."""
        referee = self.referee
        if referee.events:
            return None
        setup = referee.setup
        text = opening(referee.screen, referee.names, setup.game, setup.language)
        if text is not None:
            self.sound.say(text, referee.now, setup.language)
        return text

    def hear(self) -> str | None:
        """Say what the events since the last call make worth saying; the announcement
        (or None)."""
        referee = self.referee
        events = referee.events[self.seen :]
        self.seen = len(referee.events)
        if not events:
            return None
        setup = referee.setup
        text = announcement(events, referee.screen, referee.names, setup.game, setup.language)
        if text is not None:
            self.sound.say(text, referee.now, setup.language)
        return text
