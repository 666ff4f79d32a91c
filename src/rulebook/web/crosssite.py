"""Posts from other sites are refused (cross-site request forgery). A page elsewhere could
otherwise have a visitor's browser post the new-game form, creating games from the visitor's
address (spending their games a minute) and landing them on a page of its choosing.

Every request but GET, HEAD and OPTIONS must come from this site's own pages. The browser says
where a request comes from: ``Sec-Fetch-Site`` (every current browser sends it) must be
``same-origin``, or ``none`` for a request the user made (the address bar, a bookmark); where it
is missing, ``Origin`` must name this server as the request reached it (scheme, ``Host`` header,
port). A request with neither header is not a browser's cross-site post (a browser sends one of
them with every post from another page): curl, scripts and tests, taken as they are.

The same test applies to a WebSocket's opening handshake (browsers send ``Origin`` with every
one): a socket another site's page opened may watch a game, but its moves are refused
(:mod:`rulebook.web.api`)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: what ``Sec-Fetch-Site`` says of a request this site's pages (or the user) made
OWN = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}
REFUSED = "cross-site request refused: this server takes changes only from its own pages"


def _origin(scheme: str, host: str) -> tuple[str, str, int] | None:
    """(scheme, host name, port) of ``scheme://host``; None if it is not one."""
    try:
        parts = urlsplit(f"{scheme}://{host}")
        port = parts.port
    except ValueError:  # a port out of range, a bracket unclosed
        return None
    if not parts.hostname or parts.path or parts.query or parts.fragment or parts.username:
        return None
    return scheme.lower(), parts.hostname, port or DEFAULT_PORTS.get(scheme.lower(), 0)


#: the HTTP scheme a WebSocket's own is the counterpart of (an ``Origin`` names a page's)
PAGE_SCHEMES = {"ws": "http", "wss": "https"}


def cross_site(scope: Scope) -> bool:
    """Whether an HTTP request is a change asked by another site's page, or a WebSocket was
    opened by one (its moves are then refused: it may watch, as anyone may)."""
    if scope["type"] == "http" and scope["method"] in SAFE_METHODS:
        return False
    headers = Headers(scope=scope)
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.strip().lower() not in OWN
    origin = headers.get("origin")
    if origin is None:
        return False
    scheme, _, rest = origin.strip().partition("://")
    theirs = _origin(scheme, rest) if rest else None
    scheme_here = str(PAGE_SCHEMES.get(scope["scheme"], scope["scheme"]))
    ours = _origin(scheme_here, headers.get("host", ""))
    return theirs is None or theirs != ours


class SameOrigin:
    """Answers a cross-site change with ``refuse(request, reason)`` (a 403) before the app
    reads its body."""

    def __init__(self, app: ASGIApp, refuse: Callable[[Request, str], Response]) -> None:
        self.app = app
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and cross_site(scope):
            response = self.refuse(Request(scope), REFUSED)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
