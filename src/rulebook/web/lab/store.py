"""Where the lab keeps its what-ifs and runs: tables of the app's own database (SQLite by
default, PostgreSQL when the server runs on it), beside the games'.

A run's row holds what it plays (:class:`~rulebook.lab.runs.RunSpec` as JSON), its state
(``queued``, ``running``, ``done``, ``cancelled``, ``stopped``, ``failed``), its progress (games
done, live win rates) and, once done, its figures; its games are Parquet files in the run's
folder under the lab's results folder, which every server process reads. One process plays a
run at a time: it claims the row (an update that only one process can win) and keeps a
heartbeat in it; a run whose heartbeat stops (its process killed) is claimed again and resumes
from the games stored.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, Float, Integer, String, Text, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

#: a run's states; the last four are final
QUEUED, RUNNING, DONE, CANCELLED, STOPPED, FAILED = (
    "queued",
    "running",
    "done",
    "cancelled",
    "stopped",
    "failed",
)
FINAL = (DONE, CANCELLED, STOPPED, FAILED)
#: the final states a run may resume from (its games kept)
RESUMABLE = (CANCELLED, STOPPED, FAILED)
#: seconds without a heartbeat after which a running run is taken for dead (claimed again)
STALE = 15.0


class LabBase(DeclarativeBase):
    pass


class WhatIfRow(LabBase):
    """A named what-if: a data override of one game."""

    __tablename__ = "lab_whatifs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(200))
    override: Mapped[str] = mapped_column(Text)  #: JSON: {game: {file: {...}}}
    created: Mapped[float] = mapped_column(Float)


class RunRow(LabBase):
    """A lab run: what it plays, where it stands, what it found."""

    __tablename__ = "lab_runs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(64), index=True)
    title: Mapped[str] = mapped_column(String(300))
    spec: Mapped[str] = mapped_column(Text)  #: RunSpec as JSON
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    total: Mapped[int] = mapped_column(Integer, default=0)
    done: Mapped[int] = mapped_column(Integer, default=0)
    #: games played by this claim of the run (its speed: done - stored at the claim)
    played: Mapped[int] = mapped_column(Integer, default=0)
    #: live figures while it runs (JSON), then the final figures
    progress: Mapped[str] = mapped_column(Text, default="{}")
    figures: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)
    error: Mapped[str] = mapped_column(Text, default="")
    owner: Mapped[str] = mapped_column(String(64), default="")
    heartbeat: Mapped[float] = mapped_column(Float, default=0.0)
    cancel: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the what-if it was made from (its name, shown beside the run)
    whatif_id: Mapped[str] = mapped_column(String(16), default="")
    #: a what-if this run proposed (a tuning run's result)
    proposed_id: Mapped[str] = mapped_column(String(16), default="")


@dataclass(frozen=True)
class WhatIf:
    id: str
    game: str
    name: str
    override: dict[str, Any]
    created: float


@dataclass(frozen=True)
class Run:
    id: str
    kind: str
    game: str
    title: str
    spec: dict[str, Any]
    status: str
    created: float
    started: float | None
    finished: float | None
    total: int
    done: int
    played: int
    progress: dict[str, Any]
    figures: dict[str, Any] | None
    error: str
    owner: str
    heartbeat: float
    cancel: bool
    whatif_id: str
    proposed_id: str

    @property
    def final(self) -> bool:
        return self.status in FINAL


def _whatif(row: WhatIfRow) -> WhatIf:
    return WhatIf(row.id, row.game, row.name, json.loads(row.override), row.created)


def _run(row: RunRow) -> Run:
    return Run(
        row.id,
        row.kind,
        row.game,
        row.title,
        json.loads(row.spec),
        row.status,
        row.created,
        row.started,
        row.finished,
        row.total,
        row.done,
        row.played,
        json.loads(row.progress or "{}"),
        json.loads(row.figures) if row.figures else None,
        row.error,
        row.owner,
        row.heartbeat,
        row.cancel,
        row.whatif_id,
        row.proposed_id,
    )


def new_id() -> str:
    return secrets.token_hex(6)


class LabStore:
    """The lab's tables on ``engine`` (made if missing). Methods are blocking: the server calls
    them from worker threads."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        LabBase.metadata.create_all(engine)

    # -- what-ifs ------------------------------------------------------------------------------
    def add_whatif(self, game: str, name: str, override: dict[str, Any]) -> WhatIf:
        row = WhatIfRow(
            id=new_id(), game=game, name=name, override=json.dumps(override), created=time.time()
        )
        with Session(self.engine) as s, s.begin():
            s.add(row)
            made = _whatif(row)
        return made

    def whatif(self, whatif_id: str) -> WhatIf | None:
        with Session(self.engine) as s:
            row = s.get(WhatIfRow, whatif_id)
            return None if row is None else _whatif(row)

    def whatifs(self, game: str | None = None, limit: int = 200) -> list[WhatIf]:
        query = select(WhatIfRow).order_by(WhatIfRow.created.desc()).limit(limit)
        if game is not None:
            query = query.where(WhatIfRow.game == game)
        with Session(self.engine) as s:
            return [_whatif(r) for r in s.scalars(query)]

    # -- runs ----------------------------------------------------------------------------------
    def add_run(
        self,
        kind: str,
        game: str,
        title: str,
        spec: dict[str, Any],
        total: int,
        whatif_id: str = "",
    ) -> Run:
        row = RunRow(
            id=new_id(),
            kind=kind,
            game=game,
            title=title,
            spec=json.dumps(spec),
            status=QUEUED,
            created=time.time(),
            total=total,
            done=0,
            played=0,
            progress="{}",
            error="",
            owner="",
            heartbeat=0.0,
            cancel=False,
            whatif_id=whatif_id,
            proposed_id="",
        )
        with Session(self.engine) as s, s.begin():
            s.add(row)
            made = _run(row)
        return made

    def run(self, run_id: str) -> Run | None:
        with Session(self.engine) as s:
            row = s.get(RunRow, run_id)
            return None if row is None else _run(row)

    def runs(self, limit: int = 200) -> list[Run]:
        query = select(RunRow).order_by(RunRow.created.desc()).limit(limit)
        with Session(self.engine) as s:
            return [_run(r) for r in s.scalars(query)]

    def active(self) -> list[Run]:
        """The runs queued or running, oldest first."""
        query = select(RunRow).where(RunRow.status.in_((QUEUED, RUNNING))).order_by(RunRow.created)
        with Session(self.engine) as s:
            return [_run(r) for r in s.scalars(query)]

    def claim(self, run_id: str, owner: str, now: float | None = None) -> bool:
        """Take ``run_id`` to play it: a queued run, or a running one whose heartbeat stopped.
        Only one claimer can win (the update's condition is checked by the database)."""
        now = time.time() if now is None else now
        stale = or_(
            RunRow.status == QUEUED,
            (RunRow.status == RUNNING) & (RunRow.heartbeat < now - STALE),
        )
        statement = (
            update(RunRow)
            .where(RunRow.id == run_id, stale, RunRow.cancel.is_(False))
            .values(status=RUNNING, owner=owner, heartbeat=now)
        )
        with self.engine.begin() as c:
            return c.execute(statement).rowcount == 1

    def beat(
        self,
        run_id: str,
        owner: str,
        done: int,
        played: int,
        progress: dict[str, Any],
        started: float | None = None,
    ) -> bool:
        """The owner's heartbeat and progress; whether a cancel was asked for (True: stop),
        or the run was taken from it."""
        values: dict[str, Any] = {
            "heartbeat": time.time(),
            "done": done,
            "played": played,
            "progress": json.dumps(progress),
        }
        if started is not None:
            values["started"] = started
        with self.engine.begin() as c:
            c.execute(
                update(RunRow).where(RunRow.id == run_id, RunRow.owner == owner).values(**values)
            )
            row = c.execute(select(RunRow.cancel, RunRow.owner).where(RunRow.id == run_id)).first()
        return row is None or bool(row[0]) or row[1] != owner

    def finish(
        self,
        run_id: str,
        owner: str,
        status: str,
        figures: dict[str, Any] | None = None,
        error: str = "",
        proposed_id: str = "",
        only_running: bool = False,
    ) -> None:
        """The run's owner is done with it: ``status`` (``queued`` puts it back for another
        claim, its games kept), the figures or the error; ``only_running``: unless the run
        was finished already."""
        values: dict[str, Any] = {"status": status, "error": error}
        if status == QUEUED:
            values.update(owner="", heartbeat=0.0)
        else:
            values["finished"] = time.time()
        if figures is not None:
            values["figures"] = json.dumps(figures)
        if proposed_id:
            values["proposed_id"] = proposed_id
        mine = (RunRow.id == run_id) & (RunRow.owner == owner)
        if only_running:
            mine = mine & (RunRow.status == RUNNING)
        with self.engine.begin() as c:
            c.execute(update(RunRow).where(mine).values(**values))

    def cancel_run(self, run_id: str) -> Run | None:
        """Ask a run to stop: a queued one is cancelled at once, a running one by its owner."""
        with self.engine.begin() as c:
            c.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status == QUEUED)
                .values(status=CANCELLED, cancel=True, finished=time.time())
            )
            c.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status == RUNNING)
                .values(cancel=True)
            )
        return self.run(run_id)

    def mark_stopped(self, run_ids: Sequence[str], owner: str, why: str) -> None:
        """Runs this process played and no longer plays (it is stopping): stopped, with why."""
        if not run_ids:
            return
        with self.engine.begin() as c:
            c.execute(
                update(RunRow)
                .where(RunRow.id.in_(run_ids), RunRow.owner == owner, RunRow.status == RUNNING)
                .values(status=STOPPED, error=why, finished=time.time())
            )

    def resume(self, run_id: str) -> Run | None:
        """Queue a cancelled, stopped or failed run again (it resumes from its stored games)."""
        with self.engine.begin() as c:
            c.execute(
                update(RunRow)
                .where(RunRow.id == run_id, RunRow.status.in_(RESUMABLE))
                .values(status=QUEUED, error="", cancel=False, finished=None, owner="")
            )
        return self.run(run_id)
