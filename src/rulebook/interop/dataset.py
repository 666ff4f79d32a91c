"""Whole games recorded decision by decision, for imitation and offline learning.

:func:`record` plays seeded games between agents (in parallel processes, or on Ray) and
writes every decision to a Parquet file, one row each:

========================  ==============================================================
column                    what it holds
========================  ==============================================================
``game``                  the game's seed (game ``i`` of a recording is seeded ``seed + i``)
``step``                  the decision's place in the game's log (0 first)
``seat``                  the seat that decided
``agent``                 the agent that decided, by its spec (``greedy``, ``mcts:200``)
``observation``           the seat's observation tensor as it saw it then (``float32``, the
                          configuration's encoder: ``docs/research.md`` lists its slices)
``legal``                 the indices of the seat's legal moves then (the action vocabulary
                          of :mod:`rulebook.core.spaces`)
``action``                the index of the move chosen
``move``                  the move as text (``state.parse_action`` reads it back)
``final_return``          the seat's share of the win when the game ended (1, 1/k, 0)
``final_score``           the seat's final score
``final_margin``          the seat's final score minus the best other seat's (a solo seat's
                          share of the win): what the expert's value learns
``evaluation``            the game's hand-written evaluation of the position then, as the
                          search judges a leaf: the seat's value minus the best other seat's
                          (``rulebook.agents.mcts.leaf_rewards``)
``view``                  (``views=True`` only) the seat's observation as JSON, for other
                          encodings
========================  ==============================================================

The file's metadata (``rulebook`` key, JSON) holds the configuration, the agents, the seeds,
the tensor's shape and the number of actions: :func:`describe` reads it. A recording holds
whole games only: a game that a seat forfeits (an outside agent under ``fallback="forfeit"``)
has no end to learn from, so it is left out, and ``describe(path)["left_out"]`` lists it (its
seed, the seat and its agent). Game ``i`` is seeded
``seed + i`` and its agents as :func:`rulebook.agents.agent_seed` says, as ``rulebook
simulate`` plays them, so a recording does not depend on how many workers made it (the rows
are written in seed order).

:func:`load` reads a file into NumPy arrays (:class:`Decisions`: observations, masks, actions,
returns...); :func:`batches` streams it in batches of arrays, shuffled if asked, for files
larger than memory.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from rulebook.agents import agent_seed, is_outside, make_agent
from rulebook.agents.expert import final_margins
from rulebook.agents.mcts import leaf_rewards
from rulebook.agents.protocol import Forfeit, PolicyChanges
from rulebook.core import RulebookError
from rulebook.core.spaces import action_space, encoder
from rulebook.interop.common import Config
from rulebook.simulate import finish

#: the key of the file metadata that describes a recording
META = b"rulebook"
#: the key of the file metadata that lists the games left out (forfeited), written at the end
LEFT_OUT = b"rulebook.left_out"
#: what the metadata's ``format`` names
FORMAT = "rulebook-decisions-1"


@dataclass(frozen=True)
class Recording:
    """What to record: a configuration, one agent spec per seat, how many games from which
    seed, and whether to keep each observation's JSON too."""

    config: Config
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    views: bool = False
    #: the table's changes to the outside agents' policy (``--retries``...), None for none
    policy: PolicyChanges | None = None

    def __post_init__(self) -> None:
        if len(self.agents) != self.config.players:
            raise RulebookError(
                f"one agent per seat: {len(self.agents)} for {self.config.players} seats"
            )
        if self.games < 1:
            raise RulebookError(f"record at least 1 game, not {self.games}")
        for spec in self.agents:
            make_agent(spec)  # a bad spec fails here, with the accepted forms

    def schema(self) -> pa.Schema:
        state = self.config.new_game(self.seed)
        size = int(np.prod(encoder(state.setup).shape))
        fields = [
            pa.field("game", pa.int64()),
            pa.field("step", pa.int32()),
            pa.field("seat", pa.int8()),
            pa.field("agent", pa.string()),
            pa.field("observation", pa.list_(pa.float32(), size)),
            pa.field("legal", pa.list_(pa.int32())),
            pa.field("action", pa.int32()),
            pa.field("move", pa.string()),
            pa.field("final_return", pa.float32()),
            pa.field("final_score", pa.int32()),
            pa.field("final_margin", pa.float32()),
            pa.field("evaluation", pa.float32()),
        ]
        if self.views:
            fields.append(pa.field("view", pa.string()))
        c = self.config
        meta = {
            "format": FORMAT,
            "game": c.game,
            "players": c.players,
            "variant": c.variant,
            "options": dict(c.options),
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "observation_shape": list(encoder(state.setup).shape),
            "actions": action_space(state).size,
        }
        if self.policy is not None and any(is_outside(a) for a in self.agents):
            meta["policy"] = self.policy.given()  # (bots play alike under any policy)
        return pa.schema(fields, metadata={META: json.dumps(meta).encode()})


