"""PtiPassPass and PhiPassPass, as the runtime knows them: two `Game` descriptors over one
engine (`companion/games/passpass/rules/`), one referee, one set of screens, bots and one
simulated table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import IO, TYPE_CHECKING, Any

from companion.contract.game import joined
from companion.games import Button, Facts, Game, Renderer, RuleOption, TokenFamily
from companion.games.passpass import facts, words
from companion.games.passpass.page import page_view
from companion.games.passpass.rules import ENGINES, RULESETS, RuleSet, make_config
from companion.games.passpass.rules.layouts import Layout, LayoutError
from companion.games.passpass.table_settings import SETUP_FIELDS, TABLE_SETTINGS, layout_refused
from companion.games.passpass.table_settings import WORDS as SETTINGS_WORDS
from companion.games.passpass.tokens import FAMILY
from companion.games.passpass.transcript import ENGINE_WORDS, describer
from companion.games.passpass.voice import VOICE
from companion.journal import Setup
from companion.options import whole_number
from companion.rules.errors import RuleError

if TYPE_CHECKING:  # the referee is imported when a game starts, not at registry load
    from companion.games.passpass.referee import PassPassReferee

BUTTONS = (
    Button("doublon", {"fr": "Doublon", "en": "Doublon"}, (4, 17, 27, 22, 5, 6)),
    Button("menteur", {"fr": "Menteur", "en": "Menteur"}, (14, 15, 18, 23, 24, 25)),
)
"""Each seat's two call buttons: "Doublon !" and "Menteur !"."""


def _layout(layout: Mapping[str, Any] | None) -> Layout | None:
    return Layout.from_json(layout) if layout else None


TURN_LIMIT = RuleOption(
    "--turn-limit",
    "turn_limit",
    whole_number(1),
    "passpass.cli.turn_limit",
)


def own_layout(layout: Mapping[str, Any]) -> None:
    """PTI-2: a table's own hat positions ([game.layout]), when not the book's grid."""
    try:
        Layout.from_json(layout)
    except LayoutError as exc:
        raise layout_refused(exc, fix=True) from None


def screens() -> Mapping[type, Renderer]:
    """Its screen kinds and how each is drawn (its screens module, imported with the first
    one drawn)."""
    from companion.games.passpass.screens import SCREENS

    return SCREENS


def _descriptor(rules: RuleSet, shown: Facts, default_seats: int) -> Game:
    name = rules.name

    def check(seats: int, first: int, layout: Mapping[str, Any] | None) -> None:
        try:
            make_config(name, seats, first=first, layout=_layout(layout))
        except (RuleError, ValueError) as exc:
            raise ValueError(str(exc)) from exc

    def spots(seats: int, layout: Mapping[str, Any] | None) -> int:
        return make_config(name, seats, layout=_layout(layout)).layout.spots

    def mat(seats: int, layout: Mapping[str, Any] | None) -> tuple[tuple[int, int], ...]:
        return make_config(name, seats, layout=_layout(layout)).layout.positions

    def tokens(
        seats: int, own_rules: Mapping[str, Any] | None = None
    ) -> Sequence[tuple[int | None, str]]:
        """Each seat's one token of each kind (PTI-1, PHI-1), whatever the own rules."""
        return [(seat, f"{FAMILY[name]}:{t}") for seat in range(seats) for t in rules.tokens]

    def referee(setup: Setup) -> PassPassReferee:
        from companion.games.passpass.referee import PassPassReferee

        return PassPassReferee(setup)

    def simulated_setup(seats: int, seed: int, **options: Any) -> Setup:
        from companion.games.passpass.sim import make_setup

        return make_setup(name, seats, seed, **options)

    def simulate(setup: Setup, on_input: Any = None, bots: list[str] | None = None,
                 **options: Any) -> Any:  # fmt: skip
        from companion.games.passpass.sim import SimulatedGame

        return SimulatedGame(setup, bots=bots, on_input=on_input, **options).run()

    def console(session: Any, lines: Any, out: IO[str], lang: str) -> int:
        from companion.games.passpass.console import run_console

        echo = not getattr(lines, "isatty", lambda: False)()
        return run_console(session, lines, out, lang, echo=echo)

    def lab() -> Any:
        from companion.games.passpass.lab import LABS

        return LABS[name]

    def virtual(setup: Setup) -> Any:
        from companion.games.passpass.virtual import make_kit

        return make_kit(setup)

    from companion.games.passpass.bots import BOTS

    return Game(
        **shown.fields(),
        default_seats=default_seats,
        referee=referee,
        check=check,
        spots=spots,
        tokens=tokens,
        simulated_setup=simulated_setup,
        simulate=simulate,
        bots=tuple(BOTS),
        console=console,
        describe=describer(name),
        engine_words=ENGINE_WORDS,
        words=words.PHRASES,
        console_words=joined(words.CLI_WORDS, words.TOKEN_NAMES, SETTINGS_WORDS, words.SETUP_WORDS),
        say=words.prompt_said,
        screens=screens,
        voice=VOICE,
        controls=("announce", "doublon", "menteur", "choose", "aim", "back"),
        token_families=(TokenFamily.of_words(FAMILY[name], rules.tokens, named=words.TOKEN_NAME),),
        buttons=BUTTONS,
        lab=lab,
        engine=ENGINES[name],
        own_layout=own_layout,
        mat=mat,
        selfplay_options=(TURN_LIMIT,),
        setup_fields=SETUP_FIELDS,
        table_settings=TABLE_SETTINGS,
        page_view=page_view,
        page_assets=resources.files("companion.games.passpass") / "static",
        virtual=virtual,
    )


PTIPASSPASS = _descriptor(RULESETS["ptipasspass"], facts.PTIPASSPASS, 4)
PHIPASSPASS = _descriptor(RULESETS["phipasspass"], facts.PHIPASSPASS, 3)
