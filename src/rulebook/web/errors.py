"""The errors a web request can meet, each with the HTTP status and a one-line reason."""

from __future__ import annotations


class WebError(Exception):
    """A request the server refuses; nothing was changed. ``str(error)`` is the reason."""

    status = 400


class BadRequest(WebError):
    status = 400


class Forbidden(WebError):
    status = 403


class NotFound(WebError):
    status = 404


class Conflict(WebError):
    """Well-formed, but not possible now: an illegal move, a move out of turn, a stale page."""

    status = 409


class TooLarge(WebError):
    status = 413


class TooMany(WebError):
    """A client asked for more than its share (connections, new games); ``retry_after`` is in
    seconds."""

    status = 429

    def __init__(self, reason: str, retry_after: int = 60) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
