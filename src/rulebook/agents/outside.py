"""The two ways an agent outside the process sits at a table through the move protocol
(:mod:`rulebook.agents.protocol`): a program on this machine (``cmd:PATH [ARGS]``, JSON lines
over its stdin and stdout) and a remote agent (``ws:URL``, the same messages over a
WebSocket). Both are started once per game and stopped when it ends (:meth:`finish`)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import shlex
import shutil
import subprocess
import threading
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from rulebook.agents.protocol import AgentGone, OutsideAgent, Policy
from rulebook.core import State, UnknownGame

#: the time an outside agent has for each move unless the table says otherwise, in seconds
DEFAULT_SECONDS = 10.0
#: how long a program has to exit by itself after ``end`` before it is terminated, then killed
GRACE_SECONDS = 2.0
#: the stderr lines of a program kept to say why it stopped
KEPT_LINES = 5

log = logging.getLogger(__name__)


def _default_policy() -> Policy:
    return Policy(seconds=DEFAULT_SECONDS)


def _dumps(message: dict[str, Any]) -> str:
    """A message as one line of JSON (ASCII: any program's tools can read it)."""
    return json.dumps(message, separators=(",", ":"))


class ProgramAgent(OutsideAgent):
    """A program that plays a seat: started once per game with ``argv``, sent one JSON
    message per line on its stdin, answering each ``move`` message with one line on its
    stdout. Its stderr goes to the log (``rulebook.agents.outside``, level INFO), never to
    the terminal. A program that hangs is timed out; one that exits, or cannot be started,
    is gone: the table's policy plays its moves."""

    def __init__(
        self,
        argv: Sequence[str],
        seed: int = 0,
        *,
        policy: Policy | None = None,
        moves: bool = True,
        grace: float = GRACE_SECONDS,
    ) -> None:
        super().__init__(
            seed, policy=policy if policy is not None else _default_policy(), moves=moves
        )
        if not argv:
            raise ValueError("a program agent needs a program to run")
        self.argv = list(argv)
        self.name = "cmd:" + shlex.join(self.argv)
        self.grace = grace
        self._process: subprocess.Popen[bytes] | None = None
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._outbox: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=KEPT_LINES)
        #: reads the program's error output to its end (its last words, once it is gone)
        self._log_reader: threading.Thread | None = None
        #: answers to requests that timed out, still to come (and be dropped) before the next
        self._owed = 0
        self._stop: weakref.finalize[Any, Any] | None = None

    def open(self, state: State, player: int) -> None:
        self._answers = queue.Queue()
        self._outbox = queue.Queue()
        self._stderr.clear()
        self._owed = 0
        process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._process = process
        self._stop = weakref.finalize(self, _stop_process, process, 0.0)
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        threads = [
            threading.Thread(target=target, args=args, daemon=True)
            for target, args in (
                (_read_lines, (process.stdout, self._answers)),
                (_read_log, (process.stderr, self._stderr, self.name)),
                (_write_lines, (process.stdin, self._outbox)),
            )
        ]
        for thread in threads:
            thread.start()
        self._log_reader = threads[1]
        super().open(state, player)

    def send(self, message: dict[str, Any]) -> None:
        if self._process is None:
            raise AgentGone("the program is not running")
        self._outbox.put(_dumps(message))  # a writer thread: a program not reading never blocks

    def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
        self.send(message)
        while True:
            try:
                line = self._answers.get(timeout=seconds)
            except queue.Empty:
                self._owed += 1
                raise TimeoutError from None
            if line is None:
                self._answers.put(None)  # stays gone
                raise AgentGone(self._why_gone())
            if self._owed:  # the late answer to a request that timed out
                self._owed -= 1
                continue
            return line

    def _why_gone(self) -> str:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if self._log_reader is not None:  # its last line may still be on its way
            self._log_reader.join(timeout=1.0)
        said = f": {self._stderr[-1]}" if self._stderr else ""
        if code is None:
            return f"the program closed its output{said}"
        return f"the program exited with code {code}{said}"

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        self._outbox.put(None)  # closes its stdin once the messages before are written
        _stop_process(process, self.grace)
        if self._stop is not None:
            self._stop.detach()


def _stop_process(process: subprocess.Popen[bytes], grace: float) -> None:
    """Let a program exit within ``grace`` seconds, then terminate it, then kill it."""
    try:
        process.wait(timeout=grace)
        return
    except subprocess.TimeoutExpired:
        pass
    for stop in (process.terminate, process.kill):
        try:
            stop()
            process.wait(timeout=1.0)
            return
        except subprocess.TimeoutExpired:
            continue
        except OSError:
            return


