"""The errors a web request can meet, each with the HTTP status and a one-line reason."""

from __future__ import annotations


class WebError(Exception):
    """A request the server refuses; nothing was changed. ``str(error)`` is the reason and
    ``status`` the HTTP status, which each kind of refusal names in its class line
    (``class NotFound(WebError, status=404)``)."""

    status = 400
    #: seconds the client is asked to wait before it asks again (``Retry-After``), if any
    retry_after: int | None = None

    def __init_subclass__(cls, status: int = 400) -> None:
        super().__init_subclass__()
        cls.status = status


class BadRequest(WebError, status=400):
    """Not usable as sent: a form value out of range, a save file that does not load, a
    message not understood."""


class Forbidden(WebError, status=403):
    """Not this client's to do: a wrong or missing token or key, a seat its link does not
    hold."""


class NotFound(WebError, status=404):
    """No such game, board file, card list or how-to-play."""


class Conflict(WebError, status=409):
    """Well-formed, but not possible now: an illegal move, a move out of turn, a stale page."""


class TooLarge(WebError, status=413):
    """A save file or a message over its size limit."""


class TooMany(WebError, status=429):
    """A client asked for more than its share (connections, new games); ``retry_after`` is in
    seconds."""

    def __init__(self, reason: str, retry_after: int = 60) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Busy(WebError, status=503):
    """The server is past what it can serve now (:mod:`rulebook.web.overload`): nothing was
    changed; ask again after ``retry_after`` seconds."""

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
