"""Request size limits, checked before a body is read into memory (a pure ASGI middleware:
it sees the declared length and counts the bytes of a body sent without one)."""

from __future__ import annotations

import json
import math
import time
from collections import Counter, deque
from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulebook.web import metrics
from rulebook.web.errors import TooMany


async def _send_refusal(send: Send, status: int, reason: str, header: tuple[bytes, bytes]) -> None:
    """Answer with ``status`` and the one-line ``reason`` as JSON (``{"error": reason}``), one
    more ``header`` beside its type and length, without calling the app."""
    body = json.dumps({"error": reason}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                header,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse bodies larger than ``limit_for(path)`` bytes with 413 and a one-line reason."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > limit:
                    await self._refuse(send, limit)
                    return
        received = 0
        started = False

        async def counting() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge(limit)
            return message

        async def watching(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting, watching)
        except _BodyTooLarge:
            if not started:
                await self._refuse(send, limit)

    @staticmethod
    async def _refuse(send: Send, limit: int) -> None:
        reason = f"request body too large (limit {limit} bytes)"
        await _send_refusal(send, 413, reason, (b"connection", b"close"))


class _BodyTooLarge(HTTPException):
    """Raised while the app reads a body that outgrew the limit (FastAPI passes it on)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body too large (limit {limit} bytes)")


#: sent with every response: pages run only the app's own scripts, are never framed, and never
#: tell another site where they came from (a seat's link holds its token)
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        b"form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


#: the operators' routes: a load balancer or Prometheus asking often is never turned away
UNLIMITED = frozenset({"/healthz", "/metrics"})


class GarbageLimit:
    """A client whose requests keep being refused (4xx) is turned away with 429 for a while:
    more than ``limit`` refusals within ``window`` seconds, counted per client address."""

    def __init__(self, app: ASGIApp, limit: int, window: float = 60.0) -> None:
        self.app = app
        self.limit = limit
        self.window = window
        self.refusals: dict[str, list[float]] = {}

    def _recent(self, client: str, now: float) -> list[float]:
        times = [t for t in self.refusals.get(client, ()) if now - t < self.window]
        if times:
            self.refusals[client] = times
        else:
            self.refusals.pop(client, None)
        return times

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.limit <= 0 or scope["path"] in UNLIMITED:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        now = time.monotonic()
        if len(self.refusals) > 10_000:  # forget idle clients
            for known in list(self.refusals):
                self._recent(known, now)
        if len(self._recent(client, now)) >= self.limit:
            metrics.REFUSALS.labels("request", "client").inc()
            reason = "too many refused requests; try again later"
            await _send_refusal(send, 429, reason, (b"retry-after", str(int(self.window)).encode()))
            return

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start" and 400 <= message["status"] < 500:
                self.refusals.setdefault(client, []).append(time.monotonic())
            await send(message)

        await self.app(scope, receive, counting)


class ClientLimits:
    """What one client address may hold at once: ``max_sockets`` open WebSocket connections
    (tabs, spectators), and ``max_games`` new games within ``window`` seconds."""

    def __init__(self, max_sockets: int, max_games: int, window: float = 60.0) -> None:
        self.max_sockets = max_sockets
        self.max_games = max_games
        self.window = window
        self.sockets: Counter[str] = Counter()
        self.created: dict[str, deque[float]] = {}

    def open_socket(self, client: str) -> None:
        """Count a new connection of ``client``: :class:`TooMany` if it holds its share."""
        if self.sockets[client] >= self.max_sockets:
            metrics.REFUSALS.labels("socket", "client").inc()
            raise TooMany(
                f"too many open connections from your address (limit {self.max_sockets}); "
                "close some tabs and try again",
                retry_after=10,
            )
        self.sockets[client] += 1

    def close_socket(self, client: str) -> None:
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]

    def _recent(self, client: str, now: float) -> deque[float]:
        times = self.created.get(client, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            self.created.pop(client, None)
        return times

    def check_new_game(self, client: str) -> None:
        """:class:`TooMany` if ``client`` created its share of games within the window."""
        now = time.monotonic()
        if len(self.created) > 10_000:  # forget idle clients
            for known in list(self.created):
                self._recent(known, now)
        times = self._recent(client, now)
        if len(times) >= self.max_games:
            metrics.REFUSALS.labels("game", "client").inc()
            wait = max(1, math.ceil(self.window - (now - times[0])))
            raise TooMany(
                f"too many new games from your address (limit {self.max_games} a minute); "
                f"try again in {wait} s",
                retry_after=wait,
            )

    def game_created(self, client: str) -> None:
        self.created.setdefault(client, deque()).append(time.monotonic())