def _read_lines(stream: IO[bytes], answers: queue.Queue[str | None]) -> None:
    """Each line a program writes, as text; ``None`` when it closes its output."""
    try:
        for raw in stream:
            answers.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    answers.put(None)


def _read_log(stream: IO[bytes], kept: deque[str], name: str) -> None:
    """A program's stderr, line by line, to the log (and the last lines kept)."""
    try:
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            kept.append(line)
            log.info("%s: %s", name, line)
    except (OSError, ValueError):
        pass


def _write_lines(stream: IO[bytes], outbox: queue.Queue[str | None]) -> None:
    """The messages for a program, a line each, until ``None``; then its stdin is closed."""
    try:
        while (line := outbox.get()) is not None:
            stream.write(line.encode() + b"\n")
            stream.flush()
    except (OSError, ValueError):
        pass  # the program is gone: its reader says so
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


class SocketAgent(OutsideAgent):
    """A remote agent at ``url`` (``ws://`` or ``wss://``): one WebSocket connection per
    game, one JSON message per WebSocket message, each ``move`` answered by one message."""

    def __init__(
        self,
        url: str,
        seed: int = 0,
        *,
        policy: Policy | None = None,
        moves: bool = True,
        connect_seconds: float = DEFAULT_SECONDS,
    ) -> None:
        super().__init__(
            seed, policy=policy if policy is not None else _default_policy(), moves=moves
        )
        self.url = url
        self.name = f"ws:{url}"
        self.connect_seconds = connect_seconds
        self._socket: Any = None
        self._owed = 0

    def open(self, state: State, player: int) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        self._owed = 0
        try:
            self._socket = connect(
                self.url, open_timeout=self.connect_seconds, max_size=None, legacy=True
            )
        except (WebSocketException, OSError) as error:
            raise AgentGone(f"could not connect to {self.url}: {error}") from None
        super().open(state, player)

    def send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import WebSocketException

        if self._socket is None:
            raise AgentGone("not connected")
        try:
            self._socket.send(_dumps(message))
        except WebSocketException as error:
            raise AgentGone(f"the connection closed: {error}") from None

    def exchange(self, message: dict[str, Any], seconds: float | None) -> str:
        from websockets.exceptions import WebSocketException

        self.send(message)
        while True:
            try:
                data = self._socket.recv(timeout=seconds)
            except TimeoutError:
                self._owed += 1
                raise
            except WebSocketException as error:
                raise AgentGone(f"the connection closed: {error}") from None
            if self._owed:
                self._owed -= 1
                continue
            text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
            return str(text).strip()

    def close(self) -> None:
        socket, self._socket = self._socket, None
        if socket is not None:
            try:
                socket.close()
            except Exception:
                log.debug("closing %s", self.url, exc_info=True)


def program_agent(rest: str, seed: int = 0) -> ProgramAgent:
    """The agent of ``cmd:PATH [ARGS]`` (``rest`` is what follows ``cmd:``): the program must
    exist and be executable (:class:`UnknownGame` saying so otherwise). Its path may be
    relative to the current directory or found on ``PATH``."""
    try:
        argv = shlex.split(rest)
    except ValueError as error:
        raise UnknownGame(f"cannot read the command {rest!r}: {error}") from None
    if not argv:
        raise UnknownGame("cmd: needs a program: cmd:PATH [ARGS]")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        found = os.path.abspath(program)
        if not os.path.isfile(found) or not os.access(found, os.X_OK):
            raise UnknownGame(f"no executable program at {program!r} (cmd:PATH [ARGS])")
    else:
        which = shutil.which(program)
        if which is None:
            raise UnknownGame(f"no program {program!r} on the PATH (cmd:PATH [ARGS])")
        found = which
    return ProgramAgent([found, *argv[1:]], seed)


def socket_agent(rest: str, seed: int = 0) -> SocketAgent:
    """The agent of ``ws:URL``: the URL must be a ``ws://`` or ``wss://`` one; the
    ``websockets`` package (the ``web`` extra) must be installed."""
    url = rest.strip()
    if not url.startswith(("ws://", "wss://")) or len(url.split("//", 1)[1]) == 0:
        raise UnknownGame(f"ws: needs a WebSocket URL (ws://HOST:PORT/PATH), not {rest!r}")
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise UnknownGame(
            "ws: seats need the websockets package: pip install 'rulebook[web]'"
        ) from None
    return SocketAgent(url, seed)