@dataclass(frozen=True)
class LeftOut:
    """A game left out of a recording: its seed, and the seat (and its agent) that
    forfeited it."""

    game: int
    seat: int
    agent: str


def record_game(recording: Recording, index: int) -> dict[str, list[Any]] | LeftOut:
    """Game ``index`` of ``recording`` (seeded ``seed + index``), decision by decision, as
    columns; or, if a seat forfeits it, :class:`LeftOut`. Every agent is told the end
    (:meth:`Agent.finish`), however the game stops."""
    seed = recording.seed + index
    state = recording.config.new_game(seed)
    space = action_space(state)
    encode = encoder(state.setup).encode
    agents = [
        make_agent(spec, agent_seed(seed, p), policy=recording.policy)
        for p, spec in enumerate(recording.agents)
    ]
    columns: dict[str, list[Any]] = {
        name: []
        for name in ("seat", "observation", "legal", "action", "move", "view", "evaluation")
    }
    try:
        while not state.is_terminal():
            p = state.current_players()[0]
            view = state.observation(p)
            legal = space.legal_indices(state, p)
            move = agents[p].act(state, p)
            columns["seat"].append(p)
            columns["observation"].append(np.asarray(encode(view), np.float32))
            columns["legal"].append(legal)
            columns["action"].append(space.index(move))
            columns["move"].append(str(move))
            columns["evaluation"].append(leaf_rewards(state)[p])
            if recording.views:
                columns["view"].append(json.dumps(view, sort_keys=True))
            state.apply(p, move)
    except Forfeit as forfeit:
        return LeftOut(seed, forfeit.seat, recording.agents[forfeit.seat])
    finally:
        finish(state, agents)
    returns, scores, margins = state.returns(), state.scores(), final_margins(state)
    seats = columns["seat"]
    columns["game"] = [seed] * len(seats)
    columns["step"] = list(range(len(seats)))
    columns["agent"] = [recording.agents[p] for p in seats]
    columns["final_return"] = [returns[p] for p in seats]
    columns["final_score"] = [scores[p] for p in seats]
    columns["final_margin"] = [margins[p] for p in seats]
    return columns


class Batch(NamedTuple):
    """Games of a recording: the whole ones as one Arrow table, in order, and those left
    out."""

    table: pa.Table
    left_out: list[LeftOut]


def record_batch(recording: Recording, indices: Sequence[int]) -> Batch:
    """Games ``indices`` of ``recording``: the whole ones as one Arrow table, in order, and
    those left out (forfeited)."""
    schema = recording.schema()
    played = [record_game(recording, i) for i in indices]
    games = [g for g in played if not isinstance(g, LeftOut)]
    data: dict[str, Any] = {}
    for name in schema.names:
        values = [v for game in games for v in game[name]]
        if name == "observation":
            size = schema.field(name).type.list_size
            flat = np.concatenate(values) if values else np.zeros(0, np.float32)
            data[name] = pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.float32()), size)
        else:
            data[name] = pa.array(values, schema.field(name).type)
    left_out = [g for g in played if isinstance(g, LeftOut)]
    return Batch(pa.Table.from_pydict(data, schema=schema), left_out)


def _record_batch_star(args: tuple[Recording, list[int]]) -> tuple[int, Batch]:
    recording, indices = args
    return indices[0], record_batch(recording, indices)


