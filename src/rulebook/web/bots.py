"""The bots of web games, off the event loop: each move is chosen in a worker process (or a
thread, with ``bot_workers=0``), so a search of a second never delays another game's update.
What a worker computes is :mod:`rulebook.web.bot_moves`."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from rulebook.web.bot_moves import Told, choose, reveals
from rulebook.web.worker import Worker, Workers

#: games whose telling each worker's record keeps (as many as a worker keeps states)
_RECORD_SIZE = 1000


class Move(Protocol):
    """A move of a game's log (:class:`rulebook.web.views.Entry`)."""

    @property
    def seat(self) -> int: ...

    @property
    def move(self) -> str: ...


class Game(Protocol):
    """What a worker is told of a game (:class:`rulebook.web.live.LiveGame`)."""

    @property
    def id(self) -> str: ...

    @property
    def lineage(self) -> int: ...

    @property
    def log(self) -> Sequence[Move]: ...

    def worker_setup(self) -> dict[str, Any]: ...


class Tellings:
    """What one worker (or the thread) holds of each game, as the server told it: the lineage
    of the log and how many of its moves the worker kept. The requests to a worker are answered
    in the order they were sent, so the record is written as each is sent."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, tuple[int, int]] = OrderedDict()

    def tell(self, game: Game, keep: int, whole: bool = False) -> Told:
        """The request's :class:`Told` for a worker that will keep ``keep`` moves of ``game``:
        the moves since those it holds (all of them if ``whole``, or if it holds none that
        fit)."""
        held = self.kept.pop(game.id, None)
        start = 0
        if not whole and held is not None and held[0] == game.lineage and held[1] <= keep:
            start = held[1]
        self.kept[game.id] = (game.lineage, keep)
        while len(self.kept) > _RECORD_SIZE:
            self.kept.popitem(last=False)
        moves = [(e.seat, e.move) for e in game.log[start:]]
        return Told(game.id, game.lineage, game.worker_setup(), start, moves)


class BotRunner:
    """Chooses bots' moves in ``workers`` worker processes (:mod:`rulebook.web.worker`), and
    checks whether a person's move may be undone in one more (so a long search never delays
    the check); with ``workers=0``, both in one thread of the server process (for tests).
    Each worker is told a game's new moves only (:class:`Tellings`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.bots = Workers(workers, "bot worker")
        self.checker = Workers(1, "undo checker")
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="bot") if workers == 0 else None
        self._thread_told = Tellings()
        #: what each worker process holds (a replaced worker's record goes with it)
        self._told: weakref.WeakKeyDictionary[Worker, Tellings] = weakref.WeakKeyDictionary()
        #: bot moves asked for and not yet answered (the load admission counts them)
        self.waiting = 0

    async def start(self) -> None:
        if self.thread is None:
            await self.bots.start()
            await self.checker.start()

    @property
    def restarts(self) -> int:
        return self.bots.restarts + self.checker.restarts

    async def choose(self, game: Game, seat: int, spec: str) -> str:
        """The move of the bot ``spec`` in ``seat``."""
        self.waiting += 1
        try:
            text: str = await self._run(self.bots, choose, game, len(game.log), seat, spec)
        finally:
            self.waiting -= 1
        return text

    async def reveals(self, game: Game) -> bool:
        """Whether the last move of ``game`` revealed anything hidden."""
        revealed: bool = await self._run(self.checker, reveals, game, len(game.log) - 1)
        return revealed

    async def _run(
        self, pool: Workers, fn: Callable[..., Any], game: Game, keep: int, *args: Any
    ) -> Any:
        """``fn(told, *args)`` in a worker of ``pool`` (or the thread), told the game whole
        if it answers that it does not hold the earlier moves."""
        worker = None
        if self.thread is None:
            worker = await pool.pick(lambda w: w in self._told and game.id in self._told[w].kept)
        record = self._thread_told if worker is None else self._told.setdefault(worker, Tellings())
        for whole in (False, True):
            told = record.tell(game, keep, whole)
            if worker is None:
                loop = asyncio.get_running_loop()
                answer = await loop.run_in_executor(self.thread, fn, told, *args)
            else:
                answer = await worker.call(fn.__name__, told, *args)
            if answer is not None:
                return answer
        raise RuntimeError(f"a worker told game {game.id} whole did not take it")

    async def close(self) -> None:
        if self.thread is not None:
            self.thread.shutdown(wait=False, cancel_futures=True)
        await self.bots.stop()
        await self.checker.stop()
