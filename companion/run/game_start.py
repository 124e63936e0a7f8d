"""Starting the game: resume the data directory's journal, or set up a new game.

Resume. ``run --resume`` (the systemd unit always passes it) replays the journal of the
data directory (once, up to any damage: `journal_file.recover`), waits up to
``readers.resume_wait`` seconds for the readers' first report and records a ``resume``
input with what they see, then goes on live; the OLED shows where the game stands, and
for a few seconds first that the journal was damaged, if it was. Without a journal, or
when its game is over (the old journal is moved to ``archive/``, with or without
``--resume``), a new game starts with the config's game, seats and first player; a live
simulated input (a FIFO, stdin) on the real clock starts it at once, before its first
line, so the page and the pairing code are there before anyone types.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import queue
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import menu as power_on
from companion.config.model import Config
from companion.devices.readers import SpotContents
from companion.games import get as get_game
from companion.journal import Setup, new_game_id
from companion.run.items import Inbox, ScriptSetup, Tick
from companion.run.journal_file import (
    archive,
    archive_finished,
    clear_torn_setup,
    in_the_way,
    journal_live,
    take_note,
    take_recovered,
)
from companion.run.loop import where
from companion.run.sim_input import live_input
from companion.session import Replayed, Session, replay
from companion.web.virtual import virtual_setup

log = logging.getLogger("companion")


def open_session(
    config: Config,
    args: argparse.Namespace,
    data_dir: Path,
    inbox: Inbox,
    sim: bool,
    choice: power_on.Result | None = None,
    known: Mapping[int, frozenset[str]] | None = None,
) -> tuple[Session, list[Any]]:
    """Resume the journal or start a new game; also the queue items taken meanwhile.
    ``choice``: what the power-on menu chose (None: no menu, today's start); ``known``:
    what the readers reported during the menu."""
    path = data_dir / config.journal_path.name
    resume = args.resume if choice is None else isinstance(choice, power_on.Resume)
    if resume:
        clear_torn_setup(path)
    if resume and journal_live(path):
        resumed = _resume(path, config, inbox, sim, known)
        if resumed is not None:
            return resumed
    elif journal_live(path):
        over = finished_game(path)
        if over is not None:
            archive_over(over, config)
        elif isinstance(choice, power_on.NewGame):
            log.info("a new game was chosen: the unfinished journal moved to %s", archive(path))
        else:
            raise in_the_way(path)
    setup, pending = _new_setup(config, args, data_dir, inbox, sim, choice)
    setup = dataclasses.replace(setup, id=new_game_id())  # the club's id of this game
    session = Session.start(path, setup)
    damage = take_note(path)
    if damage is not None:  # the journal's setup was damaged: say so on the OLED
        session.show_damage(damage)
    log.info(
        "new game in %s: %s, seats %s, seed %d",
        path,
        setup.game,
        ", ".join(setup.seats),
        setup.seed,
    )
    return session, pending


def finished_game(path: Path) -> Replayed | None:
    """The journal's game, replayed, when it is over, else None (a game still on, or a
    journal that cannot be replayed as it is: never a new game over it)."""
    try:
        replayed = replay(path)
    except (ValueError, OSError):  # JournalError and its kin: a damaged journal is kept
        return None
    return replayed if replayed.referee.finished else None


def archive_over(replayed: Replayed, config: Config) -> None:
    """Archive a finished game's journal (its result kept for the club first, with
    [club]: `archive_finished`), saying so in the log."""
    where_over = where(replayed.referee)
    moved = archive_finished(replayed, config.club)
    log.info("the journal's game is over (%s); moved to %s", where_over, moved)


def _resume(
    path: Path,
    config: Config,
    inbox: Inbox,
    sim: bool,
    known: Mapping[int, frozenset[str]] | None,
) -> tuple[Session, list[Any]] | None:
    """The journal's game resumed with what the readers see (and the queue items taken
    meanwhile); None when that game is over (its journal is archived). The journal is
    read once (`take_recovered`), up to any damage, which the OLED then shows."""
    replayed = take_recovered(path)
    referee = replayed.referee
    if referee.finished:
        archive_over(replayed, config)
        return None
    table: dict[int, frozenset[str]] | None = None
    pending: list[Any] = []
    if not sim and config.readers.kind != "none":
        table, pending = _table_now(inbox, referee.spots, known, config.readers.resume_wait)
    session = Session.go_live(replayed, table or None)
    log.info("resumed %s: %s", path, where(session.referee))
    return session, pending


def _table_now(
    inbox: Inbox,
    spots: int,
    known: Mapping[int, frozenset[str]] | None,
    seconds: float,
) -> tuple[dict[int, frozenset[str]], list[Any]]:
    """What every spot holds: what the menu already saw, then the readers' first report
    for the others (see `wait_for_table`)."""
    table = {s: u for s, u in (known or {}).items() if s <= spots}
    pending: list[Any] = []
    if len(table) < spots + 1:
        waited, pending = wait_for_table(inbox, spots, seconds)
        table.update(waited)
    log.info("readers reported %d of %d spots before resuming", len(table), spots + 1)
    return table, pending


def wait_for_table(
    inbox: Inbox, spots: int, seconds: float
) -> tuple[dict[int, frozenset[str]], list[Any]]:
    """The readers' first report after a restart: (spot -> uids, the other items in order).
    Returns once every spot 0..N reported or after ``seconds``."""
    table: dict[int, frozenset[str]] = {}
    others: list[Any] = []
    deadline = time.monotonic() + seconds
    while len(table) < spots + 1:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            item = inbox.get(timeout=min(left, 0.1))
        except queue.Empty:
            continue
        if isinstance(item, SpotContents):
            table[item.reader] = item.uids
        elif not isinstance(item, Tick):
            others.append(item)
    return table, others


def _new_setup(
    config: Config,
    args: argparse.Namespace,
    data_dir: Path,
    inbox: Inbox,
    sim: bool,
    choice: power_on.Result | None,
) -> tuple[Setup, list[Any]]:
    """The new game's setup: the menu's choice, else the simulated input's first line
    when it is a setup, else the config's; and the queue item read to find out, if any."""
    if isinstance(choice, power_on.NewGame):
        return new_setup(chosen_config(config, choice), load_tags(data_dir)), []
    if getattr(args, "virtual", False):  # nothing enrolled: the kit's tags are made up
        setup = new_setup(config, {}, warn=False)
        return virtual_setup(setup, get_game(setup.game)), []
    if sim and args.sim_input and not _starts_at_once(args):
        first = inbox.get()
        if isinstance(first, ScriptSetup):
            return first.setup, []
        return new_setup(config, load_tags(data_dir)), [first]
    return new_setup(config, load_tags(data_dir)), []


