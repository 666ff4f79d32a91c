"""What the server tells its operators: ``/metrics`` in Prometheus' text format (the
``prometheus-client`` library) and ``/healthz``, ready only while the database answers.

Labels hold route templates (``/api/games/{game_id}/move``), never a raw path, a game id or a
token. ``rulebook serve --workers N`` runs N processes behind one port, so a scrape reaches any
one of them: each process writes its figures to files in one folder
(``PROMETHEUS_MULTIPROC_DIR``, made by ``serve`` when not given) and ``/metrics`` adds every
process's up (prometheus-client's multiprocess mode). Counters and histograms keep the figures of
a process that stopped; the gauges count live processes only (a process's gauges go when it
stops, and the figures of one killed with ``kill -9`` when the next one starts).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import glob
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the environment variable naming the multiprocess folder (prometheus-client's own)
FOLDER_ENV = "PROMETHEUS_MULTIPROC_DIR"

#: seconds: web requests and moves are fast; a bot may think for many seconds
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

REQUESTS = Histogram(
    "rulebook_http_request_duration_seconds",
    "HTTP requests by method, route template and status: their count and latency",
    ["method", "route", "status"],
    buckets=FAST,
)
MOVES = Counter(
    "rulebook_moves_total", "Moves stored by this server, by game and by who", ["game", "by"]
)
MOVE_TO_VIEWER = Histogram(
    "rulebook_move_to_viewer_seconds",
    "From a move's arrival to its frame written to each viewer's WebSocket",
    buckets=FAST,
)
GAMES = Gauge(
    "rulebook_games_in_memory", "Games the process holds in memory", multiprocess_mode="liveall"
)
SOCKETS = Gauge(
    "rulebook_websocket_connections", "Open WebSocket connections", multiprocess_mode="livesum"
)
BOT_QUEUE = Gauge(
    "rulebook_bot_queue_depth",
    "Bot moves asked for and not yet answered (waiting for a worker or thinking)",
    multiprocess_mode="livesum",
)
BOT_THINK = Histogram(
    "rulebook_bot_think_seconds", "Time from asking for a bot's move to its answer", buckets=SLOW
)
DB_SECONDS = Histogram(
    "rulebook_db_call_duration_seconds",
    "Database calls of the games' store (queueing for a thread or connection excluded)",
    buckets=FAST,
)
DB_BUSY = Gauge(
    "rulebook_db_calls_in_progress",
    "Database calls running now (at most the connections the store uses at once)",
    multiprocess_mode="livesum",
)
NOTIFY_SENT = Counter(
    "rulebook_notifications_sent_total",
    "PostgreSQL notifications this server's writes sent (one per stored write of a game)",
)
NOTIFY_RECEIVED = Counter(
    "rulebook_notifications_received_total",
    "PostgreSQL notifications received, by channel",
    ["channel"],
)
REFUSALS = Counter(
    "rulebook_refusals_total",
    "Requests refused for load or a client's share, by what was asked (game, move, socket, "
    "request) and why (lag, requests, bots: this process's load; client: the client's share)",
    ["refused", "reason"],
)
IN_FLIGHT = Gauge(
    "rulebook_http_requests_in_progress",
    "HTTP requests admitted and not yet answered",
    multiprocess_mode="livesum",
)
LOOP_LAG = Gauge(
    "rulebook_event_loop_lag_seconds",
    "How late the process's event loop runs a timer, smoothed over about half a second",
    multiprocess_mode="liveall",
)
TASKS = Gauge("rulebook_asyncio_tasks", "asyncio tasks of the process", multiprocess_mode="liveall")
OPEN_FDS = Gauge(
    "rulebook_open_fds",
    "Open file descriptors of the process (sockets included)",
    multiprocess_mode="liveall",
)
RESIDENT = Gauge(
    "rulebook_resident_memory_bytes",
    "Resident memory of the process",
    multiprocess_mode="liveall",
)
LAB_RUNS = Gauge(
    "rulebook_lab_runs_running",
    "Lab runs this server's workers play now",
    multiprocess_mode="livesum",
)
LAB_STARTED = Counter("rulebook_lab_runs_started_total", "Lab runs started")


def multiprocess() -> bool:
    return bool(os.environ.get(FOLDER_ENV))


def exposition() -> tuple[bytes, str]:
    """The text of ``/metrics`` and its content type: every process's figures in
    multiprocess mode, else this process's."""
    if multiprocess():
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def forget_dead() -> None:
    """Drop the gauges of processes that are gone (killed without a word): called as a
    process starts, and its own gauges dropped as it stops."""
    folder = os.environ.get(FOLDER_ENV)
    if not folder:
        return
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        pid = os.path.basename(path).rsplit("_", 1)[-1].removesuffix(".db")
        if pid.isdigit() and not _alive(int(pid)):
            _multiprocess.mark_process_dead(int(pid))  # type: ignore[no-untyped-call]


def stopped() -> None:
    if multiprocess():
        _multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def db_call() -> Iterator[None]:
    """Time what runs inside as a database call."""
    DB_BUSY.inc()
    start = time.perf_counter()
    try:
        yield
    finally:
        DB_SECONDS.observe(time.perf_counter() - start)
        DB_BUSY.dec()


def timed_call(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` timed as a database call (run in a worker thread)."""

    def run(*args: Any) -> Any:
        with db_call():
            return fn(*args)

    return run


@functools.cache
def labelled(metric: Any, *values: str) -> Any:
    """``metric.labels(*values)``, looked up once (a move counts several: prometheus-client
    checks and locks at every lookup). The values taken are few: games, routes, statuses."""
    return metric.labels(*values)


def route_of(scope: Scope) -> str:
    """The route template that served ``scope`` (never the raw path)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    if scope.get("path", "").startswith("/static/"):
        return "/static"
    return "unmatched"


class RequestMetrics:
    """Counts and times each HTTP request by method, route template and status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def watching(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watching)
        finally:
            method = scope.get("method", "")
            if method not in _METHODS:
                method = "other"
            labelled(REQUESTS, method, route_of(scope), str(status)).observe(
                time.perf_counter() - start
            )


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class Readiness:
    """Whether the database answers: one probe at a time, its answer kept ``keep`` seconds, so
    ``/healthz`` stays cheap however often it is asked."""

    def __init__(self, probe: Callable[[], None], timeout: float = 2.0, keep: float = 1.0) -> None:
        self.probe = probe
        self.timeout = timeout
        self.keep = keep
        self._last: tuple[float, str | None] | None = None
        self._pending: asyncio.Future[str | None] | None = None

    async def check(self) -> str | None:
        """None when ready, else why not (one line)."""
        now = time.monotonic()
        if self._last is not None and now - self._last[0] < self.keep:
            return self._last[1]
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._probe())
        pending = self._pending
        try:
            return await asyncio.shield(pending)
        finally:
            if pending.done() and self._pending is pending:
                self._pending = None

    async def _probe(self) -> str | None:
        try:
            async with asyncio.timeout(self.timeout):
                await asyncio.to_thread(self.probe)
        except TimeoutError:
            reason: str | None = "the database does not answer"
        except Exception as exc:
            reason = f"the database cannot be reached ({type(exc).__name__})"
        else:
            reason = None
        self._last = (time.monotonic(), reason)
        return reason
