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
from companion.cli_words import language, numeral, os_error, said, text_of
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
from companion.lab.words import say
from companion.options import (
    add_config_option,
    add_data_dir_option,
    add_lang_option,
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

    def __init__(self, out: TextIO | None = None, what: str = "cli.lab.games") -> None:
        """`what`: the phrase naming what is counted ("games", "journals")."""
        self.out = out or sys.stderr
        self.what = said(what)
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
        tail = (
            said("cli.lab.left", n=numeral(left, ".0f"))
            if done < total
            else f"{numeral(elapsed, '.1f')} s"
        )
        line = f"[{bar:<30}] {numeral(done, ',')}/{numeral(total, ',')} {self.what}  {tail}"
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
        return fail(command, said("cli.lab.cannot_report", out=out, why=os_error(exc)))
    _print(said("cli.lab.report", path=paths[0], json=paths[1].name, csv=paths[2].name))
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
        return fail("lab", said("cli.format", error=exc, doc=LAB_DOC))
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
        return _write("lab", out, say("lab_title", name=name), results, sections)
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
        share = said("cli.lab.share", n=len(results), total=len(variants))
        title = said("cli.lab.stopped", title=say("lab_title", name=name), share=share)
        with contextlib.suppress(OSError):
            output.write(out, results, title, sections)
            kept.append(said("cli.lab.kept_report", share=share))
    if kept:
        return fail("lab", said("cli.lab.kept", error=exc, out=out, kept=", ".join(kept)))
    return fail("lab", said("cli.lab.nothing", error=exc))


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
        return fail("lab", said("cli.lab.cannot_beside", stem=stem, out=out, why=os_error(exc)))
    _print(said("cli.lab.beside", stem=stem, path=out / f"{stem}.html"))
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
            return fail("report", said("cli.report.against_problem", error=exc, doc=LAB_DOC))
    try:
        progress = None if args.quiet else ProgressBar(what="cli.lab.journals")
        results = journal_report(paths, progress)
    except OSError as exc:
        return fail("report", said("cli.unreadable", path=exc.filename, why=os_error(exc)))
    except (JournalError, SetupError, ValueError) as exc:
        return fail("report", str(exc))
    if variants:
        from companion.lab.against import beside

        results = beside(results, play(variants, args.workers, args.quiet, samples=True))
    return _write("report", out, say("playtest_title", name=args.name), results)


def _journal_paths(given: Sequence[str]) -> list[Path] | str:
    """The journals named, a folder standing for the *.jsonl files in it (archive/)."""
    paths: list[Path] = []
    for name in given:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.rglob("*.jsonl"))
            if not found:
                return said("cli.report.no_journal", path=path)
            paths += found
        elif path.exists():
            paths.append(path)
        else:
            return said("cli.report.no_file", path=path)
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
        raise argparse.ArgumentTypeError(said("cli.selfplay.rule_fix", text=repr(text)))
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
        raise argparse.ArgumentTypeError(said("cli.lab.seconds_fix", text=repr(text)))
    return seconds


_seconds.__name__ = "SECONDS"


# ------------------------------------------------------------------ parsers


def _workers(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workers",
        type=whole_number(1, 256),
        default=None,
        metavar=said("cli.metavar.n"),
        help=said("cli.lab.workers", n=default_workers()),
    )
    p.add_argument("--quiet", action="store_true", help=said("cli.lab.quiet"))
    add_lang_option(p, said("cli.lab.lang"))


def _out(p: argparse.ArgumentParser, name: str) -> None:
    p.add_argument(
        "--out",
        metavar=said("cli.metavar.dir"),
        type=path_text,
        default=None,
        help=said("cli.lab.out", default=f"{REPORTS}/{said(name)}"),
    )
    add_config_option(p)
    add_data_dir_option(p)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `lab`, `report` and `selfplay` to the command line."""
    p = sub.add_parser(
        "lab", help=said("cli.summary.lab"), description=said("cli.lab.description", doc=LAB_DOC)
    )
    p.add_argument(
        "file", type=path_text, metavar=said("cli.metavar.file"), help=said("cli.lab.file")
    )
    p.add_argument(
        "--cluster", metavar=said("cli.metavar.cluster"), default=None, help=said("cli.lab.cluster")
    )
    p.add_argument(
        "--worker-wait",
        metavar=said("cli.metavar.seconds"),
        type=_seconds,
        default=WORKER_WAIT,
        help=said("cli.lab.worker_wait", default=numeral(WORKER_WAIT)),
    )
    _workers(p)
    _out(p, "cli.lab.out_file")
    p.set_defaults(func=lab)

    p = sub.add_parser(
        "report",
        help=said("cli.summary.report"),
        description=said("cli.report.description", doc=LAB_DOC),
    )
    p.add_argument(
        "journals",
        nargs="+",
        type=path_text,
        metavar=said("cli.metavar.journal"),
        help=said("cli.report.journals"),
    )
    p.add_argument(
        "--name", default="playtest", metavar=said("cli.metavar.name"), help=said("cli.report.name")
    )
    p.add_argument(
        "--against",
        metavar=said("cli.metavar.lab"),
        type=path_text,
        default=None,
        help=said("cli.report.against"),
    )
    _workers(p)
    _out(p, "cli.lab.out_name")
    p.set_defaults(func=report)

    common = argparse.ArgumentParser(add_help=False)
    n = said("cli.metavar.n")
    common.add_argument(
        "--players",
        type=whole_number(1),
        default=None,
        metavar=n,
        help=said("cli.selfplay.players"),
    )
    common.add_argument(
        "--games", type=whole_number(1), default=100, metavar=n, help=said("cli.selfplay.games")
    )
    common.add_argument("--seed", type=int, default=1, metavar=n, help=said("cli.selfplay.seed"))
    common.add_argument(
        "--bots",
        default=None,
        metavar=said("cli.metavar.kinds_list"),
        help=said("cli.selfplay.bots"),
    )
    common.add_argument(
        "--rule",
        type=rule,
        action="append",
        metavar=said("cli.metavar.rule"),
        help=said("cli.selfplay.rule"),
    )
    _workers(common)
    p = sub.add_parser(
        "selfplay",
        help=said("cli.summary.selfplay"),
        description=said("cli.selfplay.description", doc=LAB_DOC),
    )
    per_game = p.add_subparsers(dest="game", metavar=said("cli.metavar.game"), required=True)
    for game in map(games.get, games.names()):
        summary = said(
            "cli.selfplay.game", title=game.title, players=games.players_said(game, language())
        )
        g = per_game.add_parser(game.name, parents=[common], help=summary)
        for option in game.selfplay_options:
            g.add_argument(
                option.flag,
                dest=option.dest,
                type=option.type,
                default=None,
                metavar=option.rule.upper(),
                help=text_of(option.help),
            )
        g.set_defaults(func=selfplay)
