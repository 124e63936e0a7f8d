"""Restricted play: what a strategic element is worth to a player (Jaffe et al., "Evaluating
competitive game balance with restricted play", AIIDE 2012).

A variants file's ``[restricted]`` table names a thinking bot and the elements to weigh:

    [restricted]
    agent = "mcts:30"
    restrictions = ["never-bluff"]
    games = 200            # deals

An element's worth is what an agent forbidden it loses against the same agent free to use
it. For each deal (game number i of the seed: the same cards, the same first player), the
restricted agent plays every seat in turn, the free agent at every other seat (both
seatings, for two players), and the free agent plays the deal at every seat (the baseline).
Every restriction plays the same deals (paired seeds): what differs from one to another is
the restriction, never the luck of the deal. A deal's worth is the free agent's mean share
of the win at a seat less the restricted agent's mean share over its seatings; the
element's worth is its mean over the deals, with Student's t interval. The intervals of
one file's k restrictions hold together (Bonferroni: each at 1 - 5 %/k), so a file that
weighs many elements is not more likely to show one that is worth nothing as worth
something.

A negative worth (the agent wins more when forbidden the element) says that this bot uses
the element badly, not that the element harms the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.cli_words import numeral
from companion.lab.mcts import parse_kind
from companion.lab.model import Variant
from companion.lab.stats import Estimate, mean_t, two_sided_z, wilson
from companion.lab.tally import Tally
from companion.lab.variants import (
    VariantError,
    distinct_names,
    load_lab,
    parse_variants,
    read_study,
)
from companion.lab.words import shown
from companion.report_words import RESTRICTED_SAYS

KEYS = ("agent", "restrictions", "games", "game", "players", "seed", "rules")
DEALS = 100
"""Deals a restriction plays when the file does not say (each at every seat)."""
MIN_DEALS = 20
"""Below this many deals a worth is not told either way (Student's interval of a mean of
such few bounded values is not to be trusted)."""
FAMILY = 0.05
"""The chance, over all of a file's restrictions together, that an interval misses."""


@dataclass(frozen=True)
class Restricted:
    """The restrictions to weigh, and the games that weigh them as variants."""

    game: str
    players: int
    agent: str
    restrictions: tuple[str, ...]
    meanings: tuple[str, ...]
    """What each restricted agent may not do, in words."""
    baseline: Variant
    """The free agent at every seat."""
    seatings: tuple[tuple[int, int, Variant], ...]
    """(restriction number, the restricted seat, its variant)."""

    @property
    def variants(self) -> list[Variant]:
        """Every variant to play: the baseline, then each restriction at each seat."""
        return [self.baseline, *(v for _, _, v in self.seatings)]


@dataclass(frozen=True)
class Worth:
    restriction: str
    meaning: str
    share: Estimate
    """The restricted agent's mean share of the win over its seatings, per deal."""
    worth: Estimate
    """The free agent's mean share less the restricted one's, per deal."""


@dataclass(frozen=True)
class RestrictedFigures:
    restricted: Restricted
    worths: tuple[Worth, ...]
    confidence: float
    """Each interval's level (1 - 5 %/k for k restrictions)."""
    luck: float
    """1 / players: a seat's share when the agents are alike."""

    def to_json(self) -> dict[str, Any]:
        r = self.restricted
        return {
            "game": r.game,
            "players": r.players,
            "agent": r.agent,
            "deals": r.baseline.games,
            "confidence": self.confidence,
            "worths": [
                {
                    "restriction": w.restriction,
                    "meaning": w.meaning,
                    "share": w.share.to_json(),
                    "worth": w.worth.to_json(),
                }  # fmt: skip
                for w in self.worths
            ],
        }


def read_restricted(data: Mapping[str, Any], name: str) -> Restricted | None:
    """The file's restricted play (its ``[restricted]`` table, over the file's defaults),
    None when it has none; VariantError naming the key otherwise."""
    found = read_study(data, "restricted", name, KEYS, ("agent", "restrictions"))
    if found is None:
        return None
    table, where, settings = found
    agent = table.get("agent", "mcts:30")
    try:
        spec = parse_kind(agent) if isinstance(agent, str) else None
    except ValueError as exc:
        raise VariantError(where, f"agent: {exc}") from exc
    if spec is None or spec.restriction is not None:
        raise VariantError(where, "agent: a thinking bot, free of restrictions (mcts:N)")
    names = table.get("restrictions")
    if not distinct_names(names, 1):
        raise VariantError(where, "restrictions: one or more different names (docs/lab.md)")
    settings.setdefault("games", DEALS)
    baseline = parse_variants({**settings, "name": f"{agent} at every seat", "bots": [agent]},
                              where)[0]  # fmt: skip
    players = baseline.players
    seatings = []
    for number, restriction in enumerate(names):
        for seat in range(players):
            bots = [agent] * players
            bots[seat] = f"{agent}/{restriction}"
            table_ = {"name": f"{restriction} at seat {seat + 1}", "bots": bots}
            seatings.append((number, seat, parse_variants({**settings, **table_}, where)[0]))
    known = _meanings(baseline.game)
    return Restricted(
        baseline.game, players, agent, tuple(names), tuple(known[n] for n in names),
        baseline, tuple(seatings),
    )  # fmt: skip


def _meanings(game: str) -> Mapping[str, str]:
    load = load_lab(game).thinking
    return {} if load is None else load().restrictions


