"""Results on disk: one Parquet row per game, written so that an interrupted run loses nothing.

While a job runs, finished games are written every few seconds as small Parquet files in a
sidecar folder ``OUT.parts/`` (each written to a temporary name and renamed, so a killed
process leaves only whole files). When every game is in, the rows of ``OUT`` (if any) and of the
parts are merged, sorted by game index, into ``OUT`` (again through a temporary file) and the
parts removed. Re-running the same job with the same ``OUT`` reads both and plays only the
games that are missing. The job's description is kept in the file's metadata (and in
``OUT.parts/job.json``) so that a different job is never mixed into the same file.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from rulebook.core import RulebookError
from rulebook.core.words import plural

JOB_KEY = b"rulebook.job"

SCHEMA = pa.schema(
    [
        ("index", pa.int64()),
        ("seed", pa.int64()),
        ("game", pa.string()),
        ("variant", pa.string()),
        ("options", pa.string()),
        ("players", pa.int32()),
        ("agents", pa.list_(pa.string())),
        ("scores", pa.list_(pa.int64())),
        ("winners", pa.list_(pa.int32())),
        ("returns", pa.list_(pa.float64())),
        ("moves", pa.int64()),
        ("breakdown", pa.string()),
        ("counters", pa.string()),
        ("factions", pa.list_(pa.string())),
        ("rating", pa.string()),
        ("override", pa.string()),
        ("seconds", pa.float64()),
        # each seat's agent's tally (Agent.tally: an outside agent's retries, tokens, cost...),
        # JSON; null in files written before it was kept
        ("tallies", pa.string()),
        # the seat whose outside agent forfeited (the game stopped there), else null; null in
        # files written before it was kept
        ("forfeit", pa.int32()),
    ]
)


#: the columns stored as JSON text (and "tallies", which older files lack)
JSON_COLUMNS = ("breakdown", "counters", "options")


class ResultsError(RulebookError):
    """A results file that cannot be read, or that holds another job."""


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _table(rows: Sequence[dict[str, Any]], job: dict[str, Any]) -> pa.Table:
    table = pa.Table.from_pylist(list(rows), schema=SCHEMA)
    return table.replace_schema_metadata({JOB_KEY: json.dumps(job, sort_keys=True).encode()})


def _atomic_write(table: pa.Table, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def job_of(path: Path) -> dict[str, Any] | None:
    """The job recorded in a results file's metadata (None if it has none)."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[JOB_KEY]) if JOB_KEY in meta else None


