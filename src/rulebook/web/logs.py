"""The server's log lines: each request's id, game and seat carried to every line logged while
it is served, and ``rulebook serve --log-format json``'s one JSON object per line.

A request's id is its ``X-Request-ID`` header when that is a short plain word (a proxy's), else
one made here; it is sent back in the answer's ``X-Request-ID``. Tokens never reach a line: they
travel in ``Authorization`` headers and WebSocket messages, which are never logged, and
:class:`rulebook.web.server.Redact` blanks anything shaped like one that a client puts in a URL.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the request being served (its ASGI scope, which routing fills with the game's id)
_SCOPE: contextvars.ContextVar[Scope | None] = contextvars.ContextVar("scope", default=None)
_REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request", default=None)
_SEAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("seat", default=None)
#: a request id taken as the client gave it
_PLAIN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: what a token could look like (blanked in tracebacks as :class:`Redact` does in messages)
SECRET = re.compile(r"(?i)(bearer\s+|token[=:]\s*\"?)[A-Za-z0-9_\-]{8,}")


def seat_known(seat: int) -> None:
    """The request acts for ``seat`` (from now on its lines name it)."""
    _SEAT.set(seat)


class RequestContext:
    """Gives each request (HTTP or WebSocket) its id, for every line logged while it runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        text = given.decode("latin-1")
        request_id = text if _PLAIN_ID.fullmatch(text) else secrets.token_hex(8)
        _SCOPE.set(scope)
        _REQUEST_ID.set(request_id)
        _SEAT.set(None)
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        header = (b"x-request-id", request_id.encode())

        async def with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        await self.app(scope, receive, with_id)


def stamp(record: logging.LogRecord) -> None:
    """Write the request's id, game and seat on ``record`` (in the thread that logged it: the
    context is gone once the record is handed to the log's writing thread)."""
    if hasattr(record, "request_id"):
        return
    scope = _SCOPE.get()
    game = None
    if scope is not None:
        game = (scope.get("path_params") or {}).get("game_id")
    record.request_id = _REQUEST_ID.get()
    record.game_id = game if isinstance(game, str) and len(game) <= 64 else None
    record.seat = _SEAT.get()


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the request's id, game and
    seat where known (a traceback, when a line has one, as one string)."""

    def format(self, record: logging.LogRecord) -> str:
        stamp(record)
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("request_id", "game_id", "seat"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["traceback"] = SECRET.sub(r"\1[redacted]", self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def json_line(message: str, level: str = "INFO") -> str:
    """A line of the JSON log written before logging is set up (the start's banner)."""
    record = logging.LogRecord(
        "rulebook.web", logging.getLevelName(level), "", 0, message, (), None
    )
    return JsonLines().format(record)
