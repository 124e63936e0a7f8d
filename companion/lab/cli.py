"""The designer's commands: `companion lab`, `companion report` and `companion selfplay`.

All three print a terminal summary; `lab` and `report` also write report.html,
figures.json and figures.csv, by default into the data directory's `reports/` folder,
where the table's web page lists them.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from companion import games
from companion.doc_paths import LAB_DOC
from companion.lab import report as output
from companion.lab.ladder import Ladder, LadderFigures
from companion.lab.model import Variant
from companion.lab.restricted import Restricted, RestrictedFigures
from companion.lab.runner import WORKER_WAIT, ClusterError, default_workers, tally
from companion.lab.summary import VariantFigures, figures_of
from companion.lab.tally import Tally
from companion.lab.variants import (
    VariantError,
    load_lab,
    parse_variants,
    read_toml,
    read_variants,
)
from companion.options import (
    add_config_option,
    add_data_dir_option,
    fail,
    output_folder_problem,
    path_text,
    whole_number,
)

F = TypeVar("F")
REPORTS = "reports"
"""The data directory's folder of reports (the web page serves it)."""


class ProgressBar:
    """`[#######.....]  7,000/10,000 games  3 s left` on stderr, redrawn at most 10 times a
    second (a pipe gets one line at the end only: no carriage-return noise in logs)."""

    def __init__(self, out: TextIO | None = None, what: str = "games") -> None:
        self.out = out or sys.stderr
        self.what = what
        self.start = time.monotonic()
        self.shown = 0.0
        self.live = self.out.isatty()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and (not self.live or now - self.shown < 0.1):
            return
        self.shown = now
        elapsed = now - self.start
        left = elapsed / done * (total - done) if done else 0.0
        bar = "#" * round(30 * done / total)
        tail = f"{left:.0f} s left" if done < total else f"{elapsed:.1f} s"
        line = f"[{bar:<30}] {done:,}/{total:,} {self.what}  {tail}"
        if self.live:
            print(f"\r{line}\033[K", end="\n" if done == total else "", file=self.out, flush=True)
        else:
            print(line, file=self.out, flush=True)