def same_job(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two jobs play the same games (their number of games may differ)."""
    return {k: v for k, v in a.items() if k != "games"} == {
        k: v for k, v in b.items() if k != "games"
    }


class Store:
    """The results of one job at ``out``: what is done, and writing more."""

    def __init__(self, out: Path, job: dict[str, Any]) -> None:
        self.out = out
        self.job = job
        self.parts = parts_dir(out)
        self._check_job()
        self.parts.mkdir(parents=True, exist_ok=True)
        (self.parts / "job.json").write_text(json.dumps(job, sort_keys=True), encoding="utf-8")

    def _check_job(self) -> None:
        recorded = []
        if self.out.exists():
            try:
                recorded.append(job_of(self.out))
            except (OSError, pa.ArrowInvalid) as exc:
                raise ResultsError(f"{self.out} is not a results file: {exc}") from None
        job_file = self.parts / "job.json"
        if job_file.exists():
            recorded.append(json.loads(job_file.read_text(encoding="utf-8")))
        for other in recorded:
            if other is not None and not same_job(other, self.job):
                raise ResultsError(
                    f"{self.out} holds another job ({describe(other)}); "
                    f"this one is {describe(self.job)}: use another --out"
                )

    def _files(self) -> list[Path]:
        files = [self.out] if self.out.exists() else []
        return files + sorted(self.parts.glob("part-*.parquet"))

    def done(self) -> set[int]:
        """The indices of the games already stored."""
        indices: set[int] = set()
        for path in self._files():
            indices.update(pq.read_table(path, columns=["index"]).column("index").to_pylist())
        return indices

    def rows(self) -> list[dict[str, Any]]:
        """Every game stored so far (decoded), for figures while the job goes on."""
        return [decode(r) for path in self._files() for r in pq.read_table(path).to_pylist()]

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        """Store finished games now (one whole part file)."""
        if rows:
            _atomic_write(_table(rows, self.job), self.parts / f"part-{uuid.uuid4().hex}.parquet")

    def finish(self) -> int:
        """Merge everything into ``out`` (one row per game index) and drop the parts."""
        tables = [pq.read_table(path) for path in self._files()]
        table = pa.concat_tables(
            [t.replace_schema_metadata(None) for t in tables], promote_options="default"
        )
        rows = {row["index"]: row for row in table.to_pylist()}
        merged = _table([rows[i] for i in sorted(rows)], self.job)
        _atomic_write(merged, self.out)
        shutil.rmtree(self.parts, ignore_errors=True)
        return int(merged.num_rows)


def describe(job: dict[str, Any]) -> str:
    override = " with a data override" if job.get("override") else ""
    policy = job.get("policy") or {}
    if isinstance(policy, dict) and policy:
        override += f" (outside agents: {', '.join(f'{k} {v}' for k, v in policy.items())})"
    return (
        f"{job.get('game')} {job.get('players')}p {','.join(job.get('agents', []))} "
        f"seed {job.get('seed')}{override}"
    )


def read_results(path: Path) -> list[dict[str, Any]]:
    """Every game stored in a results file, as dicts (JSON columns decoded)."""
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise ResultsError(f"cannot read results {path}: {exc}") from None
    return [decode(row) for row in table.to_pylist()]


@dataclass(frozen=True)
class Stored:
    """What a run has stored at ``OUT``: its games so far, and how many it was asked for."""

    rows: list[dict[str, Any]]
    #: the number of games of the job (``--games``)
    games: int
    #: False while games wait in ``OUT.parts/``: the run was interrupted (or is running)
    complete: bool

    def describe(self) -> str:
        """``200 games`` or ``37 games of 200 (an interrupted run: ...)``."""
        if self.complete and len(self.rows) >= self.games:
            return plural(len(self.rows), "game")
        return (
            f"{len(self.rows)} games of {self.games} (an interrupted run: re-run the same "
            "simulate command to finish it)"
        )


def read_stored(path: Path) -> Stored:
    """The games of a run at ``path``, finished or not: the merged file and, after an
    interruption, the part files of ``path.parts/`` (each game once, by index)."""
    parts = parts_dir(path)
    pending = sorted(parts.glob("part-*.parquet")) if parts.is_dir() else []
    if not path.exists() and not pending:
        where = f" (nor any game in {parts}/)" if parts.is_dir() else ""
        raise ResultsError(f"cannot read results {path}: no such file{where}")
    rows: dict[int, dict[str, Any]] = {}
    for file in ([path] if path.exists() else []) + pending:
        for row in read_results(file):
            rows[int(row["index"])] = row
    job: dict[str, Any] | None = None
    job_file = parts / "job.json"
    try:
        if job_file.is_file():  # the run under way (it may extend a finished file)
            job = json.loads(job_file.read_text(encoding="utf-8"))
        elif path.exists():
            job = job_of(path)
    except (OSError, ValueError, pa.ArrowInvalid) as exc:
        raise ResultsError(f"cannot read the job of {path}: {exc}") from None
    games = int(job["games"]) if job and isinstance(job.get("games"), int) else len(rows)
    ordered = [rows[i] for i in sorted(rows)]
    return Stored(ordered, max(games, len(ordered)), complete=not parts.is_dir())


def decode(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row with its JSON columns (breakdown, counters, options) decoded."""
    out = dict(row)
    for key in JSON_COLUMNS:
        out[key] = json.loads(row[key])
    kept = row.get("tallies")
    out["tallies"] = json.loads(kept) if kept else [{} for _ in row["agents"]]
    return out


def encode(row: dict[str, Any]) -> dict[str, Any]:
    """A decoded row (:func:`decode`) as it is stored."""
    return {**row, **{k: json.dumps(row[k]) for k in (*JSON_COLUMNS, "tallies")}}
