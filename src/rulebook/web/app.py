"""The web app: FastAPI routes for pages, API and WebSocket; the store, the games in memory
and the bots' workers, started and stopped with the app. ``create_app(settings)`` builds one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from rulebook.web import api, metrics, pages
from rulebook.web import seats as seat_kinds
from rulebook.web.bots import BotRunner
from rulebook.web.crosssite import SameOrigin
from rulebook.web.errors import WebError
from rulebook.web.lab.routes import Lab
from rulebook.web.lab.routes import router as lab_router
from rulebook.web.limits import BodyLimit, ClientLimits, GarbageLimit, SecurityHeaders
from rulebook.web.live import Games
from rulebook.web.logs import RequestContext
from rulebook.web.overload import CountRequests, Load
from rulebook.web.settings import Settings
from rulebook.web.store import Store

log = logging.getLogger("rulebook.web")

#: seconds a client of an unready ``/healthz`` is asked to wait (``Retry-After``)
HEALTH_RETRY = 5


def _wants_json(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or "text/html" not in request.headers.get("accept", "")


def _error(request: Request, status: int, reason: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": reason}, status_code=status)
    return pages.error_page(request, status, reason)


#: the close of a WebSocket as the server stops: 1012 "service restart", and the page's cue
GOING_AWAY = (1012, "the server is restarting; reconnect")


async def stopping(app: FastAPI) -> None:
    """The server was asked to stop: ``/healthz`` says so at once, and every WebSocket is
    closed with :data:`GOING_AWAY` (its page reconnects, to this server's successor or
    another process) before uvicorn stops taking requests and finishes those under way."""
    app.state.stopping = True
    await asyncio.gather(*(_close(ws) for ws in list(app.state.sockets)))


async def _close(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):  # gone already: nothing to tell
        await ws.close(code=GOING_AWAY[0], reason=GOING_AWAY[1])


#: the longest the server's own goodbyes may hold up uvicorn's stop, in seconds
GOODBYE_SECONDS = 2.0


def on_stop(first: Callable[[], Awaitable[None]]) -> None:
    """Run ``first()`` on the event loop as soon as uvicorn is told to stop (SIGTERM,
    SIGINT), and hand the signal to uvicorn's own handling once it is done (within
    :data:`GOODBYE_SECONDS`): uvicorn closes the connections only after ``first`` has said
    its goodbyes. Only where uvicorn set its handlers (the main thread of a server process)."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()
    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)
        if not isinstance(getattr(previous, "__self__", None), uvicorn.Server):
            continue

        async def then(number: int, frame: FrameType | None, previous: Any) -> None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(GOODBYE_SECONDS):
                    await first()
            previous(number, frame)

        def begin(number: int, frame: FrameType | None, previous: Any) -> None:
            task = loop.create_task(then(number, frame, previous))
            pending.add(task)
            task.add_done_callback(pending.discard)

        def handler(number: int, frame: FrameType | None, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(begin, number, frame, previous)

        signal.signal(sig, handler)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app for ``settings`` (default: SQLite in ``data/``, one bot worker process)."""
    settings = settings or Settings()
    seat_kinds.offer(settings.seats)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url)
        runner = BotRunner(settings.bot_workers)
        games = Games(store, settings, runner)
        app.state.games = games
        lab = Lab(settings, store.engine, settings.db_url) if settings.lab else None
        app.state.lab = lab
        app.state.ready = metrics.Readiness(store.ping)
        load: Load = app.state.load
        load.bots = lambda: runner.waiting
        try:
            load.start()
            await runner.start()
            await games.resume()
            if lab is not None:
                lab.start()
            on_stop(lambda: stopping(app))
            yield
        finally:
            if lab is not None:
                await lab.close()
            await games.close()
            await runner.close()
            await load.close()
            store.close()

    app = FastAPI(
        title="rulebook",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.settings = settings
    app.state.stopping = False
    #: the open WebSocket connections (closed with a reconnect hint as the server stops)
    app.state.sockets = set()
    app.state.clients = ClientLimits(
        settings.max_sockets_per_client, settings.max_new_games_per_minute
    )
    #: this process's load: new games and moves are refused past its thresholds
    app.state.load = Load(settings)

    @app.exception_handler(WebError)
    async def refused(request: Request, exc: WebError) -> Response:
        response = _error(request, exc.status, str(exc))
        if exc.retry_after is not None:
            response.headers["retry-after"] = str(exc.retry_after)
        return response

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        reason = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404 and reason == "Not Found":
            reason = "no such page"
        return _error(request, exc.status_code, reason)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x not in ("body", "query"))
        reason = f"bad request: {where + ': ' if where else ''}{first.get('msg', 'invalid')}"
        return _error(request, 400, reason)

    @app.exception_handler(ClientDisconnect)
    async def gone(request: Request, exc: ClientDisconnect) -> Response:
        """The client left before its body was read: nobody reads an answer; not an error."""
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> Response:
        log.error("error on %s %s", request.method, request.url.path, exc_info=exc)
        return _error(request, 500, "internal server error")

    def limit_for(path: str) -> int:
        upload = path.endswith("/upload")
        return settings.max_upload + 64 * 1024 if upload else settings.max_body

    app.add_middleware(BodyLimit, limit_for=limit_for)
    # outside BodyLimit: a post from another site is refused before a byte of its body is read
    app.add_middleware(SameOrigin, refuse=lambda request, reason: _error(request, 403, reason))
    app.add_middleware(GarbageLimit, limit=settings.max_refusals)
    app.add_middleware(SecurityHeaders)
    # outermost: every request counted and timed, refused ones too, and given its id
    app.add_middleware(metrics.RequestMetrics)
    app.add_middleware(CountRequests, load=app.state.load)
    app.add_middleware(RequestContext)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(lab_router)
    static = resources.files("rulebook.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        return RedirectResponse("/static/icon.svg", status_code=301)

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        """Ready (200) only while the database answers and the server is not stopping; else
        503 with the reason and when to ask again."""
        state = request.app.state
        if getattr(state, "stopping", False):
            reason: str | None = "the server is stopping"
        else:
            reason = await state.ready.check()
        if reason is None:
            return JSONResponse({"status": "ok"})
        return JSONResponse(
            {"status": "unavailable", "error": reason},
            status_code=503,
            headers={"retry-after": str(HEALTH_RETRY)},
        )

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        body, kind = metrics.exposition()
        return Response(body, media_type=kind)

    return app