def _print(text: str) -> None:
    """Print the summary; a reader that stopped early (`| head`) is no error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (no second error at exit)


def _reports_dir(args: argparse.Namespace, name: str) -> Path | str:
    """--out, else the data directory's reports/NAME; or what stops us, in words (asked
    before any game is played, so a wrong --out costs no wait)."""
    if args.out:
        problem = output_folder_problem(args.out)
        return Path(args.out) if problem is None else f"--out {problem}"
    from companion.config import load_config
    from companion.config.data_dir import locate_data_dir
    from companion.config.model import ConfigError

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return "config: " + "; ".join(exc.problems)
    folder = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "report"  # a web address
    data = locate_data_dir(config, args.data_dir)
    return data.problem() or data.path / REPORTS / folder


def _write(
    command: str,
    out: Path,
    title: str,
    results: Sequence[VariantFigures],
    sections: Sequence[str] = (),
) -> int:
    _print(output.terminal(results))
    try:
        paths = output.write(out, results, title, sections)
    except OSError as exc:
        return fail(command, f"cannot write the report in {out}: {exc.strerror or exc}")
    _print(f"report: {paths[0]} (figures: {paths[1].name}, {paths[2].name})")
    return 0


# ------------------------------------------------------------------ lab


def lab(args: argparse.Namespace) -> int:
    from companion.lab import ladder as skill
    from companion.lab import restricted as restricted_play

    try:
        variants = read_variants(args.file)
        data = read_toml(args.file)
        ladder = skill.read_ladder(data, str(args.file))
        restricted = restricted_play.read_restricted(data, str(args.file))
    except VariantError as exc:
        return fail("lab", f"{exc} (the format: {LAB_DOC})")
    name = Path(args.file).stem
    out = _reports_dir(args, name)
    if isinstance(out, str):
        return fail("lab", out)
    cluster = Cluster(args.cluster, args.worker_wait)
    sections: list[str] = []
    kept: list[str] = []  # what this run wrote, should a cluster fail
    try:
        if ladder is not None:
            climbed = _climb(out, ladder, args.workers, args.quiet, cluster)
            if isinstance(climbed, int):
                return climbed
            sections.append(skill.html(climbed))
            kept.append("ladder.html")
        if restricted is not None:
            weighed = _weigh(out, restricted, args.workers, args.quiet, cluster)
            if isinstance(weighed, int):
                return weighed
            sections.append(restricted_play.html(weighed))
            kept.append("restricted.html")
        if not variants:
            return 0
        results = play(variants, args.workers, args.quiet, cluster)
        return _write("lab", out, f"Lab: {name}", results, sections)
    except ClusterError as exc:
        return _stopped(exc, out, name, variants, sections, kept)


@dataclass(frozen=True)
class Cluster:
    """`--cluster ADDRESS` and `--worker-wait SECONDS` (no address: this machine's cores)."""

    address: str | None = None
    worker_wait: float = WORKER_WAIT


def _stopped(
    exc: ClusterError,
    out: Path,
    name: str,
    variants: Sequence[Variant],
    sections: Sequence[str],
    kept: list[str],
) -> int:
    """A cluster that failed: the figures done so far written (`kept`: the ladder and
    restricted play already are; the variants finished go in a report that says it
    stopped early), then one line saying what happened, what to do and what was kept."""
    if variants and exc.done:
        results = [figures_of(load_lab(variants[n].game), variants[n], counted)
                   for n, counted in sorted(exc.done.items())]  # fmt: skip
        share = f"{len(results)} of {len(variants)} variants"
        with contextlib.suppress(OSError):
            output.write(out, results, f"Lab: {name} (stopped early: {share})", sections)
            kept.append(f"report.html with {share}")
    said = f"; kept in {out}: {', '.join(kept)}" if kept else "; nothing was finished"
    return fail("lab", f"{exc}{said}")


def _climb(
    out: Path, ladder: Ladder, workers: int | None, quiet: bool, cluster: Cluster
) -> LadderFigures | int:
    """Play the skill ladder's pairings (on a Dask cluster's workers when given one); print
    it; write ladder.html and ladder.json. Its figures (the report's "Skill" section when
    the file also has variants), or the exit status when it cannot write them."""
    from companion.lab import ladder as skill

    pairings = [v for _, _, v in ladder.pairings]
    figures = skill.figures(ladder, _tally(pairings, workers, quiet, cluster))
    _print(skill.terminal(figures))
    return _beside(out, "ladder", skill.page(figures), figures.to_json(), figures)


def _weigh(
    out: Path, restricted: Restricted, workers: int | None, quiet: bool, cluster: Cluster
) -> RestrictedFigures | int:
    """Play restricted play's deals; print what each element is worth; write
    restricted.html and restricted.json (or the exit status when they cannot be written)."""
    from companion.lab import restricted as restricted_play

    deals = _tally(restricted.variants, workers, quiet, cluster, ordered=True)
    figures = restricted_play.figures(restricted, deals)
    _print(restricted_play.terminal(figures))
    return _beside(out, "restricted", restricted_play.page(figures), figures.to_json(), figures)


def _beside(out: Path, stem: str, page: str, data: dict[str, Any], figures: F) -> F | int:
    """Write STEM.html and STEM.json in `out`: the figures, or the exit status."""
    import json

    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{stem}.html").write_text(page, encoding="utf-8")
        (out / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return fail("lab", f"cannot write the {stem} figures in {out}: {exc.strerror or exc}")
    _print(f"{stem}: {out / f'{stem}.html'} (figures: {stem}.json)")
    return figures


def _tally(
    variants: Sequence[Variant],
    workers: int | None,
    quiet: bool,
    cluster: Cluster,
    ordered: bool = False,
) -> list[Tally]:
    """Every variant's games on every core (or a Dask cluster's workers), tallied there."""
    return tally(variants, workers, None if quiet else ProgressBar(), cluster.address,
                 cluster.worker_wait, ordered)  # fmt: skip


def play(
    variants: Sequence[Variant],
    workers: int | None,
    quiet: bool,
    cluster: Cluster = Cluster(),
    samples: bool = False,
) -> list[VariantFigures]:
    """Every variant's games on every core (or a Dask cluster's workers), tallied there and
    summarized (`samples`: each figure with its games' values, for a test against them)."""
    tallies = _tally(variants, workers, quiet, cluster, ordered=samples)
    return [figures_of(load_lab(v.game), v, t) for v, t in zip(variants, tallies, strict=True)]


# ------------------------------------------------------------------ report


def report(args: argparse.Namespace) -> int:
    from companion.journal import JournalError
    from companion.lab.journals import report as journal_report
    from companion.referee.pace import SetupError

    paths = _journal_paths(args.journals)
    if isinstance(paths, str):
        return fail("report", paths)
    out = _reports_dir(args, args.name)
    if isinstance(out, str):
        return fail("report", out)
    variants: list[Variant] = []
    if args.against:
        try:
            variants = read_variants(args.against)
        except VariantError as exc:
            return fail("report", f"--against {exc} (the format: {LAB_DOC})")
    try:
        results = journal_report(paths, None if args.quiet else ProgressBar(what="journals"))
    except OSError as exc:
        return fail("report", f"cannot read {exc.filename}: {exc.strerror or exc}")
    except (JournalError, SetupError, ValueError) as exc:
        return fail("report", str(exc))
    if variants:
        from companion.lab.against import beside

        results = beside(results, play(variants, args.workers, args.quiet, samples=True))
    return _write("report", out, f"Playtest: {args.name}", results)


def _journal_paths(given: Sequence[str]) -> list[Path] | str:
    """The journals named, a folder standing for the *.jsonl files in it (archive/)."""
    paths: list[Path] = []
    for name in given:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.rglob("*.jsonl"))
            if not found:
                return f"{path} holds no journal (*.jsonl)"
            paths += found
        elif path.exists():
            paths.append(path)
        else:
            return f"{path}: no such file"
    return paths


# ------------------------------------------------------------------ selfplay


def selfplay(args: argparse.Namespace) -> int:
    """One variant from the command line, its terminal summary only."""
    players = args.players or games.get(args.game).default_seats
    problem = games.players_problem(args.game, players)
    if problem:
        return fail("selfplay", problem)
    table: dict[str, Any] = {"game": args.game, "games": args.games, "seed": args.seed}
    table["players"] = players
    if args.bots:
        kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
        table["bots"] = [kinds[i % len(kinds)] for i in range(players)] if kinds else []
    rules = dict(args.rule or [])
    for option in games.get(args.game).selfplay_options:
        if getattr(args, option.dest) is not None:
            rules[option.rule] = getattr(args, option.dest)
    table["rules"] = rules
    table["name"] = "selfplay"
    try:
        variants = parse_variants(table, "selfplay")
    except VariantError as exc:
        return fail("selfplay", exc.problem)
    _print(output.terminal(play(variants, args.workers, args.quiet)))
    return 0


def rule(text: str) -> tuple[str, Any]:
    """`--rule KEY=VALUE`: the value read as TOML (30, true, "teams"), else as a string."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write KEY=VALUE, e.g. turn_limit=30")
    try:
        parsed = tomllib.loads(f"v = {value.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value.strip()
    return key.strip(), parsed


rule.__name__ = "KEY=VALUE"


def _seconds(text: str) -> float:
    """`--worker-wait SECONDS`: a number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of seconds above 0, e.g. 60")
    return seconds


_seconds.__name__ = "SECONDS"


# ------------------------------------------------------------------ parsers


def _workers(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workers",
        type=whole_number(1, 256),
        default=None,
        help=f"processes to play in (default: one per core, {default_workers()} here); "
        "the figures do not depend on it",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def _out(p: argparse.ArgumentParser, name: str) -> None:
    p.add_argument(
        "--out",
        metavar="DIR",
        type=path_text,
        default=None,
        help=f"the folder to write report.html, figures.json and figures.csv in, created if "
        f"needed in a folder that exists (default: the data "
        f"directory's {REPORTS}/{name}, which the table's web page lists)",
    )
    add_config_option(p)
    add_data_dir_option(p)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `lab`, `report` and `selfplay` to the command line."""
    p = sub.add_parser(
        "lab",
        help="play rule variants between bots on every core and report what the rules do",
        description="Play every variant of a TOML file (game, players, bots, games, seed, "
        "engine rules) on every core and report, per variant and with 95 % intervals: wins "
        "by seat and for the first player, game and manche length, the game's own figures, "
        "and how often each ruling's special case applied. A [ladder] table rates bots of "
        "rising strength and says how much skill decides; a [restricted] table says what "
        "each strategic element is worth to a thinking bot (restricted play). The file "
        f"format: {LAB_DOC}. The same file and seed give the same figures, whatever the "
        "number of workers.",
    )
    p.add_argument("file", type=path_text, help="the variants file (TOML)")
    p.add_argument(
        "--cluster",
        metavar="tcp://HOST:8786",
        default=None,
        help="play on the workers of this Dask scheduler (pip install "
        "'tabletop-companion[lab-cluster]' from a checkout; docs/lab.md says how to start one); "
        "the figures are "
        "the very same as on this machine's cores",
    )
    p.add_argument(
        "--worker-wait",
        metavar="SECONDS",
        type=_seconds,
        default=WORKER_WAIT,
        help=f"with --cluster: stop when the scheduler has had no worker for this long "
        f"(default {WORKER_WAIT:g}); the figures finished by then are kept",
    )
    _workers(p)
    _out(p, "<file name>")
    p.set_defaults(func=lab)

    p = sub.add_parser(
        "report",
        help="the lab's figures from journals of real games, with time per turn and faults",
        description="Replay journals of games refereed at a table (a folder stands for its "
        "*.jsonl files, e.g. the data directory's archive/) and report the lab's figures "
        "for them, plus what only a real table has: minutes per game, seconds per turn and "
        "per decision, faults and the time they cost, refused presses. Journals of the same "
        f"game, seat count and rules are reported together. See {LAB_DOC}.",
    )
    p.add_argument(
        "journals", nargs="+", type=path_text, metavar="JOURNAL", help="journal files or folders"
    )
    p.add_argument("--name", default="playtest", help="the report's name (default playtest)")
    p.add_argument(
        "--against",
        metavar="LAB.toml",
        type=path_text,
        default=None,
        help="a lab variants file: its bot games are played and set beside the real ones of "
        "the same game and seat count, and every figure where people differ from the bots "
        "beyond chance is said in a sentence (a permutation test game by game, the false "
        "discovery rate kept at 5 %% over all the figures compared); below the games that "
        "could see a difference of one standard deviation, the report says they are too "
        "few to tell",
    )
    _workers(p)
    _out(p, "<name>")
    p.set_defaults(func=report)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--players", type=whole_number(1), default=None,
                        help="number of seats (default: the game's usual count)")  # fmt: skip
    common.add_argument("--games", type=whole_number(1), default=100,
                        help="games to play, 1 or more (default 100)")  # fmt: skip
    common.add_argument("--seed", type=int, default=1, help="the seed of every game (default 1)")
    common.add_argument("--bots", default=None,
                        help="comma-separated bot kinds, cycled over the seats (default: the "
                        "game's first kind)")  # fmt: skip
    common.add_argument("--rule", type=rule, action="append", metavar="KEY=VALUE",
                        help="an engine setting, as in [game.rules] (repeat for more)")  # fmt: skip
    _workers(common)
    p = sub.add_parser(
        "selfplay",
        help="play many games between bots and print the lab's figures (one variant)",
        description="The one-line form of `companion lab`: one variant from the command "
        "line, played on every core, its figures printed. The same seed gives the same "
        f"output. The file-based form and the figures: {LAB_DOC}. A game's own options: "
        "companion selfplay GAME --help.",
    )
    per_game = p.add_subparsers(dest="game", metavar="GAME", required=True)
    for game in map(games.get, games.names()):
        g = per_game.add_parser(game.name, parents=[common], help=f"{game.title}, {game.players()}")
        for option in game.selfplay_options:
            g.add_argument(option.flag, dest=option.dest, type=option.type, default=None,
                           metavar=option.rule.upper(), help=option.help)  # fmt: skip
        g.set_defaults(func=selfplay)