def _starts_at_once(args: argparse.Namespace) -> bool:
    """Does the new game start before the simulated input's first line? Yes for a live
    input (a FIFO, stdin: its first line may come much later) on the real clock; a file,
    or a script whose ``t`` is the clock, gives its first line (a setup, maybe) first."""
    return args.sim_clock != "script" and live_input(args.sim_input)


def chosen_config(config: Config, choice: power_on.NewGame) -> Config:
    """The config with the menu's game, seats and first player (the config's own layout
    and rules only if they were made for that game and number of seats)."""
    g = config.game
    same = choice.game == g.name and len(choice.seats) == len(g.seats)
    game = dataclasses.replace(
        g,
        name=choice.game,
        seats=choice.seats,
        first=choice.first,
        settings={k: v for k, v in g.settings.items() if same or k != "layout"},
        rules=g.rules if same else None,
    )
    return dataclasses.replace(config, game=game)


def new_setup(
    config: Config, tags: Mapping[str, str], seed: int | None = None, warn: bool = True
) -> Setup:
    """The setup of a new game of the config's game, seats and rules, with the enrolled
    tags that belong to it and a seed (the config's, else a new one). ``warn``: say so in
    the log when no enrolled tag belongs to the game."""
    g = config.game
    kinds = {kind for _, kind in get_game(g.name).tokens(len(g.seats), g.rules)}
    own = {uid: kind for uid, kind in tags.items() if kind in kinds}
    if kinds and not own and warn:  # a game played on the page has no tokens to enrol
        log.warning("no enrolled tag belongs to %s: enrol the tokens (companion enroll)", g.name)
    if seed is None:
        seed = g.seed if g.seed is not None else random.SystemRandom().randrange(2**31)
    return Setup(
        game=g.name,
        seats=g.seats,
        tags=own,
        first=g.first,
        seed=seed,
        settle=g.settle,
        language=g.language,
        rules=get_game(g.name).setup_rules(g.settings, g.rules),
    )


def load_tags(data_dir: Path) -> Mapping[str, str]:
    """The tags `companion enroll` recorded in the data directory (none, logged, when its
    registry cannot be read)."""
    from companion.devices.registry import RegistryError, TagRegistry

    try:
        registry = TagRegistry(data_dir)
    except RegistryError as exc:
        log.error("%s", exc)
        return {}
    log.info("%d enrolled tag(s) in %s", len(registry), registry.path)
    return dict(registry)
