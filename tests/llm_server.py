"""A local OpenAI-compatible chat server for the tests of the ``llm:`` seat: POST
``/v1/chat/completions`` on 127.0.0.1 (a free port) answers with recorded replies, in order,
and keeps every request it was sent (:attr:`ChatServer.requests`).

A reply is a :class:`Reply` (or a plain string: its content). Past the recorded ones, the
server calls ``then`` with the request's body, or answers HTTP 500 if there is none.
:func:`first_move` answers the first move listed in the prompt: a seat that always plays it.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One recorded answer: its text (``None``: a message without content), the tokens its
    ``usage`` reports (``usage=False``: no usage at all), a pause before answering, and an
    HTTP status other than 200 (then ``content`` is the error's message), and why the answer
    ended (``"length"``: cut short by the token limit)."""

    content: str | None
    prompt_tokens: int = 100
    completion_tokens: int = 10
    usage: bool = True
    delay: float = 0.0
    status: int = 200
    finish_reason: str = "stop"


#: the first move of the numbered list of a prompt
_FIRST = re.compile(r"^Your legal moves:\n1\. (.+)$", re.MULTILINE)


def first_move(body: dict[str, Any]) -> Reply:
    """The first move listed in the request's prompt (the last user message listing moves:
    after a bad answer the last one is the error line), exactly as listed."""
    for message in reversed(body["messages"]):
        found = _FIRST.search(message["content"]) if message["role"] == "user" else None
        if found:
            return Reply(found[1], 50, 3)
    return Reply("no moves were listed", 50, 3)


class ChatServer:
    """The server (see the module docstring); a context manager: started on entry, stopped
    on exit."""

    def __init__(
        self, *replies: Reply | str, then: Callable[[dict[str, Any]], Reply] | None = None
    ) -> None:
        self.replies = [r if isinstance(r, Reply) else Reply(r) for r in replies]
        self.then = then
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = server._next(body, dict(self.headers))
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(reply.status, {"error": {"message": reply.content}})
                    return
                answer: dict[str, Any] = {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", ""),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.content},
                            "finish_reason": reply.finish_reason,
                        }
                    ],
                }
                if reply.usage:
                    answer["usage"] = {
                        "prompt_tokens": reply.prompt_tokens,
                        "completion_tokens": reply.completion_tokens,
                        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                    }
                self._send(200, answer)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up waiting (a timeout test)
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL of the endpoint, as an ``llm:`` spec gives it."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self.replies:
                return self.replies.pop(0)
        if self.then is not None:
            return self.then(body)
        return Reply("no recorded reply is left", status=500)

    def user_messages(self, request: int = -1) -> list[str]:
        """The user messages of one request received (the last by default)."""
        return [m["content"] for m in self.requests[request]["messages"] if m["role"] == "user"]

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
