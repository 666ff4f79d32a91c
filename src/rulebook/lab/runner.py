"""Running a simulation job (:class:`~rulebook.lab.jobs.Job`): its games in parallel processes
(default) or on Ray (:mod:`rulebook.lab.ray_runner`), into a Store, resuming what is stored."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rulebook.lab import overrides
from rulebook.lab.jobs import Job, batches, play_batch, play_game
from rulebook.lab.storage import Store, decode, read_results

__all__ = ["Job", "batches", "collect", "execute", "play_batch", "play_game", "run_processes"]

#: write finished games to disk at least this often (seconds)
FLUSH_SECONDS = 2.0


def _init_worker(override: dict[str, Any] | None) -> None:
    """A worker process: the job's data override, and Ctrl-C left to the parent (the terminal
    sends it to every process of the group; the parent stops the pool and says so once,
    instead of each worker printing its KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the pool ends its workers with SIGTERM: whatever the parent made of it, they just stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    overrides.install(override)


def _play_batch_star(args: tuple[Job, list[int]]) -> list[dict[str, Any]]:
    return play_batch(*args)


def run_processes(job: Job, indices: Sequence[int], workers: int) -> Iterator[list[dict[str, Any]]]:
    """Play the games ``indices`` of ``job`` on ``workers`` processes (in this one if 1);
    yields each finished batch of rows, in the order they finish."""
    chunks = batches(indices, workers)
    if workers <= 1:
        with overrides.installed(job.override):
            for chunk in chunks:
                yield play_batch(job, chunk)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(job.override,)) as pool:
        yield from pool.imap_unordered(_play_batch_star, [(job, c) for c in chunks])


def collect(
    rows: Iterable[list[dict[str, Any]]],
    write: Callable[[list[dict[str, Any]]], None],
    advance: Callable[[int], None],
    watch: Callable[[list[dict[str, Any]]], None] | None = None,
) -> None:
    """Write batches of rows as they come (every :data:`FLUSH_SECONDS`), calling ``advance``
    with each batch's size (and ``watch`` with the batch); on an interruption (an exception
    from ``advance`` too), what finished is written before it goes on."""
    buffer: list[dict[str, Any]] = []
    last = time.monotonic()
    try:
        for batch in rows:
            buffer.extend(batch)
            if watch is not None:
                watch(batch)
            advance(len(batch))
            if time.monotonic() - last >= FLUSH_SECONDS:
                write(buffer)
                buffer, last = [], time.monotonic()
    finally:
        write(buffer)


def execute(
    job: Job,
    out: Path | None = None,
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    advance: Callable[[int], None] | None = None,
    started: Callable[[int, int], None] | None = None,
    watch: Callable[[list[dict[str, Any]]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run ``job``; with ``out``, resume what is stored there and store the rest.

    ``started(already_done, to_play)`` is called once the stored games are known; ``advance``
    with the number of games finished, as they finish; ``watch`` with the games stored before
    (decoded), then with each batch of rows as it finishes (figures while the job goes on).
    Returns every row of the job, sorted.
    """
    overrides.check(job.override, job.game, job.players, job.variant)
    store = Store(out, job.to_dict()) if out is not None else None
    done = store.done() if store is not None else set()
    todo = [i for i in range(job.games) if i not in done]
    if started is not None:
        started(len(done & set(range(job.games))), len(todo))
    if watch is not None and store is not None and done:
        watch([r for r in store.rows() if r["index"] < job.games])
    rows: list[dict[str, Any]] = []

    def write(batch: list[dict[str, Any]]) -> None:
        if store is not None:
            store.write(batch)
        else:
            rows.extend(batch)

    if todo:
        if use_ray:
            from rulebook.lab.ray_runner import run_ray  # Ray is an optional extra

            source = run_ray(job, todo, workers, address)
        else:
            source = run_processes(job, todo, workers)
        collect(source, write, advance or (lambda _: None), watch)
    if store is None:
        return [decode(r) for r in sorted(rows, key=lambda r: int(r["index"]))]
    assert out is not None
    store.finish()
    return [r for r in read_results(out) if r["index"] < job.games]
