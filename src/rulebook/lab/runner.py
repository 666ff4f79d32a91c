"""Running a simulation job: games in parallel processes (default) or on Ray, into a Store.

A :class:`Job` is everything that decides the games: game, players, variant, options, agents
(one spec per seat, optionally rotated so each spec plays every seat), first seed, number of
games and the data override. Game ``i`` is seeded ``seed + i``; agents are seeded by
:func:`rulebook.agents.agent_seed`, so a job's results do not depend on how many workers play
it, nor on interruptions.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rulebook.agents import agent_seed, make_agent
from rulebook.core import new_game
from rulebook.lab import overrides
from rulebook.lab.storage import Store, decode, read_results
from rulebook.simulate import play

#: write finished games to disk at least this often (seconds)
FLUSH_SECONDS = 2.0


@dataclass(frozen=True)
class Job:
    """What to play; :meth:`to_dict` is stored with the results."""

    game: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    #: rotate the agents one seat per game (seat p of game i gets agents[(p - i) % players])
    rotate: bool = False
    #: the data override ({game: {file: patch}}), None for the data files as they are
    override: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if len(self.agents) != self.players:
            raise ValueError(f"a job needs one agent per seat: {self.agents} for {self.players}")
        if self.games < 1:
            raise ValueError(f"a job needs at least 1 game, not {self.games}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["override"] = overrides.canonical(self.override)
        return data

    def seats(self, index: int) -> list[str]:
        """The agent spec of each seat in game ``index``."""
        n = self.players
        shift = index % n if self.rotate else 0
        return [self.agents[(p - shift) % n] for p in range(n)]


def play_game(job: Job, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``job``; the row stored for it."""
    overrides.install(job.override)
    start = time.perf_counter()
    seed = job.seed + index
    state = new_game(job.game, job.players, seed, job.variant, job.options)
    specs = job.seats(index)
    play(state, [make_agent(spec, agent_seed(seed, p)) for p, spec in enumerate(specs)])
    game = state.game
    n = state.num_players
    counters = [dict(game.counters(state, p)) if game.counters else {} for p in range(n)]
    factions = [game.faction(state, p) for p in range(n)] if game.faction else []
    if not all(factions):  # "" = no faction in this variant (Pandoria Merchants outside family)
        factions = []
    rating = state.observation(0).get("rating")
    return {
        "index": index,
        "seed": seed,
        "game": job.game,
        "variant": state.setup.variant,
        "options": json.dumps(dict(state.setup.options), sort_keys=True),
        "players": n,
        "agents": specs,
        "scores": state.scores(),
        "winners": state.winners(),
        "returns": state.returns(),
        "moves": len(state.history),
        "breakdown": json.dumps([state.score_breakdown(p) for p in range(n)]),
        "counters": json.dumps(counters),
        "factions": factions,
        "rating": None if rating is None else str(rating),
        "override": overrides.canonical(job.override),
        "seconds": time.perf_counter() - start,
    }


def play_batch(job: Job, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_game(job, i) for i in indices]


def batches(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Split the games to play in batches: small enough for a smooth progress bar and little
    loss on a kill, large enough to keep the workers' overhead low."""
    size = max(1, min(25, len(indices) // (workers * 16)))
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


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
