"""The bots of web games, off the event loop: each move is chosen in a worker process (or a
thread, with ``bot_workers=0``), so a search of a second never delays another game's update.
What a worker computes is :mod:`rulebook.web.bot_moves`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rulebook.web.bot_moves import choose, reveals
from rulebook.web.worker import Workers


class BotRunner:
    """Chooses bots' moves in ``workers`` worker processes (:mod:`rulebook.web.worker`), and
    checks whether a person's move may be undone in one more (so a long search never delays
    the check); with ``workers=0``, both in one thread of the server process (for tests)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.bots = Workers(workers, "bot worker")
        self.checker = Workers(1, "undo checker")
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="bot") if workers == 0 else None
        #: bot moves asked for and not yet answered (the load admission counts them)
        self.waiting = 0

    async def start(self) -> None:
        if self.thread is None:
            await self.bots.start()
            await self.checker.start()

    @property
    def restarts(self) -> int:
        return self.bots.restarts + self.checker.restarts

    async def choose(self, key: str, data: Mapping[str, Any], seat: int, spec: str) -> str:
        self.waiting += 1
        try:
            text: str = await self._run(self.bots, choose, key, dict(data), seat, spec)
        finally:
            self.waiting -= 1
        return text

    async def reveals(self, key: str, data: Mapping[str, Any]) -> bool:
        revealed: bool = await self._run(self.checker, reveals, key, dict(data))
        return revealed

    async def _run(self, pool: Workers, fn: Callable[..., Any], *args: Any) -> Any:
        if self.thread is not None:
            return await asyncio.get_running_loop().run_in_executor(self.thread, fn, *args)
        return await pool.call(fn.__name__, *args)

    async def close(self) -> None:
        if self.thread is not None:
            self.thread.shutdown(wait=False, cancel_futures=True)
        await self.bots.stop()
        await self.checker.stop()