def figures(
    restricted: Restricted, tallies: Sequence[Tally], family: int | None = None
) -> RestrictedFigures:
    """Each restriction's worth from the ordered tallies of `restricted.variants` (deal by
    deal), in that order; the intervals hold together over `family` intervals (default:
    these restrictions)."""
    n = restricted.players
    baseline, *played = tallies
    free = [sum(deal) / n for deal in zip(*(baseline.wins(s) for s in range(n)), strict=True)]
    k = len(restricted.restrictions)
    confidence = 1 - FAMILY / (family or k)
    own: list[list[list[float]]] = [[] for _ in range(k)]  # per restriction, per seating
    for (number, seat, _), counted in zip(restricted.seatings, played, strict=True):
        own[number].append(counted.wins(seat))
    worths = []
    for number, seatings in enumerate(own):
        shares = [sum(deal) / n for deal in zip(*seatings, strict=True)]
        gains = [f - s for f, s in zip(free, shares, strict=True)]
        share, worth = mean_t(shares, confidence), mean_t(gains, confidence)
        if worth.low == worth.high or share.low == share.high:
            share, worth = _alike(shares, free, n, confidence)
        base = sum(free) / len(free)  # the bounds of a share, 0 and 1, bound the worth too
        share = Estimate(share.value, max(0.0, share.low), min(1.0, share.high), share.n)
        worth = Estimate(worth.value, max(base - 1, worth.low), min(base, worth.high), worth.n)
        worths.append(Worth(restricted.restrictions[number], restricted.meanings[number],
                            share, worth))  # fmt: skip
    return RestrictedFigures(restricted, tuple(worths), confidence, 1 / n)


def _alike(
    shares: Sequence[float], free: Sequence[float], players: int, confidence: float
) -> tuple[Estimate, Estimate]:
    """Every deal gave the same (the restricted agent lost them all, say): no spread to
    measure, so the share's interval is Wilson's over the games, and the worth's follows."""
    games = len(shares) * players
    share = wilson(sum(shares) * players, games, two_sided_z(confidence))
    base = sum(free) / len(free)
    worth = Estimate(base - share.value, base - share.high, base - share.low, len(shares))
    return Estimate(share.value, share.low, share.high, len(shares)), worth


def _say(key: str, /, **fields: object) -> str:
    return RESTRICTED_SAYS.say(key, **fields)


def _points(x: float) -> str:
    return f"{numeral(100 * x, '+.1f')} %"


def _percent(x: float) -> str:
    return f"{numeral(100 * x, '.1f')} %"


def worth_text(w: Worth) -> str:
    e = w.worth
    return f"{_points(e.value)} [{_points(e.low)}, {_points(e.high)}]"


def sentence(w: Worth, f: RestrictedFigures) -> str:
    """What a worth says, in one sentence (a negative one: about the bot, not the game)."""
    e, s = w.worth, w.share
    head = _say("head", restriction=w.restriction, meaning=shown(w.meaning), n=e.n,
                share=100 * s.value, luck=100 * f.luck, worth=worth_text(w))  # fmt: skip
    if e.n < MIN_DEALS:
        return _say("too_few", head=head, n=e.n, least=MIN_DEALS)
    if e.low > 0:
        return _say("pays", head=head)
    if e.high < 0:
        return _say("negative", head=head)
    return _say("no_worth", head=head, n=e.n, spread=100 * (e.high - e.low) / 2)


def _level(f: RestrictedFigures) -> str:
    k = len(f.worths)
    level = 100 * f.confidence
    return _say("level", level=level) if k == 1 else _say("level_together", level=level, k=k)


def _head(f: RestrictedFigures) -> str:
    from companion.lab.report import game_title

    r = f.restricted
    return _say("title", title=game_title(r.game), players=r.players, agent=r.agent,
                deals=r.baseline.games, level=_level(f))  # fmt: skip


def terminal(f: RestrictedFigures) -> str:
    lines = [_head(f)]
    width = max(len(w.restriction) for w in f.worths)
    for w in f.worths:
        s = w.share
        share = f"{numeral(100 * s.value, '5.1f')} %"
        low, high = numeral(100 * s.low, ".1f"), numeral(100 * s.high, ".1f")
        lines.append("  " + _say("row", restriction=f"{w.restriction:<{width}}", share=share,
                                 low=low, high=high, worth=worth_text(w)))  # fmt: skip
    lines += [f"  {sentence(w, f)}" for w in f.worths]
    return "\n".join(lines)


def html(f: RestrictedFigures) -> str:
    """The report's restricted-play section (an HTML fragment, no script)."""
    from html import escape

    rows = "".join(
        f"<tr><td>{escape(w.restriction)}</td><td>{escape(shown(w.meaning))}</td>"
        f"<td>{_percent(w.share.value)} [{_percent(w.share.low)}, {_percent(w.share.high)}]"
        f"</td><td>{worth_text(w)}</td></tr>"
        for w in f.worths
    )
    told = "".join(f"<li>{escape(sentence(w, f))}</li>" for w in f.worths)
    return (
        f"<section><h2>{escape(_head(f))}</h2><p>{escape(_say('what'))}</p>"
        f"<table><tr><th>{_say('restriction')}</th><th>{escape(_say('agent'))}</th>"
        f"<th>{_say('its_wins')}</th><th>{escape(_say('worth'))}</th></tr>{rows}</table>"
        f"<ul>{told}</ul></section>"
    )


def page(f: RestrictedFigures) -> str:
    """A whole HTML page of restricted play (beside report.html), its style inline."""
    from companion.lab.report import standalone

    return standalone(_say("page"), html(f))