def _init_worker() -> None:
    """A worker process leaves Ctrl-C to its parent (which stops the pool and says so)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(games: int, workers: int) -> list[list[int]]:
    """The games in batches: a few per worker for a smooth progress bar."""
    size = max(1, min(20, games // (workers * 8)))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


Finished = Generator[tuple[int, Batch], None, None]


def _run_processes(recording: Recording, chunks: list[list[int]], workers: int) -> Finished:
    if workers <= 1 or len(chunks) == 1:
        for chunk in chunks:
            yield chunk[0], record_batch(recording, chunk)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(min(workers, len(chunks)), initializer=_init_worker) as pool:
        yield from pool.imap_unordered(_record_batch_star, [(recording, c) for c in chunks])


def _run_ray(
    recording: Recording, chunks: list[list[int]], workers: int, address: str | None
) -> Finished:
    import ray  # the optional extra: pip install 'rulebook[ray]'

    from rulebook.lab.ray_runner import ray_instance

    with ray_instance(workers, address):
        remote = ray.remote(_record_batch_star)
        pending = [remote.remote((recording, chunk)) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)


def record(
    recording: Recording,
    out: Path,
    workers: int = 1,
    use_ray: bool = False,
    address: str | None = None,
    progress: Callable[[int], Any] | None = None,
) -> int:
    """Play and write ``recording`` to the Parquet file ``out`` (replaced if it exists: the
    caller checks first), in ``workers`` processes or on Ray (a local instance of ``workers``
    CPUs, or the cluster at ``address``); ``progress`` is told how many games each finished
    batch held. Rows are written in seed order whatever order the batches finish in. Returns
    the games written: all of them but those left out (forfeited: the file's metadata lists
    them, :func:`describe`), or those before an interruption (Ctrl-C), which leaves a valid
    file of the games finished in order."""
    chunks = _chunks(recording.games, workers)
    if use_ray or address:
        finished = _run_ray(recording, chunks, workers, address)
    else:
        finished = _run_processes(recording, chunks, workers)
    waiting: dict[int, Batch] = {}
    order = [chunk[0] for chunk in chunks]
    sizes = {chunk[0]: len(chunk) for chunk in chunks}
    written = 0
    left_out: list[LeftOut] = []
    with pq.ParquetWriter(out, recording.schema(), compression="zstd") as writer:
        try:
            for first, batch in finished:
                waiting[first] = batch
                if progress is not None:
                    progress(sizes[first])
                while order and order[0] in waiting:
                    done = waiting.pop(order[0])
                    writer.write_table(done.table)
                    left_out += done.left_out
                    written += sizes[order.pop(0)] - len(done.left_out)
        except KeyboardInterrupt:
            raise Interrupted(written) from None
        finally:
            finished.close()  # stops the workers (or Ray) when interrupted
            games = [asdict(g) for g in left_out]
            writer.add_key_value_metadata({LEFT_OUT: json.dumps(games).encode()})
    return written


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while recording: the file holds the first ``written`` games, and is valid."""

    def __init__(self, written: int) -> None:
        super().__init__(written)
        self.written = written


def describe(path: Path | str) -> dict[str, Any]:
    """A recording's metadata (configuration, agents, seeds, shapes; module docstring), with
    ``left_out``: the games left out, forfeited (``game`` its seed, ``seat``, ``agent``)."""
    found = pq.read_metadata(path).metadata or {}  # the file's (the schema's and the end's)
    raw = found.get(META)
    if raw is None:
        raise RulebookError(f"{path} is not a rulebook recording (no {META.decode()} metadata)")
    meta: dict[str, Any] = json.loads(raw)
    if meta.get("format") != FORMAT:
        raise RulebookError(f"{path}: unknown recording format {meta.get('format')!r}")
    # (none in a file written before games could be left out: it stopped at a forfeit)
    meta["left_out"] = json.loads(found.get(LEFT_OUT, b"[]"))
    return meta


