"""The bots of web games, off the event loop: each move is chosen in a worker process (or a
thread, with ``bot_workers=0``), so a search of a second never delays another game's update.

A worker gets the game as its save-file data (setup and log) and keeps the states it built, so
it replays only the moves made since it last chose for that game.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import rulebook
from rulebook.agents import agent_seed, make_agent
from rulebook.core import State
from rulebook.web.undo import reveals_nothing

#: states kept per worker, by game id
_CACHE_SIZE = 64
_states: OrderedDict[str, State] = OrderedDict()


def _state_for(key: str, data: Mapping[str, Any]) -> State:
    """The game ``data`` describes, advanced from the cached state when its log extends it."""
    log = data["log"]
    state = _states.pop(key, None)
    if state is not None:
        mine = [[p, str(a)] for p, a in state.history]
        if (
            state.setup.to_dict() != {k: data[k] for k in state.setup.to_dict()}
            or mine != log[: len(mine)]
        ):
            state = None
    if state is None:
        state = rulebook.replay({**data, "log": []})
    for seat, move in log[len(state.history) :]:
        state.apply(seat, move)
    _states[key] = state
    while len(_states) > _CACHE_SIZE:
        _states.popitem(last=False)
    return state


def choose(key: str, data: Mapping[str, Any], seat: int, spec: str) -> str:
    """The move the bot ``spec`` in ``seat`` makes in the game ``data`` (its text form)."""
    state = _state_for(key, data)
    seed = agent_seed(int(data["seed"]), seat) + 7919 * len(state.history)
    agent = make_agent(spec, seed)
    return str(agent.act(state.clone(), seat))


def reveals(key: str, data: Mapping[str, Any]) -> bool:
    """Whether the last move of the game ``data`` revealed anything hidden
    (:func:`rulebook.web.undo.reveals_nothing`, negated)."""
    log = data["log"]
    before = _state_for(key, {**data, "log": log[:-1]}).clone()
    seat, move = log[-1]
    after = before.clone()
    after.apply(seat, move)
    return not reveals_nothing(before, seat, move, after)


def _warm_up() -> None:
    """Run in each new worker: Ctrl-C is for the server (which stops its workers), and the
    games are imported once, before the first move is asked for."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    rulebook.games()


class WorkerLost(Exception):
    """The worker computing an answer died before giving it; new workers have taken over."""


class BotRunner:
    """Chooses bots' moves in a pool of worker processes, and checks whether a person's move
    may be undone in one more (so a long search never delays the check); with ``workers=0``,
    both in one thread of the server process (for tests)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        #: pools started anew after a worker died
        self.restarts = 0
        self.executor: Executor
        self.checker: Executor
        if workers > 0:
            self.executor = self._pool(workers)
            self.checker = self._pool(1)
        else:
            self.executor = self.checker = ThreadPoolExecutor(1, thread_name_prefix="bot")

    @staticmethod
    def _pool(workers: int) -> ProcessPoolExecutor:
        """Worker processes, started now with Ctrl-C blocked: they inherit that, so a Ctrl-C in
        the terminal stops the server (which stops them) and never interrupts them."""
        context = multiprocessing.get_context("spawn")  # the server has threads: no fork
        pool = ProcessPoolExecutor(workers, context, initializer=_warm_up)
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pool.submit(rulebook.games)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return pool

    async def choose(self, key: str, data: Mapping[str, Any], seat: int, spec: str) -> str:
        text: str = await self._run("executor", choose, key, dict(data), seat, spec)
        return text

    async def reveals(self, key: str, data: Mapping[str, Any]) -> bool:
        revealed: bool = await self._run("checker", reveals, key, dict(data))
        return revealed

    async def _run(self, which: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the pool named ``which``. If a worker of it died (killed, out of
        memory), the first caller to notice starts new workers, and every caller whose work
        was lost gets :class:`WorkerLost` (to ask again)."""
        pool: Executor = getattr(self, which)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if getattr(self, which) is pool:
                pool.shutdown(wait=False, cancel_futures=True)
                setattr(self, which, self._pool(self.workers if which == "executor" else 1))
                self.restarts += 1
            raise WorkerLost(f"a worker process of the {which} stopped") from None

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.checker.shutdown(wait=False, cancel_futures=True)
