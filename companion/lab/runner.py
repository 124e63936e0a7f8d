"""Play the variants' games on every core, or on a Dask cluster.

Game i of a variant is seeded from (seed, i) alone, so a chunk of games gives the same
records in any worker, in any order, on any machine: the records are put back in game
order and a parallel run (or a cluster's) equals a serial one, record for record.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from companion.lab.model import GameRecord, Variant
from companion.lab.variants import load_lab

Progress = Callable[[int, int], None]
"""(games played, games in all)."""

CHUNKS_PER_WORKER = 8
"""Enough chunks that a slow one does not leave a core idle at the end, few enough that
sending records back stays cheap."""


def play_chunk(variant: Variant, start: int, stop: int) -> list[GameRecord]:
    """Games start..stop-1 of a variant (what one worker does at a time)."""
    lab = load_lab(variant.game)
    return [lab.play(variant, index) for index in range(start, stop)]


def default_workers() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class ClusterError(RuntimeError):
    """A Dask cluster the lab cannot use (not installed, scheduler unreachable): one line."""


CONNECT_SECONDS = 10.0
"""How long to wait for a cluster's scheduler to answer."""


def run(
    variants: Sequence[Variant],
    workers: int | None = None,
    progress: Progress | None = None,
    cluster: str | None = None,
) -> list[list[GameRecord]]:
    """Every game of every variant: one list of records per variant, in game order. With a
    Dask scheduler's address (`cluster`), the chunks are played by its workers (ClusterError
    when it cannot be reached); the records are the same."""
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
    results: dict[tuple[int, int], list[GameRecord]] = {}
    done = 0
    if cluster is not None:
        for (number, start, stop), part in _on_cluster(cluster, variants, chunks):
            results[(number, start)] = part
            done += stop - start
            if progress:
                progress(done, total)
    elif workers == 1:
        for number, start, stop in chunks:
            results[(number, start)] = play_chunk(variants[number], start, stop)
            done += stop - start
            if progress:
                progress(done, total)
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        pool = ProcessPoolExecutor(workers, context, initializer=_leave_ctrl_c_to_the_parent)
        try:
            pending: dict[Future[list[GameRecord]], tuple[int, int, int]] = {
                pool.submit(play_chunk, variants[number], start, stop): (number, start, stop)
                for number, start, stop in chunks
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    number, start, stop = pending.pop(future)
                    results[(number, start)] = future.result()
                    done += stop - start
                    if progress:
                        progress(done, total)
        finally:  # Ctrl-C or a failed game: the chunks not started are dropped at once
            pool.shutdown(cancel_futures=True)
    return [
        [record for (n, _), part in sorted(results.items()) if n == number for record in part]
        for number in range(len(variants))
    ]


Chunk = tuple[int, int, int]
"""(variant number, first game, game after the last)."""


def _on_cluster(
    address: str, variants: Sequence[Variant], chunks: Sequence[Chunk]
) -> Iterator[tuple[Chunk, list[GameRecord]]]:
    """Each chunk and its records, as the cluster's workers finish them. Dask is imported
    here only: the lab on one machine needs none of it."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ClusterError(
            "--cluster needs Dask's distributed package: pip install "
            "'tabletop-companion[lab-cluster]' from a checkout (docs/lab.md)"
        ) from exc
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from exc
    futures: dict[Any, Chunk] = {}
    try:
        for number, start, stop in chunks:
            future = client.submit(play_chunk, variants[number], start, stop, pure=False)
            futures[future] = (number, start, stop)
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:  # Ctrl-C or a failed game: the chunks not played are cancelled
        client.cancel(list(futures))
        client.close()


def _leave_ctrl_c_to_the_parent() -> None:
    """Workers ignore SIGINT: the parent stops the pool (one message, no worker traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(500, -(-games // (workers * CHUNKS_PER_WORKER))))