@dataclass
class Decisions:
    """A recording's decisions as arrays, one row each (module docstring for the columns)."""

    observations: npt.NDArray[np.float32]  # (n, *observation_shape)
    masks: npt.NDArray[np.bool_]  # (n, actions): True for each legal move
    actions: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int8]
    games: npt.NDArray[np.int64]
    steps: npt.NDArray[np.int32]
    agents: npt.NDArray[np.str_]
    returns: npt.NDArray[np.float32]
    scores: npt.NDArray[np.int32]
    margins: npt.NDArray[np.float32]
    evaluations: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.actions)


def _arrays(table: pa.Table, meta: Mapping[str, Any]) -> Decisions:
    """One table's rows as :class:`Decisions` (no Python loop over the rows)."""
    n = table.num_rows
    shape = tuple(meta["observation_shape"])
    observations = table.column("observation").combine_chunks().flatten()
    legal = table.column("legal").combine_chunks()
    masks = np.zeros((n, meta["actions"]), np.bool_)
    rows = pc.list_parent_indices(legal).to_numpy()
    masks[rows, legal.flatten().to_numpy()] = True

    def column(name: str, dtype: npt.DTypeLike) -> npt.NDArray[Any]:
        return np.asarray(table.column(name).to_numpy(), dtype)

    return Decisions(
        observations=observations.to_numpy().astype(np.float32).reshape((n, *shape)),
        masks=masks,
        actions=column("action", np.int64),
        seats=column("seat", np.int8),
        games=column("game", np.int64),
        steps=column("step", np.int32),
        agents=column("agent", np.str_),
        returns=column("final_return", np.float32),
        scores=column("final_score", np.int32),
        margins=(
            column("final_margin", np.float32)
            if "final_margin" in table.column_names
            else np.full(n, np.nan, np.float32)  # a recording made before the column was
        ),
        evaluations=(
            column("evaluation", np.float32)
            if "evaluation" in table.column_names
            else np.full(n, np.nan, np.float32)
        ),
    )


def _filter(table: pa.Table, agents: Sequence[str] | None, seats: Sequence[int] | None) -> Any:
    if agents is not None:
        table = table.filter(pc.is_in(table.column("agent"), pa.array(list(agents))))
    if seats is not None:
        table = table.filter(pc.is_in(table.column("seat"), pa.array(list(seats), pa.int8())))
    return table


def load(
    path: Path | str,
    agents: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
) -> Decisions:
    """Every decision of a recording (only those of ``agents`` / ``seats`` if given)."""
    meta = describe(path)
    return _arrays(_filter(pq.read_table(path), agents, seats), meta)


def batches(
    path: Path | str,
    batch_size: int = 1024,
    shuffle: bool = False,
    seed: int = 0,
    agents: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
) -> Iterator[Decisions]:
    """A recording's decisions in batches of ``batch_size`` rows (the last may be smaller),
    read a row group at a time, so files larger than memory stream. ``shuffle``: the row
    groups in a random order and the rows within each group too, from ``seed`` (an
    approximate shuffle; :func:`load` a file that fits in memory for an exact one)."""
    if batch_size < 1:
        raise RulebookError(f"batch_size must be at least 1, not {batch_size}")
    meta = describe(path)
    source = pq.ParquetFile(path)
    rng = np.random.default_rng(seed)
    groups = list(range(source.num_row_groups))
    if shuffle:
        rng.shuffle(groups)
    pending: Decisions | None = None
    for group in groups:
        table = _filter(source.read_row_group(group), agents, seats)
        if shuffle and table.num_rows:
            table = table.take(pa.array(rng.permutation(table.num_rows)))
        chunk = _arrays(table, meta)
        pending = chunk if pending is None else _concat(pending, chunk)
        while len(pending) >= batch_size:
            yield _rows(pending, slice(0, batch_size))
            pending = _rows(pending, slice(batch_size, None))
    if pending is not None and len(pending):
        yield pending


def _rows(decisions: Decisions, rows: slice) -> Decisions:
    return Decisions(**{k: v[rows] for k, v in vars(decisions).items()})


def _concat(a: Decisions, b: Decisions) -> Decisions:
    return Decisions(**{k: np.concatenate([v, getattr(b, k)]) for k, v in vars(a).items()})
