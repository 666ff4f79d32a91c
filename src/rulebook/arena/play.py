"""Playing a tournament's tables, in parallel processes or on Ray, into a folder that a
re-run of the same command resumes.

The folder holds ``plan.json`` (the :class:`~rulebook.arena.plan.Plan`, written before the
first table) and ``tables.jsonl``: one line per finished table, appended as tables finish
(every few seconds, and at once on Ctrl-C), each line whole or, after a kill mid-write, left
out when read. A run with another plan is refused before any table is played; the same plan
with more (or fewer) tables extends (or reads a part of) the same tournament.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rulebook.agents import Agent, agent_seed, make_agent
from rulebook.agents.protocol import Forfeit
from rulebook.arena.plan import Plan, PlanError, Table
from rulebook.arena.ratings import places
from rulebook.core import new_game
from rulebook.lab.jobs import batches
from rulebook.lab.runner import collect
from rulebook.simulate import play

PLAN = "plan.json"
RESULTS = "tables.jsonl"

Row = dict[str, Any]


def tally_of(agent: Agent) -> dict[str, float]:
    """What an agent counted in its game (moves, retries, tokens, cost...): the numbers of its
    :attr:`Agent.tally` (nothing for the bots)."""
    return {
        str(k): float(v)
        for k, v in agent.tally.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


def play_table(table: Table) -> Row:
    """Play one table; its row: the seats, scores, finishing order (groups of seats, best
    first), winners, what decided the game, moves, each seat's tally and incidents, and
    ``forfeit`` (the seat that forfeited, whose place is last; the others share the place
    above)."""
    start = time.perf_counter()
    state = new_game(table.game, table.players, table.seed, table.variant)
    agents = [
        make_agent(spec, agent_seed(table.seed, p), policy=table.policy)
        for p, spec in enumerate(table.seats)
    ]
    try:
        play(state, agents)  # every agent is told the end, however the game stops
        forfeited = None
    except Forfeit as forfeit:
        forfeited = forfeit.seat
    n = table.players
    if forfeited is None:
        scores = state.scores()
        keys = [(scores[p], *state.tiebreak(p)) for p in range(n)]
        order = places(keys, state.winners())
        winners, decided = state.winners(), state.decided_by()
    else:
        scores = state.scores()
        others = [p for p in range(n) if p != forfeited]
        order = [others, [forfeited]]
        winners, decided = others, "forfeit"
    return {
        **{k: v for k, v in asdict(table).items() if k not in ("seats", "policy")},
        "seats": list(table.seats),
        "scores": scores,
        "order": order,
        "winners": winners,
        "decided_by": decided,
        "forfeit": forfeited,
        "moves": len(state.history),
        "tally": [tally_of(a) for a in agents],
        # each outside seat's retries, timeouts and fallbacks in words, with their move numbers
        "incidents": [list(getattr(a, "incidents", [])) for a in agents],
        "seconds": round(time.perf_counter() - start, 3),
    }


def play_tables(tables: Sequence[Table]) -> list[Row]:
    """Play tables in turn (a worker's batch); a table that fails gives a row with ``error``
    (one line) in place of its results, and ends the batch."""
    rows = []
    for table in tables:
        try:
            rows.append(play_table(table))
        except Exception as exc:
            what = f"{type(exc).__name__}: {exc}".splitlines()[0]
            rows.append({"index": table.index, "error": what})
            break
    return rows


# -- the folder -----------------------------------------------------------------------------
class Store:
    """A tournament's folder: its plan and the tables finished so far."""

    def __init__(self, folder: Path, plan: Plan) -> None:
        self.folder = folder
        self.plan = plan
        self.results = folder / RESULTS

    def check(self) -> None:
        """Refuse a folder that holds another tournament (:class:`PlanError`, one line)."""
        path = self.folder / PLAN
        if not path.exists():
            if self.results.exists():
                raise PlanError(f"{self.results} is there without its {PLAN}: use another --out")
            return
        try:
            stored = Plan.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise PlanError(f"{path} is not an arena's plan ({exc}): use another --out") from None
        if not stored.same_tournament(self.plan):
            raise PlanError(
                f"{self.folder} holds another tournament ({stored.describe()}); this one is "
                f"{self.plan.describe()}: use another --out"
            )

    def start(self) -> None:
        """Write the plan (before the first table)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.plan.to_dict(), indent=1) + "\n"
        tmp = self.folder / f".{PLAN}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.folder / PLAN)

    def rows(self) -> dict[int, Row]:
        """The tables finished so far, by index (a line cut short by a kill is left out)."""
        found: dict[int, Row] = {}
        if not self.results.exists():
            return found
        with self.results.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                if isinstance(row, dict) and isinstance(row.get("index"), int):
                    found.setdefault(row["index"], row)
        return found

    def append(self, rows: Sequence[Row]) -> None:
        """Add finished tables, a line each (a last line cut short by a kill is dropped)."""
        if not rows:
            return
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows)
        with self.results.open("a+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":  # cut short: back to the last whole line
                    handle.seek(0)
                    handle.truncate(handle.read().rfind(b"\n") + 1)
            handle.write(text.encode("utf-8"))  # appended: at the end, wherever it is
            handle.flush()
            os.fsync(handle.fileno())


class TableFailed(PlanError):
    """A table that could not be played (an agent that broke down): one line."""


def _init_worker() -> None:
    """A worker process: Ctrl-C is left to the parent, and the pool's SIGTERM just stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _processes(tables: Sequence[Table], workers: int) -> Iterator[list[Row]]:
    chunks = [list(c) for c in _chunks(tables, workers)]
    if workers <= 1:
        for chunk in chunks:
            yield play_tables(chunk)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, initializer=_init_worker) as pool:
        yield from pool.imap_unordered(play_tables, chunks)


def _ray(tables: Sequence[Table], workers: int, address: str | None) -> Iterator[list[Row]]:
    import ray

    from rulebook.lab.ray_runner import ray_instance

    with ray_instance(workers, address):
        remote = ray.remote(play_tables)
        pending = [remote.remote(list(c)) for c in _chunks(tables, workers)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                rows: list[Row] = ray.get(ref)
                yield rows


def _chunks(tables: Sequence[Table], workers: int) -> list[list[Table]]:
    by_index = {t.index: t for t in tables}
    return [[by_index[i] for i in chunk] for chunk in batches(list(by_index), workers)]


def run(
    store: Store,
    tables: Sequence[Table],
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    advance: Callable[[int], None] | None = None,
) -> None:
    """Play the tables not stored yet, appending each as it finishes; :class:`TableFailed` if
    one could not be played (the tables finished are kept)."""
    done = store.rows()
    todo = [t for t in tables if t.index not in done]
    if not todo:
        return
    source = _ray(todo, workers, address) if use_ray else _processes(todo, workers)
    failed: list[Row] = []

    def write(rows: list[Row]) -> None:
        store.append([r for r in rows if "error" not in r])

    def watch(rows: list[Row]) -> None:
        failed.extend(r for r in rows if "error" in r)
        if failed:
            raise TableFailed(_failure(failed[0], {t.index: t for t in tables}))

    collect(source, write, advance or (lambda _: None), watch)


def _failure(row: Row, tables: Mapping[int, Table]) -> str:
    t = tables[row["index"]]
    return (
        f"table {t.index} ({t.game}, {', '.join(t.seats)}, seed {t.seed}) could not be played: "
        f"{row['error']}; the tables finished are kept: re-run to go on"
    )
