"""All writes to the store go through one task, so that moves arriving while a commit is under
way are committed together: group commit, one disk flush for many moves (SQLite flushes on
every commit, ``synchronous=FULL``). Each move is still acknowledged only once it is committed.

A move is stored only if its game's stored count of writes is the one it was made on
(:meth:`Store.write_moves`): another process may have written the game first. Its job then
answers False, and the others of its batch are stored all the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from rulebook.web import metrics
from rulebook.web.store import AsyncMoves, MoveWrite, Store

log = logging.getLogger("rulebook.web")

#: runs a blocking function in a worker thread
Threaded = Callable[..., Awaitable[Any]]


@dataclass
class _Job:
    append: MoveWrite | None
    call: tuple[Callable[..., Any], tuple[Any, ...]] | None
    done: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Writer:
    """The one writer of a store (see the module docstring). ``moves``: the moves' write on
    the event loop where the store has one (PostgreSQL: :class:`AsyncMoves`); else the
    store's own, in a worker thread."""

    def __init__(self, store: Store, threaded: Threaded, moves: AsyncMoves | None = None) -> None:
        self.store = store
        self.threaded = threaded
        self.moves = moves
        self.queue: asyncio.Queue[_Job] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        #: a batch is being written
        self._busy = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self, timeout: float = 5.0) -> None:
        """Finish the writes asked for (for ``timeout`` seconds at most), then stop."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.task is not None and not self.task.done() and loop.time() < end:
            if not self._busy and self.queue.empty():
                break
            await asyncio.sleep(0.01)
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.moves is not None:
            await self.moves.close()

    async def append(self, move: MoveWrite) -> bool:
        """Store one move; returns once it is committed (True), or refused because its game's
        log was written meanwhile (False: nothing of it was stored)."""
        job = _Job(move, None)
        self.queue.put_nowait(job)
        stored: bool = await asyncio.shield(job.done)
        return stored

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run another write (create, undo) in its turn; returns its result."""
        job = _Job(None, (fn, args))
        self.queue.put_nowait(job)
        return await asyncio.shield(job.done)

    async def _loop(self) -> None:
        while True:
            self._busy = False
            batch = [await self.queue.get()]
            self._busy = True
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            for job in batch:
                if job.call is not None:
                    await self._settle(job, self.threaded(job.call[0], *job.call[1]))
            appends = [job for job in batch if job.append is not None]
            if len(appends) == 1:
                await self._settle(appends[0], self._one(appends[0]))
            if len(appends) <= 1:
                continue
            try:
                stored = await self._write([j.append for j in appends if j.append is not None])
            except Exception:  # find the culprit: one by one
                for job in appends:
                    await self._settle(job, self._one(job))
            else:
                for job, ok in zip(appends, stored, strict=True):
                    if not job.done.done():
                        job.done.set_result(ok)

    async def _write(self, moves: list[MoveWrite]) -> list[bool]:
        if self.moves is None:
            stored: list[bool] = await self.threaded(self.store.write_moves, moves)
            return stored
        with metrics.db_call():
            return await self.moves.write_moves(moves)

    async def _one(self, job: _Job) -> bool:
        assert job.append is not None
        return (await self._write([job.append]))[0]

    @staticmethod
    async def _settle(job: _Job, work: Awaitable[Any]) -> None:
        try:
            result = await work
        except Exception as exc:
            if not job.done.done():
                job.done.set_exception(exc)
        else:
            if not job.done.done():
                job.done.set_result(result)
