"""Play the variants' games on every core, or on a Dask cluster.

Game i of a variant is seeded from (seed, i) alone, so a chunk of games gives the same
records in any worker, in any order, on any machine. A worker tallies its chunk's games
for the figures (`companion.lab.tally`) and sends back only the tally; the parent adds the
chunks' tallies up in game order as they come, so a parallel run (or a cluster's) equals a
serial one and the parent's memory does not grow with the games. `run` sends the records
themselves, for what reads them one by one (tests, benches).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import partial
from typing import Any, Generic, TypeVar

from companion.lab.model import GameRecord, Variant
from companion.lab.tally import Tally
from companion.lab.tally import tally as tally_of
from companion.lab.variants import load_lab

Progress = Callable[[int, int], None]
"""(games played, games in all)."""

CHUNKS_PER_WORKER = 8
"""Enough chunks that a slow one does not leave a core idle at the end, few enough that
sending tallies back stays cheap."""

Part = TypeVar("Part", list[GameRecord], Tally)
"""What a worker sends back for a chunk: its records, or their tally."""


def play_chunk(variant: Variant, start: int, stop: int) -> list[GameRecord]:
    """Games start..stop-1 of a variant (what one worker does at a time)."""
    lab = load_lab(variant.game)
    return [lab.play(variant, index) for index in range(start, stop)]


def tally_chunk(variant: Variant, start: int, stop: int, ordered: bool = False) -> Tally:
    """Games start..stop-1 of a variant, tallied for its figures (each record dropped
    once counted)."""
    lab = load_lab(variant.game)
    games = (lab.play(variant, index) for index in range(start, stop))
    return tally_of(lab, variant.players, games, ordered)


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class ClusterError(RuntimeError):
    """A Dask cluster the lab cannot use (not installed, scheduler unreachable, lost, or
    left without a worker): one line saying what to do. `done` holds what the run collects
    (records or tallies) of the variants whose games were all played before it stopped
    (by variant number)."""

    def __init__(self, message: str, done: dict[int, Any] | None = None) -> None:
        super().__init__(message)
        self.done = done or {}


CONNECT_SECONDS = 10.0
"""How long to wait for a cluster's scheduler to answer."""
WORKER_WAIT = 60.0
"""How long a run waits while the scheduler has no worker before it stops (`--worker-wait`)."""
POLL_SECONDS = 0.5
"""How often a cluster run looks at its workers while no chunk comes back."""


def run(
    variants: Sequence[Variant],
    workers: int | None = None,
    progress: Progress | None = None,
    cluster: str | None = None,
    worker_wait: float = WORKER_WAIT,
) -> list[list[GameRecord]]:
    """Every game of every variant: one list of records per variant, in game order (see
    `play`)."""
    return _play(play_chunk, list, variants, workers, progress, cluster, worker_wait)


def tally(
    variants: Sequence[Variant],
    workers: int | None = None,
    progress: Progress | None = None,
    cluster: str | None = None,
    worker_wait: float = WORKER_WAIT,
    ordered: bool = False,
) -> list[Tally]:
    """Every game of every variant, tallied for its figures: one tally per variant
    (`ordered`: with each game's values in game order). See `play`."""
    chunk = partial(tally_chunk, ordered=ordered)
    return _play(chunk, partial(Tally, ordered), variants, workers, progress, cluster,
                 worker_wait)  # fmt: skip


