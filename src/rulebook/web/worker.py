"""Worker processes of the web app, driven from the event loop without threads.

A worker is a Python process running :func:`main`: it reads requests on its stdin and writes
answers on its stdout, each a pickle behind its 4-byte length. The server reads the answers
from the event loop itself, so asking a worker costs one pipe write and no thread hand-over
(a ``ProcessPoolExecutor`` wakes two threads of the server per request, and the event loop
then waits for the interpreter lock: a tenth of its time under ``make bench-web``).

A worker that dies (killed, out of memory) is noticed by the end of its stdout: every request
it held fails with :class:`WorkerLost`, and the next request starts a new worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

log = logging.getLogger("rulebook.web")

_HEAD = struct.Struct(">I")


class WorkerLost(Exception):
    """The worker computing an answer died before giving it; a new one takes over."""


class WorkerFailed(Exception):
    """The work raised an exception in the worker (its one-line description)."""


def _functions() -> dict[str, Callable[..., Any]]:
    from rulebook.web import bot_moves

    return {"choose": bot_moves.choose, "reveals": bot_moves.reveals}


def _read(stream: BinaryIO) -> Any:
    head = stream.read(_HEAD.size)
    if len(head) < _HEAD.size:
        return None
    body = stream.read(_HEAD.unpack(head)[0])
    return pickle.loads(body)


def main() -> None:
    """The worker's loop: answer requests until stdin ends or its answers cannot be written
    (the server stopped or died: ``kill -9`` of a server leaves its worker a broken pipe,
    which ends it without a trace in the log the server shared with it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not break the answers
    import rulebook

    rulebook.games()  # import every game once, before the first request
    functions = _functions()
    while (request := _read(requests)) is not None:
        number, name, args = request
        try:
            answer = (number, True, functions[name](*args))
        except Exception as exc:
            answer = (number, False, f"{type(exc).__name__}: {exc}")
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            answers.write(_HEAD.pack(len(data)) + data)
            answers.flush()
        except BrokenPipeError:
            # Python would say so again as it flushes stdout on exit: point it at nothing
            os.dup2(os.open(os.devnull, os.O_WRONLY), answers.fileno())
            return


class Worker:
    """One worker process and the requests it holds (answers come back in any order)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.numbers = itertools.count()
        self.reader = asyncio.get_running_loop().create_task(self._read_answers())

    @classmethod
    async def start(cls) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            # Ctrl-C is for the server, which stops its workers: ignored from the first line,
            # so one that comes while the worker still imports ends nothing with a trace
            "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "
            "from rulebook.web.worker import main; main()",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        return cls(process)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None and not self.reader.done()

    async def call(self, name: str, *args: Any) -> Any:
        """``name(*args)`` in this worker (:class:`WorkerLost` if it dies meanwhile)."""
        if self.reader.done():  # gone: nobody would answer
            raise WorkerLost("a worker process stopped")
        number = next(self.numbers)
        answer = asyncio.get_running_loop().create_future()
        self.pending[number] = answer  # the reader answers it, or fails it as it ends
        data = pickle.dumps((number, name, args), protocol=pickle.HIGHEST_PROTOCOL)
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(_HEAD.pack(len(data)) + data)
            await self.process.stdin.drain()
        except (ConnectionError, RuntimeError):
            self.pending.pop(number, None)
            raise WorkerLost("a worker process stopped") from None
        return await answer

    async def _read_answers(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                head = await stdout.readexactly(_HEAD.size)
                number, ok, value = pickle.loads(await stdout.readexactly(_HEAD.unpack(head)[0]))
                answer = self.pending.pop(number, None)
                if answer is not None and not answer.done():
                    if ok:
                        answer.set_result(value)
                    else:
                        answer.set_exception(WorkerFailed(value))
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError):
            pass  # the worker is gone
        finally:
            lost = list(self.pending.values())
            self.pending.clear()
            for answer in lost:
                if not answer.done():
                    answer.set_exception(WorkerLost("a worker process stopped"))

    def load(self) -> int:
        return len(self.pending)

    async def stop(self) -> None:
        """End the worker: its stdin closes (it exits), a kill if it does not."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            async with asyncio.timeout(2):
                await self.process.wait()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class Workers:
    """``size`` worker processes: a request goes to the one holding the fewest; a dead one is
    replaced by the next request."""

    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self.workers: list[Worker] = []
        self.restarts = 0
        self._starting: asyncio.Lock | None = None

    async def start(self) -> None:
        self._starting = asyncio.Lock()
        self.workers = [await Worker.start() for _ in range(self.size)]

    async def pick(self, prefer: Callable[[Worker], bool] | None = None) -> Worker:
        """The worker for a request: an idle one ``prefer`` likes (the one holding the game
        asked about), else the one holding the fewest requests; a dead one is replaced."""
        assert self._starting is not None, "start() first"
        async with self._starting:
            for i, worker in enumerate(self.workers):
                if not worker.alive:
                    log.warning(
                        "a %s process stopped (exit code %s); starting a new one",
                        self.name,
                        worker.process.returncode,
                    )
                    self.workers[i] = await Worker.start()
                    self.restarts += 1
                    with contextlib.suppress(Exception):
                        await worker.stop()
        if prefer is not None:
            for worker in self.workers:
                if worker.load() == 0 and prefer(worker):
                    return worker
        return min(self.workers, key=Worker.load)

    async def call(self, name: str, *args: Any) -> Any:
        worker = await self.pick()
        return await worker.call(name, *args)

    async def stop(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(Exception):
                await worker.stop()
