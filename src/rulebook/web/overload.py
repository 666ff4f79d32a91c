"""Admission by measured load: past what this process can serve, new games are refused first,
then moves, each with 503, a one-line reason and ``Retry-After``; a refused request changes
nothing. What is refused is only ever a request arriving: one let in is served to its end,
and WebSocket connections are never closed for load (their pages are told to wait instead).

Three measures, each process its own:

- **event-loop lag**: how late a timer set every :data:`TICK` seconds fires, smoothed
  (:data:`SMOOTHING`). Every request, frame and database answer of the process waits in the
  same loop, so this is the queueing delay each of them sees, whatever the cause (CPU, a burst,
  a slow collection); it falls as soon as the refusals take the work away.
- **HTTP requests in progress** in the process (admitted and not yet answered): they pile up
  when the process or the database cannot keep pace.
- **bot moves waiting** for the process's bot workers (asked for, not yet answered).

New games are refused past ``Settings.overload_lag``, ``overload_requests`` or
``overload_bots`` (0 turns a measure off); moves past :data:`MOVES_LAG` times the lag and
:data:`MOVES_REQUESTS` times the requests (a backlog of bots refuses no person's move). Pages,
views, replays and the operators' routes are always served. ``rulebook serve --overload-lag``,
``--overload-requests`` and ``--overload-bots`` set them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from typing import Literal

from starlette.types import ASGIApp, Receive, Scope, Send

from rulebook.web import metrics
from rulebook.web.errors import Busy
from rulebook.web.settings import Settings

#: seconds between two looks at the event loop's lag
TICK = 0.1
#: the weight of each new lag sample in the smoothed lag (about half a second's memory)
SMOOTHING = 0.2
#: moves are refused past this many times the lag at which new games are
MOVES_LAG = 3.0
#: moves are refused past this many times the requests in progress at which new games are
MOVES_REQUESTS = 4
#: seconds a refused new game (``Retry-After``) and a refused move are asked to wait
RETRY_GAME = 10
RETRY_MOVE = 2
#: the process's figures (tasks, open files, memory) are written to the gauges every N ticks
FIGURES_EVERY = 10

What = Literal["game", "move"]

#: what each refusal says (the page words its own message from the status and Retry-After)
REASONS: dict[What, str] = {
    "game": "the server is too busy to start new games now; nothing was created: "
    f"try again in {RETRY_GAME} s",
    "move": "the server is too busy to take moves now; nothing was changed: "
    f"send the move again in {RETRY_MOVE} s",
}


class Load:
    """This process's load as it serves (:meth:`measure`), and whether it admits a new game
    or a move (:meth:`admit`). ``bots`` counts the bot moves waiting for the workers."""

    def __init__(self, settings: Settings, bots: Callable[[], int] = lambda: 0) -> None:
        self.settings = settings
        self.bots = bots
        #: the event loop's smoothed lag, in seconds
        self.lag = 0.0
        #: HTTP requests admitted and not yet answered
        self.in_flight = 0
        self._task: asyncio.Task[None] | None = None

    def measure(self) -> tuple[float, int, int]:
        """The smoothed lag (s), the requests in progress, the bot moves waiting."""
        return self.lag, self.in_flight, self.bots()

    def over(self, what: What) -> str | None:
        """The measure past its threshold for ``what`` (``lag``, ``requests``, ``bots``), or
        None while the process admits it."""
        lag, requests, bots = self.measure()
        s = self.settings
        lag_limit = s.overload_lag * (MOVES_LAG if what == "move" else 1)
        requests_limit = s.overload_requests * (MOVES_REQUESTS if what == "move" else 1)
        if s.overload_lag > 0 and lag > lag_limit:
            return "lag"
        if s.overload_requests > 0 and requests > requests_limit:
            return "requests"
        if what == "game" and s.overload_bots > 0 and bots > s.overload_bots:
            return "bots"
        return None

    def admit(self, what: What) -> None:
        """:class:`Busy` (503, ``Retry-After``) if the process is past its threshold for
        ``what``; counted in ``rulebook_refusals_total`` by what and which measure."""
        measure = self.over(what)
        if measure is None:
            return
        metrics.REFUSALS.labels(what, measure).inc()
        raise Busy(REASONS[what], RETRY_GAME if what == "game" else RETRY_MOVE)

    # -- measuring ------------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        ticks = 0
        while True:
            start = loop.time()
            await asyncio.sleep(TICK)
            late = max(0.0, loop.time() - start - TICK)
            self.lag += SMOOTHING * (late - self.lag)
            metrics.LOOP_LAG.set(self.lag)
            ticks += 1
            if ticks % FIGURES_EVERY == 0:
                figures()


def figures() -> None:
    """Write this process's asyncio tasks, open files and resident memory to their gauges
    (Linux's ``/proc``; left as they are elsewhere)."""
    metrics.TASKS.set(len(asyncio.all_tasks()))
    with contextlib.suppress(OSError):
        metrics.OPEN_FDS.set(len(os.listdir("/proc/self/fd")))
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        metrics.RESIDENT.set(pages * os.sysconf("SC_PAGE_SIZE"))


class CountRequests:
    """Counts the HTTP requests in progress in ``load`` (the operators' routes too: a scrape
    is a request like any)."""

    def __init__(self, app: ASGIApp, load: Load) -> None:
        self.app = app
        self.load = load

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.load.in_flight += 1
        metrics.IN_FLIGHT.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            self.load.in_flight -= 1
            metrics.IN_FLIGHT.dec()