def _play(
    chunk: Callable[[Variant, int, int], Part],
    empty: Callable[[], Part],
    variants: Sequence[Variant],
    workers: int | None,
    progress: Progress | None,
    cluster: str | None,
    worker_wait: float,
) -> list[Part]:
    """Every variant's games, each chunk played by `chunk` (on every core, or by the
    workers of the Dask scheduler at `cluster`) and added up in game order from `empty`.
    ClusterError when the cluster cannot be reached, is lost, or has had no worker for
    `worker_wait` seconds (carrying the variants finished by then)."""
    workers = workers or default_workers()
    total = sum(v.games for v in variants)
    if cluster is not None:
        workers = max(workers, 16)  # small chunks: a cluster has many cores
    chunks = [
        (number, start, min(start + size, v.games))
        for number, v in enumerate(variants)
        for size in [_chunk_size(v.games, workers)]
        for start in range(0, v.games, size)
    ]
    sums = [InOrder(empty()) for _ in variants]
    done = 0

    def arrived(number: int, start: int, stop: int, part: Part) -> None:
        nonlocal done
        sums[number].add(start, stop, part)
        done += stop - start
        if progress:
            progress(done, total)

    if cluster is not None:
        try:
            for (number, start, stop), part in _on_cluster(
                cluster, chunk, variants, chunks, worker_wait
            ):
                arrived(number, start, stop, part)
        except ClusterError as exc:
            exc.done = {n: s.total for n, s in enumerate(sums) if s.next == variants[n].games}
            raise
    elif workers == 1:
        for number, start, stop in chunks:
            arrived(number, start, stop, chunk(variants[number], start, stop))
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        pool = ProcessPoolExecutor(workers, context, initializer=_leave_ctrl_c_to_the_parent)
        try:
            pending: dict[Future[Part], Chunk] = {
                pool.submit(chunk, variants[number], start, stop): (number, start, stop)
                for number, start, stop in chunks
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    arrived(*pending.pop(future), future.result())
        finally:  # Ctrl-C or a failed game: the chunks not started are dropped at once
            pool.shutdown(cancel_futures=True)
    return [s.total for s in sums]


class InOrder(Generic[Part]):
    """A variant's chunks added up in game order as they come back (`+=`: records
    appended, tallies added); a chunk back early waits for those before it."""

    def __init__(self, empty: Part) -> None:
        self.total: Part = empty
        self.next = 0
        """The first game not yet added."""
        self._early: dict[int, tuple[int, Part]] = {}

    def add(self, start: int, stop: int, part: Part) -> None:
        self._early[start] = (stop, part)
        while self.next in self._early:
            self.next, part = self._early.pop(self.next)
            self.total += part


Chunk = tuple[int, int, int]
"""(variant number, first game, game after the last)."""


def _on_cluster(
    address: str,
    chunk: Callable[[Variant, int, int], Part],
    variants: Sequence[Variant],
    chunks: Sequence[Chunk],
    worker_wait: float,
) -> Iterator[tuple[Chunk, Part]]:
    """Each chunk and what `chunk` made of it, as the cluster's workers finish them. Dask
    is imported here only: the lab on one machine needs none of it. Dask's own log lines
    are held back (a lost scheduler would print dozens): what went wrong is one
    ClusterError."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ClusterError(_say("no_dask")) from exc
    with _quiet_dask():
        try:
            client = Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(_say("unreachable", address=address, why=_first_line(exc))) from exc
        futures: dict[Any, Chunk] = {}
        try:
            for order, (number, start, stop) in enumerate(chunks):  # first chunks first:
                future = client.submit(  # a run stopped early has whole variants
                    chunk, variants[number], start, stop, pure=False, priority=-order
                )
                futures[future] = (number, start, stop)
            yield from _collect(client, address, futures, worker_wait)
        finally:  # Ctrl-C, a failed game or a lost cluster: the chunks not played are cancelled
            with contextlib.suppress(Exception):
                if client.status == "running":
                    client.cancel(list(futures))
                client.close(timeout=2)


def _collect(
    client: Any, address: str, futures: dict[Any, Chunk], worker_wait: float
) -> Iterator[tuple[Chunk, Any]]:
    """What the workers made of the chunks as it comes back, watching that the scheduler
    stays and has a worker (ClusterError otherwise)."""
    from concurrent.futures import CancelledError

    from distributed import wait as dask_wait

    pending = set(futures)
    alone_since: float | None = None
    while pending:
        try:
            finished, _ = dask_wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=futures.__getitem__):
                # A result lives on its worker until gathered: one lost with its worker is
                # played again, by a worker that may never come.
                part = future.result(timeout=POLL_SECONDS)
                pending.discard(future)
                yield futures[future], part
        except TimeoutError:  # nothing came back for a while: is anyone playing?
            pass
        except (CancelledError, OSError) as exc:  # a lost scheduler cancels every future
            raise _lost(address) from exc
        if client.status not in ("running", "connecting"):
            raise _lost(address)
        if client.scheduler_info(n_workers=1)["workers"]:
            alone_since = None
            continue
        now = time.monotonic()
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= worker_wait:
            raise ClusterError(_say("no_worker", address=address, seconds=worker_wait))


def _lost(address: str) -> ClusterError:
    return ClusterError(_say("lost", address=address))


def _say(key: str, /, **fields: object) -> str:
    """What went wrong with the cluster, in the command line's language."""
    from companion.report_words import CLUSTER_SAYS

    return CLUSTER_SAYS.say(key, **fields)


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


QUIET = ("distributed", "tornado", "asyncio")
"""The loggers a cluster run silences (and those under them)."""


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's loggers silenced for the run (Dask sets levels of its own on some of those
    under "distributed"), as they were afterwards."""
    names = {*QUIET, *(n for n in logging.root.manager.loggerDict if n.startswith(QUIET))}
    loggers = [logging.getLogger(name) for name in sorted(names)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _leave_ctrl_c_to_the_parent() -> None:
    """Workers ignore SIGINT: the parent stops the pool (one message, no worker traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(500, -(-games // (workers * CHUNKS_PER_WORKER))))
